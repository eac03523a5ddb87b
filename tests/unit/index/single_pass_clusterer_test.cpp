#include <semfp/index/single_pass_clusterer.hpp>

#include "support/catch.hpp"
#include "support/scale.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

template <std::size_t Bits>
semfp::Fingerprint<Bits> flip(semfp::Fingerprint<Bits> fp, unsigned bit) {
    auto w = fp.data();
    w[w.size() - 1 - bit / 64] ^= std::uint64_t{1} << (bit % 64);
    return semfp::Fingerprint<Bits>(w);
}

/// Random fingerprints; one in `copy_den` is random, the others near copies (0..max_flips bits)
/// of the earlier fingerprint `pick(rng, i)` chooses.
template <std::size_t Bits, class Pick>
std::vector<semfp::Fingerprint<Bits>> make_fingerprints(std::size_t n, unsigned max_flips, std::uint64_t seed,
                                                        std::uint64_t copy_den, Pick pick) {
    std::mt19937_64 rng(seed);
    std::vector<semfp::Fingerprint<Bits>> fps;
    for (std::size_t i = 0; i < n; ++i) {
        if (i > 0 && rng() % copy_den != 0) {
            auto fp = fps[pick(rng, i)];
            const auto flips = static_cast<unsigned>(rng() % (max_flips + 1));
            for (unsigned f = 0; f < flips; ++f) fp = flip(fp, static_cast<unsigned>(rng() % Bits));
            fps.push_back(fp);
        } else {
            std::array<std::uint64_t, Bits / 64> w{};
            for (auto& x : w) x = rng();
            fps.emplace_back(w);
        }
    }
    return fps;
}

/// Random fingerprints, two in three near copies of a uniformly chosen earlier one.
template <std::size_t Bits>
std::vector<semfp::Fingerprint<Bits>> make_data(std::size_t n, unsigned max_flips, std::uint64_t seed) {
    return make_fingerprints<Bits>(n, max_flips, seed, 3, [](std::mt19937_64& rng, std::size_t i) { return rng() % i; });
}

struct ref_result {
    std::vector<std::size_t> cluster_of;  // item -> centre item
    std::vector<unsigned> distance;
};

/// The O(n^2) definition.
template <std::size_t Bits>
ref_result reference(const std::vector<semfp::Fingerprint<Bits>>& fps, unsigned hd, semfp::match_policy match) {
    ref_result r;
    std::vector<std::size_t> candidates;  // centres, or all items
    for (std::size_t i = 0; i < fps.size(); ++i) {
        std::size_t best = fps.size();
        unsigned best_d = ~0u;
        for (const auto c : candidates) {
            const unsigned d = semfp::hamming_distance(fps[c], fps[i]);
            if (d <= hd && d < best_d) {
                best_d = d;
                best = c;
            }
        }
        if (best == fps.size()) {
            r.cluster_of.push_back(i);
            r.distance.push_back(0);
            candidates.push_back(i);
        } else {
            r.cluster_of.push_back(r.cluster_of[best]);
            r.distance.push_back(best_d);
            if (match == semfp::match_policy::members) candidates.push_back(i);
        }
    }
    return r;
}

template <std::size_t Bits>
void check_against_reference(unsigned hd, semfp::match_policy match, std::size_t n, std::uint64_t seed) {
    const auto fps = make_data<Bits>(n, hd + 2, seed);
    const auto ref = reference(fps, hd, match);
    semfp::SinglePassClusterer<Bits> spc({hd, match});
    for (std::size_t i = 0; i < fps.size(); ++i) {
        const auto a = spc.add(fps[i], 1000 + i);
        REQUIRE(a.cluster == 1000 + ref.cluster_of[i]);
        REQUIRE(a.is_new == (ref.cluster_of[i] == i));
        REQUIRE(a.distance == ref.distance[i]);
    }
    // Batch API gives the same clusters.
    const auto batch = semfp::single_pass(fps, {hd, match}, 1000);
    for (std::size_t i = 0; i < fps.size(); ++i) REQUIRE(batch.cluster_of(1000 + i) == 1000 + ref.cluster_of[i]);
    REQUIRE(batch.cluster_count() == spc.cluster_count());
}

}  // namespace

TEST_CASE("SinglePassClusterer<64> equals the O(n^2) definition", "[index][cluster]") {
    const unsigned hd = GENERATE(0u, 1u, 3u, 5u, 7u);
    CAPTURE(hd);
    check_against_reference<64>(hd, semfp::match_policy::centres, 3000, 100 + hd);
}

