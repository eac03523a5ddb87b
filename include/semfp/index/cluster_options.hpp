#pragma once
/// \file
/// Options and results of `SinglePassClusterer` (index/single_pass_clusterer.hpp): the match
/// policy, the threshold, one assignment, one listed centre.

#include <semfp/core/fingerprint.hpp>

#include <cstddef>
#include <cstdint>

namespace semfp {
inline namespace v0 {

/// What a new fingerprint is compared with.
enum class match_policy : std::uint32_t {
    /// The paper's rule: only cluster centres (the first member of each cluster).
    centres = 0,
    /// Any earlier member (single-linkage flavour: clusters can chain beyond the threshold).
    members = 1,
};

/// Options of a `SinglePassClusterer`.
struct cluster_options {
    /// `threshold` value that stands for `recommended_distance<Bits>` of the clusterer's width.
    static constexpr unsigned recommended = ~0u;

    /// Largest Hamming distance at which a fingerprint joins a cluster: by default
    /// `recommended_distance<Bits>` (5 of 64 bits, 15 of 128), the paper's HD is 3 (`paper()`).
    /// At most `SinglePassClusterer<Bits>::max_threshold` (16 of 64 bits, 32 of 128).
    unsigned threshold = recommended;
    /// Compare with centres (the paper) or with every member.
    match_policy match = match_policy::centres;

    /// The paper's setting: threshold 3, centres only.
    [[nodiscard]] static constexpr cluster_options paper() noexcept { return {3, match_policy::centres}; }
};

/// Result of `SinglePassClusterer::add`.
struct cluster_assignment {
    /// Id of the centre of the cluster the fingerprint joined (its own id if `is_new`).
    std::uint64_t cluster;
    /// True if the fingerprint became a new centre.
    bool is_new;
    /// Distance to the matched centre (or member); 0 if `is_new`.
    unsigned distance;

    friend constexpr bool operator==(const cluster_assignment&, const cluster_assignment&) noexcept = default;
};

/// A cluster centre as listed by `SinglePassClusterer::centres()`.
template <std::size_t Bits>
struct cluster_centre {
    /// Id of the centre (also the cluster's id).
    std::uint64_t id;
    /// The centre's fingerprint.
    Fingerprint<Bits> fingerprint;
    /// Number of members, the centre included.
    std::size_t size;
};

}  // namespace v0
}  // namespace semfp
