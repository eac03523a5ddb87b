#pragma once
/// \file
/// Plain text from HTML: one forward pass over the markup, no tree, linear time.
///
/// Tags, comments, doctype and processing instructions are removed; the contents of `<script>`,
/// `<style>`, `<noscript>`, `<iframe>`, `<noembed>`, `<noframes>` and `<template>` are dropped;
/// `<title>` is kept apart; character references (the full HTML5 named table and numeric ones)
/// are decoded; block elements and `<br>` end lines; other whitespace collapses as a browser
/// renders it, except in `<pre>`, `<listing>`, `<textarea>`, `<xmp>` and `<plaintext>`.
/// Tokenization follows the HTML Standard where it decides what is text: unclosed tags and
/// comments run to the end of the input, a `<` that cannot start a tag is text, `>` inside
/// quoted attribute values does not end a tag, raw text ends only at its own end tag.
///
/// Input is UTF-8 (decode other charsets first with <semfp/text/encoding.hpp>); malformed bytes
/// become U+FFFD, so the output is always well-formed UTF-8.

#include <semfp/detail/html_scan.hpp>
#include <semfp/text/utf8.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace semfp {
inline namespace v0 {

/// Options of `extract_html` and `html_to_text`.
struct html_options {
    /// Block elements (p, div, li, tr, h1..h6, ...) and `<br>` end lines ('\n', at most one blank
    /// line in a row). When false they separate words with a space and the text is one line.
    bool line_breaks = true;
    /// U+00A0 NO-BREAK SPACE (`&nbsp;`) collapses like a space. When false it is kept.
    bool nbsp_as_space = true;
};

/// Text of an HTML document.
struct html_document {
    std::string title; ///< text of the first `<title>`, whitespace collapsed, on one line
    std::string text;  ///< visible text of the document (without the title)
};

namespace detail {

class html_extractor {
public:
    html_extractor(std::string_view html, html_document& doc, const html_options& options)
        : m_s(html),
          m_text(doc.text, options.line_breaks),
          m_title(doc.title, false),
          m_nbsp_as_space(options.nbsp_as_space) {}

    void run() {
        if (m_s.substr(0, 3) == "\xEF\xBB\xBF") m_pos = 3;
        const std::size_t n = m_s.size();
        while (m_pos < n) {
            std::size_t lt = m_s.find('<', m_pos);
            if (lt == std::string_view::npos) lt = n;
            emit(m_pos, lt, data_sink(), true, m_pre_depth > 0);
            m_pos = lt;
            if (m_pos < n) markup();
        }
        m_text.finish();
        m_title.finish();
    }

private:
    static constexpr std::size_t npos = std::string_view::npos;

    [[nodiscard]] html_text_builder* data_sink() noexcept { return m_template_depth > 0 ? nullptr : &m_text; }

    [[nodiscard]] bool starts_with_at(std::size_t p, std::string_view what) const noexcept {
        return m_s.substr(p, what.size()) == what;
    }

    // --- text -------------------------------------------------------------------------------

    void whitespace(html_text_builder& out, bool pre, char c) {
        if (!pre) {
            out.space();
        } else if (c == '\n' || c == '\r') {
            out.line_break();
        } else {
            out.preformatted_space(c == '\t' ? '\t' : ' ');
        }
    }

    void put_code_point(html_text_builder& out, bool pre, char32_t cp) {
        if (cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || cp == '\f') {
            whitespace(out, pre, static_cast<char>(cp));
        } else if (cp == 0xA0 && m_nbsp_as_space) {
            whitespace(out, pre, ' ');
        } else {
            out.code_point(cp);
        }
    }

    /// Emits the text in [b, e) to `out` (nothing when null). `refs`: decode character
    /// references; `pre`: keep whitespace.
    void emit(std::size_t b, std::size_t e, html_text_builder* out, bool refs, bool pre) {
        if (out == nullptr || b >= e) return;
        const std::string_view s = m_s.substr(0, e);
        std::size_t i = b, run = b;
        while (i < e) {
            const auto c = static_cast<unsigned char>(s[i]);
            if (c >= 0x80) {
                const utf8::decoded d = utf8::decode(s, i);
                if (d.valid && !(d.code_point == 0xA0 && m_nbsp_as_space)) {
                    i += d.length;
                    continue;
                }
                out->text(s.substr(run, i - run));
                if (d.valid) {
                    whitespace(*out, pre, ' ');
                } else {
                    out->code_point(utf8::replacement_character);
                }
                i += d.length;
                run = i;
                continue;
            }
            const bool special = c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == 0 ||
                                 (c == '&' && refs);
            if (!special) {
                ++i;
                continue;
            }
            out->text(s.substr(run, i - run));
            if (c == '&') {
                const html_char_ref r = html_read_char_ref(s, i);
                if (r.length == 0) {
                    run = i++;  // a literal '&' starts the next run
                    continue;
                }
                put_code_point(*out, pre, r.first);
                if (r.second != 0) put_code_point(*out, pre, r.second);
                i += r.length;
            } else if (c == 0) {
                ++i;  // NUL is dropped, as the tree builder does in body text
            } else if (c == '\r' && i + 1 < e && s[i + 1] == '\n') {
                ++i;  // CR LF is one newline
            } else {
                whitespace(*out, pre, static_cast<char>(c));
                ++i;
            }
            run = i;
        }
        out->text(s.substr(run, e - run));
    }

    void literal(std::string_view t) {
        if (html_text_builder* out = data_sink()) out->text(t);
    }

    // --- markup -----------------------------------------------------------------------------

    /// At '<'.
    void markup() {
        const std::size_t n = m_s.size();
        const std::size_t p = m_pos + 1;
        if (p >= n) {
            literal("<");
            m_pos = n;
            return;
        }
        const char c = m_s[p];
        if (c == '!') {
            if (starts_with_at(p, "!--")) {
                comment(p + 3);
            } else if (m_foreign_depth > 0 && starts_with_at(p, "![CDATA[")) {
                const std::size_t b = p + 8;
                std::size_t e = m_s.find("]]>", b);
                emit(b, e == npos ? n : e, data_sink(), false, false);
                m_pos = e == npos ? n : e + 3;
            } else {
                bogus_comment(p + 1);
            }
        } else if (c == '/') {
            if (p + 1 >= n) {
                literal("</");
                m_pos = n;
            } else if (html_is_alpha(m_s[p + 1])) {
                m_pos = scan_tag(p + 1);
                if (m_pos != npos) end_tag();
                else m_pos = n;
            } else if (m_s[p + 1] == '>') {
                m_pos = p + 2;
            } else {
                bogus_comment(p + 1);
            }
        } else if (c == '?') {
            bogus_comment(p);
        } else if (html_is_alpha(c)) {
            m_pos = scan_tag(p);
            if (m_pos != npos) start_tag();
            else m_pos = m_s.size();  // a tag cut by the end of input is dropped
        } else {
            literal("<");
            m_pos = p;
        }
    }

    /// After "<!--".
    void comment(std::size_t p) {
        if (starts_with_at(p, ">")) {
            m_pos = p + 1;
            return;
        }
        if (starts_with_at(p, "->")) {
            m_pos = p + 2;
            return;
        }
        for (;;) {
            const std::size_t q = m_s.find("--", p);
            if (q == npos) {
                m_pos = m_s.size();
                return;
            }
            if (starts_with_at(q + 2, ">")) {
                m_pos = q + 3;
                return;
            }
            if (starts_with_at(q + 2, "!>")) {
                m_pos = q + 4;
                return;
            }
            p = q + 1;
        }
    }

    void bogus_comment(std::size_t p) {
        const std::size_t gt = m_s.find('>', p);
        m_pos = gt == npos ? m_s.size() : gt + 1;
    }

    /// Reads a tag whose name starts at `p`: lower-cased name into m_name, attributes skipped.
    /// Returns the position after '>', or npos when the input ends inside the tag.
    std::size_t scan_tag(std::size_t p) {
        const std::size_t n = m_s.size();
        m_name_len = 0;
        m_self_closing = false;
        while (p < n && !html_is_space(m_s[p]) && m_s[p] != '/' && m_s[p] != '>') {
            if (m_name_len < sizeof m_name) m_name[m_name_len] = html_lower(m_s[p]);
            ++m_name_len;
            ++p;
        }
        for (;;) {
            while (p < n && html_is_space(m_s[p])) ++p;
            if (p >= n) return npos;
            if (m_s[p] == '>') return p + 1;
            if (m_s[p] == '/') {
                ++p;
                if (p < n && m_s[p] == '>') {
                    m_self_closing = true;
                    return p + 1;
                }
                continue;
            }
            ++p;  // first character of an attribute name (may be '=')
            while (p < n && !html_is_space(m_s[p]) && m_s[p] != '/' && m_s[p] != '>' && m_s[p] != '=') ++p;
            while (p < n && html_is_space(m_s[p])) ++p;
            if (p >= n) return npos;
            if (m_s[p] != '=') continue;
            ++p;
            while (p < n && html_is_space(m_s[p])) ++p;
            if (p >= n) return npos;
            const char q = m_s[p];
            if (q == '"' || q == '\'') {
                const std::size_t close = m_s.find(q, p + 1);
                if (close == npos) return npos;
                p = close + 1;
            } else {
                while (p < n && !html_is_space(m_s[p]) && m_s[p] != '>') ++p;
            }
        }
    }

    [[nodiscard]] std::string_view name() const noexcept {
        // Names longer than the buffer match no known element.
        if (m_name_len > sizeof m_name) return "-";
        return {m_name, m_name_len};
    }

    /// Position of the '<' of the end tag that closes raw text named `tag`, searching from
    /// `from`; npos when there is none (the raw text runs to the end of the input).
    [[nodiscard]] std::size_t find_end_tag(std::size_t from, std::string_view tag) const noexcept {
        const std::size_t n = m_s.size();
        for (std::size_t p = m_s.find("</", from); p != npos; p = m_s.find("</", p + 1)) {
            const std::size_t q = p + 2 + tag.size();
            if (q >= n) return npos;
            bool match = true;
            for (std::size_t k = 0; k < tag.size(); ++k) {
                if (html_lower(m_s[p + 2 + k]) != tag[k]) {
                    match = false;
                    break;
                }
            }
            if (match && (html_is_space(m_s[q]) || m_s[q] == '/' || m_s[q] == '>')) return p;
        }
        return npos;
    }

    /// Handles the contents of a raw text or escapable raw text element that starts at m_pos:
    /// emits them to `out` (nothing when null) and moves past the end tag.
    void raw_contents(std::string_view tag, html_text_builder* out, bool refs, bool pre) {
        const std::size_t end = find_end_tag(m_pos, tag);
        if (end == npos) {
            emit(m_pos, m_s.size(), out, refs, pre);
            m_pos = m_s.size();
            return;
        }
        emit(m_pos, end, out, refs, pre);
        m_pos = scan_tag(end + 2);
        if (m_pos == npos) m_pos = m_s.size();
    }

    void skip_leading_newline() noexcept {
        if (starts_with_at(m_pos, "\n")) {
            ++m_pos;
        } else if (starts_with_at(m_pos, "\r")) {
            m_pos += starts_with_at(m_pos + 1, "\n") ? 2 : 1;
        }
    }

    [[nodiscard]] static bool breaks_out_of_foreign(std::string_view tag, html_kind kind) noexcept {
        // HTML elements that end foreign content (svg, math) when they start inside it.
        constexpr std::string_view inline_breakers[] = {"b",      "big",   "code", "em",     "embed", "font",
                                                        "i",      "img",   "meta", "nobr",   "ruby",  "s",
                                                        "small",  "span",  "strike", "strong", "sub", "sup",
                                                        "tt",     "u",     "var"};
        if (kind == html_kind::line_break || kind == html_kind::preformatted) return true;
        if (kind == html_kind::block) {
            return tag != "address" && tag != "article" && tag != "aside" && tag != "caption" && tag != "details" &&
                   tag != "dialog" && tag != "dir" && tag != "fieldset" && tag != "figcaption" && tag != "figure" &&
                   tag != "footer" && tag != "form" && tag != "frameset" && tag != "header" && tag != "hgroup" &&
                   tag != "html" && tag != "legend" && tag != "main" && tag != "nav" && tag != "optgroup" &&
                   tag != "option" && tag != "search" && tag != "section" && tag != "summary" && tag != "tbody" &&
                   tag != "tfoot" && tag != "thead" && tag != "tr";
        }
        return std::find(std::begin(inline_breakers), std::end(inline_breakers), tag) != std::end(inline_breakers);
    }

    void start_tag() {
        const std::string_view tag = name();
        const html_kind kind = html_element_kind(tag);
        if (m_template_depth > 0) {
            // Template contents are dropped, but still tokenized so that raw text is skipped.
            if (kind == html_kind::template_element) ++m_template_depth;
            else if (kind == html_kind::raw_skip || kind == html_kind::raw_text || kind == html_kind::title ||
                     kind == html_kind::textarea)
                raw_contents(tag, nullptr, false, false);
            else if (kind == html_kind::plaintext)
                m_pos = m_s.size();
            return;
        }
        if (m_foreign_depth > 0) {
            if (breaks_out_of_foreign(tag, kind)) {
                m_foreign_depth = 0;
            } else {
                if (kind == html_kind::foreign && !m_self_closing) ++m_foreign_depth;
                if (tag == "script" || tag == "style") {
                    if (!m_self_closing) raw_contents(tag, nullptr, false, false);
                }
                return;
            }
        }
        switch (kind) {
            case html_kind::inline_element: break;
            case html_kind::block: m_text.block(); break;
            case html_kind::cell: m_text.space(); break;
            case html_kind::line_break: m_text.line_break(); break;
            case html_kind::preformatted:
                m_text.block();
                ++m_pre_depth;
                skip_leading_newline();
                break;
            case html_kind::raw_skip: raw_contents(tag, nullptr, false, false); break;
            case html_kind::raw_text:
                m_text.block();
                raw_contents(tag, &m_text, false, true);
                m_text.block();
                break;
            case html_kind::plaintext:
                m_text.block();
                emit(m_pos, m_s.size(), &m_text, false, true);
                m_pos = m_s.size();
                break;
            case html_kind::title:
                raw_contents(tag, m_have_title ? nullptr : &m_title, true, false);
                m_have_title = true;
                break;
            case html_kind::textarea:
                m_text.space();
                skip_leading_newline();
                raw_contents(tag, &m_text, true, true);
                m_text.space();
                break;
            case html_kind::template_element: ++m_template_depth; break;
            case html_kind::foreign:
                if (!m_self_closing) ++m_foreign_depth;
                break;
        }
    }

    void end_tag() {
        const std::string_view tag = name();
        const html_kind kind = html_element_kind(tag);
        if (m_template_depth > 0) {
            if (kind == html_kind::template_element) --m_template_depth;
            return;
        }
        switch (kind) {
            case html_kind::block: m_text.block(); break;
            case html_kind::cell: m_text.space(); break;
            case html_kind::line_break: m_text.line_break(); break;  // </br> acts as <br>
            case html_kind::preformatted:
                if (m_pre_depth > 0) --m_pre_depth;
                m_text.block();
                break;
            case html_kind::foreign:
                if (m_foreign_depth > 0) --m_foreign_depth;
                break;
            default: break;
        }
    }

    std::string_view m_s;
    std::size_t m_pos = 0;
    html_text_builder m_text;
    html_text_builder m_title;
    bool m_nbsp_as_space;
    bool m_have_title = false;
    bool m_self_closing = false;
    int m_pre_depth = 0;
    int m_template_depth = 0;
    int m_foreign_depth = 0;
    char m_name[16] = {};
    std::size_t m_name_len = 0;
};

}  // namespace detail

/// Extracts title and text of `html` into `doc`, reusing its buffers (both are overwritten).
/// \param html UTF-8 markup; any bytes are accepted (malformed UTF-8 becomes U+FFFD).
/// Complexity: O(n) time, one pass; memory is the output only. Throws only std::bad_alloc.
inline void extract_html_into(std::string_view html, html_document& doc, const html_options& options = {}) {
    doc.title.clear();
    doc.text.clear();
    doc.text.reserve(html.size() / 2);
    detail::html_extractor(html, doc, options).run();
}

/// Title and visible text of `html` (see the file comment for the rules). O(n).
[[nodiscard]] inline html_document extract_html(std::string_view html, const html_options& options = {}) {
    html_document doc;
    extract_html_into(html, doc, options);
    return doc;
}

/// Visible text of `html`, without the title (see the file comment for the rules). O(n).
[[nodiscard]] inline std::string html_to_text(std::string_view html, const html_options& options = {}) {
    return extract_html(html, options).text;
}

/// Decodes the character references in `text` (as in HTML text content: numeric and named,
/// legacy names without ';' included) and leaves every other byte as it is. O(n).
[[nodiscard]] inline std::string html_unescape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t amp = text.find('&', pos);
        if (amp == std::string_view::npos) break;
        out.append(text.substr(pos, amp - pos));
        const detail::html_char_ref r = detail::html_read_char_ref(text, amp);
        if (r.length == 0) {
            out.push_back('&');
            pos = amp + 1;
            continue;
        }
        utf8::append(out, r.first);
        if (r.second != 0) utf8::append(out, r.second);
        pos = amp + r.length;
    }
    out.append(text.substr(pos));
    return out;
}

}  // namespace v0
}  // namespace semfp
