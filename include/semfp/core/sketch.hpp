#pragma once
/// \file
/// `MinHashSketch`: a 132-byte estimate of the Jaccard similarity of two feature sets, the
/// second stage of two-stage near-duplicate detection.
///
/// Why this design. Simhash puts documents that share vocabulary close together, so beyond the
/// recommended distance it cannot tell a heavily edited copy from a same-site article; a set
/// similarity of the same features can. Exact Jaccard needs the feature sets (hundreds of bytes
/// to kilobytes per document); a k-permutation MinHash needs k hashes per feature (128 x the cost
/// of the fingerprint). One-permutation hashing (Li, Owen and Zhang 2012) hashes each feature
/// once: the top 7 bits pick one of 128 bins, the bin keeps its smallest hash; empty bins are
/// filled by optimal densification (Shrivastava 2017: bin i borrows the value of the first
/// non-empty bin of a fixed pseudo-random sequence seeded by i, the same in every document), so
/// the 128 bins behave like 128 MinHash values. Only the low 8 bits of each minimum are kept
/// (b-bit MinHash, Li and Koenig 2010): two bins agree with probability J + (1 - J) / 256, and
/// the estimate corrects for it. The cost per feature is one 64-bit hash and one compare, which
/// is what keeps fingerprint + sketch within the budget of the fingerprint alone.
///
/// Accuracy: each bin agrees with probability p = J + (1 - J) / 256; the estimate
/// (matches / 128 - 1/256) / (1 - 1/256) has standard deviation about sqrt(p (1 - p) / 128) /
/// (1 - 1/256), at most 0.045 (J = 0.5), 0.035 at J = 0.2 or 0.8; by Hoeffding's bound for
/// independent bins it is more than 0.15 off with probability below 0.6 %. Densified bins of
/// very small sets are correlated, so sets of fewer than about 30 features vary more (the
/// two-stage rule treats short texts separately, see signature.hpp). Measured against exact
/// Jaccard on the evaluation pairs in bench/results/two_stage.md.
///
/// Features are hashed with FNV-1a and a 64-bit finalizer under a seed of their own, so the
/// sketch is independent of the fingerprint's feature hash. Identical on every platform.

