#pragma once
// The read-and-prepare loop of `semfp dedup`, shared by every simhash clustering path (the plain
// Single-Pass run of cmd_dedup.cpp and the Linker of cmd_dedup_linked.cpp): an ordered pipeline
// of document blocks over a WorkerPool. The caller's thread reads blocks ahead into a ring; the
// workers decode and parse each document, extract the text of HTML pages and hand it to a
// `prepare` callback (fingerprint, sketch, shingles) on any thread; the caller's thread then
// reports bad input and gives each block to a `consume` callback in input order, as soon as the
// block is complete. What `consume` sees (and so every output byte) never depends on the number
// of threads or their timing.

#include "diagnostics.hpp"
#include "input.hpp"
#include "options.hpp"
#include "run_support.hpp"
#include "workers.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace semfp::cli {

class DocumentPipeline {
public:
    /// Input bytes per block (about; a block also ends at batch_docs documents). Small blocks
    /// keep the memory in flight (2 x threads + 2 blocks) small: at 4 MiB a 2-thread run held
    /// and faulted in about three times the memory of a 1-thread run, and its system time grew
    /// with it; the per-block costs (a lock, a callback) are negligible at 1 MiB.
    static constexpr std::size_t block_bytes = std::size_t{1} << 20;

    /// Called on any thread, once per valid document: `at` is the document's place in
    /// [0, capacity()) (its block's `base` + its index in the block), which stays its own until its
    /// block has been consumed; `text` is what to fingerprint (the extracted text of an HTML page),
    /// valid until then too. Calls for different places may run concurrently.
    using prepare_fn = std::function<void(std::size_t at, const Document& doc, std::string_view text)>;
    /// Called on the caller's thread, block by block in input order, once every document of the
    /// block is prepared and its bad input reported (documents with `valid == false` are to be
    /// skipped). Document i of `docs` was prepared at place `base + i`.
    using consume_fn = std::function<void(std::span<const Document> docs, std::size_t base)>;

    /// A pipeline reading from `reader` (whose reports it defers and gives back in input order)
    /// on the threads of `pool`; `in` and `keep_raw` are passed to `finish_document`. All four must
    /// outlive the pipeline.
    DocumentPipeline(DocumentReader& reader, WorkerPool& pool, Diagnostics& diag, const input_options& in,
                     bool keep_raw);

    /// Number of places (blocks in flight x batch_docs): size the per-document arrays `prepare`
    /// writes to with it.
    [[nodiscard]] std::size_t capacity() const noexcept { return m_ring * batch_docs; }

    /// Reads the whole input through `prepare` and `consume`. Rethrows the first exception one of
    /// them (or the reader, or a report under --strict) threw, after the workers stopped.
    void run(const prepare_fn& prepare, const consume_fn& consume);

    /// Wall time of reading (raw bytes and line splitting, on the caller's thread).
    [[nodiscard]] double read_seconds() const noexcept;
    /// Time of decoding, parsing, text extraction and `prepare`, summed over the threads.
    [[nodiscard]] double work_seconds() const noexcept;
    /// Documents decoded from GB18030/GBK.
    [[nodiscard]] std::size_t legacy() const noexcept { return m_legacy; }

private:
    struct block {
        std::vector<Document> docs;
        std::vector<std::string> extracted;  // text of HTML documents
        std::vector<reader_report> reports;  // the reader's own, found while reading this block
    };

    DocumentReader& m_reader;
    WorkerPool& m_pool;
    Diagnostics& m_diag;
    const input_options& m_input;
    bool m_keep_raw;
    std::size_t m_ring;
    std::vector<block> m_blocks;
    double m_read_seconds = 0;
    std::atomic<std::uint64_t> m_work_ns{0};
    std::size_t m_legacy = 0;
};

/// Appends the line `--keep` writes for `doc` (without the line break): the original JSON line
/// when there is one, else `{"id", "text"}` (plus `"format":"html"` for a page).
void append_keep_record(std::string& out, const Document& doc);

}  // namespace semfp::cli
