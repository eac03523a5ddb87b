#pragma once
// The two-stage rule chosen on one half of labelled pairs: every part of
// semfp::two_stage_rule that the data decides (the accept distance, the radius and
// min_similarity), from what the two stages see of each pair. Used by
// bench/two_stage_quality.cpp; tested in tests/unit/bench/two_stage_calibration_test.cpp.
//
// The steps (short_features and short_similarity come from the short-text set, not from here):
//   1. accept_distance: the largest distance d such that no long negative pair (both texts at
//      least short_features tokens) of the half lies within d, capped at the largest radius an
//      exact search allows. Pairs within it are accepted on the distance alone, so only long
//      negatives bound it: a short pair always needs the sketch.
//   2. for each radius R of a grid: min_similarity = the largest sketch estimate of a long
//      negative within R, plus `margin` (the estimate's standard-deviation bound), rounded up
//      to 0.001.
//   3. the radius whose rule finds the most positives of the half through the banded stage
//      (within accept_distance, or sharing a band) with no false positive; ties go to the
//      smaller radius.
#include <semfp/core/signature.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

namespace semfp::bench {

/// One labelled pair as both stages see it.
struct calibration_pair {
    unsigned d;         ///< Hamming distance of the fingerprints
    double j;           ///< semfp::estimated_jaccard of the sketches
    bool is_short;      ///< either text has fewer than the rule's short_features tokens
    bool both_empty;    ///< both sketches empty (such pairs verify whatever the distance)
    bool band;          ///< the sketches share a band of the candidate stage's layout
    bool positive;      ///< labelled near-duplicate
    int half;           ///< 0 tuning, 1 confirmation, -1 neither
};

/// What `rule.accepts` decides for `p` (the same function of distance, estimate and shortness).
[[nodiscard]] inline bool rule_accepts(const two_stage_rule& rule, const calibration_pair& p) noexcept {
    const bool verifies = p.both_empty || p.j >= (p.is_short ? rule.short_similarity : rule.min_similarity);
    if (p.is_short) return verifies;
    if (p.d > rule.radius) return false;
    return p.d <= rule.accept_distance || verifies;
}

/// True if the banded candidate stage (semfp::TwoStageClusterer) finds `p` and the rule accepts it.
[[nodiscard]] inline bool banded_finds(const two_stage_rule& rule, const calibration_pair& p) noexcept {
    return (p.d <= rule.accept_distance || p.band) && rule_accepts(rule, p);
}

/// Step 1: the largest distance (at most `max_k`) with no long negative of `half` within it.
/// Returns `max_k` when no long negative is that close.
[[nodiscard]] inline unsigned choose_accept_distance(std::span<const calibration_pair> pairs, int half,
                                                     unsigned max_k) noexcept {
    unsigned nearest = max_k + 1;
    for (const auto& p : pairs)
        if (p.half == half && !p.positive && !p.is_short) nearest = std::min(nearest, p.d);
    return nearest == 0 ? 0 : std::min(max_k, nearest - 1);
}

/// Step 2: the threshold for radius `r`: the largest estimate of a long negative of `half`
/// within `r`, plus `margin`, rounded up to 0.001 (`margin` alone when there is none).
[[nodiscard]] inline double threshold_for_radius(std::span<const calibration_pair> pairs, int half, unsigned r,
                                                 double margin) noexcept {
    double worst = 0;
    for (const auto& p : pairs)
        if (p.half == half && !p.positive && !p.is_short && p.d <= r) worst = std::max(worst, p.j);
    // The 1e-9 keeps a sum that is already a multiple of 0.001 from rounding one step up.
    return std::ceil((worst + margin) * 1000 - 1e-9) / 1000;
}

/// A rule chosen by `choose_rule`, with what it finds on the half it was chosen on.
struct calibrated_rule {
    two_stage_rule rule;
    std::size_t positives = 0;        ///< positives of the half the banded stage finds
    std::size_t false_positives = 0;  ///< negatives of the half it finds (0 unless no radius qualified)
};

/// Steps 1-3 on `half`: `base` gives short_features and short_similarity; `radii` is the grid.
/// If no radius has zero false positives (a short negative above short_similarity), the radius
/// with the fewest is returned and `false_positives` says so.
[[nodiscard]] inline calibrated_rule choose_rule(std::span<const calibration_pair> pairs, int half,
                                                 const two_stage_rule& base, std::span<const unsigned> radii,
                                                 unsigned max_accept, double margin) {
    calibrated_rule best;
    bool have = false;
    const unsigned accept = choose_accept_distance(pairs, half, max_accept);
    for (const unsigned r : radii) {
        calibrated_rule c;
        c.rule = base;
        c.rule.accept_distance = accept;
        c.rule.radius = std::max(r, accept);
        c.rule.min_similarity = threshold_for_radius(pairs, half, c.rule.radius, margin);
        for (const auto& p : pairs) {
            if (p.half != half || !banded_finds(c.rule, p)) continue;
            ++(p.positive ? c.positives : c.false_positives);
        }
        const bool better = !have || c.false_positives < best.false_positives ||
                            (c.false_positives == best.false_positives && c.positives > best.positives);
        if (better) {
            best = c;
            have = true;
        }
    }
    return best;
}

}  // namespace semfp::bench
