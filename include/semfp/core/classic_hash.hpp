#pragma once
/// \file
/// `Lookup3` (Bob Jenkins' hashlittle2) and `Murmur64A` (Austin Appleby's MurmurHash64A) as hash
/// policies.
///
/// These are the table-lookup hashes that the crawler-era fingerprint systems (and many stores
/// that still hold their fingerprints) were built on; semfp offers them so a pipeline can
/// reproduce such a system's keys bit for bit. Both are implemented from their published
/// definitions, byte by byte (the results of the reference code on a little-endian machine),
/// `constexpr` and `noexcept`; their published self-test values are checked in the unit tests.
/// Neither has a native 128-bit form: `hash128` concatenates two independently seeded 64-bit
/// results, as documented on each policy.

#include <semfp/concepts.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace semfp {
inline namespace v0 {
namespace detail {

[[nodiscard]] constexpr std::uint32_t rotl32(std::uint32_t x, unsigned r) noexcept {
    return (x << r) | (x >> (32 - r));
}

/// The two 32-bit results of hashlittle2.
struct lookup3_pair {
    std::uint32_t c;  ///< the primary (better mixed) hash
    std::uint32_t b;  ///< the secondary hash
};

/// hashlittle2 of lookup3.c with initial values `pc` (primary) and `pb` (secondary).
[[nodiscard]] constexpr lookup3_pair hashlittle2(std::string_view key, std::uint32_t pc, std::uint32_t pb) noexcept {
    std::uint32_t a = 0xdeadbeefu + static_cast<std::uint32_t>(key.size()) + pc;
    std::uint32_t b = a;
    std::uint32_t c = a + pb;
    auto byte = [&](std::size_t i) noexcept { return std::uint32_t{static_cast<unsigned char>(key[i])}; };
    auto word = [&](std::size_t i) noexcept {
        return byte(i) | (byte(i + 1) << 8) | (byte(i + 2) << 16) | (byte(i + 3) << 24);
    };
    std::size_t pos = 0;
    std::size_t length = key.size();
    while (length > 12) {
        a += word(pos);
        b += word(pos + 4);
        c += word(pos + 8);
        // mix(a, b, c)
        a -= c; a ^= rotl32(c, 4);  c += b;
        b -= a; b ^= rotl32(a, 6);  a += c;
        c -= b; c ^= rotl32(b, 8);  b += a;
        a -= c; a ^= rotl32(c, 16); c += b;
        b -= a; b ^= rotl32(a, 19); a += c;
        c -= b; c ^= rotl32(b, 4);  b += a;
        length -= 12;
        pos += 12;
    }
    if (length == 0) return {c, b};  // the reference skips the final mix for an empty tail
    for (std::size_t i = 0; i < length; ++i) {
        const std::uint32_t v = byte(pos + i) << (8 * (i % 4));
        if (i < 4) a += v;
        else if (i < 8) b += v;
        else c += v;
    }
    // final(a, b, c)
    c ^= b; c -= rotl32(b, 14);
    a ^= c; a -= rotl32(c, 11);
    b ^= a; b -= rotl32(a, 25);
    c ^= b; c -= rotl32(b, 16);
    a ^= c; a -= rotl32(c, 4);
    b ^= a; b -= rotl32(a, 14);
    c ^= b; c -= rotl32(b, 24);
    return {c, b};
}

}  // namespace detail

/// Bob Jenkins' lookup3 `hashlittle2` as a hash policy. `hash64` is the reference's suggested
/// 64-bit value `c + (b << 32)` with both initial values 0; `hash128` has that as `lo` and, as
/// `hi`, the same with initial values (0x9e3779b9, 0x7f4a7c15).
struct Lookup3 {
    /// hashlittle2 with explicit initial values, as in lookup3.c.
    [[nodiscard]] static constexpr detail::lookup3_pair hashlittle2(std::string_view key, std::uint32_t pc,
                                                                    std::uint32_t pb) noexcept {
        return detail::hashlittle2(key, pc, pb);
    }
    /// hashlittle (the primary 32-bit result) with initial value `initval`.
    [[nodiscard]] static constexpr std::uint32_t hashlittle(std::string_view key, std::uint32_t initval) noexcept {
        return detail::hashlittle2(key, initval, 0).c;
    }
    [[nodiscard]] static constexpr std::uint64_t hash64(std::string_view s) noexcept {
        const auto r = detail::hashlittle2(s, 0, 0);
        return std::uint64_t{r.c} | (std::uint64_t{r.b} << 32);
    }
    [[nodiscard]] static constexpr hash128_t hash128(std::string_view s) noexcept {
        const auto r = detail::hashlittle2(s, 0x9e3779b9u, 0x7f4a7c15u);
        return {hash64(s), std::uint64_t{r.c} | (std::uint64_t{r.b} << 32)};
    }
};

/// MurmurHash64A (MurmurHash2, 64-bit, for 64-bit platforms) as a hash policy. `hash64` uses
/// seed 0; `hash128` has that as `lo` and the hash with seed 0x9e3779b97f4a7c15 as `hi`.
struct Murmur64A {
    /// MurmurHash64A of `s` with `seed`, as the reference computes it on a little-endian machine.
    [[nodiscard]] static constexpr std::uint64_t hash64_seeded(std::string_view s, std::uint64_t seed) noexcept {
        constexpr std::uint64_t m = 0xc6a4a7935bd1e995ull;
        constexpr unsigned r = 47;
        auto byte = [&](std::size_t i) noexcept { return std::uint64_t{static_cast<unsigned char>(s[i])}; };
        const std::size_t len = s.size();
        std::uint64_t h = seed ^ (static_cast<std::uint64_t>(len) * m);
        const std::size_t blocks = len / 8;
        for (std::size_t blk = 0; blk < blocks; ++blk) {
            std::uint64_t k = 0;
            for (std::size_t i = 0; i < 8; ++i) k |= byte(blk * 8 + i) << (8 * i);
            k *= m;
            k ^= k >> r;
            k *= m;
            h ^= k;
            h *= m;
        }
        const std::size_t rem = len & 7;
        if (rem != 0) {
            for (std::size_t i = rem; i > 0; --i) h ^= byte(blocks * 8 + i - 1) << (8 * (i - 1));
            h *= m;
        }
        h ^= h >> r;
        h *= m;
        h ^= h >> r;
        return h;
    }
    [[nodiscard]] static constexpr std::uint64_t hash64(std::string_view s) noexcept { return hash64_seeded(s, 0); }
    [[nodiscard]] static constexpr hash128_t hash128(std::string_view s) noexcept {
        return {hash64_seeded(s, 0), hash64_seeded(s, 0x9e3779b97f4a7c15ull)};
    }
};

}  // namespace v0
}  // namespace semfp
