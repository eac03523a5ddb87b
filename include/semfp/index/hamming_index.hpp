#pragma once
/// \file
/// `HammingIndex<Bits>`: exact search of all stored fingerprints within a Hamming radius.

#include <semfp/core/fingerprint.hpp>
#include <semfp/detail/index_table.hpp>
#include <semfp/detail/multi_index.hpp>
#include <semfp/error.hpp>
#include <semfp/index/serialization.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace semfp {
inline namespace v0 {

/// One answer of a `HammingIndex` query.
struct hamming_match {
    /// The id given to `insert`.
    std::uint64_t id;
    /// Hamming distance to the query.
    unsigned distance;

    friend constexpr bool operator==(const hamming_match&, const hamming_match&) noexcept = default;
};

/// An exact Hamming-radius index of (fingerprint, id) pairs.
///
/// Multi-index hashing: the `Bits` bits are split into `block_count()` contiguous blocks and
/// every entry is stored once per block, bucketed by that block. By the pigeonhole principle
/// a fingerprint within distance k of the query agrees with it on some block up to a small
/// radius r_t with sum(r_t + 1) >= k + 1; the query probes exactly those block values and
/// verifies each candidate, so results are exact (never approximate). The layout is chosen
/// from (Bits, max_k) at construction: for 64-bit fingerprints four 16-bit blocks (max_k >= 3),
/// for 128 bits eight (max_k >= 7). The default `max_k` is `recommended_distance<Bits>` (5 of
/// 64 bits, 15 of 128).
///
/// Radius: every query with `k <= max_radius` (16 of 64 bits, 32 of 128) is answered exactly,
/// whatever `max_k`; above `max_k` the plan gives the blocks larger radii, so a query probes more
/// buckets (why, and the lane budget that prunes them: detail/multi_index.hpp). Measured CPU time
/// of one query against 1 M entries (default layout, half random, half near copies; medians of
/// 3 on a loaded 2-core machine, bench/two_stage_bench.cpp, bench/results/index.md):
///
/// | radius (64 bits) | 3 | 5 | 7 | 12 | 16 |
/// |---|---:|---:|---:|---:|---:|
/// | us per query | 0.6 | 2.4 | 8.9 | 164 | 2,199 |
///
/// | radius (128 bits) | 15 | 28 |
/// |---|---:|---:|
/// | us per query | 50 | 2,716 |
///
/// Ids are 64-bit values chosen by the caller and must be unique; at most 2^32 - 2 entries. Memory (64-bit, k = 3, four tables, measured with `memory_usage()`):
/// about 53 bytes per entry at 10 M entries and 57 at 1 M: the tables take about 24 (22 plus
/// bucket slack: only the primary table keeps whole fingerprints and ids, see
/// detail/multi_index.hpp), the fingerprints, ids and id map the rest. Once the tables hold
/// 1 MiB together their segments come from transparent huge pages where Linux offers them, as
/// in `SinglePassClusterer` (detail/segment_arena.hpp); smaller indexes stay on the heap.
///
/// Not thread-safe for writers; concurrent const calls are safe.
template <std::size_t Bits>
class HammingIndex {
public:
    static_assert(Bits == 64 || Bits == 128, "semfp::HammingIndex supports 64 and 128 bits");
    using fingerprint_type = Fingerprint<Bits>;

    /// Largest radius a query may use (and an index be built for): a quarter of the bits.
    static constexpr unsigned max_radius = detail::max_radius_limit<Bits>;

    /// An index laid out for queries up to radius `max_k` (larger radii up to `max_radius` are
    /// answered too, with more probes). Throws `invalid_argument_error` if `max_k > max_radius`.
    explicit HammingIndex(unsigned max_k = recommended_distance<Bits>) : HammingIndex(max_k, detail::default_block_count<Bits>(check_k(max_k))) {}

    /// Largest block count for radius `max_k`: `max_k + 1` (each block then probed once), but
    /// at least `Bits / 64` and at most `Bits / 16` (blocks of 16 bits or more).
    [[nodiscard]] static constexpr unsigned max_blocks(unsigned max_k) noexcept {
        return std::min<unsigned>(std::max<unsigned>(max_k + 1, Bits / 64), Bits / 16);
    }

    /// An index with an explicit number of blocks, `Bits / 64 <= blocks <= max_blocks(max_k)`
    /// (more blocks: fewer probes per query but more memory). Throws `invalid_argument_error`.
    HammingIndex(unsigned max_k, unsigned blocks) : m_index(check_k(max_k), check_blocks(max_k, blocks)) {}

    /// The radius the layout was chosen for (queries up to `max_radius` are answered).
    [[nodiscard]] unsigned max_k() const noexcept { return m_index.max_k(); }
    /// Number of blocks (and tables) of the layout.
    [[nodiscard]] unsigned block_count() const noexcept { return static_cast<unsigned>(m_index.blocks().size()); }
    /// Number of entries.
    [[nodiscard]] std::size_t size() const noexcept { return m_ids_map.size(); }
    [[nodiscard]] bool empty() const noexcept { return size() == 0; }

    /// Adds `fp` under `id`. Amortised O(block_count()). Throws `invalid_argument_error` if
    /// `id` is already present, `std::bad_alloc` on exhaustion; strong guarantee.
    void insert(const fingerprint_type& fp, std::uint64_t id) {
        if (contains(id)) detail::throw_invalid_argument("semfp::HammingIndex: duplicate id " + std::to_string(id));
        if (m_free.empty() && m_fps.size() >= 0xFFFFFFFEu)
            detail::throw_invalid_argument("semfp::HammingIndex: too many entries");
        // Allocate everything first, then commit without failure points.
        detail::reserve_one_more(m_fps);
        detail::reserve_one_more(m_ids);
        m_ids_map.reserve(1, id_of());
        m_index.reserve_for(fp.data());
        std::uint32_t slot;
        if (!m_free.empty()) {
            slot = m_free.back();
            m_free.pop_back();
            m_fps[slot] = fp;
            m_ids[slot] = id;
        } else {
            slot = static_cast<std::uint32_t>(m_fps.size());
            m_fps.push_back(fp);
            m_ids.push_back(id);
        }
        m_ids_map.insert(id, slot);
        m_index.insert(fp.data(), slot);
    }

    /// Removes the entry with `id`; returns false if there is none. O(bucket size x blocks).
    /// Throws `std::bad_alloc` only when recording the freed slot for reuse needs memory that is
    /// not available; strong guarantee (nothing is removed then).
    bool erase(std::uint64_t id) {
        const std::uint32_t slot = m_ids_map.find(id, id_of());
        if (slot == detail::id_table::none) return false;
        detail::reserve_one_more(m_free);  // the only allocation: before anything changes
        m_index.erase(m_fps[slot].data(), slot);
        m_ids_map.erase(id, id_of());
        m_free.push_back(slot);  // capacity reserved above
        return true;
    }

    /// True if an entry has `id`. Expected O(1).
    [[nodiscard]] bool contains(std::uint64_t id) const noexcept {
        return m_ids_map.find(id, id_of()) != detail::id_table::none;
    }

    /// The fingerprint stored under `id`, if any.
    [[nodiscard]] std::optional<fingerprint_type> find(std::uint64_t id) const noexcept {
        const std::uint32_t slot = m_ids_map.find(id, id_of());
        if (slot == detail::id_table::none) return std::nullopt;
        return m_fps[slot];
    }

    /// Calls `f(const hamming_match&)` once for every entry within distance `k` of `fp`, in an
    /// unspecified order. Allocation-free. Throws `invalid_argument_error` if `k > max_radius`
    /// (before any call); otherwise throws only what `f` throws.
    template <class F>
    void for_each_within(const fingerprint_type& fp, unsigned k, F&& f) const {
        if (k > max_radius) throw_k_too_large(k);
        m_index.for_each_within(fp.data(), k, [&](std::uint32_t slot, unsigned d) { f(hamming_match{m_ids[slot], d}); });
    }

    /// All entries within distance `k` of `fp`, sorted by (distance, id). Throws
    /// `invalid_argument_error` if `k > max_radius`.
    [[nodiscard]] std::vector<hamming_match> query(const fingerprint_type& fp, unsigned k) const {
        std::vector<hamming_match> out;
        for_each_within(fp, k, [&](const hamming_match& m) { out.push_back(m); });
        std::sort(out.begin(), out.end(), [](const hamming_match& a, const hamming_match& b) {
            return a.distance != b.distance ? a.distance < b.distance : a.id < b.id;
        });
        return out;
    }

    /// Hints the processor to load what `for_each_within(fp, k, ...)` will read (for loops over
    /// many queries: issue it a few queries ahead). Does nothing if k > max_radius.
    void prefetch(const fingerprint_type& fp, unsigned k) const noexcept {
        if (k <= max_radius) m_index.prefetch(fp.data(), k);
    }

    /// Calls `f(id, fingerprint)` for every entry, in unspecified order.
    template <class F>
    void for_each(F&& f) const {
        m_ids_map_for_each([&](std::uint32_t slot) { f(m_ids[slot], m_fps[slot]); });
    }

    /// Removes every entry (keeps the layout).
    void clear() noexcept {
        m_index.clear();
        m_ids_map.clear();
        m_fps.clear();
        m_ids.clear();
        m_free.clear();
    }

    /// Bytes of heap memory held (approximate, excludes allocator overhead).
    [[nodiscard]] std::size_t memory_usage() const noexcept {
        return m_index.memory_bytes() + m_ids_map.memory_bytes() + m_fps.capacity() * sizeof(fingerprint_type) +
               m_ids.capacity() * sizeof(std::uint64_t) + m_free.capacity() * sizeof(std::uint32_t);
    }

    /// Writes the index (see serialization.hpp). Body: u32 max_k, u32 blocks, u64 count, then
    /// count x (fingerprint words, u64 id). Throws `io_error`.
    void save(std::ostream& os) const {
        detail::binary_writer w(os);
        w.header(magic, static_cast<std::uint32_t>(Bits));
        w.u32(max_k());
        w.u32(block_count());
        w.u64(size());
        m_ids_map_for_each([&](std::uint32_t slot) {
            w.fingerprint(m_fps[slot]);
            w.u64(m_ids[slot]);
        });
        w.finish();
    }

    /// Writes the index to `path` through a temporary file and a rename. Throws `io_error`.
    void save(const std::filesystem::path& path) const {
        detail::save_file_atomically(path, [&](std::ostream& os) { save(os); });
    }

    /// Replaces this index with one read from `is`. Throws `format_error` (truncated,
    /// corrupted, other version or width) or `io_error`; strong guarantee.
    void load(std::istream& is) {
        detail::binary_reader r(is);
        r.header(magic, static_cast<std::uint32_t>(Bits));
        std::size_t at = r.offset();
        const std::uint32_t k = r.u32();
        const std::uint32_t blocks = r.u32();
        if (k > max_radius || blocks < Bits / 64 || blocks > std::max<unsigned>(k + 1, Bits / 64))
            detail::throw_format_error("semfp::HammingIndex: invalid layout", at);
        // Files from versions that accepted blocks shorter than 16 bits (not searched exactly)
        // load with the longest valid layout; the entries are all kept.
        HammingIndex fresh(k, std::min(blocks, max_blocks(k)));
        at = r.offset();
        const std::uint64_t n = r.u64();
        // More entries than an index holds: the file is corrupt, not the caller's argument.
        if (n >= 0xFFFFFFFEu) detail::throw_format_error("semfp::HammingIndex: too many entries", at);
        for (std::uint64_t i = 0; i < n; ++i) {
            at = r.offset();
            const auto fp = r.template fingerprint<Bits>();
            const std::uint64_t id = r.u64();
            if (fresh.contains(id)) detail::throw_format_error("semfp::HammingIndex: duplicate id", at);
            fresh.insert(fp, id);
        }
        r.finish();
        swap(fresh);
    }

    /// Replaces this index with the one saved at `path`. Throws `io_error`, `format_error`;
    /// strong guarantee.
    void load(const std::filesystem::path& path) {
        detail::load_file(path, [&](std::istream& is) { load(is); });
    }

    void swap(HammingIndex& o) noexcept {
        std::swap(m_index, o.m_index);
        m_ids_map.swap(o.m_ids_map);
        m_fps.swap(o.m_fps);
        m_ids.swap(o.m_ids);
        m_free.swap(o.m_free);
    }
    friend void swap(HammingIndex& a, HammingIndex& b) noexcept { a.swap(b); }

private:
    static constexpr std::string_view magic = "SEMFPHIX";

    static unsigned check_k(unsigned max_k) {
        if (max_k > max_radius)
            detail::throw_invalid_argument("semfp::HammingIndex: max_k " + std::to_string(max_k) + " exceeds the limit " +
                                           std::to_string(max_radius));
        return max_k;
    }
    static unsigned check_blocks(unsigned max_k, unsigned blocks) {
        if (blocks < Bits / 64 || blocks > max_blocks(max_k))
            detail::throw_invalid_argument("semfp::HammingIndex: block count " + std::to_string(blocks) +
                                           " must be in [" + std::to_string(Bits / 64) + ", " +
                                           std::to_string(max_blocks(max_k)) + "] for max_k " +
                                           std::to_string(max_k));
        return blocks;
    }
    [[noreturn]] static void throw_k_too_large(unsigned k) {
        detail::throw_invalid_argument("semfp::HammingIndex: radius " + std::to_string(k) + " exceeds max_radius " +
                                       std::to_string(max_radius) + " of a " + std::to_string(Bits) +
                                       "-bit index (no layout answers it exactly; use a wider fingerprint)");
    }

    [[nodiscard]] auto id_of() const noexcept {
        return [this](std::uint32_t slot) noexcept { return m_ids[slot]; };
    }

    /// Visits live slots in slot order (deterministic). A slot is live if the id map points
    /// back to it.
    template <class F>
    void m_ids_map_for_each(F&& f) const {
        for (std::uint32_t s = 0; s < m_fps.size(); ++s)
            if (m_ids_map.find(m_ids[s], id_of()) == s) f(s);
    }

    detail::multi_index<Bits> m_index;
    detail::id_table m_ids_map;
    std::vector<fingerprint_type> m_fps;  // by slot
    std::vector<std::uint64_t> m_ids;     // by slot
    std::vector<std::uint32_t> m_free;    // free slots
};

}  // namespace v0
}  // namespace semfp
