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

#include <semfp/detail/gb18030_table.hpp>
#include <semfp/text/utf8.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
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

[[nodiscard]] constexpr bool is_ascii_space(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

[[nodiscard]] constexpr char ascii_lower(char c) noexcept {
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

[[nodiscard]] constexpr bool is_ascii_alpha(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

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

/// Writes the UTF-8 form of `cp` at `p` and advances `p`.
inline void put_utf8(char*& p, char32_t cp) noexcept {
    char buf[4];
    const std::size_t n = utf8::encode(cp, buf);
    std::memcpy(p, buf, n);
    p += n;
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

/// Code point of a two-byte GB18030 pointer, 0 when unassigned.
[[nodiscard]] constexpr char32_t gb18030_two_byte_code_point(std::uint32_t pointer) noexcept {
    const char32_t v = gb18030_two_byte[pointer];
    if (v != 0) return v;
    for (const auto& e : gb18030_two_byte_supplementary) {
        if (e.pointer == pointer) return e.code_point;
    }
    return 0;
}

/// Code point of a four-byte GB18030 pointer, 0 when unassigned.
[[nodiscard]] constexpr char32_t gb18030_four_byte_code_point(std::uint32_t pointer) noexcept {
    if (pointer < gb18030_four_byte_bmp_end) {
        // Last range starting at or before the pointer (the first range starts at 0).
        const auto* first = std::begin(gb18030_four_byte_bmp);
        const auto* it = std::upper_bound(first, std::end(gb18030_four_byte_bmp), pointer,
                                          [](std::uint32_t p, const gb18030_range& r) { return p < r.pointer; });
        const gb18030_range& r = *(it - 1);
        if (r.code_point == 0) return 0;
        return static_cast<char32_t>(r.code_point + (pointer - r.pointer));
    }
    constexpr std::uint32_t supplementary_end = gb18030_four_byte_supplementary_begin + 0x100000;
    if (pointer >= gb18030_four_byte_supplementary_begin && pointer < supplementary_end) {
        return static_cast<char32_t>(0x10000 + (pointer - gb18030_four_byte_supplementary_begin));
    }
    return 0;
}

/// One GB18030 code decoded at a position: the code point (U+FFFD on error), the bytes consumed
/// and whether the code was valid.
struct gb18030_step {
    char32_t code_point;
    std::uint32_t length;
    bool valid;
};

/// Decodes the GB18030 code starting at byte `i` of `in` (precondition: i < in.size()). Error
/// recovery follows the WHATWG gb18030 decoder: a bad third or fourth byte costs only the first
/// byte, an ASCII byte after a lead byte is read again, and the end of input swallows an
/// incomplete code. Never reads outside `in`. O(1) (a four-byte code below U+10000 costs a
/// binary search over about 200 ranges).
[[nodiscard]] constexpr gb18030_step gb18030_decode_one(std::string_view in, std::size_t i) noexcept {
    const std::size_t n = in.size();
    auto byte = [&](std::size_t k) noexcept -> std::uint32_t { return static_cast<unsigned char>(in[k]); };
    auto bad = [](std::size_t consumed) noexcept {
        return gb18030_step{utf8::replacement_character, static_cast<std::uint32_t>(consumed), false};
    };
    const std::uint32_t b1 = byte(i);
    if (b1 < 0x80) return {static_cast<char32_t>(b1), 1, true};
    if (b1 == 0x80) return {char32_t{0x20AC}, 1, true};
    if (b1 == 0xFF || i + 1 == n) return bad(1);
    const std::uint32_t b2 = byte(i + 1);
    if (b2 >= 0x30 && b2 <= 0x39) {
        if (i + 2 == n) return bad(2);
        const std::uint32_t b3 = byte(i + 2);
        if (b3 < 0x81 || b3 > 0xFE) return bad(1);
        if (i + 3 == n) return bad(3);
        const std::uint32_t b4 = byte(i + 3);
        if (b4 < 0x30 || b4 > 0x39) return bad(1);
        const std::uint32_t pointer = (b1 - 0x81) * 12600 + (b2 - 0x30) * 1260 + (b3 - 0x81) * 10 + (b4 - 0x30);
        const char32_t cp = gb18030_four_byte_code_point(pointer);
        if (cp == 0) return bad(4);
        return {cp, 4, true};
    }
    if ((b2 >= 0x40 && b2 <= 0x7E) || (b2 >= 0x80 && b2 <= 0xFE)) {
        const std::uint32_t pointer = (b1 - 0x81) * 190 + (b2 - (b2 < 0x7F ? 0x40u : 0x41u));
        const char32_t cp = gb18030_two_byte_code_point(pointer);
        if (cp != 0) return {cp, 2, true};
    }
    return bad(b2 < 0x80 ? 1 : 2);
}

/// Decodes GB18030 bytes, calling `emit(code_point)` for every code point (U+FFFD for errors).
/// Returns the number of errors. O(n).
template <class Emit>
constexpr std::size_t gb18030_decode(std::string_view in, Emit&& emit) noexcept {
    std::size_t i = 0, errors = 0;
    while (i < in.size()) {
        const gb18030_step st = gb18030_decode_one(in, i);
        emit(st.code_point);
        errors += st.valid ? 0 : 1;
        i += st.length;
    }
    return errors;
}

/// Number of bytes of `s` that are not part of well-formed UTF-8.
[[nodiscard]] inline std::size_t utf8_error_count(std::string_view s) noexcept {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    std::size_t i = 0, errors = 0;
    while (i < s.size()) {
        i += ascii_run(p, i, s.size());
        if (i == s.size()) break;
        const utf8::decoded d = utf8::decode(s, i);
        errors += d.valid ? 0 : 1;
        i += d.length;
    }
    return errors;
}

/// Charset of a `charset=` value inside a Content-Type or meta `content` value (the WHATWG
/// "extract a character encoding from a meta element" algorithm), `unknown` when absent.
[[nodiscard]] charset charset_from_parameter(std::string_view value) noexcept;

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
/// ASCII is UTF-8), otherwise GB18030 unless that would replace more bytes than UTF-8 does.
/// O(n).
[[nodiscard]] inline charset sniff_charset(std::string_view bytes) noexcept {
    const std::size_t utf8_errors = detail::utf8_error_count(bytes);
    if (utf8_errors == 0) return charset::utf8;
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

namespace detail {

/// How far `decode_append` got.
struct decode_progress {
    std::size_t errors;    ///< U+FFFD written for undecodable bytes
    std::size_t consumed;  ///< bytes decoded; the rest is a code cut by the end of the buffer
};

/// True when the GB18030 code at `i` may still be completed by bytes after the buffer.
[[nodiscard]] constexpr bool gb18030_incomplete(std::string_view s, std::size_t i) noexcept {
    const std::size_t n = s.size();
    const auto b1 = static_cast<unsigned char>(s[i]);
    if (b1 < 0x81 || b1 == 0xFF) return false;
    if (i + 1 == n) return true;
    const auto b2 = static_cast<unsigned char>(s[i + 1]);
    if (b2 < 0x30 || b2 > 0x39) return false;
    if (i + 2 == n) return true;
    const auto b3 = static_cast<unsigned char>(s[i + 2]);
    return b3 >= 0x81 && b3 <= 0xFE && i + 3 == n;
}

/// True when the UTF-8 sequence at `i` may still be completed by bytes after the buffer.
[[nodiscard]] constexpr bool utf8_incomplete(std::string_view s, std::size_t i) noexcept {
    const auto b = static_cast<unsigned char>(s[i]);
    const std::size_t need = b >= 0xF0 ? 4 : (b >= 0xE0 ? 3 : (b >= 0xC0 ? 2 : 1));
    return i + need > s.size();
}

/// Appends the UTF-8 decoding of `bytes` (no byte order mark handling) to `out`. With `final`
/// false, stops before a trailing code that more bytes could complete. O(n); one allocation.
inline decode_progress decode_append(std::string_view bytes, charset cs, std::string& out, bool final) {
    const std::size_t base = out.size();
    // Every charset here produces at most 3 UTF-8 bytes per input byte.
    out.resize(base + 3 * bytes.size());
    char* p = out.data() + base;
    std::size_t errors = 0, i = 0;
    const std::size_t n = bytes.size();
    const auto* s = reinterpret_cast<const unsigned char*>(bytes.data());
    auto emit = [&p](char32_t cp) noexcept {
        if (cp < 0x80) {
            *p++ = static_cast<char>(cp);
        } else {
            put_utf8(p, cp);
        }
    };
    auto copy_ascii = [&]() noexcept {
        const std::size_t run = ascii_run(s, i, n);
        std::memcpy(p, s + i, run);
        p += run;
        i += run;
    };
    switch (cs) {
        case charset::gb18030:
        case charset::gbk:
        case charset::gb2312: {
            bool cut = false;
            while (i < n && !cut) {
                copy_ascii();
                // Non-ASCII codes one by one until the next code that starts with an ASCII byte.
                while (i < n && s[i] >= 0x80) {
                    if (!final && gb18030_incomplete(bytes, i)) {
                        cut = true;
                        break;
                    }
                    const gb18030_step st = gb18030_decode_one(bytes, i);
                    emit(st.code_point);
                    errors += st.valid ? 0 : 1;
                    i += st.length;
                }
            }
            break;
        }
        case charset::utf16le:
        case charset::utf16be: {
            const bool be = cs == charset::utf16be;
            auto unit = [&](std::size_t k) noexcept -> std::uint32_t {
                return be ? ((std::uint32_t{s[k]} << 8) | s[k + 1]) : ((std::uint32_t{s[k + 1]} << 8) | s[k]);
            };
            while (i + 2 <= n) {
                const std::uint32_t u = unit(i);
                if (u < 0xD800 || u > 0xDFFF) {
                    emit(static_cast<char32_t>(u));
                    i += 2;
                    continue;
                }
                if (u <= 0xDBFF) {
                    if (i + 4 > n && !final) break;
                    if (i + 4 <= n) {
                        const std::uint32_t v = unit(i + 2);
                        if (v >= 0xDC00 && v <= 0xDFFF) {
                            emit(static_cast<char32_t>(0x10000 + ((u - 0xD800) << 10) + (v - 0xDC00)));
                            i += 4;
                            continue;
                        }
                    }
                }
                emit(utf8::replacement_character);
                ++errors;
                i += 2;
            }
            if (i < n && final) {
                emit(utf8::replacement_character);
                ++errors;
                i = n;
            }
            break;
        }
        case charset::utf8:
        case charset::unknown: {
            while (i < n) {
                copy_ascii();
                if (i == n) break;
                if (!final && utf8_incomplete(bytes, i)) break;
                const utf8::decoded d = utf8::decode(bytes, i);
                if (d.valid) {
                    std::memcpy(p, s + i, d.length);
                    p += d.length;
                } else {
                    put_utf8(p, utf8::replacement_character);
                    ++errors;
                }
                i += d.length;
            }
            break;
        }
    }
    out.resize(static_cast<std::size_t>(p - out.data()));
    return {errors, i};
}

}  // namespace detail

/// Appends the UTF-8 decoding of `bytes` in charset `cs` to `out` and returns the number of
/// U+FFFD written for undecodable bytes. A leading byte order mark of `cs` is skipped;
/// `charset::unknown` is decoded as UTF-8. Malformed UTF-8 becomes one U+FFFD per bad byte.
/// O(n); at most one allocation.
inline std::size_t append_utf8(std::string_view bytes, charset cs, std::string& out) {
    bytes.remove_prefix(bom_length(bytes, cs));
    return detail::decode_append(bytes, cs, out, true).errors;
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
            bytes.remove_prefix(bom_length(bytes, m_cs));
            m_bom_checked = true;
        }
        const detail::decode_progress r = detail::decode_append(bytes, m_cs, out, final);
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
