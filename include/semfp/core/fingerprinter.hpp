#pragma once
/// \file
/// `Fingerprinter<Tokenizer, Hash, Bits>`: the text -> fingerprint pipeline (normalize, tokenize,
/// weight, Simhash), and the one-call `semfp::fingerprint(text)`.

#include <semfp/concepts.hpp>
#include <semfp/core/fingerprint.hpp>
#include <semfp/core/fused_fingerprint.hpp>
#include <semfp/core/hash.hpp>
#include <semfp/core/simhash.hpp>
#include <semfp/core/sketch_phrase_fold.hpp>
#include <semfp/core/weighting.hpp>
#include <semfp/text/normalize.hpp>
#include <semfp/text/stopwords.hpp>
#include <semfp/text/tokenizers.hpp>

#include <algorithm>
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

/// Options of a `Fingerprinter`.
struct fingerprint_options {
    normalize_options normalize{};     ///< text normalization before tokenizing
    tf_scaling tf = tf_scaling::raw;   ///< term-frequency weighting
    const IdfTable* idf = nullptr;     ///< TF-IDF when set (not owned: must outlive the fingerprinter)
};

namespace detail {

/// Counts of the distinct terms of one document, keyed by their feature hash (the first and last
/// hash words): open addressing, at most half full, cleared in time proportional to the terms.
class term_counter {
public:
    using key_type = std::array<std::uint64_t, 2>;

    /// Counts one occurrence of `key` with weight `w` (the smallest weight seen is kept).
    void add(const key_type& key, std::uint32_t w) {
        if ((m_used.size() + 1) * 2 > m_slots.size()) grow();
        for (std::size_t i = home(key);; i = (i + 1) & (m_slots.size() - 1)) {
            slot& s = m_slots[i];
            if (s.count == 0) {
                s = {key, 1, w};
                m_used.push_back(static_cast<std::uint32_t>(i));
                return;
            }
            if (s.key == key) {
                ++s.count;
                s.weight = std::min(s.weight, w);
                return;
            }
        }
    }

    /// Calls `f(key, count, weight)` for every distinct term (unspecified order).
    template <class F>
    void for_each(F&& f) const {
        for (const std::uint32_t i : m_used) f(m_slots[i].key, m_slots[i].count, m_slots[i].weight);
    }

    /// Forgets every term; keeps the memory.
    void clear() noexcept {
        for (const std::uint32_t i : m_used) m_slots[i].count = 0;
        m_used.clear();
    }

private:
    struct slot {
        key_type key{};
        std::uint32_t count = 0;  // 0: empty
        std::uint32_t weight = 0;
    };

    [[nodiscard]] std::size_t home(const key_type& key) const noexcept {
        // Hash policies need not mix their low bits (raw SDBM): mix before masking.
        const std::uint64_t h = (key[0] ^ (key[1] * 0x9E3779B97F4A7C15ull)) * 0xD6E8FEB86659FD93ull;
        return static_cast<std::size_t>(h >> 32) & (m_slots.size() - 1);
    }

    void grow() {
        std::vector<slot> old;
        old.swap(m_slots);
        m_slots.assign(std::max<std::size_t>(64, old.size() * 2), slot{});
        std::vector<std::uint32_t> used;
        used.swap(m_used);
        m_used.reserve(m_slots.size() / 2);
        for (const std::uint32_t i : used) {
            const slot& s = old[i];
            std::size_t j = home(s.key);
            while (m_slots[j].count != 0) j = (j + 1) & (m_slots.size() - 1);
            m_slots[j] = s;
            m_used.push_back(static_cast<std::uint32_t>(j));
        }
    }

    std::vector<slot> m_slots;
    std::vector<std::uint32_t> m_used;  // occupied slots, in insertion order
};

}  // namespace detail

/// The options a `Fingerprinter<..., Bits>` uses when given none, chosen by measurement at equal
/// false-positive rate (README "Defaults"): raw term frequency, and the Taiwan vocabulary fold
/// (`normalize_options::fold_phrases`) at 128 bits only. At 128 bits it recognizes copies
/// converted with Taiwan phrases at no cost to any other kind of edit; at 64 bits it would bring
/// distinct documents dominated by one frequent word within distance 2.
template <std::size_t Bits>
[[nodiscard]] constexpr fingerprint_options default_fingerprint_options() noexcept {
    fingerprint_options o;
    o.normalize.fold_phrases = Bits == 128;
    return o;
}

/// The tokenizer of the one-call pipeline `semfp::fingerprint`: character bigrams of CJK runs
/// and whole ASCII words, filtered with the bundled Chinese stopword list (`bundled_stopwords()`,
/// 794 words and punctuation marks). Chosen by measurement on the
/// evaluation pairs (README "Defaults"): at zero false positives it recognizes more edited copies
/// than plain bigrams, unigrams, trigrams and dictionary words.
using default_tokenizer = StopwordFilter<CharBigramTokenizer>;

/// Reusable buffers of a `Fingerprinter` call. Reusing one per thread makes fingerprinting
/// allocation-free in steady state.
struct fingerprint_scratch {
    std::string text;           ///< the normalized text (reference path)
    detail::term_counter terms; ///< term counts (sub-linear TF only)
    std::string padded;         ///< the normalized text and zero padding (fused path; only grows)
    detail::sketch_fold_buffers fold;  ///< the sketch's phrase fold (`SignatureFingerprinter`; only grows)
};

