#pragma once
/// \file
/// `FingerprintSet<Bits>`: an exact, persistent set of fingerprints, the "have we seen this
/// signature?" store of exact-signature deduplication when false positives are not acceptable
/// (see bloom_filter.hpp for the compact, probabilistic alternative).
///
/// Design: one flat open-addressing table (linear probing, power-of-two capacity, at most 3/4
/// full) of the fingerprints themselves. A query or insertion mixes the fingerprint's words into
/// a slot and usually touches one cache line, where a sorted array needs about log2(n) scattered
/// reads: this is the structure for a store that answers one query per document. The all-zero
/// fingerprint marks an empty slot, so the set keeps a separate flag for the zero fingerprint
/// itself. Memory is 1.33-2.67 slots (of 8 or 16 bytes) a fingerprint.
///
/// The saved file is independent of the table: the fingerprints in strictly increasing order
/// (deterministic bytes for the same contents, order checked on load), the format the earlier
/// sorted-array implementation wrote, so files saved by it load unchanged. Persistence uses the
/// checksummed format of serialization.hpp (magic "SEMFPFPS").

#include <semfp/core/fingerprint.hpp>
#include <semfp/error.hpp>
#include <semfp/index/serialization.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <istream>
#include <limits>
#include <ostream>
#include <utility>
#include <vector>

