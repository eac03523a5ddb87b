#pragma once
/// \file
/// `Fingerprint<Bits>`: a fixed-width bit string (64 or 128 bits) with Hamming distance, numeric
/// ordering, hashing and hexadecimal text form.

#include <semfp/error.hpp>

#include <array>
#include <bit>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace semfp {
inline namespace v0 {

/// A `Bits`-bit fingerprint stored as 64-bit words, most significant word first.
///
/// A regular value type: trivially copyable, totally ordered by numeric value (the order of the
/// paper's DistSet), hashable. Bits must be 64 or 128.
template <std::size_t Bits>
class Fingerprint {
    static_assert(Bits == 64 || Bits == 128, "semfp::Fingerprint supports 64 and 128 bits");

public:
    /// Number of bits.
    static constexpr std::size_t bits = Bits;
    /// Number of 64-bit words.
    static constexpr std::size_t words = Bits / 64;
    /// Number of hexadecimal digits of `to_hex()`.
    static constexpr std::size_t hex_digits = Bits / 4;

    using storage_type = std::array<std::uint64_t, words>;

    /// The all-zero fingerprint (also the fingerprint of a text without tokens).
    constexpr Fingerprint() noexcept = default;

    /// From words, most significant first.
    constexpr explicit Fingerprint(const storage_type& w) noexcept : m_words(w) {}

    /// From a single 64-bit value (64-bit fingerprints only).
    constexpr explicit Fingerprint(std::uint64_t value) noexcept
        requires(Bits == 64)
        : m_words{value} {}

    /// The value of a 64-bit fingerprint.
    [[nodiscard]] constexpr std::uint64_t value() const noexcept
        requires(Bits == 64)
    {
        return m_words[0];
    }

    /// Word `i` (0 = most significant). Precondition: i < words.
    [[nodiscard]] constexpr std::uint64_t word(std::size_t i) const noexcept { return m_words[i]; }

    /// All words, most significant first.
    [[nodiscard]] constexpr const storage_type& data() const noexcept { return m_words; }

    /// Bit `i`, counting from the least significant bit (0) to the most significant (Bits - 1).
    [[nodiscard]] constexpr bool bit(std::size_t i) const noexcept {
        return ((m_words[words - 1 - i / 64] >> (i % 64)) & 1u) != 0;
    }

    /// Number of set bits.
    [[nodiscard]] constexpr unsigned popcount() const noexcept {
        unsigned n = 0;
        for (auto w : m_words) n += static_cast<unsigned>(std::popcount(w));
        return n;
    }

    /// Bitwise exclusive or.
    [[nodiscard]] friend constexpr Fingerprint operator^(const Fingerprint& a, const Fingerprint& b) noexcept {
        Fingerprint r;
        for (std::size_t i = 0; i < words; ++i) r.m_words[i] = a.m_words[i] ^ b.m_words[i];
        return r;
    }

    friend constexpr bool operator==(const Fingerprint&, const Fingerprint&) noexcept = default;
    /// Numeric order (most significant word first).
    friend constexpr std::strong_ordering operator<=>(const Fingerprint&, const Fingerprint&) noexcept = default;

    /// Lower-case hexadecimal, exactly `hex_digits` characters, most significant digit first.
    [[nodiscard]] std::string to_hex() const {
        constexpr char digits[] = "0123456789abcdef";
        std::string out(hex_digits, '0');
        std::size_t pos = 0;
        for (auto w : m_words)
            for (int shift = 60; shift >= 0; shift -= 4) out[pos++] = digits[(w >> shift) & 0xF];
        return out;
    }

    /// Parses the form written by `to_hex()`; upper-case digits and an optional `0x` prefix are
    /// accepted. Throws `semfp::parse_error` (column = 1-based offending position) on a wrong
    /// length or a non-hexadecimal character.
    [[nodiscard]] static Fingerprint from_hex(std::string_view text) {
        std::size_t offset = 0;
        if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
            text.remove_prefix(2);
            offset = 2;
        }
        if (text.size() != hex_digits)
            detail::throw_parse_error("fingerprint hex must have " + std::to_string(hex_digits) +
                                          " digits, got " + std::to_string(text.size()),
                                      0, 0);
        Fingerprint r;
        for (std::size_t i = 0; i < hex_digits; ++i) {
            const char c = text[i];
            std::uint64_t v;
            if (c >= '0' && c <= '9') v = static_cast<std::uint64_t>(c - '0');
            else if (c >= 'a' && c <= 'f') v = static_cast<std::uint64_t>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') v = static_cast<std::uint64_t>(c - 'A' + 10);
            else detail::throw_parse_error("invalid hexadecimal digit in fingerprint", 0, offset + i + 1);
            r.m_words[i / 16] = (r.m_words[i / 16] << 4) | v;
        }
        return r;
    }

private:
    storage_type m_words{};
};

/// Number of differing bits between `a` and `b`. O(Bits/64) popcounts.
template <std::size_t Bits>
[[nodiscard]] constexpr unsigned hamming_distance(const Fingerprint<Bits>& a, const Fingerprint<Bits>& b) noexcept {
    unsigned n = 0;
    for (std::size_t i = 0; i < Fingerprint<Bits>::words; ++i)
        n += static_cast<unsigned>(std::popcount(a.word(i) ^ b.word(i)));
    return n;
}

/// Number of differing bits between two 64-bit values.
[[nodiscard]] constexpr unsigned hamming_distance(std::uint64_t a, std::uint64_t b) noexcept {
    return static_cast<unsigned>(std::popcount(a ^ b));
}

using Fingerprint64 = Fingerprint<64>;
using Fingerprint128 = Fingerprint<128>;

/// The recommended Hamming radius for near-duplicates of the default pipeline
/// (`semfp::fingerprint`): the largest distance with no false positive on the 179,646 distinct
/// pairs of the evaluation set (5 of 64 bits, 15 of 128 bits; README "Defaults" has the recall
/// at these radii). The default radius of `HammingIndex` and `SinglePassClusterer`.
template <std::size_t Bits>
inline constexpr unsigned recommended_distance = Bits == 64 ? 5u : 15u;

}  // namespace v0
}  // namespace semfp

template <std::size_t Bits>
struct std::hash<semfp::Fingerprint<Bits>> {
    [[nodiscard]] std::size_t operator()(const semfp::Fingerprint<Bits>& fp) const noexcept {
        // Fingerprints are already well mixed; fold the words and mix once more so that
        // hash tables keyed on structured (e.g. sequential) fingerprints still spread.
        std::uint64_t h = 0x9e3779b97f4a7c15ull;
        for (auto w : fp.data()) {
            h ^= w + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        }
        h ^= h >> 33;
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 33;
        return static_cast<std::size_t>(h);
    }
};
