#include <semfp/detail/multi_index.hpp>
#include <semfp/detail/segment_arena.hpp>

#include "support/catch.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace {

struct block {
    std::byte* p;
    std::size_t n;
    std::uint8_t seed;
};

void fill(const block& b) {
    for (std::size_t i = 0; i < b.n; ++i) b.p[i] = static_cast<std::byte>(static_cast<std::uint8_t>(b.seed + i * 7));
}

bool intact(const block& b) {
    for (std::size_t i = 0; i < b.n; ++i)
        if (b.p[i] != static_cast<std::byte>(static_cast<std::uint8_t>(b.seed + i * 7))) return false;
    return true;
}

/// (value, distance) pairs within `k` of `q`, sorted.
std::vector<std::pair<std::uint32_t, unsigned>> within(const semfp::detail::multi_index<64>& index, std::uint64_t q,
                                                        unsigned k) {
    std::vector<std::pair<std::uint32_t, unsigned>> out;
    index.for_each_within({q}, k, [&](std::uint32_t v, unsigned d) { out.emplace_back(v, d); });
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

TEST_CASE("segment_arena blocks are aligned, disjoint and keep their contents through reuse", "[detail][index]") {
    // Threshold 0: every block from the huge-page mappings where the system has them.
    semfp::detail::segment_arena arena(0);
    std::mt19937_64 rng(11);
    std::vector<block> live;
    std::uint8_t seed = 0;
    for (int round = 0; round < 6; ++round) {
        for (int i = 0; i < 60; ++i) {
            // Sizes from a few bytes to 3 MiB: blocks larger than a huge page too.
            const std::size_t n = rng() % 4 == 0 ? 1 + rng() % (std::size_t{3} << 20) : 1 + rng() % 20000;
            block b{static_cast<std::byte*>(arena.allocate(n)), n, ++seed};
            REQUIRE(reinterpret_cast<std::uintptr_t>(b.p) % semfp::detail::segment_arena::alignment == 0);
            fill(b);
            live.push_back(b);
        }
        // Free about half, in random order, so that ranges merge and split.
        std::shuffle(live.begin(), live.end(), rng);
        const std::size_t keep = live.size() / 2;
        for (std::size_t i = keep; i < live.size(); ++i) {
            REQUIRE(intact(live[i]));
            arena.deallocate(live[i].p, live[i].n);
        }
        live.resize(keep);
        for (const block& b : live) REQUIRE(intact(b));
    }
    std::sort(live.begin(), live.end(), [](const block& a, const block& b) { return a.p < b.p; });
    for (std::size_t i = 1; i < live.size(); ++i) REQUIRE(live[i - 1].p + live[i - 1].n <= live[i].p);
    for (const block& b : live) arena.deallocate(b.p, b.n);
    CHECK(arena.live_bytes() == 0);
    // Whatever was mapped is reused: a second pass of the same sizes maps nothing new.
    const std::size_t mapped = arena.mapped_bytes();
    void* p = arena.allocate(1000);
    CHECK(arena.mapped_bytes() == mapped);
    arena.deallocate(p, 1000);
}

TEST_CASE("segment_arena serves small totals from the heap", "[detail][index]") {
    semfp::detail::segment_arena arena;
    std::vector<void*> blocks;
    for (int i = 0; i < 100; ++i) blocks.push_back(arena.allocate(4096));
    CHECK(arena.mapped_bytes() == 0);
    CHECK(arena.live_bytes() == 100 * 4096);
    semfp::detail::segment_arena moved(std::move(arena));
    for (void* p : blocks) moved.deallocate(p, 4096);
    CHECK(moved.live_bytes() == 0);
}

TEST_CASE("multi_index in huge-page segments answers exactly like the heap layout", "[detail][index]") {
    semfp::detail::multi_index<64> heap(3);
    semfp::detail::multi_index<64> huge(3);
    huge.set_arena_threshold(0);
    std::mt19937_64 rng(5);
    std::vector<std::uint64_t> keys;
    for (std::uint32_t i = 0; i < 60000; ++i) {
        std::uint64_t x = rng();
        if (i > 0 && rng() % 3 == 0) {
            x = keys[rng() % i];
            for (std::uint64_t f = rng() % 5; f > 0; --f) x ^= std::uint64_t{1} << (rng() % 64);
        }
        keys.push_back(x);
        heap.reserve_for({x});
        heap.insert({x}, i);
        huge.reserve_for({x});
        huge.insert({x}, i);
    }
    // Erase some entries from both.
    for (std::uint32_t i = 0; i < keys.size(); i += 7) {
        REQUIRE(heap.erase({keys[i]}, i));
        REQUIRE(huge.erase({keys[i]}, i));
    }
    const semfp::detail::multi_index<64> copy(huge);
    for (int q = 0; q < 400; ++q) {
        std::uint64_t x = keys[rng() % keys.size()];
        for (std::uint64_t f = rng() % 4; f > 0; --f) x ^= std::uint64_t{1} << (rng() % 64);
        for (const unsigned k : {3u, 5u}) {
            const auto want = within(heap, x, k);
            // Brute force over the entries left.
            std::vector<std::pair<std::uint32_t, unsigned>> brute;
            for (std::uint32_t i = 0; i < keys.size(); ++i) {
                const auto d = static_cast<unsigned>(std::popcount(keys[i] ^ x));
                if (i % 7 != 0 && d <= k) brute.emplace_back(i, d);
            }
            REQUIRE(want == brute);
            REQUIRE(within(huge, x, k) == want);
            REQUIRE(within(copy, x, k) == want);
        }
    }
    CHECK(huge.size() == heap.size());
}
