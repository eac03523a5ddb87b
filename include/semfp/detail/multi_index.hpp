#pragma once
/// \file
/// `multi_index<Bits>`: exact Hamming-radius search over (fingerprint, 32-bit value) pairs.
///
/// Multi-index hashing with the generalised pigeonhole principle (Norouzi et al. 2012, the
/// dynamic cousin of Manku et al. 2007's permuted tables): the `Bits` bits are cut into `m`
/// contiguous blocks of at least 16 bits. If `d(a, b) <= k` and radii `r_t` satisfy
/// `sum(r_t + 1) >= k + 1` over the probed blocks, some block has `d_t <= r_t`. Table `t` is
/// bucketed by the first 16 bits of block `t` (its bucket window); a query step `(t, r_t)`
/// scans the buckets whose window is within `r_t` of the query's and keeps the candidates
/// whose whole block `t` is within `r_t`. A candidate reported by an earlier step is skipped
/// there, so every answer is reported once, and every candidate is verified exactly.
///
/// Any radius, one layout. The proof needs nothing of `max_k`: if every block had `d_t >= r_t + 1`
/// the distance would be at least `sum(r_t + 1) >= k + 1`. So a plan exists for every k up to
/// `max_radius_limit` (a quarter of the bits) on any layout: `make_plan` spreads the k + 1 units
/// over the blocks where they add fewest probes, and a radius of 16 on a 16-bit window probes
/// every bucket (the lane filter admits every lane from radius 16 on). This is what lets the
/// two-stage default ask for 12 of 64 or 28 of 128 bits from an index laid out for 5 or 15: the
/// cost is the number of buckets probed, sum over steps of |ball(16, r_t)| (64 bits, four
/// blocks: 4 at k = 3, 68 at k = 7, 1,108 at k = 12, 4,608 at k = 16), and the candidates
/// they hold.
///
/// Lane budget. Every entry a probe may still report obeys d >= j + d_lane + floor, where j is
/// the number of bits the probe flips in its bucket window, d_lane the distance of the entry's
/// lane (a second 16-bit window, disjoint from the bucket window) and floor the sum of r_e + 1
/// over the earlier steps whose blocks are disjoint from both windows (an entry those steps
/// did not report misses each of their blocks by more than r_e). So the SIMD lane filter runs
/// with radius k - j - floor instead of k, a probe with j + floor > k is skipped, and when an
/// earlier step's block is the lane window itself, lanes within its radius are skipped too. At
/// k = 12 of 64 bits (plan: three radius-2 steps, then the primary at radius 3) the primary
/// step's 697 probes admit lanes within 6 - j instead of 12: the step that held most of the
/// candidates now holds a few per cent of them. Plans over 64 probes fetch their buckets in
/// batches of 16 (directories, then buckets, then scans).
///
/// Why not more, shorter blocks: for 1 M random 64-bit entries and k = 12, any pigeonhole
/// layout of m blocks of b = 64/m bits costs about m x |ball(b, k/m)| probes plus
/// N x m x |ball(b, k/m)| / 2^b candidates; both terms are smallest near b = log2(N) = 20 and
/// stay above ten thousand (m = 3: about 17,000 probes and 8,000 candidates; m = 4: 1,108
/// probes, 17,000 candidates before the lane budget; m = 13 exact blocks of 5 bits: 400,000
/// candidates). Exact radius-12 search of a million 64-bit fingerprints cannot cost what an
/// exact radius-3 search costs (a few probes). Measured costs against the radius:
/// bench/results/index.md.
///
/// Plans are built on first use, one radius at a time, without allocating, and kept (safe
/// under concurrent const queries: see `plan_cache`); a new index builds none.
///
/// Memory: only table 0 (the primary) holds whole fingerprints and values: its entries are the
/// `Bits - 16` bits its bucket does not imply, plus the value (10 bytes at 64 bits). Every
/// other table holds a partial key: the primary's bucket window plus one (64 bits) or three
/// (128 bits) more 16-bit windows, 4 or 8 bytes. A partial key that survives the filters
/// (its known bits within k of the query: about 1 in 10^6 random 64-bit entries) is resolved
/// in the primary bucket it names. Secondary tables hold each distinct partial key once, so a
/// resolution reports each primary entry once.
///
/// Measured (bench/index_bench.cpp, 64 bits, k = 3, four 16-bit blocks): 22 bytes per entry
/// plus bucket slack, against 48 when every table held whole keys and values.

