#include "support/catch.hpp"

#include <semfp/core/hash.hpp>
#include <semfp/index/bloom_filter.hpp>

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>

namespace {
semfp::hash128_t key(std::uint64_t i) noexcept { return semfp::Murmur3::hash128_seeded(std::to_string(i), 7); }
}  // namespace

TEST_CASE("BloomFilter::for_capacity follows the textbook sizing", "[index][bloom]") {
    const auto f = semfp::BloomFilter::for_capacity(1000, 0.01);
    // m = ceil(1000 * 4.60517 / 0.480453) = 9586 -> 9600 (multiple of 64); k = round(9.586 * 0.693) = 7
    CHECK(f.bit_count() == 9600);
    CHECK(f.hash_count() == 7);
    CHECK(semfp::BloomFilter::for_capacity(1000, 0.001).hash_count() == 10);
    CHECK_THROWS_AS(semfp::BloomFilter::for_capacity(0, 0.01), semfp::invalid_argument_error);
    CHECK_THROWS_AS(semfp::BloomFilter::for_capacity(10, 1.0), semfp::invalid_argument_error);
    CHECK_THROWS_AS(semfp::BloomFilter::for_capacity(10, 0.0), semfp::invalid_argument_error);
    CHECK_THROWS_AS(semfp::BloomFilter(64, 0), semfp::invalid_argument_error);
}

TEST_CASE("BloomFilter has no false negatives and its FPR is within 3 sigma of the formula", "[index][bloom]") {
    const double p = GENERATE(0.01, 0.001);
    constexpr std::uint64_t n = 50'000;
    constexpr std::uint64_t trials = 400'000;
    auto f = semfp::BloomFilter::for_capacity(n, p);
    for (std::uint64_t i = 0; i < n; ++i) f.insert(key(i));
    for (std::uint64_t i = 0; i < n; ++i) REQUIRE(f.maybe_contains(key(i)));
    std::uint64_t fp = 0;
    for (std::uint64_t i = n; i < n + trials; ++i) fp += f.maybe_contains(key(i)) ? 1u : 0u;
    const double expected = f.expected_fpr();
    const double sigma = std::sqrt(expected * (1 - expected) / static_cast<double>(trials));
    const double measured = static_cast<double>(fp) / static_cast<double>(trials);
    INFO("p " << p << " expected " << expected << " measured " << measured << " sigma " << sigma);
    CHECK(std::abs(measured - expected) <= 3 * sigma);
    // The design rate is met at capacity (the formula's value for the rounded m and k).
    CHECK(expected <= p * 1.1);
}

TEST_CASE("BloomFilter keys: strings, fingerprints, test_and_insert", "[index][bloom]") {
    auto f = semfp::BloomFilter::for_capacity(100, 0.001);
    CHECK_FALSE(f.test_and_insert("alpha"));
    CHECK(f.test_and_insert("alpha"));
    CHECK(f.size() == 1);
    CHECK(f.maybe_contains("alpha"));
    const semfp::Fingerprint<128> a({1, 2});
    const semfp::Fingerprint<128> b({1, 3});  // similar fingerprints still probe different bits
    f.insert(a);
    CHECK(f.maybe_contains(a));
    CHECK_FALSE(f.maybe_contains(b));
}

TEST_CASE("BloomFilter merge needs the same geometry", "[index][bloom]") {
    auto a = semfp::BloomFilter::for_capacity(100, 0.01);
    auto b = semfp::BloomFilter::for_capacity(100, 0.01);
    a.insert("x");
    b.insert("y");
    a.merge(b);
    CHECK(a.maybe_contains("x"));
    CHECK(a.maybe_contains("y"));
    CHECK(a.size() == 2);
    auto c = semfp::BloomFilter::for_capacity(100, 0.001);
    CHECK_THROWS_AS(a.merge(c), semfp::invalid_argument_error);
}

TEST_CASE("BloomFilter saves and loads, bad streams leave it unchanged", "[index][bloom]") {
    auto f = semfp::BloomFilter::for_capacity(1000, 0.01);
    for (int i = 0; i < 500; ++i) f.insert(key(static_cast<std::uint64_t>(i)));
    std::stringstream ss;
    f.save(ss);
    const std::string bytes = ss.str();
    semfp::BloomFilter g(64, 1);
    std::istringstream in(bytes);
    g.load(in);
    CHECK(g == f);

    const semfp::BloomFilter before = g;
    auto expect_bad = [&](const std::string& data) {
        std::istringstream bad(data);
        CHECK_THROWS_AS(g.load(bad), semfp::format_error);
        CHECK(g == before);
    };
    expect_bad(bytes.substr(0, bytes.size() - 1));
    expect_bad(bytes.substr(0, 20));
    std::string flipped = bytes;
    flipped[40] = static_cast<char>(flipped[40] ^ 1);
    expect_bad(flipped);
    std::string foreign = bytes;
    foreign[5] = 'X';
    expect_bad(foreign);
    std::string huge = bytes;  // claims 2^40 bits but holds 1,000
    huge[16 + 5] = 1;
    expect_bad(huge);
}
