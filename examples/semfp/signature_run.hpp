#pragma once
// The read -> sign -> report loop shared by the signature commands (fingerprint/dedup with
// --method keyword|imatch|exact, and seen): documents are read in batches, signed in parallel,
// and handed to `emit` in input order; bad input is reported and skipped as everywhere else.

#include "diagnostics.hpp"
#include "input.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "run_support.hpp"
#include "signatures.hpp"
#include "workers.hpp"

#include <semfp/core/fingerprint.hpp>

#include <cstddef>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

namespace semfp::cli {

/// Counters of a signature run, for the summary line.
struct signature_run_stats {
    std::size_t docs = 0;
    double seconds = 0;
    double sign_seconds = 0;
    double megabytes = 0;
    unsigned threads = 0;
};

/// Reads `input`, signs every valid document with `engine`, and calls
/// `emit(const Document&, std::span<const Fingerprint<128>>)` in input order.
template <class Emit>
signature_run_stats run_signatures(const input_options& input, const run_options& run, const SignatureEngine& engine,
                                   Diagnostics& diag, Emit&& emit) {
    DocumentReader reader(input, diag, false);
    WorkerPool pool(run.threads);
    Progress progress(!run.quiet);
    Stopwatch total, work;
    total.start();
    const std::size_t k = engine.size();
    std::vector<Document> batch;
    std::vector<Fingerprint<128>> sigs;
    signature_run_stats stats;
    for (;;) {
        const std::size_t n = reader.read_batch(batch, batch_docs, batch_bytes);
        if (n == 0) break;
        work.start();
        sigs.assign(n * k, Fingerprint<128>{});
        pool.for_each(n, [&](std::size_t i) {
            Document& d = batch[i];
            finish_document(d, input, false);
            if (!d.valid) return;
            if (d.html) {
                d.text = html_text(d.text);
                d.html = false;
            }
            engine.sign(d.text, std::span<Fingerprint<128>>(sigs.data() + i * k, k));
        });
        work.stop();
        for (std::size_t i = 0; i < n; ++i) {
            if (!report_problems(batch[i], diag)) continue;
            ++stats.docs;
            emit(batch[i], std::span<const Fingerprint<128>>(sigs.data() + i * k, k));
        }
        progress.update(reader.bytes_done(), reader.bytes_total(), stats.docs);
    }
    total.stop();
    progress.finish();
    stats.seconds = total.seconds();
    stats.sign_seconds = work.seconds();
    stats.megabytes = static_cast<double>(reader.bytes_done()) / 1e6;
    stats.threads = pool.size();
    return stats;
}

/// Prints the common summary line of a signature run to stderr.
inline void print_signature_summary(const char* command, const signature_run_stats& s, const SignatureEngine& engine,
                                    std::size_t bad) {
    std::fprintf(stderr,
                 "semfp %s: %s documents, %.2f MB, %s bad input(s)\n"
                 "  %s, %u thread(s)\n"
                 "  time %.3f s (signing %.3f s), throughput %.0f docs/s\n",
                 command, with_commas(s.docs).c_str(), s.megabytes, with_commas(bad).c_str(), engine.describe().c_str(),
                 s.threads, s.seconds, s.sign_seconds, s.seconds > 0 ? static_cast<double>(s.docs) / s.seconds : 0.0);
}

}  // namespace semfp::cli