#include <semfp/error.hpp>
#include <semfp/detail/index_table.hpp>
#include <semfp/detail/packed_table.hpp>
#include <semfp/detail/plan_cache.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace semfp {
inline namespace v0 {
namespace detail {

template <std::size_t Bits>
class multi_index {
public:
    static constexpr std::size_t words = Bits / 64;
    using key_type = key_t<words>;
    /// Plans with more probes than this are not prefetched ahead as a whole (the hints would
    /// evict each other); the query fetches them itself, `probe_batch` probes at a time.
    static constexpr double prefetch_limit = 64;
    static constexpr std::size_t probe_batch = 16;
    /// 16-bit units kept per secondary entry (the primary's bucket window included).
    static constexpr unsigned secondary_units = Bits == 64 ? 2 : 4;
    static_assert(Bits / 16 <= max_plan_steps, "every block gets at most one plan step");
    /// The tables share one `segment_arena`, which serves huge pages once they hold this much
    /// together: on virtual machines where a 4 KiB page fault costs tens of microseconds, the
    /// faults of a 1 M-entry index on the heap cost a third of a Single-Pass run; shared, the
    /// tables leave one partly used huge page, not one each (bench/results/index.md).
    static constexpr std::size_t shared_arena_threshold = std::size_t{1} << 20;

    multi_index() : multi_index(3) {}
    explicit multi_index(unsigned max_k) : multi_index(max_k, default_block_count<Bits>(max_k)) {}
    /// `blocks` in [1, Bits / 16]: every block at least as long as a bucket window.
    multi_index(unsigned max_k, unsigned blocks) : m_max_k(max_k) {
        if (blocks == 0 || blocks > Bits / 16) throw_invalid_argument("semfp: invalid block count");
        const unsigned m = blocks;
        unsigned start = 0;
        for (unsigned t = 0; t < m; ++t) {
            // Earlier blocks get the extra bits.
            const unsigned len = static_cast<unsigned>(Bits / m + (t < Bits % m ? 1 : 0));
            m_blocks.push_back({start, len});
            start += len;
        }
        for (unsigned t = 0; t < m; ++t) {
            layout l;
            l.bucket = m_blocks[t].start;
            for (unsigned i = 0; i < m_blocks[t].length; ++i) set_key_bit(l.block_mask, m_blocks[t].start + i);
            if (t == 0) {
                for (unsigned p = 16; p < Bits; p += 16) l.pos.push_back(p);
            } else {
                l.pos = secondary_windows<Bits>(l.bucket, 0, secondary_units);
                // The lane (unit 0) is better taken from the next block when there is one: at
                // equal radii that block is probed later, so the lane is disjoint from every
                // earlier step's block and their radii tighten its filter (build_plan). At
                // radius 3 of 64 bits this cuts table 1's lane survivors from 1.45 to 0.29 per
                // query. Kept only where the partial key still knows the primary's lane window
                // (resolve uses it).
                if (t + 1 < m && fits_secondary<Bits>(m_blocks[t + 1].start, l.bucket)) {
                    const unsigned next = m_blocks[t + 1].start;
                    std::vector<unsigned> alt = secondary_windows<Bits>(l.bucket, next, secondary_units);
                    key_type a{};
                    key_type b{};
                    key_type lane0{};
                    add_key_window(lane0, 16);
                    for (const unsigned p : alt) add_key_window(a, p);
                    for (const unsigned p : l.pos) add_key_window(b, p);
                    add_key_window(a, l.bucket);
                    add_key_window(b, l.bucket);
                    if (key_covers(a, lane0) || !key_covers(b, lane0)) l.pos = std::move(alt);
                }
            }
            add_key_window(l.known, l.bucket);
            for (const unsigned p : l.pos) add_key_window(l.known, p);
            m_layouts.push_back(std::move(l));
            if (t > 0) m_secondary.emplace_back();
        }
        // One arena for every table (see `shared_arena_threshold`).
        auto arena = std::make_shared<segment_arena>(shared_arena_threshold);
        m_primary.use_arena(arena);
        for (auto& table : m_secondary) table.use_arena(arena);
        // Can a secondary's partial key use the primary's lane filter (window 16 known)?
        for (auto& l : m_layouts) {
            key_type w{};
            add_key_window(w, m_layouts[0].pos[0]);
            l.primary_lane_known = key_covers(l.known, w);
            for (std::size_t i = 0; i < words; ++i) l.known_block[i] = l.block_mask[i] & l.known[i];
        }
        m_max_shared = 0;
        for (unsigned t = 1; t < m_layouts.size(); ++t) {
            unsigned known = 0;
            for (std::size_t i = 0; i < words; ++i) known += popcount64(m_layouts[t].known[i]);
            m_max_shared = std::max(m_max_shared, static_cast<unsigned>(Bits) - known);
        }
        // Query plans are built on first use, one radius at a time (see plan_for): every
        // radius the width allows has one, not only those up to max_k (which chose the layout).
    }

    [[nodiscard]] unsigned max_k() const noexcept { return m_max_k; }
    [[nodiscard]] const std::vector<index_block>& blocks() const noexcept { return m_blocks; }
    /// The query plan for radius `k` (k <= max_radius_limit<Bits>).
    [[nodiscard]] std::vector<plan_step> plan(unsigned k) const {
        query_plan scratch;
        const query_plan& p = plan_for(k, scratch);
        return {p.steps.begin(), p.steps.begin() + static_cast<std::ptrdiff_t>(p.count)};
    }
    /// True if the plan for radius `k` has been built and kept (tests).
    [[nodiscard]] bool has_plan(unsigned k) const noexcept { return m_plans.find(k) != nullptr; }
    [[nodiscard]] std::size_t size() const noexcept { return m_primary.size(); }
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        std::size_t n = m_primary.memory_bytes();
        for (const auto& t : m_secondary) n += t.memory_bytes();
        return n;
    }

    /// Size from which the tables take huge-page memory (`segment_arena`; tests lower it).
    void set_arena_threshold(std::size_t bytes) noexcept {
        m_primary.arena().set_threshold(bytes);
        for (auto& t : m_secondary) t.arena().set_threshold(bytes);
    }

    /// Makes room for one insert of `fp` (strong guarantee).
    void reserve_for(const key_type& fp) {
        for (unsigned t = 0; t < m_layouts.size(); ++t)
            with_table(t, [&](auto& table) { table.reserve_for(window_at<words>(fp, m_layouts[t].bucket)); });
    }

    /// What a query for a key saw of the key's own partial keys, for its insert: secondary
    /// tables hold each partial key once, so an insert looks each one up (three radius-0 lane
    /// scans, about 7 % of the instructions of a Single-Pass run). A query step whose own
    /// bucket holds every entry that agrees with the key on table t's known bits (see
    /// `build_plan`) answers that lookup as a by-product: bit t of `known` says it did, bit t
    /// of `present` that such an entry was there.
    struct insert_hint {
        std::uint32_t known = 0;
        std::uint32_t present = 0;
    };

    /// True if secondary table `t` holds the partial key of `fp` (tests).
    [[nodiscard]] bool holds_partial_key(unsigned t, const key_type& fp) const noexcept {
        std::uint16_t u[packed_max_units]{};
        const std::uint16_t w = split(fp, t, u);
        return m_secondary[t - 1].contains(w, u);
    }

    /// Two keys that share a partial key are at most this far apart (the bits some secondary
    /// table does not know): `note_inserted` can only change a hint within it.
    [[nodiscard]] unsigned max_shared_distance() const noexcept { return m_max_shared; }

    /// Updates `hint` (of key `fp`) after `other` was inserted: a shared partial key is now held.
    void note_inserted(insert_hint& hint, const key_type& fp, const key_type& other) const noexcept {
        for (unsigned t = 1; t < m_layouts.size(); ++t)
            if (masked_distance<words>(fp, other, m_layouts[t].known) == 0) hint.present |= std::uint32_t{1} << t;
    }

    /// Inserts (fp, value) after `reserve_for(fp)`; never allocates. `hint`: from a query for
    /// `fp` (`for_each_within_until`), updated with `note_inserted` for every entry inserted
    /// since; null: the partial keys are looked up here.
    void insert(const key_type& fp, std::uint32_t value, const insert_hint* hint = nullptr) noexcept {
        std::uint16_t u[packed_max_units]{};
        const std::uint16_t w0 = split(fp, 0, u);
        m_primary.insert(w0, u, value);
        for (unsigned t = 1; t < m_layouts.size(); ++t) {
            const std::uint16_t w = split(fp, t, u);
            auto& table = m_secondary[t - 1];
            const bool present =
                hint != nullptr && (hint->known >> t & 1u) != 0 ? (hint->present >> t & 1u) != 0 : table.contains(w, u);
            if (!present) table.insert(w, u, 0);
        }
    }

    /// Removes (fp, value); returns false if absent.
    bool erase(const key_type& fp, std::uint32_t value) noexcept {
        std::uint16_t u0[packed_max_units]{};
        const std::uint16_t w0 = split(fp, 0, u0);
        if (!m_primary.erase_if(w0, u0, [&](std::uint32_t v) { return v == value; })) return false;
        for (unsigned t = 1; t < m_layouts.size(); ++t) {
            // The secondary entry stays while another primary entry shares its partial key.
            bool shared = false;
            resolve(t, fp, [&](const key_type&, std::uint32_t) { shared = true; });
            if (shared) continue;
            std::uint16_t u[packed_max_units]{};
            const std::uint16_t w = split(fp, t, u);
            m_secondary[t - 1].erase_if(w, u, [](std::uint32_t) { return true; });
        }
        return true;
    }

    /// Calls `f(fp, value)` for every entry (unspecified order).
    template <class F>
    void for_each(F&& f) const {
        m_primary.for_each([&](std::uint16_t w, const std::uint16_t* u, std::uint32_t v) { f(compose(0, w, u), v); });
    }

    /// Batch-loop hints (issue them a few queries ahead, directories first): load the bucket
    /// directories, then the buckets, a query for `q` with radius `k` will read.
    void prefetch_directories(const key_type& q, unsigned k) const noexcept {
        query_plan scratch;
        prefetch_directories(q, plan_for(k, scratch));
    }
    void prefetch_buckets(const key_type& q, unsigned k) const noexcept {
        query_plan scratch;
        prefetch_buckets(q, plan_for(k, scratch));
    }
    /// Hint: load the slots an insert of `q` would write.
    void prefetch_insert(const key_type& q) const noexcept {
        for (unsigned t = 0; t < m_layouts.size(); ++t)
            with_table(t, [&](const auto& table) { table.prefetch_insert(window_at<words>(q, m_layouts[t].bucket)); });
    }
    /// Both directory and bucket hints at once (for single lookups a few items ahead).
    void prefetch(const key_type& q, unsigned k) const noexcept {
        prefetch_directories(q, k);
        prefetch_buckets(q, k);
    }

    /// Calls `f(value, distance)` once for every entry within distance `k` of `q`
    /// (precondition: k <= max_radius_limit<Bits>; above max_k() more buckets are probed).
    template <class F>
    void for_each_within(const key_type& q, unsigned k, F&& f) const {
        for_each_within_until(q, k, std::forward<F>(f), never_done{}, false);
    }

    /// `for_each_within` that may stop early: before each step of the plan after the first it
    /// calls `done(bound)`, where every entry within `k` not reported yet is at distance
    /// `bound` or more from `q` (each earlier step probed a disjoint block with radius r and
    /// reported everything within r there, so the rest misses that block by r + 1 or more);
    /// if `done` returns true nothing more is reported. A nearest-neighbour search stops once
    /// its best distance is below `bound`: no later entry can match or tie it. `prefetched`:
    /// a batch loop has issued `prefetch_directories` and `prefetch_buckets` for `q` itself.
    /// `hint` (optional): filled for `insert(q, ..., hint)`.
    template <class F, class Done>
    void for_each_within_until(const key_type& q, unsigned k, F&& f, Done&& done, bool prefetched,
                               insert_hint* hint = nullptr) const {
        query_plan scratch;
        const query_plan& p = plan_for(k, scratch);
        if (!prefetched) {
            // Memory latency dominates: start the loads of every probe before scanning any.
            prefetch_directories(q, p);
            prefetch_buckets(q, p);
        }
        if (hint != nullptr) *hint = insert_hint{};
        run_plan(q, k, p, std::forward<F>(f), done, hint);
    }

    void clear() noexcept {
        m_primary.clear();
        for (auto& t : m_secondary) t.clear();
    }

private:
    /// A query plan with its lane bounds, in fixed storage (built without allocating).
    struct query_plan {
        std::array<plan_step, max_plan_steps> steps;
        std::array<unsigned, max_plan_steps> lane_skips;   // per step: lanes already reported
        std::array<unsigned, max_plan_steps> lane_floors;  // per step: distance outside bucket and lane
        std::array<std::uint32_t, max_plan_steps> hint_tables;  // per step: see insert_hint
        std::size_t count;
        double probes;  // buckets a query scans
    };

    /// Plans built so far, one slot per radius (see `plan_cache`).
    using plan_store = plan_cache<query_plan, max_radius_limit<Bits> + 1>;

    /// The hints of plan `p` (none for a plan the query fetches in batches).
    void prefetch_directories(const key_type& q, const query_plan& p) const noexcept {
        if (p.probes > prefetch_limit) return;
        for_each_probe(q, p, [&](unsigned t, std::uint16_t w) {
            with_table(t, [&](const auto& table) { table.prefetch_directory(w); });
        });
    }
    void prefetch_buckets(const key_type& q, const query_plan& p) const noexcept {
        if (p.probes > prefetch_limit) return;
        for_each_probe(q, p, [&](unsigned t, std::uint16_t w) {
            with_table(t, [&](const auto& table) { table.prefetch_bucket(w); });
        });
    }

    /// The plan for radius `k`: the kept one (returned inline: a batch loop asks up to three
    /// times per query), else built out of line into `scratch` (and kept).
    const query_plan& plan_for(unsigned k, query_plan& scratch) const noexcept {
        if (const query_plan* p = m_plans.find(k)) [[likely]]
            return *p;
        return build_and_keep(k, scratch);
    }
    [[gnu::noinline]] const query_plan& build_and_keep(unsigned k, query_plan& scratch) const noexcept {
        build_plan(k, scratch);
        m_plans.publish(k, scratch);
        return scratch;
    }

    /// Plan for radius `k` with its lane bounds (see run_plan): the earlier steps whose blocks
    /// are disjoint from a step's lane window each add r_e + 1 to the distance of anything the
    /// step may still report; an earlier step whose block is the lane window itself reported
    /// every entry whose lane is within its radius.
    void build_plan(unsigned k, query_plan& out) const noexcept {
        const fixed_plan plan = make_fixed_plan(m_blocks.data(), m_blocks.size(), k);
        out.steps = plan.steps;
        out.count = plan.count;
        out.probes = 0;
        for (std::size_t s = 0; s < plan.count; ++s) {
            const layout& l = m_layouts[plan.steps[s].table];
            key_type lane{};
            add_key_window(lane, l.pos[0]);
            unsigned skip = no_lane_skip;
            unsigned floor = 0;
            for (std::size_t e = 0; e < s; ++e) {
                const key_type& be = m_layouts[plan.steps[e].table].block_mask;
                if (be == lane) skip = plan.steps[e].radius;
                else if (keys_disjoint(be, lane)) floor += plan.steps[e].radius + 1;
            }
            out.lane_skips[s] = skip;
            out.lane_floors[s] = floor;
            // Tables t whose partial key of q the step's own bucket (the probe of q's bucket
            // window) settles: every entry that agrees with q on t's known bits lies in it and
            // passes the lane filter (those bits include the bucket and lane windows, and no
            // lane is skipped), and the step's entries know those bits.
            std::uint32_t tables = 0;
            key_type own{};
            add_key_window(own, l.bucket);
            add_key_window(own, l.pos[0]);
            for (unsigned t = 1; t < m_layouts.size() && skip == no_lane_skip; ++t)
                if (key_covers(m_layouts[t].known, own) && key_covers(l.known, m_layouts[t].known)) tables |= std::uint32_t{1} << t;
            out.hint_tables[s] = tables;
            out.probes += ball_size(16, plan.steps[s].radius);
        }
    }

    /// `run_plan` without an early stop.
    struct never_done {
        constexpr bool operator()(unsigned) const noexcept { return false; }
    };

    /// Runs plan `p` (for radius `k`) for query `q`; stops before a step if `done(bound)` (see
    /// `for_each_within_until`).
    template <class F, class Done>
    void run_plan(const key_type& q, unsigned k, const query_plan& p, F&& f, Done&& done, insert_hint* hint) const {
        const auto& plan = p.steps;
        const auto& lane_skip = p.lane_skips;
        const auto& lane_floor = p.lane_floors;
        const bool batched = p.probes > prefetch_limit;
        unsigned bound = 0;  // sum of r + 1 over the steps run so far
        for (std::size_t s = 0; s < p.count; ++s) {
            if (s > 0 && done(bound)) return;
            const unsigned t = plan[s].table;
            const unsigned r = plan[s].radius;
            bound += r + 1;
            const layout& l = m_layouts[t];
            // An entry found by step s is reported if its block t is within r, it is within
            // k, and no earlier step found it.
            auto report = [&](const key_type& full, std::uint32_t value) {
                if (masked_distance<words>(full, q, l.block_mask) > r) return;
                const unsigned d = key_distance<words>(full, q);
                if (d > k) return;
                for (std::size_t e = 0; e < s; ++e)
                    if (masked_distance<words>(full, q, m_layouts[plan[e].table].block_mask) <= plan[e].radius) return;
                f(value, d);
            };
            const std::uint16_t qw = window_at<words>(q, l.bucket);
            const std::uint16_t qlane = window_at<words>(q, l.pos[0]);
            const std::uint16_t qsecond = window_at<words>(q, l.pos[1]);
            const unsigned floor = lane_floor[s];
            const unsigned skip = lane_skip[s];
            if (floor > k) continue;
            const std::uint32_t hint_tables = hint != nullptr ? p.hint_tables[s] : 0;
            // An entry of q's own bucket: does it carry q's partial key of a table it settles?
            auto note = [&](const key_type& key) {
                for (std::uint32_t m = hint_tables; m != 0; m &= m - 1) {
                    const auto t2 = static_cast<unsigned>(std::countr_zero(m));
                    if (masked_distance<words>(key, q, m_layouts[t2].known) == 0) hint->present |= std::uint32_t{1} << t2;
                }
            };
            auto probe = [&](std::uint16_t w, unsigned lane_k) {
                const bool own = hint_tables != 0 && w == qw;
                if (own) hint->known |= hint_tables;
                if (t == 0) {
                    // Bucket window, unit 0 and unit 1 (the two lane arrays) are disjoint: a report
                    // has j + d0 + d1 <= k; an entry `note` wants has q's lane (its tables know it).
                    const unsigned j = popcount64(std::uint64_t{w} ^ qw);
                    auto pre = [&](std::uint16_t u0, std::uint16_t u1) {
                        const unsigned d0 = popcount64(std::uint64_t{u0} ^ qlane);
                        return j + d0 + popcount64(std::uint64_t{u1} ^ qsecond) <= k || (own && u0 == qlane);
                    };
                    m_primary.scan_if(w, qlane, lane_k, skip, pre, [&](const std::uint16_t* u, std::uint32_t value) {
                        const key_type full = compose(0, w, u);
                        if (own) note(full);
                        report(full, value);
                    });
                    return;
                }
                m_secondary[t - 1].scan(w, qlane, lane_k, [&](const std::uint16_t* u, std::uint32_t) {
                    const key_type key = compose(t, w, u);
                    if (own) note(key);
                    // Rule the partial key out on its known bits before resolving it.
                    if (masked_distance<words>(key, q, l.known) > k) return;
                    if (masked_distance<words>(key, q, l.known_block) > r) return;
                    for (std::size_t e = 0; e < s; ++e) {
                        const layout& le = m_layouts[plan[e].table];
                        if (key_covers(l.known, le.block_mask) &&
                            masked_distance<words>(key, q, le.block_mask) <= plan[e].radius)
                            return;
                    }
                    resolve(t, key, report);
                }, skip);
            };
            // Large plans were not prefetched as a whole: probes go in batches, whose bucket
            // directories, then buckets, are fetched before any of them is scanned.
            // Left uninitialised (trivial type): zeroing it on every step showed in radius-3 profiles.
            std::array<queued_probe, probe_batch> batch;
            std::size_t queued = 0;
            auto flush = [&] {
                for (std::size_t i = 0; i < queued; ++i)
                    with_table(t, [&](const auto& table) { table.prefetch_directory(batch[i].w); });
                for (std::size_t i = 0; i < queued; ++i)
                    with_table(t, [&](const auto& table) { table.prefetch_bucket(batch[i].w); });
                for (std::size_t i = 0; i < queued; ++i) probe(batch[i].w, batch[i].lane_k);
                queued = 0;
            };
            for_each_mask(16, r, [&](std::uint64_t mask) {
                // Anything this probe may report has distance >= j (bucket window) + lane
                // distance + floor (earlier blocks disjoint from both, each missed by more
                // than its radius), so its lane is within k - j - floor, and more than `skip`.
                const unsigned j = popcount64(mask);
                if (j + floor > k) return;
                const unsigned lane_k = k - j - floor;
                if (skip != no_lane_skip && skip >= lane_k) return;
                const auto w = static_cast<std::uint16_t>(qw ^ mask);
                if (!batched) {
                    probe(w, lane_k);
                    return;
                }
                batch[queued++] = {w, lane_k};
                if (queued == probe_batch) flush();
            });
            if (queued != 0) flush();
        }
    }

    /// A probe of a batched step: bucket window and lane radius.
    struct queued_probe {
        std::uint16_t w;
        unsigned lane_k;
    };

    struct layout {
        unsigned bucket = 0;             // position of the bucket window
        std::vector<unsigned> pos;       // positions of the stored units (unit 0: the lane)
        key_type block_mask{};           // bits of the block
        key_type known{};                // bits an entry of this table determines
        key_type known_block{};          // block_mask & known
        bool primary_lane_known = false; // `known` covers the primary's lane window
    };

    /// Bucket window of `fp` in table `t`; its units into `u`.
    [[nodiscard]] std::uint16_t split(const key_type& fp, unsigned t, std::uint16_t* u) const noexcept {
        const layout& l = m_layouts[t];
        for (std::size_t x = 0; x < l.pos.size(); ++x) u[x] = window_at<words>(fp, l.pos[x]);
        return window_at<words>(fp, l.bucket);
    }

    /// The key an entry of table `t` stands for (unknown bits zero for secondary tables).
    [[nodiscard]] key_type compose(unsigned t, std::uint16_t w, const std::uint16_t* u) const noexcept {
        const layout& l = m_layouts[t];
        if constexpr (Bits == 64) {
            if (t == 0) {
                return {(static_cast<std::uint64_t>(w) << 48) | (static_cast<std::uint64_t>(u[0]) << 32) |
                        (static_cast<std::uint64_t>(u[1]) << 16) | u[2]};
            }
        }
        key_type key = window_key<words>(w, l.bucket);
        for (std::size_t x = 0; x < l.pos.size(); ++x) {
            const key_type part = window_key<words>(u[x], l.pos[x]);
            for (std::size_t i = 0; i < words; ++i) key[i] |= part[i];
        }
        return key;
    }

    /// Calls `f(full, value)` for the primary entries whose bits agree with `partial` on the
    /// bits table `t` knows.
    template <class F>
    void resolve(unsigned t, const key_type& partial, F&& f) const {
        const layout& l = m_layouts[t];
        const std::uint16_t w0 = window_at<words>(partial, 0);
        const bool lane = l.primary_lane_known;
        const std::uint16_t qlane = lane ? window_at<words>(partial, m_layouts[0].pos[0]) : std::uint16_t{0};
        m_primary.scan(w0, qlane, lane ? 0u : 16u, [&](const std::uint16_t* u, std::uint32_t value) {
            const key_type full = compose(0, w0, u);
            if (masked_distance<words>(full, partial, l.known) == 0) f(full, value);
        });
    }

    template <class F>
    decltype(auto) with_table(unsigned t, F&& f) {
        return t == 0 ? f(m_primary) : f(m_secondary[t - 1]);
    }
    template <class F>
    decltype(auto) with_table(unsigned t, F&& f) const {
        return t == 0 ? f(m_primary) : f(m_secondary[t - 1]);
    }

    template <class F>
    void for_each_probe(const key_type& q, const query_plan& p, F&& f) const noexcept {
        for (std::size_t s = 0; s < p.count; ++s) {
            const plan_step& step = p.steps[s];
            const std::uint16_t qw = window_at<words>(q, m_layouts[step.table].bucket);
            for_each_mask(16, step.radius,
                          [&](std::uint64_t mask) { f(step.table, static_cast<std::uint16_t>(qw ^ mask)); });
        }
    }

    unsigned m_max_k;
    unsigned m_max_shared = 0;  // see max_shared_distance
    std::vector<index_block> m_blocks;
    std::vector<layout> m_layouts;
    // Table 0, with the windows at 16 and 32 in two lane arrays (see `run_plan`).
    packed_table<static_cast<unsigned>(Bits / 16 - 1), true, 2> m_primary;
    std::vector<packed_table<secondary_units, false>> m_secondary;       // tables 1 ..

    mutable plan_store m_plans;  // query plans by radius, built on first use
};

}  // namespace detail
}  // namespace v0
}  // namespace semfp
