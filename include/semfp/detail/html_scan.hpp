#pragma once
// Internals of <semfp/text/html.hpp>: character references, the output builder that collapses
// whitespace, and the element table.

#include <semfp/detail/ascii.hpp>
#include <semfp/detail/html_entities.hpp>
#include <semfp/detail/utf8_codec.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <string_view>

namespace semfp {
inline namespace v0 {
namespace detail {

/// ASCII bytes that text runs stop at: whitespace, NUL and '&'.
inline constexpr bool html_special_byte[128] = {
    true,  false, false, false, false, false, false, false, false, true,  true,  false, true,  true,  false, false,
    false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false,
    true,  false, false, false, false, false, true,  false, false, false, false, false, false, false, false, false,
};

/// Whether the eight bytes at `p` are all plain ASCII text: none >= 0x80, none <= 0x20
/// (whitespace, NUL and other controls) and, when `amp`, none is '&'. A false answer only sends
/// the caller to its byte-by-byte path.
[[nodiscard]] inline bool html_plain_ascii8(const char* p, bool amp) noexcept {
    constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    std::uint64_t w;
    std::memcpy(&w, p, 8);  // byte order does not matter: every test is "any byte"
    // A byte below 0x21 with its high bit clear stays below 0x80 after adding 0x5F.
    std::uint64_t bad = ~(((w & ~highs) + 0x5F * ones) | w) & highs;
    bad |= w & highs;
    if (amp) {
        const std::uint64_t x = w ^ (std::uint64_t{'&'} * ones);
        bad |= (x - ones) & ~x & highs;
    }
    return bad == 0;
}

/// Whether `s[i]` (i < e <= s.size()) starts a three-byte sequence with lead E1..EC or EE..EF
/// ending before `e`: those take any two continuation bytes and never encode U+00A0 (most of
/// CJK text).
[[nodiscard]] inline bool html_plain_utf8_3(std::string_view s, std::size_t i, std::size_t e) noexcept {
    const auto c = static_cast<unsigned char>(s[i]);
    return c >= 0xE1 && c != 0xED && c <= 0xEF && i + 2 < e && (static_cast<unsigned char>(s[i + 1]) & 0xC0) == 0x80 &&
           (static_cast<unsigned char>(s[i + 2]) & 0xC0) == 0x80;
}

/// A character reference read at an '&': the bytes it spans (0 = not a reference) and the one or
/// two code points it stands for (`second` is 0 for one).
struct html_char_ref {
    std::uint32_t length;
    char32_t first;
    char32_t second;
};

/// Code point of a numeric character reference with value `v` (saturated above U+10FFFF), as
/// the HTML Standard's tokenizer maps it: 0, surrogates and values above U+10FFFF become
/// U+FFFD; 0x80..0x9F are read as Windows-1252.
[[nodiscard]] constexpr char32_t html_numeric_ref_code_point(std::uint32_t v) noexcept {
    if (v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0xFFFD;
    if (v >= 0x80 && v <= 0x9F) {
        constexpr char16_t c1[32] = {0x20AC, 0x81,   0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
                                     0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D,   0x017D, 0x8F,
                                     0x90,   0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
                                     0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D,   0x017E, 0x0178};
        return c1[v - 0x80];
    }
    return static_cast<char32_t>(v);
}

/// The named reference called exactly `name` (no semicolon), or nullptr. O(log n).
[[nodiscard]] constexpr const html_entity* html_find_entity(std::string_view name) noexcept {
    const auto* first = std::begin(html_entities);
    const auto* last = std::end(html_entities);
    auto name_of = [](const html_entity& e) noexcept {
        return std::string_view(html_entity_names + e.offset, e.length);
    };
    const auto* it =
        std::lower_bound(first, last, name, [&](const html_entity& e, std::string_view n) { return name_of(e) < n; });
    if (it != last && name_of(*it) == name) return it;
    return nullptr;
}

/// Reads the character reference at `s[pos]` (which is '&'), as in HTML text content: numeric
/// references with or without ';', named references by the longest match (names that the
/// standard also accepts without ';' may omit it). A named reference examines at most 33 bytes;
/// a numeric one reads all its digits (the value saturates above U+10FFFF).
[[nodiscard]] constexpr html_char_ref html_read_char_ref(std::string_view s, std::size_t pos) noexcept {
    std::size_t i = pos + 1;
    const std::size_t n = s.size();
    if (i < n && s[i] == '#') {
        ++i;
        const bool hex = i < n && (s[i] == 'x' || s[i] == 'X');
        if (hex) ++i;
        const std::size_t digits_start = i;
        std::uint32_t v = 0;
        for (; i < n; ++i) {
            const char c = s[i];
            std::uint32_t d;
            if (c >= '0' && c <= '9') {
                d = static_cast<std::uint32_t>(c - '0');
            } else if (hex && c >= 'a' && c <= 'f') {
                d = static_cast<std::uint32_t>(c - 'a' + 10);
            } else if (hex && c >= 'A' && c <= 'F') {
                d = static_cast<std::uint32_t>(c - 'A' + 10);
            } else {
                break;
            }
            v = std::min<std::uint32_t>(v * (hex ? 16u : 10u) + d, 0x110000);
        }
        if (i == digits_start) return {0, 0, 0};
        if (i < n && s[i] == ';') ++i;
        return {static_cast<std::uint32_t>(i - pos), html_numeric_ref_code_point(v), 0};
    }
    // Named: the alphanumeric run after '&', examined up to one byte past the longest name.
    std::size_t run = 0;
    while (i + run < n && run <= html_entity_max_length && is_ascii_alnum(s[i + run])) ++run;
    if (run == 0) return {0, 0, 0};
    if (run <= html_entity_max_length && i + run < n && s[i + run] == ';') {
        if (const html_entity* e = html_find_entity(s.substr(i, run))) {
            return {static_cast<std::uint32_t>(run + 2), e->first, e->second};
        }
    }
    for (std::size_t k = std::min(run, html_entity_max_legacy_length); k > 0; --k) {
        const html_entity* e = html_find_entity(s.substr(i, k));
        if (e != nullptr && e->legacy != 0) return {static_cast<std::uint32_t>(k + 1), e->first, e->second};
    }
    return {0, 0, 0};
}

/// Builds extracted text: collapses whitespace runs to one space, turns block boundaries into
/// line breaks (at most one blank line), keeps whitespace verbatim in preformatted content and
/// never starts or ends the text with whitespace. Whitespace is held back until the next text
/// shows whether it is needed, so the output is only ever appended to (never read back): a
/// caller may take it away between calls.
class html_text_builder {
public:
    html_text_builder(std::string& out, bool line_breaks) noexcept : m_out(&out), m_line_breaks(line_breaks) {}

    /// Non-whitespace UTF-8 bytes.
    void text(std::string_view bytes) {
        if (bytes.empty()) return;
        flush();
        m_out->append(bytes);
    }
    void code_point(char32_t cp) {
        flush();
        char buf[4];
        m_out->append(buf, utf8_encode(cp, buf));
    }
    /// Collapsible whitespace.
    void space() noexcept { m_pending_space = true; }
    /// A block boundary: the text goes on on a new line.
    void block() noexcept {
        m_pending_breaks = std::max(m_pending_breaks, 1);
        m_pending_pre.clear();
    }
    /// `<br>` or a newline in preformatted text.
    void line_break() noexcept {
        m_pending_breaks = std::min(m_pending_breaks + 1, 2);
        m_pending_pre.clear();  // trailing spaces of a line are dropped
    }
    /// Space or tab in preformatted text.
    void preformatted_space(char c) { m_pending_pre.push_back(c); }
    /// Drops pending whitespace (the end of the text).
    void finish() noexcept {
        m_pending_breaks = 0;
        m_pending_space = false;
        m_pending_pre.clear();
    }

private:
    void flush() {
        if (m_started) {
            if (m_pending_breaks > 0) {
                if (m_line_breaks) {
                    m_out->append(static_cast<std::size_t>(m_pending_breaks), '\n');
                    m_at_line_start = true;
                } else {
                    m_out->push_back(' ');
                }
            }
            if (!m_pending_pre.empty()) {
                m_out->append(m_pending_pre);
            } else if (m_pending_space && m_pending_breaks == 0 && !m_at_line_start) {
                m_out->push_back(' ');
            }
        }
        m_started = true;
        m_at_line_start = false;
        m_pending_breaks = 0;
        m_pending_space = false;
        m_pending_pre.clear();
    }

    std::string* m_out;
    std::string m_pending_pre;
    int m_pending_breaks = 0;
    bool m_pending_space = false;
    bool m_started = false;
    bool m_at_line_start = false;
    bool m_line_breaks;
};

/// How the extractor treats an element.
enum class html_kind : std::uint8_t {
    inline_element,    ///< no effect on layout (a, span, b, unknown elements, ...)
    block,             ///< starts and ends a line
    cell,              ///< td, th: separated by a space
    line_break,        ///< br
    preformatted,      ///< pre, listing: block, whitespace kept
    raw_skip,          ///< script, style, noscript, iframe, noembed, noframes: raw text, dropped
    raw_text,          ///< xmp: raw text, kept verbatim
    plaintext,         ///< plaintext: the rest of the document is raw text
    title,             ///< title: escapable raw text, kept apart
    textarea,          ///< textarea: escapable raw text, kept
    template_element,  ///< template: contents dropped
    foreign,           ///< svg, math: foreign content
};

/// An element name of at most 16 bytes packed into two integers (byte k at bits 8 * (k % 8) of
/// word k / 8, the rest zero), so that a name compares as two integer comparisons.
struct html_packed_name {
    std::uint64_t lo = 0;
    std::uint64_t hi = 0;
    std::size_t len = 0;
};

[[nodiscard]] constexpr html_packed_name html_pack_name(std::string_view name) noexcept {
    html_packed_name p;
    p.len = name.size();
    const std::size_t n = name.size() < 16 ? name.size() : 16;
    for (std::size_t k = 0; k < n; ++k) {
        const std::uint64_t b = static_cast<unsigned char>(name[k]);
        if (k < 8)
            p.lo |= b << (8 * k);
        else
            p.hi |= b << (8 * (k - 8));
    }
    return p;
}

[[nodiscard]] constexpr std::size_t html_name_slot(const html_packed_name& p) noexcept {
    return static_cast<std::size_t>(((p.lo ^ (p.hi << 5) ^ p.len) * 0x9E3779B97F4A7C15ull) >> 57);  // 0..127
}

struct html_element_entry {
    std::string_view name;
    html_kind kind;
};

// Sorted by name (a test checks the order and that every name is found).
inline constexpr html_element_entry html_elements[] = {
    {"address", html_kind::block},
    {"article", html_kind::block},
    {"aside", html_kind::block},
    {"blockquote", html_kind::block},
    {"body", html_kind::block},
    {"br", html_kind::line_break},
    {"caption", html_kind::block},
    {"center", html_kind::block},
    {"dd", html_kind::block},
    {"details", html_kind::block},
    {"dialog", html_kind::block},
    {"dir", html_kind::block},
    {"div", html_kind::block},
    {"dl", html_kind::block},
    {"dt", html_kind::block},
    {"fieldset", html_kind::block},
    {"figcaption", html_kind::block},
    {"figure", html_kind::block},
    {"footer", html_kind::block},
    {"form", html_kind::block},
    {"frameset", html_kind::block},
    {"h1", html_kind::block},
    {"h2", html_kind::block},
    {"h3", html_kind::block},
    {"h4", html_kind::block},
    {"h5", html_kind::block},
    {"h6", html_kind::block},
    {"head", html_kind::block},
    {"header", html_kind::block},
    {"hgroup", html_kind::block},
    {"hr", html_kind::block},
    {"html", html_kind::block},
    {"iframe", html_kind::raw_skip},
    {"legend", html_kind::block},
    {"li", html_kind::block},
    {"listing", html_kind::preformatted},
    {"main", html_kind::block},
    {"math", html_kind::foreign},
    {"menu", html_kind::block},
    {"nav", html_kind::block},
    {"noembed", html_kind::raw_skip},
    {"noframes", html_kind::raw_skip},
    {"noscript", html_kind::raw_skip},
    {"ol", html_kind::block},
    {"optgroup", html_kind::block},
    {"option", html_kind::block},
    {"p", html_kind::block},
    {"plaintext", html_kind::plaintext},
    {"pre", html_kind::preformatted},
    {"script", html_kind::raw_skip},
    {"search", html_kind::block},
    {"section", html_kind::block},
    {"style", html_kind::raw_skip},
    {"summary", html_kind::block},
    {"svg", html_kind::foreign},
    {"table", html_kind::block},
    {"tbody", html_kind::block},
    {"td", html_kind::cell},
    {"template", html_kind::template_element},
    {"textarea", html_kind::textarea},
    {"tfoot", html_kind::block},
    {"th", html_kind::cell},
    {"thead", html_kind::block},
    {"title", html_kind::title},
    {"tr", html_kind::block},
    {"ul", html_kind::block},
    {"xmp", html_kind::raw_text},
};

/// Open-addressing table over html_elements (128 slots, linear probing): slot -> index + 1,
/// 0 empty. Built at compile time.
inline constexpr auto html_element_slots = [] {
    std::array<std::uint8_t, 128> slots{};
    for (std::size_t i = 0; i < std::size(html_elements); ++i) {
        std::size_t s = html_name_slot(html_pack_name(html_elements[i].name));
        while (slots[s] != 0) s = (s + 1) & 127;
        slots[s] = static_cast<std::uint8_t>(i + 1);
    }
    return slots;
}();

/// html_elements packed, in the same order.
inline constexpr auto html_element_packed = [] {
    std::array<html_packed_name, std::size(html_elements)> packed{};
    for (std::size_t i = 0; i < packed.size(); ++i) packed[i] = html_pack_name(html_elements[i].name);
    return packed;
}();

inline constexpr std::size_t html_element_max_length = [] {
    std::size_t m = 0;
    for (const html_element_entry& e : html_elements) m = e.name.size() > m ? e.name.size() : m;
    return m;
}();
static_assert(html_element_max_length <= 16);

/// Kind of the element with lower-case name `name`: a hash probe and two integer comparisons
/// per candidate (the element lookup runs for every tag of a page). O(1).
[[nodiscard]] constexpr html_kind html_element_kind(std::string_view name) noexcept {
    if (name.empty() || name.size() > html_element_max_length) return html_kind::inline_element;
    const html_packed_name p = html_pack_name(name);
    for (std::size_t s = html_name_slot(p);; s = (s + 1) & 127) {
        const std::uint8_t e = html_element_slots[s];
        if (e == 0) return html_kind::inline_element;
        const html_packed_name& q = html_element_packed[e - 1];
        if (q.lo == p.lo && q.hi == p.hi && q.len == p.len) return html_elements[e - 1].kind;
    }
}

}  // namespace detail
}  // namespace v0
}  // namespace semfp
