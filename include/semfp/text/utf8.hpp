#pragma once
/// \file
/// A validating UTF-8 decoder over `std::string_view`.
///
/// Policy for malformed input (never undefined behaviour, never an exception): each byte that
/// does not start a well-formed sequence decodes as U+FFFD with length 1, so decoding always
/// advances and a malformed text is consumed in linear time. Well-formed means RFC 3629: no
/// overlong forms, no surrogates (U+D800..U+DFFF), nothing above U+10FFFF, no truncated
/// sequences. This is the "maximal subpart" rule applied byte by byte: a truncated sequence
/// yields one U+FFFD per byte.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace semfp {
inline namespace v0 {
namespace utf8 {

/// The replacement character returned for malformed bytes.
inline constexpr char32_t replacement_character = 0xFFFD;

/// One decoded code point.
struct decoded {
    char32_t code_point;  ///< the scalar value, or U+FFFD when `valid` is false
    std::uint32_t length; ///< bytes consumed: 1..4 (1 for a malformed byte)
    bool valid;           ///< false when the byte at the position did not start a well-formed sequence
};

/// Decodes the code point starting at byte `pos` of `s`. Precondition: pos < s.size().
/// Never reads outside `s`. O(1).
[[nodiscard]] constexpr decoded decode(std::string_view s, std::size_t pos) noexcept {
    const auto b0 = static_cast<unsigned char>(s[pos]);
    if (b0 < 0x80) return {b0, 1, true};
    const std::size_t left = s.size() - pos;
    auto cont = [&](std::size_t i) noexcept -> unsigned {
        return static_cast<unsigned char>(s[pos + i]);
    };
    constexpr decoded bad{replacement_character, 1, false};
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
        return {static_cast<char32_t>(((b0 & 0x0Fu) << 12) | ((b1 & 0x3Fu) << 6) | (b2 & 0x3Fu)), 3, true};
    }
    if (b0 < 0xF5) {
        if (left < 4) return bad;
        const unsigned b1 = cont(1), b2 = cont(2), b3 = cont(3);
        // F0 needs 90..BF (no overlongs), F4 needs 80..8F (nothing above U+10FFFF).
        const unsigned lo = (b0 == 0xF0) ? 0x90 : 0x80;
        const unsigned hi = (b0 == 0xF4) ? 0x8F : 0xBF;
        if (b1 < lo || b1 > hi || (b2 & 0xC0) != 0x80 || (b3 & 0xC0) != 0x80) return bad;
        return {static_cast<char32_t>(((b0 & 0x07u) << 18) | ((b1 & 0x3Fu) << 12) | ((b2 & 0x3Fu) << 6) |
                                      (b3 & 0x3Fu)),
                4, true};
    }
    return bad;  // F5..FF never appear in UTF-8
}

/// Writes the UTF-8 form of `cp` to `out` and returns its length (1..4). A surrogate or a value
/// above U+10FFFF is written as U+FFFD.
constexpr std::size_t encode(char32_t cp, char (&out)[4]) noexcept {
    if (cp >= 0xD800 && (cp <= 0xDFFF || cp > 0x10FFFF)) cp = replacement_character;
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

/// Appends the UTF-8 form of `cp` to `out` (see `encode` for invalid scalars).
inline void append(std::string& out, char32_t cp) {
    char buf[4];
    const std::size_t n = encode(cp, buf);
    out.append(buf, n);
}

/// True when `s` is entirely well-formed UTF-8. O(n).
[[nodiscard]] constexpr bool is_valid(std::string_view s) noexcept {
    std::size_t i = 0;
    while (i < s.size()) {
        if (static_cast<unsigned char>(s[i]) < 0x80) {
            ++i;
            continue;
        }
        const decoded d = decode(s, i);
        if (!d.valid) return false;
        i += d.length;
    }
    return true;
}

/// Number of code points in `s`, counting each malformed byte as one. O(n).
[[nodiscard]] constexpr std::size_t length(std::string_view s) noexcept {
    std::size_t i = 0, n = 0;
    while (i < s.size()) {
        i += decode(s, i).length;
        ++n;
    }
    return n;
}

/// Forward iteration over the code points of a text: `for (auto [cp, len, ok] : utf8::code_points(s))`.
/// The view must not outlive the text.
class code_points {
public:
    constexpr explicit code_points(std::string_view s) noexcept : m_text(s) {}

    class iterator {
    public:
        using value_type = decoded;
        using difference_type = std::ptrdiff_t;
        constexpr iterator() noexcept = default;
        constexpr iterator(std::string_view s, std::size_t pos) noexcept : m_text(s), m_pos(pos) {}
        [[nodiscard]] constexpr decoded operator*() const noexcept { return decode(m_text, m_pos); }
        constexpr iterator& operator++() noexcept {
            m_pos += decode(m_text, m_pos).length;
            return *this;
        }
        constexpr iterator operator++(int) noexcept {
            iterator t = *this;
            ++*this;
            return t;
        }
        /// Byte offset of the current code point.
        [[nodiscard]] constexpr std::size_t position() const noexcept { return m_pos; }
        friend constexpr bool operator==(const iterator& a, const iterator& b) noexcept { return a.m_pos == b.m_pos; }

    private:
        std::string_view m_text;
        std::size_t m_pos = 0;
    };

    [[nodiscard]] constexpr iterator begin() const noexcept { return {m_text, 0}; }
    [[nodiscard]] constexpr iterator end() const noexcept { return {m_text, m_text.size()}; }

private:
    std::string_view m_text;
};

}  // namespace utf8
}  // namespace v0
}  // namespace semfp
