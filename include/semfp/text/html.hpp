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
/// `<noscript>` is hidden as in a browser with scripting on. Foreign content (`<svg>`, `<math>`)
/// is followed approximately: its text is kept, its `<script>` and `<style>` are not, CDATA
/// sections are text, and the HTML elements that end it do; integration points (svg
/// `<foreignObject>`, `<desc>`, `<title>`) are read as foreign content.
///
/// Input is UTF-8 (decode other charsets first with <semfp/text/encoding.hpp>); malformed bytes
/// become U+FFFD, so the output is always well-formed UTF-8. `html_text_stream` takes the
/// document in pieces and produces the same text.

#include <semfp/detail/html_extractor.hpp>
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
    std::string title;  ///< text of the first `<title>`, whitespace collapsed, on one line
    std::string text;   ///< visible text of the document (without the title)
};

/// Extracts title and text of `html` into `doc`, reusing its buffers (both are overwritten).
/// \param html UTF-8 markup; any bytes are accepted (malformed UTF-8 becomes U+FFFD).
/// Complexity: O(n) time, one pass; memory is the output only. Throws only std::bad_alloc.
inline void extract_html_into(std::string_view html, html_document& doc, const html_options& options = {}) {
    doc.title.clear();
    doc.text.clear();
    doc.text.reserve(html.size() / 2);
    detail::html_extractor(doc.text, doc.title, options.line_breaks, options.nbsp_as_space).run(html, true);
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

/// Incremental extraction for documents that arrive in pieces (network reads, large files).
/// Whatever the split, the text appended across `feed` and `finish` calls equals
/// `html_to_text` of the whole document, and `title()` equals its title. The caller may take
/// the text produced so far (move from or clear `text()`) between calls. Memory: the output
/// plus the longest construct cut by a chunk boundary (a tag, comment or script). Time: O(n)
/// over the document, amortized. Not copyable or movable (it refers to its own members).
class html_text_stream {
public:
    explicit html_text_stream(const html_options& options = {})
        : m_extractor(m_doc.text, m_doc.title, options.line_breaks, options.nbsp_as_space) {}
    html_text_stream(const html_text_stream&) = delete;
    html_text_stream& operator=(const html_text_stream&) = delete;

    /// Reads the next piece of the document.
    void feed(std::string_view chunk) {
        compact();
        m_buffer.append(chunk);
        m_extractor.run(m_buffer, false);
    }

    /// Ends the document: the rest of the text is appended to `text()`. Call once, last.
    void finish() {
        m_extractor.run(m_buffer, true);
        m_extractor.rebase(m_extractor.position());
        m_buffer.clear();
        m_buffer.shrink_to_fit();
    }

    /// Text extracted so far; the caller may move it out or clear it between calls.
    [[nodiscard]] std::string& text() noexcept { return m_doc.text; }
    /// Text of the first `<title>`, once its end tag has been read (else empty).
    [[nodiscard]] const std::string& title() const noexcept { return m_doc.title; }

private:
    void compact() {
        // Drop consumed input once it is at least half the buffer: amortized O(1) per byte.
        const std::size_t consumed = m_extractor.position();
        if (consumed == 0 || consumed < m_buffer.size() / 2) return;
        m_buffer.erase(0, consumed);
        m_extractor.rebase(consumed);
    }

    html_document m_doc;
    detail::html_extractor m_extractor;
    std::string m_buffer;
};

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
