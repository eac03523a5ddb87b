#pragma once
/// \file
/// Internals of `HammingIndex` and `SinglePassClusterer`: an ordered linear-probing table of
/// rotated fingerprints, the multi-index block layout and the exact query plan.
///
/// Design (multi-index hashing with generalised pigeonhole, Norouzi et al. 2012, the dynamic
/// cousin of Manku et al. 2007's permuted tables): the `Bits` bits are cut into `m` contiguous
/// blocks. Table `t` stores every fingerprint rotated so that block `t` is its most significant
/// bits, in an ordered hash table (Amble and Knuth 1974: linear probing whose home slot is a
/// monotone function of the key, so the table is a sorted array with gaps). If
/// `d(a, b) <= k` and radii `r_t` satisfy `sum(r_t + 1) >= k + 1` over the probed tables, then
/// some block has `d_t <= r_t`; probing every block value within `r_t` of the query's block
/// therefore finds every answer. The plan for each `k` picks the tables and radii.

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
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

/// An ordered linear-probing table of (key, value) pairs, kept sorted by key with gaps.
///
/// `home(key)` is monotone in the key, every entry sits at or after its home, and entries are in
/// ascending key order, so the entries with keys in [lo, hi] are found by scanning from
/// `home(lo)`. Values are 32-bit; `empty_value` marks a free slot. Growth multiplies the number
/// of home slots by 1.5 and re-places entries in one ordered pass.
template <std::size_t Words>
class ordered_table {
public:
    using key_type = key_t<Words>;
    static constexpr std::uint32_t empty_value = std::numeric_limits<std::uint32_t>::max();

    ordered_table() = default;
    ordered_table(const ordered_table& o) : m_homes(o.m_homes), m_capacity(o.m_capacity), m_size(o.m_size) {
        if (m_capacity != 0) {
            m_keys = std::make_unique_for_overwrite<key_type[]>(m_capacity);
            m_values = std::make_unique_for_overwrite<std::uint32_t[]>(m_capacity);
            std::copy_n(o.m_keys.get(), m_capacity, m_keys.get());
            std::copy_n(o.m_values.get(), m_capacity, m_values.get());
        }
    }
    ordered_table& operator=(const ordered_table& o) {
        if (this != &o) {
            ordered_table t(o);
            swap(t);
        }
        return *this;
    }
    ordered_table(ordered_table&& o) noexcept { swap(o); }
    ordered_table& operator=(ordered_table&& o) noexcept {
        ordered_table t(std::move(o));
        swap(t);
        return *this;
    }
    ~ordered_table() = default;

    void swap(ordered_table& o) noexcept {
        std::swap(m_keys, o.m_keys);
        std::swap(m_values, o.m_values);
        std::swap(m_homes, o.m_homes);
        std::swap(m_capacity, o.m_capacity);
        std::swap(m_size, o.m_size);
    }

