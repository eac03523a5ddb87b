// `semfp dedup`: single-pass clustering of the documents in input order.
#include "clustering.hpp"
#include "commands.hpp"
#include "diagnostics.hpp"
#include "document_pipeline.hpp"
#include "engine.hpp"
#include "input.hpp"
#include "output.hpp"
#include "overlap.hpp"
#include "progress.hpp"
#include "run_support.hpp"
#include "workers.hpp"

#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <string_view>
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
    DocumentPipeline pipeline(reader, pool, diag, cmd.input, keep.has_value());
    Progress progress(!cmd.run.quiet);

    // Cluster number (in creation order) and id of every centre, by the centre's ordinal.
    std::unordered_map<std::uint64_t, std::size_t> cluster_of_centre;
    std::vector<std::string> centre_ids;
    std::vector<assignment> assigned;
    std::vector<std::uint64_t> ordinals;

    Stopwatch total, cluster, write;
    total.start();

    // The workers prepare (fingerprint) the documents of the blocks read ahead while this thread
    // clusters and writes the oldest complete block, so the clusterer sees the documents in input
    // order whatever the number of threads (same output).
    clustering->begin_batch(pipeline.capacity());
    std::uint64_t ordinal = 0;
    std::size_t docs = 0;

    const auto prepare = [&](std::size_t at, const Document&, std::string_view text) { clustering->prepare(at, text); };
    const auto consume = [&](std::span<const Document> batch, std::size_t base) {
        const std::size_t n = batch.size();
        cluster.start();
        assigned.resize(n);
        ordinals.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            if (!batch[i].valid) continue;
            ordinals[i] = ordinal++;
            assigned[i] = clustering->add(base + i, ordinals[i]);
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
                    append_keep_record(keep->buffer(), d);
                    keep->buffer() += '\n';
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
    pipeline.run(prepare, consume);
    out.close();
    if (keep) keep->close();
    total.stop();
    progress.finish();

    if (!cmd.run.quiet) {
        const double mb = static_cast<double>(reader.bytes_done()) / 1e6;
        const double secs = total.seconds();
        const std::size_t clusters = centre_ids.size();
        std::fprintf(stderr,
                     "semfp dedup: %s documents (%.2f MB), %s clusters, %s duplicates removed, %s bad input(s)\n"
                     "  method: %s; %u thread(s)\n"
                     "  time %.3f s: read %.3f s, parse+fingerprint %.3f s, cluster %.3f s, write %.3f s\n"
                     "  throughput %.0f docs/s, %.2f MB/s\n",
                     with_commas(docs).c_str(), mb, with_commas(clusters).c_str(),
                     with_commas(docs - clusters).c_str(), with_commas(diag.count()).c_str(),
                     clustering->describe().c_str(), pool.size(), secs, pipeline.read_seconds(),
                     pipeline.work_seconds(), cluster.seconds(), write.seconds(),
                     secs > 0 ? static_cast<double>(docs) / secs : 0.0, secs > 0 ? mb / secs : 0.0);
        if (pipeline.legacy() != 0)
            std::fprintf(stderr, "  %s input(s) decoded from GB18030/GBK\n", with_commas(pipeline.legacy()).c_str());
    }
    return exit_ok;
}

}  // namespace semfp::cli
