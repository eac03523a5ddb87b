#pragma once
/// \file
/// `PostingIndex`: an inverted index from 64-bit keys to documents, and the count of shared keys
/// for every pair of documents that share at least one key.
///
/// Why a build step and a CSR layout: collection-level detectors (period feature strings,
/// sentence signatures) add every document once and then ask one question of the whole
/// collection, so the index is filled as one flat vector of (key, document, count) entries and
/// turned by one sort into two compressed arrays: the posting lists (key -> documents) and the
/// forward lists (document -> key ids). Nothing is allocated per key or per posting, and both
/// directions are contiguous, which the pair counting reads in its inner loop.
///
/// Why the pair counting is by document and not by posting list: emitting all pairs of each
/// list and merging them needs memory quadratic in the list lengths; walking, for each
/// document `a`, its keys and their postings `b > a` with one dense counter array per thread
/// needs memory linear in the collection. A two-level bitmap beside the counters marks the
/// documents counted so far, so the pairs of `a` come out sorted by `b` without a sort (the
/// bitmap walk costs the number of partners plus one word per 4,096 documents in their span).
/// Documents are handed out to threads in fixed chunks and each chunk's pairs are stored apart
/// and concatenated in chunk order, so the result is the same, in the same order, for every
/// thread count. Lists longer than a cap (`max_postings`) are skipped: a key held by very many
/// documents says little about any pair, and its pair emission is quadratic in its length.
///
/// Why `count_pairs_chunked` besides `count_pairs`: a caller that keeps few of the pairs (the
/// period detector keeps about one in ten) classifies them inside the workers and stores only
/// what it keeps, instead of materializing every pair (50 M pairs, 600 MB, for 100 k web pages)
/// and filtering them on one thread afterwards.

#include <semfp/detail/huge_pages.hpp>
#include <semfp/error.hpp>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <span>
#include <thread>
#include <vector>

