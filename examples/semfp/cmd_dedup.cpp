// `semfp dedup`: single-pass clustering of the documents in input order.
#include "clustering.hpp"
#include "commands.hpp"
#include "diagnostics.hpp"
#include "engine.hpp"
#include "input.hpp"
#include "output.hpp"
#include "overlap.hpp"
#include "progress.hpp"
#include "run_support.hpp"
#include "workers.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace semfp::cli {

namespace {

void append_number(std::string& out, double v, bool integer) {
    char buf[32];
    if (integer) {
        std::snprintf(buf, sizeof buf, "%.0f", v);
    } else {
        std::snprintf(buf, sizeof buf, "%.4f", v);
    }
    out += buf;
}

}  // namespace

int run_dedup(const dedup_command& cmd) {
    if (!cmd.state.empty() || cmd.link != link_kind::single_pass || cmd.verify != verify_kind::none)
        return run_linked_dedup(cmd);
    if (cmd.method == dedup_method::keyword || cmd.method == dedup_method::imatch || cmd.method == dedup_method::exact)
        return run_signature_dedup(cmd);
    if (cmd.method == dedup_method::period) return run_period_dedup(cmd);
    Diagnostics diag(cmd.input.strict);
    const auto engine = make_engine(cmd.pipeline);
    const auto clustering = make_clustering(cmd, *engine);
    check_no_overlap(cmd.input.paths, {{"--out", cmd.out}, {"--keep", cmd.keep}});
    AtomicOutput out(cmd.out);
    std::optional<AtomicOutput> keep;
    if (!cmd.keep.empty()) keep.emplace(cmd.keep);
    DocumentReader reader(cmd.input, diag, !cmd.keep.empty());
    WorkerPool pool(cmd.run.threads);
    Progress progress(!cmd.run.quiet);

    // Cluster number (in creation order) and id of every centre, by the centre's ordinal.
    std::unordered_map<std::uint64_t, std::size_t> cluster_of_centre;
    std::vector<std::string> centre_ids;
    std::vector<assignment> assigned;
    std::vector<std::uint64_t> ordinals;

    Stopwatch total, read, cluster, write;
    std::atomic<std::uint64_t> work_ns{0};  // parse+fingerprint, summed over the threads
    total.start();

    // A pipeline of blocks: the workers parse and fingerprint the documents of the blocks read
    // ahead while this thread clusters and writes the oldest complete block, so the clusterer
    // sees the documents in input order whatever the number of threads (same output). Reports
    // of the reader are kept with their block and given in the same place as with one thread.
    struct block {
        std::vector<Document> docs;
        std::vector<std::string> extracted;  // text of HTML documents
        std::vector<reader_report> reports;
    };
    const std::size_t ring = pool.size() == 1 ? 1 : 2 * std::size_t{pool.size()} + 2;
    std::vector<block> blocks(ring);
    clustering->begin_batch(ring * batch_docs);  // document i of ring slot s: s * batch_docs + i
    reader.defer_reports(true);
    std::vector<reader_report> last_reports;  // found after the last block
    auto replay = [&](const std::vector<reader_report>& rs) {
        for (const auto& r : rs) diag.bad_input(r.where, r.line, r.message);
    };
    std::uint64_t ordinal = 0;
    std::size_t docs = 0, legacy = 0;

    ordered_job job;
    job.ring = ring;
    job.read = [&](std::size_t slot) {
        read.start();
        block& b = blocks[slot];
        const std::size_t n = reader.read_batch(b.docs, batch_docs, batch_bytes);
        reader.take_reports(b.reports);
        if (n != 0) b.extracted.resize(n);
        if (n == 0) last_reports.swap(b.reports);
        read.stop();
        return n;
    };
    job.process = [&](std::size_t slot, std::size_t i) {
        const auto t0 = std::chrono::steady_clock::now();
        block& b = blocks[slot];
        Document& d = b.docs[i];
        finish_document(d, cmd.input, keep.has_value());
        if (d.valid) {
            const std::size_t at = slot * batch_docs + i;
            if (d.html) {
                b.extracted[i] = html_text(d.text);
                clustering->prepare(at, b.extracted[i]);
            } else {
                clustering->prepare(at, d.text);
            }
        }
        const auto t = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0);
        work_ns.fetch_add(static_cast<std::uint64_t>(t.count()), std::memory_order_relaxed);
    };
    job.consume = [&](std::size_t slot, std::size_t n) {
        block& b = blocks[slot];
        const std::vector<Document>& batch = b.docs;
        // Bad input is reported in input order, before anything of the block is clustered.
        replay(b.reports);
        for (std::size_t i = 0; i < n; ++i) {
            if (!report_problems(batch[i], diag)) continue;
            legacy += batch[i].legacy ? 1 : 0;
        }

        cluster.start();
        assigned.resize(n);
        ordinals.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            if (!batch[i].valid) continue;
            ordinals[i] = ordinal++;
            assigned[i] = clustering->add(slot * batch_docs + i, ordinals[i]);
        }
        cluster.stop();
        write.start();
        for (std::size_t i = 0; i < n; ++i) {
            const Document& d = batch[i];
            if (!d.valid) continue;
            ++docs;
            const assignment& a = assigned[i];
            if (a.is_new) {
                cluster_of_centre.emplace(ordinals[i], centre_ids.size());
                centre_ids.push_back(d.id);
                if (keep) {
                    std::string& kb = keep->buffer();
                    if (!d.raw.empty()) {
                        kb += d.raw;
                    } else {
                        kb += "{\"id\":";
                        append_json_string(kb, d.id);
                        kb += ",\"text\":";
                        append_json_string(kb, d.text);
                        if (d.html) kb += ",\"format\":\"html\"";
                        kb += '}';
                    }
                    kb += '\n';
                    keep->commit();
                }
            }
            const std::size_t number = cluster_of_centre.at(a.centre);
            std::string& ob = out.buffer();
            if (cmd.tsv) {
                append_tsv_field(ob, d.id);
                ob += '\t';
                ob += std::to_string(number);
                ob += '\n';
            } else {
                ob += "{\"id\":";
                append_json_string(ob, d.id);
                ob += ",\"cluster\":";
                ob += std::to_string(number);
                ob += ",\"centre\":";
                append_json_string(ob, centre_ids[number]);
                ob += ",\"distance\":";
                append_number(ob, a.distance, clustering->hamming());
                if (!clustering->hamming()) {
                    ob += ",\"similarity\":";
                    append_number(ob, a.similarity, false);
                }
                ob += "}\n";
            }
            out.commit();
        }
        write.stop();
        progress.update(reader.bytes_done(), reader.bytes_total(), docs);
    };
    pool.run_ordered(job);
    replay(last_reports);
    out.close();
    if (keep) keep->close();
    total.stop();
    progress.finish();

    if (!cmd.run.quiet) {
        const double mb = static_cast<double>(reader.bytes_done()) / 1e6;
        const double secs = total.seconds();
        const double work_seconds = static_cast<double>(work_ns.load()) / 1e9;
        const std::size_t clusters = centre_ids.size();
        std::fprintf(stderr,
                     "semfp dedup: %s documents (%.2f MB), %s clusters, %s duplicates removed, %s bad input(s)\n"
                     "  method: %s; %u thread(s)\n"
                     "  time %.3f s: read %.3f s, parse+fingerprint %.3f s, cluster %.3f s, write %.3f s\n"
                     "  throughput %.0f docs/s, %.2f MB/s\n",
                     with_commas(docs).c_str(), mb, with_commas(clusters).c_str(),
                     with_commas(docs - clusters).c_str(), with_commas(diag.count()).c_str(),
                     clustering->describe().c_str(), pool.size(), secs, read.seconds(), work_seconds,
                     cluster.seconds(), write.seconds(), secs > 0 ? static_cast<double>(docs) / secs : 0.0,
                     secs > 0 ? mb / secs : 0.0);
        if (legacy != 0) std::fprintf(stderr, "  %s input(s) decoded from GB18030/GBK\n", with_commas(legacy).c_str());
    }
    return exit_ok;
}

}  // namespace semfp::cli