TEST_CASE("SinglePassClusterer<64> members policy equals its definition", "[index][cluster]") {
    const unsigned hd = GENERATE(2u, 3u);
    CAPTURE(hd);
    check_against_reference<64>(hd, semfp::match_policy::members, 2500, 200 + hd);
}

TEST_CASE("SinglePassClusterer<64> at two-stage radii equals the O(n^2) definition", "[index][cluster]") {
    const unsigned hd = GENERATE(10u, 12u, 16u);
    CAPTURE(hd);
    check_against_reference<64>(hd, semfp::match_policy::centres, 1500, 150 + hd);
}

TEST_CASE("SinglePassClusterer defaults: the recommended distance, the paper one call away", "[index][cluster]") {
    REQUIRE(semfp::SinglePassClusterer<64>{}.options().threshold == semfp::recommended_distance<64>);
    REQUIRE(semfp::SinglePassClusterer<128>{}.options().threshold == semfp::recommended_distance<128>);
    REQUIRE(semfp::cluster_options::paper().threshold == 3);
    REQUIRE(semfp::SinglePassClusterer<64>(semfp::cluster_options::paper()).options().threshold == 3);
    REQUIRE(semfp::SinglePassClusterer<64>::max_threshold == 16);
    REQUIRE(semfp::SinglePassClusterer<128>::max_threshold == 32);
    REQUIRE_THROWS_AS(semfp::SinglePassClusterer<128>({33, semfp::match_policy::centres}),
                      semfp::invalid_argument_error);
    // Five bits apart: one cluster by default, two with the paper's threshold.
    const std::vector<semfp::Fingerprint64> fps = {semfp::Fingerprint64(0), semfp::Fingerprint64(0x1Full)};
    REQUIRE(semfp::single_pass(fps).cluster_count() == 1);
    REQUIRE(semfp::single_pass(fps, semfp::cluster_options::paper()).cluster_count() == 2);
}

TEST_CASE("SinglePassClusterer with a verifier: nearest verified centre wins", "[index][cluster]") {
    using FP = semfp::Fingerprint64;
    semfp::SinglePassClusterer<64> spc({6, semfp::match_policy::centres});
    const auto yes = [](std::uint64_t, unsigned) { return true; };
    REQUIRE(spc.add(FP(0), 1, yes).is_new);
    REQUIRE(spc.add(FP(0xFF00000000000000ull), 2, yes).is_new);  // 8 bits from 1
    // 0x0F...: 4 bits from both 1 and 2; the earliest wins unless it is not verified.
    REQUIRE(spc.add(FP(0x0F00000000000000ull), 3, yes) == semfp::cluster_assignment{1, false, 4});
    REQUIRE(spc.add(FP(0x0F00000000000000ull), 4, [](std::uint64_t c, unsigned) { return c != 1; }) ==
            semfp::cluster_assignment{2, false, 4});
    // Nearest (1, distance 2) rejected: the next verified candidate (2, distance 6).
    std::vector<std::uint64_t> asked;
    const auto a5 = spc.add(FP(0xC000000000000000ull), 5, [&](std::uint64_t c, unsigned) {
        asked.push_back(c);
        return c == 2;
    });
    REQUIRE(a5 == semfp::cluster_assignment{2, false, 6});
    REQUIRE(asked == std::vector<std::uint64_t>{1, 2});
    // Nothing verified: a new cluster.
    REQUIRE(spc.add(FP(1), 6, [](std::uint64_t, unsigned) { return false; }).is_new);
    REQUIRE(spc.cluster_count() == 3);
    REQUIRE_THROWS_AS(spc.add(FP(1), 6, yes), semfp::invalid_argument_error);

    // Accepting everything equals add.
    const auto fps = make_data<64>(1500, 8, 77);
    semfp::SinglePassClusterer<64> plain({6, semfp::match_policy::centres});
    semfp::SinglePassClusterer<64> verified({6, semfp::match_policy::centres});
    for (std::size_t i = 0; i < fps.size(); ++i) REQUIRE(plain.add(fps[i], i) == verified.add(fps[i], i, yes));
}

TEST_CASE("SinglePassClusterer<128> equals the O(n^2) definition", "[index][cluster]") {
    const unsigned hd = GENERATE(3u, 6u, 15u, 28u);
    CAPTURE(hd);
    check_against_reference<128>(hd, semfp::match_policy::centres, 2000, 300 + hd);
}

