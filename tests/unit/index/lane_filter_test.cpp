#include <semfp/detail/index_table.hpp>

#include "support/catch.hpp"

#include <array>
#include <bit>
#include <cstdint>
#include <random>
#include <vector>

namespace {

/// Bit i set iff lanes a[i] and q differ in at most k bits, by plain popcount.
std::uint32_t reference(const std::uint16_t* a, std::uint16_t q, unsigned k) {
    std::uint32_t m = 0;
    for (std::size_t i = 0; i < semfp::detail::lane_chunk; ++i)
        if (static_cast<unsigned>(std::popcount(static_cast<unsigned>(a[i] ^ q))) <= k) m |= std::uint32_t{1} << i;
    return m;
}

template <unsigned K>
void check_kernels(const std::uint16_t* a, std::uint16_t q) {
    const std::uint32_t want = reference(a, q, K);
    REQUIRE(semfp::detail::lane_filter<K>(a, q) == want);
    REQUIRE(semfp::detail::lane_filter_portable<K>(a, q) == want);
    REQUIRE(semfp::detail::lane_filter_within(a, q, K) == want);
}

}  // namespace

TEST_CASE("lane filter kernels agree with popcount", "[index][lanes]") {
    std::mt19937_64 rng(77);
    std::array<std::uint16_t, semfp::detail::lane_chunk> a{};
    for (int round = 0; round < 2000; ++round) {
        const auto q = static_cast<std::uint16_t>(rng());
        // Lanes near q (0..8 flipped bits), so every radius sees hits and misses.
        for (auto& x : a) {
            x = q;
            for (auto f = rng() % 9; f > 0; --f) x = static_cast<std::uint16_t>(x ^ (1u << (rng() % 16)));
        }
        check_kernels<0>(a.data(), q);
        check_kernels<1>(a.data(), q);
        check_kernels<2>(a.data(), q);
        check_kernels<3>(a.data(), q);
        check_kernels<4>(a.data(), q);
        check_kernels<5>(a.data(), q);
        check_kernels<6>(a.data(), q);
        check_kernels<7>(a.data(), q);
    }
}

TEST_CASE("for_each_lane_within reports lanes within k but not within skip", "[index][lanes]") {
    std::mt19937_64 rng(78);
    std::vector<std::uint16_t> lanes(53 + semfp::detail::lane_chunk, 0);
    for (int round = 0; round < 300; ++round) {
        const auto q = static_cast<std::uint16_t>(rng());
        const std::size_t n = 1 + rng() % 53;
        for (std::size_t i = 0; i < n; ++i) {
            lanes[i] = q;
            for (auto f = rng() % 6; f > 0; --f) lanes[i] = static_cast<std::uint16_t>(lanes[i] ^ (1u << (rng() % 16)));
        }
        for (unsigned k = 0; k <= 9; ++k) {
            for (const unsigned skip : {semfp::detail::no_lane_skip, 0u, 1u, 2u}) {
                std::vector<std::size_t> got;
                semfp::detail::for_each_lane_within(lanes.data(), n, q, k, skip, [&](std::size_t i) { got.push_back(i); });
                std::vector<std::size_t> want;
                for (std::size_t i = 0; i < n; ++i) {
                    const auto d = static_cast<unsigned>(std::popcount(static_cast<unsigned>(lanes[i] ^ q)));
                    if (d <= k && !(skip < k && d <= skip)) want.push_back(i);
                }
                CAPTURE(k, skip, n);
                REQUIRE(got == want);
            }
        }
    }
}
