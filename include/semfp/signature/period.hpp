#pragma once
/// \file
/// `PeriodDetector`: duplicate web pages found by their period feature strings, after the
/// patent on duplicate Chinese web pages found by period feature strings (CN102945244A).
///
/// Why this method for web pages: a re-posted article keeps its sentences but gets another
/// site's template. The patent takes, before every full stop, the last L characters of the
/// sentence (its "period feature string"): Chinese prose ends sentences with U+3002 and navigation,
/// link lists and ads almost never do, so the strings come from the article; the few template
/// sentences that do end with U+3002 ("all rights reserved" + U+3002) repeat on every page of a site and are removed by
/// their low inverse document frequency over the collection. Two pages are then compared by the
/// strings they share: common-containment similarity CCS(a, b) = |a & b| / min(|a|, |b|) and
/// the two one-way containments, which tell a duplicate (both ways high) from a page containing
/// another (one way high: an excerpt). The collection-level steps are an inverted index from
/// strings to pages (`PostingIndex`), pair counting of shared strings, and clusters of the
/// duplicate graph (`radius2_clusters` or connected components, index/union_find.hpp).
///
/// What the patent text leaves open, and what was chosen here by measurement on the evaluation
/// kit's DEV pairs (`semfp_period_quality`, bench/results/period.md), at zero false positives on
/// distinct and same-site pairs: the string length L, the IDF threshold theta, the posting cap M and
/// the two thresholds tau_d and tau_c. The defaults of `period_options` are those choices.
///
/// Feature strings (`for_each_period_string`): the text is normalized (`normalize_into`: width,
/// case and script folding, so full-width/half-width and Traditional/Simplified variants give the
/// same strings); for each terminator (default the ideographic full stop U+3002 and its
/// half-width form) the string is the L code points before it, white space removed, or fewer when
/// the previous terminator is closer; an empty gap gives no string. Strings are identified by a
/// 64-bit hash (MurmurHash3), and a page's strings are a set.
///
/// Bad input: malformed UTF-8 bytes and NUL bytes are ordinary characters of a string (one code
/// point per malformed byte); an empty text or one without terminators has no strings and pairs
/// with nothing; nothing throws after construction except allocation failure.