/// Bursts: each fingerprint is random or a near copy of one of the last few, so that batch
/// adds must account for items indexed while their own lookup was in flight (add_range looks
/// items up a few positions before committing them).
template <std::size_t Bits>
std::vector<semfp::Fingerprint<Bits>> make_bursts(std::size_t n, unsigned max_flips, std::uint64_t seed) {
    return make_fingerprints<Bits>(n, max_flips, seed, 4, [](std::mt19937_64& rng, std::size_t i) {
        return i - (1 + rng() % std::min<std::size_t>(i, 6));
    });
}

TEST_CASE("SinglePassClusterer batch adds equal one-by-one adds on bursts of near copies", "[index][cluster]") {
    const unsigned hd = GENERATE(0u, 2u, 3u, 7u);
    const auto match = GENERATE(semfp::match_policy::centres, semfp::match_policy::members);
    CAPTURE(hd, static_cast<int>(match));
    const auto fps = make_bursts<64>(4000, hd + 1, 400 + hd);
    const auto ref = reference(fps, hd, match);
    semfp::SinglePassClusterer<64> batch({hd, match});
    batch.add_range(fps, 50);
    REQUIRE(batch.size() == fps.size());
    std::size_t joined = 0;
    for (std::size_t i = 0; i < fps.size(); ++i) {
        REQUIRE(batch.cluster_of(50 + i) == 50 + ref.cluster_of[i]);
        joined += ref.cluster_of[i] != i;
    }
    CHECK(joined > fps.size() / 4);  // the bursts do exercise joining
    // Members lists: arrival order, centre first.
    for (const auto& c : batch.centres()) {
        const auto m = batch.members(c.id);
        REQUIRE(!m.empty());
        CHECK(m.front() == c.id);
        CHECK(std::is_sorted(m.begin(), m.end()));
        CHECK(m.size() == c.size);
        CHECK(batch.cluster_size(c.id) == c.size);
    }
}

namespace {

/// The benchmark's distribution (one in ten a copy of a uniformly chosen earlier fingerprint
/// with 0..3 flipped bits, the rest random, the bits of `fixed_mask` set to `fixed` in those)
/// at the paper's threshold: batch and one-by-one adds against a linear scan over the centres.
void check_planted_stream(std::size_t n, std::uint64_t seed, std::uint64_t fixed_mask, std::uint64_t fixed) {
    std::mt19937_64 rng(seed);
    std::vector<semfp::Fingerprint64> fps;
    for (std::size_t i = 0; i < n; ++i) {
        if (i > 0 && rng() % 10 == 0) {
            auto fp = fps[rng() % i];
            for (auto f = rng() % 4; f > 0; --f) fp = flip(fp, static_cast<unsigned>(rng() % 64));
            fps.push_back(fp);
        } else {
            fps.emplace_back((rng() & ~fixed_mask) | fixed);
        }
    }
    std::vector<std::uint64_t> centre_fp;
    std::vector<std::size_t> centre_item;
    std::vector<std::size_t> expected(n);
    std::vector<unsigned> expected_d(n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t x = fps[i].value();
        std::size_t best = centre_fp.size();
        unsigned best_d = 4;
        for (std::size_t c = 0; c < centre_fp.size(); ++c) {
            const auto d = static_cast<unsigned>(std::popcount(centre_fp[c] ^ x));
            if (d < best_d) {
                best_d = d;
                best = c;
            }
        }
        if (best == centre_fp.size()) {
            centre_fp.push_back(x);
            centre_item.push_back(i);
            expected[i] = i;
            expected_d[i] = 0;
        } else {
            expected[i] = centre_item[best];
            expected_d[i] = best_d;
        }
    }
    REQUIRE(centre_fp.size() > n / 2);       // mostly new centres, as in the benchmark
    REQUIRE(centre_fp.size() < n - n / 20);  // and thousands of joins

    semfp::SinglePassClusterer<64> batch(semfp::cluster_options::paper());
    batch.add_range(fps, 7);
    semfp::SinglePassClusterer<64> single(semfp::cluster_options::paper());
    REQUIRE(batch.cluster_count() == centre_fp.size());
    for (std::size_t i = 0; i < n; ++i) {
        REQUIRE(batch.cluster_of(7 + i) == 7 + expected[i]);
        const auto a = single.add(fps[i], 7 + i);
        REQUIRE(a.cluster == 7 + expected[i]);
        REQUIRE(a.distance == expected_d[i]);
    }
}

}  // namespace

