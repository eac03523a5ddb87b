#pragma once
// The sorted-array FingerprintSet that index/fingerprint_set.hpp replaced (a sorted array plus a
// std::unordered_set of recent insertions, merged at 1/16 of the array), kept verbatim apart from
// its name as the same-run baseline of the seen-store benchmarks and as a writer of the
// (unchanged) saved format for the compatibility check.
#include <semfp/core/fingerprint.hpp>
#include <semfp/error.hpp>
#include <semfp/index/serialization.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <istream>
#include <iterator>
#include <ostream>
#include <unordered_set>
#include <utility>
#include <vector>

namespace semfp::bench {

/// (Former semfp::FingerprintSet.) An exact set of `Bits`-bit fingerprints with binary persistence.
///
/// Saved format (body after the common 16-byte header): u64 count, then the fingerprints in
/// strictly increasing numeric order; then the CRC-32C. Not thread-safe for concurrent inserts.
template <std::size_t Bits>
class SortedFingerprintSet {
public:
    using fingerprint_type = Fingerprint<Bits>;

    /// An empty set.
    SortedFingerprintSet() = default;

    /// Inserts `fp`; returns true if it was not in the set. Amortized O(log n).
    bool insert(const fingerprint_type& fp) {
        if (std::binary_search(m_sorted.begin(), m_sorted.end(), fp)) return false;
        if (!m_recent.insert(fp).second) return false;
        if (m_recent.size() >= std::max<std::size_t>(4096, m_sorted.size() / 16)) compact();
        return true;
    }

    /// Inserts `fp` and returns whether it was already present (the opposite of `insert`).
    bool test_and_insert(const fingerprint_type& fp) { return !insert(fp); }

    /// True if `fp` is in the set. O(log n); `noexcept`.
    [[nodiscard]] bool contains(const fingerprint_type& fp) const noexcept {
        return std::binary_search(m_sorted.begin(), m_sorted.end(), fp) || m_recent.find(fp) != m_recent.end();
    }

    /// Number of fingerprints.
    [[nodiscard]] std::size_t size() const noexcept { return m_sorted.size() + m_recent.size(); }
    /// True if the set is empty.
    [[nodiscard]] bool empty() const noexcept { return size() == 0; }

    /// Adds every fingerprint of `other`.
    void merge(const SortedFingerprintSet& other) {
        SortedFingerprintSet o = other;
        o.compact();
        compact();
        std::vector<fingerprint_type> out;
        out.reserve(m_sorted.size() + o.m_sorted.size());
        std::set_union(m_sorted.begin(), m_sorted.end(), o.m_sorted.begin(), o.m_sorted.end(), std::back_inserter(out));
        m_sorted.swap(out);
    }

    /// The fingerprints in increasing order.
    [[nodiscard]] std::vector<fingerprint_type> sorted() const {
        SortedFingerprintSet copy = *this;
        copy.compact();
        return std::move(copy.m_sorted);
    }

    /// Writes the set to `os` (merging pending insertions first). \throws io_error
    void save(std::ostream& os) {
        compact();
        detail::binary_writer w(os);
        w.header(magic, static_cast<std::uint32_t>(Bits));
        w.u64(m_sorted.size());
        for (const auto& fp : m_sorted) w.fingerprint(fp);
        w.finish();
    }
    /// Saves to `path` atomically (temporary file + rename). \throws io_error
    void save(const std::filesystem::path& path) {
        detail::save_file_atomically(path, [&](std::ostream& os) { save(os); });
    }

    /// Replaces the set with one read from `is`. \throws format_error (with the byte offset) on
    /// a truncated, corrupted, foreign or unsorted stream, or one saved for another width; the
    /// set is then unchanged.
    void load(std::istream& is) {
        detail::binary_reader r(is);
        r.header(magic, static_cast<std::uint32_t>(Bits));
        const std::uint64_t n = r.u64();
        std::vector<fingerprint_type> fps;
        for (std::uint64_t i = 0; i < n; ++i) {
            const std::size_t at = r.offset();
            fps.push_back(r.template fingerprint<Bits>());
            if (fps.size() > 1 && !(fps[fps.size() - 2] < fps.back()))
                detail::throw_format_error("semfp: fingerprint set is not strictly increasing", at);
        }
        r.finish();
        m_sorted.swap(fps);
        m_recent.clear();
    }
    /// Loads from `path`. \throws io_error if it cannot be opened, format_error as above.
    void load(const std::filesystem::path& path) {
        detail::load_file(path, [&](std::istream& is) { load(is); });
    }

private:
    static constexpr std::string_view magic = "SEMFPFPS";

    void compact() {
        if (m_recent.empty()) return;
        std::vector<fingerprint_type> fresh(m_recent.begin(), m_recent.end());
        std::sort(fresh.begin(), fresh.end());
        std::vector<fingerprint_type> out;
        out.reserve(m_sorted.size() + fresh.size());
        std::merge(m_sorted.begin(), m_sorted.end(), fresh.begin(), fresh.end(), std::back_inserter(out));
        m_sorted.swap(out);
        m_recent.clear();
    }

    std::vector<fingerprint_type> m_sorted;
    std::unordered_set<fingerprint_type> m_recent;
};

}  // namespace semfp::bench
