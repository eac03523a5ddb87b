#pragma once
/// \file
/// `KeywordFingerprinter`: the exact "semantic fingerprint" of the crawler articles (a digest of
/// a page's top keywords), and `exact_signature`, the digest of the whole normalized text.
///
/// The articles' system keeps the n most important words of a page, puts them in a canonical
/// order and stores a digest of them: two pages are duplicates when their digests are equal.
/// Equality (not a Hamming radius) is the point: it can be checked against a store of billions
/// of fingerprints with a hash lookup or a Bloom filter (index/fingerprint_set.hpp,
/// index/bloom_filter.hpp). The design follows from that:
/// - every choice is deterministic and platform-independent: weights are tf or tf x idf (times
///   an opt-in part-of-speech factor, pos_tags.hpp), ties are broken by the term's bytes
///   (code-point order for UTF-8), and the kept terms are hashed in code-point order, so the
///   same text gives the same digest everywhere;
/// - the digest is a 128-bit `Md5` by default (stores hold billions of keys; 64 bits would give
///   collisions), printed as `md5sum` prints it;
/// - a text whose tokens give no keyword falls back to the exact signature of its normalized
///   text, so that term-less documents do not all share one fingerprint.
/// Term counting sorts views into the normalized text in reusable scratch buffers: no
/// allocation per token, and none per call in steady state.

