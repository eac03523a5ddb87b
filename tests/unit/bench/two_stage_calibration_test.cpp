// The calibration of the two-stage rule (bench/support/two_stage_calibration.hpp), which
// bench/two_stage_quality.cpp runs on the evaluation pairs.
#include "../../../bench/support/two_stage_calibration.hpp"

#include "support/catch.hpp"

#include <cstdint>
#include <random>
#include <vector>

namespace {

using semfp::bench::calibration_pair;

calibration_pair negative(unsigned d, double j, int half, bool is_short = false) {
    return {d, j, is_short, false, true, false, half};
}

calibration_pair positive(unsigned d, double j, int half, bool band = true) {
    return {d, j, false, false, band, true, half};
}

semfp::MinHashSketch random_sketch(std::mt19937_64& rng, std::uint32_t features) {
    semfp::MinHashSketch::bins_type b{};
    for (auto& x : b) x = static_cast<std::uint8_t>(rng());
    return semfp::MinHashSketch(b, features);
}

}  // namespace

TEST_CASE("two-stage calibration: the accept distance stops below the nearest long negative of the half",
          "[bench][two_stage]") {
    std::vector<calibration_pair> pairs = {
        negative(10, 0.1, 0), negative(8, 0.1, 0),
        negative(1, 0.9, 0, true),  // short: never accepted on the distance, so it does not count
        negative(2, 0.1, 1),        // the other half is not looked at
        positive(0, 1.0, 0)};
    REQUIRE(semfp::bench::choose_accept_distance(pairs, 0, 16) == 7);
    REQUIRE(semfp::bench::choose_accept_distance(pairs, 0, 5) == 5);  // capped
    REQUIRE(semfp::bench::choose_accept_distance(pairs, 1, 16) == 1);
    pairs.push_back(negative(0, 0.1, 0));
    REQUIRE(semfp::bench::choose_accept_distance(pairs, 0, 16) == 0);
    REQUIRE(semfp::bench::choose_accept_distance({}, 0, 12) == 12);  // no negative at all
}

TEST_CASE("two-stage calibration: the threshold is the largest long negative within the radius plus the margin",
          "[bench][two_stage]") {
    const std::vector<calibration_pair> pairs = {
        negative(20, 151.0 / 255, 0),  // 0.5922 + 0.045 = 0.6372 -> 0.638
        negative(40, 0.70, 0), negative(12, 0.95, 0, true), negative(10, 0.99, 1), positive(30, 0.99, 0)};
    REQUIRE_THAT(semfp::bench::threshold_for_radius(pairs, 0, 32, 0.045), Catch::Matchers::WithinAbs(0.638, 1e-12));
    REQUIRE_THAT(semfp::bench::threshold_for_radius(pairs, 0, 40, 0.045), Catch::Matchers::WithinAbs(0.745, 1e-12));
    REQUIRE_THAT(semfp::bench::threshold_for_radius(pairs, 0, 19, 0.045), Catch::Matchers::WithinAbs(0.045, 1e-12));
    // A sum already on the 0.001 grid stays there.
    const std::vector<calibration_pair> exact = {negative(5, 0.6, 0)};
    REQUIRE_THAT(semfp::bench::threshold_for_radius(exact, 0, 32, 0.05), Catch::Matchers::WithinAbs(0.65, 1e-12));
}

TEST_CASE("two-stage calibration: rule_accepts decides as two_stage_rule::accepts", "[bench][two_stage]") {
    std::mt19937_64 rng(5);
    auto rule = semfp::two_stage_rule::recommended<64>();
    rule.accept_distance = 7;
    std::size_t accepted = 0;
    std::size_t by_sketch = 0;
    for (int i = 0; i < 4000; ++i) {
        const std::uint32_t fa = i % 7 == 0 ? 10u : (i % 11 == 0 ? 0u : 200u);
        const std::uint32_t fb = i % 13 == 0 ? 12u : (i % 11 == 0 ? 0u : 200u);
        const auto a = random_sketch(rng, fa);
        // b: a with some bins changed, so that estimates spread over [0, 1].
        auto bins = a.values();
        const auto changes = rng() % 129;
        for (std::uint64_t c = 0; c < changes; ++c) bins[rng() % bins.size()] = static_cast<std::uint8_t>(rng());
        const semfp::MinHashSketch b = fb == 0 ? semfp::MinHashSketch{} : semfp::MinHashSketch(bins, fb);
        const semfp::MinHashSketch a2 = fa == 0 ? semfp::MinHashSketch{} : a;
        const auto d = static_cast<unsigned>(rng() % 40);
        const calibration_pair p{d,
                                 semfp::estimated_jaccard(a2, b),
                                 a2.features() < rule.short_features || b.features() < rule.short_features,
                                 a2.empty() && b.empty(),
                                 false,
                                 true,
                                 0};
        const bool want = rule.accepts(d, a2, b);
        REQUIRE(semfp::bench::rule_accepts(rule, p) == want);
        accepted += want ? 1 : 0;
        by_sketch += want && d > rule.accept_distance ? 1 : 0;
    }
    REQUIRE(accepted > 100);  // both parts of the rule were exercised
    REQUIRE(by_sketch > 50);
}

TEST_CASE("two-stage calibration: the rule is chosen on its half only, most positives, ties to the smaller radius",
          "[bench][two_stage]") {
    std::vector<calibration_pair> pairs;
    // Tuning half: long negatives at distance 9 (so accept distance 8), 20 (estimate 0.55) and
    // 30 (0.70), all sharing a band; positives at 3, 15 (0.9), 25 (0.8), 29 (0.72), 31 (no band).
    pairs.push_back(negative(9, 0.10, 0));
    pairs.push_back(negative(20, 0.55, 0));
    pairs.push_back(negative(30, 0.70, 0));
    pairs.push_back(positive(3, 0.2, 0, false));  // within the accept distance: found without the sketch
    pairs.push_back(positive(15, 0.90, 0));
    pairs.push_back(positive(25, 0.80, 0));
    pairs.push_back(positive(29, 0.72, 0));
    pairs.push_back(positive(31, 0.99, 0, false));  // shares no band: never a candidate
    const std::vector<unsigned> radii = {12, 16, 20, 24, 28, 32, 36};
    const auto base = semfp::two_stage_rule::recommended<64>();
    const auto c = semfp::bench::choose_rule(pairs, 0, base, radii, 16, 0.045);
    REQUIRE(c.rule.accept_distance == 8);
    // Radii 12-24 find 1-2 positives; 28 finds 3 with threshold 0.595 (0.55 + 0.045); 32 and
    // 36 find 3 too with 0.745 (the one at 29 falls under it): 28 is the smallest with the most.
    REQUIRE(c.rule.radius == 28);
    REQUIRE_THAT(c.rule.min_similarity, Catch::Matchers::WithinAbs(0.595, 1e-12));
    REQUIRE(c.positives == 3);
    REQUIRE(c.false_positives == 0);
    REQUIRE(c.rule.short_features == base.short_features);
    REQUIRE(c.rule.short_similarity == base.short_similarity);
    // Pairs of the other half change nothing.
    auto more = pairs;
    more.push_back(negative(1, 0.99, 1));
    more.push_back(positive(35, 0.99, 1));
    const auto c2 = semfp::bench::choose_rule(more, 0, base, radii, 16, 0.045);
    REQUIRE(c2.rule.accept_distance == c.rule.accept_distance);
    REQUIRE(c2.rule.radius == c.rule.radius);
    REQUIRE(c2.rule.min_similarity == c.rule.min_similarity);
}