    [[nodiscard]] std::size_t size() const noexcept { return m_size; }
    [[nodiscard]] std::size_t capacity() const noexcept { return m_capacity; }
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        return m_capacity * (sizeof(key_type) + sizeof(std::uint32_t));
    }

    /// Makes room for `extra` more entries at the maximum load; after `reserve_for(1)` the next
    /// `insert` cannot allocate. Strong guarantee.
    void reserve_for(std::size_t extra) {
        const std::size_t want = m_size + extra;
        std::size_t homes = std::max<std::size_t>(m_homes, 64);
        while (static_cast<double>(want) > max_load * static_cast<double>(homes)) homes += homes / 2;
        if (m_capacity == 0 || homes != m_homes || m_values[m_capacity - 1] != empty_value) rebuild(homes);
    }

    /// Inserts after `reserve_for(1)`; never allocates.
    void insert(const key_type& key, std::uint32_t value) noexcept {
        std::size_t p = home(key);
        while (m_values[p] != empty_value && !key_less(key, m_keys[p])) ++p;
        if (m_values[p] != empty_value) {
            std::size_t q = p + 1;
            while (m_values[q] != empty_value) ++q;  // the last slot is kept free by reserve_for
            std::memmove(&m_keys[p + 1], &m_keys[p], (q - p) * sizeof(key_type));
            std::memmove(&m_values[p + 1], &m_values[p], (q - p) * sizeof(std::uint32_t));
        }
        m_keys[p] = key;
        m_values[p] = value;
        ++m_size;
    }

    /// Removes the entry (key, value); returns false if absent.
    bool erase(const key_type& key, std::uint32_t value) noexcept {
        if (m_capacity == 0) return false;
        std::size_t p = home(key);
        for (; p < m_capacity && m_values[p] != empty_value; ++p) {
            if (key_less(key, m_keys[p])) return false;
            if (m_keys[p] == key && m_values[p] == value) break;
        }
        if (p >= m_capacity || m_values[p] == empty_value) return false;
        // Backward shift: pull the following entries left while that keeps them at or after home.
        std::size_t q = p;
        while (q + 1 < m_capacity && m_values[q + 1] != empty_value && home(m_keys[q + 1]) <= q) {
            m_keys[q] = m_keys[q + 1];
            m_values[q] = m_values[q + 1];
            ++q;
        }
        m_values[q] = empty_value;
        --m_size;
        return true;
    }

    /// Calls `f(key, value)` for every entry whose top `bits` bits of word 0 equal `prefix`
    /// (1 <= bits <= 64), in ascending key order.
    template <class F>
    void for_each_prefix(std::uint64_t prefix, unsigned bits, F&& f) const noexcept(noexcept(f(key_type{}, 0u))) {
        if (m_size == 0) return;
        const unsigned shift = 64 - bits;
        const std::uint64_t lo = prefix << shift;
        const std::uint64_t hi = lo | (bits == 64 ? 0 : (~std::uint64_t{0} >> bits));
        const std::size_t hhi = home_of(hi);
        const key_type* keys = m_keys.get();
        const std::uint32_t* values = m_values.get();
        for (std::size_t p = home_of(lo); p < m_capacity; ++p) {
            if (values[p] == empty_value) {
                if (p >= hhi) break;
                continue;
            }
            const std::uint64_t top = keys[p][0];
            if (top < lo) continue;
            if (top > hi) break;
            f(keys[p], values[p]);
        }
    }

    /// Hints the processor to load the first slots probed by `for_each_prefix(prefix, bits)`.
    void prefetch_prefix(std::uint64_t prefix, unsigned bits) const noexcept {
#if defined(__GNUC__) || defined(__clang__)
        if (m_size == 0) return;
        const std::size_t p = home_of(prefix << (64 - bits));
        __builtin_prefetch(&m_keys[p]);
        __builtin_prefetch(&m_values[p]);
#else
        (void)prefix;
        (void)bits;
#endif
    }

    /// Calls `f(key, value)` for every entry in ascending key order.
    template <class F>
    void for_each(F&& f) const {
        for (std::size_t p = 0; p < m_capacity; ++p)
            if (m_values[p] != empty_value) f(m_keys[p], m_values[p]);
    }

    void clear() noexcept {
        ordered_table t;
        swap(t);
    }

