// `semfp dedup --method period`: the period-feature-string detector (signature/period.hpp) over
// the whole input. Unlike the single-pass methods it needs the collection before it can decide
// (the noise filter is an IDF over all pages), so every page's strings are gathered first and
// the clusters are written after the last document, in input order. Each output line names
// the document's cluster (numbered by first member in input order, so numbering does not
// depend on threads or batches), the cluster's centre (the page whose radius-2 class it is),
// and the relation and CCS of the document to that centre.
#include "commands.hpp"
#include "diagnostics.hpp"
#include "input.hpp"
#include "output.hpp"
#include "overlap.hpp"
#include "progress.hpp"
#include "run_support.hpp"
#include "workers.hpp"

#include <semfp/signature/period.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace semfp::cli {

int run_period_dedup(const dedup_command& cmd) {
    if (!cmd.keep.empty()) {
        std::fprintf(stderr, "semfp dedup: --keep is not available with --method period\n");
        return exit_usage;
    }
    Diagnostics diag(cmd.input.strict);
    check_no_overlap(cmd.input.paths, {{"--out", cmd.out}});
    AtomicOutput out(cmd.out);
    DocumentReader reader(cmd.input, diag, false);
    WorkerPool pool(cmd.run.threads);
    Progress progress(!cmd.run.quiet);

    semfp::period_options options;
    options.threads = pool.size();
    semfp::PeriodDetector detector(options);

    Stopwatch total, read, work, detect, write;
    total.start();
    std::vector<Document> batch;
    std::vector<std::string> extracted;
    std::size_t legacy = 0;
    for (;;) {
        read.start();
        const std::size_t n = reader.read_batch(batch, batch_docs, batch_bytes);
        read.stop();
        if (n == 0) break;
        work.start();
        extracted.resize(n);
        pool.for_each(n, [&](std::size_t i) {
            Document& d = batch[i];
            finish_document(d, cmd.input, false);
            if (d.valid && d.html) extracted[i] = html_text(d.text);
        });
        for (std::size_t i = 0; i < n; ++i) {
            if (!report_problems(batch[i], diag)) continue;
            legacy += batch[i].legacy ? 1 : 0;
            (void)detector.add(batch[i].id, batch[i].html ? std::string_view{extracted[i]} : std::string_view{batch[i].text});
        }
        work.stop();
        progress.update(reader.bytes_done(), reader.bytes_total(), detector.size());
    }

    detect.start();
    detector.run();
    const std::vector<semfp::period_cluster> clusters = detector.clusters();
    detect.stop();

    write.start();
    const std::size_t docs = detector.size();
    std::vector<std::uint32_t> cluster_of(docs, 0);
    for (std::size_t c = 0; c < clusters.size(); ++c) {
        for (const std::uint32_t m : clusters[c].members) cluster_of[m] = static_cast<std::uint32_t>(c);
    }
    for (std::uint32_t d = 0; d < docs; ++d) {
        const semfp::period_cluster& c = clusters[cluster_of[d]];
        std::string& ob = out.buffer();
        if (cmd.tsv) {
            append_tsv_field(ob, detector.id(d));
            ob += '\t';
            ob += std::to_string(cluster_of[d]);
            ob += '\n';
        } else {
            ob += "{\"id\":";
            append_json_string(ob, detector.id(d));
            ob += ",\"cluster\":";
            ob += std::to_string(cluster_of[d]);
            ob += ",\"centre\":";
            append_json_string(ob, detector.id(c.centre));
            if (c.centre == d) {
                ob += ",\"relation\":\"centre\",\"ccs\":1";
            } else {
                const semfp::period_pair p = detector.compare(d, c.centre);
                char buf[32];
                std::snprintf(buf, sizeof buf, "%.4f", p.ccs);
                ob += ",\"relation\":\"";
                ob += semfp::to_string(p.relation);
                ob += "\",\"ccs\":";
                ob += buf;
            }
            ob += "}\n";
        }
        out.commit();
    }
    out.close();
    write.stop();
    total.stop();
    progress.finish();

    if (!cmd.run.quiet) {
        const double mb = static_cast<double>(reader.bytes_done()) / 1e6;
        const double secs = total.seconds();
        std::fprintf(stderr,
                     "semfp dedup: %s documents (%.2f MB), %s clusters, %s duplicates removed, %s bad input(s)\n"
                     "  method: period (L %zu, IDF >= %.1f, M %zu, duplicate %.2f, contains %.2f); %u thread(s)\n"
                     "  time %.3f s: read %.3f s, parse+strings %.3f s, pairs+clusters %.3f s, write %.3f s\n"
                     "  throughput %.0f docs/s, %.2f MB/s\n",
                     with_commas(docs).c_str(), mb, with_commas(clusters.size()).c_str(),
                     with_commas(docs - clusters.size()).c_str(), with_commas(diag.count()).c_str(), options.length,
                     options.min_idf, options.max_postings, options.duplicate_threshold, options.contains_threshold,
                     pool.size(), secs, read.seconds(), work.seconds(), detect.seconds(), write.seconds(),
                     secs > 0 ? static_cast<double>(docs) / secs : 0.0, secs > 0 ? mb / secs : 0.0);
        if (legacy != 0) std::fprintf(stderr, "  %s input(s) decoded from GB18030/GBK\n", with_commas(legacy).c_str());
    }
    return exit_ok;
}

}  // namespace semfp::cli
