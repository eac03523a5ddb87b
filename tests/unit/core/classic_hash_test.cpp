#include "support/catch.hpp"

#include <semfp/concepts.hpp>
#include <semfp/core/classic_hash.hpp>

#include <cstdint>
#include <string_view>
#include <vector>

using namespace std::string_view_literals;

static_assert(semfp::HashPolicy<semfp::Lookup3>);
static_assert(semfp::HashPolicy<semfp::Murmur64A>);
static_assert(semfp::Lookup3::hashlittle("Four score and seven years ago", 0) == 0x17770551u);

TEST_CASE("Lookup3 reproduces lookup3.c's driver5 self-test values", "[hash][lookup3]") {
    struct vec {
        std::string_view key;
        std::uint32_t pc, pb, c, b;
    };
    constexpr std::string_view four = "Four score and seven years ago";
    const vec vectors[] = {
        {""sv, 0, 0, 0xdeadbeefu, 0xdeadbeefu},
        {""sv, 0, 0xdeadbeefu, 0xbd5b7ddeu, 0xdeadbeefu},
        {""sv, 0xdeadbeefu, 0xdeadbeefu, 0x9c093ccdu, 0xbd5b7ddeu},
        {four, 0, 0, 0x17770551u, 0xce7226e6u},
        {four, 0, 1, 0xe3607caeu, 0xbd371de4u},
        {four, 1, 0, 0xcd628161u, 0x6cbea4b3u},
    };
    for (const auto& v : vectors) {
        const auto r = semfp::Lookup3::hashlittle2(v.key, v.pc, v.pb);
        CHECK(r.c == v.c);
        CHECK(r.b == v.b);
    }
    CHECK(semfp::Lookup3::hashlittle(four, 0) == 0x17770551u);
    CHECK(semfp::Lookup3::hashlittle(four, 1) == 0xcd628161u);
    CHECK(semfp::Lookup3::hash64(four) == 0xce7226e617770551ull);
}

TEST_CASE("Lookup3 hashes every tail length differently", "[hash][lookup3]") {
    const std::string_view text = "0123456789abcdefghijklmnopqrstuvwxyz";
    std::vector<std::uint64_t> seen;
    for (std::size_t n = 0; n <= text.size(); ++n) {
        const std::uint64_t h = semfp::Lookup3::hash64(text.substr(0, n));
        for (const auto s : seen) CHECK(s != h);
        seen.push_back(h);
        const auto h128 = semfp::Lookup3::hash128(text.substr(0, n));
        CHECK(h128.lo == h);
        CHECK(h128.hi != h128.lo);
    }
}

TEST_CASE("Murmur64A passes SMHasher's verification (0x1F0D3804)", "[hash][murmur64a]") {
    // SMHasher's VerificationTest: hash the keys {}, {0}, {0,1}, ... {0..254} with seed 256 - n,
    // concatenate the 64-bit results little-endian, hash that with seed 0, keep the low 32 bits.
    unsigned char key[256]{};
    std::vector<char> hashes(256 * 8);
    for (std::size_t n = 0; n < 256; ++n) {
        key[n] = static_cast<unsigned char>(n);
        const std::uint64_t h =
            semfp::Murmur64A::hash64_seeded(std::string_view(reinterpret_cast<const char*>(key), n), 256 - n);
        for (std::size_t i = 0; i < 8; ++i) hashes[n * 8 + i] = static_cast<char>(static_cast<unsigned char>(h >> (8 * i)));
    }
    const std::uint64_t final_hash = semfp::Murmur64A::hash64_seeded(std::string_view(hashes.data(), hashes.size()), 0);
    CHECK((final_hash & 0xFFFFFFFFu) == 0x1F0D3804u);
}

TEST_CASE("Murmur64A hash128 halves are independently seeded", "[hash][murmur64a]") {
    const auto h = semfp::Murmur64A::hash128("\xe4\xb8\xad\xe6\x96\x87");
    CHECK(h.lo == semfp::Murmur64A::hash64("\xe4\xb8\xad\xe6\x96\x87"));
    CHECK(h.hi == semfp::Murmur64A::hash64_seeded("\xe4\xb8\xad\xe6\x96\x87", 0x9e3779b97f4a7c15ull));
    CHECK(h.hi != h.lo);
}
