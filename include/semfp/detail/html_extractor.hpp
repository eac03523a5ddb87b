#pragma once
// The single-pass HTML text extractor behind <semfp/text/html.hpp> (`extract_html`,
// `html_text_stream`) and the article extractor.
//
// Why one resumable pass rather than a tokenizer plus a tree: the library only needs the text a
// browser would show, so the extractor decides per construct (tag, comment, raw text, character
// reference) what it contributes and forgets it; memory is the output plus the one construct a
// chunk boundary may cut. The same code serves whole documents (`final` true) and streams: a
// construct cut by the end of the buffer stalls and is read again, whole, on the next call, and
// a search for its end resumes where the previous one stopped, so the output is identical for
// every split and the work stays linear.
//
// It knows nothing of the public option types: the caller passes the output strings and the
// two switches, so this file depends only on detail/. The text between markup is emitted by
// html_text_emitter.hpp (its base class), tags are read by html_tag_scanner.hpp; this file
// decides per construct (markup, comments, raw text, elements).

#include <semfp/detail/ascii.hpp>
#include <semfp/detail/html_scan.hpp>
#include <semfp/detail/html_tag_scanner.hpp>
#include <semfp/detail/html_text_emitter.hpp>
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

/// Receives the element boundaries the extractor reads (the hook of the article extractor,
/// <semfp/text/article.hpp>): each start tag (`end` false) and end tag outside templates and
/// foreign content, before its effect on the text. A construct that stalls is reported again
/// when it is read again, so only whole-document runs (`final` true) should be observed.
class html_tag_observer {
public:
    virtual void on_tag(std::string_view name, html_kind kind, bool end) = 0;

protected:
    ~html_tag_observer() = default;
};

/// The single-pass extractor behind `extract_html` and `html_text_stream`. It runs over a
/// buffer that may end before the document does (`final` false): a construct that the buffer
/// cuts (a tag, a comment, a raw text element, a character reference, a UTF-8 sequence) is left
/// for the next call, which sees the same bytes again plus more; everything else is emitted
/// once. The output is therefore the same for any split of the input.
class html_extractor : private html_text_emitter {
public:
    /// Text goes to `text`, the first title to `title`. `line_breaks` and `nbsp_as_space` are the
    /// fields of `html_options`. Both strings must outlive the extractor.
    html_extractor(std::string& text, std::string& title, bool line_breaks, bool nbsp_as_space)
        : html_text_emitter(nbsp_as_space), m_text(text, line_breaks), m_title(title, false) {}

    /// Processes `s` from position() on. `final`: the document ends with `s`.
    void run(std::string_view s, bool final) {
        m_s = s;
        m_final = final;
        m_stalled = false;
        const std::size_t n = m_s.size();
        if (!m_bom_checked) {
            const std::string_view bom = "\xEF\xBB\xBF";
            const std::string_view head = m_s.substr(m_pos, 3);
            if (!final && head.size() < 3 && bom.substr(0, head.size()) == head) return;
            if (head == bom) m_pos += 3;
            m_bom_checked = true;
        }
        while (!m_stalled && m_pos < n) {
            if (m_skip_newline) {
                skip_leading_newline();
                continue;
            }
            if (m_plaintext) {
                emit_rest(&m_text, false, true);
                break;
            }
            // Bytes before m_no_lt_until were searched already: a text that stalls on a long
            // character reference is searched once, not once per chunk.
            const std::size_t lt = m_s.find('<', m_no_lt_until > m_pos ? m_no_lt_until : m_pos);
            if (lt == npos) {
                m_no_lt_until = n;
                emit_rest(data_sink(), true, m_pre_depth > 0);
                break;
            }
            emit(m_pos, lt, data_sink(), true, m_pre_depth > 0);
            m_pos = lt;
            markup();
        }
        if (final) {
            m_text.finish();
            m_title.finish();
        }
    }

    /// Reports element boundaries to `observer` (null: none); it must outlive the runs.
    void set_observer(html_tag_observer* observer) noexcept { m_observer = observer; }