#include <semfp/core/hash.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace semfp {
inline namespace v0 {

/// A b-bit one-permutation MinHash of a set of features: 128 bins of 8 bits and the number
/// of features added (occurrences, not distinct), 132 bytes. A regular value type.
class MinHashSketch {
public:
    /// Number of bins.
    static constexpr std::size_t bins = 128;
    /// Bits kept per bin.
    static constexpr unsigned bin_bits = 8;
    using bins_type = std::array<std::uint8_t, bins>;

    /// The sketch of the empty set.
    constexpr MinHashSketch() noexcept = default;
    /// A sketch from its parts (as written by `save`); `features == 0` means the empty set.
    constexpr MinHashSketch(const bins_type& values, std::uint32_t features) noexcept
        : m_bins(values), m_features(features) {}

    /// The 128 bin values.
    [[nodiscard]] constexpr const bins_type& values() const noexcept { return m_bins; }
    /// Number of features added (occurrences, saturating at 2^32 - 1); 0 for an empty text.
    [[nodiscard]] constexpr std::uint32_t features() const noexcept { return m_features; }
    [[nodiscard]] constexpr bool empty() const noexcept { return m_features == 0; }

    friend constexpr bool operator==(const MinHashSketch&, const MinHashSketch&) noexcept = default;

private:
    bins_type m_bins{};
    std::uint32_t m_features = 0;
};

/// Builds a `MinHashSketch` from features added one at a time. Allocation-free, noexcept.
class MinHashSketcher {
public:
    /// The hash of a feature as the sketch uses it.
    [[nodiscard]] static constexpr std::uint64_t feature_hash(std::string_view feature) noexcept {
        return detail::fmix64(Fnv1a::hash64(feature) ^ 0x5EED5EED5EED5EEDull);
    }

    /// Adds one occurrence of `feature` (repeats do not change the set, only `features()`).
    constexpr void add(std::string_view feature) noexcept { add_hash(feature_hash(feature)); }

    /// Adds a feature by its hash (`feature_hash`, or any well-mixed 64-bit hash used alike for
    /// every document compared).
    constexpr void add_hash(std::uint64_t h) noexcept {
        const auto bin = static_cast<std::size_t>(h >> 57);
        const std::uint64_t v = h & ((std::uint64_t{1} << 57) - 1);
        if (v < m_min[bin]) m_min[bin] = v;
        if (m_count != ~std::uint32_t{0}) ++m_count;
    }

    /// The sketch of what was added; the sketcher is reset for the next document.
    [[nodiscard]] constexpr MinHashSketch finish() noexcept {
        MinHashSketch::bins_type out{};
        const std::uint32_t n = m_count;
        if (n != 0) {
            for (std::size_t i = 0; i < MinHashSketch::bins; ++i) out[i] = low_bits(densified(i));
        }
        m_min.fill(empty_bin);
        m_count = 0;
        return MinHashSketch(out, n);
    }

private:
    static constexpr std::uint64_t empty_bin = ~std::uint64_t{0};

    [[nodiscard]] static constexpr std::uint8_t low_bits(std::uint64_t v) noexcept {
        // Mix before truncating: the minimum's low bits alone are biased towards zero.
        return static_cast<std::uint8_t>(detail::fmix64(v) >> 56);
    }

    /// Bin i's minimum, or the one it borrows (optimal densification: the probe sequence is
    /// a function of (i, attempt) only, so two documents borrow alike). Some bin is non-empty.
    [[nodiscard]] constexpr std::uint64_t densified(std::size_t i) const noexcept {
        if (m_min[i] != empty_bin) return m_min[i];
        for (std::uint64_t attempt = 1; attempt <= 4096; ++attempt) {
            const auto j = static_cast<std::size_t>(detail::fmix64((static_cast<std::uint64_t>(i) << 32) | attempt) >> 57);
            if (m_min[j] != empty_bin) return m_min[j] + attempt;  // + attempt: borrowed, not equal
        }
        // Unreachable in practice (each attempt fails with probability < 127/128); a cyclic
        // scan keeps the result defined.
        for (std::size_t s = 1; s < MinHashSketch::bins; ++s) {
            const std::size_t j = (i + s) % MinHashSketch::bins;
            if (m_min[j] != empty_bin) return m_min[j] + s;
        }
        return 0;
    }

    std::array<std::uint64_t, MinHashSketch::bins> m_min = filled();
    std::uint32_t m_count = 0;

    [[nodiscard]] static constexpr std::array<std::uint64_t, MinHashSketch::bins> filled() noexcept {
        std::array<std::uint64_t, MinHashSketch::bins> a{};
        a.fill(empty_bin);
        return a;
    }
};

/// Number of bins on which `a` and `b` agree (0..128).
[[nodiscard]] constexpr unsigned matching_bins(const MinHashSketch& a, const MinHashSketch& b) noexcept {
    unsigned n = 0;
    for (std::size_t i = 0; i < MinHashSketch::bins; ++i) n += a.values()[i] == b.values()[i] ? 1u : 0u;
    return n;
}

/// The estimated Jaccard similarity of the feature sets of `a` and `b`, in [0, 1] (see the file
/// comment for the error). Two empty sets have similarity 1, an empty and a non-empty one 0.
[[nodiscard]] constexpr double estimated_jaccard(const MinHashSketch& a, const MinHashSketch& b) noexcept {
    if (a.empty() || b.empty()) return a.empty() && b.empty() ? 1.0 : 0.0;
    constexpr double chance = 1.0 / 256;
    const double p = static_cast<double>(matching_bins(a, b)) / static_cast<double>(MinHashSketch::bins);
    const double j = (p - chance) / (1 - chance);
    return j < 0 ? 0.0 : j;
}

}  // namespace v0
}  // namespace semfp
