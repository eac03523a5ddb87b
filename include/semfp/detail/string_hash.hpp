#pragma once
// The hash of semfp's internal string sets (the stopword list's open-addressing table). text/
// must not depend on core/, where the fingerprint hash policies live, and a set only needs a
// fast, well-mixed 64-bit value, not a documented policy: FNV-1a over the bytes followed by
// MurmurHash3's 64-bit finalizer (the same value as `Mixed<Fnv1a>::hash64`, which a test checks).

#include <cstdint>
#include <string_view>

namespace semfp {
inline namespace v0 {
namespace detail {

/// FNV-1a 64 of `s`, finalized with MurmurHash3's fmix64. O(n), constexpr.
[[nodiscard]] constexpr std::uint64_t set_hash64(std::string_view s) noexcept {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (const char ch : s) {
        h ^= static_cast<unsigned char>(ch);
        h *= 0x00000100000001b3ull;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return h;
}

}  // namespace detail
}  // namespace v0
}  // namespace semfp
