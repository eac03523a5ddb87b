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

TEST_CASE("FingerprintSet saves and loads, bad streams leave it unchanged", "[index][fpset]") {
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

TEST_CASE("FingerprintSet holds the all-zero fingerprint (the table's empty marker)", "[index][fpset]") {
    semfp::FingerprintSet<64> s;
    const semfp::Fingerprint<64> zero{};
    CHECK_FALSE(s.contains(zero));
    CHECK(s.insert(zero));
    CHECK_FALSE(s.insert(zero));
    CHECK(s.contains(zero));
    CHECK(s.size() == 1);
    CHECK(s.insert(semfp::Fingerprint<64>(7)));
    const auto all = s.sorted();
    REQUIRE(all.size() == 2);
    CHECK(all[0] == zero);
    std::stringstream ss;
    s.save(ss);
    semfp::FingerprintSet<64> t;
    t.load(ss);
    CHECK(t.contains(zero));
    CHECK(t.contains(semfp::Fingerprint<64>(7)));
    CHECK(t.size() == 2);
}

TEST_CASE("FingerprintSet stays exact through growth with clustered keys", "[index][fpset]") {
    // Sequential keys and keys that differ only in the high word must all spread and be found.
    semfp::FingerprintSet<128> s;
    for (std::uint64_t i = 1; i <= 50'000; ++i) REQUIRE(s.insert(semfp::Fingerprint<128>({0, i})));
    for (std::uint64_t i = 1; i <= 50'000; ++i) REQUIRE(s.insert(semfp::Fingerprint<128>({i, 0})));
    CHECK(s.size() == 100'000);
    CHECK(s.capacity() * 3 >= s.size() * 4);
    for (std::uint64_t i = 1; i <= 50'000; ++i) {
        REQUIRE(s.contains(semfp::Fingerprint<128>({0, i})));
        REQUIRE(s.contains(semfp::Fingerprint<128>({i, 0})));
        REQUIRE_FALSE(s.contains(semfp::Fingerprint<128>({i, i})));
    }
    semfp::FingerprintSet<128> r;
    r.reserve(1000);
    const auto cap = r.capacity();
    for (std::uint64_t i = 0; i < 1000; ++i) r.insert(fp(i));
    CHECK(r.capacity() == cap);
    r.merge(s);
    CHECK(r.size() == 101'000);
    r.merge(r);
    CHECK(r.size() == 101'000);
}

TEST_CASE("FingerprintSet reads and writes the sorted-array format byte for byte", "[index][fpset]") {
    // Saved by the former sorted-array implementation: {0, 42, 0x0123456789abcdef,
    // 0xfedcba9876543210} as Fingerprint<64> (header, count 4, increasing values, CRC-32C).
    const std::string hex =
        "53454d46504650530100000040000000040000000000000000000000000000002a00000000000000"
        "efcdab89674523011032547698badcfe1df08088";
    std::string bytes;
    for (std::size_t i = 0; i < hex.size(); i += 2)
        bytes.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
    semfp::FingerprintSet<64> s;
    std::istringstream in(bytes);
    s.load(in);
    CHECK(s.size() == 4);
    for (const std::uint64_t v : {0x0123456789abcdefull, 0ull, 42ull, 0xfedcba9876543210ull})
        CHECK(s.contains(semfp::Fingerprint<64>(v)));
    CHECK_FALSE(s.contains(semfp::Fingerprint<64>(43)));
    // The same contents inserted in another order save to the same bytes.
    semfp::FingerprintSet<64> t;
    for (const std::uint64_t v : {0xfedcba9876543210ull, 42ull, 0ull, 0x0123456789abcdefull}) t.insert(semfp::Fingerprint<64>(v));
    std::ostringstream out;
    t.save(out);
    CHECK(out.str() == bytes);
    // A stream whose values are not increasing is refused, with the set unchanged.
    std::string unsorted = bytes;
    std::swap_ranges(unsorted.begin() + 32, unsorted.begin() + 40, unsorted.begin() + 40);
    std::istringstream bad(unsorted);
    CHECK_THROWS_AS(s.load(bad), semfp::format_error);
    CHECK(s.size() == 4);
}

TEST_CASE("FingerprintSet::reserve refuses impossible sizes", "[index][fpset]") {
    semfp::FingerprintSet<64> s;
    CHECK_THROWS_AS(s.reserve(~std::size_t{0}), semfp::invalid_argument_error);
    CHECK(s.empty());
}
