#pragma once
// The one UTF-8 decoder and encoder of semfp. Every hot loop that meets a non-ASCII byte (the
// tokenizers, the segmenter, the dictionary, the HTML extractor, the charset decoders) calls
// these constexpr functions, so there is one definition of "well-formed" (RFC 3629, maximal
// subpart byte by byte) and the compiler inlines it where it is used. `utf8_valid_prefix`
// restates the decoder's byte ranges to validate without decoding (2.3x the decode walk through
// `utf8_decode`, 1.2x when it calls it); tests hold it to `utf8_decode` on every first and second
// byte and in the fuzz target. The public face is
// <semfp/text/utf8.hpp>; this file exists so that detail/ code can decode without including
// text/.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

#include <semfp/detail/utf8_three.hpp>

namespace semfp {
inline namespace v0 {
namespace detail {

/// U+FFFD, written for malformed bytes.
inline constexpr char32_t utf8_replacement = 0xFFFD;

/// One decoded code point.
struct utf8_decoded {
    char32_t code_point;   ///< the scalar value, or U+FFFD when `valid` is false
    std::uint32_t length;  ///< bytes consumed: 1..4 (1 for a malformed byte)
    bool valid;            ///< false when the byte at the position did not start a well-formed sequence
};

/// Decodes the code point starting at byte `pos` of `s`. Precondition: pos < s.size().
/// Never reads outside `s`. O(1).
[[nodiscard]] constexpr utf8_decoded utf8_decode(std::string_view s, std::size_t pos) noexcept {
    const auto b0 = static_cast<unsigned char>(s[pos]);
    if (b0 < 0x80) return {b0, 1, true};
    const std::size_t left = s.size() - pos;
    auto cont = [&](std::size_t i) noexcept -> unsigned { return static_cast<unsigned char>(s[pos + i]); };
    constexpr utf8_decoded bad{utf8_replacement, 1, false};
    if (b0 < 0xC2) return bad;  // continuation byte, or overlong 2-byte lead C0/C1
    if (b0 < 0xE0) {
        if (left < 2 || (cont(1) & 0xC0) != 0x80) return bad;
        return {static_cast<char32_t>(((b0 & 0x1Fu) << 6) | (cont(1) & 0x3Fu)), 2, true};
    }
    if (b0 < 0xF0) {
        if (left < 3) return bad;
        const unsigned b1 = cont(1), b2 = cont(2);
        // E0 needs A0..BF (no overlongs), ED needs 80..9F (no surrogates).
        const unsigned lo = (b0 == 0xE0) ? 0xA0 : 0x80;
        const unsigned hi = (b0 == 0xED) ? 0x9F : 0xBF;
        if (b1 < lo || b1 > hi || (b2 & 0xC0) != 0x80) return bad;
        return {static_cast<char32_t>(utf8_three_byte_value(b0, b1, b2)), 3, true};
    }
    if (b0 < 0xF5) {
        if (left < 4) return bad;
        const unsigned b1 = cont(1), b2 = cont(2), b3 = cont(3);
        // F0 needs 90..BF (no overlongs), F4 needs 80..8F (nothing above U+10FFFF).
        const unsigned lo = (b0 == 0xF0) ? 0x90 : 0x80;
        const unsigned hi = (b0 == 0xF4) ? 0x8F : 0xBF;
        if (b1 < lo || b1 > hi || (b2 & 0xC0) != 0x80 || (b3 & 0xC0) != 0x80) return bad;
        return {static_cast<char32_t>(((b0 & 0x07u) << 18) | ((b1 & 0x3Fu) << 12) | ((b2 & 0x3Fu) << 6) | (b3 & 0x3Fu)),
                4, true};
    }
    return bad;  // F5..FF never appear in UTF-8
}

/// Writes the UTF-8 form of `cp` to `out` and returns its length (1..4). A surrogate or a value
/// above U+10FFFF is written as U+FFFD.
constexpr std::size_t utf8_encode(char32_t cp, char (&out)[4]) noexcept {
    if (cp >= 0xD800 && (cp <= 0xDFFF || cp > 0x10FFFF)) cp = utf8_replacement;
    if (cp < 0x80) {
        out[0] = static_cast<char>(cp);
        return 1;
    }
    if (cp < 0x800) {
        out[0] = static_cast<char>(0xC0 | (cp >> 6));
        out[1] = static_cast<char>(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = static_cast<char>(0xE0 | (cp >> 12));
        out[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out[2] = static_cast<char>(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = static_cast<char>(0xF0 | (cp >> 18));
    out[1] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out[2] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out[3] = static_cast<char>(0x80 | (cp & 0x3F));
    return 4;
}

/// Length in bytes of the UTF-8 sequence that lead byte `b` announces (1 for ASCII and for bytes
/// that cannot lead). Used to tell a sequence cut by the end of a buffer.
[[nodiscard]] constexpr std::size_t utf8_sequence_length(unsigned char b) noexcept {
    return b >= 0xF0 ? 4 : (b >= 0xE0 ? 3 : (b >= 0xC0 ? 2 : 1));
}

/// The length of the longest well-formed prefix of `s`, by the decoder's rule (RFC 3629): `s.size()`
/// when `s` is well-formed UTF-8, else the offset of the first byte `utf8_decode` reports
/// malformed. Validates without computing code points: ASCII is skipped eight bytes at a time
/// (the first non-ASCII byte of a word found by its bit position), and a three-byte sequence,
/// the form of every CJK character of the BMP, is checked before the others. At compile time it
/// walks with `utf8_decode`; tests compare the two on random and malformed bytes.
[[nodiscard]] constexpr std::size_t utf8_valid_prefix(std::string_view s) noexcept {
    const std::size_t n = s.size();
    std::size_t i = 0;
    if (std::is_constant_evaluated()) {
        while (i < n) {
            const utf8_decoded d = utf8_decode(s, i);
            if (!d.valid) return i;
            i += d.length;
        }
        return n;
    }
    constexpr std::uint64_t high_bits = 0x8080808080808080ull;
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    while (i < n) {
        const unsigned b0 = p[i];
        if (b0 < 0x80) {
            // A run of ASCII: whole words, then the first non-ASCII byte of the last one.
            ++i;
            while (n - i >= 8) {
                std::uint64_t w;
                std::memcpy(&w, p + i, 8);
                const std::uint64_t high = w & high_bits;
                if (high != 0) {
                    if constexpr (std::endian::native == std::endian::little)
                        i += static_cast<std::size_t>(std::countr_zero(high)) / 8;
                    else
                        i += static_cast<std::size_t>(std::countl_zero(high)) / 8;
                    break;
                }
                i += 8;
            }
            continue;
        }
        const std::size_t left = n - i;
        if (b0 - 0xE0u < 0x10u) {
            // E0 needs A0..BF as second byte (no overlongs), ED 80..9F (no surrogates).
            if (left < 3) return i;
            const unsigned b1 = p[i + 1];
            const unsigned lo = b0 == 0xE0u ? 0xA0u : 0x80u;
            const unsigned hi = b0 == 0xEDu ? 0x9Fu : 0xBFu;
            if (b1 < lo || b1 > hi || (p[i + 2] & 0xC0u) != 0x80u) return i;
            i += 3;
        } else if (b0 - 0xC2u < 0x1Eu) {
            if (left < 2 || (p[i + 1] & 0xC0u) != 0x80u) return i;
            i += 2;
        } else if (b0 - 0xF0u < 0x05u) {
            // F0 needs 90..BF (no overlongs), F4 80..8F (nothing above U+10FFFF).
            if (left < 4) return i;
            const unsigned b1 = p[i + 1];
            const unsigned lo = b0 == 0xF0u ? 0x90u : 0x80u;
            const unsigned hi = b0 == 0xF4u ? 0x8Fu : 0xBFu;
            if (b1 < lo || b1 > hi || (p[i + 2] & 0xC0u) != 0x80u || (p[i + 3] & 0xC0u) != 0x80u) return i;
            i += 4;
        } else {
            return i;  // a continuation byte, C0/C1, or F5..FF
        }
    }
    return n;
}

}  // namespace detail
}  // namespace v0
}  // namespace semfp
