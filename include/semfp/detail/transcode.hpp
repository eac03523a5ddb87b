#pragma once
// The bulk decoder behind <semfp/text/encoding.hpp>: bytes in UTF-8, UTF-16 or GB18030 to
// well-formed UTF-8, appended to a string with one allocation (every input byte yields at most
// three output bytes, so the output is sized once and trimmed). ASCII runs are copied eight bytes
// at a time; only the other bytes go through a code-at-a-time decoder. With `final` false it stops
// before a trailing code that more bytes could complete, which is all `stream_decoder` needs.

#include <semfp/detail/ascii.hpp>
#include <semfp/detail/gb18030.hpp>
#include <semfp/detail/utf8_codec.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace semfp {
inline namespace v0 {
namespace detail {

/// The byte encodings `decode_append` reads (the public `charset` maps onto these).
enum class byte_encoding : std::uint8_t { utf8, utf16le, utf16be, gb18030 };

/// Writes the UTF-8 form of `cp` at `p` and advances `p`.
inline void put_utf8(char*& p, char32_t cp) noexcept {
    char buf[4];
    const std::size_t n = utf8_encode(cp, buf);
    std::memcpy(p, buf, n);
    p += n;
}

/// Number of bytes of `s` that are not part of well-formed UTF-8.
[[nodiscard]] inline std::size_t utf8_error_count(std::string_view s) noexcept {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    std::size_t i = 0, errors = 0;
    while (i < s.size()) {
        i += ascii_run(p, i, s.size());
        if (i == s.size()) break;
        const utf8_decoded d = utf8_decode(s, i);
        errors += d.valid ? 0 : 1;
        i += d.length;
    }
    return errors;
}

/// True when the UTF-8 sequence at `i` may still be completed by bytes after the buffer.
[[nodiscard]] constexpr bool utf8_incomplete(std::string_view s, std::size_t i) noexcept {
    return i + utf8_sequence_length(static_cast<unsigned char>(s[i])) > s.size();
}

/// How far `decode_append` got.
struct decode_progress {
    std::size_t errors;    ///< U+FFFD written for undecodable bytes
    std::size_t consumed;  ///< bytes decoded; the rest is a code cut by the end of the buffer
};

/// Appends the UTF-8 decoding of `bytes` (no byte order mark handling) to `out`. With `final`
/// false, stops before a trailing code that more bytes could complete. O(n); one allocation.
inline decode_progress decode_append(std::string_view bytes, byte_encoding cs, std::string& out, bool final) {
    const std::size_t base = out.size();
    // Every encoding here produces at most 3 UTF-8 bytes per input byte.
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
        case byte_encoding::gb18030: {
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
        case byte_encoding::utf16le:
        case byte_encoding::utf16be: {
            const bool be = cs == byte_encoding::utf16be;
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
                emit(utf8_replacement);
                ++errors;
                i += 2;
            }
            if (i < n && final) {
                emit(utf8_replacement);
                ++errors;
                i = n;
            }
            break;
        }
        case byte_encoding::utf8: {
            while (i < n) {
                copy_ascii();
                if (i == n) break;
                if (!final && utf8_incomplete(bytes, i)) break;
                const utf8_decoded d = utf8_decode(bytes, i);
                if (d.valid) {
                    std::memcpy(p, s + i, d.length);
                    p += d.length;
                } else {
                    put_utf8(p, utf8_replacement);
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
}  // namespace v0
}  // namespace semfp
