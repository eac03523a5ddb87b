#pragma once
// Internals of <semfp/text/html.hpp>: character references, the output builder that collapses
// whitespace, and the element table.

#include <semfp/detail/ascii.hpp>
#include <semfp/detail/html_entities.hpp>
#include <semfp/detail/utf8_codec.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
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

/// Kind of the element with lower-case name `name`. O(log n).
[[nodiscard]] constexpr html_kind html_element_kind(std::string_view name) noexcept {
    struct entry {
        std::string_view name;
        html_kind kind;
    };
    using k = html_kind;
    // Sorted by name.
    constexpr entry table[] = {
        {"address", k::block},
        {"article", k::block},
        {"aside", k::block},
        {"blockquote", k::block},
        {"body", k::block},
        {"br", k::line_break},
        {"caption", k::block},
        {"center", k::block},
        {"dd", k::block},
        {"details", k::block},
        {"dialog", k::block},
        {"dir", k::block},
        {"div", k::block},
        {"dl", k::block},
        {"dt", k::block},
        {"fieldset", k::block},
        {"figcaption", k::block},
        {"figure", k::block},
        {"footer", k::block},
        {"form", k::block},
        {"frameset", k::block},
        {"h1", k::block},
        {"h2", k::block},
        {"h3", k::block},
        {"h4", k::block},
        {"h5", k::block},
        {"h6", k::block},
        {"head", k::block},
        {"header", k::block},
        {"hgroup", k::block},
        {"hr", k::block},
        {"html", k::block},
        {"iframe", k::raw_skip},
        {"legend", k::block},
        {"li", k::block},
        {"listing", k::preformatted},
        {"main", k::block},
        {"math", k::foreign},
        {"menu", k::block},
        {"nav", k::block},
        {"noembed", k::raw_skip},
        {"noframes", k::raw_skip},
        {"noscript", k::raw_skip},
        {"ol", k::block},
        {"optgroup", k::block},
        {"option", k::block},
        {"p", k::block},
        {"plaintext", k::plaintext},
        {"pre", k::preformatted},
        {"script", k::raw_skip},
        {"search", k::block},
        {"section", k::block},
        {"style", k::raw_skip},
        {"summary", k::block},
        {"svg", k::foreign},
        {"table", k::block},
        {"tbody", k::block},
        {"td", k::cell},
        {"template", k::template_element},
        {"textarea", k::textarea},
        {"tfoot", k::block},
        {"th", k::cell},
        {"thead", k::block},
        {"title", k::title},
        {"tr", k::block},
        {"ul", k::block},
        {"xmp", k::raw_text},
    };
    const auto* it = std::lower_bound(std::begin(table), std::end(table), name,
                                      [](const entry& e, std::string_view n) { return e.name < n; });
    if (it != std::end(table) && it->name == name) return it->kind;
    return k::inline_element;
}

}  // namespace detail
}  // namespace v0
}  // namespace semfp