TEST_CASE("SinglePassClusterer on a planted stream equals a linear scan over the centres", "[index][cluster]") {
    // Large enough for the index's segments to split into many buckets and repack often.
    check_planted_stream(30000, 4242, 0, 0);
}

TEST_CASE("SinglePassClusterer on a stream crowding one segment per table equals a linear scan", "[index][cluster]") {
    // The high byte of every 16-bit window fixed: one segment of each table holds nearly every
    // entry, past the size (16 Ki) from which its buckets are aligned to cache lines, and is
    // repacked in that layout several times.
    check_planted_stream(30000, 4343, 0xFF00FF00FF00FF00ull, 0xA500A500A500A500ull);
}

TEST_CASE("SinglePassClusterer DistSet, SimSet and lookups", "[index][cluster]") {
    using FP = semfp::Fingerprint64;
    semfp::SinglePassClusterer<64> spc(semfp::cluster_options::paper());
    REQUIRE(spc.options().threshold == 3);
    REQUIRE(spc.options().match == semfp::match_policy::centres);

    const auto a1 = spc.add(FP(0xF000000000000000ull), 10);
    REQUIRE(a1 == semfp::cluster_assignment{10, true, 0});
    const auto a2 = spc.add(FP(0x00000000000000FFull), 20);
    REQUIRE(a2.is_new);
    const auto a3 = spc.add(FP(0xF000000000000001ull), 30);  // 1 bit from 10
    REQUIRE(a3 == semfp::cluster_assignment{10, false, 1});
    const auto a4 = spc.add(FP(0x00000000000000F8ull), 40);  // 3 bits from 20
    REQUIRE(a4 == semfp::cluster_assignment{20, false, 3});
    const auto a5 = spc.add(FP(0x00000000000000F0ull), 50);  // 4 bits from 20: new centre
    REQUIRE(a5.is_new);
    // Tie: 2 bits from both 50 (F0) and a new centre? F3 is 2 from F0... and 2 from FF? no: F3^FF=0C (2).
    const auto a6 = spc.add(FP(0x00000000000000F3ull), 60);
    REQUIRE(a6 == semfp::cluster_assignment{20, false, 2});  // earliest centre wins the tie

    REQUIRE(spc.size() == 6);
    REQUIRE(spc.cluster_count() == 3);
    REQUIRE(spc.cluster_of(30) == 10u);
    REQUIRE(spc.cluster_of(60) == 20u);
    REQUIRE_FALSE(spc.cluster_of(99).has_value());
    REQUIRE(spc.is_centre(50));
    REQUIRE_FALSE(spc.is_centre(40));
    REQUIRE(spc.members(20) == std::vector<std::uint64_t>{20, 40, 60});
    REQUIRE(spc.members(40).empty());
    REQUIRE(spc.cluster_size(10) == 2);
    REQUIRE(spc.cluster_size(30) == 0);

    const auto dist = spc.centres();
    REQUIRE(dist.size() == 3);
    REQUIRE(dist[0].id == 50);  // 0xF0 < 0xFF < 0xF000...
    REQUIRE(dist[1].id == 20);
    REQUIRE(dist[2].id == 10);
    REQUIRE(dist[1].size == 3);
    REQUIRE(dist[2].fingerprint == FP(0xF000000000000000ull));

    REQUIRE_THROWS_AS(spc.add(FP(1), 10), semfp::invalid_argument_error);
    REQUIRE(spc.size() == 6);
    REQUIRE_THROWS_AS(semfp::SinglePassClusterer<64>({17, semfp::match_policy::centres}),
                      semfp::invalid_argument_error);
    spc.clear();
    REQUIRE(spc.size() == 0);
    REQUIRE(spc.centres().empty());
}

TEST_CASE("SinglePassClusterer members policy chains clusters", "[index][cluster]") {
    using FP = semfp::Fingerprint64;
    semfp::SinglePassClusterer<64> spc({2, semfp::match_policy::members});
    spc.add(FP(0x0ull), 1);
    spc.add(FP(0x3ull), 2);   // 2 from centre 1
    spc.add(FP(0xFull), 3);   // 4 from centre, 2 from member 2
    REQUIRE(spc.cluster_of(3) == 1u);
    REQUIRE(spc.cluster_count() == 1);
    semfp::SinglePassClusterer<64> paper({2, semfp::match_policy::centres});
    paper.add(FP(0x0ull), 1);
    paper.add(FP(0x3ull), 2);
    paper.add(FP(0xFull), 3);
    REQUIRE(paper.cluster_of(3) == 3u);
}