    /// Position in the buffer up to which the input has been consumed.
    [[nodiscard]] std::size_t position() const noexcept { return m_pos; }

    /// The caller dropped the first `consumed` bytes (at most position()) of its buffer.
    void rebase(std::size_t consumed) noexcept {
        m_pos -= consumed;
        m_no_lt_until = m_no_lt_until >= consumed ? m_no_lt_until - consumed : 0;
        m_resume_owner = m_resume_owner >= consumed ? m_resume_owner - consumed : npos;
        m_resume = m_resume >= consumed ? m_resume - consumed : 0;
        m_tag.rebase(consumed);
        rebase_reference(consumed);
    }

private:
    [[nodiscard]] html_text_builder* data_sink() noexcept {
        return (m_template_depth > 0 || m_foreign_hidden != 0) ? nullptr : &m_text;
    }

    [[nodiscard]] bool starts_with_at(std::size_t p, std::string_view what) const noexcept {
        return m_s.substr(p, what.size()) == what;
    }

    /// The construct starting at m_construct needs bytes beyond the buffer: stop, and start it
    /// again on the next call. `resume`: where its search for an end may go on.
    void stall(std::size_t resume) noexcept {
        m_resume_owner = m_construct;
        m_resume = resume;
        m_pos = m_construct;
        m_stalled = true;
    }

    /// Where a search for the end of the construct at m_construct may start.
    [[nodiscard]] std::size_t resume_from(std::size_t from) const noexcept {
        return m_resume_owner == m_construct ? std::max(from, m_resume) : from;
    }

    /// 1 when the bytes at `p` start with `what`, 0 when they do not, -1 when the buffer ends
    /// before that is known.
    [[nodiscard]] int prefix_at(std::size_t p, std::string_view what) const noexcept {
        const std::string_view have = m_s.substr(std::min(p, m_s.size()), what.size());
        if (have.size() == what.size()) return have == what ? 1 : 0;
        if (what.substr(0, have.size()) != have) return 0;
        return m_final ? 0 : -1;
    }

    void literal(std::string_view t) {
        if (html_text_builder* out = data_sink()) out->text(t);
    }

    // --- markup -----------------------------------------------------------------------------

    /// At '<'.
    void markup() {
        m_construct = m_pos;
        const std::size_t n = m_s.size();
        const std::size_t p = m_pos + 1;
        if (p >= n) {
            if (!m_final) return stall(p);
            literal("<");
            m_pos = n;
            return;
        }
        const char c = m_s[p];
        if (c == '!') {
            const int is_comment = prefix_at(p, "!--");
            const int is_cdata = m_foreign_depth > 0 ? prefix_at(p, "![CDATA[") : 0;
            if (is_comment < 0 || is_cdata < 0) return stall(p);
            if (is_comment > 0) {
                comment(p + 3);
            } else if (is_cdata > 0) {
                const std::size_t b = p + 8;
                const std::size_t e = m_s.find("]]>", resume_from(b));
                if (e == npos && !m_final) return stall(std::max(b, n - 2));
                emit(b, e == npos ? n : e, data_sink(), false, false);
                m_pos = e == npos ? n : e + 3;
            } else {
                bogus_comment(p + 1);
            }
        } else if (c == '/') {
            if (p + 1 >= n) {
                if (!m_final) return stall(p);
                literal("</");
                m_pos = n;
            } else if (is_ascii_alpha(m_s[p + 1])) {
                const std::size_t end = m_tag.scan(m_s, p + 1);
                if (end == npos) return cut_tag();
                m_pos = end;
                end_tag();
            } else if (m_s[p + 1] == '>') {
                m_pos = p + 2;
            } else {
                bogus_comment(p + 1);
            }
        } else if (c == '?') {
            bogus_comment(p);
        } else if (is_ascii_alpha(c)) {
            const std::size_t end = m_tag.scan(m_s, p);
            if (end == npos) return cut_tag();
            m_pos = end;
            start_tag();
        } else {
            literal("<");
            m_pos = p;
        }
    }

    /// A tag runs past the buffer: wait for more, or drop it at the end of the document.
    void cut_tag() noexcept {
        if (!m_final) return stall(m_construct);
        m_pos = m_s.size();
    }

