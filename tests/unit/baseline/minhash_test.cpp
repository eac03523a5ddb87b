#include "support/catch.hpp"

#include <semfp/baseline/minhash.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

using Catch::Matchers::WithinAbs;
using semfp::ShingleSet;

namespace {

std::uint64_t element(std::uint64_t i) { return semfp::detail::fmix64(i + 0x1234567ull); }

// Two sets with |A n B| = shared and |A u B| = shared + only_a + only_b, from element range `base`.
std::pair<ShingleSet, ShingleSet> sets_with(std::uint64_t base, std::size_t shared, std::size_t only_a,
                                            std::size_t only_b) {
    std::vector<std::uint64_t> a, b;
    std::uint64_t next = base;
    for (std::size_t i = 0; i < shared; ++i) {
        a.push_back(element(next));
        b.push_back(element(next++));
    }
    for (std::size_t i = 0; i < only_a; ++i) a.push_back(element(next++));
    for (std::size_t i = 0; i < only_b; ++i) b.push_back(element(next++));
    return {ShingleSet(std::move(a)), ShingleSet(std::move(b))};
}

}  // namespace

TEST_CASE("MinHash of identical, empty and disjoint sets", "[baseline][minhash]") {
    const auto [a, b] = sets_with(0, 0, 500, 500);
    const semfp::MinHash<128> sa(a), sb(b), empty;
    CHECK(semfp::MinHash<128>(a) == sa);
    CHECK_THAT(semfp::estimate_jaccard(sa, sa), WithinAbs(1.0, 1e-12));
    CHECK_THAT(semfp::estimate_jaccard(sa, sb), WithinAbs(0.0, 0.03));
    CHECK_THAT(semfp::estimate_jaccard(empty, semfp::MinHash<128>(ShingleSet{})), WithinAbs(1.0, 1e-12));
    CHECK_THAT(semfp::estimate_jaccard(empty, sa), WithinAbs(0.0, 1e-12));
    // A set smaller than the signature is densified: every value comes from the set.
    const ShingleSet tiny(std::vector<std::uint64_t>{element(1), element(2), element(3)});
    const semfp::MinHash<128> st(tiny);
    for (std::size_t i = 0; i < 128; ++i) CHECK(st[i] != semfp::MinHash<128>::empty_value);
    CHECK_THAT(semfp::estimate_jaccard(st, st), WithinAbs(1.0, 1e-12));
}

TEST_CASE("MinHash estimates known Jaccard similarities", "[baseline][minhash]") {
    // J = shared / (shared + 2 x only), each side 1000 elements.
    const auto shared = GENERATE(std::size_t{100}, std::size_t{333}, std::size_t{600}, std::size_t{818},
                                 std::size_t{905}, std::size_t{975});
    const std::size_t only = 1000 - shared;
    const double truth = static_cast<double>(shared) / static_cast<double>(shared + 2 * only);
    double sum128 = 0, sum256 = 0;
    constexpr int trials = 8;
    for (int t = 0; t < trials; ++t) {
        const auto [a, b] = sets_with(static_cast<std::uint64_t>(t) * 1000000u, shared, only, only);
        REQUIRE_THAT(semfp::jaccard(a, b), WithinAbs(truth, 1e-12));
        const double e128 = semfp::estimate_jaccard(semfp::MinHash<128>(a), semfp::MinHash<128>(b));
        const double e256 = semfp::estimate_jaccard(semfp::MinHash<256>(a), semfp::MinHash<256>(b));
        // Single estimates: within ~4 standard errors (sqrt(J(1-J)/K) <= 0.044 for K = 128).
        CHECK_THAT(e128, WithinAbs(truth, 0.18));
        CHECK_THAT(e256, WithinAbs(truth, 0.13));
        sum128 += e128;
        sum256 += e256;
    }
    // Means over the trials: the estimator is unbiased.
    CHECK_THAT(sum128 / trials, WithinAbs(truth, 0.06));
    CHECK_THAT(sum256 / trials, WithinAbs(truth, 0.045));
}

TEST_CASE("MinHash estimates small sets through densification", "[baseline][minhash]") {
    // 40 elements per side in 128 bins: most bins are filled by densification.
    const auto [a, b] = sets_with(77, 30, 10, 10);  // J = 0.6
    double sum = 0;
    for (std::uint64_t t = 0; t < 8; ++t) {
        const auto [x, y] = sets_with(77 + t * 1000, 30, 10, 10);
        sum += semfp::estimate_jaccard(semfp::MinHash<128>(x), semfp::MinHash<128>(y));
    }
    CHECK_THAT(sum / 8, WithinAbs(0.6, 0.1));
    CHECK_THAT(semfp::jaccard(a, b), WithinAbs(0.6, 1e-12));
}

