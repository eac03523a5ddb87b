#include "support/catch.hpp"

#include <semfp/core/fingerprint.hpp>

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <unordered_set>

TEST_CASE("Hamming distance counts differing bits", "[fingerprint]") {
    using F = semfp::Fingerprint<64>;
    CHECK(semfp::hamming_distance(F{0}, F{0}) == 0);
    CHECK(semfp::hamming_distance(F{0}, F{~0ull}) == 64);
    CHECK(semfp::hamming_distance(F{0b1011}, F{0b0110}) == 3);
    using G = semfp::Fingerprint<128>;
    CHECK(semfp::hamming_distance(G{{1, 0}}, G{{0, 1}}) == 2);
    CHECK(semfp::hamming_distance(G{{~0ull, ~0ull}}, G{}) == 128);
    static_assert(semfp::hamming_distance(F{7}, F{0}) == 3);
}

TEST_CASE("Fingerprints order numerically", "[fingerprint]") {
    using G = semfp::Fingerprint<128>;
    CHECK(G{{0, 5}} < G{{1, 0}});
    CHECK(G{{1, 0}} < G{{1, 1}});
    CHECK(semfp::Fingerprint<64>{3} > semfp::Fingerprint<64>{2});
    CHECK(G{{2, 3}} == G{{2, 3}});
    CHECK(G{{0, 1}}.bit(0));
    CHECK(G{{1, 0}}.bit(64));
    CHECK_FALSE(G{{1, 0}}.bit(0));
}

TEMPLATE_TEST_CASE_SIG("hex round-trips", "[fingerprint]", ((std::size_t B), B), 64, 128) {
    using F = semfp::Fingerprint<B>;
    std::mt19937_64 rng(42);
    for (int i = 0; i < 200; ++i) {
        typename F::storage_type w{};
        for (auto& x : w) x = rng();
        const F f(w);
        const std::string hex = f.to_hex();
        CHECK(hex.size() == B / 4);
        CHECK(F::from_hex(hex) == f);
    }
    CHECK(F{}.to_hex() == std::string(B / 4, '0'));
}

TEST_CASE("hex parsing", "[fingerprint]") {
    using F = semfp::Fingerprint<64>;
    CHECK(F{0x0123456789abcdefull}.to_hex() == "0123456789abcdef");
    CHECK(F::from_hex("0123456789ABCDEF").value() == 0x0123456789abcdefull);
    CHECK(F::from_hex("0x00000000000000ff").value() == 0xff);
    REQUIRE_THROWS_AS(F::from_hex(""), semfp::parse_error);
    REQUIRE_THROWS_AS(F::from_hex("123"), semfp::parse_error);
    REQUIRE_THROWS_AS(F::from_hex("0123456789abcdef0"), semfp::parse_error);
    REQUIRE_THROWS_AS(F::from_hex("0123456789abcdeg"), semfp::parse_error);
    REQUIRE_THROWS_AS(F::from_hex(std::string("0123456789abcde\0", 16)), semfp::parse_error);
    try {
        (void)F::from_hex("01234567z9abcdef");
        FAIL("expected parse_error");
    } catch (const semfp::parse_error& e) {
        CHECK(e.column() == 9);
    }
    REQUIRE_THROWS_AS(semfp::Fingerprint<128>::from_hex("0123456789abcdef"), semfp::parse_error);
}

TEST_CASE("std::hash spreads fingerprints", "[fingerprint]") {
    std::unordered_set<std::size_t> seen;
    std::hash<semfp::Fingerprint<128>> h;
    for (std::uint64_t i = 0; i < 1000; ++i) seen.insert(h(semfp::Fingerprint<128>{{0, i}}));
    CHECK(seen.size() == 1000);
    std::unordered_set<semfp::Fingerprint<64>> set{semfp::Fingerprint<64>{1}, semfp::Fingerprint<64>{1}};
    CHECK(set.size() == 1);
}