/// The text -> fingerprint pipeline: normalize, tokenize with `Tok`, weight each token, Simhash.
///
/// With raw TF (the default) each token occurrence adds its weight (1, or its IDF), which equals
/// weighting each distinct term by tf x idf; sub-linear TF first counts distinct terms (in the
/// scratch's open-addressing table, no sorting). A text without tokens (empty, all punctuation,
/// ...) has the all-zero fingerprint. Linear time in the text size.
/// With character bigrams (`CharBigramTokenizer`, alone or in a `StopwordFilter`), raw TF and no
/// IDF table, the work runs as one fused pass (fused_fingerprint.hpp) with the same result as the
/// step-by-step `reference` path; every other combination takes the reference path.
/// Const and thread-safe if `Tok::tokenize` is.
template <Tokenizer Tok = default_tokenizer, HashPolicy Hash = default_hash, std::size_t Bits = 64>
class Fingerprinter {
public:
    using tokenizer_type = Tok;
    using hash_policy = Hash;
    using fingerprint_type = Fingerprint<Bits>;
    static constexpr std::size_t bits = Bits;

    /// A fingerprinter with a default-constructed tokenizer and
    /// `default_fingerprint_options<Bits>()`.
    Fingerprinter()
        requires std::default_initializable<Tok>
    = default;

    /// A fingerprinter with tokenizer `tok` and options `opt` (by default
    /// `default_fingerprint_options<Bits>()`).
    explicit Fingerprinter(Tok tok, fingerprint_options opt = default_fingerprint_options<Bits>())
        : m_tokenizer(std::move(tok)), m_options(opt) {}

    /// The fingerprint of `text`, using a per-thread scratch buffer.
    [[nodiscard]] fingerprint_type operator()(std::string_view text) const {
        thread_local fingerprint_scratch scratch;
        return (*this)(text, scratch);
    }

    /// The fingerprint of `text`, using the caller's scratch buffers.
    [[nodiscard]] fingerprint_type operator()(std::string_view text, fingerprint_scratch& scratch) const {
        if constexpr (detail::fused_tokenizer<Tok>::value) {
            if (m_options.tf == tf_scaling::raw && m_options.idf == nullptr)
                return detail::fused_fingerprint<Bits, Hash>(text, scratch.padded, m_options.normalize,
                                                             detail::fused_tokenizer<Tok>::stopwords(m_tokenizer));
        }
        return reference(text, scratch);
    }

    /// The fingerprint of `text` computed step by step: normalize into `scratch.text`, tokenize,
    /// filter, hash and add each token. Always equal to `operator()`; kept as the reference the
    /// fused pass is tested and measured against.
    [[nodiscard]] fingerprint_type reference(std::string_view text, fingerprint_scratch& scratch) const {
        Simhash<Bits, Hash> acc;
        normalize_into(text, scratch.text, m_options.normalize);
        const std::string_view norm = scratch.text;
        const IdfTable* idf = m_options.idf;
        if (m_options.tf == tf_scaling::raw) {
            if (idf == nullptr) {
                m_tokenizer.tokenize(norm, [&](std::string_view t) { acc.add(t, 1); });
            } else {
                m_tokenizer.tokenize(norm, [&](std::string_view t) {
                    acc.add(t, detail::quantize_weight(idf->idf(t)));
                });
            }
            return acc.finish();
        }
        auto& terms = scratch.terms;
        terms.clear();
        m_tokenizer.tokenize(norm, [&](std::string_view t) {
            const auto h = detail::feature_bits<Bits, Hash>(t);
            const std::uint32_t w = idf ? detail::quantize_weight(idf->idf(t)) : 256u;
            terms.add({h[0], Bits == 128 ? h[Bits / 64 - 1] : 0}, w);
        });
        // Integer votes: the order of the terms does not change the fingerprint.
        terms.for_each([&](const detail::term_counter::key_type& key, std::uint32_t count, std::uint32_t weight) {
            const double tf = static_cast<double>(count);
            const double w = (1.0 + std::log(tf)) * (static_cast<double>(weight) / detail::weight_scale);
            typename fingerprint_type::storage_type h{};
            h[0] = key[0];
            if constexpr (Bits == 128) h[1] = key[1];
            acc.add_hashed(h, detail::quantize_weight(w));
        });
        return acc.finish();
    }

    /// Feeds the features (normalized tokens) of `text` to `sink`, as the fingerprint sees them;
    /// `normalized` receives the normalized text the tokens point into.
    template <TokenSink Sink>
    void for_each_feature(std::string_view text, std::string& normalized, Sink&& sink) const {
        normalize_into(text, normalized, m_options.normalize);
        m_tokenizer.tokenize(std::string_view(normalized), sink);
    }

    /// The tokenizer.
    [[nodiscard]] const Tok& tokenizer() const noexcept { return m_tokenizer; }
    /// The options.
    [[nodiscard]] const fingerprint_options& options() const noexcept { return m_options; }

private:
    Tok m_tokenizer{};
    fingerprint_options m_options = default_fingerprint_options<Bits>();
};

/// The one-call pipeline's fingerprinter type.
template <std::size_t Bits = 64>
using DefaultFingerprinter = Fingerprinter<default_tokenizer, default_hash, Bits>;

/// The `Bits`-bit fingerprint of `text` with semfp's defaults: normalization (width, case,
/// Traditional -> Simplified; at 128 bits also Taiwan vocabulary -> mainland), character bigrams
/// of CJK runs plus whole ASCII words without stopwords, raw term frequency, `default_hash`.
/// Compare with `recommended_distance<Bits>`. Thread-safe; allocation-free in steady state
/// (per-thread scratch).
template <std::size_t Bits = 64>
[[nodiscard]] Fingerprint<Bits> fingerprint(std::string_view text) {
    static const DefaultFingerprinter<Bits> fingerprinter{};
    return fingerprinter(text);
}

}  // namespace v0
}  // namespace semfp
