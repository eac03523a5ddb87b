#pragma once
/// \file
/// `CopyIndex`: which documents of a collection share passages with a query, ranked by shared
/// winnowing fingerprints, with containment both ways.
///
/// Why the design is what it is:
/// - Each document is reduced to its distinct winnowing fingerprints (`Winnower`, after the
///   library's normalization), so any passage of at least t tokens shared with a query is
///   guaranteed to surface its document, and the index stores about 2/(w+1) of the k-grams.
/// - Postings are 16-byte (fingerprint, document) pairs in one array of sorted runs that merge
///   when a run is no longer than twice the next one (as a binary counter): adding is
///   amortized O(f log n) for f fingerprints, there are O(log n) runs, a lookup is a binary
///   search per run, and a const query needs no lazy rebuild, so concurrent queries are safe.
/// - MOSS's two filters: fingerprints found in more than `max_document_frequency` documents are
///   ignored by queries (boilerplate and common phrases), and fingerprints of template
///   documents (`add_template`, MOSS -b) are dropped from documents added afterwards and from
///   every query.
/// - Persistence uses the library's checksummed format (index/serialization.hpp): a failed
///   load throws `format_error` with the byte offset and leaves the index unchanged.
///
/// Saved format (after the common header: magic "SEMFPCPX", version, 64):
///
///     size     field
///     8        k
///     8        t
///     4        flags: bit 0 robust, 1 normalize, 2 fold_width, 3 fold_case, 4 fold_script, 5 fold_phrases
///     8        max_document_frequency (0: no limit)
///     8 + 8T   template fingerprint count T, then the fingerprints ascending
///     8 + 16D  document count D, then per document its id and its distinct fingerprint count
///     8 + 12P  posting count P, then per posting its fingerprint and document number (u32),
///              ascending by (fingerprint, document)

