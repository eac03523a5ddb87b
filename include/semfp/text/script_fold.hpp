#pragma once
/// \file
/// Script folding: Traditional Chinese characters to their Simplified form, one code point at a
/// time, so that the Traditional and Simplified renderings of a text share tokens.
///
/// The table (4,105 code points) is generated from OpenCC's `t2s` conversion (Apache-2.0; see
/// detail/LICENSE.opencc.txt) by cmake/generate_t2s.cmake. Only one-to-one mappings are kept;
/// phrase-level conversions (where the Simplified form depends on the neighbouring characters)
/// and one-to-many mappings are out of scope, so the result is a character-level approximation
/// of `opencc -c t2s`.

#include <semfp/detail/t2s_table.hpp>

#include <array>
#include <cstddef>
#include <cstdint>

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

}  // namespace v0
}  // namespace semfp
