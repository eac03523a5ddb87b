#pragma once
/// \file
/// Internals of `HammingIndex` and `SinglePassClusterer`: bucketed tables of rotated
/// fingerprints, the multi-index block layout, the exact query plan and an id map.
///
/// Design (multi-index hashing with the generalised pigeonhole principle, Norouzi et al. 2012,
/// the dynamic cousin of Manku et al. 2007's permuted tables): the `Bits` bits are cut into `m`
/// contiguous blocks. Table `t` stores every fingerprint rotated so that block `t` is its most
/// significant bits, bucketed by (a prefix of) that block. If `d(a, b) <= k` and radii `r_t`
/// satisfy `sum(r_t + 1) >= k + 1` over the probed tables, then some block has `d_t <= r_t`;
/// probing every block value within `r_t` of the query's block therefore finds every answer,
/// and each candidate is verified exactly. The plan for each `k` picks the tables and radii.
///
/// Measured on the target machine (bench/index_bench.cpp, 1 M random 64-bit entries, k = 3):
/// 2 blocks (radius-1 probes) 2.3 us per query, 3 blocks 1.2 us, 4 blocks (four exact 16-bit
/// probes) 0.44 us, hence four blocks for k = 3. Memory latency dominates, so the tables are laid
/// out for it: a bucket is one block of memory at a computed address, scanned through a 16-bit
/// filter lane, and batch callers prefetch a few items ahead.

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
#include <vector>

