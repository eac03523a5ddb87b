// `semfp dedup` with --state, --link components or --verify sketch (simhash only): the same
// reading and fingerprinting as cmd_dedup.cpp, clustered by a Linker (linking.hpp), which can
// save and reload its state, link connected components, and verify candidates with sketches.
#include "commands.hpp"
#include "diagnostics.hpp"
#include "digest.hpp"
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
#include <string>
#include <vector>

namespace semfp::cli {

namespace {

void append_keep_record(std::string& kb, const Document& d) {
    if (!d.raw.empty()) {
        kb += d.raw;
        return;
    }
    kb += "{\"id\":";
    append_json_string(kb, d.id);
    kb += ",\"text\":";
    append_json_string(kb, d.text);
    if (d.html) kb += ",\"format\":\"html\"";
    kb += '}';
}

}  // namespace

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
    Progress progress(!cmd.run.quiet);
    Stopwatch total, read, work, cluster;
    total.start();
    std::vector<Document> batch;
    std::vector<fp_value> fps;
    std::vector<MinHashSketch> sketches;
    std::string record;
    std::size_t legacy = 0;
    for (;;) {
        read.start();
        const std::size_t n = reader.read_batch(batch, batch_docs, batch_bytes);
        read.stop();
        if (n == 0) break;
        work.start();
        fps.resize(n);
        sketches.assign(n, MinHashSketch{});
        pool.for_each(n, [&](std::size_t i) {
            Document& d = batch[i];
            finish_document(d, cmd.input, keep.has_value());
            if (!d.valid) return;
            const std::string extracted = d.html ? html_text(d.text) : std::string();
            const std::string_view text = d.html ? std::string_view(extracted) : std::string_view(d.text);
            fps[i] = engine->fingerprint(text);
            if (verify) sketches[i] = sketch_of(*engine, text);
        });
        work.stop();
        cluster.start();
        for (std::size_t i = 0; i < n; ++i) {
            if (!report_problems(batch[i], diag)) continue;
            legacy += batch[i].legacy ? 1 : 0;
            record.clear();
            if (keep) append_keep_record(record, batch[i]);
            linker->add(batch[i].id, fps[i], sketches[i], record);
        }
        cluster.stop();
        progress.update(reader.bytes_done(), reader.bytes_total(), docs);
    }
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
                     "semfp dedup: %s documents (%.2f MB), %s new clusters, %s duplicates removed, %s bad input(s)\n"
                     "  method: %s; %s; %u thread(s)\n"
                     "  time %.3f s: read %.3f s, parse+fingerprint %.3f s, cluster+write %.3f s\n"
                     "  throughput %.0f docs/s, %.2f MB/s\n",
                     with_commas(docs).c_str(), mb, with_commas(clusters).c_str(),
                     with_commas(docs - clusters).c_str(), with_commas(diag.count()).c_str(),
                     linker->describe().c_str(), engine->describe().c_str(), pool.size(), secs, read.seconds(),
                     work.seconds(), cluster.seconds(), secs > 0 ? static_cast<double>(docs) / secs : 0.0,
                     secs > 0 ? mb / secs : 0.0);
        if (resumed)
            std::fprintf(stderr, "  state %s: resumed with %s clusters, saved with %s\n", cmd.state.c_str(),
                         with_commas(clusters_before).c_str(), with_commas(linker->clusters()).c_str());
        else if (!cmd.state.empty())
            std::fprintf(stderr, "  state %s: created with %s clusters\n", cmd.state.c_str(),
                         with_commas(linker->clusters()).c_str());
        if (legacy != 0) std::fprintf(stderr, "  %s input(s) decoded from GB18030/GBK\n", with_commas(legacy).c_str());
    }
    return exit_ok;
}

}  // namespace semfp::cli
