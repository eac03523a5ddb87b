#pragma once
/// \file
/// `TwoStageClusterer<Bits>`: Single-Pass clustering of `Signature<Bits>`s under the two-stage
/// rule, with a candidate stage that does not search the whole radius.
///
/// `SinglePassClusterer::add(fp, id, verify)` with a verifier is an exact search: every centre
/// within its threshold is a candidate. It can serve the rule only up to
/// `rule.exact_search_radius<Bits>()` (12 of 64 bits, 28 of 128), where one query against 1 M
/// centres already costs about 40x the search at the recommended distance and every document
/// pays it (bench/results/two_stage.md); the rule's own `radius` (32 of 64 bits, 40 of 128 by
/// default) lies beyond any exact search. Here the candidates of a signature are
///   - the centres within `rule.accept_distance` bits (an exact `HammingIndex` search, as
///     Single-Pass at the recommended distance), and
///   - the centres whose sketch shares a band with its sketch (`SketchBandIndex`), at any
///     distance,
/// and each candidate is decided by `rule.accepts(distance, ...)`, which applies `rule.radius`;
/// the nearest accepted candidate wins, ties by the earliest. The cost does not depend on
/// `rule.radius`. The result equals `SinglePassClusterer` at threshold `rule.radius` with the
/// verifier (where that threshold is possible) whenever the banding finds the accepted centres
/// the exact search finds; a centre the rule would accept but whose sketch shares no band (its
/// disagreeing bins fall into every band) is missed. Measured on the evaluation pairs:
/// bench/results/two_stage.md.
///
/// Deterministic: the result depends only on the signatures, ids and their order (no
/// randomness, no threads, no addresses), so a caller that adds documents in input order gets
/// the same clusters for any number of threads used to compute the signatures.
///
/// Ids are chosen by the caller and must be strictly ascending (document numbers). Memory per
/// item 12 bytes; per indexed item (a centre; with `match_policy::members`, every member that is
/// not an exact copy) its signature (144 bytes at 64 bits), its `HammingIndex` entry, `bands`
/// slots of the band index (about 13 bytes each) and, for an exact sketch (a short text), its
/// 128 derived bins: `MinHashSketch::values()` derives them (a table minimum per set hash and a
/// hash mix per bin, about 1 us), so each signature's bins are derived at most once, when it is
/// added, and kept for the band table's growth and for comparisons with MinHash sketches. Not thread-safe for writers; concurrent
/// const calls are safe.

