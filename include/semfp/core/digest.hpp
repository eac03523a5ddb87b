#pragma once
/// \file
/// `Md5`: the RFC 1321 message digest as a `HashPolicy`, for exact signatures.
///
/// Exact fingerprints (`exact_signature`, keyword fingerprints, I-Match) compare whole digests
/// for equality, so their hash must be collision-resistant in practice over billions of
/// documents, and should match what other systems compute for the same bytes: MD5 is what the
/// crawlers of the fingerprint articles stored, and its digests can be checked with `md5sum`.
/// It is not used for security. The implementation reads bytes one at a time (no alignment or
/// endianness assumptions) and is `constexpr`, so known answers are checked in `static_assert`.

#include <semfp/concepts.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace semfp {
inline namespace v0 {
namespace detail {

/// Incremental MD5 state (RFC 1321, section 3).
class md5_state {
public:
    constexpr md5_state() noexcept = default;

    /// Appends `bytes` to the message.
    constexpr void update(std::string_view bytes) noexcept {
        for (const char ch : bytes) {
            m_block[m_fill++] = static_cast<unsigned char>(ch);
            if (m_fill == 64) {
                compress();
                m_fill = 0;
            }
        }
        m_length += bytes.size();
    }

    /// Pads, and returns the 16-byte digest in RFC order (the order `md5sum` prints).
    [[nodiscard]] constexpr std::array<unsigned char, 16> finish() noexcept {
        const std::uint64_t bit_length = static_cast<std::uint64_t>(m_length) * 8u;
        m_block[m_fill++] = 0x80;
        if (m_fill > 56) {
            while (m_fill < 64) m_block[m_fill++] = 0;
            compress();
            m_fill = 0;
        }
        while (m_fill < 56) m_block[m_fill++] = 0;
        for (int i = 0; i < 8; ++i) m_block[m_fill++] = static_cast<unsigned char>(bit_length >> (8 * i));
        compress();
        m_fill = 0;
        std::array<unsigned char, 16> out{};
        for (std::size_t w = 0; w < 4; ++w)
            for (std::size_t i = 0; i < 4; ++i) out[w * 4 + i] = static_cast<unsigned char>(m_state[w] >> (8 * i));
        return out;
    }

private:
    [[nodiscard]] static constexpr std::uint32_t rotl(std::uint32_t x, unsigned r) noexcept {
        return (x << r) | (x >> (32 - r));
    }

    constexpr void compress() noexcept {
        // T[i] = floor(2^32 * abs(sin(i + 1))) and the per-round shifts of RFC 1321.
        constexpr std::uint32_t t[64] = {
            0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
            0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
            0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
            0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
            0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
            0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
            0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
            0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};
        constexpr unsigned s[16] = {7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21};
        std::uint32_t x[16]{};
        for (std::size_t i = 0; i < 16; ++i)
            x[i] = std::uint32_t{m_block[i * 4]} | (std::uint32_t{m_block[i * 4 + 1]} << 8) |
                   (std::uint32_t{m_block[i * 4 + 2]} << 16) | (std::uint32_t{m_block[i * 4 + 3]} << 24);
        std::uint32_t a = m_state[0], b = m_state[1], c = m_state[2], d = m_state[3];
        for (std::size_t i = 0; i < 64; ++i) {
            std::uint32_t f = 0;
            std::size_t g = 0;
            if (i < 16) {
                f = (b & c) | (~b & d);
                g = i;
            } else if (i < 32) {
                f = (d & b) | (~d & c);
                g = (5 * i + 1) % 16;
            } else if (i < 48) {
                f = b ^ c ^ d;
                g = (3 * i + 5) % 16;
            } else {
                f = c ^ (b | ~d);
                g = (7 * i) % 16;
            }
            const std::uint32_t next = b + rotl(a + f + t[i] + x[g], s[(i / 16) * 4 + i % 4]);
            a = d;
            d = c;
            c = b;
            b = next;
        }
        m_state[0] += a;
        m_state[1] += b;
        m_state[2] += c;
        m_state[3] += d;
    }

    std::uint32_t m_state[4] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};
    unsigned char m_block[64]{};
    std::size_t m_fill = 0;
    std::size_t m_length = 0;
};

/// Big-endian load of 8 digest bytes.
[[nodiscard]] constexpr std::uint64_t load_be64(const std::array<unsigned char, 16>& d, std::size_t pos) noexcept {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < 8; ++i) v = (v << 8) | d[pos + i];
    return v;
}

}  // namespace detail

/// MD5 (RFC 1321) as a hash policy. `hash128` is the digest read as a big-endian 128-bit number
/// (`hi` = digest bytes 0-7, `lo` = bytes 8-15), so a `Fingerprint<128>` built from it prints the
/// same hexadecimal string as `md5sum`; `hash64` is the `hi` half. About 300 MB/s; use it where
/// digests are compared for equality, not per token of a Simhash.
struct Md5 {
    /// The 16-byte digest of `bytes`, in RFC order.
    [[nodiscard]] static constexpr std::array<unsigned char, 16> digest(std::string_view bytes) noexcept {
        detail::md5_state st;
        st.update(bytes);
        return st.finish();
    }
    [[nodiscard]] static constexpr hash128_t hash128(std::string_view bytes) noexcept {
        const auto d = digest(bytes);
        return {detail::load_be64(d, 8), detail::load_be64(d, 0)};
    }
    [[nodiscard]] static constexpr std::uint64_t hash64(std::string_view bytes) noexcept {
        return detail::load_be64(digest(bytes), 0);
    }
};

}  // namespace v0
}  // namespace semfp
