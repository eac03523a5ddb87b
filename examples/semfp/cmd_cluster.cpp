// `semfp cluster FP_FILES...`: clusters the shards that `semfp fingerprint --shard I/N
// --out-format bin` wrote, on one machine. The entries are merged by their input ordinal, so the
// documents arrive in input order and the output equals `semfp dedup` over the whole input with
// the same options. The files must be the N shards of one run: the same options digest, the
// same width, sketches in all or none, every shard index 0..N-1 exactly once, and the same
// number of input records.
#include "commands.hpp"
#include "fp_file.hpp"
#include "linking.hpp"
#include "output.hpp"
#include "overlap.hpp"
#include "run_support.hpp"

#include <semfp/error.hpp>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace semfp::cli {

int run_cluster(const cluster_command& cmd) {
    check_no_overlap(cmd.files, {{"--out", cmd.out}});
    if (cmd.link == link_kind::components && cmd.match_members)
        semfp::detail::throw_invalid_argument("--match-members has no meaning with --link components");
    std::vector<std::unique_ptr<FpFileReader>> files;
    for (const std::string& f : cmd.files) files.push_back(std::make_unique<FpFileReader>(f));
    const fp_file_header& first = files.front()->header();
    std::vector<int> seen(first.shards, -1);
    for (std::size_t i = 0; i < files.size(); ++i) {
        const fp_file_header& h = files[i]->header();
        if (h.digest != first.digest || h.bits != first.bits || h.sketches != first.sketches)
            semfp::detail::throw_invalid_argument("'" + files[i]->path() + "' was made with other options than '" +
                                                  files.front()->path() + "' (options digest " + h.digest + " vs " +
                                                  first.digest + ")\n  " + h.identity + "\n  " + first.identity);
        if (h.shards != first.shards)
            semfp::detail::throw_invalid_argument("'" + files[i]->path() + "' is a shard of " + std::to_string(h.shards) +
                                                  ", '" + files.front()->path() + "' of " + std::to_string(first.shards));
        if (seen[h.shard] >= 0)
            semfp::detail::throw_invalid_argument("'" + files[i]->path() + "' and '" + cmd.files[static_cast<std::size_t>(seen[h.shard])] +
                                                  "' are both shard " + std::to_string(h.shard));
        seen[h.shard] = static_cast<int>(i);
    }
    for (std::uint32_t s = 0; s < first.shards; ++s)
        if (seen[s] < 0)
            semfp::detail::throw_invalid_argument("shard " + std::to_string(s) + "/" + std::to_string(first.shards) +
                                                  " is missing");
    const bool verify = cmd.verify == verify_kind::sketch || (cmd.verify_from_files && first.sketches);
    if (verify && !first.sketches)
        semfp::detail::throw_invalid_argument("--verify sketch needs fingerprint files written with --verify sketch");

    link_settings ls;
    ls.bits = first.bits;
    ls.hd = resolved_radius(cmd.hd, first.bits);
    ls.match_members = cmd.match_members;
    ls.link = cmd.link;
    ls.verify = verify;
    AtomicOutput out(cmd.out);
    const auto linker = make_linker(ls, [&](const linked_document& d) {
        append_dedup_line(out.buffer(), d, cmd.tsv);
        out.commit();
    });

    Stopwatch total;
    total.start();
    // Merge by ordinal: each file is in ascending order, so the smallest head is next.
    const std::size_t n = files.size();
    std::vector<fp_file_entry> head(n);
    std::vector<bool> live(n);
    for (std::size_t i = 0; i < n; ++i) live[i] = files[i]->next(head[i]);
    for (;;) {
        std::size_t best = n;
        for (std::size_t i = 0; i < n; ++i)
            if (live[i] && (best == n || head[i].ordinal < head[best].ordinal)) best = i;
        if (best == n) break;
        linker->add(head[best].id, head[best].fp, head[best].sketch, {});
        live[best] = files[best]->next(head[best]);
    }
    for (std::size_t i = 1; i < n; ++i)
        if (files[i]->records() != files[0]->records())
            semfp::detail::throw_invalid_argument("'" + files[i]->path() + "' saw " + std::to_string(files[i]->records()) +
                                                  " input records, '" + files[0]->path() + "' " +
                                                  std::to_string(files[0]->records()) + ": not shards of the same input");
    linker->finish();
    out.close();
    total.stop();
    if (!cmd.quiet) {
        const std::size_t docs = linker->documents();
        std::fprintf(stderr,
                     "semfp cluster: %s documents from %s shard(s), %s clusters, %s duplicates removed\n"
                     "  method: %s; %s\n  time %.3f s\n",
                     with_commas(docs).c_str(), with_commas(n).c_str(), with_commas(linker->clusters()).c_str(),
                     with_commas(docs - linker->clusters()).c_str(), linker->describe().c_str(),
                     first.identity.c_str(), total.seconds());
    }
    return exit_ok;
}

}  // namespace semfp::cli
