#pragma once
// Text emission for the HTML extractor (detail/html_extractor.hpp): the bytes between markup go
// to an html_text_builder with character references decoded, whitespace collapsed or kept,
// NUL dropped and malformed UTF-8 replaced. Plain runs (ASCII eight bytes at a time, and
// three-byte sequences) are scanned without per-character work and copied at once. At the end
// of a buffer that is not the end of the document, a construct that may continue (a character
// reference, a UTF-8 sequence, the CR of a CR LF) waits for the next buffer.

#include <semfp/detail/ascii.hpp>
#include <semfp/detail/html_scan.hpp>
#include <semfp/detail/utf8_codec.hpp>

#include <cstddef>
#include <string_view>

namespace semfp {
inline namespace v0 {
namespace detail {

/// The input state of the extractor and its text emission; html_extractor derives from it.
class html_text_emitter {
protected:
    static constexpr std::size_t npos = std::string_view::npos;

    explicit html_text_emitter(bool nbsp_as_space) noexcept : m_nbsp_as_space(nbsp_as_space) {}

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
            // Fast path: eight plain ASCII bytes at a time (no byte >= 0x80, none <= 0x20, no '&'
            // when references are read); the run is copied at once when it ends.
            while (i + 8 <= e && html_plain_ascii8(s.data() + i, refs)) i += 8;
            if (i >= e) break;
            const auto c = static_cast<unsigned char>(s[i]);
            if (c >= 0x80) {
                // Fast path for the common three-byte sequences (CJK): E1..EC and EE..EF leads
                // take any two continuation bytes and never encode U+00A0.
                if (html_plain_utf8_3(s, i, e)) {
                    do {
                        i += 3;
                    } while (i < e && html_plain_utf8_3(s, i, e));
                    continue;
                }
                const utf8_decoded d = utf8_decode(s, i);
                if (d.valid && !(d.code_point == 0xA0 && m_nbsp_as_space)) {
                    i += d.length;
                    continue;
                }
                out->text(s.substr(run, i - run));
                if (d.valid) {
                    whitespace(*out, pre, ' ');
                } else {
                    out->code_point(utf8_replacement);
                }
                i += d.length;
                run = i;
                continue;
            }
            if (!html_special_byte[c] || (c == '&' && !refs)) {
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

    /// Emits the data from m_pos to the end of the buffer; before the end of the document, stops
    /// short of a trailing construct that may continue (character reference, UTF-8 sequence,
    /// CR of a CR LF).
    void emit_rest(html_text_builder* out, bool refs, bool pre) {
        const std::size_t n = m_s.size();
        std::size_t cut = n;
        if (!m_final) {
            if (cut > m_pos && m_s[cut - 1] == '\r') --cut;
            for (std::size_t k = 1; k <= 3 && cut >= m_pos + k; ++k) {
                const auto c = static_cast<unsigned char>(m_s[cut - k]);
                if ((c & 0xC0) == 0x80) continue;  // continuation byte: look further back
                if (c >= 0xC0) {
                    const std::size_t need = c >= 0xF0 ? 4 : (c >= 0xE0 ? 3 : 2);
                    if (need > k) cut -= k;
                }
                break;
            }
            if (refs) cut = reference_cut(cut);
        }
        emit(m_pos, cut, out, refs, pre);
        m_pos = cut;
        if (cut < n) m_stalled = true;
    }

    /// Where text ending at `cut` must stop so that a character reference it may cut waits for
    /// the next buffer: at the last '&' near the end (a named reference reads at most
    /// html_entity_max_length + 2 bytes), or at the '&' of a numeric reference whose digits run to
    /// `cut`, however many there are. The digits of a reference that keeps stalling are read once
    /// (m_ref_*), so a long one cut many times stays linear.
    [[nodiscard]] std::size_t reference_cut(std::size_t cut) noexcept {
        auto is_digit = [](char c, bool hex) noexcept {
            return is_ascii_digit(c) || (hex && ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'));
        };
        if (m_ref_owner == m_pos) {
            std::size_t q = m_ref_digits;
            while (q < cut && is_digit(m_s[q], m_ref_hex)) ++q;
            m_ref_digits = q;
            if (q == cut) return m_pos;
        }
        const std::size_t window = html_entity_max_length + 8;
        const std::size_t from = cut > m_pos + window ? cut - window : m_pos;
        if (const std::size_t amp = m_s.substr(from, cut - from).rfind('&'); amp != npos) return from + amp;
        std::size_t q = cut;
        while (q > m_pos && is_digit(m_s[q - 1], true)) --q;
        if (q == cut) return cut;
        bool hex = false;
        std::size_t amp = npos;
        if (q >= m_pos + 3 && (m_s[q - 1] | 0x20) == 'x' && m_s[q - 2] == '#' && m_s[q - 3] == '&') {
            hex = true;
            amp = q - 3;
        } else if (q >= m_pos + 2 && m_s[q - 1] == '#' && m_s[q - 2] == '&') {
            amp = q - 2;
            for (std::size_t k = q; k < cut; ++k) {
                if (!is_ascii_digit(m_s[k])) return cut;  // a decimal reference ends before `cut`
            }
        }
        if (amp == npos) return cut;
        m_ref_owner = amp;
        m_ref_digits = cut;
        m_ref_hex = hex;
        return amp;
    }

    /// The caller dropped the first `consumed` bytes of its buffer.
    void rebase_reference(std::size_t consumed) noexcept {
        if (m_ref_owner != npos && m_ref_owner >= consumed) {
            m_ref_owner -= consumed;
            m_ref_digits -= consumed;
        } else {
            m_ref_owner = npos;
        }
    }

    std::string_view m_s;  // the buffer of the current run
    std::size_t m_pos = 0;
    bool m_final = true;
    bool m_stalled = false;
    bool m_nbsp_as_space;
    std::size_t m_ref_owner = npos;  // '&' of a numeric reference cut by the buffer...
    std::size_t m_ref_digits = 0;    // ...whose digits were read up to here
    bool m_ref_hex = false;
};

}  // namespace detail
}  // namespace v0
}  // namespace semfp
