#pragma once
/// \file
/// `AnyFingerprint`: a fingerprint whose width (64 or 128 bits) is chosen at run time.
///
/// Why: programs that take the width from a flag or a file (a command-line tool, a Python
/// binding, a store of mixed fingerprints) would otherwise write every code path twice or carry
/// their own two-word struct. `AnyFingerprint` is that struct, with the width kept beside the
/// words so that a 64-bit and a 128-bit value never compare as equal and hex text round-trips
/// with its width (16 or 32 digits). Hot loops should still convert once to `Fingerprint<Bits>`
/// (`as<Bits>()`) and run the static-width code.

#include <semfp/core/fingerprint.hpp>
#include <semfp/error.hpp>

#include <array>
#include <bit>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace semfp {
inline namespace v0 {

/// A 64- or 128-bit fingerprint, width chosen at run time. A regular value type; ordered by
/// (width, value).
class AnyFingerprint {
public:
    /// The all-zero 64-bit fingerprint.
    constexpr AnyFingerprint() noexcept = default;
    /// From a static-width fingerprint.
    constexpr AnyFingerprint(const Fingerprint64& fp) noexcept : m_bits(64), m_words{fp.word(0), 0} {}
    constexpr AnyFingerprint(const Fingerprint128& fp) noexcept : m_bits(128), m_words{fp.word(0), fp.word(1)} {}

    /// Width in bits: 64 or 128.
    [[nodiscard]] constexpr unsigned bits() const noexcept { return m_bits; }
    /// Word `i` (0: most significant; a 64-bit value has only word 0).
    [[nodiscard]] constexpr std::uint64_t word(std::size_t i) const noexcept { return m_words[i]; }

    /// The fingerprint as `Fingerprint<Bits>`, or nothing if the width differs.
    template <std::size_t Bits>
    [[nodiscard]] constexpr std::optional<Fingerprint<Bits>> as() const noexcept {
        if (m_bits != Bits) return std::nullopt;
        if constexpr (Bits == 64) return Fingerprint64(m_words[0]);
        else return Fingerprint128(typename Fingerprint128::storage_type{m_words[0], m_words[1]});
    }

    /// Lower-case hexadecimal, `bits() / 4` digits.
    [[nodiscard]] std::string to_hex() const {
        if (m_bits == 64) return Fingerprint64(m_words[0]).to_hex();
        return Fingerprint128(typename Fingerprint128::storage_type{m_words[0], m_words[1]}).to_hex();
    }

    /// Parses 16 (64-bit) or 32 (128-bit) hexadecimal digits, as `Fingerprint::from_hex` (an
    /// optional `0x` prefix, either case). Throws `parse_error` (column = 1-based offending
    /// position) for any other length or a non-hex character.
    [[nodiscard]] static AnyFingerprint from_hex(std::string_view text) {
        const std::size_t digits =
            text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X') ? text.size() - 2 : text.size();
        if (digits == Fingerprint128::hex_digits) return Fingerprint128::from_hex(text);
        if (digits != Fingerprint64::hex_digits)
            detail::throw_parse_error("semfp::AnyFingerprint: expected 16 or 32 hexadecimal digits, got " +
                                          std::to_string(digits),
                                      0, 0);
        return Fingerprint64::from_hex(text);
    }

    friend constexpr bool operator==(const AnyFingerprint&, const AnyFingerprint&) noexcept = default;
    friend constexpr auto operator<=>(const AnyFingerprint&, const AnyFingerprint&) noexcept = default;

private:
    unsigned m_bits = 64;
    std::array<std::uint64_t, 2> m_words{};  // word 1 is zero at 64 bits
};

/// Hamming distance of two fingerprints of the same width. Throws `invalid_argument_error` if
/// the widths differ.
[[nodiscard]] inline unsigned hamming_distance(const AnyFingerprint& a, const AnyFingerprint& b) {
    if (a.bits() != b.bits())
        detail::throw_invalid_argument("semfp::hamming_distance: fingerprints of " + std::to_string(a.bits()) +
                                       " and " + std::to_string(b.bits()) + " bits");
    return static_cast<unsigned>(std::popcount(a.word(0) ^ b.word(0)) + std::popcount(a.word(1) ^ b.word(1)));
}

}  // namespace v0
}  // namespace semfp
