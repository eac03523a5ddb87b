#pragma once
/// \file
/// `SketchBandIndex`: locality-sensitive hashing on the bins of a `MinHashSketch` (banding),
/// the candidate stage of the two-stage rule beyond the recommended distance.
///
/// Why. An exact Hamming search at a two-stage radius (12 of 64 bits, 28 of 128, the
/// `two_stage_rule::exact_search_limit`; the rule's default radius, 32 / 40, is beyond any exact
/// search) must prove that nothing lies within the radius, which at 1 M entries costs on the
/// order of 10^4 probes or candidates per query, and most documents have no near-duplicate and
/// pay all of it. The pairs the two-stage rule accepts beyond the recommended distance are those
/// whose sketches agree on at least about two thirds of their bins
/// (`two_stage_rule::min_similarity`), so they can be found through the sketch instead, at any
/// Hamming distance: the 128 bins are grouped into `bands` bands of `rows` consecutive bins, and
/// two sketches are candidates when they agree on every bin of some band. A pair agreeing on a
/// fraction p of its bins, at random positions, shares a band with probability about
/// 1 - (1 - p^rows)^bands; the default 20 bands of 4 bins collide for 99.0 % of
/// pairs at p = 0.65 and for 0.04 % at p = 0.1. The layout was chosen by measurement on the
/// evaluation pairs (bench/two_stage_quality.cpp, bench/results/two_stage.md).
///
/// This is a candidate stage, not an exact search: a pair the rule accepts is missed when its
/// disagreeing bins fall into every band. Results depend only on the data and the insertion
/// order (no randomness, no threads): the same input gives the same candidates everywhere.
///
/// Storage: one open-addressing table (linear probing, at most 5/8 full) of 8-byte slots, a
/// 32-bit tag of the band key and the item number, one slot per band per item: about
/// 13 bytes x bands per item (260 at the default layout). The table does not keep the band
/// keys; growing it asks the caller for the sketch (or its bins) of every stored item.

