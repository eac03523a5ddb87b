#pragma once
// ASCII byte predicates shared by the HTML extractor, the charset prescan, the tokenizers and
// the segmenter (one definition instead of one per file), and the word-at-a-time ASCII run
// scanner the decoders use to copy plain bytes in bulk. Locale-free on purpose: <cctype>
// depends on the C locale and is undefined for negative chars.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace semfp {
inline namespace v0 {
namespace detail {

/// HTML's ASCII whitespace: space, tab, LF, CR, FF.
[[nodiscard]] constexpr bool is_ascii_space(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

[[nodiscard]] constexpr char ascii_lower(char c) noexcept {
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

[[nodiscard]] constexpr bool is_ascii_alpha(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

[[nodiscard]] constexpr bool is_ascii_digit(char c) noexcept {
    return c >= '0' && c <= '9';
}

[[nodiscard]] constexpr bool is_ascii_alnum(char c) noexcept {
    return is_ascii_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

/// True when `a` equals `lower` (already lower case) ignoring ASCII case.
[[nodiscard]] constexpr bool iequals_ascii(std::string_view a, std::string_view lower) noexcept {
    if (a.size() != lower.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (ascii_lower(a[i]) != lower[i]) return false;
    }
    return true;
}

[[nodiscard]] constexpr std::string_view trim_ascii_space(std::string_view s) noexcept {
    while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
    return s;
}

/// Length of the run of ASCII bytes starting at `i`.
[[nodiscard]] inline std::size_t ascii_run(const unsigned char* s, std::size_t i, std::size_t n) noexcept {
    const std::size_t start = i;
    while (i + 8 <= n) {
        std::uint64_t w;
        std::memcpy(&w, s + i, 8);
        if ((w & 0x8080808080808080ull) != 0) break;
        i += 8;
    }
    while (i < n && s[i] < 0x80) ++i;
    return i - start;
}

}  // namespace detail
}  // namespace v0
}  // namespace semfp
