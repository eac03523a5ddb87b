#pragma once
/// \file
/// Building blocks of `HammingIndex` and `SinglePassClusterer`: key arithmetic, the 16-bit
/// lane filter, the multi-index block layout and query plans, and the id map. The tables
/// themselves are in packed_table.hpp, the multi-index in multi_index.hpp.

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#endif

namespace semfp {
inline namespace v0 {
namespace detail {

/// Hints the processor to load the cache line of `p` (for reading). A hint only: `p` need
/// not be dereferenceable.
inline void prefetch_for_read(const void* p) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p);
    // GCC may drop a call that only prefetches; an empty asm with the address as input gives
    // the call an effect without touching memory.
    asm volatile("" : : "r"(p));
#else
    (void)p;
#endif
}

/// Hints the processor to load the cache line of `p` for writing.
inline void prefetch_for_write(const void* p) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p, 1);
    asm volatile("" : : "r"(p));
#else
    (void)p;
#endif
}

/// True if the number of set bits of `x` is at most `k` (no popcount instruction needed).
[[nodiscard]] constexpr bool popcount_at_most(std::uint64_t x, unsigned k) noexcept {
    for (unsigned i = 0; i < k && x != 0; ++i) x &= x - 1;
    return x == 0;
}

template <std::size_t Words>
using key_t = std::array<std::uint64_t, Words>;

/// `x` rotated left by `s` bits as a `Words * 64`-bit string (word 0 most significant).
template <std::size_t Words>
[[nodiscard]] constexpr key_t<Words> rotate_left(const key_t<Words>& x, unsigned s) noexcept {
    if constexpr (Words == 1) {
        return {std::rotl(x[0], static_cast<int>(s))};
    } else {
        static_assert(Words == 2);
        key_t<2> y = x;
        if (s >= 64) {
            std::swap(y[0], y[1]);
            s -= 64;
        }
        if (s == 0) return y;
        return {(y[0] << s) | (y[1] >> (64 - s)), (y[1] << s) | (y[0] >> (64 - s))};
    }
}

/// Number of set bits of `x`: the instruction where the target has it, else an inline
/// bit-parallel count (a library call costs more on the index's hot paths).
[[nodiscard]] constexpr unsigned popcount64(std::uint64_t x) noexcept {
#if defined(__POPCNT__) || defined(_MSC_VER) || !(defined(__x86_64__) || defined(__i386__))
    return static_cast<unsigned>(std::popcount(x));
#else
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return static_cast<unsigned>((x * 0x0101010101010101ull) >> 56);
#endif
}

/// Hamming distance of two keys.
template <std::size_t Words>
[[nodiscard]] constexpr unsigned key_distance(const key_t<Words>& a, const key_t<Words>& b) noexcept {
    unsigned n = 0;
    for (std::size_t i = 0; i < Words; ++i) n += popcount64(a[i] ^ b[i]);
    return n;
}

/// The 16 bits of `x` starting at bit `p` (counted from the most significant, cyclically).
template <std::size_t Words>
[[nodiscard]] constexpr std::uint16_t window_at(const key_t<Words>& x, unsigned p) noexcept {
    return static_cast<std::uint16_t>(rotate_left<Words>(x, p)[0] >> 48);
}

/// Sets bit `i` of `k` (counted from the most significant).
template <std::size_t Words>
constexpr void set_key_bit(key_t<Words>& k, unsigned i) noexcept {
    k[i / 64] |= std::uint64_t{1} << (63 - i % 64);
}

/// Sets the 16 bits of `k` starting at bit `p` (cyclically).
template <std::size_t Words>
constexpr void add_key_window(key_t<Words>& k, unsigned p) noexcept {
    for (unsigned i = 0; i < 16; ++i) set_key_bit<Words>(k, (p + i) % static_cast<unsigned>(Words * 64));
}

/// True if `a` and `b` share no set bit.
template <std::size_t Words>
[[nodiscard]] constexpr bool keys_disjoint(const key_t<Words>& a, const key_t<Words>& b) noexcept {
    for (std::size_t i = 0; i < Words; ++i)
        if ((a[i] & b[i]) != 0) return false;
    return true;
}

