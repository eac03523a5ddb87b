#include <semfp/index/hamming_index.hpp>

#include "support/catch.hpp"
#include "support/scale.hpp"

#include <algorithm>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

template <std::size_t Bits>
semfp::Fingerprint<Bits> random_fp(std::mt19937_64& rng) {
    std::array<std::uint64_t, Bits / 64> w{};
    for (auto& x : w) x = rng();
    return semfp::Fingerprint<Bits>(w);
}

template <std::size_t Bits>
semfp::Fingerprint<Bits> flip(semfp::Fingerprint<Bits> fp, unsigned bit) {
    auto w = fp.data();
    w[w.size() - 1 - bit / 64] ^= std::uint64_t{1} << (bit % 64);
    return semfp::Fingerprint<Bits>(w);
}

/// Random fingerprints plus planted near copies (0..max_flips flipped bits) of earlier ones.
template <std::size_t Bits>
std::vector<semfp::Fingerprint<Bits>> planted_data(std::size_t n, unsigned max_flips, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<semfp::Fingerprint<Bits>> fps;
    for (std::size_t i = 0; i < n; ++i) {
        if (i > 0 && rng() % 2 == 0) {
            auto fp = fps[rng() % i];
            const auto flips = static_cast<unsigned>(rng() % (max_flips + 1));
            for (unsigned f = 0; f < flips; ++f) fp = flip(fp, static_cast<unsigned>(rng() % Bits));
            fps.push_back(fp);
        } else {
            fps.push_back(random_fp<Bits>(rng));
        }
    }
    return fps;
}

template <std::size_t Bits>
std::vector<semfp::hamming_match> brute_force(const std::vector<semfp::Fingerprint<Bits>>& fps,
                                              const std::vector<bool>& alive, const semfp::Fingerprint<Bits>& q,
                                              unsigned k) {
    std::vector<semfp::hamming_match> out;
    for (std::size_t i = 0; i < fps.size(); ++i) {
        if (!alive[i]) continue;
        const unsigned d = semfp::hamming_distance(fps[i], q);
        if (d <= k) out.push_back({static_cast<std::uint64_t>(i) * 7 + 3, d});
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
        return a.distance != b.distance ? a.distance < b.distance : a.id < b.id;
    });
    return out;
}

template <std::size_t Bits>
void check_against_brute_force(unsigned max_k, unsigned blocks, std::size_t n, std::uint64_t seed) {
    const auto fps = planted_data<Bits>(n, max_k + 1, seed);
    semfp::HammingIndex<Bits> index = blocks == 0 ? semfp::HammingIndex<Bits>(max_k)
                                                  : semfp::HammingIndex<Bits>(max_k, blocks);
    std::vector<bool> alive(fps.size(), true);
    for (std::size_t i = 0; i < fps.size(); ++i) index.insert(fps[i], i * 7 + 3);
    // Erase a tenth to exercise removal.
    std::mt19937_64 rng(seed + 1);
    for (std::size_t i = 0; i < fps.size(); i += 10) {
        REQUIRE(index.erase(i * 7 + 3));
        alive[i] = false;
    }
    REQUIRE(index.size() == static_cast<std::size_t>(std::count(alive.begin(), alive.end(), true)));
    for (int t = 0; t < 150; ++t) {
        auto q = fps[rng() % fps.size()];
        const auto flips = static_cast<unsigned>(rng() % (max_k + 2));
        for (unsigned f = 0; f < flips; ++f) q = flip(q, static_cast<unsigned>(rng() % Bits));
        for (unsigned k = 0; k <= max_k; ++k) {
            const auto expected = brute_force(fps, alive, q, k);
            const auto got = index.query(q, k);
            REQUIRE(got == expected);
        }
    }
}

}  // namespace

TEST_CASE("HammingIndex<64> equals brute force for k = 0..7", "[index]") {
    const unsigned max_k = GENERATE(0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u);
    CAPTURE(max_k);
    check_against_brute_force<64>(max_k, 0, 1500, 11 + max_k);
}

