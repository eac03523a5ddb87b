#include "support/catch.hpp"

#include <semfp/image/colour_layout.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

struct picture {
    std::size_t w, h;
    std::vector<std::uint8_t> px;
    [[nodiscard]] semfp::rgb8_image view() const { return {px, w, h, 0}; }
};

// A synthetic "photo": a sky gradient, a red sun, a green hill and a blue lake, at any size
// (the scene is defined in relative coordinates, so sizes are resized copies of each other).
picture scene(std::size_t w, std::size_t h) {
    picture p{w, h, std::vector<std::uint8_t>(w * h * 3)};
    for (std::size_t y = 0; y < h; ++y)
        for (std::size_t x = 0; x < w; ++x) {
            const double u = (static_cast<double>(x) + 0.5) / static_cast<double>(w);
            const double v = (static_cast<double>(y) + 0.5) / static_cast<double>(h);
            std::uint8_t r = 60, g = 160, b = 230;  // sky
            if ((u - 0.75) * (u - 0.75) + (v - 0.2) * (v - 0.2) < 0.02) r = 240, g = 40, b = 30;  // sun
            if (v > 0.55 && u < 0.6) r = 30, g = 180, b = 40;                                      // hill
            if (v > 0.75 && u >= 0.6) r = 20, g = 30, b = 170;                                     // lake
            std::uint8_t* q = &p.px[(y * w + x) * 3];
            q[0] = r, q[1] = g, q[2] = b;
        }
    return p;
}

picture noisy(picture p, int amplitude, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> d(-amplitude, amplitude);
    for (auto& c : p.px) c = static_cast<std::uint8_t>(std::clamp(int{c} + d(rng), 0, 255));
    return p;
}

picture shifted(picture p, int dr, int dg, int db) {
    for (std::size_t i = 0; i < p.px.size(); i += 3) {
        p.px[i] = static_cast<std::uint8_t>(std::clamp(int{p.px[i]} + dr, 0, 255));
        p.px[i + 1] = static_cast<std::uint8_t>(std::clamp(int{p.px[i + 1]} + dg, 0, 255));
        p.px[i + 2] = static_cast<std::uint8_t>(std::clamp(int{p.px[i + 2]} + db, 0, 255));
    }
    return p;
}

}  // namespace

TEST_CASE("colour layout: a solid image and the palette letters", "[image]") {
    picture p{16, 16, std::vector<std::uint8_t>(16 * 16 * 3, 0)};
    for (std::size_t i = 0; i < p.px.size(); i += 3) p.px[i] = 250;  // red
    CHECK(semfp::colour_layout_signature(p.view(), {4, 2, semfp::colour_palette::basic8}) == "rrrrrrrr");
    CHECK(semfp::colour_layout_signature(p.view(), {2, 2, semfp::colour_palette::vga16}) == "9999");
    CHECK(semfp::colour_layout_signature(p.view(), {1, 1, semfp::colour_palette::rgb332}) == "e0");
}

TEST_CASE("colour layout survives resizing, noise and a mild colour shift", "[image]") {
    const semfp::colour_layout_options opt{8, 8, semfp::colour_palette::basic8};
    const auto base = semfp::colour_layout_signature(scene(160, 120).view(), opt);
    REQUIRE(base.size() == 64);
    CHECK(base.find('r') != std::string::npos);  // the sun
    CHECK(base.find('b') != std::string::npos);  // the lake
    CHECK(semfp::colour_layout_distance(base, semfp::colour_layout_signature(scene(97, 71).view(), opt)) <= 2);
    CHECK(semfp::colour_layout_distance(base, semfp::colour_layout_signature(scene(640, 480).view(), opt)) <= 2);
    CHECK(semfp::colour_layout_distance(base, semfp::colour_layout_signature(noisy(scene(160, 120), 25, 1).view(), opt)) <= 2);
    CHECK(semfp::colour_layout_distance(base, semfp::colour_layout_signature(shifted(scene(160, 120), 20, -15, 10).view(), opt)) <= 2);
    // A different picture (the scene mirrored top to bottom) is far away.
    picture flipped = scene(160, 120);
    for (std::size_t y = 0; y < 60; ++y)
        for (std::size_t i = 0; i < 160 * 3; ++i) std::swap(flipped.px[y * 480 + i], flipped.px[(119 - y) * 480 + i]);
    CHECK(semfp::colour_layout_distance(base, semfp::colour_layout_signature(flipped.view(), opt)) >= 20);
}

TEST_CASE("colour layout with 16 and 256 colours", "[image]") {
    const auto a16 = semfp::colour_layout_signature(scene(160, 120).view(), {8, 8, semfp::colour_palette::vga16});
    const auto b16 = semfp::colour_layout_signature(scene(120, 90).view(), {8, 8, semfp::colour_palette::vga16});
    CHECK(a16.size() == 64);
    CHECK(semfp::colour_layout_distance(a16, b16, semfp::colour_palette::vga16) <= 2);
    const auto a256 = semfp::colour_layout_signature(scene(160, 120).view(), {8, 8, semfp::colour_palette::rgb332});
    CHECK(a256.size() == 128);
    CHECK(semfp::colour_layout_distance(a256, a256, semfp::colour_palette::rgb332) == 0);
    CHECK(semfp::colour_layout_distance(a256, a256.substr(0, 120), semfp::colour_palette::rgb332) == 4);
}

TEST_CASE("colour layout rejects impossible geometry", "[image]") {
    const picture p = scene(10, 10);
    CHECK_THROWS_AS(semfp::colour_layout_signature(p.view(), {16, 4}), semfp::invalid_argument_error);
    CHECK_THROWS_AS(semfp::colour_layout_signature(p.view(), {0, 4}), semfp::invalid_argument_error);
    semfp::rgb8_image short_buffer{std::span<const std::uint8_t>(p.px).first(100), 10, 10, 0};
    CHECK_THROWS_AS(semfp::colour_layout_signature(short_buffer), semfp::invalid_argument_error);
    semfp::rgb8_image bad_stride{p.px, 10, 10, 20};
    CHECK_THROWS_AS(semfp::colour_layout_signature(bad_stride), semfp::invalid_argument_error);
    semfp::rgb8_image empty{{}, 0, 0, 0};
    CHECK_THROWS_AS(semfp::colour_layout_signature(empty), semfp::invalid_argument_error);
    // A padded stride is honoured.
    std::vector<std::uint8_t> padded(10 * 40, 0);
    for (std::size_t y = 0; y < 10; ++y)
        for (std::size_t i = 0; i < 30; ++i) padded[y * 40 + i] = p.px[y * 30 + i];
    CHECK(semfp::colour_layout_signature({padded, 10, 10, 40}, {2, 2}) == semfp::colour_layout_signature(p.view(), {2, 2}));
}
