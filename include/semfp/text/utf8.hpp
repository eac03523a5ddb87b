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

#include <semfp/detail/utf8_codec.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace semfp {
inline namespace v0 {
namespace utf8 {

/// The replacement character returned for malformed bytes.
inline constexpr char32_t replacement_character = detail::utf8_replacement;

/// One decoded code point: `code_point` (the scalar value, or U+FFFD when `valid` is false),
/// `length` (bytes consumed: 1..4, 1 for a malformed byte) and `valid` (false when the byte at
/// the position did not start a well-formed sequence).
using decoded = detail::utf8_decoded;

/// Decodes the code point starting at byte `pos` of `s`. Precondition: pos < s.size().
/// Never reads outside `s`. O(1).
[[nodiscard]] constexpr decoded decode(std::string_view s, std::size_t pos) noexcept {
    return detail::utf8_decode(s, pos);
}

/// Writes the UTF-8 form of `cp` to `out` and returns its length (1..4). A surrogate or a value
/// above U+10FFFF is written as U+FFFD.
constexpr std::size_t encode(char32_t cp, char (&out)[4]) noexcept {
    return detail::utf8_encode(cp, out);
}

/// Appends the UTF-8 form of `cp` to `out` (see `encode` for invalid scalars).
inline void append(std::string& out, char32_t cp) {
    char buf[4];
    const std::size_t n = encode(cp, buf);
    out.append(buf, n);
}

/// True when `s` is entirely well-formed UTF-8 (RFC 3629, as `decode` decides). O(n); ASCII is
/// checked eight bytes at a time.
[[nodiscard]] constexpr bool is_valid(std::string_view s) noexcept { return detail::utf8_valid_prefix(s) == s.size(); }

/// The offset of the first byte of `s` that `decode` reports malformed; `s.size()` when `s` is
/// well-formed.
[[nodiscard]] constexpr std::size_t valid_prefix(std::string_view s) noexcept { return detail::utf8_valid_prefix(s); }

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