template <std::size_t Bits>
void check_every_radius(unsigned max_k, unsigned blocks, std::size_t n, std::uint64_t seed) {
    // Layout for max_k, queries at every radius the width allows (above max_k: more probes).
    const unsigned top = semfp::HammingIndex<Bits>::max_radius;
    const auto fps = planted_data<Bits>(n, top + 2, seed);
    semfp::HammingIndex<Bits> index(max_k, blocks);
    for (std::size_t i = 0; i < fps.size(); ++i) index.insert(fps[i], i * 7 + 3);
    const std::vector<bool> alive(fps.size(), true);
    std::mt19937_64 rng(seed + 1);
    for (std::size_t t = 0; t < semfp_test::cases(40, 4); ++t) {
        auto q = fps[rng() % fps.size()];
        for (auto f = rng() % (top + 3); f > 0; --f) q = flip(q, static_cast<unsigned>(rng() % Bits));
        for (unsigned k = 0; k <= top; ++k) REQUIRE(index.query(q, k) == brute_force(fps, alive, q, k));
    }
}

TEST_CASE("HammingIndex answers every radius up to max_radius exactly, whatever max_k", "[index]") {
    REQUIRE(semfp::HammingIndex<64>::max_radius == 16);
    REQUIRE(semfp::HammingIndex<128>::max_radius == 32);
    const unsigned blocks64 = GENERATE(1u, 2u, 3u, 4u);
    CAPTURE(blocks64);
    check_every_radius<64>(blocks64 == 4 ? 5 : blocks64 - 1, blocks64, 700, 500 + blocks64);
    const unsigned blocks128 = blocks64 * 2;
    CAPTURE(blocks128);
    check_every_radius<128>(blocks128 == 8 ? 15 : blocks128 - 1, blocks128, 500, 600 + blocks128);
}

TEST_CASE("HammingIndex defaults answer the recommended distance", "[index]") {
    const semfp::HammingIndex<64> i64;
    const semfp::HammingIndex<128> i128;
    REQUIRE(i64.max_k() == semfp::recommended_distance<64>);
    REQUIRE(i128.max_k() == semfp::recommended_distance<128>);
    REQUIRE(i64.block_count() == 4);
    REQUIRE(i128.block_count() == 8);
    try {
        (void)i64.query(semfp::Fingerprint64(0), 17);
        FAIL("no exception");
    } catch (const semfp::invalid_argument_error& e) {
        CHECK(std::string(e.what()).find("max_radius 16") != std::string::npos);
    }
}

TEST_CASE("HammingIndex<64> explicit layouts equal brute force", "[index]") {
    const unsigned blocks = GENERATE(1u, 2u, 3u, 4u);
    CAPTURE(blocks);
    check_against_brute_force<64>(3, blocks, 1200, 29 + blocks);
}

TEST_CASE("HammingIndex layouts: blocks of at least 16 bits, the longest equal brute force", "[index]") {
    REQUIRE(semfp::HammingIndex<64>::max_blocks(7) == 4);
    REQUIRE(semfp::HammingIndex<64>::max_blocks(2) == 3);
    REQUIRE(semfp::HammingIndex<128>::max_blocks(15) == 8);
    REQUIRE(semfp::HammingIndex<128>::max_blocks(0) == 2);
    // Blocks shorter than 16 bits are refused.
    REQUIRE_THROWS_AS(semfp::HammingIndex<64>(7, 5), semfp::invalid_argument_error);
    REQUIRE_THROWS_AS(semfp::HammingIndex<64>(7, 8), semfp::invalid_argument_error);
    REQUIRE_THROWS_AS(semfp::HammingIndex<128>(15, 9), semfp::invalid_argument_error);
    REQUIRE_THROWS_AS(semfp::HammingIndex<64>(3, 0), semfp::invalid_argument_error);
    check_against_brute_force<64>(7, 4, 900, 61);
    check_against_brute_force<128>(15, 8, 500, 67);
}

TEST_CASE("HammingIndex loads a saved short-block layout with a valid one, keeping every entry", "[index]") {
    // Earlier versions accepted eight 8-bit blocks at k = 7 (64 bits); write such a file.
    const auto fps = planted_data<64>(600, 8, 71);
    std::ostringstream os;
    {
        semfp::detail::binary_writer w(os);
        w.header("SEMFPHIX", 64);
        w.u32(7);
        w.u32(8);
        w.u64(fps.size());
        for (std::size_t i = 0; i < fps.size(); ++i) {
            w.fingerprint(fps[i]);
            w.u64(i);
        }
        w.finish();
    }
    semfp::HammingIndex<64> index;
    std::istringstream is(os.str());
    index.load(is);
    REQUIRE(index.size() == fps.size());
    REQUIRE(index.max_k() == 7);
    REQUIRE(index.block_count() == 4);
    const std::vector<bool> alive(fps.size(), true);
    std::mt19937_64 rng(72);
    for (int t = 0; t < 100; ++t) {
        auto q = fps[rng() % fps.size()];
        for (auto f = rng() % 9; f > 0; --f) q = flip(q, static_cast<unsigned>(rng() % 64));
        const auto got = index.query(q, 7);
        std::vector<semfp::hamming_match> expected;
        for (std::size_t i = 0; i < fps.size(); ++i)
            if (const unsigned d = semfp::hamming_distance(fps[i], q); d <= 7) expected.push_back({i, d});
        std::sort(expected.begin(), expected.end(), [](const semfp::hamming_match& a, const semfp::hamming_match& b) {
            return a.distance != b.distance ? a.distance < b.distance : a.id < b.id;
        });
        REQUIRE(got == expected);
    }
}