namespace semfp {
inline namespace v0 {
namespace detail {

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

/// Hamming distance of two keys.
template <std::size_t Words>
[[nodiscard]] constexpr unsigned key_distance(const key_t<Words>& a, const key_t<Words>& b) noexcept {
    unsigned n = 0;
    for (std::size_t i = 0; i < Words; ++i) n += static_cast<unsigned>(std::popcount(a[i] ^ b[i]));
    return n;
}

/// True if `d(a, b) <= k`, cheaply.
template <std::size_t Words>
[[nodiscard]] constexpr bool key_within(const key_t<Words>& a, const key_t<Words>& b, unsigned k) noexcept {
    if constexpr (Words == 1) {
        return popcount_at_most(a[0] ^ b[0], k);
    } else {
        std::uint64_t x0 = a[0] ^ b[0];
        std::uint64_t x1 = a[1] ^ b[1];
        for (unsigned i = 0; i < k; ++i) {
            if (x0 != 0) x0 &= x0 - 1;
            else if (x1 != 0) x1 &= x1 - 1;
            else return true;
        }
        return (x0 | x1) == 0;
    }
}

template <std::size_t Words>
[[nodiscard]] constexpr bool key_less(const key_t<Words>& a, const key_t<Words>& b) noexcept {
    if constexpr (Words == 1) return a[0] < b[0];
    else return a[0] < b[0] || (a[0] == b[0] && a[1] < b[1]);
}

/// Width of the lane-filter kernel; lane runs are padded to a multiple of it.
inline constexpr std::size_t lane_chunk = 16;

/// Bit i of the result is set if the 16-bit lanes `a[i]` and `q` differ in at most K bits
/// (i < lane_chunk). Fixed trip count and no branches, so that compilers vectorise it even at
/// -O2 (SSE2 handles eight lanes per instruction).
template <unsigned K>
[[nodiscard]] inline std::uint32_t lane_filter(const std::uint16_t* a, std::uint16_t q) noexcept {
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

/// Calls `f(i)` for every i < n with `popcount(a[i] ^ q) <= k`; `a` must be readable up to n
/// rounded up to a multiple of `lane_chunk` (values past n are ignored).
template <class F>
inline void for_each_lane_within(const std::uint16_t* a, std::size_t n, std::uint16_t q, unsigned k, F&& f) {
    auto run = [&]<unsigned K>(std::integral_constant<unsigned, K>) {
        for (std::size_t base = 0; base < n; base += lane_chunk) {
            std::uint32_t m = lane_filter<K>(a + base, q);
            if (n - base < lane_chunk) m &= (std::uint32_t{1} << (n - base)) - 1;
            while (m != 0) {
                f(base + static_cast<std::size_t>(std::countr_zero(m)));
                m &= m - 1;
            }
        }
    };
    switch (k) {
    case 0: run(std::integral_constant<unsigned, 0>{}); break;
    case 1: run(std::integral_constant<unsigned, 1>{}); break;
    case 2: run(std::integral_constant<unsigned, 2>{}); break;
    case 3: run(std::integral_constant<unsigned, 3>{}); break;
    case 4: run(std::integral_constant<unsigned, 4>{}); break;
    case 5: run(std::integral_constant<unsigned, 5>{}); break;
    case 6: run(std::integral_constant<unsigned, 6>{}); break;
    case 7: run(std::integral_constant<unsigned, 7>{}); break;
    default:
        for (std::size_t i = 0; i < n; ++i)
            if (popcount_at_most(static_cast<std::uint64_t>(a[i] ^ q), k)) f(i);
        break;
    }
}

/// A bucketed table of (key, value) pairs, laid out for memory latency: the top `dir_bits`
/// (<= 16) bits of a key pick a bucket, and every bucket is one fixed-size block of the arena at
/// an address computed from the key (no directory to read first). A block holds a small
/// header (count, overflow list) and up to `cap` entries: lane 1 (bits 16..31) of every key in
/// one run, then per entry a record of the other 16-bit lanes and the value. A query scans lane
/// 1 of a bucket and rules out entries whose lane differs from the query's in more than k bits
/// (2 bytes read per candidate). Entries beyond `cap` (skewed data) go to a per-bucket overflow
/// list. When the table grows by a quarter the arena is rebuilt with more buckets or a larger
/// `cap` (room for the quarter plus 2.5 standard deviations; amortised O(1) per insert).
/// Everything is stored as 16-bit units (no type punning).
template <std::size_t Words>
class lane_table {
public:
    using key_type = key_t<Words>;
    static constexpr std::size_t lanes = Words * 4;
    static constexpr unsigned max_dir_bits = 16;

    lane_table() = default;

    [[nodiscard]] std::size_t size() const noexcept { return m_size; }
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        std::size_t n = m_arena_size * sizeof(std::uint16_t);
        n += m_overflow.capacity() * sizeof(overflow_list);
        for (const auto& o : m_overflow) n += o.keys.capacity() * sizeof(key_type) + o.values.capacity() * 4;
        return n;
    }

    /// Makes room for one insert of `key` (strong guarantee); the next `insert(key, ...)` cannot
    /// allocate.
    void reserve_for(const key_type& key) {
        if (m_arena_size == 0 || m_size + 1 > m_limit) {
            rebuild(m_size + 1);
            return;
        }
        const std::uint16_t* blk = block(bucket_of(key));
        if (count_of(blk) < m_cap) return;
        std::size_t o = overflow_of(blk);
        if (o == 0) {
            m_overflow.reserve(m_overflow.size() + 1);
            return;
        }
        auto& list = m_overflow[o - 1];
        if (list.keys.size() == list.keys.capacity()) list.keys.reserve(list.keys.size() * 2 + 4);
        if (list.values.size() == list.values.capacity()) list.values.reserve(list.values.size() * 2 + 4);
    }

    /// Inserts (key, value) after `reserve_for(key)`.
    void insert(const key_type& key, std::uint32_t value) noexcept {
        std::uint16_t* blk = block(bucket_of(key));
        const std::uint32_t c = count_of(blk);
        if (c < m_cap) {
            put(blk, c, key, value);
            set_count(blk, c + 1);
        } else {
            std::size_t o = overflow_of(blk);
            if (o == 0) {
                m_overflow.emplace_back();  // capacity reserved: cannot throw
                o = m_overflow.size();
                set_overflow(blk, o);
            }
            m_overflow[o - 1].keys.push_back(key);
            m_overflow[o - 1].values.push_back(value);
        }
        ++m_size;
    }

    /// Removes the entry (key, value); returns false if absent.
    bool erase(const key_type& key, std::uint32_t value) noexcept {
        if (m_arena_size == 0) return false;
        std::uint16_t* blk = block(bucket_of(key));
        const std::uint32_t c = count_of(blk);
        const std::size_t o = overflow_of(blk);
        for (std::uint32_t i = 0; i < c; ++i) {
            if (value_at(blk, i) == value && key_at(blk, i) == key) {
                if (o != 0 && !m_overflow[o - 1].keys.empty()) {
                    auto& list = m_overflow[o - 1];
                    put(blk, i, list.keys.back(), list.values.back());
                    list.keys.pop_back();
                    list.values.pop_back();
                } else {
                    put(blk, i, key_at(blk, c - 1), value_at(blk, c - 1));
                    set_count(blk, c - 1);
                }
                --m_size;
                return true;
            }
        }
        if (o != 0) {
            auto& list = m_overflow[o - 1];
            for (std::size_t i = 0; i < list.keys.size(); ++i) {
                if (list.values[i] == value && list.keys[i] == key) {
                    list.keys[i] = list.keys.back();
                    list.values[i] = list.values.back();
                    list.keys.pop_back();
                    list.values.pop_back();
                    --m_size;
                    return true;
                }
            }
        }
        return false;
    }

    /// Calls `f(key, value)` for the entries whose top `bits` bits of word 0 equal `prefix`
    /// (1 <= bits <= 64) and whose distance to `q` is at most `k`.
    template <class F>
    void for_each_match(std::uint64_t prefix, unsigned bits, const key_type& q, unsigned k, F&& f) const {
        if (m_size == 0) return;
        const unsigned shift = 64 - bits;
        std::size_t b0;
        std::size_t b1;
        if (bits >= m_dir_bits) {
            b0 = static_cast<std::size_t>(prefix >> (bits - m_dir_bits));
            b1 = b0 + 1;
        } else {
            b0 = static_cast<std::size_t>(prefix << (m_dir_bits - bits));
            b1 = static_cast<std::size_t>((prefix + 1) << (m_dir_bits - bits));
        }
        const auto qlane = static_cast<std::uint16_t>(q[0] >> 32);
        for (std::size_t b = b0; b < b1; ++b) {
            const std::uint16_t* blk = block(b);
            for_each_lane_within(blk + header, count_of(blk), qlane, k, [&](std::size_t i) {
                const key_type key = key_at(blk, i);
                if ((key[0] >> shift) == prefix && key_within<Words>(key, q, k)) f(key, value_at(blk, i));
            });
            if (const std::size_t o = overflow_of(blk); o != 0) {
                const auto& list = m_overflow[o - 1];
                for (std::size_t i = 0; i < list.keys.size(); ++i)
                    if ((list.keys[i][0] >> shift) == prefix && key_within<Words>(list.keys[i], q, k))
                        f(list.keys[i], list.values[i]);
            }
        }
    }

    /// Hints the processor to load the bucket of `prefix` (same arguments as `for_each_match`).
    void prefetch(std::uint64_t prefix, unsigned bits) const noexcept {
#if defined(__GNUC__) || defined(__clang__)
        // A prefetch never faults, so an out-of-range address (empty table) is harmless; integer
        // arithmetic avoids forming an invalid pointer.
        const unsigned shift = bits >= m_dir_bits ? std::min(bits - m_dir_bits, 63u) : 0;
        const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(m_arena.get()) +
                                  static_cast<std::uintptr_t>((prefix >> shift) * m_stride * sizeof(std::uint16_t));
        // The header and lane run of a bucket: (4 + cap) 16-bit units, at most 8 lines.
        const std::size_t lines = std::min<std::size_t>((header + m_cap) * sizeof(std::uint16_t) / 64 + 1, 8);
        for (std::size_t l = 0; l < lines; ++l) __builtin_prefetch(reinterpret_cast<const void*>(at + 64 * l));
        // GCC treats prefetches as side-effect free and may delete a call to a function that
        // only prefetches (it becomes "pure" with an unused result); an empty volatile asm
        // marks the call as having an effect without touching memory.
        asm volatile("" : : "r"(at));
#else
        (void)prefix;
        (void)bits;
#endif
    }

    /// Hints the processor to load, for writing, the slot that inserting `key` would fill.
    /// Reads the bucket header: issue it after `prefetch` has brought the bucket in.
    void prefetch_insert(const key_type& key) const noexcept {
#if defined(__GNUC__) || defined(__clang__)
        if (m_arena_size == 0) return;
        const std::uint16_t* blk = block(bucket_of(key));
        const std::uint32_t c = std::min(count_of(blk), m_cap - 1);
        const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(blk + header + m_cap + c * record);
        __builtin_prefetch(reinterpret_cast<const void*>(at), 1);
        asm volatile("" : : "r"(at));  // see prefetch
#else
        (void)key;
#endif
    }

    /// Calls `f(key, value)` for every entry (bucket order; unordered within a bucket).
    template <class F>
    void for_each(F&& f) const {
        const std::size_t buckets = m_arena_size == 0 ? 0 : std::size_t{1} << m_dir_bits;
        for (std::size_t b = 0; b < buckets; ++b) {
            const std::uint16_t* blk = block(b);
            for (std::uint32_t i = 0, c = count_of(blk); i < c; ++i) f(key_at(blk, i), value_at(blk, i));
            if (const std::size_t o = overflow_of(blk); o != 0) {
                const auto& list = m_overflow[o - 1];
                for (std::size_t i = 0; i < list.keys.size(); ++i) f(list.keys[i], list.values[i]);
            }
        }
    }

    void clear() noexcept {
        lane_table t;
        swap(t);
    }

    void swap(lane_table& o) noexcept {
        std::swap(m_dir_bits, o.m_dir_bits);
        std::swap(m_cap, o.m_cap);
        std::swap(m_stride, o.m_stride);
        std::swap(m_arena, o.m_arena);
        std::swap(m_arena_size, o.m_arena_size);
        m_overflow.swap(o.m_overflow);
        std::swap(m_size, o.m_size);
        std::swap(m_limit, o.m_limit);
    }

    lane_table(const lane_table& o)
        : m_dir_bits(o.m_dir_bits), m_cap(o.m_cap), m_stride(o.m_stride), m_arena_size(o.m_arena_size),
          m_overflow(o.m_overflow), m_size(o.m_size), m_limit(o.m_limit) {
        if (m_arena_size != 0) {
            m_arena = std::make_unique_for_overwrite<std::uint16_t[]>(m_arena_size);
            std::copy_n(o.m_arena.get(), m_arena_size, m_arena.get());
        }
    }
    lane_table& operator=(const lane_table& o) {
        if (this != &o) {
            lane_table t(o);
            swap(t);
        }
        return *this;
    }
    lane_table(lane_table&& o) noexcept { swap(o); }
    lane_table& operator=(lane_table&& o) noexcept {
        lane_table t(std::move(o));
        swap(t);
        return *this;
    }
    ~lane_table() = default;

private:
    struct overflow_list {
        std::vector<key_type> keys;
        std::vector<std::uint32_t> values;
    };

    // Block layout in 16-bit units: [count lo, count hi, overflow lo, overflow hi]
    // [lane 1 x cap] [record x cap], a record being the other lanes and the value halves, so
    // that an insert touches two places of the block and a scan reads lane 1 contiguously.
    static constexpr std::size_t header = 4;

    [[nodiscard]] std::size_t bucket_of(const key_type& key) const noexcept {
        return static_cast<std::size_t>(key[0] >> (64 - m_dir_bits));
    }
    [[nodiscard]] const std::uint16_t* block(std::size_t b) const noexcept { return m_arena.get() + b * m_stride; }
    [[nodiscard]] std::uint16_t* block(std::size_t b) noexcept { return m_arena.get() + b * m_stride; }

    [[nodiscard]] static std::uint32_t count_of(const std::uint16_t* blk) noexcept {
        return static_cast<std::uint32_t>(blk[0]) | (static_cast<std::uint32_t>(blk[1]) << 16);
    }
    static void set_count(std::uint16_t* blk, std::uint32_t c) noexcept {
        blk[0] = static_cast<std::uint16_t>(c);
        blk[1] = static_cast<std::uint16_t>(c >> 16);
    }
    [[nodiscard]] static std::size_t overflow_of(const std::uint16_t* blk) noexcept {
        return static_cast<std::size_t>(blk[2]) | (static_cast<std::size_t>(blk[3]) << 16);
    }
    static void set_overflow(std::uint16_t* blk, std::size_t o) noexcept {
        blk[2] = static_cast<std::uint16_t>(o);
        blk[3] = static_cast<std::uint16_t>(o >> 16);
    }

    // Units per entry in the record area: the key's lanes other than lane 1, then the value.
    static constexpr std::size_t record = lanes - 1 + 2;

    [[nodiscard]] key_type key_at(const std::uint16_t* blk, std::size_t i) const noexcept {
        const std::uint16_t* r = blk + header + m_cap + i * record;
        key_type key{};
        // Lane order in the record: 0, 2, 3, ..., lanes - 1.
        key[0] = (static_cast<std::uint64_t>(r[0]) << 48) | (static_cast<std::uint64_t>(blk[header + i]) << 32) |
                 (static_cast<std::uint64_t>(r[1]) << 16) | r[2];
        for (std::size_t w = 1; w < Words; ++w)
            for (std::size_t j = 0; j < 4; ++j) key[w] = (key[w] << 16) | r[w * 4 + j - 1];
        return key;
    }
    [[nodiscard]] std::uint32_t value_at(const std::uint16_t* blk, std::size_t i) const noexcept {
        const std::uint16_t* r = blk + header + m_cap + i * record + (lanes - 1);
        return static_cast<std::uint32_t>(r[0]) | (static_cast<std::uint32_t>(r[1]) << 16);
    }
    void put(std::uint16_t* blk, std::size_t i, const key_type& key, std::uint32_t value) noexcept {
        std::uint16_t* r = blk + header + m_cap + i * record;
        blk[header + i] = static_cast<std::uint16_t>(key[0] >> 32);
        r[0] = static_cast<std::uint16_t>(key[0] >> 48);
        r[1] = static_cast<std::uint16_t>(key[0] >> 16);
        r[2] = static_cast<std::uint16_t>(key[0]);
        for (std::size_t w = 1; w < Words; ++w)
            for (std::size_t j = 0; j < 4; ++j) r[w * 4 + j - 1] = static_cast<std::uint16_t>(key[w] >> (48 - 16 * j));
        r[lanes - 1] = static_cast<std::uint16_t>(value);
        r[lanes] = static_cast<std::uint16_t>(value >> 16);
    }

    /// Re-lays the table for `n` entries: about 8 to 16 entries per bucket (at most 2^16
    /// buckets), room in every block for a quarter more entries plus 2.5 standard deviations,
    /// so that for well-mixed fingerprints overflow lists stay rare.
    void rebuild(std::size_t n) {
        const auto lg = static_cast<unsigned>(std::bit_width(n));
        const unsigned dir_bits = std::max(std::min(lg > 4 ? lg - 3 : 1u, max_dir_bits), std::max(m_dir_bits, 1u));
        const std::size_t buckets = std::size_t{1} << dir_bits;
        const std::size_t limit = std::max<std::size_t>(n + n / 4, 16);
        const double lambda = static_cast<double>(limit) / static_cast<double>(buckets);
        // The lane kernel reads whole chunks: past `cap` it reads the block's own records, so
        // `cap` needs no rounding, only enough records behind the lanes (cap >= 4).
        const auto cap = std::max<std::size_t>(static_cast<std::size_t>(lambda + 2.5 * std::sqrt(lambda) + 2.0), 4);
        const std::size_t stride = header + cap * (lanes + 2);
        lane_table t;
        t.m_dir_bits = dir_bits;
        t.m_cap = static_cast<std::uint32_t>(cap);
        t.m_stride = stride;
        t.m_arena_size = buckets * stride;
        t.m_arena = std::make_unique<std::uint16_t[]>(t.m_arena_size);  // zeroed headers
        t.m_limit = limit;
        for_each([&](const key_type& key, std::uint32_t value) {
            t.reserve_for(key);
            t.insert(key, value);
        });
        swap(t);
    }

    unsigned m_dir_bits = 0;
    std::uint32_t m_cap = 0;
    std::size_t m_stride = 0;
    std::unique_ptr<std::uint16_t[]> m_arena;
    std::size_t m_arena_size = 0;
    std::vector<overflow_list> m_overflow;
    std::size_t m_size = 0;
    std::size_t m_limit = 0;
};

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
#if defined(__GNUC__) || defined(__clang__)
        const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(m_slots.data()) +
                                  static_cast<std::uintptr_t>(home(id) * sizeof(std::uint32_t));
        __builtin_prefetch(reinterpret_cast<const void*>(at));
        asm volatile("" : : "r"(at));  // see lane_table::prefetch
#else
        (void)id;
#endif
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

/// Largest radius a `HammingIndex<Bits>` may be built for.
template <std::size_t Bits>
inline constexpr unsigned max_radius_limit = Bits == 64 ? 7u : 15u;

/// Default number of blocks for (Bits, max_k): max_k + 1 blocks (each probed once, radius 0)
/// but no block shorter than 16 bits (the bucket directory has 2^16 entries, and shorter blocks
/// make the buckets of large indexes long); beyond that, radius-1 probes. For 64 bits: k = 3 ->
/// four 16-bit blocks (measured fastest at 1 M to 10 M entries, see bench/index_bench.cpp).
template <std::size_t Bits>
[[nodiscard]] constexpr unsigned default_block_count(unsigned max_k) noexcept {
    const unsigned m = std::min<unsigned>(max_k + 1, static_cast<unsigned>(Bits / 16));
    return std::max<unsigned>(m, static_cast<unsigned>(Bits / 64));
}

/// The exact query plan for radius `k` over blocks `blocks`: minimises the number of probes
/// subject to sum(radius + 1) >= k + 1 (greedy: each unit goes where it adds fewest probes).
[[nodiscard]] inline std::vector<plan_step> make_plan(const std::vector<index_block>& blocks, unsigned k) {
    const std::size_t m = blocks.size();
    std::vector<int> radius(m, -1);
    for (unsigned unit = 0; unit <= k; ++unit) {
        std::size_t best = m;
        double best_cost = 0;
        for (std::size_t t = 0; t < m; ++t) {
            const unsigned b = blocks[t].length;
            double cost;
            if (radius[t] < 0) {
                cost = 1.0;
            } else {
                const auto r = static_cast<unsigned>(radius[t]);
                if (r + 1 > b) continue;
                cost = ball_size(b, r + 1) - ball_size(b, r);
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
    std::vector<plan_step> plan;
    for (std::size_t t = 0; t < m; ++t)
        if (radius[t] >= 0) plan.push_back({static_cast<unsigned>(t), static_cast<unsigned>(radius[t])});
    // Cheap steps first: cross-table de-duplication tests earlier steps.
    std::stable_sort(plan.begin(), plan.end(),
                     [](const plan_step& a, const plan_step& b) { return a.radius < b.radius; });
    return plan;
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

/// The multi-index: one ordered table per block, values are caller-chosen 32-bit handles.
template <std::size_t Bits>
class multi_index {
public:
    static constexpr std::size_t words = Bits / 64;
    using key_type = key_t<words>;

    multi_index() : multi_index(3) {}
    explicit multi_index(unsigned max_k) : multi_index(max_k, default_block_count<Bits>(max_k)) {}
    multi_index(unsigned max_k, unsigned blocks) : m_max_k(max_k) {
        const unsigned m = blocks;
        unsigned start = 0;
        for (unsigned t = 0; t < m; ++t) {
            // Earlier blocks get the extra bits.
            const unsigned len = static_cast<unsigned>(Bits / m + (t < Bits % m ? 1 : 0));
            m_blocks.push_back({start, len});
            start += len;
        }
        m_tables.resize(m);
        for (unsigned k = 0; k <= max_k; ++k) m_plans.push_back(make_plan(m_blocks, k));
    }

    [[nodiscard]] unsigned max_k() const noexcept { return m_max_k; }
    [[nodiscard]] const std::vector<index_block>& blocks() const noexcept { return m_blocks; }
    [[nodiscard]] const std::vector<plan_step>& plan(unsigned k) const noexcept { return m_plans[k]; }
    [[nodiscard]] std::size_t size() const noexcept { return m_tables[0].size(); }
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        std::size_t n = 0;
        for (const auto& t : m_tables) n += t.memory_bytes();
        return n;
    }

    [[nodiscard]] key_type key_of(const key_type& fp, unsigned table) const noexcept {
        return rotate_left<words>(fp, m_blocks[table].start);
    }
    [[nodiscard]] key_type unrotate(const key_type& key, unsigned table) const noexcept {
        const unsigned s = m_blocks[table].start;
        return rotate_left<words>(key, s == 0 ? 0 : static_cast<unsigned>(Bits) - s);
    }

    /// Makes room for `extra` inserts (strong guarantee).
    void reserve_for(const key_type& fp) {
        for (unsigned t = 0; t < m_tables.size(); ++t) m_tables[t].reserve_for(key_of(fp, t));
    }

    /// Inserts (fp, value) after `reserve_for(fp)`; never allocates.
    void insert(const key_type& fp, std::uint32_t value) noexcept {
        for (unsigned t = 0; t < m_tables.size(); ++t) m_tables[t].insert(key_of(fp, t), value);
    }

    /// Removes (fp, value); returns false if absent.
    bool erase(const key_type& fp, std::uint32_t value) noexcept {
        bool found = true;
        for (unsigned t = 0; t < m_tables.size(); ++t) found = m_tables[t].erase(key_of(fp, t), value) && found;
        return found;
    }

    /// Calls `f(fp, value)` for every entry (unspecified order).
    template <class F>
    void for_each(F&& f) const {
        m_tables[0].for_each([&](const key_type& key, std::uint32_t v) { f(unrotate(key, 0), v); });
    }

    /// Hints the processor to load the buckets a query for `q` with radius `k` will scan (for
    /// batch loops: prefetching a few items ahead hides memory latency).
    void prefetch(const key_type& q, unsigned k) const noexcept {
        for (const auto& step : m_plans[k]) {
            const unsigned b = m_blocks[step.table].length;
            const std::uint64_t qblock = key_of(q, step.table)[0] >> (64 - b);
            for_each_mask(b, step.radius,
                          [&](std::uint64_t mask) { m_tables[step.table].prefetch(qblock ^ mask, b); });
        }
    }

    /// Hints the processor to load the slots an insert of `q` would write (issue it a few
    /// items after `prefetch(q, ...)`).
    void prefetch_insert(const key_type& q) const noexcept {
        for (unsigned t = 0; t < m_tables.size(); ++t) m_tables[t].prefetch_insert(key_of(q, t));
    }

    /// Calls `f(value, distance)` once for every entry within distance `k` of `q`
    /// (precondition: k <= max_k()). Order: by plan step, then ascending rotated key.
    template <class F>
    void for_each_within(const key_type& q, unsigned k, F&& f) const noexcept(noexcept(f(0u, 0u))) {
        const auto& plan = m_plans[k];
        key_type qkeys[max_radius_limit<Bits> + 1];
        for (const auto& step : plan) qkeys[step.table] = key_of(q, step.table);
        // Memory latency dominates: start every probe's loads before scanning any bucket.
        for (const auto& step : plan) {
            const unsigned b = m_blocks[step.table].length;
            const std::uint64_t qblock = qkeys[step.table][0] >> (64 - b);
            for_each_mask(b, step.radius,
                          [&](std::uint64_t mask) { m_tables[step.table].prefetch(qblock ^ mask, b); });
        }
        for (std::size_t s = 0; s < plan.size(); ++s) {
            const unsigned t = plan[s].table;
            const unsigned b = m_blocks[t].length;
            const key_type& qk = qkeys[t];
            const std::uint64_t qblock = qk[0] >> (64 - b);
            const auto& table = m_tables[t];
            auto visit = [&](const key_type& key, std::uint32_t value) {
                if constexpr (words > 1)
                    if (!key_within<words>(key, qk, k)) return;
                // Reported by an earlier step? (some earlier block within its radius)
                for (std::size_t e = 0; e < s; ++e) {
                    const unsigned te = plan[e].table;
                    const unsigned be = m_blocks[te].length;
                    const key_type ke = rotate_left<words>(key, rel_shift(t, te));
                    if (popcount_at_most((ke[0] ^ qkeys[te][0]) >> (64 - be), plan[e].radius)) return;
                }
                f(value, key_distance<words>(key, qk));
            };
            for_each_mask(b, plan[s].radius,
                          [&](std::uint64_t mask) { table.for_each_match(qblock ^ mask, b, qk, k, visit); });
        }
    }

    void clear() noexcept {
        for (auto& t : m_tables) t.clear();
    }

private:
    /// Rotation turning table `from`'s key into table `to`'s key.
    [[nodiscard]] unsigned rel_shift(unsigned from, unsigned to) const noexcept {
        const unsigned a = m_blocks[from].start;
        const unsigned b = m_blocks[to].start;
        return b >= a ? b - a : static_cast<unsigned>(Bits) - (a - b);
    }

    unsigned m_max_k;
    std::vector<index_block> m_blocks;
    std::vector<lane_table<words>> m_tables;
    std::vector<std::vector<plan_step>> m_plans;
};

}  // namespace detail
}  // namespace v0
}  // namespace semfp
