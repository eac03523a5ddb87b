#pragma once
/// \file
/// The feature hashes of the fused fingerprint pass (fused_fingerprint.hpp), read from its padded
/// buffer: `fused_murmur3` (MurmurHash3 x64_128 with the one-word case inline), `fused_feature_bits`
/// (any policy; `Mixed<Murmur3>` and `Murmur3` without a `string_view`). Both give exactly the
/// bits of `detail::feature_bits<Bits, Hash>` on the same bytes; tests compare them.

#include <semfp/concepts.hpp>
#include <semfp/core/fingerprint.hpp>
#include <semfp/core/fused_text.hpp>
#include <semfp/core/hash.hpp>
#include <semfp/core/simhash.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace semfp {
inline namespace v0 {
namespace detail {

/// `Murmur3::hash128(string_view(p, len))` for a buffer readable up to `p + len + 15`, by the
/// general steps (any length). Kept out of line so that the short case inlines into the loops.
[[nodiscard]] [[gnu::noinline]] inline hash128_t fused_murmur3_blocks(const char* p, std::size_t len) noexcept {
    constexpr std::uint64_t c1 = 0x87c37b91114253d5ull;
    constexpr std::uint64_t c2 = 0x4cf5ad432745937full;
    std::uint64_t h1 = 0, h2 = 0;
    const std::size_t nblocks = len / 16;
    for (std::size_t i = 0; i < nblocks; ++i) {
        std::uint64_t k1 = fused_load_le64(p + i * 16);
        std::uint64_t k2 = fused_load_le64(p + i * 16 + 8);
        k1 *= c1;
        k1 = rotl64(k1, 31);
        k1 *= c2;
        h1 ^= k1;
        h1 = rotl64(h1, 27);
        h1 += h2;
        h1 = h1 * 5 + 0x52dce729;
        k2 *= c2;
        k2 = rotl64(k2, 33);
        k2 *= c1;
        h2 ^= k2;
        h2 = rotl64(h2, 31);
        h2 += h1;
        h2 = h2 * 5 + 0x38495ab5;
    }
    const char* tail = p + nblocks * 16;
    const std::size_t rem = len & 15;
    if (rem > 8) {
        std::uint64_t k2 = fused_low_bytes(fused_load_le64(tail + 8), rem - 8);
        k2 *= c2;
        k2 = rotl64(k2, 33);
        k2 *= c1;
        h2 ^= k2;
    }
    if (rem > 0) {
        std::uint64_t k1 = fused_low_bytes(fused_load_le64(tail), rem);
        k1 *= c1;
        k1 = rotl64(k1, 31);
        k1 *= c2;
        h1 ^= k1;
    }
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

/// `Murmur3::hash128(string_view(p, len))` for a buffer readable up to `p + len + 15`.
[[nodiscard]] inline hash128_t fused_murmur3(const char* p, std::size_t len) noexcept {
    constexpr std::uint64_t c1 = 0x87c37b91114253d5ull;
    constexpr std::uint64_t c2 = 0x4cf5ad432745937full;
    if (len - 1 >= 8) return fused_murmur3_blocks(p, len);
    // Most tokens (every bigram of BMP characters): one tail word, no blocks.
    std::uint64_t k1 = fused_low_bytes(fused_load_le64(p), len);
    k1 *= c1;
    k1 = rotl64(k1, 31);
    k1 *= c2;
    std::uint64_t h1 = k1 ^ len;
    std::uint64_t h2 = len;
    h1 += h2;
    h2 += h1;
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 += h2;
    h2 += h1;
    return {h1, h2};
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

}  // namespace detail
}  // namespace v0
}  // namespace semfp