/// True if every bit set in `inner` is set in `outer`.
template <std::size_t Words>
[[nodiscard]] constexpr bool key_covers(const key_t<Words>& outer, const key_t<Words>& inner) noexcept {
    for (std::size_t i = 0; i < Words; ++i)
        if ((inner[i] & ~outer[i]) != 0) return false;
    return true;
}

/// A key that is `v` at bits [p, p + 16) and zero elsewhere.
template <std::size_t Words>
[[nodiscard]] constexpr key_t<Words> window_key(std::uint16_t v, unsigned p) noexcept {
    key_t<Words> y{};
    y[0] = static_cast<std::uint64_t>(v) << 48;
    return p == 0 ? y : rotate_left<Words>(y, static_cast<unsigned>(Words * 64) - p);
}

/// Number of bits set in `(a ^ b) & mask`.
template <std::size_t Words>
[[nodiscard]] constexpr unsigned masked_distance(const key_t<Words>& a, const key_t<Words>& b,
                                                 const key_t<Words>& mask) noexcept {
    unsigned n = 0;
    for (std::size_t i = 0; i < Words; ++i) n += popcount64((a[i] ^ b[i]) & mask[i]);
    return n;
}

/// Width of the lane-filter kernel; lane runs are padded to a multiple of it.
inline constexpr std::size_t lane_chunk = 16;

/// Bit i of the result is set if the 16-bit lanes `a[i]` and `q` differ in at most K bits
/// (i < lane_chunk): a fixed-trip, branch-free loop that compilers vectorise.
template <unsigned K>
[[nodiscard]] inline std::uint32_t lane_filter_portable(const std::uint16_t* a, std::uint16_t q) noexcept {
    std::uint8_t ok[lane_chunk];
    for (std::size_t i = 0; i < lane_chunk; ++i) {
        auto y = static_cast<std::uint16_t>(a[i] ^ q);
        for (unsigned j = 0; j < K; ++j) y = static_cast<std::uint16_t>(y & (y - 1));
        ok[i] = y == 0;
    }
    std::uint64_t lo;
    std::uint64_t hi;
    std::memcpy(&lo, ok, 8);
    std::memcpy(&hi, ok + 8, 8);
    if ((lo | hi) == 0) return 0;
    std::uint32_t m = 0;
    for (std::size_t i = 0; i < lane_chunk; ++i) m |= static_cast<std::uint32_t>(ok[i]) << i;
    return m;
}

/// `lane_filter_portable<K>` with SSE2 where available: two vectors of eight lanes, one
/// movemask.
template <unsigned K>
[[nodiscard]] inline std::uint32_t lane_filter(const std::uint16_t* a, std::uint16_t q) noexcept {
#if defined(__SSE2__) || defined(_M_X64)
    const __m128i qv = _mm_set1_epi16(static_cast<short>(q));
    const __m128i one = _mm_set1_epi16(1);
    __m128i y0 = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a)), qv);
    __m128i y1 = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a + 8)), qv);
    for (unsigned j = 0; j < K; ++j) {  // clear the lowest set bit K times
        y0 = _mm_and_si128(y0, _mm_sub_epi16(y0, one));
        y1 = _mm_and_si128(y1, _mm_sub_epi16(y1, one));
    }
    const __m128i zero = _mm_setzero_si128();
    const __m128i hit = _mm_packs_epi16(_mm_cmpeq_epi16(y0, zero), _mm_cmpeq_epi16(y1, zero));
    return static_cast<std::uint32_t>(_mm_movemask_epi8(hit));
#else
    return lane_filter_portable<K>(a, q);
#endif
}

/// Lanes are 16 bits: a radius of 16 or more admits every lane.
inline constexpr unsigned lane_bits = 16;

/// Calls `f(std::integral_constant<unsigned, K>{})` with K = min(r, lane_bits): one instantiation
/// per lane radius, so the lane filter's loop count is a constant.
template <class F>
inline void with_lane_radius(unsigned r, F&& f) {
    [&]<unsigned... K>(std::integer_sequence<unsigned, K...>) {
        const unsigned c = r < lane_bits ? r : lane_bits;
        (void)((c == K ? (f(std::integral_constant<unsigned, K>{}), true) : false) || ...);
    }(std::make_integer_sequence<unsigned, lane_bits + 1>{});
}