#include <semfp/core/hash.hpp>
#include <semfp/core/sketch.hpp>
#include <semfp/detail/index_table.hpp>
#include <semfp/error.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace semfp {
inline namespace v0 {

/// How the bins of a sketch are grouped: `bands` bands of `rows` consecutive bins each
/// (band i holds bins [i * rows, (i + 1) * rows)); `bands * rows <= MinHashSketch::bins`.
struct sketch_band_layout {
    unsigned bands = 20;
    unsigned rows = 4;

    friend constexpr bool operator==(const sketch_band_layout&, const sketch_band_layout&) noexcept = default;
};

namespace detail {

/// The 64-bit key of band `band` of a sketch's bins `values()` (depends on the band number and
/// those bins only; `values()` is computed once by the caller: an exact sketch derives its bins).
[[nodiscard]] constexpr std::uint64_t band_key(const MinHashSketch::bins_type& bins, const sketch_band_layout& l,
                                               unsigned band) noexcept {
    std::uint64_t h = 0x9E3779B97F4A7C15ull * (band + 1);
    const std::size_t first = static_cast<std::size_t>(band) * l.rows;
    std::uint64_t word = 0;
    for (unsigned r = 0; r < l.rows; ++r) {
        word = (word << 8) | bins[first + r];
        if ((r & 7u) == 7u || r + 1 == l.rows) {
            h = fmix64(h ^ word);
            word = 0;
        }
    }
    return h;
}

}  // namespace detail

/// True if `a` and `b` agree on every bin of some band of `l` (what `SketchBandIndex` reports).
[[nodiscard]] constexpr bool share_band(const MinHashSketch& a, const MinHashSketch& b,
                                        const sketch_band_layout& l) noexcept {
    const MinHashSketch::bins_type va = a.values();
    const MinHashSketch::bins_type vb = b.values();
    for (unsigned band = 0; band < l.bands; ++band) {
        bool same = true;
        for (unsigned r = 0; r < l.rows && same; ++r)
            same = va[band * l.rows + r] == vb[band * l.rows + r];
        if (same) return true;
    }
    return false;
}

/// Items (32-bit numbers chosen by the caller, below 2^32 - 1) stored under the bands of their
/// sketches; `for_each_candidate` reports every stored item that shares a band with a query
/// (possibly a few more: band keys are compared by a 32-bit tag; a caller verifies anyway).
/// Not thread-safe for writers; concurrent const calls are safe.
class SketchBandIndex {
public:
    /// Throws `invalid_argument_error` unless `1 <= bands`, `1 <= rows` and
    /// `bands * rows <= MinHashSketch::bins`.
    explicit SketchBandIndex(sketch_band_layout layout = {}) : m_layout(check(layout)) {}

    [[nodiscard]] const sketch_band_layout& layout() const noexcept { return m_layout; }
    /// Number of items inserted.
    [[nodiscard]] std::size_t size() const noexcept { return m_items; }
    /// Bytes of heap memory held.
    [[nodiscard]] std::size_t memory_bytes() const noexcept { return m_slots.capacity() * sizeof(slot); }

    /// Stores `item` under the bands of `s`. `sketch_of(item)` must return the sketch of any
    /// item stored before (called only when the table grows). Empty sketches are not stored.
    template <class SketchOf>
    void insert(const MinHashSketch& s, std::uint32_t item, SketchOf&& sketch_of) {
        if (s.empty()) return;
        insert_values(s.values(), item, [&](std::uint32_t x) { return sketch_of(x).values(); });
    }

    /// `insert` of a non-empty sketch by its bins `bins` (its `values()`, derived once by the
    /// caller: an exact sketch derives them, see `MinHashSketch::values`). `bins_of(item)` must
    /// return the bins of any item stored before (by value or by reference; called once per
    /// item when the table grows).
    template <class BinsOf>
    void insert_values(const MinHashSketch::bins_type& bins, std::uint32_t item, BinsOf&& bins_of) {
        if ((m_used + m_layout.bands) * 8 > m_slots.size() * 5) grow(bins_of);
        place(bins, item);
        if (item > m_max_item) m_max_item = item;
        ++m_items;
    }

    /// Calls `f(item)` for each stored item sharing a band tag with `s`, once per such band,
    /// in band order (an item can be reported more than once). Nothing for an empty sketch.
    template <class F>
    void for_each_candidate(const MinHashSketch& s, F&& f) const {
        if (s.empty()) return;
        for_each_candidate_values(s.values(), f);
    }

    /// `for_each_candidate` of a non-empty sketch by its bins (its `values()`, derived once by
    /// the caller).
    template <class F>
    void for_each_candidate_values(const MinHashSketch::bins_type& bins, F&& f) const {
        if (m_slots.empty()) return;
        const std::size_t mask = m_slots.size() - 1;
        std::array<std::uint64_t, MinHashSketch::bins> keys;  // all keys first: the probes overlap
        for (unsigned band = 0; band < m_layout.bands; ++band) {
            keys[band] = detail::band_key(bins, m_layout, band);
            detail::prefetch_for_read(&m_slots[home(keys[band])]);
        }
        for (unsigned band = 0; band < m_layout.bands; ++band) {
            const std::uint64_t key = keys[band];
            const auto tag = static_cast<std::uint32_t>(key);
            for (std::size_t i = home(key); m_slots[i].item != empty_item; i = (i + 1) & mask)
                if (m_slots[i].tag == tag) f(m_slots[i].item);
        }
    }

    /// Removes everything (keeps the layout).
    void clear() noexcept {
        m_slots.clear();
        m_used = 0;
        m_items = 0;
        m_max_item = 0;
    }

private:
    struct slot {
        std::uint32_t tag = 0;
        std::uint32_t item = empty_item;
    };
    static constexpr std::uint32_t empty_item = ~std::uint32_t{0};

    static sketch_band_layout check(sketch_band_layout l) {
        if (l.bands == 0 || l.rows == 0 || l.bands * l.rows > MinHashSketch::bins || l.bands > MinHashSketch::bins)
            detail::throw_invalid_argument("semfp::SketchBandIndex: " + std::to_string(l.bands) + " bands of " +
                                           std::to_string(l.rows) + " rows do not fit in " +
                                           std::to_string(MinHashSketch::bins) + " bins");
        return l;
    }

    [[nodiscard]] std::size_t home(std::uint64_t key) const noexcept {
        return static_cast<std::size_t>(key >> 32) & (m_slots.size() - 1);
    }

    void place(const MinHashSketch::bins_type& bins, std::uint32_t item) noexcept {
        const std::size_t mask = m_slots.size() - 1;
        std::array<std::uint64_t, MinHashSketch::bins> keys;
        for (unsigned band = 0; band < m_layout.bands; ++band) {
            keys[band] = detail::band_key(bins, m_layout, band);
            detail::prefetch_for_write(&m_slots[home(keys[band])]);
        }
        for (unsigned band = 0; band < m_layout.bands; ++band) {
            const std::uint64_t key = keys[band];
            std::size_t i = home(key);
            while (m_slots[i].item != empty_item) i = (i + 1) & mask;
            m_slots[i] = {static_cast<std::uint32_t>(key), item};
            ++m_used;
        }
    }

    // Rebuilds the table at twice the size. The items are re-placed in the order they appear in
    // the old table, which is itself a function of the insertion order only. Each item is
    // re-placed when its first slot is met, found by a bitmap of the items seen, so its bins are
    // asked for once per growth (not once per band); if the item numbers are too sparse for a
    // bitmap no larger than the table, from the slot of its band 0 key instead.
    template <class BinsOf>
    void grow(BinsOf& bins_of) {
        std::vector<slot> bigger(m_slots.empty() ? std::size_t{1} << 10 : m_slots.size() * 2);
        std::vector<slot> old;
        old.swap(m_slots);
        m_slots.swap(bigger);
        m_used = 0;
        if (m_max_item / 8 <= old.size() * sizeof(slot)) {
            std::vector<std::uint64_t> seen(static_cast<std::size_t>(m_max_item / 64) + 1, 0);
            for (const slot& s : old) {
                if (s.item == empty_item) continue;
                std::uint64_t& word = seen[s.item / 64];
                const std::uint64_t bit = std::uint64_t{1} << (s.item % 64);
                if ((word & bit) != 0) continue;
                word |= bit;
                place(bins_of(s.item), s.item);
            }
            return;
        }
        for (const slot& s : old) {
            if (s.item == empty_item) continue;
            const MinHashSketch::bins_type& bins = bins_of(s.item);
            const std::uint64_t key0 = detail::band_key(bins, m_layout, 0);
            if (static_cast<std::uint32_t>(key0) != s.tag) continue;
            if (!is_band0_slot(old, s, key0)) continue;
            place(bins, s.item);
        }
    }

    // True if `s` is the slot band 0 (key `key0`) of its item was placed in (a later band's key
    // can share the tag of band 0 by chance; then the item would be re-placed twice).
    [[nodiscard]] static bool is_band0_slot(const std::vector<slot>& old, const slot& s, std::uint64_t key0) noexcept {
        const std::size_t mask = old.size() - 1;
        for (std::size_t i = static_cast<std::size_t>(key0 >> 32) & mask; old[i].item != empty_item; i = (i + 1) & mask)
            if (old[i].item == s.item && old[i].tag == s.tag) return &old[i] == &s;
        return false;
    }

    sketch_band_layout m_layout;
    std::vector<slot> m_slots;  // power-of-two size
    std::size_t m_used = 0;
    std::size_t m_items = 0;
    // The largest item stored (sizes grow()'s bitmap). Items are never removed one by one, only
    // all at once by clear(), which resets it, so it is always the largest item present.
    std::uint32_t m_max_item = 0;
};

}  // namespace v0
}  // namespace semfp
