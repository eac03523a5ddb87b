#pragma once
/// \file
/// ASCII classification of sixteen bytes at a time for the fused fingerprint pass
/// (core/fused_text.hpp, core/fused_fingerprint.hpp): which bytes are not ASCII, which are ASCII
/// letters or digits, and a case-folded copy. Each answer is a 16-bit mask (bit i for byte i).
/// With SSE2 (always present on x86-64) one vector load and compare gives each mask; elsewhere the
/// portable versions (`*_portable`, two eight-byte SWAR steps) give the same masks, and tests
/// compare the two on random bytes.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#include <emmintrin.h>
#endif

namespace semfp {
inline namespace v0 {
namespace detail {

[[nodiscard]] inline std::uint64_t fused_load_le64(const char* p) noexcept {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    if constexpr (std::endian::native == std::endian::big) {
        std::uint64_t r = 0;
        for (int i = 0; i < 8; ++i) r |= ((v >> (8 * i)) & 0xFFu) << (8 * (7 - i));
        v = r;
    }
    return v;
}

inline void fused_store_le64(char* p, std::uint64_t v) noexcept {
    if constexpr (std::endian::native == std::endian::big) {
        std::uint64_t r = 0;
        for (int i = 0; i < 8; ++i) r |= ((v >> (8 * i)) & 0xFFu) << (8 * (7 - i));
        v = r;
    }
    std::memcpy(p, &v, 8);
}

/// ASCII case folding of eight bytes: exact for every byte below the first one >= 0x80 (a carry
/// out of a byte >= 0x80 only reaches the bytes after it).
[[nodiscard]] constexpr std::uint64_t fused_fold_case8(std::uint64_t v) noexcept {
    constexpr std::uint64_t ones = 0x0101010101010101ull;
    // High bit of each byte: byte >= 'A' and byte > 'Z' (no carries out of ASCII bytes).
    const std::uint64_t ge_a = v + ones * (0x80 - 'A');
    const std::uint64_t gt_z = v + ones * (0x80 - 'Z' - 1);
    const std::uint64_t upper = ge_a & ~gt_z & (ones * 0x80);
    return v | (upper >> 2);
}

/// 0x80 in every byte of `v` that is an ASCII letter or digit, 0 in the others.
[[nodiscard]] constexpr std::uint64_t fused_alnum8(std::uint64_t v) noexcept {
    constexpr std::uint64_t ones = 0x0101010101010101ull;
    constexpr std::uint64_t h = ones * 0x80;
    const std::uint64_t x = v & ~h;  // seven low bits: no carries between bytes below
    const std::uint64_t digit = (x + ones * (0x80 - '0')) & ~(x + ones * (0x80 - '9' - 1));
    const std::uint64_t y = x | (ones * 0x20);
    const std::uint64_t letter = (y + ones * (0x80 - 'a')) & ~(y + ones * (0x80 - 'z' - 1));
    return (digit | letter) & ~v & h;
}

/// Bit i set iff byte i of `v` has its high bit set (`v` holds nothing but such bits).
[[nodiscard]] constexpr std::uint32_t fused_byte_bits8(std::uint64_t v) noexcept {
    // Byte j's flag lands on bit j of the top byte; no two partial products overlap.
    return static_cast<std::uint32_t>(((v >> 7) * 0x0102040810204080ull) >> 56);
}

/// Bit i set iff `p[i]` (i < 16) is not ASCII (>= 0x80); portable.
[[nodiscard]] inline std::uint32_t fused_high16_portable(const char* p) noexcept {
    constexpr std::uint64_t h = 0x8080808080808080ull;
    return fused_byte_bits8(fused_load_le64(p) & h) | (fused_byte_bits8(fused_load_le64(p + 8) & h) << 8);
}

/// Bit i set iff `p[i]` (i < 16) is an ASCII letter or digit; portable.
[[nodiscard]] inline std::uint32_t fused_alnum16_portable(const char* p) noexcept {
    return fused_byte_bits8(fused_alnum8(fused_load_le64(p))) |
           (fused_byte_bits8(fused_alnum8(fused_load_le64(p + 8))) << 8);
}

/// Stores the sixteen bytes at `p` to `o`, ASCII letters lowered when `fold` (exact for every
/// byte before the first non-ASCII one; the bytes from there on are not meant to be kept), and
/// returns `fused_high16(p)`; portable.
inline std::uint32_t fused_copy_ascii16_portable(const char* p, char* o, bool fold) noexcept {
    const std::uint64_t a = fused_load_le64(p), b = fused_load_le64(p + 8);
    fused_store_le64(o, fold ? fused_fold_case8(a) : a);
    fused_store_le64(o + 8, fold ? fused_fold_case8(b) : b);
    constexpr std::uint64_t h = 0x8080808080808080ull;
    return fused_byte_bits8(a & h) | (fused_byte_bits8(b & h) << 8);
}

#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)

/// True when the sixteen-byte functions below use SSE2.
inline constexpr bool fused_ascii16_simd = true;

[[nodiscard]] inline __m128i fused_load16(const char* p) noexcept {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}

/// Bytes of `v` that are ASCII letters or digits (0xFF), others 0: an unsigned range test as a
/// signed compare after flipping the high bit.
[[nodiscard]] inline __m128i fused_alnum_bytes(__m128i v) noexcept {
    const __m128i flip = _mm_set1_epi8(static_cast<char>(0x80));
    const __m128i d = _mm_xor_si128(_mm_sub_epi8(v, _mm_set1_epi8('0')), flip);
    const __m128i l = _mm_xor_si128(_mm_sub_epi8(_mm_or_si128(v, _mm_set1_epi8(0x20)), _mm_set1_epi8('a')), flip);
    return _mm_or_si128(_mm_cmplt_epi8(d, _mm_set1_epi8(static_cast<char>(0x80 + 10))),
                        _mm_cmplt_epi8(l, _mm_set1_epi8(static_cast<char>(0x80 + 26))));
}

[[nodiscard]] inline std::uint32_t fused_high16(const char* p) noexcept {
    return static_cast<std::uint32_t>(_mm_movemask_epi8(fused_load16(p)));
}

[[nodiscard]] inline std::uint32_t fused_alnum16(const char* p) noexcept {
    return static_cast<std::uint32_t>(_mm_movemask_epi8(fused_alnum_bytes(fused_load16(p))));
}

/// `fused_alnum16(p) | fused_high16(p)`: the bytes where a skip over ASCII separators stops.
[[nodiscard]] inline std::uint32_t fused_stops16(const char* p) noexcept {
    const __m128i v = fused_load16(p);
    return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_or_si128(fused_alnum_bytes(v), v)));
}

/// Both masks of the sixteen bytes at `p`: `high` = `fused_high16(p)`, `alnum` = `fused_alnum16(p)`.
inline void fused_classify16(const char* p, std::uint32_t& alnum, std::uint32_t& high) noexcept {
    const __m128i v = fused_load16(p);
    alnum = static_cast<std::uint32_t>(_mm_movemask_epi8(fused_alnum_bytes(v)));
    high = static_cast<std::uint32_t>(_mm_movemask_epi8(v));
}

inline std::uint32_t fused_copy_ascii16(const char* p, char* o, bool fold) noexcept {
    __m128i v = fused_load16(p);
    const auto high = static_cast<std::uint32_t>(_mm_movemask_epi8(v));
    if (fold) {
        // Signed compares: bytes >= 0x80 are negative, so never upper case.
        const __m128i upper =
            _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('A' - 1)), _mm_cmplt_epi8(v, _mm_set1_epi8('Z' + 1)));
        v = _mm_or_si128(v, _mm_and_si128(upper, _mm_set1_epi8(0x20)));
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o), v);
    return high;
}

#else

inline constexpr bool fused_ascii16_simd = false;

[[nodiscard]] inline std::uint32_t fused_high16(const char* p) noexcept { return fused_high16_portable(p); }
[[nodiscard]] inline std::uint32_t fused_alnum16(const char* p) noexcept { return fused_alnum16_portable(p); }
[[nodiscard]] inline std::uint32_t fused_stops16(const char* p) noexcept {
    return fused_alnum16_portable(p) | fused_high16_portable(p);
}
inline std::uint32_t fused_copy_ascii16(const char* p, char* o, bool fold) noexcept {
    return fused_copy_ascii16_portable(p, o, fold);
}
inline void fused_classify16(const char* p, std::uint32_t& alnum, std::uint32_t& high) noexcept {
    alnum = fused_alnum16_portable(p);
    high = fused_high16_portable(p);
}

#endif

}  // namespace detail
}  // namespace v0
}  // namespace semfp
