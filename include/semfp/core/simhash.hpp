#pragma once
/// \file
/// `Simhash<Bits, Hash>`: Charikar's similarity hash over weighted features.
///
/// Every feature's `Bits`-bit hash votes +w on the bits that are set and -w on the others; bit i
/// of the fingerprint is 1 when the sum of votes is positive. The votes are kept as sums of
/// weights of set bits, S_i, next to the total weight W (sum of votes = 2 S_i - W), in unsigned
/// integers, so results are exact and identical on every platform. Accumulation is branch-free:
/// each hash byte selects a row of an 8-lane mask table that is ANDed with the weight and added,
/// a loop compilers vectorize.

#include <semfp/concepts.hpp>
#include <semfp/core/fingerprint.hpp>
#include <semfp/core/hash.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>

namespace semfp {
inline namespace v0 {
namespace detail {

/// mask_table[b][k] is all ones when bit k of byte b is set.
inline constexpr auto simhash_mask_table = [] {
    std::array<std::array<std::uint32_t, 8>, 256> t{};
    for (std::size_t b = 0; b < 256; ++b)
        for (std::size_t k = 0; k < 8; ++k) t[b][k] = ((b >> k) & 1u) ? 0xFFFFFFFFu : 0u;
    return t;
}();

/// spread_table[b] has byte k equal to bit k of b (0 or 1).
inline constexpr auto simhash_spread_table = [] {
    std::array<std::uint64_t, 256> t{};
    for (std::size_t b = 0; b < 256; ++b)
        for (std::size_t k = 0; k < 8; ++k)
            if ((b >> k) & 1u) t[b] |= std::uint64_t{1} << (8 * k);
    return t;
}();

/// For each byte value b: four 16-bit lanes per half, lane k % 4 of half k / 4 set to 1 where bit
/// k of b is set (the 16-bit counters of weights up to 65,535).
inline constexpr auto simhash_spread16_table = [] {
    std::array<std::array<std::uint64_t, 2>, 256> t{};
    for (std::size_t b = 0; b < 256; ++b)
        for (std::size_t k = 0; k < 8; ++k)
            if ((b >> k) & 1u) t[b][k / 4] |= std::uint64_t{1} << (16 * (k % 4));
    return t;
}();

/// The `Bits`-bit hash of a feature as fingerprint words (most significant first).
template <std::size_t Bits, HashPolicy Hash>
[[nodiscard]] constexpr typename Fingerprint<Bits>::storage_type feature_bits(std::string_view feature) noexcept {
    if constexpr (Bits == 64) {
        return {Hash::hash64(feature)};
    } else {
        const hash128_t h = Hash::hash128(feature);
        return {h.hi, h.lo};
    }
}

}  // namespace detail

/// The default hash policy of semfp's fingerprints: MurmurHash3 x64_128 with a finalizing mix.
/// Chosen by measurement (README "Hash policy"): raw SDBM, the paper's hash, leaves fingerprint
/// bits nearly constant and has false positives even at distance 0 on the evaluation pairs; with
/// the `Mixed` finalizer every hash is balanced, and at equal (zero) false-positive rate the
/// default pipeline allows distance 5 (64 bits) / 15 (128 bits) with Mixed<Murmur3> against
/// 3 / 12 with Mixed<Sdbm>.
using default_hash = Mixed<Murmur3>;

/// Simhash accumulator over weighted features.
///
/// Usage: `Simhash<64> s; s.add("word", 3); auto fp = s.finish();`. Adding the same feature twice
/// with weight w equals adding it once with 2w, so term-frequency weighting needs no term table.
/// Weights are unsigned 32-bit; a weight of 0 adds nothing. Sums are exact up to 2^64 total weight.
/// An accumulator with no weight gives the all-zero fingerprint.
template <std::size_t Bits = 64, HashPolicy Hash = default_hash>
class Simhash {
    static_assert(Bits == 64 || Bits == 128, "semfp::Simhash supports 64 and 128 bits");

public:
    using fingerprint_type = Fingerprint<Bits>;
    using hash_policy = Hash;
    static constexpr std::size_t bits = Bits;

    /// Adds `feature` (hashed with `Hash`) with weight `weight`. O(Bits), branch-free.
    constexpr void add(std::string_view feature, std::uint32_t weight = 1) noexcept {
        add_hashed(detail::feature_bits<Bits, Hash>(feature), weight);
    }

    /// Adds a feature whose `Bits`-bit hash is already known (words most significant first).
    constexpr void add_hashed(const typename fingerprint_type::storage_type& h, std::uint32_t weight) noexcept {
        if (m_block_weight > std::numeric_limits<std::uint32_t>::max() - std::uint64_t{weight}) flush();
        m_block_weight += weight;
        if (weight <= 255) {
            if (m_byte_load + weight > 255) flush_bytes();
            m_byte_load += weight;
            for (std::size_t w = 0; w < fingerprint_type::words; ++w) {
                const std::uint64_t word = h[w];
                std::uint64_t* counters = m_bytes.data() + (fingerprint_type::words - 1 - w) * 8;
                for (std::size_t byte = 0; byte < 8; ++byte)
                    counters[byte] += detail::simhash_spread_table[(word >> (8 * byte)) & 0xFFu] * weight;
            }
            return;
        }
        if (weight <= 0xFFFFu) {
            // Weighted features (sub-linear TF, TF-IDF): four 16-bit counters per word.
            if (m_short_load + weight > 0xFFFFu) flush_shorts();
            m_short_load += weight;
            for (std::size_t w = 0; w < fingerprint_type::words; ++w) {
                const std::uint64_t word = h[w];
                std::uint64_t* counters = m_shorts.data() + (fingerprint_type::words - 1 - w) * 16;
                for (std::size_t byte = 0; byte < 8; ++byte) {
                    const auto& spread = detail::simhash_spread16_table[(word >> (8 * byte)) & 0xFFu];
                    counters[2 * byte] += spread[0] * weight;
                    counters[2 * byte + 1] += spread[1] * weight;
                }
            }
            return;
        }
        for (std::size_t w = 0; w < fingerprint_type::words; ++w) {
            // Lane index counts bits from the least significant end of the whole fingerprint.
            const std::size_t base = (fingerprint_type::words - 1 - w) * 64;
            const std::uint64_t word = h[w];
            for (std::size_t byte = 0; byte < 8; ++byte) {
                const auto& mask = detail::simhash_mask_table[(word >> (8 * byte)) & 0xFFu];
                std::uint32_t* lane = m_block.data() + base + 8 * byte;
                for (std::size_t k = 0; k < 8; ++k) lane[k] += weight & mask[k];
            }
        }
    }

    /// The fingerprint of everything added so far: bit i is 1 iff the weights voting for it
    /// outweigh those voting against it (ties give 0). O(Bits).
    [[nodiscard]] constexpr fingerprint_type finish() const noexcept {
        typename fingerprint_type::storage_type out{};
        const std::uint64_t total = m_total + m_block_weight;
        for (std::size_t i = 0; i < Bits; ++i) {
            const std::uint64_t set = m_sums[i] + m_block[i] + byte_lane(i) + short_lane(i);
            // 2 * set > total, without overflow.
            const bool one = set > total - set;
            out[fingerprint_type::words - 1 - i / 64] |= std::uint64_t{one} << (i % 64);
        }
        return fingerprint_type(out);
    }

    /// Total weight added so far.
    [[nodiscard]] constexpr std::uint64_t total_weight() const noexcept { return m_total + m_block_weight; }

    /// Removes everything added.
    constexpr void reset() noexcept { *this = Simhash{}; }

private:
    [[nodiscard]] constexpr std::uint32_t byte_lane(std::size_t i) const noexcept {
        return static_cast<std::uint32_t>((m_bytes[i / 8] >> (8 * (i % 8))) & 0xFFu);
    }

    // Moves the 8-bit counters into the 32-bit sums; at most once per 255 units of small weights.
    constexpr void flush_bytes() noexcept {
        for (std::size_t i = 0; i < Bits; ++i) m_block[i] += byte_lane(i);
        m_bytes = {};
        m_byte_load = 0;
    }

    [[nodiscard]] constexpr std::uint32_t short_lane(std::size_t i) const noexcept {
        return static_cast<std::uint32_t>((m_shorts[i / 4] >> (16 * (i % 4))) & 0xFFFFu);
    }

    // Moves the 16-bit counters into the 32-bit sums; at most once per 65,535 units of weight.
    constexpr void flush_shorts() noexcept {
        for (std::size_t i = 0; i < Bits; ++i) m_block[i] += short_lane(i);
        m_shorts = {};
        m_short_load = 0;
    }

    // Moves the 32-bit block sums into the 64-bit totals; happens once per 2^32 units of weight.
    constexpr void flush() noexcept {
        flush_bytes();
        flush_shorts();
        for (std::size_t i = 0; i < Bits; ++i) {
            m_sums[i] += m_block[i];
            m_block[i] = 0;
        }
        m_total += m_block_weight;
        m_block_weight = 0;
    }

    // Lane i (bit i counted from the least significant end) is byte i % 8 of m_bytes[i / 8].
    alignas(64) std::array<std::uint64_t, Bits / 8> m_bytes{};
    std::uint32_t m_byte_load = 0;  // the largest value any 8-bit counter can hold
    // Lane i is 16-bit lane i % 4 of m_shorts[i / 4].
    alignas(64) std::array<std::uint64_t, Bits / 4> m_shorts{};
    std::uint32_t m_short_load = 0;  // the largest value any 16-bit counter can hold
    alignas(64) std::array<std::uint32_t, Bits> m_block{};
    std::array<std::uint64_t, Bits> m_sums{};
    std::uint64_t m_block_weight = 0;
    std::uint64_t m_total = 0;
};

}  // namespace v0
}  // namespace semfp
