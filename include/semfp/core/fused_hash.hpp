#pragma once
/// \file
/// The feature hashes of the fused fingerprint pass (fused_fingerprint.hpp), read from its padded
/// buffer: `fused_murmur3` (MurmurHash3 x64_128 with the one-word case inline), `fused_feature_bits`
/// (any policy; `Mixed<Murmur3>` and `Murmur3` without a `string_view`). Both give exactly the
/// bits of `detail::feature_bits<Bits, Hash>` on the same bytes; tests compare them.
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

/// True when `fused_fingerprint` hashes a batch in two loops: Murmur3 and the first `fmix64` of
/// the finalizing mix (`fused_murmur3_words`) in the stopword-filter loop, the last `fmix64`
/// (`fused_mix_murmur3`) in a loop of its own. At 128 bits `Mixed<Murmur3>` chains three
/// dependent `fmix64` rounds per token; in a single loop with the stopword test that chain limits
/// how many tokens the processor overlaps. Split so, the first loop's chain is as long as at 64
/// bits (measured: about 0.7 us less per 2,000-character document).
template <std::size_t Bits, HashPolicy Hash>
inline constexpr bool fused_split_mix = Bits == 128 && std::is_same_v<Hash, Mixed<Murmur3>>;

/// `fused_split_mix`'s first loop: {Murmur3's hi, the mixed lo word}, from a padded buffer.
[[nodiscard]] inline std::array<std::uint64_t, 2> fused_murmur3_words(const char* p, std::size_t len) noexcept {
    const hash128_t h = fused_murmur3(p, len);
    return {h.hi, fmix64(h.lo ^ rotl64(h.hi, 29))};
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
inline void fused_mix_murmur3(std::array<std::uint64_t, 2>& h) noexcept { h[0] = fmix64(h[0] ^ h[1]); }

}  // namespace detail
}  // namespace v0
}  // namespace semfp
