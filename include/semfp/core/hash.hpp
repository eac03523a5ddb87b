#pragma once
/// \file
/// Hash policies modelling `semfp::HashPolicy`: `Sdbm` (the paper's), `Fnv1a`, `Murmur3`, and the
/// `Mixed<H>` adaptor that applies a finalizing mix to another policy's output.
///
/// All policies are stateless, `constexpr`, `noexcept`, read bytes one at a time (no alignment or
/// endianness assumptions), and give identical results on every platform.

#include <semfp/concepts.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace semfp {
inline namespace v0 {
namespace detail {

/// Full 64 x 64 -> 128-bit product without compiler extensions.
[[nodiscard]] constexpr hash128_t mul_64x64(std::uint64_t a, std::uint64_t b) noexcept {
    const std::uint64_t a_lo = a & 0xFFFFFFFFu, a_hi = a >> 32;
    const std::uint64_t b_lo = b & 0xFFFFFFFFu, b_hi = b >> 32;
    const std::uint64_t p0 = a_lo * b_lo, p1 = a_lo * b_hi, p2 = a_hi * b_lo, p3 = a_hi * b_hi;
    const std::uint64_t mid = (p0 >> 32) + (p1 & 0xFFFFFFFFu) + (p2 & 0xFFFFFFFFu);
    return {(mid << 32) | (p0 & 0xFFFFFFFFu), p3 + (p1 >> 32) + (p2 >> 32) + (mid >> 32)};
}

[[nodiscard]] constexpr hash128_t add_128(hash128_t a, hash128_t b) noexcept {
    const std::uint64_t lo = a.lo + b.lo;
    return {lo, a.hi + b.hi + (lo < a.lo ? 1u : 0u)};
}

[[nodiscard]] constexpr hash128_t sub_128(hash128_t a, hash128_t b) noexcept {
    return {a.lo - b.lo, a.hi - b.hi - (a.lo < b.lo ? 1u : 0u)};
}

/// Left shift by 0 < n < 64.
[[nodiscard]] constexpr hash128_t shl_128(hash128_t a, unsigned n) noexcept {
    return {a.lo << n, (a.hi << n) | (a.lo >> (64 - n))};
}

[[nodiscard]] constexpr std::uint64_t rotl64(std::uint64_t x, int r) noexcept {
    return (x << r) | (x >> (64 - r));
}

/// MurmurHash3's 64-bit finalizer (a bijection with full avalanche).
[[nodiscard]] constexpr std::uint64_t fmix64(std::uint64_t k) noexcept {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    k ^= k >> 33;
    return k;
}

/// MurmurHash3 x64_128's mix of a block's or tail's first 64-bit lane (k1).
[[nodiscard]] constexpr std::uint64_t murmur3_mix_k1(std::uint64_t k) noexcept {
    return rotl64(k * 0x87c37b91114253d5ull, 31) * 0x4cf5ad432745937full;
}

/// MurmurHash3 x64_128's mix of a block's or tail's second 64-bit lane (k2).
[[nodiscard]] constexpr std::uint64_t murmur3_mix_k2(std::uint64_t k) noexcept {
    return rotl64(k * 0x4cf5ad432745937full, 33) * 0x87c37b91114253d5ull;
}

/// One 16-byte block (lanes `k1`, `k2`) into MurmurHash3 x64_128's state.
constexpr void murmur3_block(std::uint64_t& h1, std::uint64_t& h2, std::uint64_t k1, std::uint64_t k2) noexcept {
    h1 ^= murmur3_mix_k1(k1);
    h1 = rotl64(h1, 27);
    h1 += h2;
    h1 = h1 * 5 + 0x52dce729;
    h2 ^= murmur3_mix_k2(k2);
    h2 = rotl64(h2, 31);
    h2 += h1;
    h2 = h2 * 5 + 0x38495ab5;
}

/// MurmurHash3 x64_128's finalization of the state after `len` bytes (h1 as `lo`, h2 as `hi`).
[[nodiscard]] constexpr hash128_t murmur3_finish(std::uint64_t h1, std::uint64_t h2, std::size_t len) noexcept {
    h1 ^= len;
    h2 ^= len;
    h1 += h2;
    h2 += h1;
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 += h2;
    h2 += h1;
    return {h1, h2};
}

[[nodiscard]] constexpr std::uint64_t load_le64(std::string_view s, std::size_t pos) noexcept {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < 8; ++i) v |= std::uint64_t{static_cast<unsigned char>(s[pos + i])} << (8 * i);
    return v;
}

}  // namespace detail