TEST_CASE("HammingIndex<128> equals brute force", "[index]") {
    const unsigned max_k = GENERATE(0u, 3u, 6u, 10u, 15u);
    CAPTURE(max_k);
    check_against_brute_force<128>(max_k, 0, 800, 41 + max_k);
}

TEST_CASE("HammingIndex grows through many rebuilds and stays exact", "[index]") {
    check_against_brute_force<64>(3, 0, 20000, 5);
}

TEST_CASE("HammingIndex handles many identical and clustered fingerprints", "[index]") {
    semfp::HammingIndex<64> index(3);
    const semfp::Fingerprint64 zero{};
    for (std::uint64_t i = 0; i < 3000; ++i) index.insert(zero, i);
    for (std::uint64_t i = 0; i < 64; ++i) index.insert(semfp::Fingerprint64(std::uint64_t{1} << i), 10000 + i);
    REQUIRE(index.query(zero, 0).size() == 3000);
    REQUIRE(index.query(zero, 1).size() == 3064);
    REQUIRE(index.query(semfp::Fingerprint64(~std::uint64_t{0}), 3).empty());
    for (std::uint64_t i = 0; i < 3000; i += 2) REQUIRE(index.erase(i));
    REQUIRE(index.query(zero, 1).size() == 1564);
}

TEST_CASE("HammingIndex API", "[index]") {
    semfp::HammingIndex<64> index(3);
    REQUIRE(index.max_k() == 3);
    REQUIRE(index.empty());
    const semfp::Fingerprint64 a(0x0123456789abcdefull);
    const semfp::Fingerprint64 b(0x0123456789abcdeeull);  // distance 1
    index.insert(a, 1);
    index.insert(b, 2);
    REQUIRE(index.size() == 2);
    REQUIRE(index.contains(1));
    REQUIRE(index.find(2) == b);
    REQUIRE_FALSE(index.find(3).has_value());
    REQUIRE_THROWS_AS(index.insert(a, 1), semfp::invalid_argument_error);
    REQUIRE(index.size() == 2);
    REQUIRE(index.query(a, 4).size() == 2);  // above max_k: more probes, still exact
    REQUIRE_THROWS_AS(index.query(a, 17), semfp::invalid_argument_error);
    REQUIRE_THROWS_AS(semfp::HammingIndex<64>(17), semfp::invalid_argument_error);
    REQUIRE_THROWS_AS(semfp::HammingIndex<64>(3, 5), semfp::invalid_argument_error);
    REQUIRE_THROWS_AS(semfp::HammingIndex<128>(3, 1), semfp::invalid_argument_error);

    const auto r = index.query(a, 1);
    REQUIRE(r == std::vector<semfp::hamming_match>{{1, 0}, {2, 1}});
    std::size_t calls = 0;
    index.for_each_within(b, 0, [&](const semfp::hamming_match& m) {
        ++calls;
        CHECK(m.id == 2);
        CHECK(m.distance == 0);
    });
    REQUIRE(calls == 1);
    REQUIRE(index.erase(1));
    REQUIRE_FALSE(index.erase(1));
    REQUIRE(index.query(a, 1) == std::vector<semfp::hamming_match>{{2, 1}});
    index.insert(a, 1);  // slot reuse
    REQUIRE(index.query(a, 1).size() == 2);
    std::size_t seen = 0;
    index.for_each([&](std::uint64_t, const semfp::Fingerprint64&) { ++seen; });
    REQUIRE(seen == 2);
    REQUIRE(index.memory_usage() > 0);
    index.clear();
    REQUIRE(index.empty());
    REQUIRE(index.query(a, 3).empty());
}

