#include "document_pipeline.hpp"

#include "output.hpp"

#include <chrono>

namespace semfp::cli {

void append_keep_record(std::string& out, const Document& doc) {
    if (!doc.raw.empty()) {
        out += doc.raw;
        return;
    }
    out += "{\"id\":";
    append_json_string(out, doc.id);
    out += ",\"text\":";
    append_json_string(out, doc.text);
    if (doc.html) out += ",\"format\":\"html\"";
    out += '}';
}

DocumentPipeline::DocumentPipeline(DocumentReader& reader, WorkerPool& pool, Diagnostics& diag, const input_options& in,
                                   bool keep_raw)
    : m_reader(reader),
      m_pool(pool),
      m_diag(diag),
      m_input(in),
      m_keep_raw(keep_raw),
      // One thread reads, prepares and consumes in turn, one block at a time; with more, enough
      // blocks in flight that the workers never wait for the reader or the consumer.
      m_ring(pool.size() == 1 ? 1 : 2 * std::size_t{pool.size()} + 2),
      m_blocks(m_ring) {}

double DocumentPipeline::read_seconds() const noexcept {
    return m_read_seconds;
}

double DocumentPipeline::work_seconds() const noexcept {
    return static_cast<double>(m_work_ns.load(std::memory_order_relaxed)) / 1e9;
}

void DocumentPipeline::run(const prepare_fn& prepare, const consume_fn& consume) {
    Stopwatch read;
    // The reader runs blocks ahead of the consumer: its reports are kept with their block and
    // given in the place a one-thread run gives them (before the block's other reports).
    m_reader.defer_reports(true);
    std::vector<reader_report> last_reports;  // found after the last block
    auto replay = [&](const std::vector<reader_report>& rs) {
        for (const auto& r : rs) m_diag.bad_input(r.where, r.line, r.message);
    };

    ordered_job job;
    job.ring = m_ring;
    job.read = [&](std::size_t slot) {
        read.start();
        block& b = m_blocks[slot];
        const std::size_t n = m_reader.read_batch(b.docs, batch_docs, block_bytes);
        m_reader.take_reports(b.reports);
        if (n != 0) b.extracted.resize(n);
        if (n == 0) last_reports.swap(b.reports);
        read.stop();
        return n;
    };
    job.process = [&](std::size_t slot, std::size_t i) {
        const auto t0 = std::chrono::steady_clock::now();
        block& b = m_blocks[slot];
        Document& d = b.docs[i];
        finish_document(d, m_input, m_keep_raw);
        if (d.valid) {
            const std::size_t at = slot * batch_docs + i;
            if (d.html) {
                b.extracted[i] = html_text(d.text);
                prepare(at, d, b.extracted[i]);
            } else {
                prepare(at, d, d.text);
            }
        }
        const auto t = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0);
        m_work_ns.fetch_add(static_cast<std::uint64_t>(t.count()), std::memory_order_relaxed);
    };
    job.consume = [&](std::size_t slot, std::size_t n) {
        const block& b = m_blocks[slot];
        const std::span<const Document> docs(b.docs.data(), n);
        // Bad input is reported in input order, before anything of the block is consumed.
        replay(b.reports);
        for (const Document& d : docs) {
            if (report_problems(d, m_diag)) m_legacy += d.legacy ? 1 : 0;
        }
        consume(docs, slot * batch_docs);
    };
    m_pool.run_ordered(job);
    m_read_seconds += read.seconds();
    m_reader.defer_reports(false);
    replay(last_reports);
}

}  // namespace semfp::cli