/// SDBM exactly as the paper uses it: h = c + (h << 6) + (h << 16) - h over the bytes, from 0,
/// modulo 2^64. The 128-bit variant runs the same recurrence modulo 2^128 (its low half equals
/// the 64-bit hash). Short words leave the high bits nearly constant: combine with `Mixed`.
struct Sdbm {
    [[nodiscard]] static constexpr std::uint64_t hash64(std::string_view s) noexcept {
        std::uint64_t h = 0;
        for (char ch : s) h = static_cast<unsigned char>(ch) + (h << 6) + (h << 16) - h;
        return h;
    }
    [[nodiscard]] static constexpr hash128_t hash128(std::string_view s) noexcept {
        hash128_t h{};
        for (char ch : s) {
            const hash128_t c{static_cast<unsigned char>(ch), 0};
            h = detail::sub_128(detail::add_128(detail::add_128(c, detail::shl_128(h, 6)), detail::shl_128(h, 16)), h);
        }
        return h;
    }
};

/// FNV-1a (Fowler, Noll, Vo) with the published 64- and 128-bit offset bases and primes.
struct Fnv1a {
    static constexpr std::uint64_t offset64 = 0xcbf29ce484222325ull;
    static constexpr std::uint64_t prime64 = 0x00000100000001b3ull;
    static constexpr hash128_t offset128{0x62b821756295c58dull, 0x6c62272e07bb0142ull};
    // prime128 = 2^88 + 0x13B

    [[nodiscard]] static constexpr std::uint64_t hash64(std::string_view s) noexcept {
        std::uint64_t h = offset64;
        for (char ch : s) {
            h ^= static_cast<unsigned char>(ch);
            h *= prime64;
        }
        return h;
    }
    [[nodiscard]] static constexpr hash128_t hash128(std::string_view s) noexcept {
        hash128_t h = offset128;
        for (char ch : s) {
            h.lo ^= static_cast<unsigned char>(ch);
            // h * (2^88 + 0x13B) mod 2^128 = (h * 0x13B) + (h.lo << 88)
            hash128_t p = detail::mul_64x64(h.lo, 0x13B);
            p.hi += h.hi * 0x13B;
            p.hi += h.lo << 24;
            h = p;
        }
        return h;
    }
};

/// MurmurHash3 x64_128 (Austin Appleby) with seed 0. `hash128` returns the digest with the first
/// 64-bit state word (h1) as `lo` and the second (h2) as `hi`, which matches the byte order of the
/// reference implementation's output on little-endian machines; `hash64` is h1.
struct Murmur3 {
    [[nodiscard]] static constexpr hash128_t hash128_seeded(std::string_view s, std::uint64_t seed) noexcept {
        const std::size_t len = s.size();
        const std::size_t nblocks = len / 16;
        std::uint64_t h1 = seed, h2 = seed;
        for (std::size_t i = 0; i < nblocks; ++i)
            detail::murmur3_block(h1, h2, detail::load_le64(s, i * 16), detail::load_le64(s, i * 16 + 8));
        const std::size_t tail = nblocks * 16;
        const std::size_t rem = len & 15;
        std::uint64_t k1 = 0, k2 = 0;
        auto byte = [&](std::size_t i) noexcept { return std::uint64_t{static_cast<unsigned char>(s[tail + i])}; };
        for (std::size_t i = rem; i > 8; --i) k2 ^= byte(i - 1) << (8 * (i - 9));
        if (rem > 8) h2 ^= detail::murmur3_mix_k2(k2);
        for (std::size_t i = (rem < 8 ? rem : 8); i > 0; --i) k1 ^= byte(i - 1) << (8 * (i - 1));
        if (rem > 0) h1 ^= detail::murmur3_mix_k1(k1);
        return detail::murmur3_finish(h1, h2, len);
    }
    [[nodiscard]] static constexpr hash128_t hash128(std::string_view s) noexcept { return hash128_seeded(s, 0); }
    [[nodiscard]] static constexpr std::uint64_t hash64(std::string_view s) noexcept { return hash128_seeded(s, 0).lo; }
};

/// Applies a finalizing mix (MurmurHash3's fmix64, a bijection) to another policy's output so that
/// every output bit depends on every input bit. For 128 bits the halves are mixed in a Feistel-like
/// chain (also a bijection). Raw SDBM and FNV-1a leave the high bits of short CJK words nearly
/// constant, which makes Simhash bits nearly constant; mixing removes that bias at ~1 ns a word.
template <HashPolicy H>
struct Mixed {
    using base_policy = H;
    [[nodiscard]] static constexpr std::uint64_t hash64(std::string_view s) noexcept {
        return detail::fmix64(H::hash64(s));
    }
    [[nodiscard]] static constexpr hash128_t hash128(std::string_view s) noexcept {
        const hash128_t h = H::hash128(s);
        const std::uint64_t lo = detail::fmix64(h.lo ^ detail::rotl64(h.hi, 29));
        const std::uint64_t hi = detail::fmix64(h.hi ^ lo);
        return {lo, hi};
    }
};

}  // namespace v0
}  // namespace semfp