TEST_CASE("HammingIndex stays exact when entries share every stored partial key", "[index]") {
    // Secondary tables keep a partial key per entry (a few 16-bit windows); entries that differ
    // only in the windows a table does not keep share its partial key there. Families of such
    // entries, exact duplicates among them, must still be reported once each, also after erases.
    const unsigned max_k = GENERATE(3u, 7u);
    CAPTURE(max_k);
    std::mt19937_64 rng(77 + max_k);
    std::vector<semfp::Fingerprint64> fps;
    for (int family = 0; family < 40; ++family) {
        const std::uint64_t base = rng();
        for (int v = 0; v < 25; ++v) {
            // Vary one 16-bit window at a time (sometimes none: an exact duplicate).
            const unsigned window = static_cast<unsigned>(rng() % 5);
            std::uint64_t x = base;
            if (window < 4) x ^= (rng() & 0x0F0Full) << (16 * window);
            fps.emplace_back(x);
        }
    }
    semfp::HammingIndex<64> index(max_k);
    std::vector<bool> alive(fps.size(), true);
    for (std::size_t i = 0; i < fps.size(); ++i) index.insert(fps[i], i * 7 + 3);
    auto check = [&] {
        for (int t = 0; t < 200; ++t) {
            auto q = fps[rng() % fps.size()];
            for (unsigned f = static_cast<unsigned>(rng() % (max_k + 2)); f > 0; --f) q = flip(q, static_cast<unsigned>(rng() % 64));
            for (unsigned k = 0; k <= max_k; ++k) REQUIRE(index.query(q, k) == brute_force(fps, alive, q, k));
        }
    };
    check();
    for (std::size_t i = 0; i < fps.size(); i += 3) {
        REQUIRE(index.erase(i * 7 + 3));
        alive[i] = false;
    }
    check();
    for (std::size_t i = 0; i < fps.size(); i += 3) {
        index.insert(fps[i], i * 7 + 3);
        alive[i] = true;
    }
    check();
}

namespace {

/// `q` with `d` distinct bits flipped, packed into few 16-bit windows (whole windows missed
/// by exactly a step's radius + 1, lanes at their budget's edge: the cases the lane budget
/// and the skipped probes must get right).
template <std::size_t Bits>
semfp::Fingerprint<Bits> window_flips(semfp::Fingerprint<Bits> q, unsigned d, std::mt19937_64& rng) {
    std::vector<bool> used(Bits, false);
    while (d > 0) {
        const auto window = static_cast<unsigned>(rng() % (Bits / 16));
        auto in_window = static_cast<unsigned>(1 + rng() % 5);
        for (unsigned tries = 0; in_window > 0 && d > 0 && tries < 64; ++tries) {
            const unsigned bit = window * 16 + static_cast<unsigned>(rng() % 16);
            if (used[bit]) continue;
            used[bit] = true;
            q = flip(q, bit);
            --in_window;
            --d;
        }
    }
    return q;
}

template <std::size_t Bits>
void check_window_flips(unsigned blocks, std::uint64_t seed) {
    const unsigned top = semfp::HammingIndex<Bits>::max_radius;
    std::mt19937_64 rng(seed);
    semfp::HammingIndex<Bits> index(blocks - 1 < top ? blocks - 1 : top, blocks);
    std::vector<semfp::Fingerprint<Bits>> fps;
    std::vector<semfp::Fingerprint<Bits>> queries;
    // 12 query centres (3 under the sanitizers, where each query costs 20-50 times more).
    for (std::size_t c = 0; c < semfp_test::cases(12, 4); ++c) queries.push_back(random_fp<Bits>(rng));
    // Around each query: entries at every distance up to top + 2, flips packed in windows.
    for (const auto& q : queries)
        for (int e = 0; e < 60; ++e)
            fps.push_back(window_flips<Bits>(q, static_cast<unsigned>(rng() % (top + 3)), rng));
    for (int e = 0; e < 300; ++e) fps.push_back(random_fp<Bits>(rng));
    for (std::size_t i = 0; i < fps.size(); ++i) index.insert(fps[i], i * 7 + 3);
    const std::vector<bool> alive(fps.size(), true);
    for (const auto& q : queries)
        for (unsigned k = 0; k <= top; ++k) REQUIRE(index.query(q, k) == brute_force(fps, alive, q, k));
}

}  // namespace

TEST_CASE("HammingIndex is exact when flips are packed into few windows, every radius and layout", "[index]") {
    const unsigned blocks64 = GENERATE(1u, 2u, 3u, 4u);
    CAPTURE(blocks64);
    check_window_flips<64>(blocks64, 700 + blocks64);
    const unsigned blocks128 = blocks64 * 2;
    CAPTURE(blocks128);
    check_window_flips<128>(blocks128, 800 + blocks128);
}