#include <semfp/core/signature.hpp>
#include <semfp/error.hpp>
#include <semfp/index/cluster_options.hpp>
#include <semfp/index/hamming_index.hpp>
#include <semfp/index/serialization.hpp>
#include <semfp/index/signature_file.hpp>
#include <semfp/index/sketch_band_index.hpp>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace semfp {
inline namespace v0 {

/// Options of a `TwoStageClusterer`.
struct two_stage_cluster_options {
    /// The rule (`two_stage_rule::recommended<Bits>()` by default, see `TwoStageClusterer`).
    std::optional<two_stage_rule> rule;
    /// The bands of the candidate stage.
    sketch_band_layout layout{};
    /// Compare with centres (the paper) or with every member.
    match_policy match = match_policy::centres;
};

template <std::size_t Bits>
class TwoStageClusterer {
public:
    static_assert(Bits == 64 || Bits == 128, "semfp::TwoStageClusterer supports 64 and 128 bits");
    using signature_type = Signature<Bits>;

    TwoStageClusterer() : TwoStageClusterer(two_stage_cluster_options{}) {}

    /// Throws `invalid_argument_error` for an accept distance beyond
    /// `HammingIndex<Bits>::max_radius`, an invalid layout or match policy. Any `rule.radius` is
    /// valid (it is not searched).
    explicit TwoStageClusterer(const two_stage_cluster_options& o)
        : m_rule(o.rule ? *o.rule : two_stage_rule::recommended<Bits>()),
          m_match(check_match(o.match)),
          m_near(check_k(m_rule.accept_distance)),
          m_bands(o.layout) {}

    [[nodiscard]] const two_stage_rule& rule() const noexcept { return m_rule; }
    [[nodiscard]] const sketch_band_layout& layout() const noexcept { return m_bands.layout(); }
    [[nodiscard]] match_policy match() const noexcept { return m_match; }

    /// Number of signatures added.
    [[nodiscard]] std::size_t size() const noexcept { return m_ids.size(); }
    /// Number of clusters (centres).
    [[nodiscard]] std::size_t cluster_count() const noexcept { return m_clusters; }
    /// Number of signatures kept for comparison (centres; with `members`, members too).
    [[nodiscard]] std::size_t indexed() const noexcept { return m_indexed.size(); }

    /// Adds `s` under `id` and returns its cluster (the distance is to the matched centre, or
    /// member with `match_policy::members`). Throws `invalid_argument_error` if `id` is not larger
    /// than every earlier id (nothing is added); after `std::bad_alloc` the clusterer must be
    /// discarded (its indexes may disagree).
    cluster_assignment add(const signature_type& s, std::uint64_t id) {
        if (!m_ids.empty() && id <= m_ids.back())
            detail::throw_invalid_argument("semfp::TwoStageClusterer: id " + std::to_string(id) +
                                           " is not larger than the previous id");
        if (m_ids.size() >= 0xFFFFFFFEu) detail::throw_invalid_argument("semfp::TwoStageClusterer: too many items");
        const found f = nearest(s);
        const auto item = static_cast<std::uint32_t>(m_ids.size());
        const bool is_new = f.distance == none;
        const bool index_it = is_new || (m_match == match_policy::members && f.distance != 0);
        const std::uint32_t centre = is_new ? item : m_centre[m_indexed[f.slot].item];
        if (index_it) index(s, item, query_bins(s));
        m_ids.push_back(id);
        m_centre.push_back(centre);
        if (is_new) ++m_clusters;
        return {m_ids[centre], is_new, is_new ? 0u : f.distance};
    }

    /// Id of the centre of the cluster of `id`, or nothing if `id` was not added. O(log n).
    [[nodiscard]] std::optional<std::uint64_t> cluster_of(std::uint64_t id) const noexcept {
        const auto it = std::lower_bound(m_ids.begin(), m_ids.end(), id);
        if (it == m_ids.end() || *it != id) return std::nullopt;
        return m_ids[m_centre[static_cast<std::size_t>(it - m_ids.begin())]];
    }

    /// Calls `f(id, signature)` for every signature kept for comparison, in arrival order.
    template <class F>
    void for_each_indexed(F&& f) const {
        for (const auto& e : m_indexed) f(m_ids[e.item], e.signature);
    }

    /// Bytes of heap memory held (approximate).
    [[nodiscard]] std::size_t memory_usage() const noexcept {
        return m_ids.capacity() * 8 + m_centre.capacity() * 4 + m_indexed.capacity() * sizeof(entry) +
               m_exact_bins.capacity() * MinHashSketch::bins + m_near.memory_usage() + m_bands.memory_bytes();
    }

    /// Writes the clusterer (serialization.hpp's checksummed format, state format 2). Header:
    /// magic "SEMFPTSC", u32 state format (2), u32 bits, u32 signature format of the sketches
    /// (`detail::signature_format_version`, index/signature_file.hpp). Body: u32 radius, u32
    /// accept distance, u64 min_similarity (IEEE bits), u32 short_features, u64
    /// short_similarity, u32 bands, u32 rows, u32 match; u64 items, per item (u64 id, u32 centre
    /// item); u64 indexed, per indexed item (u32 item, fingerprint words, 128 bin bytes, u32
    /// features). Throws `io_error`.
    void save(std::ostream& os) const {
        detail::binary_writer w(os);
        w.bytes(reinterpret_cast<const unsigned char*>(magic.data()), magic.size());
        w.u32(state_format);
        w.u32(static_cast<std::uint32_t>(Bits));
        w.u32(detail::signature_format_version);
        w.u32(m_rule.radius);
        w.u32(m_rule.accept_distance);
        w.u64(std::bit_cast<std::uint64_t>(m_rule.min_similarity));
        w.u32(m_rule.short_features);
        w.u64(std::bit_cast<std::uint64_t>(m_rule.short_similarity));
        w.u32(layout().bands);
        w.u32(layout().rows);
        w.u32(static_cast<std::uint32_t>(m_match));
        w.u64(m_ids.size());
        for (std::size_t i = 0; i < m_ids.size(); ++i) {
            w.u64(m_ids[i]);
            w.u32(m_centre[i]);
        }
        w.u64(m_indexed.size());
        for (const auto& e : m_indexed) {
            w.u32(e.item);
            w.fingerprint(e.signature.fingerprint);
            w.bytes(e.signature.sketch.payload().data(), MinHashSketch::bins);
            w.u32(e.signature.sketch.state());
        }
        w.finish();
    }

    /// Replaces this clusterer (options included) with one written by `save`. Throws
    /// `format_error` (truncated, corrupted, inconsistent, other width; a state of another
    /// signature format, or of state format 1, which does not record it: its sketches may not be
    /// comparable with this version's, the message names both formats) or `io_error`; strong
    /// guarantee.
    void load(std::istream& is) {
        detail::binary_reader r(is);
        read_header(r);
        two_stage_cluster_options o;
        two_stage_rule rule;
        std::size_t at = r.offset();
        rule.radius = r.u32();
        rule.accept_distance = r.u32();
        rule.min_similarity = std::bit_cast<double>(r.u64());
        rule.short_features = r.u32();
        rule.short_similarity = std::bit_cast<double>(r.u64());
        o.rule = rule;
        o.layout.bands = r.u32();
        o.layout.rows = r.u32();
        o.match = static_cast<match_policy>(r.u32());
        TwoStageClusterer c = [&] {
            try {
                return TwoStageClusterer(o);
            } catch (const invalid_argument_error& e) {
                detail::throw_format_error(std::string("semfp::TwoStageClusterer: ") + e.what(), at);
            }
        }();
        const std::uint64_t n = r.u64();
        for (std::uint64_t i = 0; i < n; ++i) {
            at = r.offset();
            const std::uint64_t id = r.u64();
            const std::uint32_t centre = r.u32();
            if ((!c.m_ids.empty() && id <= c.m_ids.back()) || centre > i || (centre != i && c.m_centre[centre] != centre))
                detail::throw_format_error("semfp::TwoStageClusterer: inconsistent item", at);
            c.m_ids.push_back(id);
            c.m_centre.push_back(centre);
            if (centre == i) ++c.m_clusters;
        }
        const std::uint64_t k = r.u64();
        if (k > n) detail::throw_format_error("semfp::TwoStageClusterer: more indexed items than items", r.offset());
        for (std::uint64_t j = 0; j < k; ++j) {
            at = r.offset();
            const std::uint32_t item = r.u32();
            signature_type s;
            s.fingerprint = r.template fingerprint<Bits>();
            MinHashSketch::bins_type payload{};
            r.bytes(payload.data(), payload.size());
            if (!MinHashSketch::from_saved(payload, r.u32(), s.sketch))
                detail::throw_format_error("semfp::TwoStageClusterer: invalid sketch", at);
            if (item >= n || (!c.m_indexed.empty() && item <= c.m_indexed.back().item))
                detail::throw_format_error("semfp::TwoStageClusterer: inconsistent indexed item", at);
            c.index(s, item, s.sketch.values());
        }
        r.finish();
        swap(c);
    }

    void swap(TwoStageClusterer& o) noexcept {
        std::swap(m_rule, o.m_rule);
        std::swap(m_match, o.m_match);
        m_near.swap(o.m_near);
        std::swap(m_bands, o.m_bands);
        m_ids.swap(o.m_ids);
        m_centre.swap(o.m_centre);
        m_indexed.swap(o.m_indexed);
        std::swap(m_clusters, o.m_clusters);
        std::swap(m_empty_slot, o.m_empty_slot);
        m_exact_bins.swap(o.m_exact_bins);
        m_candidates.swap(o.m_candidates);
        std::swap(m_query_bins, o.m_query_bins);
        std::swap(m_query_bins_ready, o.m_query_bins_ready);
    }

private:
    static constexpr std::string_view magic = "SEMFPTSC";
    /// 1: serialization.hpp's common header, no signature format; 2: the signature format added.
    static constexpr std::uint32_t state_format = 2;
    static constexpr unsigned none = ~0u;

    /// Reads and checks the header written by `save`.
    static void read_header(detail::binary_reader& r) {
        unsigned char m[8];
        r.bytes(m, 8);
        if (std::string_view(reinterpret_cast<const char*>(m), 8) != magic)
            detail::throw_format_error("semfp: not a saved " + std::string(magic) + " stream (bad magic)", 0);
        const std::string expected = "state format " + std::to_string(state_format) + " with signature format " +
                                     std::to_string(detail::signature_format_version);
        const std::uint32_t v = r.u32();
        if (v == 1)
            detail::throw_format_error("semfp::TwoStageClusterer: state format 1 does not record the signature format "
                                       "of its sketches (they may not be comparable with this version's, which reads " +
                                           expected + "); cluster the signatures again",
                                       8);
        if (v != state_format)
            detail::throw_format_error("semfp::TwoStageClusterer: unsupported state format " + std::to_string(v) +
                                           " (this version reads " + expected + ")",
                                       8);
        if (const std::uint32_t b = r.u32(); b != Bits)
            detail::throw_format_error("semfp: saved for " + std::to_string(b) + "-bit fingerprints, expected " +
                                           std::to_string(Bits),
                                       12);
        if (const std::uint32_t f = r.u32(); f != detail::signature_format_version)
            detail::throw_format_error("semfp::TwoStageClusterer: a state of signature format " + std::to_string(f) +
                                           " (sketches not comparable with this version's; it reads " + expected +
                                           "); cluster the signatures again",
                                       16);
    }

    struct entry {
        std::uint32_t item;
        std::uint32_t bins_at;  // exact sketch: its derived bins in m_exact_bins; else none
        signature_type signature;
    };
    struct found {
        unsigned distance = none;
        std::uint32_t slot = 0;  // position in m_indexed
    };

    static match_policy check_match(match_policy m) {
        if (m != match_policy::centres && m != match_policy::members)
            detail::throw_invalid_argument("semfp::TwoStageClusterer: invalid match policy");
        return m;
    }
    static unsigned check_k(unsigned k) {
        if (k > HammingIndex<Bits>::max_radius)
            detail::throw_invalid_argument("semfp::TwoStageClusterer: accept distance " + std::to_string(k) +
                                           " exceeds the limit " + std::to_string(HammingIndex<Bits>::max_radius));
        return k;
    }

    /// The bins of the sketch of `e` (`values()`): derived once when it was indexed.
    [[nodiscard]] const MinHashSketch::bins_type& bins_of(const entry& e) const noexcept {
        return e.bins_at == none ? e.signature.sketch.payload() : m_exact_bins[e.bins_at];
    }

    /// `m_rule.accepts(d, c, q)` for a candidate `c` (its bins `c_bins`) and the query `q`, without
    /// deriving bins: when exactly one of two non-empty sketches is exact, the comparison is on
    /// bins (`estimated_jaccard`), so the exact one is replaced by the MinHash sketch of its bins
    /// (the same bins and occurrences, so the same decision). `q_bins()` returns the query's bins;
    /// it is called only there, when the query is the exact one.
    template <class QueryBins>
    [[nodiscard]] bool accepts(unsigned d, const MinHashSketch& c, const MinHashSketch::bins_type& c_bins,
                               const MinHashSketch& q, QueryBins&& q_bins) const noexcept {
        if (d > m_rule.radius || c.empty() || q.empty() || c.is_exact() == q.is_exact())
            return m_rule.accepts(d, c, q);
        if (c.is_exact()) return m_rule.accepts(d, MinHashSketch(c_bins, c.features()), q);
        return m_rule.accepts(d, c, MinHashSketch(q_bins(), q.features()));
    }

    /// The nearest accepted candidate, ties by the earliest (smallest slot: slots are in arrival
    /// order). The query's bins are derived at most once, when first needed (`query_bins`: the
    /// band probes, comparisons of an exact query with MinHash sketches, index() stores them), so
    /// an exact sketch that joins an exact one within the accept distance never derives them.
    ///
    /// The candidates within the accept distance (the exact search) are decided first. If one
    /// is accepted, the sketch bands are not probed: every centre within the accept distance is
    /// among those candidates, so any other candidate lies farther than the accepted one and
    /// cannot win; the result is the one of deciding all candidates together.
    found nearest(const signature_type& s) {
        found best;
        const auto consider = [&](std::uint32_t slot, unsigned d) {
            if (d > best.distance || (d == best.distance && slot >= best.slot)) return;
            const entry& e = m_indexed[slot];
            if (accepts(d, e.signature.sketch, bins_of(e), s.sketch,
                        [&]() noexcept -> const MinHashSketch::bins_type& { return query_bins(s); }))
                best = {d, slot};
        };
        m_query_bins_ready = false;
        m_near.for_each_within(s.fingerprint, m_rule.accept_distance, [&](const hamming_match& m) {
            consider(static_cast<std::uint32_t>(m.id), m.distance);
        });
        if (best.distance != none) return best;
        // Only candidates beyond the accept distance remain (those within it were decided above).
        m_candidates.clear();
        if (!s.sketch.empty())
            m_bands.for_each_candidate_values(query_bins(s), [&](std::uint32_t slot) { m_candidates.push_back(slot); });
        else if (m_empty_slot != none)
            m_candidates.push_back(m_empty_slot);
        std::sort(m_candidates.begin(), m_candidates.end());
        std::uint32_t previous = none;
        for (const std::uint32_t slot : m_candidates) {
            if (slot == previous) continue;
            previous = slot;
            const unsigned d = hamming_distance(m_indexed[slot].signature.fingerprint, s.fingerprint);
            if (d > m_rule.accept_distance) consider(slot, d);
        }
        return best;
    }

    /// The bins of the query `s` (`s.sketch.values()`), derived on first use after nearest()
    /// began.
    const MinHashSketch::bins_type& query_bins(const signature_type& s) noexcept {
        if (!m_query_bins_ready) {
            m_query_bins = s.sketch.values();
            m_query_bins_ready = true;
        }
        return m_query_bins;
    }

    /// Keeps `s` of `item` for comparison; `bins` is `s.sketch.values()` (unused if empty).
    void index(const signature_type& s, std::uint32_t item, const MinHashSketch::bins_type& bins) {
        const auto slot = static_cast<std::uint32_t>(m_indexed.size());
        std::uint32_t bins_at = none;
        if (s.sketch.is_exact()) {
            m_exact_bins.push_back(bins);
            bins_at = static_cast<std::uint32_t>(m_exact_bins.size() - 1);
        }
        m_indexed.push_back({item, bins_at, s});
        m_near.insert(s.fingerprint, slot);
        if (!s.sketch.empty())
            m_bands.insert_values(bins, slot, [&](std::uint32_t x) -> const MinHashSketch::bins_type& {
                return bins_of(m_indexed[x]);
            });
        else if (m_empty_slot == none)
            m_empty_slot = slot;
    }

    two_stage_rule m_rule;
    match_policy m_match;
    HammingIndex<Bits> m_near;  // slots within the accept distance
    SketchBandIndex m_bands;    // slots by sketch band
    std::vector<std::uint64_t> m_ids;     // item -> id (ascending)
    std::vector<std::uint32_t> m_centre;  // item -> item of its centre
    std::vector<entry> m_indexed;         // slot -> (item, signature)
    std::size_t m_clusters = 0;
    std::uint32_t m_empty_slot = none;       // the first indexed empty sketch (band index skips them)
    std::vector<MinHashSketch::bins_type> m_exact_bins;  // derived bins of the indexed exact sketches
    std::vector<std::uint32_t> m_candidates;  // scratch
    MinHashSketch::bins_type m_query_bins{};  // scratch: bins of the sketch last passed to nearest()
    bool m_query_bins_ready = false;          // m_query_bins holds them (query_bins())
};

}  // namespace v0
}  // namespace semfp
