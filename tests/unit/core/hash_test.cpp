#include "support/catch.hpp"

#include <semfp/core/hash.hpp>

#include <bit>
#include <cstdint>
#include <string_view>

using namespace std::string_view_literals;

// Known-answer vectors: FNV-1a from the FNV reference test suite (64 bits) and the published
// 128-bit parameters; MurmurHash3 x64_128 (seed 0) from the reference implementation's output.
static_assert(semfp::Fnv1a::hash64("") == 0xcbf29ce484222325ull);
static_assert(semfp::Fnv1a::hash64("a") == 0xaf63dc4c8601ec8cull);
static_assert(semfp::Fnv1a::hash64("foobar") == 0x85944171f73967e8ull);
static_assert(semfp::Murmur3::hash64("hello") == 0xcbd8a7b341bd9b02ull);
static_assert(semfp::Sdbm::hash64("abc") == 0x613025f862ull);

TEST_CASE("FNV-1a known answers", "[hash]") {
    CHECK(semfp::Fnv1a::hash64("") == 0xcbf29ce484222325ull);
    CHECK(semfp::Fnv1a::hash64("a") == 0xaf63dc4c8601ec8cull);
    CHECK(semfp::Fnv1a::hash64("foobar") == 0x85944171f73967e8ull);
    CHECK(semfp::Fnv1a::hash128("") == semfp::hash128_t{0x62b821756295c58dull, 0x6c62272e07bb0142ull});
    CHECK(semfp::Fnv1a::hash128("a") == semfp::hash128_t{0x78912b704e4a8964ull, 0xd228cb696f1a8cafull});
    CHECK(semfp::Fnv1a::hash128("foobar") == semfp::hash128_t{0x6f0d3597ba446f18ull, 0x343e1662793c64bfull});
    // "中文" in UTF-8
    CHECK(semfp::Fnv1a::hash64("\xe4\xb8\xad\xe6\x96\x87") == 0x514dcc99d8cadec5ull);
    CHECK(semfp::Fnv1a::hash128("\xe4\xb8\xad\xe6\x96\x87") ==
          semfp::hash128_t{0x6d4aaa65a938bd95ull, 0xbb7d595af73c64bfull});
}

TEST_CASE("MurmurHash3 x64_128 known answers", "[hash]") {
    struct vec {
        std::string_view text;
        std::uint64_t h1, h2;
    };
    const vec vectors[] = {
        {""sv, 0, 0},
        {"hello"sv, 0xcbd8a7b341bd9b02ull, 0x5b1e906a48ae1d19ull},
        {"hello, world"sv, 0x342fac623a5ebc8eull, 0x4cdcbc079642414dull},
        {"19 Jan 2038 at 3:14:07 AM"sv, 0xb89e5988b737affcull, 0x664fc2950231b2cbull},
    };
    for (const auto& v : vectors) {
        CHECK(semfp::Murmur3::hash128(v.text) == semfp::hash128_t{v.h1, v.h2});
        CHECK(semfp::Murmur3::hash64(v.text) == v.h1);
    }
    CHECK(semfp::Murmur3::hash64("a") == 0x85555565f6597889ull);
    CHECK(semfp::Murmur3::hash64("0123456789abcdef") == 0x4be06d94cf4ad1a7ull);     // one full block
    CHECK(semfp::Murmur3::hash64("0123456789abcdefXYZ") == 0x99d375026c4a901dull);  // block + tail
    CHECK(semfp::Murmur3::hash64("The quick brown fox jumps over the lazy dog") == 0xe34bbc7bbc071b6cull);
}

TEST_CASE("SDBM is the paper's recurrence, 64 and 128 bits", "[hash]") {
    CHECK(semfp::Sdbm::hash64("") == 0);
    CHECK(semfp::Sdbm::hash64("a") == 0x61);
    CHECK(semfp::Sdbm::hash64("abc") == 0x613025f862ull);
    CHECK(semfp::Sdbm::hash64("\xe4\xb8\xad\xe6\x96\x87") == 0xecf7bbbb745e093eull);
    // 128-bit: same recurrence modulo 2^128; its low half is the 64-bit hash.
    CHECK(semfp::Sdbm::hash128("\xe4\xb8\xad\xe6\x96\x87") == semfp::hash128_t{0xecf7bbbb745e093eull, 0xe519ceull});
    // h = c + 65599 h (mod 2^64) for a longer input
    std::uint64_t h = 0;
    for (const char ch : std::string_view("semantic fingerprint")) h = static_cast<unsigned char>(ch) + 65599u * h;
    CHECK(semfp::Sdbm::hash64("semantic fingerprint") == h);
    CHECK(semfp::Sdbm::hash128("semantic fingerprint").lo == h);
}

TEST_CASE("Mixed applies a bijective finalizer", "[hash]") {
    using M = semfp::Mixed<semfp::Sdbm>;
    CHECK(M::hash64("abc") == semfp::detail::fmix64(0x613025f862ull));
    CHECK(M::hash64("abc") != semfp::Sdbm::hash64("abc"));
    // Short CJK words: raw SDBM leaves the top byte nearly constant, the mixed hash does not.
    const std::string_view words[] = {"\xe4\xb8\xad\xe6\x96\x87", "\xe6\x8c\x87\xe7\xba\xb9",
                                      "\xe6\x96\x87\xe6\x9c\xac", "\xe5\x8e\xbb\xe9\x87\x8d"};
    int raw_top_set = 0, mixed_top_set = 0;
    for (auto w : words) {
        raw_top_set += static_cast<int>(semfp::Sdbm::hash128(w).hi >> 63);
        mixed_top_set += static_cast<int>(M::hash128(w).hi >> 63);
        CHECK(semfp::Sdbm::hash128(w).hi < (1ull << 40));  // 6 bytes of SDBM reach ~2^100 only
    }
    CHECK(raw_top_set == 0);
    CHECK(mixed_top_set > 0);
}

TEST_CASE("128-bit helpers", "[hash]") {
    const auto p = semfp::detail::mul_64x64(0xFFFFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFFFull);
    CHECK(p.lo == 1);
    CHECK(p.hi == 0xFFFFFFFFFFFFFFFEull);
    const auto s = semfp::detail::sub_128({0, 1}, {1, 0});
    CHECK(s.lo == 0xFFFFFFFFFFFFFFFFull);
    CHECK(s.hi == 0);
}
