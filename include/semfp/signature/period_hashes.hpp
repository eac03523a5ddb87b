#pragma once
/// \file
/// The hashes of a text's period feature strings in one pass over the raw text: the fast path of
/// `PeriodDetector::add` (<semfp/signature/period.hpp>).
///
/// Why a second form of the string extraction: the plain form normalizes the whole text into a
/// buffer, decodes it again, and decodes each string's bytes a third time to copy them. Here
/// each code point of the input is decoded once and normalized on its own (width, case and
/// script folding are per code point), the last L normalized code points sit in a ring of at
/// most 4-byte units, and a string is assembled from the ring only at a terminator. The strings
/// are the same bytes as `for_each_normalized_period_string` over `normalize_into`'s output: a
/// copied malformed byte is followed, in both texts, by a unit that starts with a lead byte or
/// ASCII, so the normalized text decodes into the same units (tests compare both forms on the
/// corpus and on random bytes). Phrase folding (`fold_phrases`) replaces several code points at
/// once and is not done here: `period_fast_path` is false for it and the caller uses the plain
/// form.

#include <semfp/core/hash.hpp>
#include <semfp/detail/utf8_three.hpp>
#include <semfp/text/normalize.hpp>
#include <semfp/text/script_fold.hpp>
#include <semfp/text/utf8.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace semfp {
inline namespace v0 {
namespace detail {

/// One unit of normalized text, packed into one integer so that it travels in a register
/// (built in memory field by field it cost a store-forwarding stall per code point): bits 0-31
/// its bytes (1 to 4, byte k at bits 8k), bits 32-52 what the decoder of the normalized text
/// reads there (the code point, or U+FFFD for a malformed byte copied unchanged), bits 53-55
/// the byte count, bits 56-58 the input bytes it came from, bit 59 set when well-formed.
class period_unit {
public:
    period_unit() = default;
    constexpr period_unit(std::uint32_t bytes, char32_t cp, unsigned len, unsigned raw, bool valid) noexcept
        : m_v(bytes | (std::uint64_t{cp} << 32) | (std::uint64_t{len} << 53) | (std::uint64_t{raw} << 56) |
              (std::uint64_t{valid} << 59)) {}
    [[nodiscard]] constexpr std::uint32_t bytes() const noexcept { return static_cast<std::uint32_t>(m_v); }
    [[nodiscard]] constexpr char32_t cp() const noexcept { return static_cast<char32_t>((m_v >> 32) & 0x1FFFFFu); }
    [[nodiscard]] constexpr std::size_t len() const noexcept { return static_cast<std::size_t>((m_v >> 53) & 7u); }
    [[nodiscard]] constexpr std::size_t raw() const noexcept { return static_cast<std::size_t>((m_v >> 56) & 7u); }
    [[nodiscard]] constexpr bool valid() const noexcept { return ((m_v >> 59) & 1u) != 0; }

private:
    std::uint64_t m_v = 0;
};

[[nodiscard]] constexpr period_unit period_ascii_unit(unsigned c, unsigned raw, bool fold_case) noexcept {
    if (fold_case && c >= 'A' && c <= 'Z') c += 'a' - 'A';
    return {c, c, 1, raw, true};
}

/// The general case of `period_normalize_unit`.
[[nodiscard]] inline period_unit period_normalize_unit_slow(std::string_view in, std::size_t i,
                                                            const normalize_options& opt) noexcept {
    const auto* p = reinterpret_cast<const unsigned char*>(in.data()) + i;
    const unsigned b = p[0];
    if (b < 0x80) return period_ascii_unit(b, 1, opt.fold_case);
    char32_t cp;
    unsigned raw;
    bool valid = true;
    // Common case first: a three-byte sequence with lead E1..EC or EE..EF is well-formed when
    // two continuation bytes follow.
    if (b >= 0xE1 && b != 0xED && b <= 0xEF && i + 2 < in.size() && (p[1] & 0xC0u) == 0x80 && (p[2] & 0xC0u) == 0x80) {
        cp = static_cast<char32_t>(detail::utf8_three_byte_value(b, p[1], p[2]));
        raw = 3;
    } else {
        const utf8::decoded d = utf8::decode(in, i);
        cp = d.code_point;
        raw = d.length;
        valid = d.valid;
    }
    const bool may_width = opt.fold_width && (b == 0xE3 || b == 0xEF);
    const bool may_script = opt.fold_script && ((b >= 0xE3 && b <= 0xE9) || b == 0xF0);
    if (valid && (may_width || may_script)) {
        char32_t f = cp;
        if (may_width) {
            if (f == 0x3000)
                f = U' ';
            else if (f >= 0xFF01 && f <= 0xFF5E)
                f -= 0xFEE0;
        }
        if (f < 0x80) return period_ascii_unit(f, raw, opt.fold_case);
        if (may_script) f = fold_to_simplified(f);
        if (f != cp) {
            char enc[4];
            const std::size_t len = utf8_encode(f, enc);
            std::uint32_t bytes = 0;
            for (std::size_t k = 0; k < len; ++k) bytes |= std::uint32_t{static_cast<unsigned char>(enc[k])} << (8 * k);
            return {bytes, f, static_cast<unsigned>(len), raw, true};
        }
    }
    std::uint32_t bytes = 0;
    for (unsigned k = 0; k < raw; ++k) bytes |= std::uint32_t{p[k]} << (8 * k);
    return {bytes, cp, raw, raw, valid};  // cp is U+FFFD for a malformed byte
}

/// Normalizes the unit that starts at `in[i]` (i < in.size()) as `normalize_core` does without
/// phrase folding. Never reads outside `in`. Small enough to inline: ASCII and the Han
/// characters (leads E4..E9) that script folding leaves alone are done here.
[[nodiscard]] inline period_unit period_normalize_unit(std::string_view in, std::size_t i,
                                                       const normalize_options& opt) noexcept {
    const auto* p = reinterpret_cast<const unsigned char*>(in.data()) + i;
    const unsigned b = p[0];
    if (b < 0x80) return period_ascii_unit(b, 1, opt.fold_case);
    if (b >= 0xE4 && b <= 0xE9 && i + 2 < in.size() && (p[1] & 0xC0u) == 0x80 && (p[2] & 0xC0u) == 0x80) {
        const auto cp = static_cast<char32_t>(detail::utf8_three_byte_value(b, p[1], p[2]));
        // U+4000..U+9FFF: unchanged unless script folding maps it (fold_to_simplified's bitmap).
        if (!opt.fold_script || ((t2s_bmp_bitmap[cp >> 6] >> (cp & 63)) & 1u) == 0) {
            return {b | (std::uint32_t{p[1]} << 8) | (std::uint32_t{p[2]} << 16), cp, 3, 3, true};
        }
    }
    return period_normalize_unit_slow(in, i, opt);
}

/// Whether `add` can take the one-pass form for these normalization options.
[[nodiscard]] constexpr bool period_fast_path(const normalize_options& opt) noexcept {
    return !(opt.fold_script && opt.fold_phrases);
}

/// Terminator test: the ASCII members in a bitmap, the others in a short list. Self-contained
/// (copies are independent).
class period_terminator_set {
public:
    explicit period_terminator_set(std::u32string_view set) {
        for (const char32_t c : set) {
            if (c < 128)
                m_ascii[c >> 6] |= std::uint64_t{1} << (c & 63);
            else
                m_other.push_back(c);
        }
    }
    [[nodiscard]] bool contains(char32_t c) const noexcept {
        if (c < 128) return ((m_ascii[c >> 6] >> (c & 63)) & 1u) != 0;
        return m_other.find(c) != std::u32string::npos;
    }

private:
    std::uint64_t m_ascii[2] = {0, 0};
    std::u32string m_other;
};

/// Calls `f(std::uint64_t hash)` with `Murmur3::hash64` of each period feature string of
/// `text` (not yet normalized; `opt` as in `period_options::normalization`, phrase folding
/// off), in text order, duplicates kept: the hashes of the strings that
/// `for_each_normalized_period_string` gives for `normalize_into(text)`. `length` is L (1..64),
/// `space` tells white space and `ascii_stop` whether an ASCII terminator ends a string (the
/// detector's rules). Linear time, no allocation.
template <class Space, class F>
void for_each_period_hash(std::string_view text, const normalize_options& opt, std::size_t length,
                          const period_terminator_set& terminators, Space&& space, F&& f) {
    period_unit ring[64];
    const std::size_t want = length < 64 ? length : 64;
    std::size_t count = 0;  // non-space units in the gap, capped at `want`
    std::size_t head = 0;   // next ring slot
    char32_t previous = 0;
    char buf[64 * 4];
    const std::size_t n = text.size();
    std::size_t i = 0;
    while (i < n) {
        const period_unit u = period_normalize_unit(text, i, opt);
        const char32_t before = previous;
        previous = u.cp();
        if (u.valid() && terminators.contains(u.cp())) {
            bool stop = u.cp() >= 0x80 || i + u.raw() >= n || before >= 0x2E80;
            if (!stop) {
                // The byte after an ASCII terminator in the normalized text: the first byte of
                // the next unit.
                const auto c = static_cast<char>(period_normalize_unit(text, i + u.raw(), opt).bytes() & 0xFFu);
                stop = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
            }
            if (stop) {
                if (count > 0) {
                    std::size_t len = 0;
                    const std::size_t first = count < want ? 0 : head;
                    for (std::size_t k = 0; k < count; ++k) {
                        const period_unit& r = ring[(first + k) % want];
                        for (std::size_t m = 0; m < r.len(); ++m)
                            buf[len++] = static_cast<char>((r.bytes() >> (8 * m)) & 0xFFu);
                    }
                    f(Murmur3::hash64(std::string_view(buf, len)));
                }
                i += u.raw();
                count = 0;
                head = 0;
                continue;
            }
        }
        if (!(u.valid() && space(u.cp()))) {
            ring[head] = u;
            head = head + 1 == want ? 0 : head + 1;
            count = count + 1 < want ? count + 1 : want;
        }
        i += u.raw();
    }
}

}  // namespace detail
}  // namespace v0
}  // namespace semfp
