#pragma once
/// \file
/// The MinHash baseline: `MinHash<NumPerm>` signatures of shingle sets with
/// `estimate_jaccard`, and `MinHashLsh<NumPerm, Id>`, a banding index (b bands x r rows) that
/// finds candidate pairs above a Jaccard threshold without comparing all pairs.
///
/// Signatures use one-permutation hashing (Li, Owen, Zhang 2012) with optimal densification
/// (Shrivastava 2017): each shingle hash is re-mixed once, its high bits pick one of NumPerm
/// bins and each bin keeps its minimum; every empty bin then copies the value of a non-empty
/// bin chosen by a fixed pseudo-random probe sequence of its own index. The fraction of equal
/// bins is an unbiased estimate of the Jaccard similarity, with about the variance of NumPerm
/// independent min-hashes, and a signature costs O(|set| + NumPerm) instead of
/// O(|set| x NumPerm).

#include <semfp/baseline/shingle.hpp>
#include <semfp/core/hash.hpp>
#include <semfp/error.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace semfp {
inline namespace v0 {
namespace detail {

/// floor(x * n / 2^64): maps a uniform 64-bit value to [0, n) without modulo bias worth noting.
[[nodiscard]] constexpr std::size_t reduce_to(std::uint64_t x, std::size_t n) noexcept {
    return static_cast<std::size_t>(mul_64x64(x, static_cast<std::uint64_t>(n)).hi);
}

}  // namespace detail

/// A MinHash signature of `NumPerm` 64-bit values (one-permutation hashing with optimal
/// densification; see the file comment).
///
/// A regular value type. The default-constructed signature is that of the empty set (every value
/// `empty_value`); two empty sets estimate as identical (1), like `jaccard`.
template <std::size_t NumPerm = 128>
class MinHash {
    static_assert(NumPerm >= 1 && NumPerm <= 65536, "MinHash: NumPerm must be in [1, 65536]");

public:
    /// Number of values (bins).
    static constexpr std::size_t num_perm = NumPerm;
    /// The value of every bin of the empty set's signature.
    static constexpr std::uint64_t empty_value = std::numeric_limits<std::uint64_t>::max();
    /// The values.
    using storage_type = std::array<std::uint64_t, NumPerm>;

    /// The signature of the empty set.
    constexpr MinHash() noexcept { m_values.fill(empty_value); }

    /// The signature of `set`. O(|set| + NumPerm) once the set fills most bins; see below for
    /// small sets.
    explicit MinHash(const ShingleSet& set) noexcept : MinHash(set.hashes()) {}

    /// The signature of the set of 64-bit `hashes` (duplicates allowed, any order; they should be
    /// well mixed, like `ShingleSet`'s). O(n + NumPerm) when the hashes fill most bins; each of
    /// the E bins left empty probes NumPerm / F bins on average (F filled), so a set much smaller
    /// than NumPerm costs about NumPerm^2 / n: MinHash<128> of one hash takes about 16,000
    /// probes, some 250 times the time of 128 hashes.
    explicit MinHash(std::span<const std::uint64_t> hashes) noexcept {
        m_values.fill(empty_value);
        if (hashes.empty()) return;
        std::array<bool, NumPerm> filled{};
        std::size_t n_filled = 0;
        for (const std::uint64_t h : hashes) {
            // Re-mix so that sets hashed with a weak policy still spread over the bins.
            const std::uint64_t x = detail::fmix64(h ^ 0x2545f4914f6cdd1dull);
            const std::size_t bin = detail::reduce_to(x, NumPerm);
            if (!filled[bin]) {
                filled[bin] = true;
                ++n_filled;
                m_values[bin] = x;
            } else if (x < m_values[bin]) {
                m_values[bin] = x;
            }
        }
        if (n_filled == NumPerm) return;
        // Optimal densification: empty bin i probes bins h(i, 1), h(i, 2), ... until one was
        // filled by a hash; both signatures of a pair probe identically.
        for (std::size_t i = 0; i < NumPerm; ++i) {
            if (filled[i]) continue;
            for (std::uint64_t attempt = 1;; ++attempt) {
                const std::uint64_t probe =
                    detail::fmix64((static_cast<std::uint64_t>(i) << 32) ^ attempt ^ 0x9e3779b97f4a7c15ull);
                const std::size_t j = detail::reduce_to(probe, NumPerm);
                if (filled[j]) {
                    m_values[i] = m_values[j];
                    break;
                }
            }
        }
    }

    /// A signature from stored values (for deserialization).
    constexpr explicit MinHash(const storage_type& values) noexcept : m_values(values) {}

    /// The values.
    [[nodiscard]] constexpr const storage_type& values() const noexcept { return m_values; }
    /// Value `i` (precondition: i < NumPerm).
    [[nodiscard]] constexpr std::uint64_t operator[](std::size_t i) const noexcept { return m_values[i]; }

    friend constexpr bool operator==(const MinHash&, const MinHash&) noexcept = default;

private:
    storage_type m_values;
};

/// Number of equal values of two signatures.
template <std::size_t NumPerm>
[[nodiscard]] constexpr std::size_t matching_values(const MinHash<NumPerm>& a, const MinHash<NumPerm>& b) noexcept {
    std::size_t n = 0;
    for (std::size_t i = 0; i < NumPerm; ++i) n += a[i] == b[i] ? 1u : 0u;
    return n;
}

/// Estimated Jaccard similarity of the sets behind two signatures: the fraction of equal values.
/// Standard error about sqrt(J (1 - J) / NumPerm). O(NumPerm).
template <std::size_t NumPerm>
[[nodiscard]] constexpr double estimate_jaccard(const MinHash<NumPerm>& a, const MinHash<NumPerm>& b) noexcept {
    return static_cast<double>(matching_values(a, b)) / static_cast<double>(NumPerm);
}

/// The shape of an LSH banding index: `bands` bands of `rows` signature values each.
struct lsh_params {
    std::size_t bands = 0;  ///< b: number of bands
    std::size_t rows = 0;   ///< r: values per band
    friend constexpr bool operator==(const lsh_params&, const lsh_params&) noexcept = default;
};

/// Probability that two sets of Jaccard similarity `s` share at least one band: the S-curve
/// 1 - (1 - s^r)^b.
[[nodiscard]] inline double lsh_probability(const lsh_params& p, double s) noexcept {
    return 1.0 - std::pow(1.0 - std::pow(s, static_cast<double>(p.rows)), static_cast<double>(p.bands));
}

namespace detail {

/// Integral of f over [lo, hi] by composite Simpson's rule with 2 * half_steps intervals.
template <class F>
[[nodiscard]] double simpson(F f, double lo, double hi, int half_steps = 64) {
    if (!(hi > lo)) return 0.0;
    const int n = 2 * half_steps;
    const double step = (hi - lo) / n;
    double sum = f(lo) + f(hi);
    for (int i = 1; i < n; ++i) sum += f(lo + i * step) * (i % 2 == 1 ? 4.0 : 2.0);
    return sum * step / 3.0;
}

}  // namespace detail

/// The (b, r) with b x r <= `num_perm` that minimises the weighted error area of the S-curve
/// for a Jaccard `threshold`: fp_weight x (area under the curve below the threshold, i.e.
/// candidates that are not similar enough) + fn_weight x (area above the curve above the
/// threshold, i.e. similar pairs missed). Raising `fn_weight` trades more candidates for fewer
/// missed pairs. Throws `semfp::invalid_argument_error` unless 0 < threshold < 1, num_perm >= 1
/// and both weights are >= 0 with a positive sum. O(num_perm log num_perm) curve integrations.
[[nodiscard]] inline lsh_params optimal_lsh_params(double threshold, std::size_t num_perm, double fp_weight = 0.5,
                                                   double fn_weight = 0.5) {
    if (!(threshold > 0.0 && threshold < 1.0))
        detail::throw_invalid_argument("optimal_lsh_params: threshold must be in (0, 1)");
    if (num_perm == 0) detail::throw_invalid_argument("optimal_lsh_params: num_perm must be at least 1");
    if (!(fp_weight >= 0.0 && fn_weight >= 0.0 && fp_weight + fn_weight > 0.0))
        detail::throw_invalid_argument("optimal_lsh_params: weights must be >= 0 with a positive sum");
    lsh_params best{1, num_perm};
    double best_error = std::numeric_limits<double>::infinity();
    for (std::size_t b = 1; b <= num_perm; ++b) {
        for (std::size_t r = 1; b * r <= num_perm; ++r) {
            const lsh_params p{b, r};
            const double fp = detail::simpson([&](double s) { return lsh_probability(p, s); }, 0.0, threshold);
            const double fn = detail::simpson([&](double s) { return 1.0 - lsh_probability(p, s); }, threshold, 1.0);
            const double error = fp_weight * fp + fn_weight * fn;
            if (error < best_error) {
                best_error = error;
                best = p;
            }
        }
    }
    return best;
}

/// A banding LSH index over `MinHash<NumPerm>` signatures: every signature is cut into b bands
/// of r values; two signatures are candidates when some band is identical, which happens with
/// probability `lsh_probability` of their Jaccard similarity.
///
/// Stores the signatures (for `query`) and, per band, a hash table from the band's hash to the
/// items holding it. Items are numbered in insertion order (their slot); ids are unique, as in
/// `HammingIndex` (`Id` needs `std::hash` and `==`).
/// Memory: O(n x (NumPerm x 8 + b x ~24)) bytes.
template <std::size_t NumPerm = 128, class Id = std::uint64_t>
class MinHashLsh {
public:
    using signature_type = MinHash<NumPerm>;
    using id_type = Id;

    /// An index with the given shape. Throws `semfp::invalid_argument_error` unless b, r >= 1
    /// and b x r <= NumPerm.
    explicit MinHashLsh(lsh_params params) : m_params(params), m_buckets(params.bands) {
        if (params.bands == 0 || params.rows == 0 || params.bands * params.rows > NumPerm)
            detail::throw_invalid_argument("MinHashLsh: need bands >= 1, rows >= 1 and bands * rows <= NumPerm");
    }

    /// An index shaped for a Jaccard `threshold` by `optimal_lsh_params` with equal weights.
    explicit MinHashLsh(double threshold) : MinHashLsh(optimal_lsh_params(threshold, NumPerm)) {}

    /// Adds `signature` under `id`. Amortized O(b x r). Throws `invalid_argument_error` if `id`
    /// is already stored (nothing is added then).
    void insert(const signature_type& signature, const Id& id) {
        if (m_id_set.contains(id)) detail::throw_invalid_argument("MinHashLsh: duplicate id");
        m_id_set.insert(id);
        const auto slot = static_cast<std::uint32_t>(m_ids.size());
        for (std::size_t band = 0; band < m_params.bands; ++band)
            m_buckets[band][band_key(signature, band)].push_back(slot);
        m_ids.push_back(id);
        m_signatures.push_back(signature);
    }

    /// Calls `f(slot)` for every stored item sharing a band with `signature`; an item may be
    /// reported once per shared band. O(b x r + reported items).
    template <class F>
    void for_each_candidate_slot(const signature_type& signature, F&& f) const {
        for (std::size_t band = 0; band < m_params.bands; ++band) {
            const auto& table = m_buckets[band];
            const auto it = table.find(band_key(signature, band));
            if (it == table.end()) continue;
            for (const std::uint32_t slot : it->second) f(static_cast<std::size_t>(slot));
        }
    }

    /// The ids of the stored items sharing at least one band with `signature`, each once, in
    /// insertion order.
    [[nodiscard]] std::vector<Id> candidates(const signature_type& signature) const {
        std::vector<Id> out;
        for (const std::size_t slot : candidate_slots(signature)) out.push_back(m_ids[slot]);
        return out;
    }

    /// The candidates whose stored signature estimates a Jaccard similarity >= `min_jaccard`
    /// with `signature`, each once, in insertion order.
    [[nodiscard]] std::vector<Id> query(const signature_type& signature, double min_jaccard) const {
        std::vector<Id> out;
        for (const std::size_t slot : candidate_slots(signature))
            if (estimate_jaccard(signature, m_signatures[slot]) >= min_jaccard) out.push_back(m_ids[slot]);
        return out;
    }

    /// Every pair of stored items sharing at least one band, once, as (earlier id, later id) in
    /// insertion order of the later and then the earlier item. O(sum over buckets of size^2).
    [[nodiscard]] std::vector<std::pair<Id, Id>> candidate_pairs() const {
        std::vector<std::uint64_t> keys;
        for (const auto& table : m_buckets)
            for (const auto& entry : table) {
                const auto& slots = entry.second;
                for (std::size_t j = 1; j < slots.size(); ++j)
                    for (std::size_t i = 0; i < j; ++i)
                        keys.push_back((std::uint64_t{slots[j]} << 32) | std::uint64_t{slots[i]});
            }
        std::sort(keys.begin(), keys.end());
        keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
        std::vector<std::pair<Id, Id>> out;
        out.reserve(keys.size());
        for (const std::uint64_t k : keys)
            out.emplace_back(m_ids[static_cast<std::size_t>(k & 0xFFFFFFFFu)], m_ids[static_cast<std::size_t>(k >> 32)]);
        return out;
    }

    /// The slots (insertion indices) of the candidates of `signature`, each once, ascending.
    [[nodiscard]] std::vector<std::size_t> candidate_slots(const signature_type& signature) const {
        std::vector<std::size_t> slots;
        for_each_candidate_slot(signature, [&](std::size_t s) { slots.push_back(s); });
        std::sort(slots.begin(), slots.end());
        slots.erase(std::unique(slots.begin(), slots.end()), slots.end());
        return slots;
    }

    /// The id of the item in `slot` (precondition: slot < size()).
    [[nodiscard]] const Id& id(std::size_t slot) const noexcept { return m_ids[slot]; }
    /// The signature of the item in `slot` (precondition: slot < size()).
    [[nodiscard]] const signature_type& signature(std::size_t slot) const noexcept { return m_signatures[slot]; }
    /// Number of stored items.
    [[nodiscard]] std::size_t size() const noexcept { return m_ids.size(); }
    /// True when no item is stored.
    [[nodiscard]] bool empty() const noexcept { return m_ids.empty(); }
    /// The shape (b, r).
    [[nodiscard]] const lsh_params& params() const noexcept { return m_params; }

private:
    [[nodiscard]] std::uint64_t band_key(const signature_type& signature, std::size_t band) const noexcept {
        const std::size_t first = band * m_params.rows;
        return detail::shingle_hash(std::span<const std::uint64_t>(signature.values()).subspan(first, m_params.rows));
    }

    lsh_params m_params;
    std::vector<std::unordered_map<std::uint64_t, std::vector<std::uint32_t>>> m_buckets;
    std::vector<Id> m_ids;
    std::unordered_set<Id> m_id_set;
    std::vector<signature_type> m_signatures;
};

}  // namespace v0
}  // namespace semfp