TEST_CASE("LSH S-curve and parameter choice", "[baseline][lsh]") {
    CHECK_THAT(semfp::lsh_probability({1, 1}, 0.3), WithinAbs(0.3, 1e-12));
    CHECK_THAT(semfp::lsh_probability({2, 1}, 0.5), WithinAbs(0.75, 1e-12));
    CHECK_THAT(semfp::lsh_probability({1, 2}, 0.5), WithinAbs(0.25, 1e-12));
    CHECK_THAT(semfp::lsh_probability({20, 5}, 1.0), WithinAbs(1.0, 1e-12));
    CHECK_THAT(semfp::lsh_probability({20, 5}, 0.0), WithinAbs(0.0, 1e-12));

    const double t = GENERATE(0.5, 0.8, 0.95);
    const auto p = semfp::optimal_lsh_params(t, 128);
    CHECK(p.bands >= 1);
    CHECK(p.rows >= 1);
    CHECK(p.bands * p.rows <= 128);
    // The curve's steep part sits near the threshold.
    CHECK(semfp::lsh_probability(p, t - 0.3) < 0.1);
    CHECK(semfp::lsh_probability(p, std::min(1.0, t + 0.1)) > 0.7);
    // Weighing misses more raises the probability at the threshold.
    const auto q = semfp::optimal_lsh_params(t, 128, 0.02, 0.98);
    CHECK(semfp::lsh_probability(q, t) > semfp::lsh_probability(p, t));
    CHECK(semfp::lsh_probability(q, t) > 0.9);

    REQUIRE_THROWS_AS(semfp::optimal_lsh_params(0.0, 128), semfp::invalid_argument_error);
    REQUIRE_THROWS_AS(semfp::optimal_lsh_params(1.0, 128), semfp::invalid_argument_error);
    REQUIRE_THROWS_AS(semfp::optimal_lsh_params(0.5, 0), semfp::invalid_argument_error);
    REQUIRE_THROWS_AS(semfp::optimal_lsh_params(0.5, 128, 0.0, 0.0), semfp::invalid_argument_error);
    const semfp::MinHashLsh<128> by_threshold(t);
    CHECK(by_threshold.params() == p);
    CHECK(by_threshold.empty());
    REQUIRE_THROWS_AS(semfp::MinHashLsh<128>(semfp::lsh_params{0, 4}), semfp::invalid_argument_error);
    REQUIRE_THROWS_AS(semfp::MinHashLsh<128>(semfp::lsh_params{4, 0}), semfp::invalid_argument_error);
    REQUIRE_THROWS_AS(semfp::MinHashLsh<128>(semfp::lsh_params{20, 7}), semfp::invalid_argument_error);
}

TEST_CASE("LSH finds planted near-duplicate pairs", "[baseline][lsh]") {
    // 200 random sets of 300 elements; sets 2k and 2k+1 (k < 25) are planted pairs with
    // Jaccard 285 / 315 = 0.905; every other pair is disjoint.
    std::vector<ShingleSet> sets;
    std::uint64_t next = 0;
    for (std::size_t k = 0; k < 100; ++k) {
        if (k < 25) {
            auto [a, b] = sets_with(next, 285, 15, 15);
            next += 1000;
            sets.push_back(std::move(a));
            sets.push_back(std::move(b));
        } else {
            auto [a, b] = sets_with(next, 0, 300, 300);
            next += 1000;
            sets.push_back(std::move(a));
            sets.push_back(std::move(b));
        }
    }
    // Shaped for recall at 0.8: a pair of Jaccard 0.9 shares a band with probability > 0.9999.
    semfp::MinHashLsh<128, std::size_t> lsh(semfp::optimal_lsh_params(0.8, 128, 0.02, 0.98));
    std::vector<semfp::MinHash<128>> sigs;
    for (std::size_t i = 0; i < sets.size(); ++i) {
        sigs.emplace_back(sets[i]);
        lsh.insert(sigs.back(), i);
    }
    REQUIRE(lsh.size() == 200);
    // Ids are unique, as in HammingIndex.
    REQUIRE_THROWS_AS(lsh.insert(sigs.front(), 0), semfp::invalid_argument_error);
    REQUIRE(lsh.size() == 200);

    const auto pairs = lsh.candidate_pairs();
    const std::set<std::pair<std::size_t, std::size_t>> found(pairs.begin(), pairs.end());
    REQUIRE(found.size() == pairs.size());
    for (std::size_t k = 0; k < 25; ++k) CHECK(found.contains({2 * k, 2 * k + 1}));
    // Disjoint sets essentially never collide in a band.
    std::size_t false_candidates = 0;
    for (const auto& [x, y] : pairs) {
        CHECK(x < y);
        if (!(x < 50 && y == x + 1 && x % 2 == 0)) ++false_candidates;
    }
    CHECK(false_candidates <= 2);

    for (std::size_t k = 0; k < 25; ++k) {
        const auto cands = lsh.candidates(sigs[2 * k]);
        CHECK(std::find(cands.begin(), cands.end(), 2 * k + 1) != cands.end());
        CHECK(std::find(cands.begin(), cands.end(), 2 * k) != cands.end());  // itself
        const auto verified = lsh.query(sigs[2 * k], 0.7);
        CHECK(verified.size() == 2);
    }
    CHECK(lsh.query(semfp::MinHash<128>(sets_with(99999999, 0, 300, 0).first), 0.5).empty());
}
