// `semfp dedup` with --state, --link components or --verify sketch (simhash only): the same
// ordered pipeline as cmd_dedup.cpp (document_pipeline.hpp; fingerprints and sketches computed on
// the workers), clustered by a Linker (linking.hpp), which can save and reload its state, link
// connected components, and verify candidates with sketches.
#include "commands.hpp"
#include "diagnostics.hpp"
#include "digest.hpp"
#include "document_pipeline.hpp"
#include "engine.hpp"
#include "input.hpp"
#include "linking.hpp"
#include "output.hpp"
#include "overlap.hpp"
#include "progress.hpp"
#include "run_support.hpp"
#include "workers.hpp"

#include <semfp/core/fingerprint.hpp>
#include <semfp/error.hpp>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace semfp::cli {

int run_linked_dedup(const dedup_command& cmd) {
    if (cmd.method != dedup_method::simhash)
        semfp::detail::throw_invalid_argument("--state, --link components and --verify sketch need --method simhash");
    if (cmd.link == link_kind::components && cmd.match_members)
        semfp::detail::throw_invalid_argument("--match-members has no meaning with --link components");
    if (cmd.link == link_kind::components && !cmd.state.empty())
        semfp::detail::throw_invalid_argument(
            "--state needs --link single-pass (a later document can join two earlier components)");
    if (cmd.state == "-") semfp::detail::throw_invalid_argument("--state must name a file, not standard output");
    Diagnostics diag(cmd.input.strict);
    const auto engine = make_engine(cmd.pipeline);
    const bool verify = cmd.verify == verify_kind::sketch;
    link_settings ls;
    ls.bits = engine->bits();
    ls.hd = resolved_radius(cmd.hd, engine->bits());
    ls.match_members = cmd.match_members;
    ls.link = cmd.link;
    ls.verify = verify;
    check_no_overlap(cmd.input.paths, {{"--out", cmd.out}, {"--keep", cmd.keep}, {"--state", cmd.state}});

    AtomicOutput out(cmd.out);
    std::optional<AtomicOutput> keep;
    if (!cmd.keep.empty()) keep.emplace(cmd.keep);
    std::size_t docs = 0;
    const auto linker = make_linker(ls, [&](const linked_document& d) {
        ++docs;
        append_dedup_line(out.buffer(), d, cmd.tsv);
        out.commit();
        if (keep && d.is_new) {
            keep->buffer() += d.keep;
            keep->buffer() += '\n';
            keep->commit();
        }
    });
    const std::string identity = clustering_identity(cmd.pipeline, cmd.input, ls.hd, ls.match_members, verify);
    std::size_t clusters_before = 0;
    const bool resumed = !cmd.state.empty() && std::filesystem::exists(cmd.state);
    if (resumed) {
        linker->load_state(cmd.state, identity);
        clusters_before = linker->clusters();
    }

    DocumentReader reader(cmd.input, diag, !cmd.keep.empty());
    WorkerPool pool(cmd.run.threads);
    DocumentPipeline pipeline(reader, pool, diag, cmd.input, keep.has_value());
    Progress progress(!cmd.run.quiet);
    Stopwatch total, cluster;
    total.start();
    // Fingerprints (and sketches) by place, computed on the workers for the blocks read ahead
    // while this thread links the oldest complete block in input order.
    std::vector<fp_value> fps(pipeline.capacity());
    std::vector<MinHashSketch> sketches(verify ? pipeline.capacity() : 1);
    std::string record;
    const auto prepare = [&](std::size_t at, const Document&, std::string_view text) {
        if (verify) {
            signature_value s = engine->signature(text);
            fps[at] = s.fingerprint;
            sketches[at] = std::move(s.sketch);
        } else {
            fps[at] = engine->fingerprint(text);
        }
    };
    const auto consume = [&](std::span<const Document> batch, std::size_t base) {
        cluster.start();
        for (std::size_t i = 0; i < batch.size(); ++i) {
            const Document& d = batch[i];
            if (!d.valid) continue;
            record.clear();
            if (keep) append_keep_record(record, d);
            linker->add(d.id, fps[base + i], sketches[verify ? base + i : 0], record);
        }
        cluster.stop();
        progress.update(reader.bytes_done(), reader.bytes_total(), docs);
    };
    pipeline.run(prepare, consume);
    cluster.start();
    linker->finish();
    cluster.stop();
    out.close();
    if (keep) keep->close();
    // The state is saved after the outputs are published: a failed run leaves the old state, and
    // rerunning it gives the same lines again.
    if (!cmd.state.empty()) linker->save_state(cmd.state, identity);
    total.stop();
    progress.finish();

    if (!cmd.run.quiet) {
        const double mb = static_cast<double>(reader.bytes_done()) / 1e6;
        const double secs = total.seconds();
        const std::size_t clusters = linker->clusters() - clusters_before;
        std::fprintf(stderr,
                     "semfp dedup: %s documents (%.2f MB), %s %sclusters, %s duplicates removed, %s bad input(s)\n"
                     "  method: %s; %s; %u thread(s)\n"
                     "  time %.3f s: read %.3f s, parse+fingerprint %.3f s, cluster+write %.3f s\n"
                     "  throughput %.0f docs/s, %.2f MB/s\n",
                     with_commas(docs).c_str(), mb, with_commas(clusters).c_str(), resumed ? "new " : "",
                     with_commas(docs - clusters).c_str(), with_commas(diag.count()).c_str(),
                     linker->describe().c_str(), engine->describe().c_str(), pool.size(), secs,
                     pipeline.read_seconds(), pipeline.work_seconds(), cluster.seconds(),
                     secs > 0 ? static_cast<double>(docs) / secs : 0.0, secs > 0 ? mb / secs : 0.0);
        if (resumed)
            std::fprintf(stderr, "  state %s: resumed with %s clusters, saved with %s\n", cmd.state.c_str(),
                         with_commas(clusters_before).c_str(), with_commas(linker->clusters()).c_str());
        else if (!cmd.state.empty())
            std::fprintf(stderr, "  state %s: created with %s clusters\n", cmd.state.c_str(),
                         with_commas(linker->clusters()).c_str());
        if (pipeline.legacy() != 0)
            std::fprintf(stderr, "  %s input(s) decoded from GB18030/GBK\n", with_commas(pipeline.legacy()).c_str());
    }
    return exit_ok;
}

}  // namespace semfp::cli
