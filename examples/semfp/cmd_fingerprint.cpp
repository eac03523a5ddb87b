// `semfp fingerprint`: id<TAB>hex per document, in input order.
#include "commands.hpp"
#include "diagnostics.hpp"
#include "engine.hpp"
#include "input.hpp"
#include "output.hpp"
#include "overlap.hpp"
#include "progress.hpp"
#include "run_support.hpp"
#include "signature_args.hpp"
#include "workers.hpp"

#include <cstdio>
#include <vector>

namespace semfp::cli {

int run_fingerprint(const fingerprint_command& cmd) {
    if (cmd.signature.method != signature_method::simhash) return run_signature_fingerprint(cmd);
    Diagnostics diag(cmd.input.strict);
    const auto engine = make_engine(cmd.pipeline);
    check_no_overlap(cmd.input.paths, {{"--out", cmd.out}});
    AtomicOutput out(cmd.out);
    DocumentReader reader(cmd.input, diag, false);
    WorkerPool pool(cmd.run.threads);
    Progress progress(!cmd.run.quiet);

    Stopwatch total, read, work, write;
    total.start();
    std::vector<Document> batch;
    std::vector<fp_value> fps;
    std::size_t docs = 0, legacy = 0;
    for (;;) {
        read.start();
        const std::size_t n = reader.read_batch(batch, batch_docs, batch_bytes);
        read.stop();
        if (n == 0) break;
        work.start();
        fps.resize(n);
        pool.for_each(n, [&](std::size_t i) {
            Document& d = batch[i];
            finish_document(d, cmd.input, false);
            if (!d.valid) return;
            if (d.html) {
                d.text = html_text(d.text);
                d.html = false;
            }
            fps[i] = engine->fingerprint(d.text);
        });
        work.stop();
        write.start();
        std::string& buf = out.buffer();
        for (std::size_t i = 0; i < n; ++i) {
            if (!report_problems(batch[i], diag)) continue;
            legacy += batch[i].legacy ? 1 : 0;
            ++docs;
            append_tsv_field(buf, batch[i].id);
            buf += '\t';
            buf += engine->to_hex(fps[i]);
            buf += '\n';
            out.commit();
        }
        write.stop();
        progress.update(reader.bytes_done(), reader.bytes_total(), docs);
    }
    out.close();
    total.stop();
    progress.finish();
    if (!cmd.run.quiet) {
        const double mb = static_cast<double>(reader.bytes_done()) / 1e6;
        const double secs = total.seconds();
        std::fprintf(stderr,
                     "semfp fingerprint: %s documents, %.2f MB, %s bad input(s)\n"
                     "  %s, %u thread(s)\n"
                     "  time %.3f s: read %.3f s, parse+fingerprint %.3f s, write %.3f s\n"
                     "  throughput %.0f docs/s, %.2f MB/s\n",
                     with_commas(docs).c_str(), mb, with_commas(diag.count()).c_str(), engine->describe().c_str(),
                     pool.size(), secs, read.seconds(), work.seconds(), write.seconds(),
                     secs > 0 ? static_cast<double>(docs) / secs : 0.0, secs > 0 ? mb / secs : 0.0);
        if (legacy != 0) std::fprintf(stderr, "  %s input(s) decoded from GB18030/GBK\n", with_commas(legacy).c_str());
    }
    return exit_ok;
}

}  // namespace semfp::cli