#include <semfp/core/hash.hpp>
#include <semfp/detail/huge_pages.hpp>
#include <semfp/error.hpp>
#include <semfp/index/posting_index.hpp>
#include <semfp/signature/period_hashes.hpp>
#include <semfp/index/union_find.hpp>
#include <semfp/text/normalize.hpp>
#include <semfp/text/utf8.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace semfp {
inline namespace v0 {

/// Parameters of the period-feature-string detector. Defaults are the measured choices (file
/// comment; the patent gives no values).
struct period_options {
    /// L: code points taken before each terminator (1 .. 64). Measured sweep 5..20 in
    /// bench/results/period.md.
    std::size_t length = 8;
    /// Terminators, as code points of the normalized text (width folding maps U+FF01..U+FF5E to
    /// ASCII, so full-width U+FF01 U+FF1F U+FF1B U+FF0E arrive as ! ? ; .). ASCII members end a string only in
    /// context: before white space or the end of the text, or right after a CJK character (the
    /// corpus writes "<Han text>."), so "3.14" and "v1.2" do not split. Default: the patent's U+3002
    /// (and U+FF61) plus ! ? ; . in context, measured better than U+3002 alone (bench/results/period.md:
    /// texts with few full stops get strings too).
    std::u32string terminators = U"\u3002\uFF61!?;.";
    /// theta: strings whose IDF log(N / df) is below this are template noise and are dropped from
    /// every page (they count neither in |a| nor in the shared strings). 0 disables the filter.
    double min_idf = 4.0;
    /// A string held by fewer pages is never noise, whatever theta says: in a small collection every
    /// shared string has a low IDF (two pages out of two: log 1 = 0).
    std::size_t min_noise_df = 8;
    /// M: strings held by more pages produce no pairs (they still count in |a|). 0: no cap.
    std::size_t max_postings = 1000;
    /// tau_d: a pair is `duplicate` when both containments reach this.
    double duplicate_threshold = 0.95;
    /// tau_c: a pair is `contains` when one containment reaches this (and it is not a duplicate).
    double contains_threshold = 0.9;
    /// Pages with fewer strings (after the noise filter) are never paired: one or two shared
    /// strings say nothing about a page.
    std::size_t min_strings = 3;
    /// Edges of the clusters: pairs whose two containments both reach this. Looser than tau_d
    /// (which must also keep excerpts apart as `contains`) yet above every negative pair of the
    /// DEV set (largest both-ways containment 0.61); measured cluster F1 in bench/results/period.md.
    double cluster_threshold = 0.65;
    /// Whether `contains` pairs join clusters too.
    bool cluster_contains = false;
    /// Worker threads of the pair counting; 0: hardware concurrency. Results do not depend on it.
    unsigned threads = 1;
    /// Normalization applied before the strings are taken.
    normalize_options normalization{};
};

/// How two pages relate.
enum class period_relation : unsigned char {
    none,       ///< below both thresholds
    duplicate,  ///< both containments >= tau_d
    contains,   ///< one containment >= tau_c: the page with fewer strings is (mostly) inside the other
};

/// The name of a relation ("none", "duplicate", "contains").
[[nodiscard]] constexpr std::string_view to_string(period_relation r) noexcept {
    switch (r) {
        case period_relation::duplicate: return "duplicate";
        case period_relation::contains: return "contains";
        case period_relation::none: break;
    }
    return "none";
}

/// Two pages (numbers in the order they were added, a < b) and their similarity.
struct period_pair {
    std::uint32_t a = 0;
    std::uint32_t b = 0;
    std::uint32_t shared = 0;  ///< strings in both (noise and strings over the cap excluded)
    double ccs = 0;            ///< shared / min(|a|, |b|)
    double a_in_b = 0;         ///< shared / |a|: how much of a is in b
    double b_in_a = 0;         ///< shared / |b|
    period_relation relation = period_relation::none;
};

/// A cluster: its centre (the node whose radius-2 class it is) and its members, ascending.
struct period_cluster {
    std::uint32_t centre = 0;
    std::vector<std::uint32_t> members;
};

namespace detail {

[[nodiscard]] constexpr bool period_space(char32_t c) noexcept {
    return c == U' ' || c == U'\t' || c == U'\n' || c == U'\r' || c == U'\v' || c == U'\f' || c == 0x00A0 ||
           c == 0x3000 || c == 0x200B || c == 0xFEFF || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029;
}

// The smallest s with s / double(n) >= t (0 < t <= 1; 0 for n = 0): a pair of pages with n
// strings in the smaller one reaches containment t exactly when it shares at least this many.
// The same double division as make_pair, so the integer test agrees with it bit for bit.
[[nodiscard]] inline std::uint32_t need_count(std::uint32_t n, double t) noexcept {
    const double dn = n;
    // floor(t * n) - 1 is below the answer: (t * n - 1) / n < t by far more than rounding.
    const double start = std::floor(t * dn) - 1;
    auto s = start > 0 ? static_cast<std::uint32_t>(start) : std::uint32_t{0};
    while (s < n && s / dn < t) {
        ++s;
    }
    return s;
}

// A pair kept by a pair-counting worker: its larger page, shared strings, the smaller page's
// offset in its chunk, and whether it is related (bit 0) and an edge (bit 1).
struct period_hit {
    std::uint32_t b;
    std::uint32_t shared;
    std::uint16_t offset;
    std::uint8_t flags;
};
static_assert(PostingIndex::pair_chunk_documents <= 65536);

// The pairs one chunk of pages keeps, and how many are related and edges.
struct period_hits {
    std::vector<period_hit> hits;
    std::size_t pairs = 0;
    std::size_t edges = 0;
};

[[nodiscard]] inline bool period_terminator(char32_t c, std::u32string_view set) noexcept {
    return set.find(c) != std::u32string_view::npos;
}

// An ASCII terminator at `i` ends a string before white space or the end, or after CJK text.
[[nodiscard]] inline bool period_ascii_stop(std::string_view s, std::size_t i, char32_t before) noexcept {
    if (i + 1 >= s.size() || before >= 0x2E80) {
        return true;
    }
    const char next = s[i + 1];
    return next == ' ' || next == '\t' || next == '\n' || next == '\r' || next == '\v' || next == '\f';
}

}  // namespace detail

/// Calls `f(std::string_view string, std::size_t end)` for each period feature string of an
/// already normalized text: `string` is a view into `scratch` (valid until the next call of `f`
/// returns), `end` the byte offset of its terminator in `normalized`. Linear time; no allocation
/// once `scratch` has grown to one string.
template <class F>
void for_each_normalized_period_string(std::string_view normalized, const period_options& options, std::string& scratch,
                                       F&& f) {
    // Start offsets of the last `length` non-space code points since the previous terminator,
    // in a ring: on a terminator the string starts at the oldest one (or at the gap start).
    std::size_t ring[64];
    const std::size_t want = std::min<std::size_t>(options.length, 64);
    std::size_t count = 0;  // non-space code points seen in the gap, capped at `want`
    std::size_t head = 0;   // next ring slot
    std::size_t gap_start = 0;
    std::size_t i = 0;
    char32_t previous = 0;
    while (i < normalized.size()) {
        const utf8::decoded d = utf8::decode(normalized, i);
        const char32_t before = previous;
        previous = d.code_point;
        if (d.valid && detail::period_terminator(d.code_point, options.terminators) &&
            (d.code_point >= 0x80 || detail::period_ascii_stop(normalized, i, before))) {
            const std::size_t begin = count < want ? gap_start : ring[head];
            scratch.clear();
            for (std::size_t j = begin; j < i;) {
                const utf8::decoded c = utf8::decode(normalized, j);
                if (!(c.valid && detail::period_space(c.code_point))) {
                    scratch.append(normalized.substr(j, c.length));
                }
                j += c.length;
            }
            if (!scratch.empty()) {
                f(std::string_view{scratch}, i);
            }
            i += d.length;
            gap_start = i;
            count = 0;
            head = 0;
            continue;
        }
        if (!(d.valid && detail::period_space(d.code_point))) {
            ring[head] = i;
            head = head + 1 == want ? 0 : head + 1;
            count = std::min(count + 1, want);
        }
        i += d.length;
    }
}

/// The period feature strings of `text` (normalized with `options.normalization` first), in
/// text order, duplicates kept. Convenience for explanations and tests; the detector uses the
/// allocation-free form.
[[nodiscard]] inline std::vector<std::string> period_strings(std::string_view text, const period_options& options = {}) {
    std::string normalized;
    normalize_into(text, normalized, options.normalization);
    std::string scratch;
    std::vector<std::string> out;
    for_each_normalized_period_string(normalized, options, scratch,
                                      [&](std::string_view s, std::size_t) { out.emplace_back(s); });
    return out;
}

/// The period strings two texts share (each once, in `a`'s order), without any noise filter:
/// what `semfp compare` prints.
[[nodiscard]] inline std::vector<std::string> shared_period_strings(std::string_view a, std::string_view b,
                                                                   const period_options& options = {}) {
    std::vector<std::string> sa = period_strings(a, options);
    std::vector<std::string> sb = period_strings(b, options);
    std::sort(sb.begin(), sb.end());
    std::vector<std::string> out;
    std::vector<std::string> seen;
    for (std::string& s : sa) {
        if (std::binary_search(sb.begin(), sb.end(), s) && std::find(seen.begin(), seen.end(), s) == seen.end()) {
            seen.push_back(s);
            out.push_back(std::move(s));
        }
    }
    return out;
}

/// The collection-level detector: add every page's text, `run()`, then read `pairs()` and
/// `clusters()`. Page numbers are the order of `add` (0, 1, ...).
class PeriodDetector {
public:
    /// Throws `invalid_argument_error` for a length outside 1..64, no terminators, a negative
    /// theta or thresholds outside (0, 1].
    explicit PeriodDetector(period_options options = {})
        : m_options(std::move(options)), m_terminators(m_options.terminators) {
        const auto& o = m_options;
        if (o.length == 0 || o.length > 64) {
            detail::throw_invalid_argument("PeriodDetector: length must be 1..64");
        }
        if (o.terminators.empty()) {
            detail::throw_invalid_argument("PeriodDetector: no terminators");
        }
        if (!(o.min_idf >= 0) || !(o.duplicate_threshold > 0 && o.duplicate_threshold <= 1) ||
            !(o.cluster_threshold > 0 && o.cluster_threshold <= 1) ||
            !(o.contains_threshold > 0 && o.contains_threshold <= 1)) {
            detail::throw_invalid_argument("PeriodDetector: min_idf must be >= 0 and thresholds in (0, 1]");
        }
    }

    /// The options in use.
    [[nodiscard]] const period_options& options() const noexcept { return m_options; }

    /// Adds a page's text (HTML already converted to text by the caller) and returns its number.
    /// Complexity: linear in the text. Invalidates the results of a previous `run()`.
    std::uint32_t add(std::string_view text) {
        const auto doc = static_cast<std::uint32_t>(m_raw_sizes.size());
        m_hashes.clear();
        if (detail::period_fast_path(m_options.normalization)) {
            // One pass over the raw text, the same hashes (period_hashes.hpp).
            detail::for_each_period_hash(
                text, m_options.normalization, m_options.length, m_terminators,
                [](char32_t c) noexcept { return detail::period_space(c); },
                [&](std::uint64_t h) { m_hashes.push_back(h); });
        } else {
            normalize_into(text, m_normalized, m_options.normalization);
            for_each_normalized_period_string(m_normalized, m_options, m_scratch, [&](std::string_view s, std::size_t) {
                m_hashes.push_back(Murmur3::hash64(s));
            });
        }
        std::sort(m_hashes.begin(), m_hashes.end());
        m_hashes.erase(std::unique(m_hashes.begin(), m_hashes.end()), m_hashes.end());
        m_index.add(doc, m_hashes, static_cast<std::uint32_t>(m_hashes.size()));
        m_raw_sizes.push_back(static_cast<std::uint32_t>(m_hashes.size()));
        return doc;
    }

    /// Adds a page under a caller's identifier (kept for `id`); returns its number.
    std::uint32_t add(std::string_view id, std::string_view text) {
        const std::uint32_t doc = add(text);
        m_ids.resize(doc);
        m_ids.emplace_back(id);
        return doc;
    }

    /// The identifier page `d` was added with (empty when added without one).
    [[nodiscard]] std::string_view id(std::uint32_t d) const noexcept {
        return d < m_ids.size() ? std::string_view{m_ids[d]} : std::string_view{};
    }

    /// Number of pages added.
    [[nodiscard]] std::size_t size() const noexcept { return m_raw_sizes.size(); }

    /// Builds the index, applies the noise filter and the cap, and computes every pair sharing
    /// a string. Complexity: O(S log S) for S strings plus the pair counting (PostingIndex).
    void run() {
        m_index.build();
        const std::size_t n = m_raw_sizes.size();
        m_noise_df = noise_df(n);
        m_sizes.assign(n, 0);
        for (std::uint32_t d = 0; d < n; ++d) {
            for (const std::uint32_t k : m_index.keys_of(d)) {
                if (m_index.document_frequency(k) < m_noise_df) {
                    ++m_sizes[d];
                }
            }
        }
        pair_count_options pc;
        pc.max_postings = std::min(m_options.max_postings == 0 ? n : m_options.max_postings, m_noise_df - 1);
        pc.threads = m_options.threads;
        m_pairs.clear();
        m_edges.clear();
        if (pc.max_postings >= 2) {
            // Pairs are classified inside the counting workers, which keep 12 bytes per pair
            // that is related or an edge (about one in six; the rest never leave the worker),
            // and the results are written once, at their final size. A pair yields something
            // only when shared / min(|a|, |b|) reaches the smallest threshold, i.e. shared >=
            // need[smaller page]: an exact integer test (need_count) that rejects most pairs
            // before make_pair, which decides the rest.
            const double t = std::min({m_options.duplicate_threshold, m_options.contains_threshold,
                                       m_options.cluster_threshold});
            std::vector<std::uint32_t> need(n);
            for (std::size_t d = 0; d < n; ++d) {
                need[d] = m_sizes[d] < m_options.min_strings ? UINT32_MAX : detail::need_count(m_sizes[d], t);
            }
            const auto chunks = m_index.count_pairs_chunked<detail::period_hits>(
                pc, [&](detail::period_hits& out, std::uint32_t a, std::uint32_t b, std::uint32_t shared) {
                    if (shared < need[m_sizes[a] <= m_sizes[b] ? a : b]) {
                        return;
                    }
                    const period_pair q = make_pair(a, b, shared);
                    const bool related = q.relation != period_relation::none;
                    const bool edge = is_edge(q);
                    if (related || edge) {
                        const auto offset = static_cast<std::uint16_t>(a % PostingIndex::pair_chunk_documents);
                        const auto flags = static_cast<std::uint8_t>((related ? 1u : 0u) | (edge ? 2u : 0u));
                        out.hits.push_back(detail::period_hit{b, shared, offset, flags});
                        out.pairs += related ? 1u : 0u;
                        out.edges += edge ? 1u : 0u;
                    }
                });
            std::size_t pairs = 0;
            std::size_t edges = 0;
            for (const detail::period_hits& c : chunks) {
                pairs += c.pairs;
                edges += c.edges;
            }
            m_pairs.reserve(pairs);
            m_edges.reserve(edges);
            detail::advise_huge_pages(m_pairs.data(), pairs * sizeof(period_pair));
            detail::advise_huge_pages(m_edges.data(), edges * sizeof(graph_edge));
            for (std::size_t c = 0; c < chunks.size(); ++c) {
                const auto base = static_cast<std::uint32_t>(c * PostingIndex::pair_chunk_documents);
                for (const detail::period_hit& h : chunks[c].hits) {
                    const std::uint32_t a = base + h.offset;
                    if ((h.flags & 1u) != 0) {
                        m_pairs.push_back(make_pair(a, h.b, h.shared));
                    }
                    if ((h.flags & 2u) != 0) {
                        m_edges.push_back(graph_edge{a, h.b});
                    }
                }
            }
        }
    }

    /// The related pairs (duplicate or contains) after `run()`, sorted by (a, b).
    [[nodiscard]] const std::vector<period_pair>& pairs() const noexcept { return m_pairs; }

    /// Compares two added pages directly (after `run()`, so with the same noise filter and cap):
    /// defined for any two pages, related or not. Complexity: linear in their string counts.
    [[nodiscard]] period_pair compare(std::uint32_t a, std::uint32_t b) const noexcept {
        if (a > b) {
            std::swap(a, b);
        }
        const std::size_t cap = std::min(m_options.max_postings == 0 ? size() : m_options.max_postings, m_noise_df - 1);
        return make_pair(a, b, a == b ? m_sizes[a] : m_index.shared_keys(a, b, cap));
    }

    /// Strings of page `d` after the noise filter (|d|); valid after `run()`.
    [[nodiscard]] std::uint32_t string_count(std::uint32_t d) const noexcept { return m_sizes[d]; }

    /// Whether the string `s` (as `for_each_normalized_period_string` gives it) is template noise
    /// in this collection (after `run()`); unknown strings are not.
    [[nodiscard]] bool is_noise(std::string_view s) const noexcept {
        const std::size_t k = m_index.find(Murmur3::hash64(s));
        return k < m_index.key_count() && m_index.document_frequency(k) >= m_noise_df;
    }

    /// The main text of a page by the patent's rule: `text` (the text added for that page) with
    /// the sentences whose period string is template noise removed, and the text after the last
    /// terminator (usually the footer) dropped. Sentences are returned normalized, one per line.
    [[nodiscard]] std::string main_text(std::string_view text) const {
        std::string normalized;
        normalize_into(text, normalized, m_options.normalization);
        std::string scratch;
        std::string out;
        std::size_t from = 0;
        for_each_normalized_period_string(normalized, m_options, scratch, [&](std::string_view s, std::size_t end) {
            const std::size_t stop = end + utf8::decode(normalized, end).length;
            if (!is_noise(s)) {
                std::string_view sentence = std::string_view{normalized}.substr(from, stop - from);
                while (!sentence.empty() && (sentence.front() == ' ' || sentence.front() == '\n')) {
                    sentence.remove_prefix(1);
                }
                out.append(sentence);
                out.push_back('\n');
            }
            from = stop;
        });
        return out;
    }

    /// Clusters after `run()`: the patent's radius-2 classes (`radius2 = true`) or connected
    /// components of the duplicate graph (edges: pairs with both containments at least
    /// `cluster_threshold`, `duplicate` pairs, and `contains` pairs when `cluster_contains`).
    /// Every page is in exactly one cluster; clusters by smallest member. A connected
    /// component's centre is its smallest member.
    [[nodiscard]] std::vector<period_cluster> clusters(bool radius2 = true) const {
        const std::vector<graph_edge>& edges = m_edges;
        std::vector<period_cluster> out;
        if (radius2) {
            const std::vector<std::uint32_t> centre = radius2_centres(size(), edges);
            for (auto& members : radius2_clusters(centre)) {
                out.push_back(period_cluster{centre[members.front()], std::move(members)});
            }
        } else {
            for (auto& members : connected_components(size(), edges)) {
                out.push_back(period_cluster{members.front(), std::move(members)});
            }
        }
        return out;
    }

    /// Approximate heap bytes held (index, sizes, pairs).
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        return m_index.memory_bytes() + (m_raw_sizes.capacity() + m_sizes.capacity()) * sizeof(std::uint32_t) +
               m_pairs.capacity() * sizeof(period_pair);
    }

private:
    // Smallest document frequency that makes a string noise for a collection of n pages.
    [[nodiscard]] std::size_t noise_df(std::size_t n) const noexcept {
        if (m_options.min_idf <= 0 || n == 0) {
            return n + 1;
        }
        // log(n / df) < theta  <=>  df > n / e^theta.
        const double limit = static_cast<double>(n) / std::exp(m_options.min_idf);
        auto df = static_cast<std::size_t>(std::floor(limit)) + 1;
        return std::max(df, std::max<std::size_t>(m_options.min_noise_df, 2));
    }

    // Whether a pair is an edge of the cluster graph.
    [[nodiscard]] bool is_edge(const period_pair& q) const noexcept {
        return std::min(q.a_in_b, q.b_in_a) >= m_options.cluster_threshold || q.relation == period_relation::duplicate ||
               (m_options.cluster_contains && q.relation == period_relation::contains);
    }

    [[nodiscard]] period_pair make_pair(std::uint32_t a, std::uint32_t b, std::uint32_t shared) const noexcept {
        period_pair q;
        q.a = a;
        q.b = b;
        q.shared = shared;
        const double na = m_sizes[a];
        const double nb = m_sizes[b];
        if (shared == 0 || m_sizes[a] < m_options.min_strings || m_sizes[b] < m_options.min_strings) {
            return q;
        }
        q.a_in_b = shared / na;
        q.b_in_a = shared / nb;
        q.ccs = shared / std::min(na, nb);
        if (q.a_in_b >= m_options.duplicate_threshold && q.b_in_a >= m_options.duplicate_threshold) {
            q.relation = period_relation::duplicate;
        } else if (q.ccs >= m_options.contains_threshold) {
            q.relation = period_relation::contains;
        }
        return q;
    }

    period_options m_options;
    detail::period_terminator_set m_terminators;
    PostingIndex m_index;
    std::vector<std::uint32_t> m_raw_sizes;
    std::vector<std::uint32_t> m_sizes;
    std::vector<period_pair> m_pairs;
    std::vector<graph_edge> m_edges;
    std::vector<std::string> m_ids;
    std::vector<std::uint64_t> m_hashes;
    std::string m_normalized;
    std::string m_scratch;
    std::size_t m_noise_df = 0;
};

}  // namespace v0
}  // namespace semfp
