#pragma once
/// \file
/// CRC-32C (Castagnoli polynomial 0x1EDC6F41, reflected 0x82F63B78), the checksum of semfp's
/// saved indexes. Portable table-driven implementation (slicing by 8); crc32c("123456789") is
/// 0xE3069283.

#include <array>
#include <cstddef>
#include <cstdint>

namespace semfp {
inline namespace v0 {
namespace detail {

[[nodiscard]] constexpr std::array<std::array<std::uint32_t, 256>, 8> make_crc32c_tables() noexcept {
    std::array<std::array<std::uint32_t, 256>, 8> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t c = i;
        for (int k = 0; k < 8; ++k) c = (c & 1u) != 0 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        t[0][i] = c;
    }
    for (std::size_t s = 1; s < 8; ++s)
        for (std::size_t i = 0; i < 256; ++i) t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xFFu];
    return t;
}

inline constexpr auto crc32c_tables = make_crc32c_tables();

/// Continues a CRC-32C: `crc` is the value returned for the preceding bytes (0 to start).
[[nodiscard]] constexpr std::uint32_t crc32c_update(std::uint32_t crc, const unsigned char* data,
                                                    std::size_t size) noexcept {
    const auto& t = crc32c_tables;
    std::uint32_t c = ~crc;
    while (size >= 8) {
        const std::uint32_t lo = c ^ (static_cast<std::uint32_t>(data[0]) | static_cast<std::uint32_t>(data[1]) << 8 |
                                      static_cast<std::uint32_t>(data[2]) << 16 |
                                      static_cast<std::uint32_t>(data[3]) << 24);
        const std::uint32_t hi = static_cast<std::uint32_t>(data[4]) | static_cast<std::uint32_t>(data[5]) << 8 |
                                 static_cast<std::uint32_t>(data[6]) << 16 | static_cast<std::uint32_t>(data[7]) << 24;
        c = t[7][lo & 0xFFu] ^ t[6][(lo >> 8) & 0xFFu] ^ t[5][(lo >> 16) & 0xFFu] ^ t[4][lo >> 24] ^
            t[3][hi & 0xFFu] ^ t[2][(hi >> 8) & 0xFFu] ^ t[1][(hi >> 16) & 0xFFu] ^ t[0][hi >> 24];
        data += 8;
        size -= 8;
    }
    while (size-- > 0) c = (c >> 8) ^ t[0][(c ^ *data++) & 0xFFu];
    return ~c;
}

}  // namespace detail
}  // namespace v0
}  // namespace semfp