TEST_CASE("SinglePassClusterer clusters texts with any fingerprinter", "[index][cluster]") {
    // A toy fingerprinter: the first 8 bytes of the text.
    auto fingerprinter = [](std::string_view text) {
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < 8 && i < text.size(); ++i)
            v |= static_cast<std::uint64_t>(static_cast<unsigned char>(text[i])) << (8 * i);
        return semfp::Fingerprint64(v);
    };
    const std::vector<std::string> texts = {"abcdefgh", "abcdefgi", "zzzzzzzz", "abcdefgh"};
    semfp::SinglePassClusterer<64> spc;
    spc.add_texts(texts, fingerprinter, 100);
    REQUIRE(spc.cluster_of(101) == 100u);
    REQUIRE(spc.cluster_of(102) == 102u);
    REQUIRE(spc.cluster_of(103) == 100u);
    REQUIRE(spc.members(100) == std::vector<std::uint64_t>{100, 101, 103});
}

TEST_CASE("SinglePassClusterer ids in any order", "[index][cluster]") {
    // Ascending ids are found by binary search; the first id out of order switches to a hash
    // map. Both paths must find every id and reject duplicates.
    std::mt19937_64 rng(123);
    semfp::SinglePassClusterer<64> spc;
    std::vector<std::pair<std::uint64_t, semfp::Fingerprint64>> added;
    for (std::uint64_t i = 0; i < 300; ++i) {
        const semfp::Fingerprint64 fp(i % 3 == 0 && i > 0 ? added[i - 1].second.value() ^ 1u : rng());
        spc.add(fp, 10 + 2 * i);
        added.emplace_back(10 + 2 * i, fp);
    }
    REQUIRE_THROWS_AS(spc.add(semfp::Fingerprint64(rng()), 10 + 2 * 299), semfp::invalid_argument_error);
    REQUIRE_THROWS_AS(spc.add(semfp::Fingerprint64(rng()), 10 + 2 * 17), semfp::invalid_argument_error);
    REQUIRE(spc.size() == 300);
    REQUIRE_FALSE(spc.contains(11));
    std::vector<std::uint64_t> before;
    for (const auto& [id, fp] : added) before.push_back(*spc.cluster_of(id));
    REQUIRE(std::count(before.begin(), before.end(), before[3]) >= 2);  // near copies joined
    // Out of order from here on.
    spc.add(semfp::Fingerprint64(rng()), 11);
    spc.add(added[3].second, 5);
    REQUIRE(spc.cluster_of(5) == before[3]);
    REQUIRE_THROWS_AS(spc.add(semfp::Fingerprint64(rng()), 10 + 2 * 100), semfp::invalid_argument_error);
    REQUIRE_THROWS_AS(spc.add(semfp::Fingerprint64(rng()), 5), semfp::invalid_argument_error);
    REQUIRE(spc.size() == 302);
    for (std::size_t i = 0; i < added.size(); ++i) REQUIRE(spc.cluster_of(added[i].first) == before[i]);
    REQUIRE(spc.cluster_of(11) == 11);
    REQUIRE(spc.members(before[3]).back() == 5);

    // A saved clusterer with unordered ids loads to the same answers.
    std::stringstream buf;
    spc.save(buf);
    semfp::SinglePassClusterer<64> back;
    back.load(buf);
    REQUIRE(back.size() == spc.size());
    for (const auto& [id, fp] : added) REQUIRE(back.cluster_of(id) == spc.cluster_of(id));
    REQUIRE(back.cluster_of(5) == before[3]);
    REQUIRE(back.members(before[3]) == spc.members(before[3]));
    REQUIRE_THROWS_AS(back.add(semfp::Fingerprint64(rng()), 11), semfp::invalid_argument_error);
}

