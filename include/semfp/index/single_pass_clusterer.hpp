#pragma once
/// \file
/// `SinglePassClusterer<Bits>`: the paper's Single-Pass clustering of fingerprints.

#include <semfp/core/fingerprint.hpp>
#include <semfp/detail/chunked_array.hpp>
#include <semfp/detail/id_column.hpp>
#include <semfp/detail/index_table.hpp>
#include <semfp/detail/multi_index.hpp>
#include <semfp/error.hpp>
#include <semfp/index/cluster_options.hpp>
#include <semfp/index/serialization.hpp>
#include <semfp/index/single_pass_io.hpp>

#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <istream>
#include <iterator>
#include <optional>
#include <ostream>
#include <ranges>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace semfp {
inline namespace v0 {

/// Single-Pass clustering (the paper's algorithm), exact and incremental.
///
/// Fingerprints arrive one by one (`add`). Each joins the cluster whose centre is nearest
/// within `threshold` bits, ties broken by the earliest centre; if no centre is that close it
/// becomes the centre of a new cluster. With `match_policy::members` it is compared with every
/// earlier member instead (nearest member wins, ties by the earliest member) and joins that
/// member's cluster. The paper's DistSet is `centres()` (ascending fingerprint order), its
/// SimSet of a centre is `members(id)` (arrival order, centre first).
///
/// Candidates are found with the multi-index of `HammingIndex`, so each `add` costs a few
/// bucket scans instead of a pass over all centres: results are identical to the O(n^2)
/// definition. Ids are chosen by the caller and must be unique; at most 2^32 - 2 items.
/// Not thread-safe for writers; concurrent const calls are safe.
///
/// Memory: 8 bytes per item (cluster, member list link), 8 more for its id unless the ids are
/// consecutive (`first, first + 1, ...`, as `add_range` gives them; detail/id_column.hpp), and
/// the index entry of each centre (about 24 bytes at 64 bits with four blocks). While ids
/// arrive in ascending order they are looked up by binary search (consecutive: by subtraction);
/// the first id out of order builds an id map (4 bytes per slot, at most 3/4 full), kept from
/// then on. Storage grows in chunks, never by copying everything; once the index tables hold
/// 1 MiB together their segments come from transparent huge pages where the system offers them
/// (detail/segment_arena.hpp: one page fault per 2 MiB, not per 4 KiB, and fewer TLB misses
/// per probe). Measured figures (time and
/// peak RSS per fingerprint at 1 M and 10 M): bench/results/index.md.
template <std::size_t Bits>
class SinglePassClusterer {
public:
    static_assert(Bits == 64 || Bits == 128, "semfp::SinglePassClusterer supports 64 and 128 bits");
    using fingerprint_type = Fingerprint<Bits>;

    /// Largest supported threshold.
    static constexpr unsigned max_threshold = detail::max_radius_limit<Bits>;

    /// Threshold `recommended_distance<Bits>`, centres only (`cluster_options::paper()` for the
    /// paper's threshold 3).
    SinglePassClusterer() : SinglePassClusterer(cluster_options{}) {}

    /// Throws `invalid_argument_error` if `options.threshold > max_threshold` (and is not
    /// `cluster_options::recommended`).
    explicit SinglePassClusterer(const cluster_options& options)
        : m_options(check(options)), m_index(m_options.threshold) {}

    /// The options, with `cluster_options::recommended` replaced by the distance it stands for.
    [[nodiscard]] const cluster_options& options() const noexcept { return m_options; }

    /// Number of fingerprints added.
    [[nodiscard]] std::size_t size() const noexcept { return m_item_id.size(); }
    /// Number of clusters (centres).
    [[nodiscard]] std::size_t cluster_count() const noexcept { return m_clusters; }

    /// Adds `fp` under `id` and returns its cluster. Amortised O(probed buckets). Throws
    /// `invalid_argument_error` for a duplicate id, `std::bad_alloc` on exhaustion; strong
    /// guarantee.
    cluster_assignment add(const fingerprint_type& fp, std::uint64_t id) {
        const nearest_result r = nearest(fp);
        const std::uint32_t centre = commit(fp, id, r);
        const bool is_new = r.distance == none_distance;
        return {m_item_id[centre], is_new, is_new ? 0u : r.distance};
    }

    /// Adds `fp` under `id` with a second stage: a candidate within the threshold (a centre,
    /// or a member with `match_policy::members`) counts only if `verify(candidate_id, distance)`
    /// returns true; the nearest verified candidate wins, ties by the earliest, and with no verified
    /// candidate `fp` starts a cluster. With a `verify` that accepts everything this is `add`.
    /// `verify` is called in order of (distance, arrival) until it accepts, so at most once per
    /// candidate. Same exceptions as `add`, plus what `verify` throws (nothing is added then).
    /// For the two-stage rule (`two_stage_rule::accepts`) use the threshold
    /// `rule.exact_search_radius<Bits>()`, not `rule.radius` (not a search radius, see
    /// signature.hpp); `TwoStageClusterer` also finds the rule's pairs beyond it.
    template <class Verify>
        requires std::is_invocable_r_v<bool, Verify&, std::uint64_t, unsigned>
    cluster_assignment add(const fingerprint_type& fp, std::uint64_t id, Verify&& verify) {
        // Two rounds with the same outcome and the same calls of `verify` as one: candidates
        // within the recommended distance first (a cheap query); only if none is accepted, the
        // rest of the threshold. An accepted candidate of round one precedes, in (distance,
        // arrival) order, every candidate of round two.
        const unsigned near = std::min(m_options.threshold, recommended_distance<Bits>);
        nearest_result r = verified_nearest(fp, near, 0, verify);
        if (r.distance == none_distance && near < m_options.threshold)
            r = verified_nearest(fp, m_options.threshold, near + 1, verify);
        const std::uint32_t centre = commit(fp, id, r);
        const bool is_new = r.distance == none_distance;
        return {m_item_id[centre], is_new, is_new ? 0u : r.distance};
    }

    /// Adds every fingerprint of `fps` in order, the i-th under id `first_id + i`. Faster
    /// than calling `add` in a loop on random-access ranges (memory is fetched a few items
    /// ahead). Same exceptions as `add`; items added before a failure stay added.
    template <std::ranges::input_range R>
        requires std::convertible_to<std::ranges::range_reference_t<R>, const fingerprint_type&>
    void add_range(R&& fps, std::uint64_t first_id = 0) {
        if constexpr (std::ranges::random_access_range<R> && std::ranges::sized_range<R>) {
            // A software pipeline. Item i is looked up `lag` items before it is committed, so
            // that the cluster links it will write, and the index slots a new centre will fill,
            // are fetched in the meantime; at commit the lookup is completed with the (at most
            // `lag`) items indexed since, which keeps the result identical to `add`. Bucket
            // directories are fetched `far` items ahead of the lookup, the buckets `near`.
            constexpr std::size_t far = 16;
            constexpr std::size_t near = 8;
            constexpr std::size_t lag = 4;
            auto first = std::ranges::begin(fps);
            const auto n = static_cast<std::size_t>(std::ranges::size(fps));
            auto at = [&](std::size_t i) -> const fingerprint_type& { return first[static_cast<std::ptrdiff_t>(i)]; };
            const unsigned k = m_options.threshold;
            std::array<nearest_result, lag + 1> found{};  // lookups not yet committed
            std::array<insert_hint, lag + 1> hints{};  // their partial keys (see multi_index::insert_hint)
            // Items indexed by the last `lag` commits: (fingerprint position, item).
            std::array<std::pair<std::size_t, std::uint32_t>, lag> recent{};
            std::size_t recent_count = 0;
            for (std::size_t i = 0; i < n + lag; ++i) {
                if (i + far < n) m_index.prefetch_directories(at(i + far).data(), k);
                if (i + near < n) m_index.prefetch_buckets(at(i + near).data(), k);
                if (i < n) {
                    const nearest_result r = nearest(at(i), i >= near, &hints[i % (lag + 1)]);
                    found[i % (lag + 1)] = r;
                    prefetch_commit(at(i), r);
                }
                if (i < lag) continue;
                const std::size_t c = i - lag;
                if (!m_ids_ascending && c + near < n) m_ids.prefetch(first_id + c + near);
                // Complete the lookup with the items indexed after it (all later than any
                // item the index returned, so they win only when strictly nearer).
                nearest_result r = found[c % (lag + 1)];
                insert_hint& hint = hints[c % (lag + 1)];
                for (std::size_t x = recent_count > lag ? recent_count - lag : 0; x < recent_count; ++x) {
                    const auto& [pos, item] = recent[x % lag];
                    if (pos + lag < c) continue;
                    const unsigned d = distance(at(pos), at(c));
                    if (d <= k && (r.distance == none_distance || d < r.distance)) r = {d, item};
                    if (d <= m_index.max_shared_distance()) m_index.note_inserted(hint, at(c).data(), at(pos).data());
                }
                const std::size_t before = m_index.size();
                (void)commit(at(c), first_id + c, r, &hint);
                if (m_index.size() != before) recent[recent_count++ % lag] = {c, static_cast<std::uint32_t>(size() - 1)};
            }
        } else {
            std::uint64_t id = first_id;
            for (const fingerprint_type& fp : fps) add(fp, id++);
        }
    }

    /// Fingerprints every text of `texts` with `fingerprinter` (any callable
    /// `std::string_view -> Fingerprint<Bits>`, e.g. `semfp::Fingerprinter`) and adds them in
    /// order, the i-th under id `first_id + i`.
    template <std::ranges::input_range R, class F>
        requires std::convertible_to<std::ranges::range_reference_t<R>, std::string_view> &&
                 std::is_invocable_r_v<fingerprint_type, const F&, std::string_view>
    void add_texts(R&& texts, const F& fingerprinter, std::uint64_t first_id = 0) {
        std::uint64_t id = first_id;
        for (auto&& text : texts) add(fingerprinter(std::string_view(text)), id++);
    }

    /// True if `id` was added.
    [[nodiscard]] bool contains(std::uint64_t id) const noexcept {
        return find_item(id) != detail::id_table::none;
    }

    /// Id of the centre of the cluster of `id`, or nothing if `id` was not added. O(log n)
    /// while ids have been added in ascending order, expected O(1) after that.
    [[nodiscard]] std::optional<std::uint64_t> cluster_of(std::uint64_t id) const noexcept {
        const std::uint32_t item = find_item(id);
        if (item == detail::id_table::none) return std::nullopt;
        return m_item_id[m_item_centre[item]];
    }

    /// True if `id` is the centre of a cluster.
    [[nodiscard]] bool is_centre(std::uint64_t id) const noexcept {
        const std::uint32_t item = find_item(id);
        return item != detail::id_table::none && m_item_centre[item] == item;
    }

    /// Number of members of the cluster whose centre is `centre_id` (0 if not a centre).
    /// O(cluster size).
    [[nodiscard]] std::size_t cluster_size(std::uint64_t centre_id) const noexcept {
        const std::uint32_t item = find_item(centre_id);
        if (item == detail::id_table::none || m_item_centre[item] != item) return 0;
        return member_count(item);
    }

    /// Calls `f(member_id)` for the members of the cluster whose centre is `centre_id`, in
    /// arrival order (the centre first); nothing if `centre_id` is not a centre. O(cluster
    /// size) time, and as much temporary memory (the links run newest first).
    template <class F>
    void for_each_member(std::uint64_t centre_id, F&& f) const {
        const std::uint32_t item = find_item(centre_id);
        if (item == detail::id_table::none || m_item_centre[item] != item) return;
        for_each_member_item(item, [&](std::uint32_t it) { f(m_item_id[it]); });
    }

    /// The paper's SimSet: member ids of the cluster of centre `centre_id` in arrival order
    /// (empty if `centre_id` is not a centre).
    [[nodiscard]] std::vector<std::uint64_t> members(std::uint64_t centre_id) const {
        std::vector<std::uint64_t> out;
        out.reserve(cluster_size(centre_id));
        for_each_member(centre_id, [&](std::uint64_t id) { out.push_back(id); });
        return out;
    }

    /// The paper's DistSet: every centre with its fingerprint and cluster size, in ascending
    /// fingerprint order. O(n log n).
    [[nodiscard]] std::vector<cluster_centre<Bits>> centres() const {
        std::vector<cluster_centre<Bits>> out;
        out.reserve(cluster_count());
        m_index.for_each([&](const typename detail::multi_index<Bits>::key_type& fp, std::uint32_t item) {
            if (m_item_centre[item] == item) out.push_back({m_item_id[item], fingerprint_type(fp), member_count(item)});
        });
        std::sort(out.begin(), out.end(), [](const cluster_centre<Bits>& a, const cluster_centre<Bits>& b) {
            return a.fingerprint != b.fingerprint ? a.fingerprint < b.fingerprint : a.id < b.id;
        });
        return out;
    }

    /// Removes everything (keeps the options).
    void clear() noexcept {
        m_index.clear();
        m_ids.clear();
        m_ids_ascending = true;
        m_item_id.clear();
        m_item_centre.clear();
        m_item_next.clear();
        m_clusters = 0;
    }

    /// Reserves the id map for `n` items in total (avoids rehashing while adding).
    void reserve(std::size_t n) {
        if (!m_ids_ascending) m_ids.reserve(n > size() ? n - size() : 0, id_of());
    }

    /// Bytes of heap memory held (approximate, excludes allocator overhead).
    [[nodiscard]] std::size_t memory_usage() const noexcept {
        return m_index.memory_bytes() + m_ids.memory_bytes() + m_item_id.memory_bytes() +
               m_item_centre.memory_bytes() + m_item_next.memory_bytes();
    }

    /// Writes the clusterer (see serialization.hpp). Body: u32 threshold, u32 match policy,
    /// u64 items, then per item in arrival order (u64 id, u32 cluster number); u64 clusters,
    /// then per cluster in creation order u32 centre item; u64 indexed, then per indexed item
    /// (u32 item, fingerprint words). Throws `io_error`.
    void save(std::ostream& os) const {
        detail::single_pass_io::save(*this, os);
    }

    /// Writes to `path` through a temporary file and a rename. Throws `io_error`.
    void save(const std::filesystem::path& path) const {
        detail::save_file_atomically(path, [&](std::ostream& os) { save(os); });
    }

    /// Replaces this clusterer with one read from `is`. Throws `format_error` (truncated,
    /// corrupted, inconsistent, other version or width) or `io_error`; strong guarantee.
    void load(std::istream& is) {
        detail::single_pass_io::load(*this, is);
    }

    /// Replaces this clusterer with the one saved at `path`. Throws `io_error`,
    /// `format_error`; strong guarantee.
    void load(const std::filesystem::path& path) {
        detail::load_file(path, [&](std::istream& is) { load(is); });
    }

    void swap(SinglePassClusterer& o) noexcept {
        std::swap(m_options, o.m_options);
        std::swap(m_index, o.m_index);
        m_ids.swap(o.m_ids);
        std::swap(m_ids_ascending, o.m_ids_ascending);
        m_item_id.swap(o.m_item_id);
        m_item_centre.swap(o.m_item_centre);
        m_item_next.swap(o.m_item_next);
        std::swap(m_clusters, o.m_clusters);
    }
    friend void swap(SinglePassClusterer& a, SinglePassClusterer& b) noexcept { a.swap(b); }

private:
    friend struct detail::single_pass_io;
    static constexpr std::string_view magic = "SEMFPSPC";
    static constexpr unsigned none_distance = ~0u;

    static cluster_options check(cluster_options o) {
        if (o.threshold == cluster_options::recommended) o.threshold = recommended_distance<Bits>;
        if (o.threshold > max_threshold)
            detail::throw_invalid_argument("semfp::SinglePassClusterer: threshold " + std::to_string(o.threshold) +
                                           " exceeds the limit " + std::to_string(max_threshold));
        if (o.match != match_policy::centres && o.match != match_policy::members)
            detail::throw_invalid_argument("semfp::SinglePassClusterer: invalid match policy");
        return o;
    }

    [[nodiscard]] auto id_of() const noexcept {
        return [this](std::uint32_t item) noexcept { return m_item_id[item]; };
    }

    using insert_hint = typename detail::multi_index<Bits>::insert_hint;

    /// Nearest indexed item within the threshold (ties: the smallest item, which is the
    /// earliest); `distance == none_distance` if there is none.
    struct nearest_result {
        unsigned distance = none_distance;
        std::uint32_t item = 0;
    };

    /// (`prefetched`: the caller has issued the index's prefetch hints for `fp`.) The search
    /// stops once no entry left can be nearer or as near (`for_each_within_until`): a near copy
    /// found by the first table skips the others.
    /// `hint`: filled for `commit` (see `multi_index::insert_hint`).
    [[nodiscard]] nearest_result nearest(const fingerprint_type& fp, bool prefetched = false,
                                         insert_hint* hint = nullptr) const {
        nearest_result best;
        auto keep = [&](std::uint32_t it, unsigned d) noexcept {
            if (d < best.distance || (d == best.distance && it < best.item)) best = {d, it};
        };
        // Every entry not reported yet is at distance `bound` or more: it cannot beat or tie a
        // best distance below that (none_distance is never below it).
        auto done = [&](unsigned bound) noexcept { return best.distance < bound; };
        m_index.for_each_within_until(fp.data(), m_options.threshold, keep, done, prefetched, hint);
        return best;
    }

    /// The first candidate in (distance, item) order with `min_d <= distance <= k` that
    /// `verify(id, distance)` accepts.
    template <class Verify>
    nearest_result verified_nearest(const fingerprint_type& fp, unsigned k, unsigned min_d, Verify& verify) {
        m_candidates.clear();
        m_index.for_each_within(fp.data(), k, [&](std::uint32_t it, unsigned d) {
            if (d >= min_d) m_candidates.push_back({d, it});
        });
        std::sort(m_candidates.begin(), m_candidates.end(), [](const nearest_result& a, const nearest_result& b) {
            return a.distance != b.distance ? a.distance < b.distance : a.item < b.item;
        });
        for (const nearest_result& c : m_candidates)
            if (verify(m_item_id[c.item], c.distance)) return c;
        return {};
    }

    [[nodiscard]] static unsigned distance(const fingerprint_type& a, const fingerprint_type& b) noexcept {
        return detail::key_distance<Bits / 64>(a.data(), b.data());
    }

    /// Hints for `commit(fp, ..., r)` a few items later: the centre's member link it will
    /// update (or, matching members, the member's centre), or the index slots it will fill.
    void prefetch_commit(const fingerprint_type& fp, const nearest_result& r) const noexcept {
        if (r.distance == none_distance) {
            m_index.prefetch_insert(fp.data());
            return;
        }
        if (m_options.match == match_policy::centres) detail::prefetch_for_write(&m_item_next[r.item]);
        else detail::prefetch_for_read(&m_item_centre[r.item]);
    }

    /// Adds `fp` under `id` given its nearest indexed item `r` (see `add`); returns the item
    /// of its cluster's centre.
    /// `hint`: what the lookup of `fp` saw of its partial keys, updated for the items indexed
    /// since (null: the insert looks them up).
    std::uint32_t commit(const fingerprint_type& fp, std::uint64_t id, const nearest_result& r,
                         const insert_hint* hint = nullptr) {
        if (m_item_id.size() >= 0xFFFFFFFEu) detail::throw_invalid_argument("semfp::SinglePassClusterer: too many items");
        const auto item = static_cast<std::uint32_t>(m_item_id.size());
        const bool in_order = m_ids_ascending && (item == 0 || id > m_item_id[item - 1]);
        if (!in_order && contains(id))
            detail::throw_invalid_argument("semfp::SinglePassClusterer: duplicate id " + std::to_string(id));

        const bool is_new = r.distance == none_distance;
        // In members mode an exact copy of an indexed member adds nothing to the index: any
        // later query finds the earlier copy at the same distance, and it wins the tie.
        const bool index_it = is_new || (m_options.match == match_policy::members && r.distance != 0);

        // 1. Allocate everything that can fail.
        m_item_id.reserve_for(id);
        m_item_centre.reserve_one_more();
        m_item_next.reserve_one_more();
        detail::id_table map;  // built when ids stop ascending
        if (!in_order) {
            if (m_ids_ascending) map = make_id_map(item + std::size_t{1});
            else m_ids.reserve(1, id_of());
        }
        if (index_it) m_index.reserve_for(fp.data());

        // 2. Commit (no failure points). Matching centres, the indexed item is the centre.
        const std::uint32_t centre =
            is_new ? item : (m_options.match == match_policy::centres ? r.item : m_item_centre[r.item]);
        m_item_id.push_back(id);
        m_item_centre.push_back(centre);
        m_item_next.push_back(item);
        if (is_new) ++m_clusters;
        else link_member(centre, item);
        if (!in_order) {
            if (m_ids_ascending) {
                m_ids.swap(map);
                m_ids_ascending = false;
            }
            m_ids.insert(id, item);
        }
        if (index_it) m_index.insert(fp.data(), item, hint);
        return centre;
    }

    /// The item with `id`, or `detail::id_table::none`.
    [[nodiscard]] std::uint32_t find_item(std::uint64_t id) const noexcept {
        if (!m_ids_ascending) return m_ids.find(id, id_of());
        if (m_item_id.consecutive()) {
            const std::uint64_t i = id - m_item_id[0];  // wraps past the run when id is smaller
            return !m_item_id.empty() && i < m_item_id.size() ? static_cast<std::uint32_t>(i) : detail::id_table::none;
        }
        std::size_t lo = 0;
        std::size_t hi = m_item_id.size();
        while (lo < hi) {
            const std::size_t mid = lo + (hi - lo) / 2;
            if (m_item_id[mid] < id) lo = mid + 1;
            else hi = mid;
        }
        return lo < m_item_id.size() && m_item_id[lo] == id ? static_cast<std::uint32_t>(lo) : detail::id_table::none;
    }

    /// A hash map of the current ids with room for `n` in total.
    [[nodiscard]] detail::id_table make_id_map(std::size_t n) const {
        detail::id_table map;
        map.reserve(n, id_of());
        for (std::uint32_t i = 0; i < m_item_id.size(); ++i) map.insert(m_item_id[i], i);
        return map;
    }

    /// Links `item` (already pushed) as the newest member of `centre`: one link to read and
    /// write, the centre's.
    void link_member(std::uint32_t centre, std::uint32_t item) noexcept {
        m_item_next[item] = m_item_next[centre];
        m_item_next[centre] = item;
    }

    /// Calls `f(item)` for the members of the cluster of `centre` other than the centre,
    /// newest first.
    template <class F>
    void for_each_member_newest_first(std::uint32_t centre, F&& f) const {
        for (std::uint32_t it = m_item_next[centre]; it != centre; it = m_item_next[it]) f(it);
    }

    /// Calls `f(item)` for the members of the cluster of `centre`: the centre, then the others
    /// in arrival order.
    template <class F>
    void for_each_member_item(std::uint32_t centre, F&& f) const {
        f(centre);
        std::vector<std::uint32_t> items;
        for_each_member_newest_first(centre, [&](std::uint32_t it) { items.push_back(it); });
        for (auto it = items.rbegin(); it != items.rend(); ++it) f(*it);
    }

    [[nodiscard]] std::size_t member_count(std::uint32_t centre) const noexcept {
        std::size_t n = 1;
        for_each_member_newest_first(centre, [&](std::uint32_t) noexcept { ++n; });
        return n;
    }

    cluster_options m_options;
    detail::multi_index<Bits> m_index;  // values: item numbers of centres (or members)
    // While every id has been larger than the one before (the usual case: document numbers),
    // m_item_id is sorted and ids are found by binary search; the first id out of order builds
    // the hash map m_ids (id -> item), used from then on.
    bool m_ids_ascending = true;
    detail::id_table m_ids;
    detail::id_column m_item_id;                         // item -> caller's id (none stored while consecutive)
    detail::chunked_array<std::uint32_t> m_item_centre;  // item -> item of its cluster's centre
    // Member lists, circular: a centre links to its newest member (itself while alone), each
    // member to the one before it, the oldest back to the centre.
    detail::chunked_array<std::uint32_t> m_item_next;
    std::size_t m_clusters = 0;
    std::vector<nearest_result> m_candidates;  // scratch of the verified `add`
};

/// Clusters `fps` (a range of `Fingerprint<Bits>`) in one pass, the i-th under id
/// `first_id + i`, and returns the clusterer (query it with `cluster_of`, `centres`,
/// `members`). Throws `invalid_argument_error` for a bad threshold.
template <std::ranges::input_range R>
    requires requires { std::ranges::range_value_t<R>::bits; }
[[nodiscard]] SinglePassClusterer<std::ranges::range_value_t<R>::bits> single_pass(R&& fps,
                                                                                  const cluster_options& options = {},
                                                                                  std::uint64_t first_id = 0) {
    SinglePassClusterer<std::ranges::range_value_t<R>::bits> spc(options);
    spc.add_range(std::forward<R>(fps), first_id);
    return spc;
}

}  // namespace v0
}  // namespace semfp
