#pragma once
// UTF-8 decoding for the dictionary tries and the segmenter: the one decoder
// (detail/utf8_codec.hpp) with the three-byte forms, where CJK lives, decoded inline, forwards
// and backwards. Same results as `utf8_decode` on any bytes.

#include <semfp/detail/utf8_codec.hpp>
#include <semfp/detail/utf8_three.hpp>

#include <cstddef>
#include <string_view>

namespace semfp {
inline namespace v0 {
namespace detail {

// The three-byte form at `p` (lead E1..EF except ED, two continuation bytes: no overlong, no
// surrogate, so no further check) as a code point, or 0 when the bytes are anything else.
[[nodiscard]] constexpr char32_t seg_three_byte(const char* p) noexcept {
    const auto b0 = static_cast<unsigned char>(p[0]);
    const auto b1 = static_cast<unsigned char>(p[1]);
    const auto b2 = static_cast<unsigned char>(p[2]);
    if (b0 < 0xE1 || b0 > 0xEF || b0 == 0xED || (b1 & 0xC0) != 0x80 || (b2 & 0xC0) != 0x80) return 0;
    return static_cast<char32_t>(utf8_three_byte_value(b0, b1, b2));
}

/// `detail::utf8_decode` with the three-byte forms (where CJK lives) decoded inline. Same results.
[[nodiscard]] constexpr utf8_decoded seg_decode(std::string_view s, std::size_t i) noexcept {
    if (s.size() - i >= 3) {
        const char32_t c = seg_three_byte(s.data() + i);
        if (c != 0) return {c, 3, true};
    }
    return utf8_decode(s, i);
}

/// The code point that ends at byte `p` of `s` (0 < p <= s.size()), decoded backwards: `length`
/// is how far it starts before `p`; `valid` is false when the bytes before `p` do not end with a
/// well-formed sequence (then `length` is 1). The three-byte forms are decoded inline, the rest
/// by `detail::utf8_decode` from the sequence's lead byte.
[[nodiscard]] constexpr utf8_decoded seg_decode_before(std::string_view s, std::size_t p) noexcept {
    if (p >= 3) {
        const char32_t c = seg_three_byte(s.data() + p - 3);
        if (c != 0) return {c, 3, true};
    }
    std::size_t q = p - 1;
    while (q > 0 && p - q < 4 && (static_cast<unsigned char>(s[q]) & 0xC0) == 0x80) --q;
    const utf8_decoded d = utf8_decode(s, q);
    if (!d.valid || q + d.length != p) return {utf8_replacement, 1, false};
    return d;
}

}  // namespace detail
}  // namespace v0
}  // namespace semfp