TEST_CASE("SinglePassClusterer stores no ids while they are consecutive, same answers after the run breaks",
          "[index][cluster]") {
    std::mt19937_64 rng(77);
    std::vector<semfp::Fingerprint64> fps;
    for (int i = 0; i < 400; ++i) {
        std::uint64_t x = i > 0 && i % 3 == 0 ? fps[rng() % fps.size()].value() : rng();
        if (i % 3 == 0) x ^= std::uint64_t{1} << (rng() % 64);
        fps.emplace_back(x);
    }
    // Reference: ids 1000 + 3i (ascending, never consecutive), mapped back to positions.
    semfp::SinglePassClusterer<64> ref(semfp::cluster_options::paper());
    for (std::size_t i = 0; i < fps.size(); ++i) ref.add(fps[i], 1000 + 3 * i);
    auto ref_cluster = [&](std::size_t i) { return (*ref.cluster_of(1000 + 3 * i) - 1000) / 3; };

    semfp::SinglePassClusterer<64> run(semfp::cluster_options::paper());
    run.add_range(std::span(fps).first(200), 50);  // ids 50 .. 249
    const std::size_t compact = run.memory_usage();
    REQUIRE(run.contains(50));
    REQUIRE(run.contains(249));
    REQUIRE_FALSE(run.contains(49));
    REQUIRE_FALSE(run.contains(250));
    REQUIRE_FALSE(run.contains(~0ull));
    for (std::size_t i = 0; i < 200; ++i) REQUIRE(*run.cluster_of(50 + i) == 50 + ref_cluster(i));
    // Saved and loaded while consecutive.
    std::stringstream buf;
    run.save(buf);
    semfp::SinglePassClusterer<64> back;
    back.load(buf);
    for (std::size_t i = 0; i < 200; ++i) REQUIRE(back.cluster_of(50 + i) == run.cluster_of(50 + i));

    // A gap breaks the run: ids 300 .. 499 for the rest (still ascending), then one out of order.
    for (std::size_t i = 200; i < fps.size(); ++i) run.add(fps[i], 100 + i);
    REQUIRE(run.memory_usage() > compact);
    for (std::size_t i = 0; i < 200; ++i) REQUIRE(*run.cluster_of(50 + i) == 50 + ref_cluster(i));
    for (std::size_t i = 200; i < fps.size(); ++i) {
        const std::size_t c = ref_cluster(i);
        REQUIRE(*run.cluster_of(100 + i) == (c < 200 ? 50 + c : 100 + c));
    }
    REQUIRE_FALSE(run.contains(250));
    REQUIRE(run.contains(300));
    run.add(fps[0], 7);
    REQUIRE(run.cluster_of(7) == run.cluster_of(50));
    REQUIRE(run.size() == fps.size() + 1);
    REQUIRE_THROWS_AS(run.add(fps[1], 120), semfp::invalid_argument_error);
}

TEST_CASE("SinglePassClusterer batch adds equal one-by-one adds when centres share partial keys",
          "[index][cluster]") {
    // add_range inserts with the hints its lookups leave (multi_index::insert_hint), corrected
    // for the items indexed between a lookup and its insert; one-by-one adds look the partial
    // keys up. Half the stream copies an earlier fingerprint with one 16-bit window replaced
    // (a partial key of some secondary table shared), often one of the last few.
    const auto match = GENERATE(semfp::match_policy::centres, semfp::match_policy::members);
    std::mt19937_64 rng(4545);
    std::vector<semfp::Fingerprint64> fps;
    // 20,000 items (4,000 under the sanitizers: the reference is quadratic).
    const std::size_t n = semfp_test::cases(20000, 5);
    for (std::size_t i = 0; i < n; ++i) {
        if (i == 0 || rng() % 2 == 0) {
            fps.emplace_back(rng());
            continue;
        }
        const std::size_t from = rng() % 2 == 0 ? i - 1 - rng() % std::min<std::size_t>(i, 4) : rng() % i;
        const unsigned shift = 16 * static_cast<unsigned>(rng() % 4);
        const std::uint64_t window = std::uint64_t{0xFFFF} << shift;
        std::uint64_t x = (fps[from].value() & ~window) | (rng() & window);
        if (rng() % 4 == 0) x ^= std::uint64_t{1} << (rng() % 64);
        fps.emplace_back(x);
    }
    semfp::SinglePassClusterer<64> batch({3, match});
    batch.add_range(fps, 0);
    semfp::SinglePassClusterer<64> single({3, match});
    for (std::size_t i = 0; i < fps.size(); ++i) (void)single.add(fps[i], i);
    const auto ref = reference(fps, 3, match);
    std::size_t joined = 0;
    for (std::size_t i = 0; i < fps.size(); ++i) {
        REQUIRE(batch.cluster_of(i) == ref.cluster_of[i]);
        REQUIRE(single.cluster_of(i) == ref.cluster_of[i]);
        joined += ref.cluster_of[i] != i;
    }
    CHECK(joined > n / 250);  // the stream joins about 0.55 % of its items (111 of 20,000; 21 of 4,000)
    // The same entries in every table: a partial key inserted twice would show here.
    CHECK(batch.memory_usage() == single.memory_usage());
}
