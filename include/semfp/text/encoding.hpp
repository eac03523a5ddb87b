#pragma once
/// \file
/// Decoding of web and document bytes to UTF-8: UTF-8, UTF-16 and the GB family (GB18030, GBK,
/// GB2312; the latter two are decoded as GB18030, their superset), with charset detection from a
/// byte order mark, a `Content-Type` value, an HTML `<meta>` declaration or the bytes themselves.
///
/// Decoding never fails: a byte sequence that does not decode becomes one U+FFFD and is counted
/// in `decode_result::replaced`. Error recovery follows the WHATWG Encoding Standard (how many
/// bytes one error swallows); GB18030 code points follow the tables in
/// <semfp/detail/gb18030_table.hpp>, generated from the GNU C Library's converter. Like web
/// browsers, the single byte 0x80 decodes as U+20AC (the euro sign of Windows code page 936).
/// `stream_decoder` decodes input that arrives in pieces.

#include <semfp/detail/ascii.hpp>
#include <semfp/detail/charset_prescan.hpp>
#include <semfp/detail/gb18030.hpp>
#include <semfp/detail/transcode.hpp>
#include <semfp/text/utf8.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace semfp {
inline namespace v0 {

/// A character encoding semfp can decode. `unknown` means "not declared or not supported".
enum class charset : std::uint8_t {
    unknown,
    utf8,
    utf16le,
    utf16be,
    gb18030,
    gbk,     ///< decoded as GB18030
    gb2312,  ///< decoded as GB18030
};

/// Where `detect_charset` found the charset it returned.
enum class charset_source : std::uint8_t {
    bom,           ///< a byte order mark at the start of the bytes
    content_type,  ///< the `charset` parameter of a Content-Type value passed by the caller
    meta,          ///< an HTML `<meta charset>` or `<meta http-equiv content>` in the first 1024 bytes
    content,       ///< guessed from the bytes: UTF-8 when they are valid UTF-8, else GB18030
};

/// The result of `detect_charset`.
struct charset_detection {
    charset cs = charset::utf8;
    charset_source source = charset_source::content;
};

/// Text decoded to UTF-8.
struct decode_result {
    std::string text;            ///< well-formed UTF-8, without a leading byte order mark
    std::size_t replaced = 0;    ///< number of U+FFFD written for undecodable bytes
    charset cs = charset::utf8;  ///< the charset the bytes were decoded from
};

/// Canonical lower-case name of a charset ("utf-8", "gb18030", "gbk", ...; "unknown").
[[nodiscard]] constexpr std::string_view charset_name(charset cs) noexcept {
    switch (cs) {
        case charset::utf8:
            return "utf-8";
        case charset::utf16le:
            return "utf-16le";
        case charset::utf16be:
            return "utf-16be";
        case charset::gb18030:
            return "gb18030";
        case charset::gbk:
            return "gbk";
        case charset::gb2312:
            return "gb2312";
        case charset::unknown:
            break;
    }
    return "unknown";
}

namespace detail {

/// Charset of a `charset=` value inside a Content-Type or meta `content` value (the WHATWG
/// "extract a character encoding from a meta element" algorithm), `unknown` when absent.
[[nodiscard]] charset charset_from_parameter(std::string_view value) noexcept;

/// The decoder that reads `cs` (`unknown` reads as UTF-8; GBK and GB2312 as GB18030).
[[nodiscard]] constexpr byte_encoding byte_encoding_of(charset cs) noexcept {
    switch (cs) {
        case charset::utf16le:
            return byte_encoding::utf16le;
        case charset::utf16be:
            return byte_encoding::utf16be;
        case charset::gb18030:
        case charset::gbk:
        case charset::gb2312:
            return byte_encoding::gb18030;
        case charset::utf8:
        case charset::unknown:
            break;
    }
    return byte_encoding::utf8;
}

}  // namespace detail

/// Charset named by an encoding label ("UTF-8", "utf8", "GB2312", "x-gbk", "cp936", "GB18030",
/// "utf-16le", ...), ASCII case-insensitive, surrounding whitespace ignored. Labels follow the
/// WHATWG Encoding Standard; labels of other encodings give `charset::unknown`.
[[nodiscard]] inline charset charset_from_label(std::string_view label) noexcept {
    label = detail::trim_ascii_space(label);
    if (label.size() > 32) return charset::unknown;
    struct entry {
        std::string_view label;
        charset cs;
    };
    static constexpr entry labels[] = {
        {"utf-8", charset::utf8},
        {"utf8", charset::utf8},
        {"unicode-1-1-utf-8", charset::utf8},
        {"unicode11utf8", charset::utf8},
        {"unicode20utf8", charset::utf8},
        {"x-unicode20utf8", charset::utf8},
        {"gb18030", charset::gb18030},
        {"gbk", charset::gbk},
        {"x-gbk", charset::gbk},
        {"cp936", charset::gbk},
        {"ms936", charset::gbk},
        {"windows-936", charset::gbk},
        {"gb2312", charset::gb2312},
        {"gb_2312", charset::gb2312},
        {"gb_2312-80", charset::gb2312},
        {"csgb2312", charset::gb2312},
        {"csiso58gb231280", charset::gb2312},
        {"iso-ir-58", charset::gb2312},
        {"chinese", charset::gb2312},
        {"euc-cn", charset::gb2312},
        {"utf-16le", charset::utf16le},
        {"utf-16", charset::utf16le},
        {"ucs-2", charset::utf16le},
        {"unicode", charset::utf16le},
        {"csunicode", charset::utf16le},
        {"iso-10646-ucs-2", charset::utf16le},
        {"unicodefeff", charset::utf16le},
        {"utf-16be", charset::utf16be},
        {"unicodefffe", charset::utf16be},
    };
    for (const entry& e : labels) {
        if (detail::iequals_ascii(label, e.label)) return e.cs;
    }
    return charset::unknown;
}

/// Charset announced by a byte order mark at the start of `bytes` (UTF-8 EF BB BF, UTF-16LE
/// FF FE, UTF-16BE FE FF, GB18030 84 31 95 33), else `charset::unknown`.
[[nodiscard]] constexpr charset charset_from_bom(std::string_view bytes) noexcept {
    if (bytes.size() >= 3 && bytes.substr(0, 3) == "\xEF\xBB\xBF") return charset::utf8;
    if (bytes.size() >= 2 && bytes.substr(0, 2) == "\xFF\xFE") return charset::utf16le;
    if (bytes.size() >= 2 && bytes.substr(0, 2) == "\xFE\xFF") return charset::utf16be;
    if (bytes.size() >= 4 && bytes.substr(0, 4) == "\x84\x31\x95\x33") return charset::gb18030;
    return charset::unknown;
}

/// Length of the byte order mark of `cs` when `bytes` starts with it, else 0.
[[nodiscard]] constexpr std::size_t bom_length(std::string_view bytes, charset cs) noexcept {
    const charset found = charset_from_bom(bytes);
    const bool gb = cs == charset::gb18030 || cs == charset::gbk || cs == charset::gb2312;
    if (found == charset::utf8 && cs == charset::utf8) return 3;
    if (found == charset::utf16le && cs == charset::utf16le) return 2;
    if (found == charset::utf16be && cs == charset::utf16be) return 2;
    if (found == charset::gb18030 && gb) return 4;
    return 0;
}

/// Charset of the `charset` parameter of a Content-Type value such as
/// `text/html; charset="GBK"`, `charset::unknown` when absent or unsupported.
[[nodiscard]] inline charset charset_from_content_type(std::string_view content_type) noexcept {
    return detail::charset_from_parameter(content_type);
}

namespace detail {

inline charset charset_from_parameter(std::string_view value) noexcept {
    // WHATWG "extract a character encoding from a meta element": the first "charset" followed
    // (after spaces) by '=' wins.
    std::size_t pos = 0;
    while (pos + 7 <= value.size()) {
        if (!iequals_ascii(value.substr(pos, 7), "charset")) {
            ++pos;
            continue;
        }
        pos += 7;
        while (pos < value.size() && is_ascii_space(value[pos])) ++pos;
        if (pos >= value.size()) return charset::unknown;
        if (value[pos] != '=') continue;
        ++pos;
        while (pos < value.size() && is_ascii_space(value[pos])) ++pos;
        if (pos >= value.size()) return charset::unknown;
        const char q = value[pos];
        if (q == '"' || q == '\'') {
            const std::size_t close = value.find(q, pos + 1);
            if (close == std::string_view::npos) return charset::unknown;
            return charset_from_label(value.substr(pos + 1, close - pos - 1));
        }
        std::size_t end = pos;
        while (end < value.size() && !is_ascii_space(value[end]) && value[end] != ';') ++end;
        return charset_from_label(value.substr(pos, end - pos));
    }
    return charset::unknown;
}

}  // namespace detail

/// Charset declared by an HTML `<meta charset="...">` or `<meta http-equiv="Content-Type"
/// content="...; charset=...">` within the first `limit` bytes, found by the WHATWG prescan
/// (comments and other tags' attribute values are skipped). A declared UTF-16 means UTF-8, as
/// in browsers. Returns `charset::unknown` when nothing usable is declared. O(limit).
[[nodiscard]] inline charset charset_from_meta(std::string_view bytes, std::size_t limit = 1024) {
    const std::string_view s = bytes.substr(0, std::min(bytes.size(), limit));
    std::size_t pos = 0;
    detail::prescan_attribute attr;
    while (pos < s.size()) {
        if (s[pos] != '<') {
            ++pos;
            continue;
        }
        const std::string_view rest = s.substr(pos);
        if (rest.substr(0, 4) == "<!--") {
            const std::size_t end = s.find("-->", pos + 2);
            if (end == std::string_view::npos) break;
            pos = end + 3;
            continue;
        }
        if (rest.size() >= 6 && detail::iequals_ascii(rest.substr(0, 5), "<meta") &&
            (detail::is_ascii_space(rest[5]) || rest[5] == '/')) {
            pos += 6;
            bool got_pragma = false, seen_http_equiv = false, seen_content = false, seen_charset = false;
            int need_pragma = -1;  // -1 unset, 0 false, 1 true
            charset cs = charset::unknown;
            while (detail::prescan_get_attribute(s, pos, attr)) {
                if (attr.name == "http-equiv" && !seen_http_equiv) {
                    seen_http_equiv = true;
                    if (attr.value == "content-type") got_pragma = true;
                } else if (attr.name == "content" && !seen_content) {
                    seen_content = true;
                    if (cs == charset::unknown) {
                        cs = detail::charset_from_parameter(attr.value);
                        if (cs != charset::unknown) need_pragma = 1;
                    }
                } else if (attr.name == "charset" && !seen_charset) {
                    seen_charset = true;
                    cs = charset_from_label(attr.value);
                    need_pragma = 0;
                }
            }
            if (need_pragma == -1 || (need_pragma == 1 && !got_pragma) || cs == charset::unknown) continue;
            if (cs == charset::utf16le || cs == charset::utf16be) return charset::utf8;
            return cs;
        }
        if (rest.size() >= 3 &&
            ((rest[1] == '/' && detail::is_ascii_alpha(rest[2])) || detail::is_ascii_alpha(rest[1]))) {
            // Another tag: skip its name, then its attributes (their values may hold '>').
            pos += 2;
            while (pos < s.size() && !detail::is_ascii_space(s[pos]) && s[pos] != '>') ++pos;
            while (detail::prescan_get_attribute(s, pos, attr)) {
            }
            continue;
        }
        if (rest.size() >= 2 && (rest[1] == '!' || rest[1] == '/' || rest[1] == '?')) {
            const std::size_t end = s.find('>', pos + 2);
            if (end == std::string_view::npos) break;
            pos = end + 1;
            continue;
        }
        ++pos;
    }
    return charset::unknown;
}

/// Guesses the charset from the bytes alone: UTF-8 when they are well-formed UTF-8 (so pure
/// ASCII is UTF-8) or when well-formed multi-byte UTF-8 sequences outnumber the malformed bytes
/// at least four to one (UTF-8 text with a few stray bytes stays UTF-8); otherwise GB18030
/// unless that would replace more bytes than UTF-8 does. O(n).
[[nodiscard]] inline charset sniff_charset(std::string_view bytes) noexcept {
    // GB18030 Chinese read as UTF-8 yields about one malformed byte per character and only
    // chance multi-byte sequences (at most 0.34 per malformed byte over 1,183 GB18030-encoded
    // corpus documents), while UTF-8 text with a stray byte yields one error against many
    // sequences. GB18030 itself decodes most stray bytes inside UTF-8 without complaint, so
    // comparing error counts alone would turn such text into mojibake.
    std::size_t utf8_errors = 0, multibyte = 0;
    for (std::size_t i = 0; i < bytes.size();) {
        const auto c = static_cast<unsigned char>(bytes[i]);
        if (c < 0x80) {
            ++i;
            continue;
        }
        const detail::utf8_decoded d = detail::utf8_decode(bytes, i);
        if (d.valid) {
            ++multibyte;
        } else {
            ++utf8_errors;
        }
        i += d.length;
    }
    if (utf8_errors == 0 || multibyte >= 4 * utf8_errors) return charset::utf8;
    const std::size_t gb_errors = detail::gb18030_decode(bytes, [](char32_t) noexcept {});
    return gb_errors <= utf8_errors ? charset::gb18030 : charset::utf8;
}

/// Decides the charset of `bytes` in the order browsers use: a byte order mark, then the
/// charset of `content_type` (a Content-Type header value, may be empty), then an HTML `<meta>`
/// declaration in the first 1024 bytes, then `sniff_charset`. Never returns `unknown`. O(n).
[[nodiscard]] inline charset_detection detect_charset(std::string_view bytes, std::string_view content_type = {}) {
    if (const charset cs = charset_from_bom(bytes); cs != charset::unknown) return {cs, charset_source::bom};
    if (const charset cs = charset_from_content_type(content_type); cs != charset::unknown) {
        return {cs, charset_source::content_type};
    }
    if (const charset cs = charset_from_meta(bytes); cs != charset::unknown) return {cs, charset_source::meta};
    return {sniff_charset(bytes), charset_source::content};
}

/// Appends the UTF-8 decoding of `bytes` in charset `cs` to `out` and returns the number of
/// U+FFFD written for undecodable bytes. A leading byte order mark of `cs` is skipped;
/// `charset::unknown` is decoded as UTF-8, a UTF-8 byte order mark included. Malformed UTF-8
/// becomes one U+FFFD per bad byte. O(n); at most one allocation.
inline std::size_t append_utf8(std::string_view bytes, charset cs, std::string& out) {
    // `unknown` is read as UTF-8, byte order mark included.
    bytes.remove_prefix(bom_length(bytes, cs == charset::unknown ? charset::utf8 : cs));
    return detail::decode_append(bytes, detail::byte_encoding_of(cs), out, true).errors;
}

/// Incremental decoding of a byte stream in one charset, for input that arrives in pieces: a
/// code cut by a chunk boundary is completed by the next chunk, so the UTF-8 appended across
/// `feed` and `finish` equals `to_utf8` of the whole stream, whatever the split. Keeps at most
/// 3 bytes between calls. O(n) over the stream.
class stream_decoder {
public:
    /// A decoder for bytes in charset `cs` (`unknown` decodes as UTF-8).
    explicit stream_decoder(charset cs) noexcept : m_cs(cs) {}

    /// Appends the UTF-8 of `chunk` (minus a code it cuts) to `out`; returns the number of
    /// U+FFFD written.
    std::size_t feed(std::string_view chunk, std::string& out) { return run(chunk, out, false); }

    /// Ends the stream: a code cut by its end becomes U+FFFD. Returns the number of U+FFFD
    /// written. The decoder can then start a new stream.
    std::size_t finish(std::string& out) {
        const std::size_t errors = run({}, out, true);
        m_bom_checked = false;
        return errors;
    }

    /// The charset being decoded.
    [[nodiscard]] charset cs() const noexcept { return m_cs; }

private:
    std::size_t run(std::string_view chunk, std::string& out, bool final) {
        std::string_view bytes = chunk;
        if (!m_pending.empty()) {
            m_pending.append(chunk);
            bytes = m_pending;
        }
        if (!m_bom_checked) {
            // The longest byte order mark has 4 bytes; wait for them (or the end).
            if (bytes.size() < 4 && !final) {
                if (m_pending.empty()) m_pending.assign(chunk);
                return 0;
            }
            bytes.remove_prefix(bom_length(bytes, m_cs == charset::unknown ? charset::utf8 : m_cs));
            m_bom_checked = true;
        }
        const detail::decode_progress r = detail::decode_append(bytes, detail::byte_encoding_of(m_cs), out, final);
        // The cut code (at most 3 bytes) waits for the next chunk.
        std::string rest(bytes.substr(r.consumed));
        m_pending = std::move(rest);
        return r.errors;
    }

    std::string m_pending;
    charset m_cs;
    bool m_bom_checked = false;
};

/// Decodes `bytes` in charset `cs` to UTF-8 (see `append_utf8`). O(n).
[[nodiscard]] inline decode_result to_utf8(std::string_view bytes, charset cs) {
    decode_result r;
    r.replaced = append_utf8(bytes, cs, r.text);
    r.cs = cs == charset::unknown ? charset::utf8 : cs;
    return r;
}

/// Detects the charset of `bytes` (see `detect_charset`; `content_type` may be empty) and
/// decodes them to UTF-8. O(n).
[[nodiscard]] inline decode_result decode_to_utf8(std::string_view bytes, std::string_view content_type = {}) {
    return to_utf8(bytes, detect_charset(bytes, content_type).cs);
}

}  // namespace v0
}  // namespace semfp
