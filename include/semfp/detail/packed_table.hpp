#pragma once
/// \file
/// `packed_table`: the storage of one table of the multi-index. Entries are a 16-bit bucket
/// window `w` plus `units` further 16-bit units (unit 0 is the filter lane) and, optionally, a
/// 32-bit value. Nothing is stored per entry that the position already implies.
///
/// Layout: the high byte of `w` picks one of 256 segments, allocated on first use; a segment
/// splits its entries into 2^j buckets (j <= 8) by the top j bits of the low byte of `w`. While
/// j < 8 each entry also keeps that low byte (one byte), so that small segments stay small. A
/// bucket is a contiguous run with its own capacity: the lanes of all its entries (what the lane
/// filter reads), then for each entry its other units and its value side by side. A full bucket repacks only its
/// segment, with room for a sixteenth more entries (an eighth in large segments), so growth never copies the whole
/// table and the transient memory of a repack is one segment.
///
/// With `Lanes == 2`, unit 1 of every entry has an array of its own after the lanes: a probe
/// fetches both arrays with its bucket, and `scan_if` tests an entry the lane filter passes on
/// both units before its other units (a cache miss that depends on the lane scan) are read. The
/// multi-index's primary table uses it: at radius 3 about 1 % of a bucket passes the lane filter,
/// and the pair test rejects about 99 % of those (bench/results/index.md).
///
/// A segment is one block: its bucket directory, then the bucket regions, then the low bytes,
/// so that a probe's directory entry and bucket lie in one huge page once the table is large
/// enough for `segment_arena` to serve huge pages.

#include <semfp/error.hpp>
#include <semfp/detail/index_table.hpp>
#include <semfp/detail/segment_arena.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#endif