/// `lane_filter<R>(a, q)` for a run-time R (any value; 16 and more admit every lane).
[[nodiscard]] inline std::uint32_t lane_filter_within(const std::uint16_t* a, std::uint16_t q, unsigned r) noexcept {
    std::uint32_t m = 0;
    with_lane_radius(r, [&]<unsigned K>(std::integral_constant<unsigned, K>) {
        if constexpr (K >= lane_bits) m = (std::uint32_t{1} << lane_chunk) - 1;
        else m = lane_filter<K>(a, q);
    });
    return m;
}

/// "No lanes to skip" for `for_each_lane_within`.
inline constexpr unsigned no_lane_skip = ~0u;

/// Calls `f(i)` for every i < n with `popcount(a[i] ^ q) <= k`, except those with
/// `popcount(a[i] ^ q) <= skip` (`skip < k`, or `no_lane_skip`); `a` must be readable up to n
/// rounded up to a multiple of `lane_chunk` (values past n are ignored). Any k: radii of 16
/// and more admit every lane (a skip of 16 or more, every lane skipped).
template <class F>
inline void for_each_lane_within(const std::uint16_t* a, std::size_t n, std::uint16_t q, unsigned k, unsigned skip,
                                 F&& f) {
    if (skip != no_lane_skip && skip >= lane_bits) return;
    with_lane_radius(k, [&]<unsigned K>(std::integral_constant<unsigned, K>) {
        for (std::size_t base = 0; base < n; base += lane_chunk) {
            std::uint32_t m;
            if constexpr (K >= lane_bits) m = (std::uint32_t{1} << lane_chunk) - 1;
            else m = lane_filter<K>(a + base, q);
            if (m != 0 && skip < K) m &= ~lane_filter_within(a + base, q, skip);
            if (n - base < lane_chunk) m &= (std::uint32_t{1} << (n - base)) - 1;
            while (m != 0) {
                f(base + static_cast<std::size_t>(std::countr_zero(m)));
                m &= m - 1;
            }
        }
    });
}

template <class F>
inline void for_each_lane_within(const std::uint16_t* a, std::size_t n, std::uint16_t q, unsigned k, F&& f) {
    for_each_lane_within(a, n, q, k, no_lane_skip, std::forward<F>(f));
}

/// Open-addressing map from caller ids (64-bit) to 32-bit handles. Only handles are stored;
/// the owner supplies `id_of(handle)`, so the map costs 4 bytes per slot (load <= 3/4).
class id_table {
public:
    static constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();

    [[nodiscard]] std::size_t size() const noexcept { return m_size; }
    [[nodiscard]] std::size_t memory_bytes() const noexcept { return m_slots.capacity() * sizeof(std::uint32_t); }

    /// The handle of `id`, or `none`.
    template <class IdOf>
    [[nodiscard]] std::uint32_t find(std::uint64_t id, IdOf&& id_of) const noexcept {
        if (m_slots.empty()) return none;
        for (std::size_t p = home(id);; p = (p + 1) & m_mask) {
            const std::uint32_t h = m_slots[p];
            if (h == none) return none;
            if (id_of(h) == id) return h;
        }
    }

    /// Makes room for `extra` more ids (strong guarantee).
    template <class IdOf>
    void reserve(std::size_t extra, IdOf&& id_of) {
        const std::size_t want = m_size + extra;
        if (!m_slots.empty() && want * 4 <= m_slots.size() * 3) return;
        std::size_t cap = std::max<std::size_t>(m_slots.size(), 16);
        while (want * 4 > cap * 3) cap *= 2;
        id_table t;
        t.m_slots.assign(cap, none);
        t.m_mask = cap - 1;
        t.m_shift = static_cast<unsigned>(64 - std::countr_zero(cap));
        for (const std::uint32_t h : m_slots)
            if (h != none) t.insert(id_of(h), h);
        t.m_size = m_size;
        swap(t);
    }

    /// Hints the processor to load the slot where a lookup of `id` starts.
    void prefetch(std::uint64_t id) const noexcept {
        if (m_slots.empty()) return;
        prefetch_for_read(m_slots.data() + home(id));
    }

    /// Inserts after `reserve(1, ...)`; `id` must be absent.
    void insert(std::uint64_t id, std::uint32_t handle) noexcept {
        std::size_t p = home(id);
        while (m_slots[p] != none) p = (p + 1) & m_mask;
        m_slots[p] = handle;
        ++m_size;
    }

