#pragma once
// Tag reading for the HTML extractor (detail/html_extractor.hpp): the lower-cased name of a
// start or end tag with its attributes skipped as the HTML Standard's tokenizer skips them
// (quoted values may hold '>'), resumable when the buffer ends inside the tag; and the search
// for the end tag that closes raw text.

#include <semfp/detail/ascii.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace semfp {
inline namespace v0 {
namespace detail {

/// Reads tags for the extractor; keeps where a scan cut by the end of the buffer stopped.
class html_tag_scanner {
public:
    static constexpr std::size_t npos = std::string_view::npos;

    /// Reads a tag whose name starts at `s[p]`: lower-cased name into name(), attributes skipped.
    /// Returns the position after '>', or npos when the buffer ends inside the tag. A tag cut by
    /// the buffer saves where it stopped (m_tag_*) and the next call for the same `p` goes on
    /// from there, so a huge tag fed in small chunks costs O(n) overall, not O(n^2).
    std::size_t scan(std::string_view s, std::size_t p) noexcept {
        const std::size_t n = s.size();
        tag_phase phase = tag_phase::name;
        char quote = 0;
        if (m_tag_owner == p) {
            phase = m_tag_phase;
            quote = m_tag_quote;
            p = m_tag_pos;
        } else {
            m_tag_owner = p;
            m_name_len = 0;
            m_self_closing = false;
        }
        auto space = [s](std::size_t k) noexcept { return is_ascii_space(s[k]); };
        for (;;) {
            switch (phase) {
                case tag_phase::name:
                    while (p < n && !space(p) && s[p] != '/' && s[p] != '>') {
                        if (m_name_len < sizeof m_name) m_name[m_name_len] = ascii_lower(s[p]);
                        ++m_name_len;
                        ++p;
                    }
                    if (p >= n) break;
                    phase = tag_phase::before_attribute;
                    continue;
                case tag_phase::before_attribute:
                    while (p < n && space(p)) ++p;
                    if (p >= n) break;
                    if (s[p] == '>') return finish(p + 1);
                    if (s[p] == '/') {
                        ++p;
                        phase = tag_phase::after_slash;
                        continue;
                    }
                    ++p;  // first character of an attribute name (may be '=')
                    phase = tag_phase::attribute_name;
                    continue;
                case tag_phase::after_slash:
                    if (p >= n) break;
                    if (s[p] == '>') {
                        m_self_closing = true;
                        return finish(p + 1);
                    }
                    phase = tag_phase::before_attribute;
                    continue;
                case tag_phase::attribute_name:
                    while (p < n && !space(p) && s[p] != '/' && s[p] != '>' && s[p] != '=') ++p;
                    if (p >= n) break;
                    phase = tag_phase::after_attribute_name;
                    continue;
                case tag_phase::after_attribute_name:
                    while (p < n && space(p)) ++p;
                    if (p >= n) break;
                    if (s[p] != '=') {
                        phase = tag_phase::before_attribute;
                        continue;
                    }
                    ++p;
                    phase = tag_phase::before_value;
                    continue;
                case tag_phase::before_value:
                    while (p < n && space(p)) ++p;
                    if (p >= n) break;
                    if (s[p] == '"' || s[p] == '\'') {
                        quote = s[p];
                        ++p;
                        phase = tag_phase::quoted_value;
                    } else {
                        phase = tag_phase::unquoted_value;
                    }
                    continue;
                case tag_phase::quoted_value: {
                    const std::size_t close = s.find(quote, p);
                    if (close == npos) {
                        p = n;
                        break;
                    }
                    p = close + 1;
                    phase = tag_phase::before_attribute;
                    continue;
                }
                case tag_phase::unquoted_value:
                    while (p < n && !space(p) && s[p] != '>') ++p;
                    if (p >= n) break;
                    phase = tag_phase::before_attribute;
                    continue;
            }
            // The buffer ends inside the tag: remember where.
            m_tag_phase = phase;
            m_tag_quote = quote;
            m_tag_pos = p;
            return npos;
        }
    }

    /// Lower-cased name of the last tag read ("-" for a name longer than 16 bytes).
    [[nodiscard]] std::string_view name() const noexcept {
        // Names longer than the buffer match no known element.
        if (m_name_len > sizeof m_name) return "-";
        return {m_name, m_name_len};
    }

    /// Whether the last tag read ended with "/>".
    [[nodiscard]] bool self_closing() const noexcept { return m_self_closing; }

    /// The caller dropped the first `consumed` bytes of its buffer.
    void rebase(std::size_t consumed) noexcept {
        m_tag_owner = m_tag_owner != npos && m_tag_owner >= consumed ? m_tag_owner - consumed : npos;
        m_tag_pos = m_tag_pos >= consumed ? m_tag_pos - consumed : 0;
    }

private:
    /// Where `scan` stopped inside a tag cut by the end of the buffer.
    enum class tag_phase : std::uint8_t {
        name,
        before_attribute,
        after_slash,
        attribute_name,
        after_attribute_name,
        before_value,
        quoted_value,
        unquoted_value,
    };

    std::size_t finish(std::size_t end) noexcept {
        m_tag_owner = npos;
        return end;
    }

    char m_name[16] = {};
    std::size_t m_name_len = 0;
    bool m_self_closing = false;
    std::size_t m_tag_owner = npos;  // name start of the tag whose scan stopped at m_tag_pos
    std::size_t m_tag_pos = 0;
    tag_phase m_tag_phase = tag_phase::name;
    char m_tag_quote = 0;
};

/// Position of the '<' of the end tag that closes raw text named `tag` (lower case) in `s`,
/// searching from `from`; npos when the buffer holds none. `resume` is set to where a search
/// over a longer buffer must start.
[[nodiscard]] inline std::size_t html_find_end_tag(std::string_view s, std::size_t from, std::string_view tag,
                                                   std::size_t& resume) noexcept {
    constexpr std::size_t npos = std::string_view::npos;
    const std::size_t n = s.size();
    for (std::size_t p = s.find("</", from); p != npos; p = s.find("</", p + 1)) {
        const std::size_t q = p + 2 + tag.size();
        if (q >= n) {
            resume = p;
            return npos;
        }
        bool match = true;
        for (std::size_t k = 0; k < tag.size(); ++k) {
            if (ascii_lower(s[p + 2 + k]) != tag[k]) {
                match = false;
                break;
            }
        }
        if (match && (is_ascii_space(s[q]) || s[q] == '/' || s[q] == '>')) return p;
    }
    resume = std::max(from, n - 1);
    return npos;
}

}  // namespace detail
}  // namespace v0
}  // namespace semfp