#include <semfp/copy/winnowing.hpp>
#include <semfp/error.hpp>
#include <semfp/index/serialization.hpp>
#include <semfp/text/normalize.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <istream>
#include <iterator>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace semfp {
inline namespace v0 {

/// Options of `CopyIndex`.
struct copy_index_options {
    winnow_options winnowing{};             ///< k, t and robust winnowing
    std::size_t max_document_frequency = 0;  ///< ignore fingerprints of more documents (0: no limit; MOSS -m)
    bool normalize = true;                   ///< winnow the normalized text
    normalize_options normalization{};       ///< foldings when `normalize`
};

/// One document that shares fingerprints with a query.
struct copy_candidate {
    std::uint64_t id = 0;                  ///< the document's id as given to `add`
    std::size_t shared = 0;                ///< distinct fingerprints in both
    std::size_t query_fingerprints = 0;    ///< distinct fingerprints of the query (templates removed)
    std::size_t source_fingerprints = 0;   ///< distinct fingerprints of the document
    double query_containment = 0;          ///< shared / query_fingerprints: how much of the query is in the document
    double source_containment = 0;         ///< shared / source_fingerprints: how much of the document is in the query
};

/// An index of winnowing fingerprints over a collection (see the file comment).
///
/// \tparam W the winnower type; it is rebuilt from the saved options on load, so a saved index
///   must be loaded with the same `W` (its tokenizer and hash are not recorded).
template <class W = Winnower<>>
class BasicCopyIndex {
public:
    /// Creates an empty index. Throws `invalid_argument_error` for invalid winnowing options.
    explicit BasicCopyIndex(const copy_index_options& options = {}) : m_options(options), m_winnower(options.winnowing) {}

    /// The options in force (after `load`, the saved ones).
    [[nodiscard]] const copy_index_options& options() const noexcept { return m_options; }
    /// Number of documents added.
    [[nodiscard]] std::size_t size() const noexcept { return m_ids.size(); }
    /// Number of (fingerprint, document) postings.
    [[nodiscard]] std::size_t posting_count() const noexcept { return m_postings.size(); }
    /// Bytes held by the index's arrays (capacity), not counting the duplicate-id set.
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        return m_postings.capacity() * sizeof(posting) + m_ids.capacity() * sizeof(std::uint64_t) +
               m_counts.capacity() * sizeof(std::uint32_t) + m_runs.capacity() * sizeof(std::size_t) +
               m_templates.capacity() * sizeof(std::uint64_t);
    }

    /// The distinct fingerprint hashes of `text` as this index sees it, ascending, template
    /// fingerprints removed. Linear in the text plus a sort.
    [[nodiscard]] std::vector<std::uint64_t> fingerprints(std::string_view text) const {
        std::vector<winnow_fingerprint> fps;
        if (m_options.normalize) {
            std::string normalized;
            normalize_into(text, normalized, m_options.normalization);
            m_winnower.winnow(std::string_view(normalized), fps);
        } else {
            m_winnower.winnow(text, fps);
        }
        std::vector<std::uint64_t> hashes;
        hashes.reserve(fps.size());
        for (const auto& f : fps) hashes.push_back(f.hash);
        std::sort(hashes.begin(), hashes.end());
        hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());
        if (!m_templates.empty()) {
            std::erase_if(hashes, [&](std::uint64_t h) { return std::binary_search(m_templates.begin(), m_templates.end(), h); });
        }
        return hashes;
    }

    /// Adds a document. Throws `invalid_argument_error` if `id` was added before (the index is
    /// then unchanged) or when the index holds 2^32 - 1 documents. A text without fingerprints
    /// (fewer than k tokens) is added and matches nothing. Amortized O(f log n).
    void add(std::uint64_t id, std::string_view text) {
        if (m_ids.size() >= 0xFFFFFFFFu) detail::throw_invalid_argument("semfp: copy index is full (2^32 - 1 documents)");
        if (m_seen.count(id) != 0) detail::throw_invalid_argument("semfp: document id " + std::to_string(id) + " added twice");
        const std::vector<std::uint64_t> hashes = fingerprints(text);
        const auto doc = static_cast<std::uint32_t>(m_ids.size());
        m_postings.reserve(m_postings.size() + hashes.size());
        m_seen.insert(id);
        m_ids.push_back(id);
        m_counts.push_back(static_cast<std::uint32_t>(hashes.size()));
        if (hashes.empty()) return;
        for (const std::uint64_t h : hashes) m_postings.push_back({h, doc});
        m_runs.push_back(m_postings.size());
        // Merge while the previous run is no longer than twice the last one.
        while (m_runs.size() >= 2) {
            const std::size_t end = m_runs.back();
            const std::size_t mid = m_runs[m_runs.size() - 2];
            const std::size_t begin = m_runs.size() >= 3 ? m_runs[m_runs.size() - 3] : 0;
            if (mid - begin > 2 * (end - mid)) break;
            std::inplace_merge(m_postings.begin() + static_cast<std::ptrdiff_t>(begin),
                               m_postings.begin() + static_cast<std::ptrdiff_t>(mid),
                               m_postings.begin() + static_cast<std::ptrdiff_t>(end));
            m_runs.erase(m_runs.end() - 2);
        }
    }

    /// Registers a template (base) text: its fingerprints are removed from documents added
    /// afterwards and from every query (MOSS -b). Register templates before the documents for
    /// exact source containment.
    void add_template(std::string_view text) {
        const std::vector<std::uint64_t> hashes = fingerprints(text);
        std::vector<std::uint64_t> merged;
        merged.reserve(m_templates.size() + hashes.size());
        std::set_union(m_templates.begin(), m_templates.end(), hashes.begin(), hashes.end(), std::back_inserter(merged));
        m_templates = std::move(merged);
    }

    /// Documents sharing at least `min_shared` (>= 1) fingerprints with `text`, most shared
    /// first (ties: higher query containment, then smaller id). Fingerprints of more than
    /// `max_document_frequency` documents are ignored. O(f log^2 n + matches); thread-safe
    /// with other const calls.
    [[nodiscard]] std::vector<copy_candidate> query(std::string_view text, std::size_t min_shared = 1) const {
        const std::vector<std::uint64_t> hashes = fingerprints(text);
        return query_fingerprints(hashes, min_shared);
    }

    /// `query` for fingerprints already computed by `fingerprints` (ascending, distinct).
    [[nodiscard]] std::vector<copy_candidate> query_fingerprints(std::span<const std::uint64_t> hashes,
                                                                 std::size_t min_shared = 1) const {
        std::unordered_map<std::uint32_t, std::size_t> shared;
        std::vector<std::pair<const posting*, const posting*>> ranges;
        for (const std::uint64_t h : hashes) {
            ranges.clear();
            std::size_t df = 0;
            std::size_t begin = 0;
            for (const std::size_t end : m_runs) {
                const posting* first = m_postings.data() + begin;
                const posting* last = m_postings.data() + end;
                const auto r = std::equal_range(first, last, posting{h, 0}, [](const posting& x, const posting& y) { return x.hash < y.hash; });
                if (r.first != r.second) {
                    ranges.emplace_back(r.first, r.second);
                    df += static_cast<std::size_t>(r.second - r.first);
                }
                begin = end;
            }
            if (df == 0 || (m_options.max_document_frequency != 0 && df > m_options.max_document_frequency)) continue;
            for (const auto& [first, last] : ranges)
                for (const posting* p = first; p != last; ++p) ++shared[p->doc];
        }
        std::vector<copy_candidate> out;
        const std::size_t need = min_shared == 0 ? 1 : min_shared;
        for (const auto& [doc, count] : shared) {
            if (count < need) continue;
            copy_candidate c;
            c.id = m_ids[doc];
            c.shared = count;
            c.query_fingerprints = hashes.size();
            c.source_fingerprints = m_counts[doc];
            c.query_containment = static_cast<double>(count) / static_cast<double>(hashes.size());
            c.source_containment = static_cast<double>(count) / static_cast<double>(m_counts[doc]);
            out.push_back(c);
        }
        std::sort(out.begin(), out.end(), [](const copy_candidate& x, const copy_candidate& y) {
            if (x.shared != y.shared) return x.shared > y.shared;
            if (x.query_containment != y.query_containment) return x.query_containment > y.query_containment;
            return x.id < y.id;
        });
        return out;
    }

    /// Writes the index to `os` (format in the file comment). Throws `io_error`.
    void save(std::ostream& os) const {
        std::vector<posting> sorted(m_postings);
        std::sort(sorted.begin(), sorted.end());
        detail::binary_writer w(os);
        w.header(magic, 64);
        w.u64(m_options.winnowing.k);
        w.u64(m_options.winnowing.t);
        const normalize_options& n = m_options.normalization;
        w.u32((m_options.winnowing.robust ? 1u : 0u) | (m_options.normalize ? 2u : 0u) | (n.fold_width ? 4u : 0u) |
              (n.fold_case ? 8u : 0u) | (n.fold_script ? 16u : 0u) | (n.fold_phrases ? 32u : 0u));
        w.u64(m_options.max_document_frequency);
        w.u64(m_templates.size());
        for (const std::uint64_t h : m_templates) w.u64(h);
        w.u64(m_ids.size());
        for (std::size_t d = 0; d < m_ids.size(); ++d) {
            w.u64(m_ids[d]);
            w.u64(m_counts[d]);
        }
        w.u64(sorted.size());
        for (const posting& p : sorted) {
            w.u64(p.hash);
            w.u32(p.doc);
        }
        w.finish();
    }
    /// Saves to `path` atomically (temporary file + rename). Throws `io_error`.
    void save(const std::filesystem::path& path) const {
        detail::save_file_atomically(path, [&](std::ostream& os) { save(os); });
    }

    /// Replaces the index with one read from `is`. Throws `format_error` (with the byte offset)
    /// for truncated, corrupted or foreign data and leaves the index unchanged.
    void load(std::istream& is) {
        detail::binary_reader r(is);
        r.header(magic, 64);
        copy_index_options opt;
        std::size_t at = r.offset();
        opt.winnowing.k = checked_size(r.u64(), at);
        at = r.offset();
        opt.winnowing.t = checked_size(r.u64(), at);
        if (opt.winnowing.k == 0 || opt.winnowing.t < opt.winnowing.k || opt.winnowing.t > (std::size_t{1} << 20))
            detail::throw_format_error("semfp: invalid winnowing parameters", at);
        at = r.offset();
        const std::uint32_t flags = r.u32();
        if (flags > 63) detail::throw_format_error("semfp: unknown copy index flags", at);
        opt.winnowing.robust = (flags & 1u) != 0;
        opt.normalize = (flags & 2u) != 0;
        opt.normalization.fold_width = (flags & 4u) != 0;
        opt.normalization.fold_case = (flags & 8u) != 0;
        opt.normalization.fold_script = (flags & 16u) != 0;
        opt.normalization.fold_phrases = (flags & 32u) != 0;
        at = r.offset();
        opt.max_document_frequency = checked_size(r.u64(), at);
        BasicCopyIndex fresh(opt);
        at = r.offset();
        const std::uint64_t templates = r.u64();
        if (templates > (std::uint64_t{1} << 40)) detail::throw_format_error("semfp: implausible template count", at);
        for (std::uint64_t i = 0; i < templates; ++i) {
            at = r.offset();
            const std::uint64_t h = r.u64();
            if (!fresh.m_templates.empty() && h <= fresh.m_templates.back())
                detail::throw_format_error("semfp: template fingerprints out of order", at);
            fresh.m_templates.push_back(h);
        }
        at = r.offset();
        const std::uint64_t docs = r.u64();
        if (docs >= 0xFFFFFFFFu) detail::throw_format_error("semfp: implausible document count", at);
        for (std::uint64_t d = 0; d < docs; ++d) {
            at = r.offset();
            const std::uint64_t id = r.u64();
            if (!fresh.m_seen.insert(id).second) detail::throw_format_error("semfp: duplicate document id", at);
            at = r.offset();
            const std::uint64_t count = r.u64();
            if (count > 0xFFFFFFFFu) detail::throw_format_error("semfp: implausible fingerprint count", at);
            fresh.m_ids.push_back(id);
            fresh.m_counts.push_back(static_cast<std::uint32_t>(count));
        }
        at = r.offset();
        const std::uint64_t postings = r.u64();
        if (postings > (std::uint64_t{1} << 40)) detail::throw_format_error("semfp: implausible posting count", at);
        std::vector<std::uint32_t> per_doc(fresh.m_ids.size(), 0);
        for (std::uint64_t i = 0; i < postings; ++i) {
            at = r.offset();
            posting p;
            p.hash = r.u64();
            p.doc = r.u32();
            if (p.doc >= fresh.m_ids.size()) detail::throw_format_error("semfp: posting names no document", at);
            if (!fresh.m_postings.empty() && !(fresh.m_postings.back() < p))
                detail::throw_format_error("semfp: postings out of order", at);
            ++per_doc[p.doc];
            fresh.m_postings.push_back(p);
        }
        at = r.offset();
        for (std::size_t d = 0; d < per_doc.size(); ++d)
            if (per_doc[d] != fresh.m_counts[d]) detail::throw_format_error("semfp: fingerprint counts disagree with postings", at);
        r.finish();
        if (!fresh.m_postings.empty()) fresh.m_runs.push_back(fresh.m_postings.size());
        *this = std::move(fresh);
    }
    /// `load` from a file. Throws `io_error` if it cannot be opened, else as `load(std::istream&)`.
    void load(const std::filesystem::path& path) {
        detail::load_file(path, [&](std::istream& is) { load(is); });
    }

private:
    static constexpr std::string_view magic = "SEMFPCPX";

    struct posting {
        std::uint64_t hash;
        std::uint32_t doc;
        friend constexpr bool operator<(const posting& x, const posting& y) noexcept {
            return x.hash != y.hash ? x.hash < y.hash : x.doc < y.doc;
        }
    };

    [[nodiscard]] static std::size_t checked_size(std::uint64_t v, std::size_t at) {
        if (v > std::uint64_t{0xFFFFFFFFFFFFull}) detail::throw_format_error("semfp: implausible size field", at);
        return static_cast<std::size_t>(v);
    }

    copy_index_options m_options;
    W m_winnower;
    std::vector<posting> m_postings;        // sorted runs
    std::vector<std::size_t> m_runs;        // end of each run in m_postings
    std::vector<std::uint64_t> m_ids;       // document number -> id
    std::vector<std::uint32_t> m_counts;    // document number -> distinct fingerprints
    std::vector<std::uint64_t> m_templates; // ascending
    std::unordered_set<std::uint64_t> m_seen;
};

/// The copy index over code points with the default hash.
using CopyIndex = BasicCopyIndex<>;

}  // namespace v0
}  // namespace semfp
