#include <semfp/detail/packed_table.hpp>

#include "support/catch.hpp"
#include "support/scale.hpp"

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <utility>
#include <vector>

namespace {

template <unsigned Units>
using entry = std::pair<std::array<std::uint16_t, Units>, std::uint32_t>;

/// The model: per bucket window, its entries in insertion order.
template <unsigned Units>
using model = std::map<std::uint16_t, std::vector<entry<Units>>>;

/// Every entry of `t`, per bucket window, in the table's order.
template <unsigned Units, bool HasValue, unsigned Lanes>
model<Units> contents(const semfp::detail::packed_table<Units, HasValue, Lanes>& t) {
    model<Units> out;
    t.for_each([&](std::uint16_t w, const std::uint16_t* u, std::uint32_t v) {
        std::array<std::uint16_t, Units> a{};
        for (unsigned x = 0; x < Units; ++x) a[x] = u[x];
        out[w].push_back({a, v});
    });
    return out;
}

/// Inserts `n` entries into windows drawn so that bucket fills take every size from 0 to a
/// few hundred (a few crowded windows, many sparse ones): repacks copy and clear runs of every
/// length, both below and above one 16-byte move. Checks the table against the model after
/// every repack-sized step, and the lane scan (plain, and with a filter on units 0 and 1)
/// against a linear scan of the model.
template <unsigned Units, bool HasValue, unsigned Lanes = 1>
void check_against_model(std::uint64_t seed, std::size_t n, std::size_t arena_threshold) {
    std::mt19937_64 rng(seed);
    semfp::detail::packed_table<Units, HasValue, Lanes> t;
    t.arena().set_threshold(arena_threshold);
    model<Units> want;
    std::size_t next_check = 1;
    for (std::size_t i = 0; i < n; ++i) {
        // Windows: a crowded segment (high byte 7), a few crowded windows elsewhere, and
        // uniform ones.
        std::uint16_t w;
        switch (rng() % 4) {
        case 0: w = static_cast<std::uint16_t>(0x0700 | (rng() & 0xFF)); break;
        case 1: w = static_cast<std::uint16_t>(0x2A00 | (rng() % 5)); break;
        default: w = static_cast<std::uint16_t>(rng()); break;
        }
        std::array<std::uint16_t, Units> u{};
        for (auto& x : u) x = static_cast<std::uint16_t>(rng());
        const auto v = HasValue ? static_cast<std::uint32_t>(rng()) : 0u;
        t.reserve_for(w);
        t.insert(w, u.data(), v);
        want[w].push_back({u, v});
        if (i + 1 == next_check || i + 1 == n) {
            next_check = next_check * 2 + 1;
            REQUIRE(t.size() == i + 1);
            REQUIRE(contents(t) == want);
        }
    }
    // The lane scan against a linear scan of the model, at every radius and some skips.
    for (std::size_t round = 0; round < semfp_test::cases(200, 4); ++round) {
        auto it = want.begin();
        std::advance(it, static_cast<std::ptrdiff_t>(rng() % want.size()));
        const std::uint16_t w = it->first;
        const auto lane = static_cast<std::uint16_t>(it->second[rng() % it->second.size()].first[0] ^ (1u << (rng() % 16)));
        for (unsigned k = 0; k <= 16; ++k) {
            for (const unsigned skip : {semfp::detail::no_lane_skip, 0u, 2u}) {
                std::vector<entry<Units>> got;
                t.scan(w, lane, k, [&](const std::uint16_t* u, std::uint32_t v) {
                    std::array<std::uint16_t, Units> a{};
                    for (unsigned x = 0; x < Units; ++x) a[x] = u[x];
                    got.push_back({a, v});
                }, skip);
                std::vector<entry<Units>> linear;
                for (const auto& e : it->second) {
                    const auto d = static_cast<unsigned>(std::popcount(static_cast<unsigned>(e.first[0] ^ lane)));
                    if (d <= k && !(skip < k && d <= skip)) linear.push_back(e);
                }
                CAPTURE(k, skip, it->second.size());
                REQUIRE(got == linear);
            }
            // scan_if: entries whose units 0 and 1 are together within k2 of (lane, second).
            const auto second = static_cast<std::uint16_t>(rng());
            const unsigned k2 = k + static_cast<unsigned>(rng() % 6);
            auto pair_distance = [&](std::uint16_t u0, std::uint16_t u1) {
                return static_cast<unsigned>(std::popcount(static_cast<unsigned>(u0 ^ lane)) +
                                             std::popcount(static_cast<unsigned>(u1 ^ second)));
            };
            std::vector<entry<Units>> got;
            t.scan_if(
                w, lane, k, semfp::detail::no_lane_skip,
                [&](std::uint16_t u0, std::uint16_t u1) { return pair_distance(u0, u1) <= k2; },
                [&](const std::uint16_t* u, std::uint32_t v) {
                    std::array<std::uint16_t, Units> a{};
                    for (unsigned x = 0; x < Units; ++x) a[x] = u[x];
                    got.push_back({a, v});
                });
            std::vector<entry<Units>> linear;
            for (const auto& e : it->second) {
                const auto d = static_cast<unsigned>(std::popcount(static_cast<unsigned>(e.first[0] ^ lane)));
                const std::uint16_t u1 = Units >= 2 ? e.first[Units >= 2 ? 1 : 0] : std::uint16_t{0};
                if (d <= k && pair_distance(e.first[0], u1) <= k2) linear.push_back(e);
            }
            CAPTURE(k, k2, it->second.size());
            REQUIRE(got == linear);
        }
    }
}

}  // namespace