    /// Removes `id`; returns its handle or `none`.
    template <class IdOf>
    std::uint32_t erase(std::uint64_t id, IdOf&& id_of) noexcept {
        if (m_slots.empty()) return none;
        std::size_t p = home(id);
        for (;; p = (p + 1) & m_mask) {
            if (m_slots[p] == none) return none;
            if (id_of(m_slots[p]) == id) break;
        }
        const std::uint32_t found = m_slots[p];
        // Backward-shift deletion keeps every probe sequence unbroken.
        std::size_t hole = p;
        for (std::size_t q = (p + 1) & m_mask; m_slots[q] != none; q = (q + 1) & m_mask) {
            const std::size_t h = home(id_of(m_slots[q]));
            // Move q into the hole if its home is not in (hole, q] (cyclically).
            const bool between = hole <= q ? (h > hole && h <= q) : (h > hole || h <= q);
            if (!between) {
                m_slots[hole] = m_slots[q];
                hole = q;
            }
        }
        m_slots[hole] = none;
        --m_size;
        return found;
    }

    void clear() noexcept {
        id_table t;
        swap(t);
    }
    void swap(id_table& o) noexcept {
        m_slots.swap(o.m_slots);
        std::swap(m_mask, o.m_mask);
        std::swap(m_shift, o.m_shift);
        std::swap(m_size, o.m_size);
    }

private:
    [[nodiscard]] std::size_t home(std::uint64_t id) const noexcept {
        // Fibonacci hashing spreads sequential and structured ids.
        return static_cast<std::size_t>((id * 0x9E3779B97F4A7C15ull) >> m_shift);
    }

    std::vector<std::uint32_t> m_slots;
    std::size_t m_mask = 0;
    unsigned m_shift = 63;
    std::size_t m_size = 0;
};

/// Grows `v` geometrically so that one more `push_back` cannot allocate (strong guarantee).
template <class Vec>
void reserve_one_more(Vec& v) {
    if (v.size() == v.capacity()) v.reserve(v.size() + v.size() / 2 + 16);
}

/// One block of the layout: bits [start, start + length) counted from the most significant bit.
struct index_block {
    unsigned start;
    unsigned length;
};

/// One step of a query plan: probe table `table` with every block value within `radius`.
struct plan_step {
    unsigned table;
    unsigned radius;
};

/// Can a secondary table of a `Bits`-bit multi-index with bucket window `bucket` store the
/// window at `p` (a whole 16-bit window, disjoint from the bucket window)?
template <std::size_t Bits>
[[nodiscard]] constexpr bool fits_secondary(unsigned p, unsigned bucket) noexcept {
    return p % 16 == 0 && p < Bits && (p > bucket ? p - bucket : bucket - p) >= 16;
}

/// Stored windows of a secondary table (`units` of them): `lane` first (0: the primary's bucket
/// window), window 0 (which names the primary bucket), then the first others that fit.
template <std::size_t Bits>
[[nodiscard]] std::vector<unsigned> secondary_windows(unsigned bucket, unsigned lane, unsigned units) {
    std::vector<unsigned> pos{lane};
    if (lane != 0) pos.push_back(0);
    for (unsigned p = 16; p < Bits && pos.size() < units; p += 16)
        if (p != lane && fits_secondary<Bits>(p, bucket)) pos.push_back(p);
    return pos;
}

/// Number of values within Hamming radius `r` of a `b`-bit value.
[[nodiscard]] constexpr double ball_size(unsigned b, unsigned r) noexcept {
    double total = 0;
    double c = 1;
    for (unsigned j = 0; j <= r && j <= b; ++j) {
        total += c;
        c = c * static_cast<double>(b - j) / static_cast<double>(j + 1);
    }
    return total;
}

/// Largest radius a `HammingIndex<Bits>` answers (a quarter of the bits; every layout has a
/// plan for it, see make_plan).
template <std::size_t Bits>
inline constexpr unsigned max_radius_limit = static_cast<unsigned>(Bits / 4);