namespace semfp {
inline namespace v0 {
namespace detail {

/// Largest number of 16-bit units a `packed_table` entry may have.
inline constexpr unsigned packed_max_units = 8;

template <unsigned Units, bool HasValue, unsigned Lanes = 1>
class packed_table {
    static_assert(Units >= 1 && Units <= packed_max_units);
    static_assert(Lanes >= 1 && Lanes <= 2 && Lanes <= Units);
    static constexpr unsigned m_units = Units;
    static constexpr bool m_has_value = HasValue;

public:
    static constexpr unsigned segment_count = 256;

    packed_table() = default;

    [[nodiscard]] std::size_t size() const noexcept { return m_size; }
    [[nodiscard]] static constexpr unsigned units() noexcept { return Units; }

    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        std::size_t n = m_segs.capacity() * sizeof(segment);
        for (const auto& s : m_segs)
            if (s.cap != 0) n += block_bytes(s.j, s.cap);
        return n;
    }

    /// Makes room so that the next `insert(w, ...)` cannot allocate (strong guarantee).
    void reserve_for(std::uint16_t w) {
        if (m_segs.empty()) m_segs.resize(segment_count);
        segment& s = m_segs[w >> 8];
        if (s.cap != 0) {
            const std::size_t b = bucket_of(s, w);
            if (s.dir[2 * b + 1] < s.dir[2 * b + 2] - s.dir[2 * b]) return;
        }
        repack(s, w);
    }

    /// Inserts after `reserve_for(w)`; never allocates.
    void insert(std::uint16_t w, const std::uint16_t* units, std::uint32_t value) noexcept {
        segment& s = m_segs[w >> 8];
        const std::size_t b = bucket_of(s, w);
        const std::size_t r = s.dir[2 * b + 1];
        put(s, b, r, units, value);
        if (s.j < 8) s.sub[s.dir[2 * b] + r] = static_cast<std::uint8_t>(w);
        ++s.dir[2 * b + 1];
        ++s.count;
        ++m_size;
    }

    /// Removes one entry of bucket window `w` whose units equal `units` and whose value
    /// satisfies `pred`; returns false if there is none.
    template <class Pred>
    bool erase_if(std::uint16_t w, const std::uint16_t* units, Pred&& pred) noexcept {
        if (m_segs.empty()) return false;
        segment& s = m_segs[w >> 8];
        if (s.cap == 0) return false;
        const std::size_t b = bucket_of(s, w);
        const std::size_t first = s.dir[2 * b];
        const std::size_t n = s.dir[2 * b + 1];
        for (std::size_t r = 0; r < n; ++r) {
            if (s.j < 8 && s.sub[first + r] != static_cast<std::uint8_t>(w)) continue;
            if (!units_equal(s, b, r, units) || !pred(value_at(s, b, r))) continue;
            if (r != n - 1) {
                std::uint16_t tmp[packed_max_units]{};
                load_units(s, b, n - 1, tmp);
                put(s, b, r, tmp, value_at(s, b, n - 1));
                if (s.j < 8) s.sub[first + r] = s.sub[first + n - 1];
            }
            --s.dir[2 * b + 1];
            --s.count;
            --m_size;
            return true;
        }
        return false;
    }

    /// True if an entry of bucket window `w` has units equal to `units`.
    [[nodiscard]] bool contains(std::uint16_t w, const std::uint16_t* units) const noexcept {
        bool found = false;
        scan(w, units[0], 0, [&](const std::uint16_t* u, std::uint32_t) {
            if (!found) found = std::equal(u, u + m_units, units);
        });
        return found;
    }

    /// Calls `f(units, value)` (units: `const std::uint16_t*`, `units()` of them) for the
    /// entries of bucket window `w` whose lane differs from `lane` in at most `k` bits, but
    /// not in at most `skip` bits (`skip < k`, or `no_lane_skip`).
    template <class F>
    void scan(std::uint16_t w, std::uint16_t lane, unsigned k, F&& f, unsigned skip = no_lane_skip) const {
        scan_if(
            w, lane, k, skip, [](std::uint16_t, std::uint16_t) { return true; }, std::forward<F>(f));
    }

    /// `scan` that first asks `pre(unit 0, unit 1)` of each entry whose lane passes and skips
    /// the entry if it returns false. With two lane arrays (`Lanes == 2`) both units sit in the
    /// lines the lane filter reads (and `prefetch_bucket` fetches), so a rejected entry costs
    /// no read of its other units.
    template <class Pre, class F>
    void scan_if(std::uint16_t w, std::uint16_t lane, unsigned k, unsigned skip, Pre&& pre, F&& f) const {
        if (m_size == 0) return;
        const segment& s = m_segs[w >> 8];
        if (s.cap == 0) return;
        const std::size_t b = bucket_of(s, w);
        const std::size_t first = s.dir[2 * b];
        const std::uint16_t* base = region(s, b);
        const std::size_t cap = bucket_cap(s, b);
        for_each_lane_within(base, s.dir[2 * b + 1], lane, k, skip, [&](std::size_t r) {
            if (s.j < 8 && s.sub[first + r] != static_cast<std::uint8_t>(w)) return;
            if constexpr (Lanes == 2) {
                if (!pre(base[r], base[cap + r])) return;
            }
            std::uint16_t u[packed_max_units]{};
            load_units(s, b, r, u);
            if constexpr (Lanes == 1 && Units >= 2) {
                if (!pre(u[0], u[1])) return;
            } else if constexpr (Lanes == 1) {
                if (!pre(u[0], std::uint16_t{0})) return;
            }
            f(static_cast<const std::uint16_t*>(u), value_at(s, b, r));
        });
    }

    /// Calls `f(w, units, value)` for every entry (segment order, then bucket order).
    template <class F>
    void for_each(F&& f) const {
        for (std::size_t g = 0; g < m_segs.size(); ++g) {
            const segment& s = m_segs[g];
            if (s.cap == 0) continue;
            const std::size_t nb = std::size_t{1} << s.j;
            for (std::size_t b = 0; b < nb; ++b) {
                for (std::size_t r = 0, e = s.dir[2 * b + 1]; r < e; ++r) {
                    const auto low = s.j < 8 ? s.sub[s.dir[2 * b] + r] : static_cast<std::uint8_t>(b);
                    std::uint16_t u[packed_max_units]{};
                    load_units(s, b, r, u);
                    f(static_cast<std::uint16_t>((g << 8) | low), static_cast<const std::uint16_t*>(u),
                      value_at(s, b, r));
                }
            }
        }
    }

    /// Hints the processor to load the bucket directory entry of `w`.
    void prefetch_directory(std::uint16_t w) const noexcept {
        if (m_segs.empty()) return;
        const segment& s = m_segs[w >> 8];
        if (s.cap == 0) return;
        prefetch_address(s.dir + 2 * bucket_of(s, w), false);
    }

    /// Hints the processor to load the lanes of the bucket of `w` (reads its directory entry:
    /// issue it after `prefetch_directory`).
    void prefetch_bucket(std::uint16_t w) const noexcept {
        if (m_segs.empty()) return;
        const segment& s = m_segs[w >> 8];
        if (s.cap == 0) return;
        const std::size_t b = bucket_of(s, w);
        // The cache lines the lane filter reads (whole chunks of lanes; at most 8 lines).
        const auto at = reinterpret_cast<std::uintptr_t>(region(s, b));
        const std::size_t fill = s.dir[2 * b + 1];
        prefetch_lines(at, at + 2 * ((fill + lane_chunk - 1) / lane_chunk * lane_chunk));
        if constexpr (Lanes == 2) {
            // The second lane array (read for the entries the first one passes).
            const std::uintptr_t second = at + 2 * bucket_cap(s, b);
            prefetch_lines(second, second + 2 * fill);
        }
    }

    /// Hints the processor to load the cache lines of [at, end), at most 8 of them.
    static void prefetch_lines(std::uintptr_t at, std::uintptr_t end) noexcept {
        for (std::uintptr_t line = at & ~std::uintptr_t{63}, l = 0; line < end && l < 8; line += 64, ++l)
            prefetch_address(reinterpret_cast<const void*>(line), false);
    }

    /// Hints the processor to load, for writing, the slot an insert of `w` would fill.
    void prefetch_insert(std::uint16_t w) const noexcept {
        if (m_segs.empty()) return;
        const segment& s = m_segs[w >> 8];
        if (s.cap == 0) return;
        const std::size_t b = bucket_of(s, w);
        const std::size_t cap = bucket_cap(s, b);
        if (cap == 0) return;
        const std::size_t r = std::min<std::size_t>(s.dir[2 * b + 1], cap - 1);
        const std::uint16_t* base = region(s, b);
        prefetch_address(base + r, true);
        if constexpr (Lanes == 2) prefetch_address(base + cap + r, true);
        if constexpr (rest > 0) prefetch_address(base + Lanes * cap + rest * r, true);
    }

    void clear() noexcept {
        release_all();
        std::vector<segment>().swap(m_segs);
        m_size = 0;
    }

    void swap(packed_table& o) noexcept {
        m_segs.swap(o.m_segs);
        std::swap(m_size, o.m_size);
        m_arena.swap(o.m_arena);
    }

    /// Takes its segments from `arena` from now on, which other tables may share (a multi-index
    /// shares one between its tables: one partly used huge page instead of one per table).
    /// Precondition: the table holds no segment.
    void use_arena(std::shared_ptr<segment_arena> arena) noexcept { m_arena = std::move(arena); }

    /// The allocator of the segments (tests lower its huge-page threshold).
    [[nodiscard]] segment_arena& arena() { return own_arena(); }

    /// A copy takes its segments from an arena of its own.
    packed_table(const packed_table& o)
        : m_size(o.m_size),
          m_arena(
              std::make_shared<segment_arena>(o.m_arena ? o.m_arena->threshold() : segment_arena::default_threshold)) {
        m_segs.resize(o.m_segs.size());
        try {
            for (std::size_t g = 0; g < o.m_segs.size(); ++g) {
                const segment& from = o.m_segs[g];
                if (from.cap == 0) continue;
                const std::size_t bytes = block_bytes(from.j, from.cap);
                segment to = allocate_segment(from.j, from.cap);
                std::memcpy(to.dir, from.dir, bytes);
                to.count = from.count;
                m_segs[g] = to;
            }
        } catch (...) {
            release_all();
            throw;
        }
    }
    packed_table& operator=(const packed_table& o) {
        if (this != &o) {
            packed_table t(o);
            swap(t);
        }
        return *this;
    }
    packed_table(packed_table&& o) noexcept { swap(o); }
    packed_table& operator=(packed_table&& o) noexcept {
        packed_table t(std::move(o));
        swap(t);
        return *this;
    }
    ~packed_table() { release_all(); }

private:
    /// One block of `m_arena` (starting at `dir`), owned by the table.
    struct segment {
        // dir[2b] = first slot of bucket b, dir[2b + 1] = its fill; dir[2 * 2^j] = cap.
        std::uint32_t* dir = nullptr;
        // Bucket regions in bucket order (see `region`), then lane_chunk units of padding.
        std::uint16_t* data = nullptr;
        // Low byte of the bucket window, per slot (only while j < 8).
        std::uint8_t* sub = nullptr;
        std::uint32_t cap = 0;
        std::uint32_t count = 0;
        unsigned j = 0;
    };

    // Block layout: directory, data (from a cache-line boundary), low bytes.
    [[nodiscard]] static std::size_t dir_bytes(unsigned j) noexcept {
        const std::size_t b = (2 * (std::size_t{1} << j) + 1) * sizeof(std::uint32_t);
        return (b + segment_arena::alignment - 1) / segment_arena::alignment * segment_arena::alignment;
    }
    [[nodiscard]] static std::size_t block_bytes(unsigned j, std::size_t cap) noexcept {
        return dir_bytes(j) + data_units(cap) * sizeof(std::uint16_t) + (j < 8 ? cap : 0);
    }
    /// A segment with a fresh block for 2^j buckets and `cap` slots (contents undefined).
    [[nodiscard]] segment allocate_segment(unsigned j, std::size_t cap) {
        auto* block = static_cast<std::byte*>(own_arena().allocate(block_bytes(j, cap)));
        segment s;
        s.dir = reinterpret_cast<std::uint32_t*>(block);
        s.data = reinterpret_cast<std::uint16_t*>(block + dir_bytes(j));
        s.sub = j < 8 ? reinterpret_cast<std::uint8_t*>(block + dir_bytes(j) + data_units(cap) * sizeof(std::uint16_t))
                      : nullptr;
        s.cap = static_cast<std::uint32_t>(cap);
        s.j = j;
        return s;
    }
    void release(segment& s) noexcept {
        if (s.cap != 0) m_arena->deallocate(s.dir, block_bytes(s.j, s.cap));
        s = segment{};
    }
    void release_all() noexcept {
        for (auto& s : m_segs) release(s);
    }

    static void prefetch_address(const void* p, bool write) noexcept {
        if (write) prefetch_for_write(p);
        else prefetch_for_read(p);
    }

    [[nodiscard]] static std::size_t bucket_of(const segment& s, std::uint16_t w) noexcept {
        return static_cast<std::size_t>(w & 0xFFu) >> (8 - s.j);
    }
    static constexpr std::size_t max_buckets = 256;  // per segment (j <= 8)
    // Segments from this many entries on grow by an eighth per repack instead of a sixteenth.
    static constexpr std::size_t large_segment = 8192;
    // Units per entry: the lane, the other units, the value halves.
    static constexpr std::size_t stride = m_units + (m_has_value ? 2 : 0);
    // Units per entry after its lanes: the other units, then the value halves, side by side so
    // that a candidate's check and an insert touch one cache line of them.
    static constexpr std::size_t rest = stride - Lanes;

    [[nodiscard]] static std::size_t data_units(std::size_t cap) noexcept { return cap * stride + lane_chunk; }
    [[nodiscard]] static std::size_t bucket_cap(const segment& s, std::size_t b) noexcept {
        return s.dir[2 * b + 2] - s.dir[2 * b];
    }
    // A bucket's region: lanes [cap] (unit 0 of every entry; with two lane arrays, then unit 1
    // [cap]), then per entry its other units and value halves [cap x rest].
    [[nodiscard]] static std::uint16_t* region(const segment& s, std::size_t b) noexcept {
        return s.data + std::size_t{s.dir[2 * b]} * stride;
    }

    static void load_units(const segment& s, std::size_t b, std::size_t r, std::uint16_t* u) noexcept {
        const std::uint16_t* base = region(s, b);
        const std::size_t cap = bucket_cap(s, b);
        u[0] = base[r];
        if constexpr (Lanes == 2) u[1] = base[cap + r];
        const std::uint16_t* p = base + Lanes * cap + rest * r;
        for (unsigned x = Lanes; x < m_units; ++x) u[x] = p[x - Lanes];
    }
    [[nodiscard]] static bool units_equal(const segment& s, std::size_t b, std::size_t r,
                                          const std::uint16_t* u) noexcept {
        const std::uint16_t* base = region(s, b);
        const std::size_t cap = bucket_cap(s, b);
        if (base[r] != u[0]) return false;
        if constexpr (Lanes == 2) {
            if (base[cap + r] != u[1]) return false;
        }
        const std::uint16_t* p = base + Lanes * cap + rest * r;
        for (unsigned x = Lanes; x < m_units; ++x)
            if (p[x - Lanes] != u[x]) return false;
        return true;
    }
    [[nodiscard]] static std::uint32_t value_at(const segment& s, std::size_t b, std::size_t r) noexcept {
        if constexpr (!m_has_value) {
            return 0;
        } else {
            const std::uint16_t* v = region(s, b) + Lanes * bucket_cap(s, b) + rest * r + (m_units - Lanes);
            return static_cast<std::uint32_t>(v[0]) | (static_cast<std::uint32_t>(v[1]) << 16);
        }
    }
    static void put(segment& s, std::size_t b, std::size_t r, const std::uint16_t* u, std::uint32_t value) noexcept {
        std::uint16_t* base = region(s, b);
        const std::size_t cap = bucket_cap(s, b);
        base[r] = u[0];
        if constexpr (Lanes == 2) base[cap + r] = u[1];
        std::uint16_t* p = base + Lanes * cap + rest * r;
        for (unsigned x = Lanes; x < m_units; ++x) p[x - Lanes] = u[x];
        if constexpr (m_has_value) {
            std::uint16_t* v = p + (m_units - Lanes);
            v[0] = static_cast<std::uint16_t>(value);
            v[1] = static_cast<std::uint16_t>(value >> 16);
        }
    }

    /// Re-lays segment `s` with room for one more entry in the bucket of `w`: 2^j buckets for
    /// about 4 to 8 entries each (j <= 8).
    void repack(segment& s, std::uint16_t w) {
        const std::size_t n = std::size_t{s.count} + 1;
        const unsigned j = std::min(8u, static_cast<unsigned>(std::bit_width(n)) > 3
                                            ? static_cast<unsigned>(std::bit_width(n)) - 3
                                            : 0u);
        const std::size_t nb = std::size_t{1} << j;
        // Low byte of the bucket window of slot i of the old layout.
        std::vector<std::uint8_t> low;
        // Per-bucket scratch on the stack (at most 256 buckets): a repack allocates only its block.
        std::array<std::uint32_t, max_buckets> fill{};
        if (s.cap != 0 && s.j == j) {
            for (std::size_t b = 0; b < nb; ++b) fill[b] = s.dir[2 * b + 1];
        } else if (s.cap != 0) {
            low.resize(s.cap);
            const std::size_t old_nb = std::size_t{1} << s.j;
            for (std::size_t b = 0; b < old_nb; ++b)
                for (std::size_t i = s.dir[2 * b], e = i + s.dir[2 * b + 1]; i < e; ++i) {
                    low[i] = s.j < 8 ? s.sub[i] : static_cast<std::uint8_t>(b);
                    ++fill[static_cast<std::size_t>(low[i]) >> (8 - j)];
                }
        }
        const std::size_t target = static_cast<std::size_t>(w & 0xFFu) >> (8 - j);
        std::array<std::uint32_t, 2 * max_buckets + 1> dir{};
        // Room for the segment to grow by a sixteenth (an eighth once it holds `large_segment`
        // entries) before the next repack: each bucket gets its expected share of that growth
        // plus three standard deviations (Poisson), so that repacks come about once per n/16
        // (n/8) inserts: 16 (8) entries copied per insert, amortised. The eighth halves the
        // copying, arena traffic and fresh pages of a 10 M Single-Pass run for about 0.8 bytes
        // per entry held (bench/results/index.md); small segments keep the sixteenth, so small
        // indexes stay as small as before.
        const double share = n >= large_segment ? 8.0 : 16.0;
        const double grow = static_cast<double>(n) / share / static_cast<double>(nb);
        const auto slack = static_cast<std::size_t>(grow + 3.0 * std::sqrt(grow) + 1.0);
        std::size_t cap = 0;
        for (std::size_t b = 0; b < nb; ++b) {
            dir[2 * b] = static_cast<std::uint32_t>(cap);
            cap += fill[b] + (b == target ? 1 : 0) + slack;
        }
        if (cap > 0xFFFFFFF0u) throw_invalid_argument("semfp::HammingIndex: bucket segment too large");
        dir[2 * nb] = static_cast<std::uint32_t>(cap);
        // Filled below: entries are copied, the rest of every bucket and the padding zeroed.
        segment t = allocate_segment(j, cap);
        std::copy_n(dir.begin(), 2 * nb + 1, t.dir);
        // Commit: copy every entry into its new bucket (no failure points from here on).
        if (s.cap != 0 && s.j == j) {
            // Same buckets: copy whole runs, and clear each bucket's free slots while its lines
            // are at hand. Inline copies: a libc call per run cost more than the run (a large
            // segment's buckets hold 100-200 entries).
            for (std::size_t b = 0; b < nb; ++b) {
                const std::size_t c = s.dir[2 * b + 1];
                t.dir[2 * b + 1] = static_cast<std::uint32_t>(c);
                const std::uint16_t* from = region(s, b);
                std::uint16_t* to = region(t, b);
                copy_units(to, from, c);
                if constexpr (Lanes == 2) copy_units(to + bucket_cap(t, b), from + bucket_cap(s, b), c);
                copy_units(to + Lanes * bucket_cap(t, b), from + Lanes * bucket_cap(s, b), c * rest);
                if (j < 8) std::copy_n(s.sub + s.dir[2 * b], c, t.sub + t.dir[2 * b]);
                clear_free_slots(t, b);
            }
        } else {
            if (s.cap != 0) relayout(s, t, low);
            for (std::size_t b = 0; b < nb; ++b) clear_free_slots(t, b);
        }
        std::fill_n(t.data + cap * stride, lane_chunk, std::uint16_t{0});
        t.count = s.count;
        release(s);
        s = t;
    }

    /// Copies every entry of `s` into its bucket of `t` (more or fewer buckets); `low[i]`: the
    /// low byte of the bucket window of slot i of `s`.
    static void relayout(const segment& s, segment& t, const std::vector<std::uint8_t>& low) noexcept {
        const unsigned j = t.j;
        const std::size_t old_nb = std::size_t{1} << s.j;
        for (std::size_t b = 0; b < old_nb; ++b)
            for (std::size_t r = 0, e = s.dir[2 * b + 1]; r < e; ++r) {
                const std::size_t i = s.dir[2 * b] + r;
                const std::size_t nbk = static_cast<std::size_t>(low[i]) >> (8 - j);
                const std::size_t to = t.dir[2 * nbk + 1]++;
                std::uint16_t u[packed_max_units]{};
                load_units(s, b, r, u);
                put(t, nbk, to, u, value_at(s, b, r));
                if (j < 8) t.sub[t.dir[2 * nbk] + to] = low[i];
            }
    }

    /// Zeroes what no entry of bucket `b` fills and the lane filter may read: its free lanes,
    /// and the first `lane_chunk` units after the lanes (a chunk of lanes may run past the last
    /// lane: into the second lane array, whose free slots are zeroed too, or the other units).
    /// The other units of the free slots are written before anything reads them.
    static void clear_free_slots(segment& t, std::size_t b) noexcept {
        const std::size_t c = t.dir[2 * b + 1];
        const std::size_t tcap = bucket_cap(t, b);
        std::uint16_t* to = region(t, b);
        zero_units(to + c, tcap - c);
        if constexpr (Lanes == 2) zero_units(to + tcap + c, tcap - c);
        // Other units from the first free slot's to the end of what a chunk past the lanes reads.
        const std::size_t from = Lanes * tcap + c * rest;
        const std::size_t end = std::min(tcap + lane_chunk, (Lanes + rest) * tcap);
        if (from < end) zero_units(to + from, end - from);
        if (t.j < 8) std::fill(t.sub + t.dir[2 * b] + c, t.sub + t.dir[2 * b + 2], std::uint8_t{0});
    }

    /// `std::copy_n(from, n, to)` for two disjoint runs, inline: 16-byte moves, the last one
    /// overlapping the one before it, so nothing outside `to[0..n)` is written.
    static void copy_units(std::uint16_t* to, const std::uint16_t* from, std::size_t n) noexcept {
#if defined(__SSE2__) || defined(_M_X64)
        if (n >= 8) {
            for (std::size_t i = 0; i + 8 < n; i += 8)
                _mm_storeu_si128(reinterpret_cast<__m128i*>(to + i),
                                 _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i)));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(to + n - 8),
                             _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + n - 8)));
            return;
        }
        small_copy(to, from, n);
