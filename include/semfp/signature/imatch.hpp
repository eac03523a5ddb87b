#pragma once
/// \file
/// `IMatch`: I-Match signatures (Chowdhury, Frieder, Grossman and McCabe, 2002) and their
/// multi-lexicon form (Kolcz, Chowdhury and Alspector, 2004).
///
/// I-Match keeps only the terms of a document that belong to a lexicon of mid-frequency terms
/// (very common terms carry no identity, very rare ones are often typos and noise) and digests
/// the sorted set of the kept terms: two documents match when the digests are equal. Insertions
/// and deletions of words outside the lexicon do not change the signature; any change to the set
/// of lexicon terms does. The multi-lexicon form computes K signatures over K random
/// sub-lexicons and declares a match when any pair is equal, so one changed term breaks only
/// the signatures whose sub-lexicon contains it.
///
/// Here the lexicon is an IDF band over an `IdfTable` (from a corpus, a file, or the embedded
/// jieba table), and sub-lexicon k keeps a term when a seeded hash of it falls below
/// `keep_fraction`: no lexicon is materialized, so membership costs one hash per term and the
/// signatures are reproducible from (table, band, K, fraction, seed). As for keyword
/// fingerprints, a document without lexicon terms gets the exact signature of its normalized
/// text instead of a shared empty-set digest.

#include <semfp/concepts.hpp>
#include <semfp/core/digest.hpp>
#include <semfp/core/fingerprint.hpp>
#include <semfp/core/hash.hpp>
#include <semfp/core/weighting.hpp>
#include <semfp/error.hpp>
#include <semfp/signature/keyword.hpp>
#include <semfp/text/normalize.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace semfp {
inline namespace v0 {

/// Options of `IMatch`.
struct imatch_options {
    double min_idf = 0.0;      ///< lexicon: terms with min_idf <= idf(term) <= max_idf
    double max_idf = 1e300;    ///< (unknown terms have the table's default IDF)
    std::size_t lexicons = 1;  ///< K: 1 is plain I-Match over the whole lexicon
    double keep_fraction = 0.7;   ///< with K > 1: share of the lexicon in each sub-lexicon
    /// Fewest lexicon terms a (sub-lexicon) signature digests: with fewer, the signature is the
    /// exact signature of the text, so that documents sharing one or two terms of a sub-lexicon
    /// do not match through it (a precision margin for K > 1). 1 keeps every non-empty set.
    std::size_t min_terms = 1;
    std::uint64_t seed = 0x5eed'1a7c'0000'0001ull;  ///< chooses the sub-lexicons
    normalize_options normalize = default_fingerprint_options<128>().normalize;
};

/// I-Match signatures over an IDF band, with `Tok` tokens and `Hash` digests (default `Md5`).
///
/// The `IdfTable` is held by reference and must outlive the object. Const and thread-safe if
/// `Tok::tokenize` is.
template <Tokenizer Tok, HashPolicy Hash = Md5>
class IMatch {
public:
    using fingerprint_type = Fingerprint<128>;

    /// I-Match over `idf` with tokenizer `tok` and options `opt`.
    /// \throws invalid_argument_error if the band is empty or not finite-ordered, K is 0 or above
    /// 64, or `keep_fraction` is not in (0, 1].
    IMatch(const IdfTable& idf, Tok tok, imatch_options opt = {})
        : m_idf(&idf), m_tokenizer(std::move(tok)), m_options(opt) {
        if (!(opt.min_idf <= opt.max_idf)) detail::throw_invalid_argument("IMatch: min_idf must be <= max_idf");
        if (opt.lexicons == 0 || opt.lexicons > 64) detail::throw_invalid_argument("IMatch: lexicons must be 1..64");
        if (opt.min_terms == 0) detail::throw_invalid_argument("IMatch: min_terms must be >= 1");
        if (!(opt.keep_fraction > 0.0 && opt.keep_fraction <= 1.0))
            detail::throw_invalid_argument("IMatch: keep_fraction must be in (0, 1]");
        m_keep_below = opt.keep_fraction >= 1.0 ? ~std::uint64_t{0}
                                                : static_cast<std::uint64_t>(std::ldexp(opt.keep_fraction, 64));
    }

    /// Number of signatures per document (K).
    [[nodiscard]] std::size_t size() const noexcept { return m_options.lexicons; }

    /// The first signature of `text` (with K = 1, the I-Match signature).
    [[nodiscard]] fingerprint_type operator()(std::string_view text) const {
        fingerprint_type one[1];
        signatures_into(text, std::span<fingerprint_type>(one, 1));
        return one[0];
    }

    /// The K signatures of `text`, in sub-lexicon order.
    [[nodiscard]] std::vector<fingerprint_type> signatures(std::string_view text) const {
        std::vector<fingerprint_type> out(size());
        signatures_into(text, out);
        return out;
    }

    /// Writes the first `min(out.size(), K)` signatures of `text` to `out`. O(t log t).
    void signatures_into(std::string_view text, std::span<fingerprint_type> out) const {
        thread_local std::string norm;
        thread_local std::vector<std::string_view> terms;
        thread_local std::string key;
        normalize_into(text, norm, m_options.normalize);
        terms.clear();
        m_tokenizer.tokenize(std::string_view(norm), [&](std::string_view t) {
            const double v = m_idf->idf(t);
            if (v >= m_options.min_idf && v <= m_options.max_idf) terms.push_back(t);
        });
        std::sort(terms.begin(), terms.end());
        terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
        const std::size_t k_max = std::min(out.size(), size());
        for (std::size_t k = 0; k < k_max; ++k) {
            key.clear();
            std::size_t kept = 0;
            for (const std::string_view t : terms) {
                if (size() > 1 && Murmur3::hash128_seeded(t, m_options.seed + k).lo > m_keep_below) continue;
                key.append(t);
                key.push_back('\n');
                ++kept;
            }
            // Fewer than min_terms lexicon terms (by default: none): the exact signature of the
            // text, the same for every sub-lexicon.
            out[k] = kept < m_options.min_terms ? digest_fingerprint<Hash>(norm) : digest_fingerprint<Hash>(key);
        }
    }

    /// The lexicon terms of `text` (sorted, unique): what the K = 1 signature digests.
    [[nodiscard]] std::vector<std::string> lexicon_terms(std::string_view text) const {
        const std::string norm = normalize(text, m_options.normalize);
        std::vector<std::string> out;
        m_tokenizer.tokenize(std::string_view(norm), [&](std::string_view t) {
            const double v = m_idf->idf(t);
            if (v >= m_options.min_idf && v <= m_options.max_idf) out.emplace_back(t);
        });
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
        return out;
    }

    /// True when any signature of `a` equals the signature of `b` at the same position (the
    /// multi-lexicon match rule). O(K).
    [[nodiscard]] static bool matches(std::span<const fingerprint_type> a, std::span<const fingerprint_type> b) noexcept {
        const std::size_t n = std::min(a.size(), b.size());
        for (std::size_t i = 0; i < n; ++i)
            if (a[i] == b[i]) return true;
        return false;
    }

    /// The options.
    [[nodiscard]] const imatch_options& options() const noexcept { return m_options; }

private:
    const IdfTable* m_idf;
    Tok m_tokenizer;
    imatch_options m_options;
    std::uint64_t m_keep_below = ~std::uint64_t{0};
};

}  // namespace v0
}  // namespace semfp
