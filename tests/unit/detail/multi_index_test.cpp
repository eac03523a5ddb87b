#include <semfp/detail/multi_index.hpp>

#include "support/catch.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace {

using pairs = std::vector<std::pair<std::uint32_t, unsigned>>;

pairs within(const semfp::detail::multi_index<64>& index, std::uint64_t q, unsigned k) {
    pairs out;
    index.for_each_within({q}, k, [&](std::uint32_t v, unsigned d) { out.emplace_back(v, d); });
    std::sort(out.begin(), out.end());
    return out;
}

pairs brute(const std::vector<std::uint64_t>& keys, std::uint64_t q, unsigned k) {
    pairs out;
    for (std::uint32_t i = 0; i < keys.size(); ++i) {
        const auto d = static_cast<unsigned>(std::popcount(keys[i] ^ q));
        if (d <= k) out.emplace_back(i, d);
    }
    return out;
}

/// Half the keys share the high byte of every 16-bit window, so that one segment of each
/// table grows past the size from which its buckets are aligned to cache lines; a third are
/// near copies (up to 4 bits) of earlier keys.
std::uint64_t planted_key(std::mt19937_64& rng, const std::vector<std::uint64_t>& keys) {
    std::uint64_t x = rng();
    if (rng() % 2 == 0) x = (x & 0x00FF00FF00FF00FFull) | 0x5A005A005A005A00ull;
    if (!keys.empty() && rng() % 3 == 0) {
        x = keys[rng() % keys.size()];
        for (std::uint64_t f = rng() % 5; f > 0; --f) x ^= std::uint64_t{1} << (rng() % 64);
    }
    return x;
}

void add(semfp::detail::multi_index<64>& index, std::vector<std::uint64_t>& keys, std::uint64_t x) {
    index.reserve_for({x});
    index.insert({x}, static_cast<std::uint32_t>(keys.size()));
    keys.push_back(x);
}

}  // namespace

TEST_CASE("multi_index with large, repeatedly repacked segments answers like brute force", "[detail][index]") {
    semfp::detail::multi_index<64> index(3);
    std::mt19937_64 rng(11);
    std::vector<std::uint64_t> keys;
    // Past 16 Ki entries in the planted segments: large segments, repacked several times.
    while (keys.size() < 50000) add(index, keys, planted_key(rng, keys));
    // Erase every ninth entry (entries move within their buckets).
    std::vector<bool> erased(keys.size(), false);
    for (std::uint32_t i = 0; i < keys.size(); i += 9) {
        REQUIRE(index.erase({keys[i]}, i));
        erased[i] = true;
    }
    const semfp::detail::multi_index<64> copy(index);
    for (int q = 0; q < 600; ++q) {
        std::uint64_t x = planted_key(rng, keys);
        for (std::uint64_t f = rng() % 4; f > 0; --f) x ^= std::uint64_t{1} << (rng() % 64);
        for (const unsigned k : {0u, 3u, 5u, 7u}) {
            pairs want = brute(keys, x, k);
            std::erase_if(want, [&](const std::pair<std::uint32_t, unsigned>& e) { return erased[e.first]; });
            REQUIRE(within(index, x, k) == want);
            REQUIRE(within(copy, x, k) == want);
        }
    }
}

TEST_CASE("multi_index for_each_within_until: entries not reported yet are at least the bound away",
          "[detail][index]") {
    // The bound lets a nearest-neighbour search stop early (SinglePassClusterer); a bound one
    // too high would drop a nearer or tying entry, so it is checked against every key.
    semfp::detail::multi_index<64> index(3);
    std::mt19937_64 rng(31);
    std::vector<std::uint64_t> keys;
    while (keys.size() < 20000) add(index, keys, planted_key(rng, keys));
    std::size_t calls = 0;
    std::size_t tight = 0;  // bounds that an unreported entry meets exactly
    for (int q = 0; q < 300; ++q) {
        std::uint64_t x = keys[rng() % keys.size()];
        for (std::uint64_t f = rng() % 5; f > 0; --f) x ^= std::uint64_t{1} << (rng() % 64);
        for (const unsigned k : {0u, 3u, 5u, 7u}) {
            std::vector<bool> seen(keys.size(), false);
            pairs got;
            bool bound_ok = true;
            index.for_each_within_until(
                {x}, k,
                [&](std::uint32_t v, unsigned d) {
                    seen[v] = true;
                    got.emplace_back(v, d);
                },
                [&](unsigned bound) {
                    ++calls;
                    for (std::uint32_t i = 0; i < keys.size(); ++i) {
                        const auto d = static_cast<unsigned>(std::popcount(keys[i] ^ x));
                        if (seen[i] || d > k) continue;
                        if (d < bound) bound_ok = false;
                        tight += d == bound;
                    }
                    return false;
                },
                q % 2 == 0);
            REQUIRE(bound_ok);
            std::sort(got.begin(), got.end());
            REQUIRE(got == brute(keys, x, k));  // never stopped: the whole answer
            // Stopping after the first step reports a part of it.
            pairs first;
            index.for_each_within_until(
                {x}, k, [&](std::uint32_t v, unsigned d) { first.emplace_back(v, d); },
                [](unsigned) { return true; }, false);
            std::sort(first.begin(), first.end());
            REQUIRE(std::includes(got.begin(), got.end(), first.begin(), first.end()));
        }
    }
    CHECK(calls > 1000);
    CHECK(tight > 0);  // the bound is reached, not only respected
}