namespace semfp {
inline namespace v0 {

/// An exact set of `Bits`-bit fingerprints with binary persistence.
///
/// Saved format (body after the common 16-byte header): u64 count, then the fingerprints in
/// strictly increasing numeric order; then the CRC-32C. Not thread-safe for concurrent inserts;
/// concurrent `contains` calls are safe.
template <std::size_t Bits>
class FingerprintSet {
public:
    using fingerprint_type = Fingerprint<Bits>;

    /// An empty set.
    FingerprintSet() = default;

    /// Inserts `fp`; returns true if it was not in the set. Amortized O(1) expected.
    /// \throws std::bad_alloc when the table cannot grow (the set is then unchanged).
    bool insert(const fingerprint_type& fp) {
        if (fp == fingerprint_type{}) {
            if (m_has_zero) return false;
            m_has_zero = true;
            return true;
        }
        if ((m_used + 1) * 4 > m_slots.size() * 3) grow();
        std::size_t i = slot_of(fp);
        while (true) {
            fingerprint_type& s = m_slots[i];
            if (s == fp) return false;
            if (s == fingerprint_type{}) {
                s = fp;
                ++m_used;
                return true;
            }
            i = (i + 1) & m_mask;
        }
    }

    /// Inserts `fp` and returns whether it was already present (the opposite of `insert`).
    bool test_and_insert(const fingerprint_type& fp) { return !insert(fp); }

    /// True if `fp` is in the set. O(1) expected; `noexcept`.
    [[nodiscard]] bool contains(const fingerprint_type& fp) const noexcept {
        if (fp == fingerprint_type{}) return m_has_zero;
        if (m_used == 0) return false;
        std::size_t i = slot_of(fp);
        while (true) {
            const fingerprint_type& s = m_slots[i];
            if (s == fp) return true;
            if (s == fingerprint_type{}) return false;
            i = (i + 1) & m_mask;
        }
    }

    /// Number of fingerprints.
    [[nodiscard]] std::size_t size() const noexcept { return m_used + (m_has_zero ? 1u : 0u); }
    /// True if the set is empty.
    [[nodiscard]] bool empty() const noexcept { return size() == 0; }
    /// Number of table slots (memory is `capacity() * Bits / 8` bytes).
    [[nodiscard]] std::size_t capacity() const noexcept { return m_slots.size(); }

    /// Makes room for `n` fingerprints without growing again.
    /// \throws invalid_argument_error if `n` exceeds SIZE_MAX / 8; std::bad_alloc.
    void reserve(std::size_t n) {
        if (n > std::numeric_limits<std::size_t>::max() / 8)
            detail::throw_invalid_argument("FingerprintSet::reserve: too many fingerprints");
        std::size_t want = min_slots;
        while (want * 3 < n * 4) want *= 2;
        if (want > m_slots.size()) rehash(want);
    }

    /// Adds every fingerprint of `other`.
    void merge(const FingerprintSet& other) {
        if (&other == this) return;
        reserve(size() + other.size());
        if (other.m_has_zero) m_has_zero = true;
        for (const auto& s : other.m_slots)
            if (s != fingerprint_type{}) insert(s);
    }

    /// The fingerprints in increasing order. O(n log n).
    [[nodiscard]] std::vector<fingerprint_type> sorted() const {
        std::vector<fingerprint_type> out;
        out.reserve(size());
        if (m_has_zero) out.push_back(fingerprint_type{});
        for (const auto& s : m_slots)
            if (s != fingerprint_type{}) out.push_back(s);
        std::sort(out.begin() + (m_has_zero ? 1 : 0), out.end());
        return out;
    }

    /// Writes the set to `os` (sorted, as documented above). \throws io_error
    void save(std::ostream& os) const {
        const std::vector<fingerprint_type> all = sorted();
        detail::binary_writer w(os);
        w.header(magic, static_cast<std::uint32_t>(Bits));
        w.u64(all.size());
        for (const auto& fp : all) w.fingerprint(fp);
        w.finish();
    }
    /// Saves to `path` atomically (temporary file + rename). \throws io_error
    void save(const std::filesystem::path& path) const {
        detail::save_file_atomically(path, [&](std::ostream& os) { save(os); });
    }

    /// Replaces the set with one read from `is`. \throws format_error (with the byte offset) on
    /// a truncated, corrupted, foreign or unsorted stream, or one saved for another width; the
    /// set is then unchanged.
    void load(std::istream& is) {
        detail::binary_reader r(is);
        r.header(magic, static_cast<std::uint32_t>(Bits));
        const std::uint64_t n = r.u64();
        FingerprintSet fresh;
        fingerprint_type prev{};
        for (std::uint64_t i = 0; i < n; ++i) {
            const std::size_t at = r.offset();
            const fingerprint_type fp = r.template fingerprint<Bits>();
            if (i > 0 && !(prev < fp))
                detail::throw_format_error("semfp: fingerprint set is not strictly increasing", at);
            // The count is not trusted for a reservation before the bytes are there; growth
            // doubles, so a long stream costs O(n) amortized.
            fresh.insert(fp);
            prev = fp;
        }
        r.finish();
        swap(fresh);
    }
    /// Loads from `path`. \throws io_error if it cannot be opened, format_error as above.
    void load(const std::filesystem::path& path) {
        detail::load_file(path, [&](std::istream& is) { load(is); });
    }

    /// Exchanges the contents of two sets.
    void swap(FingerprintSet& other) noexcept {
        m_slots.swap(other.m_slots);
        std::swap(m_mask, other.m_mask);
        std::swap(m_used, other.m_used);
        std::swap(m_has_zero, other.m_has_zero);
    }

private:
    static constexpr std::string_view magic = "SEMFPFPS";
    static constexpr std::size_t min_slots = 16;

    // Folds the words and mixes (the murmur3 finalizer): fingerprints from a digest are already
    // uniform, but Simhash fingerprints of similar texts share many bits and sequential test
    // keys share all but the low ones.
    [[nodiscard]] std::size_t slot_of(const fingerprint_type& fp) const noexcept {
        std::uint64_t h = 0;
        for (const std::uint64_t w : fp.data()) h = (h ^ w) * 0x9e3779b97f4a7c15ull;
        h ^= h >> 33;
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 33;
        return static_cast<std::size_t>(h) & m_mask;
    }

    void grow() { rehash(m_slots.empty() ? min_slots : m_slots.size() * 2); }

    // Moves every fingerprint into a table of `slots` (a power of two) slots.
    void rehash(std::size_t slots) {
        std::vector<fingerprint_type> next(slots);
        const std::size_t mask = slots - 1;
        m_slots.swap(next);
        m_mask = mask;
        for (const auto& s : next) {
            if (s == fingerprint_type{}) continue;
            std::size_t i = slot_of(s);
            while (m_slots[i] != fingerprint_type{}) i = (i + 1) & m_mask;
            m_slots[i] = s;
        }
    }

    std::vector<fingerprint_type> m_slots;
    std::size_t m_mask = 0;
    std::size_t m_used = 0;  // non-zero fingerprints in m_slots
    bool m_has_zero = false;
};

}  // namespace v0
}  // namespace semfp
