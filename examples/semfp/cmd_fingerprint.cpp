// `semfp fingerprint`: id<TAB>hex per document, in input order.
#include "commands.hpp"
#include "diagnostics.hpp"
#include "digest.hpp"
#include "engine.hpp"
#include "fp_file.hpp"
#include "input.hpp"
#include "linking.hpp"
#include "output.hpp"
#include "overlap.hpp"
#include "progress.hpp"
#include "run_support.hpp"
#include "signature_args.hpp"
#include "workers.hpp"

#include <semfp/error.hpp>

#include <cstdio>
#include <optional>
#include <utility>
#include <vector>

namespace semfp::cli {

namespace {

// "<features>:<256 hex digits>", the third column of `--verify sketch` in text output.
void append_sketch(std::string& out, const MinHashSketch& s) {
    static constexpr char hex[] = "0123456789abcdef";
    out += std::to_string(s.features());
    out += ':';
    for (const std::uint8_t b : s.values()) {
        out += hex[b >> 4];
        out += hex[b & 15];
    }
}

}  // namespace

int run_fingerprint(const fingerprint_command& cmd) {
    const bool sharded = cmd.shard_count > 1 || cmd.binary || cmd.verify == verify_kind::sketch;
    if (cmd.signature.method != signature_method::simhash) {
        if (sharded)
            semfp::detail::throw_invalid_argument("--shard, --out-format bin and --verify sketch need --method simhash");
        return run_signature_fingerprint(cmd);
    }
    if (cmd.shard_index >= cmd.shard_count)
        semfp::detail::throw_invalid_argument("--shard I/N needs I < N");
    const bool sketch = cmd.verify == verify_kind::sketch;
    Diagnostics diag(cmd.input.strict);
    const auto engine = make_engine(cmd.pipeline);
    check_no_overlap(cmd.input.paths, {{"--out", cmd.out}});
    AtomicOutput out(cmd.out);
    std::optional<FpFileWriter> bin;
    if (cmd.binary) {
        fp_file_header h;
        h.bits = engine->bits();
        h.identity = pipeline_identity(cmd.pipeline, cmd.input, sketch);
        h.digest = digest_of(h.identity);
        h.shard = cmd.shard_index;
        h.shards = cmd.shard_count;
        h.sketches = sketch;
        bin.emplace(out, h);
    }
    DocumentReader reader(cmd.input, diag, false);
    WorkerPool pool(cmd.run.threads);
    Progress progress(!cmd.run.quiet);

    Stopwatch total, read, work, write;
    total.start();
    std::vector<Document> batch;
    std::vector<fp_value> fps;
    std::vector<MinHashSketch> sketches;
    std::vector<std::uint64_t> ordinals;
    std::uint64_t records = 0;  // every record read, valid or not, in every shard alike
    std::size_t docs = 0, legacy = 0;
    for (;;) {
        read.start();
        const std::size_t n = reader.read_batch(batch, batch_docs, batch_bytes);
        read.stop();
        if (n == 0) break;
        work.start();
        fps.resize(n);
        sketches.assign(sketch ? n : 0, MinHashSketch{});
        ordinals.resize(n);
        for (std::size_t i = 0; i < n; ++i) ordinals[i] = records++;
        pool.for_each(n, [&](std::size_t i) {
            Document& d = batch[i];
            if (ordinals[i] % cmd.shard_count != cmd.shard_index) return;
            finish_document(d, cmd.input, false);
            if (!d.valid) return;
            if (d.html) {
                d.text = html_text(d.text);
                d.html = false;
            }
            if (sketch) {
                signature_value s = engine->signature(d.text);
                fps[i] = s.fingerprint;
                sketches[i] = std::move(s.sketch);
            } else {
                fps[i] = engine->fingerprint(d.text);
            }
        });
        work.stop();
        write.start();
        std::string& buf = out.buffer();
        for (std::size_t i = 0; i < n; ++i) {
            if (ordinals[i] % cmd.shard_count != cmd.shard_index) continue;
            if (!report_problems(batch[i], diag)) continue;
            legacy += batch[i].legacy ? 1 : 0;
            ++docs;
            if (bin) {
                bin->add(ordinals[i], batch[i].id, fps[i], sketch ? sketches[i] : MinHashSketch{});
                continue;
            }
            append_tsv_field(buf, batch[i].id);
            buf += '\t';
            buf += engine->to_hex(fps[i]);
            if (sketch) {
                buf += '\t';
                append_sketch(buf, sketches[i]);
            }
            buf += '\n';
            out.commit();
        }
        write.stop();
        progress.update(reader.bytes_done(), reader.bytes_total(), docs);
    }
    if (bin) bin->finish(records);
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
        if (cmd.shard_count > 1)
            std::fprintf(stderr, "  shard %u/%u: %s of %s input records\n", cmd.shard_index, cmd.shard_count,
                         with_commas(docs).c_str(), with_commas(static_cast<std::size_t>(records)).c_str());
    }
    return exit_ok;
}

}  // namespace semfp::cli
