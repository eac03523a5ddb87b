#include <semfp/core/sketch.hpp>

#include "support/catch.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <random>

namespace {

using semfp::detail::sketch_bins;
using semfp::detail::sketch_minima;

// The densification by its definition: each empty bin walks its probe sequence.
std::array<std::uint8_t, sketch_bins> walked(const sketch_minima& m) {
    std::array<std::uint8_t, sketch_bins> out{};
    for (std::size_t i = 0; i < sketch_bins; ++i)
        out[i] = m[i] != semfp::detail::sketch_empty_bin ? semfp::detail::sketch_bits(m[i], 0)
                                                         : semfp::detail::sketch_borrow(m, i);
    return out;
}

// Minima with `filled` non-empty bins at random positions.
sketch_minima random_minima(std::mt19937_64& rng, std::size_t filled) {
    sketch_minima m = semfp::detail::sketch_filled();
    std::array<std::size_t, sketch_bins> order{};
    for (std::size_t i = 0; i < sketch_bins; ++i) order[i] = i;
    for (std::size_t i = 0; i < filled; ++i) {
        std::swap(order[i], order[i + rng() % (sketch_bins - i)]);
        m[order[i]] = static_cast<std::uint32_t>(rng() & ((std::uint32_t{1} << 25) - 1));
    }
    return m;
}

constexpr semfp::MinHashSketch exact_of_three() {
    constexpr std::array<std::uint32_t, 3> hashes = {0x01234567u, 0x89ABCDEFu, 0xF0E1D2C3u};
    return semfp::MinHashSketch::exact(hashes.data(), hashes.size(), 3);
}

}  // namespace

TEST_CASE("sketch_densify: the probe table gives the bins of the probe walk", "[core][sketch]") {
    std::mt19937_64 rng(20261124);
    for (std::size_t filled = 1; filled <= sketch_bins; ++filled)
        for (int round = 0; round < (filled <= 40 ? 30 : 3); ++round) {
            const sketch_minima m = random_minima(rng, filled);
            INFO("non-empty bins " << filled);
            REQUIRE(semfp::detail::sketch_densify(m) == walked(m));
        }
    // One non-empty bin: the bins whose probes reach it only after the table's attempts take the
    // walk (a bin reaches a given bin within 510 attempts with probability about 98 %).
    std::size_t late = 0;
    for (std::size_t j = 0; j < sketch_bins; ++j) {
        sketch_minima m = semfp::detail::sketch_filled();
        m[j] = static_cast<std::uint32_t>(j * 977);
        REQUIRE(semfp::detail::sketch_densify(m) == walked(m));
        for (std::size_t i = 0; i < sketch_bins; ++i) late += semfp::detail::sketch_probes().first[j][i] == 0xFFFF;
    }
    CHECK(late > 0);
}

TEST_CASE("sketch_densify: the probe table records first visits", "[core][sketch]") {
    const auto& t = semfp::detail::sketch_probes();
    for (std::size_t i = 0; i < sketch_bins; i += 7)
        for (std::size_t j = 0; j < sketch_bins; ++j) {
            std::uint64_t first = 0;
            for (std::uint64_t a = 1; a <= semfp::detail::sketch_table_attempts && first == 0; ++a)
                if (semfp::detail::sketch_probe(i, a) == j) first = a;
            const std::uint16_t want = first == 0 ? std::uint16_t{0xFFFF} : static_cast<std::uint16_t>((first << 7) | j);
            REQUIRE(t.first[j][i] == want);
        }
}

TEST_CASE("MinHashSketch::values of an exact sketch: the same at compile time and at run time", "[core][sketch]") {
    constexpr semfp::MinHashSketch s = exact_of_three();
    constexpr semfp::MinHashSketch::bins_type at_compile_time = s.values();
    const semfp::MinHashSketch runtime = exact_of_three();
    REQUIRE(runtime.values() == at_compile_time);
    // Sets of every size an exact sketch holds, against the walk.
    std::mt19937_64 rng(7);
    for (std::size_t n = 1; n <= semfp::MinHashSketch::exact_capacity; ++n) {
        semfp::MinHashSketcher sk;
        for (std::size_t k = 0; k < n; ++k) sk.add_hash(rng());
        const semfp::MinHashSketch e = sk.finish();
        if (!e.is_exact()) continue;
        sketch_minima m = semfp::detail::sketch_filled();
        for (std::size_t k = 0; k < e.set_size(); ++k) semfp::detail::sketch_take(m, e.set_hash(k));
        REQUIRE(e.values() == walked(m));
    }
}