#include <semfp/concepts.hpp>
#include <semfp/core/digest.hpp>
#include <semfp/core/fingerprint.hpp>
#include <semfp/core/fingerprinter.hpp>
#include <semfp/core/weighting.hpp>
#include <semfp/error.hpp>
#include <semfp/signature/pos_tags.hpp>
#include <semfp/text/normalize.hpp>
#include <semfp/text/utf8.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace semfp {
inline namespace v0 {

/// A 128-bit fingerprint from a hash policy's 128-bit value (`hi` is the most significant word).
template <HashPolicy Hash>
[[nodiscard]] constexpr Fingerprint<128> digest_fingerprint(std::string_view bytes) noexcept {
    const hash128_t h = Hash::hash128(bytes);
    return Fingerprint<128>({h.hi, h.lo});
}

/// The exact signature of `text`: the `Hash` digest (default `Md5`) of its normalized form (by
/// default the 128-bit pipeline's normalization: width, case, script and Taiwan vocabulary
/// folds). Equal signatures mean texts equal after normalization. Total: any bytes (invalid
/// UTF-8 is normalized as documented in normalize.hpp); O(text size).
template <HashPolicy Hash = Md5>
[[nodiscard]] Fingerprint<128> exact_signature(std::string_view text,
                                               const normalize_options& opt = default_fingerprint_options<128>().normalize) {
    thread_local std::string norm;
    normalize_into(text, norm, opt);
    return digest_fingerprint<Hash>(norm);
}

/// Options of a `KeywordFingerprinter`.
struct keyword_options {
    /// Number of keywords kept (n >= 1). The articles use 8.
    std::size_t count = 8;
    /// Hash each keyword with its quantized frequency (the articles' "keywords with their
    /// frequencies"): frequency tf becomes bucket bit_width(tf) (1, 2-3, 4-7, ...).
    bool with_frequencies = false;
    /// Tokens shorter than this many code points are not keywords (single Han characters are
    /// mostly function words). 1 keeps every token.
    std::size_t min_chars = 2;
    /// TF-IDF when set (not owned: must outlive the fingerprinter); TF otherwise.
    const IdfTable* idf = nullptr;
    /// Part-of-speech tags for the weight boost (not owned: must outlive the fingerprinter and
    /// hold all its tags before the fingerprinter is constructed); none by default.
    const PosTable* pos = nullptr;
    /// Factors multiplying the weight of nouns, proper nouns and verbs when `pos` is set (all 1
    /// by default: opt-in). A factor applies before the top n are chosen.
    pos_boost boost{};
    /// Normalization before tokenizing.
    normalize_options normalize = default_fingerprint_options<128>().normalize;
};

/// One chosen keyword, as `KeywordFingerprinter::keywords` explains it.
struct keyword {
    std::string term;         ///< the normalized term
    std::uint32_t count = 0;  ///< occurrences in the document
    double weight = 0;        ///< tf, or tf x idf
};

/// Reusable buffers of a `KeywordFingerprinter` call.
struct keyword_scratch {
    std::string text;                                   ///< the normalized text
    std::vector<std::string_view> tokens;               ///< token views, then sorted
    std::vector<std::pair<std::string_view, std::uint32_t>> terms;  ///< distinct terms and counts
    std::vector<double> weights;                        ///< weight of each distinct term
    std::vector<std::size_t> order;                     ///< candidate order
    std::string key;                                    ///< the bytes that are hashed
};

/// Keyword fingerprints: the `count` heaviest terms of a text (ties broken by code-point order),
/// re-sorted in code-point order and hashed with `Hash` into a `Fingerprint<128>`.
///
/// The hashed bytes are the terms, each followed by `'\n'` (or by `'\t'`, the frequency bucket
/// in decimal and `'\n'` with `with_frequencies`). Documents with fewer distinct eligible terms
/// than `count` hash all of them. Const and thread-safe if `Tok::tokenize` is.
template <Tokenizer Tok, HashPolicy Hash = Md5>
class KeywordFingerprinter {
public:
    using tokenizer_type = Tok;
    using hash_policy = Hash;
    using fingerprint_type = Fingerprint<128>;

    /// A fingerprinter with a default-constructed tokenizer and default options (8 keywords, TF).
    KeywordFingerprinter()
        requires std::default_initializable<Tok>
    = default;

    /// A fingerprinter with tokenizer `tok` and options `opt`.
    /// \throws invalid_argument_error if `opt.count` is 0 or a boost factor is not finite and
    /// positive.
    explicit KeywordFingerprinter(Tok tok, keyword_options opt = {}) : m_tokenizer(std::move(tok)), m_options(opt) {
        if (m_options.count == 0) detail::throw_invalid_argument("KeywordFingerprinter: count must be >= 1");
        for (const double f : {opt.boost.noun, opt.boost.proper_noun, opt.boost.verb})
            if (!(f > 0.0) || !std::isfinite(f))
                detail::throw_invalid_argument("KeywordFingerprinter: boost factors must be finite and > 0");
        if (m_options.pos != nullptr && !m_options.boost.neutral()) {
            m_pos = m_options.pos;  // without a boost, no lookup
            m_pos_factor = detail::pos_factors(*m_pos, m_options.boost);
        }
    }

    /// The keyword fingerprint of `text` (per-thread scratch). O(t log t) for t tokens.
    [[nodiscard]] fingerprint_type operator()(std::string_view text) const {
        thread_local keyword_scratch scratch;
        return (*this)(text, scratch);
    }

    /// The keyword fingerprint of `text`, using the caller's scratch buffers.
    [[nodiscard]] fingerprint_type operator()(std::string_view text, keyword_scratch& s) const {
        const std::size_t kept = select(text, s);
        if (kept == 0) return digest_fingerprint<Hash>(s.text);
        s.key.clear();
        for (std::size_t i = 0; i < kept; ++i) {
            const auto& [term, count] = s.terms[s.order[i]];
            s.key.append(term);
            if (m_options.with_frequencies) {
                char buf[8];
                const auto r = std::to_chars(buf, buf + sizeof buf, static_cast<unsigned>(std::bit_width(count)));
                s.key.push_back('\t');
                s.key.append(buf, r.ptr);
            }
            s.key.push_back('\n');
        }
        return digest_fingerprint<Hash>(s.key);
    }

    /// The keywords the fingerprint of `text` hashes, in the order they are hashed (code-point
    /// order); empty when the text has no eligible term.
    [[nodiscard]] std::vector<keyword> keywords(std::string_view text) const {
        keyword_scratch s;
        const std::size_t kept = select(text, s);
        std::vector<keyword> out;
        out.reserve(kept);
        for (std::size_t i = 0; i < kept; ++i) {
            const auto& [term, count] = s.terms[s.order[i]];
            out.push_back({std::string(term), count, weight(term, count)});
        }
        return out;
    }

    /// The tokenizer.
    [[nodiscard]] const Tok& tokenizer() const noexcept { return m_tokenizer; }
    /// The options.
    [[nodiscard]] const keyword_options& options() const noexcept { return m_options; }

private:
    [[nodiscard]] double weight(std::string_view term, std::uint32_t count) const noexcept {
        const double tf = static_cast<double>(count);
        const double w = m_options.idf != nullptr ? tf * m_options.idf->idf(term) : tf;
        return m_pos != nullptr ? w * m_pos_factor[m_pos->tag_of(term)] : w;
    }

    // Fills s.terms with the distinct eligible terms and s.order with the indices of the kept
    // ones in code-point order; returns how many are kept.
    std::size_t select(std::string_view text, keyword_scratch& s) const {
        normalize_into(text, s.text, m_options.normalize);
        s.tokens.clear();
        const std::size_t min_chars = m_options.min_chars;
        m_tokenizer.tokenize(std::string_view(s.text), [&](std::string_view t) {
            if (min_chars <= 1 || count_code_points_at_least(t, min_chars)) s.tokens.push_back(t);
        });
        std::sort(s.tokens.begin(), s.tokens.end());
        s.terms.clear();
        for (const std::string_view t : s.tokens) {
            if (!s.terms.empty() && s.terms.back().first == t) ++s.terms.back().second;
            else s.terms.emplace_back(t, 1u);
        }
        // One weight (one IDF lookup) per distinct term, not one per comparison.
        s.weights.resize(s.terms.size());
        for (std::size_t i = 0; i < s.terms.size(); ++i) s.weights[i] = weight(s.terms[i].first, s.terms[i].second);
        s.order.resize(s.terms.size());
        for (std::size_t i = 0; i < s.order.size(); ++i) s.order[i] = i;
        const std::size_t kept = std::min(m_options.count, s.terms.size());
        // Heaviest first; equal weights in code-point order (the terms are sorted, so the index
        // order is the code-point order). The comparator is a strict total order, so
        // nth_element selects exactly the set partial_sort would; only that set is hashed
        // (after the code-point sort below), so its internal order does not matter.
        const auto heavier = [&w = s.weights](std::size_t a, std::size_t b) noexcept {
            return w[a] != w[b] ? w[a] > w[b] : a < b;
        };
        if (kept < s.order.size())
            std::nth_element(s.order.begin(), s.order.begin() + static_cast<std::ptrdiff_t>(kept), s.order.end(), heavier);
        std::sort(s.order.begin(), s.order.begin() + static_cast<std::ptrdiff_t>(kept));
        return kept;
    }

    // True if `t` has at least `n` code points (lead bytes), without scanning past them.
    [[nodiscard]] static bool count_code_points_at_least(std::string_view t, std::size_t n) noexcept {
        std::size_t cps = 0;
        for (const char ch : t)
            if ((static_cast<unsigned char>(ch) & 0xC0) != 0x80 && ++cps >= n) return true;
        return false;
    }

    Tok m_tokenizer{};
    keyword_options m_options{};
    const PosTable* m_pos = nullptr;         // options().pos when the boost is not neutral
    std::array<double, 256> m_pos_factor{};  // by tag id
};

}  // namespace v0
}  // namespace semfp