private:
    static constexpr double max_load = 0.8;

    [[nodiscard]] std::size_t home_of(std::uint64_t top) const noexcept {
        return static_cast<std::size_t>(((top >> 32) * static_cast<std::uint64_t>(m_homes)) >> 32);
    }
    [[nodiscard]] std::size_t home(const key_type& key) const noexcept { return home_of(key[0]); }

    void rebuild(std::size_t homes) {
        if (homes > 0xFFFFFFFFu) homes = 0xFFFFFFFFu;
        ordered_table t;
        t.m_homes = homes;
        // Entries are visited in key order, so each lands at max(home, previous + 1); a first
        // pass finds where the last one lands so that the tail pad always has free slots.
        std::size_t next = 0;
        for (std::size_t p = 0; p < m_capacity; ++p)
            if (m_values[p] != empty_value) next = std::max(t.home(m_keys[p]), next) + 1;
        const std::size_t capacity = std::max(homes, next) + 64 + homes / 64 + m_size / 64;
        t.m_keys = std::make_unique_for_overwrite<key_type[]>(capacity);
        t.m_values = std::make_unique_for_overwrite<std::uint32_t[]>(capacity);
        std::fill_n(t.m_values.get(), capacity, empty_value);
        t.m_capacity = capacity;
        next = 0;
        for (std::size_t p = 0; p < m_capacity; ++p) {
            if (m_values[p] == empty_value) continue;
            const std::size_t at = std::max(t.home(m_keys[p]), next);
            t.m_keys[at] = m_keys[p];
            t.m_values[at] = m_values[p];
            next = at + 1;
        }
        t.m_size = m_size;
        swap(t);
    }

    std::unique_ptr<key_type[]> m_keys;
    std::unique_ptr<std::uint32_t[]> m_values;
    std::size_t m_homes = 0;
    std::size_t m_capacity = 0;
    std::size_t m_size = 0;
};

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

/// Default number of blocks for (Bits, max_k): about Bits / 22 blocks (multi-index hashing's
/// optimum is Bits / log2(n), and n is 1 M to 10 M+ here), at least enough that every table is
/// probed with radius <= 1, at most max_k + 1, and at least Bits / 64.
template <std::size_t Bits>
[[nodiscard]] constexpr unsigned default_block_count(unsigned max_k) noexcept {
    const unsigned by_size = static_cast<unsigned>((Bits + 21) / 22);
    unsigned m = std::max(by_size, (max_k + 2) / 2);
    m = std::min(m, max_k + 1);
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
    unsigned idx[64] = {};
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
    void reserve_for(std::size_t extra) {
        for (auto& t : m_tables) t.reserve_for(extra);
    }

    /// Inserts (fp, value) after `reserve_for(1)`; never allocates.
    void insert(const key_type& fp, std::uint32_t value) noexcept {
        for (unsigned t = 0; t < m_tables.size(); ++t) m_tables[t].insert(key_of(fp, t), value);
    }

    /// Removes (fp, value); returns false if absent.
    bool erase(const key_type& fp, std::uint32_t value) noexcept {
        bool found = true;
        for (unsigned t = 0; t < m_tables.size(); ++t) found = m_tables[t].erase(key_of(fp, t), value) && found;
        return found;
    }

    /// Calls `f(fp, value)` for every entry in ascending fingerprint order.
    template <class F>
    void for_each(F&& f) const {
        m_tables[0].for_each([&](const key_type& key, std::uint32_t v) { f(unrotate(key, 0), v); });
    }

    /// Calls `f(value, distance)` once for every entry within distance `k` of `q`
    /// (precondition: k <= max_k()). Order: by plan step, then ascending rotated key.
    template <class F>
    void for_each_within(const key_type& q, unsigned k, F&& f) const noexcept(noexcept(f(0u, 0u))) {
        const auto& plan = m_plans[k];
        key_type qkeys[max_radius_limit<Bits> + 1];
        for (const auto& step : plan) qkeys[step.table] = key_of(q, step.table);
        for (std::size_t s = 0; s < plan.size(); ++s) {
            const unsigned t = plan[s].table;
            const unsigned b = m_blocks[t].length;
            const key_type& qk = qkeys[t];
            const std::uint64_t qblock = qk[0] >> (64 - b);
            const auto& table = m_tables[t];
            auto visit = [&](const key_type& key, std::uint32_t value) {
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
            if (plan[s].radius == 0) {
                table.for_each_prefix(qblock, b, visit);
            } else {
                for_each_mask(b, plan[s].radius,
                              [&](std::uint64_t mask) { table.prefetch_prefix(qblock ^ mask, b); });
                for_each_mask(b, plan[s].radius,
                              [&](std::uint64_t mask) { table.for_each_prefix(qblock ^ mask, b, visit); });
            }
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
    std::vector<ordered_table<words>> m_tables;
    std::vector<std::vector<plan_step>> m_plans;
};

}  // namespace detail
}  // namespace v0
}  // namespace semfp
