#pragma once
/// \file
/// `SentenceSignature`: the "top-k longest sentences" signature of the fingerprint-system
/// overview, optionally with the first, last or fixed-position sentences.
///
/// Why: a document copied whole or in large parts keeps its longest sentences verbatim (they
/// are the least likely to be edited and the least likely to occur by chance elsewhere), so a
/// handful of sentence hashes identifies the copy where a whole-text digest breaks on the first
/// edit. Sentences are taken from the normalized text (width, case and Traditional->Simplified
/// folding) and hashed over their letters, digits and ideographs only, so re-punctuation and
/// spacing do not change them; length is counted in those code points. The result is a sorted
/// set of 64-bit keys: two documents match when they share at least `m` keys, and the keys go
/// into a posting index (index/posting_index.hpp `PostingIndex::add`) unchanged, to find every
/// matching pair of a collection.
///
/// Bad input: malformed bytes and NUL are ignored by the hash (they are neither letters nor
/// ideographs); a text without a sentence of `min_length` code points has an empty signature
/// and matches nothing.

#include <semfp/concepts.hpp>
#include <semfp/core/hash.hpp>
#include <semfp/core/simhash.hpp>
#include <semfp/text/char_class.hpp>
#include <semfp/text/normalize.hpp>
#include <semfp/text/sentences.hpp>
#include <semfp/text/utf8.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace semfp {
inline namespace v0 {

/// Which sentences `SentenceSignature` selects.
struct sentence_signature_options {
    std::size_t top_k = 3;       ///< the k longest sentences (ties: the earlier one)
    bool first = false;          ///< also the first sentence
    bool last = false;           ///< also the last sentence
    std::vector<std::size_t> positions;  ///< also these sentences (0-based; beyond the end: ignored)
    std::size_t min_length = 8;  ///< sentences shorter than this (in hashed code points) are never selected
    normalize_options normalization{};  ///< foldings applied before splitting
};

/// One selected sentence.
struct signature_sentence {
    std::uint64_t hash = 0;   ///< hash of its letters, digits and ideographs
    std::size_t index = 0;    ///< position among the text's sentences of at least `min_length`
    std::size_t length = 0;   ///< hashed code points
    std::size_t begin = 0;    ///< first byte in the ORIGINAL text
    std::size_t end = 0;      ///< one past its last byte there
};

/// Sentence signatures with `Hash` (default: the library's default hash). Const and
/// thread-safe; every call is linear in the text plus O(s log s) for s sentences.
template <HashPolicy Hash = default_hash>
class SentenceSignature {
public:
    /// A signature with the given selection.
    explicit SentenceSignature(sentence_signature_options options = {}) : m_options(std::move(options)) {}

    /// The options given at construction.
    [[nodiscard]] const sentence_signature_options& options() const noexcept { return m_options; }

    /// The selected sentences in text order, with byte spans in the original `text`.
    [[nodiscard]] std::vector<signature_sentence> select(std::string_view text) const {
        const normalized_text nt = normalize_with_offsets(text, m_options.normalization);
        std::vector<signature_sentence> all;
        std::string key;
        for_each_sentence(std::string_view(nt.text), [&](std::string_view sentence, std::size_t offset) {
            key.clear();
            std::size_t length = 0;
            for (std::size_t i = 0; i < sentence.size();) {
                const utf8::decoded d = utf8::decode(sentence, i);
                if (d.valid) {
                    const char_class c = classify(d.code_point);
                    if (c == char_class::han || c == char_class::ascii_letter || c == char_class::ascii_digit ||
                        c == char_class::kana || c == char_class::hangul || c == char_class::letter) {
                        key.append(sentence.substr(i, d.length));
                        ++length;
                    }
                }
                i += d.length;
            }
            if (length < m_options.min_length || length == 0) return;
            const auto r = nt.original_range(offset, offset + sentence.size());
            all.push_back({Hash::hash64(key), all.size(), length, r.begin, r.end});
        });
        if (all.empty()) return all;
        std::vector<char> keep(all.size(), 0);
        std::vector<std::size_t> order(all.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return all[x].length > all[y].length; });
        for (std::size_t i = 0; i < std::min(m_options.top_k, order.size()); ++i) keep[order[i]] = 1;
        if (m_options.first) keep.front() = 1;
        if (m_options.last) keep.back() = 1;
        for (const std::size_t p : m_options.positions)
            if (p < keep.size()) keep[p] = 1;
        std::vector<signature_sentence> out;
        for (std::size_t i = 0; i < all.size(); ++i)
            if (keep[i]) out.push_back(all[i]);
        return out;
    }

    /// The signature of `text`: the hashes of the selected sentences, ascending and distinct.
    [[nodiscard]] std::vector<std::uint64_t> operator()(std::string_view text) const {
        std::vector<std::uint64_t> keys;
        for (const auto& s : select(text)) keys.push_back(s.hash);
        std::sort(keys.begin(), keys.end());
        keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
        return keys;
    }

    /// Number of keys two signatures (ascending, distinct) share. O(|a| + |b|).
    [[nodiscard]] static std::size_t shared(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b) noexcept {
        std::size_t n = 0;
        for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
            if (a[i] < b[j]) ++i;
            else if (b[j] < a[i]) ++j;
            else {
                ++n;
                ++i;
                ++j;
            }
        }
        return n;
    }

    /// True when the signatures share at least `m` keys (`m` of 0 counts as 1).
    [[nodiscard]] static bool matches(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b, std::size_t m) noexcept {
        return shared(a, b) >= (m == 0 ? 1 : m);
    }

private:
    sentence_signature_options m_options;
};

}  // namespace v0
}  // namespace semfp