TEST_CASE("multi_index builds each query plan on first use and keeps it", "[detail][index]") {
    semfp::detail::multi_index<64> index(3);
    constexpr unsigned limit = semfp::detail::max_radius_limit<64>;
    for (unsigned k = 0; k <= limit; ++k) CHECK_FALSE(index.has_plan(k));
    std::mt19937_64 rng(23);
    std::vector<std::uint64_t> keys;
    while (keys.size() < 3000) add(index, keys, planted_key(rng, keys));
    // Inserting needs no plan.
    for (unsigned k = 0; k <= limit; ++k) CHECK_FALSE(index.has_plan(k));

    const std::uint64_t q = keys[17] ^ 0x0101ull;
    CHECK(within(index, q, 5) == brute(keys, q, 5));
    CHECK(index.has_plan(5));
    for (unsigned k = 0; k <= limit; ++k)
        if (k != 5) CHECK_FALSE(index.has_plan(k));
    index.prefetch({q}, 2);  // a hint builds the plan it needs too
    CHECK(index.has_plan(2));
    CHECK_FALSE(index.has_plan(3));

    // A copy keeps the plans built so far and builds the others itself.
    const semfp::detail::multi_index<64> copy = index;
    CHECK(copy.has_plan(5));
    CHECK(copy.has_plan(2));
    CHECK_FALSE(copy.has_plan(12));
    for (unsigned k = 0; k <= limit; ++k) {
        const std::uint64_t x = keys[(k * 97) % keys.size()] ^ (std::uint64_t{1} << k);
        CHECK(within(copy, x, k) == brute(keys, x, k));
        CHECK(copy.has_plan(k));
    }
    CHECK_FALSE(index.has_plan(12));  // the copy's plans are its own
}

TEST_CASE("multi_index plans: every radius of every layout is a valid pigeonhole plan", "[detail][index]") {
    auto check_layout = [](const auto& index, unsigned limit) {
        for (unsigned k = 0; k <= limit; ++k) {
            const std::vector<semfp::detail::plan_step> plan = index.plan(k);
            REQUIRE_FALSE(plan.empty());
            unsigned units = 0;
            std::vector<bool> used(index.blocks().size(), false);
            for (std::size_t s = 0; s < plan.size(); ++s) {
                REQUIRE(plan[s].table < index.blocks().size());
                CHECK_FALSE(used[plan[s].table]);
                used[plan[s].table] = true;
                CHECK(plan[s].radius <= index.blocks()[plan[s].table].length);
                if (s > 0) CHECK(plan[s - 1].radius <= plan[s].radius);
                units += plan[s].radius + 1;
            }
            CHECK(units >= k + 1);
            // The kept plan is the one the vector form of the planner gives.
            const auto want = semfp::detail::make_plan(index.blocks(), k);
            REQUIRE(want.size() == plan.size());
            for (std::size_t s = 0; s < plan.size(); ++s) {
                CHECK(want[s].table == plan[s].table);
                CHECK(want[s].radius == plan[s].radius);
            }
        }
    };
    for (unsigned blocks = 1; blocks <= 4; ++blocks)
        check_layout(semfp::detail::multi_index<64>(3, blocks), semfp::detail::max_radius_limit<64>);
    for (unsigned blocks = 2; blocks <= 8; ++blocks)
        check_layout(semfp::detail::multi_index<128>(7, blocks), semfp::detail::max_radius_limit<128>);
}

