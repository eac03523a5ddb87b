#pragma once
/// \file
/// The feature hashes of the fused fingerprint pass (fused_fingerprint.hpp), read from its padded
/// buffer: `fused_murmur3` (MurmurHash3 x64_128 with the one-word case inline), `fused_feature_bits`
/// (any policy; `Mixed<Murmur3>` and `Murmur3` without a `string_view`), and the two-loop form of
/// the 128-bit `Mixed<Murmur3>` (`fused_split_mix`). All give exactly the bits of
/// `detail::feature_bits<Bits, Hash>` on the same bytes; tests compare them.
/// `fused_hash_keyed` adds the sketch's token hash (`MinHashSketcher::token_hash`) of the same
/// bytes, for `SignatureFingerprinter`.

#include <semfp/concepts.hpp>
#include <semfp/core/fingerprint.hpp>
#include <semfp/core/fused_text.hpp>
#include <semfp/core/hash.hpp>
#include <semfp/core/simhash.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

namespace semfp {
inline namespace v0 {
namespace detail {

/// `Murmur3::hash128(string_view(p, len))` for a buffer readable up to `p + len + 15`, by the
/// general steps (any length). Kept out of line so that the short case inlines into the loops.
[[nodiscard]] [[gnu::noinline]] inline hash128_t fused_murmur3_blocks(const char* p, std::size_t len) noexcept {
    std::uint64_t h1 = 0, h2 = 0;
    const std::size_t nblocks = len / 16;
    for (std::size_t i = 0; i < nblocks; ++i)
        murmur3_block(h1, h2, fused_load_le64(p + i * 16), fused_load_le64(p + i * 16 + 8));
    const char* tail = p + nblocks * 16;
    const std::size_t rem = len & 15;
    if (rem > 8) h2 ^= murmur3_mix_k2(fused_low_bytes(fused_load_le64(tail + 8), rem - 8));
    if (rem > 0) h1 ^= murmur3_mix_k1(fused_low_bytes(fused_load_le64(tail), rem));
    return murmur3_finish(h1, h2, len);
}

/// `Murmur3::hash128(string_view(p, len))` for a buffer readable up to `p + len + 15`.
[[nodiscard]] inline hash128_t fused_murmur3(const char* p, std::size_t len) noexcept {
    if (len - 1 >= 8) return fused_murmur3_blocks(p, len);
    // Most tokens (every bigram of BMP characters): one tail word, no blocks.
    return murmur3_finish(murmur3_mix_k1(fused_low_bytes(fused_load_le64(p), len)), 0, len);
}

/// `feature_bits<Bits, Hash>(string_view(p, len))`, from a padded buffer.
template <std::size_t Bits, HashPolicy Hash>
[[nodiscard]] inline typename Fingerprint<Bits>::storage_type fused_feature_bits(const char* p, std::size_t len) noexcept {
    if constexpr (std::is_same_v<Hash, Murmur3>) {
        const hash128_t h = fused_murmur3(p, len);
        if constexpr (Bits == 64) return {h.lo};
        else return {h.hi, h.lo};
    } else if constexpr (std::is_same_v<Hash, Mixed<Murmur3>>) {
        const hash128_t h = fused_murmur3(p, len);
        if constexpr (Bits == 64) {
            return {fmix64(h.lo)};
        } else {
            const std::uint64_t lo = fmix64(h.lo ^ rotl64(h.hi, 29));
            return {fmix64(h.hi ^ lo), lo};
        }
    } else {
        return feature_bits<Bits, Hash>(std::string_view(p, len));
    }
}

/// True when `fused_fingerprint` hashes a batch in two loops: Murmur3 alone
/// (`fused_murmur3_words`) in the stopword-filter loop, the two `fmix64` rounds of the
/// finalizing mix (`fused_mix_murmur3_batch`) in a loop of their own. At 128 bits
/// `Mixed<Murmur3>` chains three dependent `fmix64` rounds per token (Murmur3's own and the
/// mix's two); in a single loop with the stopword test that chain limits how many tokens the
/// processor overlaps. The second loop's tokens are independent, and where the processor has
/// AVX-512DQ (64-bit vector multiplies) it mixes four hashes per instruction sequence.
template <std::size_t Bits, HashPolicy Hash>
inline constexpr bool fused_split_mix = Bits == 128 && std::is_same_v<Hash, Mixed<Murmur3>>;

/// `fused_split_mix`'s first loop: Murmur3's {hi, lo} words, from a padded buffer.
[[nodiscard]] inline std::array<std::uint64_t, 2> fused_murmur3_words(const char* p, std::size_t len) noexcept {
    const hash128_t h = fused_murmur3(p, len);
    return {h.hi, h.lo};
}

/// The feature hash of a token as the fused pass counts it (`fused_feature_bits<Bits, Hash>`, or
/// `fused_murmur3_words` when `fused_split_mix`), with the sketch's hash of the same token
/// (`MinHashSketcher::token_hash`: the high word of its MurmurHash3 x64_128 digest).
template <std::size_t Bits>
struct fused_keyed_hash {
    typename Fingerprint<Bits>::storage_type bits;
    std::uint64_t token_hash;
};

/// `fused_keyed_hash` of the bytes `p[0..len)` of a padded buffer. For the Murmur3 policies the
/// sketch's hash is the high word of the digest computed for the fingerprint (no extra work);
/// for any other policy the digest is computed for it alone.
template <std::size_t Bits, HashPolicy Hash>
[[nodiscard]] inline fused_keyed_hash<Bits> fused_hash_keyed(const char* p, std::size_t len) noexcept {
    if constexpr (fused_split_mix<Bits, Hash>) {
        const auto w = fused_murmur3_words(p, len);
        return {w, w[0]};
    } else if constexpr (std::is_same_v<Hash, Murmur3> || std::is_same_v<Hash, Mixed<Murmur3>>) {
        const hash128_t h = fused_murmur3(p, len);
        if constexpr (std::is_same_v<Hash, Murmur3>) {
            if constexpr (Bits == 64)
                return {{h.lo}, h.hi};
            else
                return {{h.hi, h.lo}, h.hi};
        } else {
            // Bits == 64 (128 is `fused_split_mix`).
            return {{fmix64(h.lo)}, h.hi};
        }
    } else {
        return {fused_feature_bits<Bits, Hash>(p, len), fused_murmur3(p, len).hi};
    }
}

/// `fused_split_mix`'s second loop on one hash: the words of `fused_murmur3_words` become
/// `fused_feature_bits<128, Mixed<Murmur3>>` of the same bytes ({hi, lo}).
inline void fused_mix_murmur3(std::array<std::uint64_t, 2>& h) noexcept {
    const std::uint64_t lo = fmix64(h[1] ^ rotl64(h[0], 29));
    h[0] = fmix64(h[0] ^ lo);
    h[1] = lo;
}

/// `fused_mix_murmur3` on `h[0..m)`, one hash after the other (the portable path).
inline void fused_mix_murmur3_scalar(std::array<std::uint64_t, 2>* h, std::size_t m) noexcept {
    for (std::size_t k = 0; k < m; ++k) fused_mix_murmur3(h[k]);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/// Eight 64-bit lanes (a compiler vector type: GCC's and clang's vector extensions, so no
/// intrinsics headers).
using fused_u64x8 = std::uint64_t __attribute__((vector_size(64)));

/// `fused_mix_murmur3_scalar` with AVX-512F/DQ, four hashes ({hi, lo} in adjacent lanes) per
/// step: the same `fmix64` rounds, lane by lane, so the same bits. Call only where
/// `fused_has_avx512dq()`.
[[gnu::target("avx512f,avx512dq")]] inline void fused_mix_murmur3_avx512(std::array<std::uint64_t, 2>* h,
                                                                       std::size_t m) noexcept {
    static_assert(sizeof(std::array<std::uint64_t, 2>) == 16);
    std::size_t k = 0;
    for (; k + 4 <= m; k += 4) {
        fused_u64x8 v;  // hi, lo, hi, lo, ...
        std::memcpy(&v, h + k, sizeof v);
        const fused_u64x8 swapped = __builtin_shufflevector(v, v, 1, 0, 3, 2, 5, 4, 7, 6);
        // Odd lanes: lo = fmix64(lo ^ rotl64(hi, 29)) (the even lanes' results are dropped).
        fused_u64x8 lo = v ^ ((swapped << 29) | (swapped >> 35));
        lo ^= lo >> 33;
        lo *= 0xff51afd7ed558ccdull;
        lo ^= lo >> 33;
        lo *= 0xc4ceb9fe1a85ec53ull;
        lo ^= lo >> 33;
        // Even lanes: hi = fmix64(hi ^ lo), with the new lo.
        fused_u64x8 hi = v ^ __builtin_shufflevector(lo, lo, 1, 0, 3, 2, 5, 4, 7, 6);
        hi ^= hi >> 33;
        hi *= 0xff51afd7ed558ccdull;
        hi ^= hi >> 33;
        hi *= 0xc4ceb9fe1a85ec53ull;
        hi ^= hi >> 33;
        const fused_u64x8 out = __builtin_shufflevector(hi, lo, 0, 9, 2, 11, 4, 13, 6, 15);
        std::memcpy(h + k, &out, sizeof out);
    }
    fused_mix_murmur3_scalar(h + k, m - k);
}

/// True when the processor runs AVX-512F and AVX-512DQ instructions (asked once).
[[nodiscard]] inline bool fused_has_avx512dq() noexcept {
    static const bool has = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
    }();
    return has;
}
#endif

/// `fused_split_mix`'s second loop: `fused_mix_murmur3` on `h[0..m)`, with AVX-512DQ where the
/// processor has it (measured on AMD EPYC: fingerprint<128> about 10 % less CPU time on
/// 2,000-character documents, bench/results/fingerprint_speed.md), else
/// `fused_mix_murmur3_scalar`.
inline void fused_mix_murmur3_batch(std::array<std::uint64_t, 2>* h, std::size_t m) noexcept {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (fused_has_avx512dq()) {
        fused_mix_murmur3_avx512(h, m);
        return;
    }
#endif
    fused_mix_murmur3_scalar(h, m);
}

}  // namespace detail
}  // namespace v0
}  // namespace semfp
