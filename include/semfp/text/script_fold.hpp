#pragma once
/// \file
/// Script folding: Traditional Chinese characters to their Simplified form, one code point at a
/// time, so that the Traditional and Simplified renderings of a text share tokens; and, on top
/// of it, Taiwan-standard vocabulary to the mainland words it stands for ("software" written
/// ruan-ti becomes ruan-jian, "program" cheng-shi becomes cheng-xu), so that a text converted
/// with phrases (`opencc -c s2twp`) shares tokens too.
///
/// The character table (4,105 code points) is generated from OpenCC's `t2s` conversion
/// (Apache-2.0; see detail/LICENSE.opencc.txt) by cmake/generate_t2s.cmake. Only one-to-one
/// mappings are kept, so the result is a character-level approximation of `opencc -c t2s`. The
/// phrase table (502 phrases of 1 to 10 characters) is generated from OpenCC's Taiwan
/// dictionaries (TWPhrases, TWVariants and their reverse forms) by cmake/generate_tw_phrases.cmake:
/// equivalent phrases form classes and every member maps to one representative, so a text and
/// its `opencc -c s2twp` conversion fold to the same words. It applies to character-folded text,
/// longest match first, without OpenCC's segmentation, so a phrase inside a longer word is
/// replaced as well (the same on both sides of a comparison, which is what near-duplicate
/// detection needs).

#include <semfp/detail/t2s_table.hpp>
#include <semfp/detail/tw_phrase_table.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace semfp {
inline namespace v0 {
namespace detail {

/// Bit c of the BMP is set when code point c has an entry in t2s_table (8 KiB).
inline constexpr auto t2s_bmp_bitmap = [] {
    std::array<std::uint64_t, 1024> bits{};
    for (const auto& p : t2s_table)
        if (p.from < 0x10000) bits[p.from >> 6] |= std::uint64_t{1} << (p.from & 63);
    return bits;
}();

}  // namespace detail

/// The Simplified form of a Traditional Chinese character, or `c` itself when it has none (any
/// other code point, including Simplified characters and invalid values). Idempotent:
/// `fold_to_simplified(fold_to_simplified(c)) == fold_to_simplified(c)`.
/// Complexity: O(1) for every BMP code point without a mapping (a bitmap test), otherwise a binary
/// search over 4,105 entries.
[[nodiscard]] constexpr char32_t fold_to_simplified(char32_t c) noexcept {
    constexpr std::size_t n = detail::t2s_table_size;
    if (c < detail::t2s_table[0].from || c > detail::t2s_table[n - 1].from) return c;
    // Most Han characters of a text have no Traditional mapping: one bit test rejects them.
    if (c < 0x10000 && ((detail::t2s_bmp_bitmap[c >> 6] >> (c & 63)) & 1u) == 0) return c;
    std::size_t lo = 0;
    std::size_t hi = n;
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        const char32_t v = detail::t2s_table[mid].from;
        if (v == c) return detail::t2s_table[mid].to;
        if (v < c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return c;
}

/// Number of code points that `fold_to_simplified` changes.
inline constexpr std::size_t simplified_fold_size = detail::t2s_table_size;

/// Number of phrases the vocabulary fold (`normalize_options::fold_phrases`) replaces.
inline constexpr std::size_t phrase_fold_size = detail::tw_phrase_table_size;

namespace detail {

/// Bit c of the BMP is set when some phrase of tw_phrase_table starts with code point c.
inline constexpr auto tw_phrase_first_bitmap = [] {
    std::array<std::uint64_t, 1024> bits{};
    for (const auto& p : tw_phrase_table)
        if (p.from[0] < 0x10000) bits[p.from[0] >> 6] |= std::uint64_t{1} << (p.from[0] & 63);
    return bits;
}();

/// True if a phrase may start with `c` (exact for the BMP, conservative above it).
[[nodiscard]] constexpr bool may_start_tw_phrase(char32_t c) noexcept {
    return c >= 0x10000 || ((tw_phrase_first_bitmap[c >> 6] >> (c & 63)) & 1u) != 0;
}

/// A replacement found by `match_tw_phrase`: the phrase covers `chars` code points of the
/// (folded) text and is replaced by `to`; `chars == 0` if none matched.
struct tw_phrase_match {
    std::size_t chars = 0;
    std::string_view to;
};

/// The longest phrase of tw_phrase_table that starts with `first` and continues with the code
/// points `next(i)` returns for i = 1, 2, ... (`next` returns U'\0' past the end; it is called
/// with increasing i and at most `tw_phrase_max_length - 1` times).
template <class Next>
[[nodiscard]] constexpr tw_phrase_match match_tw_phrase(char32_t first, Next&& next) {
    tw_phrase_match best;
    if (!may_start_tw_phrase(first)) return best;
    // The phrases starting with `first` (binary search on the first code point).
    std::size_t lo = 0;
    std::size_t hi = tw_phrase_table_size;
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (tw_phrase_table[mid].from[0] < first) lo = mid + 1;
        else hi = mid;
    }
    char32_t seen[tw_phrase_max_length]{};
    std::size_t have = 1;  // code points of the text known so far (seen[0] = first)
    seen[0] = first;
    bool ended = false;
    for (std::size_t e = lo; e < tw_phrase_table_size && tw_phrase_table[e].from[0] == first; ++e) {
        const std::u32string_view key = tw_phrase_table[e].from;
        std::size_t i = 1;
        for (; i < key.size(); ++i) {
            if (i == have) {
                if (ended) break;
                const char32_t c = next(have);
                if (c == U'\0') {
                    ended = true;
                    break;
                }
                seen[have++] = c;
            }
            if (seen[i] != key[i]) break;
        }
        if (i == key.size() && key.size() > best.chars) best = {key.size(), tw_phrase_table[e].to};
    }
    return best;
}

}  // namespace detail

}  // namespace v0
}  // namespace semfp