    /// After "<!--".
    void comment(std::size_t p) {
        const std::size_t n = m_s.size();
        const int empty1 = prefix_at(p, ">");
        const int empty2 = prefix_at(p, "->");
        if (empty1 < 0 || empty2 < 0) return stall(p);
        if (empty1 > 0) {
            m_pos = p + 1;
            return;
        }
        if (empty2 > 0) {
            m_pos = p + 2;
            return;
        }
        for (std::size_t from = resume_from(p);;) {
            const std::size_t q = m_s.find("--", from);
            if (q == npos) {
                if (!m_final) return stall(std::max(p, n - 1));
                m_pos = n;
                return;
            }
            const int gt = prefix_at(q + 2, ">");
            const int bang = prefix_at(q + 2, "!>");
            if (gt < 0 || bang < 0) return stall(q);
            if (gt > 0) {
                m_pos = q + 3;
                return;
            }
            if (bang > 0) {
                m_pos = q + 4;
                return;
            }
            from = q + 1;
        }
    }

    void bogus_comment(std::size_t p) {
        const std::size_t gt = m_s.find('>', resume_from(p));
        if (gt == npos && !m_final) return stall(std::max(p, m_s.size()));
        m_pos = gt == npos ? m_s.size() : gt + 1;
    }

    /// Handles the contents of a raw text or escapable raw text element that starts at m_pos
    /// (its start tag begins at m_construct): emits them to `out` (nothing when null) and moves
    /// past the end tag. Returns false when the buffer ends first (the construct stalls).
    bool raw_contents(std::string_view tag, html_text_builder* out, bool refs, bool pre) {
        const std::size_t n = m_s.size();
        std::size_t resume = 0;
        const std::size_t end = html_find_end_tag(m_s, resume_from(m_pos), tag, resume);
        if (end == npos) {
            if (!m_final) {
                stall(resume);
                return false;
            }
            emit(m_pos, n, out, refs, pre);
            m_pos = n;
            return true;
        }
        const std::size_t after = m_tag.scan(m_s, end + 2);
        if (after == npos && !m_final) {
            stall(end);
            return false;
        }
        emit(m_pos, end, out, refs, pre);
        m_pos = after == npos ? n : after;
        return true;
    }

    /// After <pre>, <listing> and <textarea> one newline is dropped.
    void skip_leading_newline() noexcept {
        const std::size_t n = m_s.size();
        if (m_pos < n && m_s[m_pos] == '\n') {
            ++m_pos;
        } else if (m_pos < n && m_s[m_pos] == '\r') {
            if (m_pos + 1 >= n && !m_final) {
                m_stalled = true;
                return;
            }
            m_pos += (m_pos + 1 < n && m_s[m_pos + 1] == '\n') ? 2 : 1;
        }
        m_skip_newline = false;
    }