namespace {

/// Keys that share a partial key of some secondary table with an earlier key: a copy with one
/// 16-bit window replaced (every secondary table of the 64-bit layout misses one window).
std::uint64_t sharing_key(std::mt19937_64& rng, const std::vector<std::uint64_t>& keys) {
    if (keys.empty() || rng() % 3 != 0) return planted_key(rng, keys);
    const unsigned shift = 16 * static_cast<unsigned>(rng() % 4);
    const std::uint64_t window = std::uint64_t{0xFFFF} << shift;
    return (keys[rng() % keys.size()] & ~window) | (rng() & window);
}

}  // namespace

TEST_CASE("multi_index insert hints from queries agree with the secondary tables", "[detail][index]") {
    // A query notes, for the tables its own buckets settle, whether the key's partial key is
    // held; an insert with the hint skips its own lookups. Every hint is checked against the
    // tables, and an index filled with hints must equal one filled without.
    for (const unsigned k : {0u, 3u, 5u, 7u}) {
        semfp::detail::multi_index<64> hinted(3);
        semfp::detail::multi_index<64> plain(3);
        std::mt19937_64 rng(41 + k);
        std::vector<std::uint64_t> keys;
        std::size_t settled = 0;  // table lookups a hint answered
        std::size_t held = 0;     // ... that found the partial key held
        while (keys.size() < 12000) {
            const std::uint64_t x = sharing_key(rng, keys);
            semfp::detail::multi_index<64>::insert_hint hint;
            hinted.for_each_within_until(
                {x}, k, [](std::uint32_t, unsigned) {}, [](unsigned) { return false; }, keys.size() % 2 == 0, &hint);
            for (unsigned t = 1; t < 4; ++t) {
                if ((hint.known >> t & 1u) == 0) continue;
                ++settled;
                const bool present = (hint.present >> t & 1u) != 0;
                held += present;
                REQUIRE(present == hinted.holds_partial_key(t, {x}));
            }
            hinted.reserve_for({x});
            hinted.insert({x}, static_cast<std::uint32_t>(keys.size()), &hint);
            plain.reserve_for({x});
            plain.insert({x}, static_cast<std::uint32_t>(keys.size()));
            keys.push_back(x);
        }
        // At radius 3 the four exact probes settle all three tables for every key.
        if (k == 3) CHECK(settled == 3 * keys.size());
        CHECK(settled > keys.size());
        CHECK(held > 100);
        CHECK(hinted.memory_bytes() == plain.memory_bytes());
        for (unsigned t = 1; t < 4; ++t)
            for (std::size_t i = 0; i < keys.size(); i += 7) REQUIRE(hinted.holds_partial_key(t, {keys[i]}));
        for (int q = 0; q < 200; ++q) {
            std::uint64_t x = keys[rng() % keys.size()];
            for (std::uint64_t f = rng() % 5; f > 0; --f) x ^= std::uint64_t{1} << (rng() % 64);
            REQUIRE(within(hinted, x, 5) == brute(keys, x, 5));
            REQUIRE(within(hinted, x, 5) == within(plain, x, 5));
        }
    }
}

TEST_CASE("multi_index note_inserted marks exactly the partial keys two keys share", "[detail][index]") {
    semfp::detail::multi_index<64> index(3);
    CHECK(index.max_shared_distance() == 16);
    std::mt19937_64 rng(43);
    for (int i = 0; i < 2000; ++i) {
        const std::uint64_t a = rng();
        std::uint64_t b = a;
        const unsigned shift = 16 * static_cast<unsigned>(rng() % 4);
        if (i % 2 == 0) b ^= (rng() & 0xFFFF) << shift;
        else b = rng();
        // An index holding only `b`: which partial keys of `a` does it hold?
        semfp::detail::multi_index<64> one(3);
        one.reserve_for({b});
        one.insert({b}, 0);
        semfp::detail::multi_index<64>::insert_hint hint;
        index.note_inserted(hint, {a}, {b});
        for (unsigned t = 1; t < 4; ++t) REQUIRE(((hint.present >> t & 1u) != 0) == one.holds_partial_key(t, {a}));
        if (std::popcount(a ^ b) > static_cast<int>(index.max_shared_distance())) REQUIRE(hint.present == 0);
    }
}
