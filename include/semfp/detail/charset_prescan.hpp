#pragma once
// The attribute reader of the WHATWG encoding prescan ("get an attribute"), used by
// `charset_from_meta` in <semfp/text/encoding.hpp> to find `<meta charset>` declarations without
// parsing HTML. It only needs ASCII rules, so it lives here, apart from the API.

#include <semfp/detail/ascii.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace semfp {
inline namespace v0 {
namespace detail {

/// One attribute read by the WHATWG prescan ("get an attribute"); names and values lower-cased.
struct prescan_attribute {
    std::string name;
    std::string value;
};

/// Reads the next attribute at `pos` (advancing it); false at '>' or at the end of `s`.
inline bool prescan_get_attribute(std::string_view s, std::size_t& pos, prescan_attribute& attr) {
    attr.name.clear();
    attr.value.clear();
    while (pos < s.size() && (is_ascii_space(s[pos]) || s[pos] == '/')) ++pos;
    if (pos >= s.size() || s[pos] == '>') return false;
    for (;;) {
        if (pos >= s.size()) return false;
        const char c = s[pos];
        if (c == '=' && !attr.name.empty()) break;
        if (is_ascii_space(c)) {
            while (pos < s.size() && is_ascii_space(s[pos])) ++pos;
            if (pos >= s.size()) return false;
            if (s[pos] != '=') return true;
            break;
        }
        if (c == '/' || c == '>') return true;
        attr.name += ascii_lower(c);
        ++pos;
    }
    ++pos;  // '='
    while (pos < s.size() && is_ascii_space(s[pos])) ++pos;
    if (pos >= s.size()) return false;
    const char q = s[pos];
    if (q == '"' || q == '\'') {
        ++pos;
        for (;;) {
            if (pos >= s.size()) return false;
            if (s[pos] == q) {
                ++pos;
                return true;
            }
            attr.value += ascii_lower(s[pos++]);
        }
    }
    if (q == '>') return true;
    for (;;) {
        if (pos >= s.size()) return false;
        if (is_ascii_space(s[pos]) || s[pos] == '>') return true;
        attr.value += ascii_lower(s[pos++]);
    }
}

}  // namespace detail
}  // namespace v0
}  // namespace semfp
