#pragma once
/// \file
/// `BloomFilter`: a space-efficient "seen before?" store for exact signatures (keyword
/// fingerprints, I-Match, exact digests), the crawler articles' alternative to a database of
/// fingerprints.
///
/// A filter of m bits with k probes answers "maybe seen" for every key inserted (never a false
/// negative) and, after n insertions, wrongly for other keys with probability about
/// (1 - e^(-kn/m))^k. `for_capacity(n, p)` sizes it for n keys at false-positive rate p with the
/// textbook optimum m = -n ln p / (ln 2)^2 bits and k = (m / n) ln 2 probes (about 9.6 bits a key
/// at 1 %, 14.4 at 0.1 %). The k probe positions come from one 128-bit hash by double hashing,
/// g_i = h1 + i h2 (Kirsch and Mitzenmacher: the same asymptotic false-positive rate as k
/// independent hashes), each reduced to [0, m) by a multiply-shift instead of a division. Keys
/// are strings (hashed with `Murmur3`), 128-bit hashes the caller computed, or fingerprints
/// (their words are mixed first, because Simhash fingerprints of similar texts are similar).
/// Persistence uses the checksummed format of serialization.hpp (magic "SEMFPBLM").

#include <semfp/concepts.hpp>
#include <semfp/core/fingerprint.hpp>
#include <semfp/core/hash.hpp>
#include <semfp/error.hpp>
#include <semfp/index/serialization.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace semfp {
inline namespace v0 {

/// A Bloom filter over 128-bit key hashes. Queries are `noexcept` and allocation-free; not
/// thread-safe for concurrent inserts.
///
/// Saved format (body after the common 16-byte header with width 128): u64 m (bits), u32 k,
/// u64 number of insertions, then m / 64 u64 words; then the CRC-32C.
class BloomFilter {
public:
    /// Largest number of probes accepted.
    static constexpr unsigned max_hashes = 64;

    /// A filter with (at least) `bits` bits, rounded up to a multiple of 64, and `hashes` probes.
    /// \throws invalid_argument_error if `bits` is 0 or `hashes` is not in 1..max_hashes.
    BloomFilter(std::uint64_t bits, unsigned hashes) {
        if (bits == 0 || bits > (std::uint64_t{1} << 48)) detail::throw_invalid_argument("BloomFilter: bits must be in 1..2^48");
        if (hashes == 0 || hashes > max_hashes) detail::throw_invalid_argument("BloomFilter: hashes must be in 1..64");
        m_words.assign(static_cast<std::size_t>((bits + 63) / 64), 0);
        m_bits = static_cast<std::uint64_t>(m_words.size()) * 64;
        m_hashes = hashes;
    }

    /// A filter sized for `n` keys at false-positive rate `p`: m = ceil(-n ln p / (ln 2)^2) bits
    /// (rounded up to a multiple of 64) and k = round((m / n) ln 2) probes (at least 1).
    /// \throws invalid_argument_error if n is 0 or p is not in (0, 1).
    [[nodiscard]] static BloomFilter for_capacity(std::uint64_t n, double p) {
        if (n == 0) detail::throw_invalid_argument("BloomFilter: capacity must be >= 1");
        if (!(p > 0.0 && p < 1.0)) detail::throw_invalid_argument("BloomFilter: false-positive rate must be in (0, 1)");
        const double ln2 = std::log(2.0);
        const double m = std::ceil(-static_cast<double>(n) * std::log(p) / (ln2 * ln2));
        if (!(m <= 281474976710656.0)) detail::throw_invalid_argument("BloomFilter: capacity too large");
        const double k = std::round(m / static_cast<double>(n) * ln2);
        return BloomFilter(static_cast<std::uint64_t>(m), static_cast<unsigned>(k < 1 ? 1 : (k > max_hashes ? max_hashes : k)));
    }

    /// Inserts a key given by its 128-bit hash (used as is: it must be well mixed).
    void insert(const hash128_t& h) noexcept {
        for_each_probe(h, [&](std::uint64_t bit) noexcept {
            m_words[static_cast<std::size_t>(bit >> 6)] |= std::uint64_t{1} << (bit & 63);
            return true;
        });
        ++m_count;
    }
    /// Inserts a string key (hashed with `Murmur3`).
    void insert(std::string_view key) noexcept { insert(Murmur3::hash128(key)); }
    /// Inserts a fingerprint.
    template <std::size_t Bits>
    void insert(const Fingerprint<Bits>& fp) noexcept {
        insert(mix(fp));
    }

    /// False if the key was certainly never inserted; true if it probably was.
    [[nodiscard]] bool maybe_contains(const hash128_t& h) const noexcept {
        return for_each_probe(h, [&](std::uint64_t bit) noexcept {
            return ((m_words[static_cast<std::size_t>(bit >> 6)] >> (bit & 63)) & 1u) != 0;
        });
    }
    /// \copydoc maybe_contains(const hash128_t&) const
    [[nodiscard]] bool maybe_contains(std::string_view key) const noexcept { return maybe_contains(Murmur3::hash128(key)); }
    /// \copydoc maybe_contains(const hash128_t&) const
    template <std::size_t Bits>
    [[nodiscard]] bool maybe_contains(const Fingerprint<Bits>& fp) const noexcept {
        return maybe_contains(mix(fp));
    }

    /// Inserts the key and returns whether it was (probably) present before. One pass over the
    /// probes; the insertion count grows only for keys not already present.
    bool test_and_insert(const hash128_t& h) noexcept {
        bool present = true;
        for_each_probe(h, [&](std::uint64_t bit) noexcept {
            std::uint64_t& w = m_words[static_cast<std::size_t>(bit >> 6)];
            const std::uint64_t mask = std::uint64_t{1} << (bit & 63);
            if ((w & mask) == 0) present = false;
            w |= mask;
            return true;
        });
        if (!present) ++m_count;
        return present;
    }
    /// \copydoc test_and_insert(const hash128_t&)
    bool test_and_insert(std::string_view key) noexcept { return test_and_insert(Murmur3::hash128(key)); }
    /// \copydoc test_and_insert(const hash128_t&)
    template <std::size_t Bits>
    bool test_and_insert(const Fingerprint<Bits>& fp) noexcept {
        return test_and_insert(mix(fp));
    }

    /// The false-positive rate the formula predicts after the insertions so far:
    /// (1 - e^(-k n / m))^k.
    [[nodiscard]] double expected_fpr() const noexcept { return expected_fpr(m_count); }
    /// The false-positive rate the formula predicts after `n` insertions.
    [[nodiscard]] double expected_fpr(std::uint64_t n) const noexcept {
        const double k = m_hashes;
        return std::pow(1.0 - std::exp(-k * static_cast<double>(n) / static_cast<double>(m_bits)), k);
    }

    /// Adds every key of `other` (bitwise or; the insertion counts add up).
    /// \throws invalid_argument_error unless both have the same bits and probes.
    void merge(const BloomFilter& other) {
        if (other.m_bits != m_bits || other.m_hashes != m_hashes)
            detail::throw_invalid_argument("BloomFilter: merge needs the same number of bits and hashes");
        for (std::size_t i = 0; i < m_words.size(); ++i) m_words[i] |= other.m_words[i];
        m_count += other.m_count;
    }

    /// Number of bits m.
    [[nodiscard]] std::uint64_t bit_count() const noexcept { return m_bits; }
    /// Number of probes k.
    [[nodiscard]] unsigned hash_count() const noexcept { return m_hashes; }
    /// Number of insertions (of keys not already present, for `test_and_insert`).
    [[nodiscard]] std::uint64_t size() const noexcept { return m_count; }

    /// Writes the filter to `os`. \throws io_error
    void save(std::ostream& os) const {
        detail::binary_writer w(os);
        w.header(magic, 128);
        w.u64(m_bits);
        w.u32(m_hashes);
        w.u64(m_count);
        for (const std::uint64_t word : m_words) w.u64(word);
        w.finish();
    }
    /// Saves to `path` atomically (temporary file + rename). \throws io_error
    void save(const std::filesystem::path& path) const {
        detail::save_file_atomically(path, [&](std::ostream& os) { save(os); });
    }

    /// Replaces this filter with one read from `is`. \throws format_error (with the byte offset)
    /// on a truncated, corrupted or foreign stream; the filter is then unchanged.
    void load(std::istream& is) {
        detail::binary_reader r(is);
        r.header(magic, 128);
        const std::size_t at = r.offset();
        const std::uint64_t bits = r.u64();
        const std::uint32_t hashes = r.u32();
        if (bits == 0 || bits % 64 != 0 || bits > (std::uint64_t{1} << 48))
            detail::throw_format_error("semfp: invalid Bloom filter size", at);
        if (hashes == 0 || hashes > max_hashes) detail::throw_format_error("semfp: invalid Bloom filter hash count", at + 8);
        const std::uint64_t count = r.u64();
        std::vector<std::uint64_t> words;
        // Grow as the data arrives: a corrupted size cannot make us allocate before the stream
        // proves it holds that much.
        for (std::uint64_t i = 0; i < bits / 64; ++i) words.push_back(r.u64());
        r.finish();
        BloomFilter next(bits, hashes);
        next.m_words = std::move(words);
        next.m_count = count;
        *this = std::move(next);
    }
    /// Loads from `path`. \throws io_error if it cannot be opened, format_error as above.
    void load(const std::filesystem::path& path) {
        detail::load_file(path, [&](std::istream& is) { load(is); });
    }

    friend bool operator==(const BloomFilter&, const BloomFilter&) = default;

private:
    static constexpr std::string_view magic = "SEMFPBLM";

    template <std::size_t Bits>
    [[nodiscard]] static constexpr hash128_t mix(const Fingerprint<Bits>& fp) noexcept {
        const std::uint64_t a = fp.word(0);
        const std::uint64_t b = fp.word(Fingerprint<Bits>::words - 1);
        const std::uint64_t lo = detail::fmix64(a ^ detail::rotl64(b, 29));
        return {lo, detail::fmix64(b ^ lo ^ 0x9e3779b97f4a7c15ull)};
    }

    // Calls `f(bit)` for the k probe positions until it returns false; returns whether all
    // returned true.
    template <class F>
    bool for_each_probe(const hash128_t& h, F&& f) const noexcept {
        std::uint64_t g = h.lo;
        const std::uint64_t step = h.hi | 1u;  // odd: the k positions differ
        for (unsigned i = 0; i < m_hashes; ++i) {
            if (!f(detail::mul_64x64(g, m_bits).hi)) return false;
            g += step;
        }
        return true;
    }

    std::vector<std::uint64_t> m_words;
    std::uint64_t m_bits = 0;
    std::uint64_t m_count = 0;
    unsigned m_hashes = 1;
};

}  // namespace v0
}  // namespace semfp