namespace semfp {
inline namespace v0 {

/// One posting: a document holding a key, and the count the caller attached to it (the
/// period detector stores the document's feature count there, so a similarity can be
/// computed from the postings alone).
struct posting {
    std::uint32_t doc = 0;    ///< document number (the caller's, dense from 0)
    std::uint32_t count = 0;  ///< the caller's count for this (key, document)
};

/// Two documents and the number of distinct keys they share; `a < b`.
struct shared_key_pair {
    std::uint32_t a = 0;       ///< the smaller document number
    std::uint32_t b = 0;       ///< the larger document number
    std::uint32_t shared = 0;  ///< distinct keys held by both (keys over the cap not counted)
    friend bool operator==(const shared_key_pair&, const shared_key_pair&) = default;
};

/// How `PostingIndex::count_pairs` runs.
struct pair_count_options {
    /// Posting lists longer than this produce no pairs (the patent's M); 0 means no cap.
    std::size_t max_postings = 0;
    /// Pairs sharing fewer keys are not reported (at least 1).
    std::uint32_t min_shared = 1;
    /// Worker threads; 0 means `std::thread::hardware_concurrency()`. Results do not depend on it.
    unsigned threads = 1;
};

namespace detail {

/// Dense per-document counters and a two-level bitmap of the nonzero ones: `drain` reports
/// the counted documents in ascending order and resets them, in time proportional to their
/// number plus one summary word per 4,096 documents of their span. One per thread.
class pair_counter {
public:
    explicit pair_counter(std::size_t docs)
        : m_count(docs, 0), m_bits((docs + 63) / 64, 0), m_summary((docs + 4095) / 4096, 0) {}

    /// Counts one more shared key for document `d` (< docs).
    void add(std::uint32_t d) noexcept {
        if (m_count[d]++ == 0) {
            m_bits[d >> 6] |= std::uint64_t{1} << (d & 63u);
            const std::size_t s = d >> 12;
            m_summary[s] |= std::uint64_t{1} << ((d >> 6) & 63u);
            m_lo = std::min(m_lo, s);
            m_hi = std::max(m_hi, s + 1);
        }
    }

    /// Calls `f(d, count)` for each counted document, ascending, and resets every counter.
    template <class F>
    void drain(F&& f) {
        for (std::size_t s = m_lo; s < m_hi; ++s) {
            std::uint64_t words = m_summary[s];
            m_summary[s] = 0;
            while (words != 0) {
                const std::size_t w = s * 64 + static_cast<std::size_t>(std::countr_zero(words));
                words &= words - 1;
                std::uint64_t bits = m_bits[w];
                m_bits[w] = 0;
                while (bits != 0) {
                    const auto d = static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
                    bits &= bits - 1;
                    const std::uint32_t n = m_count[d];
                    m_count[d] = 0;
                    f(d, n);
                }
            }
        }
        m_lo = std::numeric_limits<std::size_t>::max();
        m_hi = 0;
    }

private:
    std::vector<std::uint32_t> m_count;
    std::vector<std::uint64_t> m_bits;     // bit d: m_count[d] != 0
    std::vector<std::uint64_t> m_summary;  // bit w of word s: m_bits[s * 64 + w] != 0
    std::size_t m_lo = std::numeric_limits<std::size_t>::max();  // summary words in use: [m_lo, m_hi)
    std::size_t m_hi = 0;
};

}  // namespace detail

/// An inverted index from 64-bit keys to documents, with a build step.
///
/// Use: `add` every document's keys, `build()` once, then query `postings`, `keys_of` and
/// `count_pairs`. Adding after `build()` is allowed and needs another `build()`.
/// Memory after build: 8 bytes per distinct key, 8 per posting, 4 per forward entry, 4 per
/// document. Not thread-safe while adding; the const queries may run concurrently.
class PostingIndex {
public:
    /// Adds document `doc` holding `keys` (duplicates are counted once), each posting carrying
    /// `count`. Throws `invalid_argument_error` for a document number of 2^32 - 1 or more.
    /// Complexity: amortized O(keys.size()).
    void add(std::uint32_t doc, std::span<const std::uint64_t> keys, std::uint32_t count) {
        if (doc == std::numeric_limits<std::uint32_t>::max()) {
            detail::throw_invalid_argument("PostingIndex::add: document number out of range");
        }
        m_docs = std::max<std::size_t>(m_docs, std::size_t{doc} + 1);
        if (m_pending.capacity() - m_pending.size() < keys.size()) {
            // Grow by doubling as push_back would, the huge-page hint given before the copy.
            std::vector<entry> next;
            const std::size_t want = std::max(m_pending.size() + keys.size(), std::max<std::size_t>(m_pending.capacity() * 2, 1024));
            next.reserve(want);
            detail::advise_huge_pages(next.data(), want * sizeof(entry));
            next.insert(next.end(), m_pending.begin(), m_pending.end());
            m_pending.swap(next);
        }
        for (const std::uint64_t k : keys) {
            m_pending.push_back(entry{k, doc, count});
        }
        m_built = false;
    }

    /// Sorts the added entries into the posting and forward arrays. Complexity: O(E log E) for
    /// E entries added so far.
    void build() {
        // Fold the previous build back into entries so add-after-build works.
        if (!m_keys.empty()) {
            for (std::size_t k = 0; k < m_keys.size(); ++k) {
                for (std::uint32_t p = m_key_start[k]; p < m_key_start[k + 1]; ++p) {
                    m_pending.push_back(entry{m_keys[k], m_postings[p].doc, m_postings[p].count});
                }
            }
        }
        std::sort(m_pending.begin(), m_pending.end(), [](const entry& x, const entry& y) noexcept {
            return x.key != y.key ? x.key < y.key : x.doc < y.doc;
        });
        m_keys.clear();
        m_key_start.clear();
        m_postings.clear();
        m_postings.reserve(m_pending.size());
        detail::advise_huge_pages(m_postings.data(), m_pending.size() * sizeof(posting));
        for (std::size_t i = 0; i < m_pending.size(); ++i) {
            const entry& e = m_pending[i];
            if (i > 0 && m_pending[i - 1].key == e.key && m_pending[i - 1].doc == e.doc) {
                continue;  // a document's duplicate key
            }
            if (m_keys.empty() || m_keys.back() != e.key) {
                m_keys.push_back(e.key);
                m_key_start.push_back(static_cast<std::uint32_t>(m_postings.size()));
            }
            m_postings.push_back(posting{e.doc, e.count});
        }
        m_key_start.push_back(static_cast<std::uint32_t>(m_postings.size()));
        m_pending.clear();
        m_pending.shrink_to_fit();

        // Forward lists by counting sort on the document: key ids ascend within each document.
        m_doc_start.assign(m_docs + 1, 0);
        for (const posting& p : m_postings) {
            ++m_doc_start[p.doc + 1];
        }
        for (std::size_t d = 0; d < m_docs; ++d) {
            m_doc_start[d + 1] += m_doc_start[d];
        }
        m_forward.clear();
        m_forward.reserve(m_postings.size());
        detail::advise_huge_pages(m_forward.data(), m_postings.size() * sizeof(std::uint32_t));
        m_forward.resize(m_postings.size());
        std::vector<std::uint32_t> fill(m_doc_start.begin(), m_doc_start.end() - 1);
        for (std::size_t k = 0; k < m_keys.size(); ++k) {
            for (std::uint32_t p = m_key_start[k]; p < m_key_start[k + 1]; ++p) {
                m_forward[fill[m_postings[p].doc]++] = static_cast<std::uint32_t>(k);
            }
        }
        m_built = true;
    }

    /// True when every added document is in the arrays (no `add` since the last `build`).
    [[nodiscard]] bool built() const noexcept { return m_built; }
    /// Number of documents (one more than the largest document number added).
    [[nodiscard]] std::size_t document_count() const noexcept { return m_docs; }
    /// Number of distinct keys after `build()`.
    [[nodiscard]] std::size_t key_count() const noexcept { return m_keys.size(); }
    /// Number of postings after `build()`.
    [[nodiscard]] std::size_t posting_count() const noexcept { return m_postings.size(); }

    /// The id (0 .. key_count()-1, in key order) of `key`, or `key_count()` when absent.
    /// Complexity: O(log key_count()).
    [[nodiscard]] std::size_t find(std::uint64_t key) const noexcept {
        const auto it = std::lower_bound(m_keys.begin(), m_keys.end(), key);
        return it != m_keys.end() && *it == key ? static_cast<std::size_t>(it - m_keys.begin()) : m_keys.size();
    }
    /// The key with id `id` (< key_count()).
    [[nodiscard]] std::uint64_t key(std::size_t id) const noexcept { return m_keys[id]; }
    /// The postings of key id `id` (< key_count()), by ascending document; valid until the next `build`.
    [[nodiscard]] std::span<const posting> postings(std::size_t id) const noexcept {
        return {m_postings.data() + m_key_start[id], m_postings.data() + m_key_start[id + 1]};
    }
    /// Number of documents holding key id `id` (its document frequency).
    [[nodiscard]] std::size_t document_frequency(std::size_t id) const noexcept {
        return m_key_start[id + 1] - m_key_start[id];
    }
    /// The ascending key ids of document `doc` (< document_count()); valid until the next `build`.
    [[nodiscard]] std::span<const std::uint32_t> keys_of(std::uint32_t doc) const noexcept {
        return {m_forward.data() + m_doc_start[doc], m_forward.data() + m_doc_start[doc + 1]};
    }

    /// Number of distinct keys documents `a` and `b` share, keys over `max_postings` (0: no
    /// cap) not counted. Complexity: linear in both documents' key counts.
    [[nodiscard]] std::uint32_t shared_keys(std::uint32_t a, std::uint32_t b, std::size_t max_postings = 0) const noexcept {
        const auto x = keys_of(a);
        const auto y = keys_of(b);
        std::uint32_t n = 0;
        std::size_t i = 0;
        std::size_t j = 0;
        while (i < x.size() && j < y.size()) {
            if (x[i] < y[j]) {
                ++i;
            } else if (y[j] < x[i]) {
                ++j;
            } else {
                if (max_postings == 0 || document_frequency(x[i]) <= max_postings) {
                    ++n;
                }
                ++i;
                ++j;
            }
        }
        return n;
    }

    /// Every pair of documents sharing at least `options.min_shared` keys, with the number of
    /// shared keys, sorted by (a, b). Keys held by more than `options.max_postings` documents
    /// are ignored. The result is identical for every thread count.
    /// Complexity: the sum over keys of df^2 / 2 (lists within the cap); memory O(documents)
    /// per thread plus the result. Throws `invalid_argument_error` when the index is not built.
    [[nodiscard]] std::vector<shared_key_pair> count_pairs(const pair_count_options& options = {}) const {
        const auto chunks = count_pairs_chunked<std::vector<shared_key_pair>>(
            options, [](std::vector<shared_key_pair>& out, std::uint32_t a, std::uint32_t b, std::uint32_t shared) {
                out.push_back(shared_key_pair{a, b, shared});
            });
        std::size_t total = 0;
        for (const auto& v : chunks) {
            total += v.size();
        }
        std::vector<shared_key_pair> result;
        result.reserve(total);
        for (const auto& v : chunks) {
            result.insert(result.end(), v.begin(), v.end());
        }
        return result;
    }

    /// Documents per chunk of `count_pairs_chunked`.
    static constexpr std::size_t pair_chunk_documents = 256;

    /// The pairs of `count_pairs`, handed to the caller instead of stored: for every chunk of
    /// `pair_chunk_documents` consecutive documents (chunk `c` holds documents
    /// `c * pair_chunk_documents ..`), `visit(Chunk& out, a, b, shared)` is called for the pairs
    /// whose smaller document `a` is in the chunk, in (a, b) order, with that chunk's `out`.
    /// Returns the chunks in document order (`Chunk` value-initialized, then visited), so that
    /// concatenated they hold the pairs in (a, b) order for every thread count. Chunks run on
    /// `options.threads` threads at once: `visit` may only read state shared between chunks.
    /// An exception from `visit` or an allocation stops the workers and is rethrown here.
    /// Complexity as `count_pairs`. Throws `invalid_argument_error` when the index is not built.
    template <class Chunk, class Visit>
    [[nodiscard]] std::vector<Chunk> count_pairs_chunked(const pair_count_options& options, Visit&& visit) const {
        if (!m_built) {
            detail::throw_invalid_argument("PostingIndex::count_pairs: build() first");
        }
        constexpr std::size_t chunk = pair_chunk_documents;
        const std::size_t chunks = (m_docs + chunk - 1) / chunk;
        std::vector<Chunk> out(chunks);
        std::atomic<std::size_t> next{0};
        std::atomic<bool> failed{false};
        std::exception_ptr error;  // written once, by the worker that set `failed`; read after the joins
        const std::size_t cap = options.max_postings == 0 ? m_docs : options.max_postings;
        const std::uint32_t min_shared = std::max<std::uint32_t>(options.min_shared, 1);

        auto worker = [&]() noexcept {
            try {
                detail::pair_counter counter(m_docs);
                for (;;) {
                    const std::size_t c = next.fetch_add(1, std::memory_order_relaxed);
                    if (c >= chunks || failed.load(std::memory_order_relaxed)) {
                        break;
                    }
                    Chunk& pairs = out[c];
                    const std::size_t end = std::min(m_docs, (c + 1) * chunk);
                    for (std::size_t a = c * chunk; a < end; ++a) {
                        const auto da = static_cast<std::uint32_t>(a);
                        for (const std::uint32_t k : keys_of(da)) {
                            const auto list = postings(k);
                            if (list.size() < 2 || list.size() > cap) {
                                continue;
                            }
                            // Postings ascend by document: start after `a`.
                            auto it = std::upper_bound(list.begin(), list.end(), da,
                                                       [](std::uint32_t d, const posting& p) noexcept { return d < p.doc; });
                            for (; it != list.end(); ++it) {
                                counter.add(it->doc);
                            }
                        }
                        counter.drain([&](std::uint32_t b, std::uint32_t n) {
                            if (n >= min_shared) {
                                visit(pairs, da, b, n);
                            }
                        });
                    }
                }
            } catch (...) {
                if (!failed.exchange(true)) {
                    error = std::current_exception();
                }
            }
        };

        unsigned threads = options.threads == 0 ? std::thread::hardware_concurrency() : options.threads;
        threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(std::max<std::size_t>(chunks, 1))));
        {
            std::vector<std::jthread> pool;
            pool.reserve(threads - 1);
            for (unsigned t = 1; t < threads; ++t) {
                pool.emplace_back(worker);
            }
            worker();
        }
        if (error) {
            std::rethrow_exception(error);
        }
        return out;
    }

    /// Approximate bytes held by the arrays (capacity, not size).
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        return m_keys.capacity() * sizeof(std::uint64_t) + m_key_start.capacity() * sizeof(std::uint32_t) +
               m_postings.capacity() * sizeof(posting) + m_doc_start.capacity() * sizeof(std::uint32_t) +
               m_forward.capacity() * sizeof(std::uint32_t) + m_pending.capacity() * sizeof(entry);
    }

private:
    struct entry {
        std::uint64_t key;
        std::uint32_t doc;
        std::uint32_t count;
    };
    std::vector<entry> m_pending;
    std::vector<std::uint64_t> m_keys;        // distinct keys, ascending
    std::vector<std::uint32_t> m_key_start;   // key id -> first posting; one extra entry
    std::vector<posting> m_postings;          // by key, then document
    std::vector<std::uint32_t> m_doc_start;   // document -> first forward entry; one extra entry
    std::vector<std::uint32_t> m_forward;     // key ids by document, ascending
    std::size_t m_docs = 0;
    bool m_built = true;
};

}  // namespace v0
}  // namespace semfp
