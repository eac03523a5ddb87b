#pragma once
// The GB18030 decoder behind <semfp/text/encoding.hpp>: one code at a time, with the WHATWG
// error recovery (how many bytes one error swallows), over the tables of
// <semfp/detail/gb18030_table.hpp>. Kept apart from the public header because it is table
// arithmetic a reader of the API does not need; GBK and GB2312 are decoded as GB18030, their
// superset.

#include <semfp/detail/gb18030_table.hpp>
#include <semfp/detail/utf8_codec.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>

namespace semfp {
inline namespace v0 {
namespace detail {

/// Code point of a two-byte GB18030 pointer, 0 when unassigned.
[[nodiscard]] constexpr char32_t gb18030_two_byte_code_point(std::uint32_t pointer) noexcept {
    const char32_t v = gb18030_two_byte[pointer];
    if (v != 0) return v;
    for (const auto& e : gb18030_two_byte_supplementary) {
        if (e.pointer == pointer) return e.code_point;
    }
    return 0;
}

/// Code point of a four-byte GB18030 pointer, 0 when unassigned.
[[nodiscard]] constexpr char32_t gb18030_four_byte_code_point(std::uint32_t pointer) noexcept {
    if (pointer < gb18030_four_byte_bmp_end) {
        // Last range starting at or before the pointer (the first range starts at 0).
        const auto* first = std::begin(gb18030_four_byte_bmp);
        const auto* it = std::upper_bound(first, std::end(gb18030_four_byte_bmp), pointer,
                                          [](std::uint32_t p, const gb18030_range& r) { return p < r.pointer; });
        const gb18030_range& r = *(it - 1);
        if (r.code_point == 0) return 0;
        return static_cast<char32_t>(r.code_point + (pointer - r.pointer));
    }
    constexpr std::uint32_t supplementary_end = gb18030_four_byte_supplementary_begin + 0x100000;
    if (pointer >= gb18030_four_byte_supplementary_begin && pointer < supplementary_end) {
        return static_cast<char32_t>(0x10000 + (pointer - gb18030_four_byte_supplementary_begin));
    }
    return 0;
}

/// One GB18030 code decoded at a position: the code point (U+FFFD on error), the bytes consumed
/// and whether the code was valid.
struct gb18030_step {
    char32_t code_point;
    std::uint32_t length;
    bool valid;
};

/// Decodes the GB18030 code starting at byte `i` of `in` (precondition: i < in.size()). Error
/// recovery follows the WHATWG gb18030 decoder: a bad third or fourth byte costs only the first
/// byte, an ASCII byte after a lead byte is read again, and the end of input swallows an
/// incomplete code. Never reads outside `in`. O(1) (a four-byte code below U+10000 costs a
/// binary search over about 200 ranges).
[[nodiscard]] constexpr gb18030_step gb18030_decode_one(std::string_view in, std::size_t i) noexcept {
    const std::size_t n = in.size();
    auto byte = [&](std::size_t k) noexcept -> std::uint32_t { return static_cast<unsigned char>(in[k]); };
    auto bad = [](std::size_t consumed) noexcept {
        return gb18030_step{utf8_replacement, static_cast<std::uint32_t>(consumed), false};
    };
    const std::uint32_t b1 = byte(i);
    if (b1 < 0x80) return {static_cast<char32_t>(b1), 1, true};
    if (b1 == 0x80) return {char32_t{0x20AC}, 1, true};
    if (b1 == 0xFF || i + 1 == n) return bad(1);
    const std::uint32_t b2 = byte(i + 1);
    if (b2 >= 0x30 && b2 <= 0x39) {
        if (i + 2 == n) return bad(2);
        const std::uint32_t b3 = byte(i + 2);
        if (b3 < 0x81 || b3 > 0xFE) return bad(1);
        if (i + 3 == n) return bad(3);
        const std::uint32_t b4 = byte(i + 3);
        if (b4 < 0x30 || b4 > 0x39) return bad(1);
        const std::uint32_t pointer = (b1 - 0x81) * 12600 + (b2 - 0x30) * 1260 + (b3 - 0x81) * 10 + (b4 - 0x30);
        const char32_t cp = gb18030_four_byte_code_point(pointer);
        if (cp == 0) return bad(4);
        return {cp, 4, true};
    }
    if ((b2 >= 0x40 && b2 <= 0x7E) || (b2 >= 0x80 && b2 <= 0xFE)) {
        const std::uint32_t pointer = (b1 - 0x81) * 190 + (b2 - (b2 < 0x7F ? 0x40u : 0x41u));
        const char32_t cp = gb18030_two_byte_code_point(pointer);
        if (cp != 0) return {cp, 2, true};
    }
    return bad(b2 < 0x80 ? 1 : 2);
}

/// Decodes GB18030 bytes, calling `emit(code_point)` for every code point (U+FFFD for errors).
/// Returns the number of errors. O(n).
template <class Emit>
constexpr std::size_t gb18030_decode(std::string_view in, Emit&& emit) noexcept {
    std::size_t i = 0, errors = 0;
    while (i < in.size()) {
        const gb18030_step st = gb18030_decode_one(in, i);
        emit(st.code_point);
        errors += st.valid ? 0 : 1;
        i += st.length;
    }
    return errors;
}

/// True when the GB18030 code at `i` may still be completed by bytes after the buffer.
[[nodiscard]] constexpr bool gb18030_incomplete(std::string_view s, std::size_t i) noexcept {
    const std::size_t n = s.size();
    const auto b1 = static_cast<unsigned char>(s[i]);
    if (b1 < 0x81 || b1 == 0xFF) return false;
    if (i + 1 == n) return true;
    const auto b2 = static_cast<unsigned char>(s[i + 1]);
    if (b2 < 0x30 || b2 > 0x39) return false;
    if (i + 2 == n) return true;
    const auto b3 = static_cast<unsigned char>(s[i + 2]);
    return b3 >= 0x81 && b3 <= 0xFE && i + 3 == n;
}

}  // namespace detail
}  // namespace v0
}  // namespace semfp