TEST_CASE("packed_table keeps every entry, in order, across repacks", "[detail][packed_table]") {
    SECTION("primary layout (3 units and a value), heap blocks") { check_against_model<3, true>(11, 60'000, std::size_t{1} << 40); }
    SECTION("primary layout, huge-page arena from the first block") { check_against_model<3, true>(12, 60'000, 0); }
    SECTION("secondary layout (2 units, no value)") { check_against_model<2, false>(13, 60'000, std::size_t{1} << 40); }
    SECTION("one unit") { check_against_model<1, false>(14, 20'000, 0); }
    SECTION("eight units and a value") { check_against_model<8, true>(15, 20'000, std::size_t{1} << 40); }
    SECTION("primary layout with two lane arrays, heap blocks") {
        check_against_model<3, true, 2>(16, 60'000, std::size_t{1} << 40);
    }
    SECTION("two lane arrays, huge-page arena") {
        check_against_model<3, true, 2>(17, 60'000, 0);
    }
    SECTION("two lane arrays and nothing else (2 units, no value)") {
        check_against_model<2, false, 2>(18, 30'000, 0);
    }
    SECTION("two lane arrays, seven units and a value") {
        check_against_model<7, true, 2>(19, 20'000, std::size_t{1} << 40);
    }
}

TEST_CASE("packed_table copies keep what they copied", "[detail][packed_table]") {
    // A copy of a table (whole blocks) and further inserts into both stay independent.
    std::mt19937_64 rng(21);
    semfp::detail::packed_table<3, true> a;
    for (int i = 0; i < 5000; ++i) {
        const auto w = static_cast<std::uint16_t>(0x1100 | (rng() & 0x3F));
        const std::array<std::uint16_t, 3> u{static_cast<std::uint16_t>(rng()), static_cast<std::uint16_t>(i), 7};
        a.reserve_for(w);
        a.insert(w, u.data(), static_cast<std::uint32_t>(i));
    }
    const auto before = contents(a);
    semfp::detail::packed_table<3, true> b(a);
    REQUIRE(contents(b) == before);
    const std::array<std::uint16_t, 3> u{1, 2, 3};
    for (int i = 0; i < 3000; ++i) {
        b.reserve_for(0x1105);
        b.insert(0x1105, u.data(), 9);
    }
    REQUIRE(contents(a) == before);
    REQUIRE(b.size() == a.size() + 3000);
}

TEST_CASE("packed_tables sharing one arena keep their entries apart", "[detail][packed_table]") {
    // Two tables of different layouts take their blocks from one arena (huge pages from the
    // first block), filling the same windows in turns: each must read back exactly its own
    // entries, the arena must hold exactly their blocks, and a copy must use an arena of its own.
    auto arena = std::make_shared<semfp::detail::segment_arena>(0);
    semfp::detail::packed_table<3, true> a;
    semfp::detail::packed_table<2, false> b;
    a.use_arena(arena);
    b.use_arena(arena);
    model<3> want_a;
    model<2> want_b;
    std::mt19937_64 rng(31);
    for (int i = 0; i < 20'000; ++i) {
        const auto w = static_cast<std::uint16_t>(rng() % 3 == 0 ? (0x3300 | (rng() & 0xFF)) : rng());
        if (i % 2 == 0) {
            const std::array<std::uint16_t, 3> u{static_cast<std::uint16_t>(rng()), static_cast<std::uint16_t>(i), 5};
            a.reserve_for(w);
            a.insert(w, u.data(), static_cast<std::uint32_t>(i));
            want_a[w].push_back({u, static_cast<std::uint32_t>(i)});
        } else {
            const std::array<std::uint16_t, 2> u{static_cast<std::uint16_t>(rng()), static_cast<std::uint16_t>(i)};
            b.reserve_for(w);
            b.insert(w, u.data(), 0);
            want_b[w].push_back({u, 0});
        }
    }
    REQUIRE(contents(a) == want_a);
    REQUIRE(contents(b) == want_b);
    CHECK(&a.arena() == arena.get());
    CHECK(arena->mapped_bytes() > 0);
    // Block bytes are whole multiples of the alignment: the arena's live bytes are the tables'.
    const std::size_t seg_vectors = 2 * semfp::detail::packed_table<2, false>::segment_count;
    CHECK(arena->live_bytes() <= a.memory_bytes() + b.memory_bytes());
    CHECK(arena->live_bytes() + seg_vectors * 64 >= a.memory_bytes() + b.memory_bytes());
    {
        semfp::detail::packed_table<3, true> copy(a);
        CHECK(&copy.arena() != arena.get());
        REQUIRE(contents(copy) == want_a);
    }
    const std::size_t live = arena->live_bytes();
    a.clear();
    CHECK(arena->live_bytes() < live);
    REQUIRE(contents(b) == want_b);
    b.clear();
    CHECK(arena->live_bytes() == 0);
}
