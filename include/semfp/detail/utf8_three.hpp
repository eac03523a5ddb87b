#pragma once
// The value of a three-byte UTF-8 form, shared by every decoder that takes three-byte units (where
// CJK lives): the general decoder (utf8_codec.hpp), the segmenter's (seg_decode.hpp), the tries'
// (seg_dat.hpp), the fused fingerprint pass's (core/fused_text.hpp) and the period-string scan
// (signature/period_hashes.hpp). Each checks the bytes its own way first.

#include <cstdint>

namespace semfp {
inline namespace v0 {
namespace detail {

/// The code point of lead byte `b0` (E0..EF) and continuation bytes `b1`, `b2` (80..BF), which
/// the caller has checked.
[[nodiscard]] constexpr std::uint32_t utf8_three_byte_value(unsigned b0, unsigned b1, unsigned b2) noexcept {
    return ((b0 & 0x0Fu) << 12) | ((b1 & 0x3Fu) << 6) | (b2 & 0x3Fu);
}

}  // namespace detail
}  // namespace v0
}  // namespace semfp
