#include <semfp/core/any_fingerprint.hpp>

#include "support/catch.hpp"

#include <string>

TEST_CASE("AnyFingerprint: width at run time, hex round trip, distance", "[core][fingerprint]") {
    const semfp::Fingerprint64 a64(0x0123456789abcdefull);
    const semfp::Fingerprint128 a128(semfp::Fingerprint128::storage_type{0x0123456789abcdefull, 1});
    const semfp::AnyFingerprint x = a64;
    const semfp::AnyFingerprint y = a128;
    REQUIRE(x.bits() == 64);
    REQUIRE(y.bits() == 128);
    REQUIRE(x.as<64>() == a64);
    REQUIRE_FALSE(x.as<128>().has_value());
    REQUIRE(y.as<128>() == a128);
    REQUIRE(x != y);  // same leading word, different widths
    REQUIRE(x.to_hex() == a64.to_hex());
    REQUIRE(y.to_hex() == a128.to_hex());
    REQUIRE(semfp::AnyFingerprint::from_hex(x.to_hex()) == x);
    REQUIRE(semfp::AnyFingerprint::from_hex(y.to_hex()) == y);
    REQUIRE(semfp::AnyFingerprint::from_hex("0x" + y.to_hex()) == y);
    REQUIRE_THROWS_AS(semfp::AnyFingerprint::from_hex("abc"), semfp::parse_error);
    REQUIRE_THROWS_AS(semfp::AnyFingerprint::from_hex(std::string(16, 'g')), semfp::parse_error);
    REQUIRE_THROWS_AS(semfp::AnyFingerprint::from_hex(""), semfp::parse_error);
    const semfp::AnyFingerprint x2 = semfp::Fingerprint64(0x0123456789abcdeeull);
    REQUIRE(semfp::hamming_distance(x, x2) == 1);
    REQUIRE(semfp::hamming_distance(y, y) == 0);
    REQUIRE_THROWS_AS(semfp::hamming_distance(x, y), semfp::invalid_argument_error);
    REQUIRE(semfp::AnyFingerprint{}.bits() == 64);
    REQUIRE(x < y);  // ordered by width first
}