    [[nodiscard]] static bool breaks_out_of_foreign(std::string_view tag, html_kind kind) noexcept {
        // HTML elements that end foreign content (svg, math) when they start inside it.
        constexpr std::string_view inline_breakers[] = {"b",      "big",    "code", "em",   "embed", "font",  "i",
                                                        "img",    "meta",   "nobr", "ruby", "s",     "small", "span",
                                                        "strike", "strong", "sub",  "sup",  "tt",    "u",     "var"};
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
        const std::string_view tag = m_tag.name();
        const html_kind kind = html_element_kind(tag);
        if (m_template_depth > 0) {
            // Template contents are dropped, but still tokenized so that raw text is skipped.
            if (kind == html_kind::template_element) {
                ++m_template_depth;
            } else if (kind == html_kind::raw_skip || kind == html_kind::raw_text || kind == html_kind::title ||
                       kind == html_kind::textarea) {
                raw_contents(tag, nullptr, false, false);
            } else if (kind == html_kind::plaintext) {
                m_plaintext = true;
            }
            return;
        }
        if (m_foreign_depth > 0) {
            if (breaks_out_of_foreign(tag, kind)) {
                m_foreign_depth = 0;
                m_foreign_hidden = 0;
            } else {
                // In svg and math, script and style are ordinary elements whose contents are
                // markup; their text is hidden up to their end tag.
                if (kind == html_kind::foreign && !m_tag.self_closing()) ++m_foreign_depth;
                if (m_foreign_hidden == 0 && !m_tag.self_closing()) {
                    if (tag == "script")
                        m_foreign_hidden = 's';
                    else if (tag == "style")
                        m_foreign_hidden = 'y';
                }
                return;
            }
        }
        if (m_observer != nullptr) m_observer->on_tag(tag, kind, false);
        // Effects before raw_contents must be idempotent: a stalled construct runs again.
        switch (kind) {
            case html_kind::inline_element:
                break;
            case html_kind::block:
                m_text.block();
                break;
            case html_kind::cell:
                m_text.space();
                break;
            case html_kind::line_break:
                m_text.line_break();
                break;
            case html_kind::preformatted:
                m_text.block();
                ++m_pre_depth;
                m_skip_newline = true;
                break;
            case html_kind::raw_skip:
                raw_contents(tag, nullptr, false, false);
                break;
            case html_kind::raw_text:
                m_text.block();
                if (raw_contents(tag, &m_text, false, true)) m_text.block();
                break;
            case html_kind::plaintext:
                m_text.block();
                m_plaintext = true;
                break;
            case html_kind::title:
                if (raw_contents(tag, m_have_title ? nullptr : &m_title, true, false)) m_have_title = true;
                break;
            case html_kind::textarea: {
                m_text.space();
                const std::size_t n = m_s.size();
                if (m_pos < n && m_s[m_pos] == '\n') {
                    ++m_pos;
                } else if (m_pos < n && m_s[m_pos] == '\r') {
                    m_pos += (m_pos + 1 < n && m_s[m_pos + 1] == '\n') ? 2 : 1;
                }
                if (raw_contents(tag, &m_text, true, true)) m_text.space();
                break;
            }
            case html_kind::template_element:
                ++m_template_depth;
                break;
            case html_kind::foreign:
                if (!m_tag.self_closing()) ++m_foreign_depth;
                break;
        }
    }

    void end_tag() {
        const std::string_view tag = m_tag.name();
        const html_kind kind = html_element_kind(tag);
        if (m_template_depth > 0) {
            if (kind == html_kind::template_element) --m_template_depth;
            return;
        }
        if (m_foreign_depth > 0) {
            if ((m_foreign_hidden == 's' && tag == "script") || (m_foreign_hidden == 'y' && tag == "style")) {
                m_foreign_hidden = 0;
            }
            if (kind == html_kind::foreign) --m_foreign_depth;
            if (m_foreign_depth == 0) m_foreign_hidden = 0;
            return;
        }
        if (m_observer != nullptr) m_observer->on_tag(tag, kind, true);
        switch (kind) {
            case html_kind::block:
                m_text.block();
                break;
            case html_kind::cell:
                m_text.space();
                break;
            case html_kind::line_break:
                m_text.line_break();
                break;  // </br> acts as <br>
            case html_kind::preformatted:
                if (m_pre_depth > 0) --m_pre_depth;
                m_text.block();
                break;
            default:
                break;
        }
    }

    std::size_t m_construct = 0;        // start of the construct being read
    std::size_t m_no_lt_until = 0;      // no '<' in [m_pos, m_no_lt_until) of the buffer
    std::size_t m_resume_owner = npos;  // construct whose end search stopped at m_resume
    std::size_t m_resume = 0;
    html_text_builder m_text;
    html_text_builder m_title;
    html_tag_observer* m_observer = nullptr;
    html_tag_scanner m_tag;
    bool m_bom_checked = false;
    bool m_skip_newline = false;
    bool m_plaintext = false;
    bool m_have_title = false;
    char m_foreign_hidden = 0;  // 's' inside svg/math script, 'y' inside svg/math style
    int m_pre_depth = 0;
    int m_template_depth = 0;
    int m_foreign_depth = 0;
};

}  // namespace detail
}  // namespace v0
}  // namespace semfp