#else
        std::copy_n(from, n, to);
#endif
    }

    /// `std::fill_n(to, n, 0)`, inline (see `copy_units`).
    static void zero_units(std::uint16_t* to, std::size_t n) noexcept {
#if defined(__SSE2__) || defined(_M_X64)
        if (n >= 8) {
            const __m128i zero = _mm_setzero_si128();
            for (std::size_t i = 0; i + 8 < n; i += 8) _mm_storeu_si128(reinterpret_cast<__m128i*>(to + i), zero);
            _mm_storeu_si128(reinterpret_cast<__m128i*>(to + n - 8), zero);
            return;
        }
        static constexpr std::uint16_t zeros[8]{};
        small_copy(to, zeros, n);
#else
        std::fill_n(to, n, std::uint16_t{0});
#endif
    }

    /// Copies n units, sizeof(W) / 2 <= n <= sizeof(W), as a first and a last `W` (overlapping),
    /// both read before either is written.
    template <class W>
    static void two_moves(std::uint16_t* to, const std::uint16_t* from, std::size_t n) noexcept {
        constexpr std::size_t units = sizeof(W) / 2;
        W a;
        W z;
        std::memcpy(&a, from, sizeof(W));
        std::memcpy(&z, from + n - units, sizeof(W));
        std::memcpy(to, &a, sizeof(W));
        std::memcpy(to + n - units, &z, sizeof(W));
    }

    /// Copies n < 8 units with at most two fixed-size moves each way (overlapping).
    static void small_copy(std::uint16_t* to, const std::uint16_t* from, std::size_t n) noexcept {
        if (n >= 4) {
            two_moves<std::uint64_t>(to, from, n);
        } else if (n >= 2) {
            two_moves<std::uint32_t>(to, from, n);
        } else if (n == 1) {
            to[0] = from[0];
        }
    }

    std::vector<segment> m_segs;
    std::size_t m_size = 0;
    // Created on first use (a moved-from or new table allocates nothing); shared by `use_arena`.
    std::shared_ptr<segment_arena> m_arena;

    [[nodiscard]] segment_arena& own_arena() {
        if (!m_arena) m_arena = std::make_shared<segment_arena>();
        return *m_arena;
    }
};

}  // namespace detail
}  // namespace v0
}  // namespace semfp
