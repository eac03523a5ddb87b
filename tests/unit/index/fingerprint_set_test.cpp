#include "support/catch.hpp"

#include <semfp/core/hash.hpp>
#include <semfp/index/fingerprint_set.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <sstream>
#include <string>

namespace {
semfp::Fingerprint<128> fp(std::uint64_t i) {
    const auto h = semfp::Murmur3::hash128_seeded(std::to_string(i), 3);
    return semfp::Fingerprint<128>({h.hi, h.lo});
}
}  // namespace

TEST_CASE("FingerprintSet is exact across compactions", "[index][fpset]") {
    semfp::FingerprintSet<128> s;
    for (std::uint64_t i = 0; i < 20'000; ++i) REQUIRE(s.insert(fp(i)));
    CHECK(s.size() == 20'000);
    for (std::uint64_t i = 0; i < 20'000; ++i) REQUIRE(s.contains(fp(i)));
    for (std::uint64_t i = 20'000; i < 40'000; ++i) REQUIRE_FALSE(s.contains(fp(i)));
    CHECK_FALSE(s.insert(fp(5)));
    CHECK(s.test_and_insert(fp(19'999)));
    CHECK_FALSE(s.test_and_insert(fp(40'000)));
    const auto all = s.sorted();
    CHECK(all.size() == 20'001);
    CHECK(std::is_sorted(all.begin(), all.end()));
}

TEST_CASE("FingerprintSet merge is a union", "[index][fpset]") {
    semfp::FingerprintSet<64> a, b;
    a.insert(semfp::Fingerprint<64>(1));
    a.insert(semfp::Fingerprint<64>(2));
    b.insert(semfp::Fingerprint<64>(2));
    b.insert(semfp::Fingerprint<64>(3));
    a.merge(b);
    CHECK(a.size() == 3);
    CHECK(a.contains(semfp::Fingerprint<64>(3)));
}

TEST_CASE("FingerprintSet saves and loads; bad streams leave it unchanged", "[index][fpset]") {
    semfp::FingerprintSet<128> s;
    for (std::uint64_t i = 0; i < 100; ++i) s.insert(fp(i));
    std::stringstream ss;
    s.save(ss);
    const std::string bytes = ss.str();
    CHECK(bytes.size() == 16 + 8 + 100 * 16 + 4);
    semfp::FingerprintSet<128> t;
    t.insert(fp(1000));
    std::istringstream in(bytes);
    t.load(in);
    CHECK(t.size() == 100);
    CHECK(t.contains(fp(7)));
    CHECK_FALSE(t.contains(fp(1000)));

    auto expect_bad = [&](const std::string& data) {
        std::istringstream bad(data);
        CHECK_THROWS_AS(t.load(bad), semfp::format_error);
        CHECK(t.size() == 100);
        CHECK(t.contains(fp(7)));
    };
    expect_bad(bytes.substr(0, bytes.size() - 3));
    std::string flipped = bytes;
    flipped[30] = static_cast<char>(flipped[30] ^ 4);
    expect_bad(flipped);
    semfp::FingerprintSet<64> narrow;
    std::istringstream wrong_width(bytes);
    CHECK_THROWS_AS(narrow.load(wrong_width), semfp::format_error);

    const auto path = std::filesystem::temp_directory_path() / "semfp_fpset_test.bin";
    s.save(path);
    semfp::FingerprintSet<128> u;
    u.load(path);
    CHECK(u.sorted() == s.sorted());
    std::filesystem::remove(path);
}