/// Default number of blocks for (Bits, max_k): max_k + 1 blocks (each probed once, radius 0)
/// but no block shorter than 16 bits (the bucket directory has 2^16 entries, and shorter blocks
/// make the buckets of large indexes long); beyond that, radius-1 probes. For 64 bits: k = 3 ->
/// four 16-bit blocks (measured fastest at 1 M to 10 M entries, see bench/index_bench.cpp).
template <std::size_t Bits>
[[nodiscard]] constexpr unsigned default_block_count(unsigned max_k) noexcept {
    const unsigned m = std::min<unsigned>(max_k + 1, static_cast<unsigned>(Bits / 16));
    return std::max<unsigned>(m, static_cast<unsigned>(Bits / 64));
}

/// Most blocks a layout has (every block is at least 16 bits long, at most 128 bits here).
inline constexpr std::size_t max_plan_steps = 8;

/// A query plan in fixed storage: `steps[0, count)`.
struct fixed_plan {
    std::array<plan_step, max_plan_steps> steps;
    std::size_t count;
};

/// The exact query plan for radius `k` over blocks `blocks[0, m)` (m <= max_plan_steps):
/// minimises the number of probes subject to sum(radius + 1) >= k + 1 (greedy: each unit goes
/// where it adds fewest probes). Allocation-free, so that a query can build the plan it needs.
[[nodiscard]] inline fixed_plan make_fixed_plan(const index_block* blocks, std::size_t m, unsigned k) noexcept {
    std::array<int, max_plan_steps> radius{};
    for (std::size_t t = 0; t < m; ++t) radius[t] = -1;
    for (unsigned unit = 0; unit <= k; ++unit) {
        std::size_t best = m;
        double best_cost = 0;
        for (std::size_t t = 0; t < m; ++t) {
            const unsigned b = blocks[t].length;
            // A step probes the 16-bit bucket windows within its radius of the query's.
            const unsigned probed = std::min(b, 16u);
            double cost;
            if (radius[t] < 0) {
                cost = 1.0;
            } else {
                const auto r = static_cast<unsigned>(radius[t]);
                if (r + 1 > b) continue;
                cost = ball_size(probed, r + 1) - ball_size(probed, r);
            }
            // Prefer new tables on ties, then longer blocks (fewer candidates per probe).
            if (best == m || cost < best_cost ||
                (cost == best_cost && radius[t] < radius[best]) ||
                (cost == best_cost && radius[t] == radius[best] && b > blocks[best].length)) {
                best = t;
                best_cost = cost;
            }
        }
        ++radius[best];
    }
    fixed_plan plan{};
    for (std::size_t t = 0; t < m; ++t)
        if (radius[t] >= 0) plan.steps[plan.count++] = {static_cast<unsigned>(t), static_cast<unsigned>(radius[t])};
    // Cheap steps first: cross-table de-duplication tests earlier steps. (Stable insertion
    // sort by radius: at most max_plan_steps steps.)
    for (std::size_t i = 1; i < plan.count; ++i) {
        const plan_step x = plan.steps[i];
        std::size_t j = i;
        for (; j > 0 && plan.steps[j - 1].radius > x.radius; --j) plan.steps[j] = plan.steps[j - 1];
        plan.steps[j] = x;
    }
    return plan;
}

/// `make_fixed_plan` as a vector.
[[nodiscard]] inline std::vector<plan_step> make_plan(const std::vector<index_block>& blocks, unsigned k) {
    const fixed_plan p = make_fixed_plan(blocks.data(), blocks.size(), k);
    return {p.steps.begin(), p.steps.begin() + static_cast<std::ptrdiff_t>(p.count)};
}

/// Calls `f(mask)` for every `b`-bit mask with at most `r` set bits (b <= 64).
template <class F>
constexpr void for_each_mask(unsigned b, unsigned r, F&& f) {
    f(std::uint64_t{0});
    unsigned idx[64];
    for (unsigned j = 1; j <= r && j <= b; ++j) {
        for (unsigned i = 0; i < j; ++i) idx[i] = i;
        for (;;) {
            std::uint64_t mask = 0;
            for (unsigned i = 0; i < j; ++i) mask |= std::uint64_t{1} << idx[i];
            f(mask);
            // Next combination in lexicographic order.
            int i = static_cast<int>(j) - 1;
            while (i >= 0 && idx[i] == b - j + static_cast<unsigned>(i)) --i;
            if (i < 0) break;
            ++idx[i];
            for (unsigned t = static_cast<unsigned>(i) + 1; t < j; ++t) idx[t] = idx[t - 1] + 1;
        }
    }
}

}  // namespace detail
}  // namespace v0
}  // namespace semfp
