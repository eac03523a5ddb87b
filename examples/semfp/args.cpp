#include "args.hpp"

#include "commands.hpp"
#include "copies.hpp"
#include "signature_args.hpp"

#include <semfp/version.hpp>

#include <CLI/CLI.hpp>

#include <cstdio>
#include <map>
#include <string>

namespace semfp::cli {

namespace {

const std::map<std::string, input_format> format_names{
    {"jsonl", input_format::jsonl}, {"lines", input_format::lines}, {"html", input_format::html},
    {"text", input_format::text}};
const std::map<std::string, html_text_mode> html_text_names{{"main", html_text_mode::main},
                                                            {"all", html_text_mode::all}};
const std::map<std::string, input_encoding> encoding_names{
    {"auto", input_encoding::detect}, {"utf-8", input_encoding::utf8}, {"utf8", input_encoding::utf8},
    {"gb18030", input_encoding::gb18030}, {"gbk", input_encoding::gb18030}};
const std::map<std::string, tokenizer_kind> tokenizer_names{{"bigram", tokenizer_kind::bigram},
                                                            {"fmm", tokenizer_kind::fmm}};
const std::map<std::string, hash_kind> hash_names{
    {"murmur", hash_kind::murmur}, {"fnv", hash_kind::fnv}, {"sdbm", hash_kind::sdbm}};
const std::map<std::string, dedup_method> method_names{
    {"simhash", dedup_method::simhash}, {"shingle", dedup_method::shingle}, {"minhash", dedup_method::minhash},
    {"keyword", dedup_method::keyword}, {"imatch", dedup_method::imatch}, {"exact", dedup_method::exact},
    {"period", dedup_method::period}};

const std::map<std::string, link_kind> link_names{{"single-pass", link_kind::single_pass},
                                                  {"components", link_kind::components}};
const std::map<std::string, verify_kind> verify_names{{"none", verify_kind::none}, {"sketch", verify_kind::sketch}};

// An enum option's transform, shown in the help as "a|b|c" (the names only).
template <class T>
CLI::Validator names_of(const std::map<std::string, T>& names) {
    std::string text;
    for (const auto& [name, value] : names) text += (text.empty() ? "" : "|") + name;
    return CLI::CheckedTransformer(names, CLI::ignore_case).description(text);
}

void add_input_options(CLI::App& app, input_options& in) {
    app.add_option("inputs", in.paths,
                   "Input files, directories or - (standard input, JSON Lines unless --format says otherwise)")
        ->required();
    app.add_option("--format", in.format,
                   "Input format: jsonl, lines (one document per line), html or text (one document per file); "
                   "default: from the extension (.jsonl/.json/.ndjson, .html/.htm, else lines; directories: "
                   ".txt and .html/.htm files)")
        ->transform(names_of(format_names));
    app.add_option("--encoding", in.encoding,
                   "Input encoding: auto (BOM, HTML <meta>, else UTF-8 or GB18030 by content), utf-8, gb18030")
        ->transform(names_of(encoding_names));
    app.add_option("--id-field", in.id_field, "JSON field holding the document id")->capture_default_str();
    app.add_option("--text-field", in.text_field, "JSON field holding the document text")->capture_default_str();
    app.add_flag("--strict", in.strict, "Stop with exit status 1 at the first bad input");
    app.add_option("--max-document-size", in.max_document_bytes,
                   "Longest line or file read as one document (bytes; suffixes k, M, G are powers of 1024); "
                   "longer ones are bad input")
        ->transform(CLI::AsSizeValue(false))
        ->default_str("256M");
    app.add_option("--html-text", in.html_text,
                   "Text of HTML documents: main (the article; all visible text when the page has none) or all "
                   "(all visible text); default: main")
        ->transform(names_of(html_text_names));
}

void add_pipeline_options(CLI::App& app, pipeline_options& p) {
    app.add_option("--bits", p.bits, "Fingerprint width")->check(CLI::IsMember({64u, 128u}))->capture_default_str();
    app.add_option("--tokenizer", p.tokenizer,
                   "bigram (character bigrams) or fmm (dictionary words); default: the library's default tokenizer")
        ->transform(names_of(tokenizer_names));
    app.add_option("--hash", p.hash, "Token hash: murmur, fnv or sdbm (default: the library's default hash)")
        ->transform(names_of(hash_names));
    app.add_flag("--raw-hash", p.raw_hash,
                 "With --hash: use the hash without the finalizing mix (the paper's SDBM is --hash sdbm "
                 "--raw-hash)");
}

void add_run_options(CLI::App& app, run_options& r) {
    app.add_option("--threads,-j", r.threads, "Worker threads (0: one per hardware thread)")->capture_default_str();
    app.add_flag("--quiet,-q", r.quiet, "No progress line and no summary");
}

}  // namespace

int parse_and_run(int argc, char** argv) {
    CLI::App app{"semfp: near-duplicate detection for Chinese text with semantic fingerprints", "semfp"};
    app.set_version_flag("--version", std::to_string(version_major) + "." + std::to_string(version_minor) + "." +
                                          std::to_string(version_patch));
    app.require_subcommand(1);
    app.footer("Exit status: 0 done (bad input is reported and skipped), 1 bad input under --strict or an "
               "output could not be written, 2 invalid command line.");

    fingerprint_command fp;
    auto* fp_app = app.add_subcommand("fingerprint", "Print id<TAB>hex fingerprint for every document");
    add_input_options(*fp_app, fp.input);
    add_pipeline_options(*fp_app, fp.pipeline);
    add_run_options(*fp_app, fp.run);
    fp_app->add_option("--out,-o", fp.out, "Output file (- for standard output)")->capture_default_str();
    add_signature_options(*fp_app, fp.signature, true);
    std::string shard;
    fp_app->add_option("--shard", shard,
                       "I/N: only the input records whose ordinal (position among all records, 0-based) mod N "
                       "is I; every shard reads the whole input")
        ->check([](const std::string& v) {
            unsigned i = 0, n = 0;
            char rest = 0;
            if (std::sscanf(v.c_str(), "%u/%u%c", &i, &n, &rest) != 2 || n == 0 || n > 65535 || i >= n)
                return std::string("expected I/N with 0 <= I < N <= 65535");
            return std::string();
        });
    std::string out_format = "tsv";
    fp_app->add_option("--out-format", out_format,
                       "tsv (id<TAB>hex lines) or bin (the binary shard file semfp cluster reads: ids, input "
                       "ordinals, fingerprints, options digest, checksum)")
        ->check(CLI::IsMember({"tsv", "bin"}, CLI::ignore_case))
        ->capture_default_str();
    fp_app->add_option("--verify", fp.verify,
                       "simhash: sketch (default; also the MinHash sketch of the two-stage rule, bin: stored, "
                       "tsv: a third column features:hex) or none (the fingerprint alone)")
        ->transform(names_of(verify_names));

    dedup_command dd;
    auto* dd_app = app.add_subcommand("dedup", "Cluster near-duplicate documents in input order (single pass)");
    add_input_options(*dd_app, dd.input);
    add_pipeline_options(*dd_app, dd.pipeline);
    add_run_options(*dd_app, dd.run);
    dd_app->add_option("--method", dd.method,
                       "simhash (Hamming distance <= --hd), shingle (exact shingle Jaccard >= --threshold, "
                       "candidates from MinHash LSH), minhash (estimated Jaccard >= --threshold), or equal "
                       "signatures: keyword, imatch, exact (see fingerprint --method), or period: shared period "
                       "feature strings over the whole input (CN102945244A; web pages)")
        ->transform(names_of(method_names));
    dd_app->add_option("--hd", dd.hd, "Hamming radius of simhash (default: semfp::recommended_distance, 5 for 64 bits, 15 for 128)")
        ->check(CLI::Range(0, 128));
    dd_app->add_flag("--match-members", dd.match_members,
                     "simhash: join the cluster of the nearest earlier document, not only of the nearest centre");
    dd_app->add_option("--threshold", dd.threshold, "Jaccard threshold of shingle and minhash")
        ->check(CLI::Range(0.0, 1.0).description("in (0, 1]"))
        ->capture_default_str();
    dd_app->add_option("--shingle", dd.pipeline.shingle_width, "Tokens per shingle (shingle, minhash)")
        ->check(CLI::Range(1, 64))
        ->capture_default_str();
    dd_app->add_option("--out,-o", dd.out, "One line per document: {id, cluster, centre, distance} (- for stdout)")
        ->capture_default_str();
    dd_app->add_flag("--tsv", dd.tsv, "Write id<TAB>cluster lines instead of JSON Lines");
    add_signature_options(*dd_app, dd.signature, false);
    dd_app->add_option("--keep", dd.keep,
                       "Write the kept documents (one per cluster, its first) here: the original JSON line, "
                       "or {\"id\", \"text\"} for other inputs");
    dd_app->add_option("--state", dd.state,
                       "simhash: load the clustering state saved here by an earlier run (same options), add these "
                       "documents (cluster numbers continue) and save it again; created when absent");
    dd_app->add_option("--link", dd.link,
                       "simhash: single-pass (default) or components (connected components of the within-radius "
                       "graph; centre: a component's first document)")
        ->transform(names_of(link_names));
    dd_app->add_option("--verify", dd.verify,
                       "simhash: sketch (default; two stages: also pairs within 32 bits of 64, 40 of 128, whose "
                       "MinHash sketch similarity is >= 0.638 (0.653 at 128 bits), 0.71 for short texts at any "
                       "distance; only --hd is searched exactly, "
                       "the rest are found through 20 bands of the sketch at a cost independent of the radius) or "
                       "none (Hamming distance <= --hd)")
        ->transform(names_of(verify_names));

    cluster_command cl;
    auto* cl_app = app.add_subcommand(
        "cluster", "Cluster the shards of fingerprint --shard I/N --out-format bin (output as dedup --out)");
    cl_app->add_option("files", cl.files, "All N shard files of one input")->required();
    cl_app->add_option("--out,-o", cl.out, "One line per document, as dedup --out (- for stdout)")
        ->capture_default_str();
    cl_app->add_flag("--tsv", cl.tsv, "Write id<TAB>cluster lines instead of JSON Lines");
    cl_app->add_option("--hd", cl.hd, "Hamming radius (default: semfp::recommended_distance of the files' width)")
        ->check(CLI::Range(0, 128));
    cl_app->add_flag("--match-members", cl.match_members,
                     "Join the cluster of the nearest earlier document, not only of the nearest centre");
    cl_app->add_option("--link", cl.link, "single-pass (default) or components")->transform(names_of(link_names));
    cl_app->add_option("--verify", cl.verify,
                       "sketch (default when the files carry sketches, as fingerprint writes them by default) or none")
        ->transform(names_of(verify_names));
    cl_app->add_flag("--quiet,-q", cl.quiet, "No summary");

    seen_command seen;
    auto* seen_app = add_seen_command(app, seen);

    copies_command copies;
    auto* copies_app = add_copies_command(app, copies);

    compare_command cmp;
    auto* cmp_app = app.add_subcommand("compare", "Explain how similar two documents are");
    cmp_app->add_option("a_b", cmp.operands, "Two files (or two texts with --text)")->required()->expected(2);
    cmp_app->add_flag("--text,-t", cmp.texts, "The operands are texts, not file names");
    cmp_app->add_option("--format", cmp.format, "File format: text or html (default: from the extension)")
        ->transform(names_of(format_names));
    cmp_app->add_option("--encoding", cmp.encoding, "File encoding: auto, utf-8, gb18030")
        ->transform(names_of(encoding_names));
    cmp_app->add_option("--html-text", cmp.html_text,
                        "Text of HTML files: main (the article; all visible text when the page has none) or all; "
                        "default: main")
        ->transform(names_of(html_text_names));
    add_pipeline_options(*cmp_app, cmp.pipeline);
    cmp_app->add_option("--shingle", cmp.pipeline.shingle_width, "Tokens per shingle for the Jaccard similarity")
        ->check(CLI::Range(1, 64))
        ->capture_default_str();
    cmp_app->add_option("--passages", cmp.passages, "How many shared passages to show")->capture_default_str();
    cmp_app->add_option("--min-passage", cmp.min_passage, "Shortest shared passage shown, in characters")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    cmp_app->add_flag("--json", cmp.json, "Print the comparison as one JSON object");
    cmp_app->add_option("--max-size", cmp.max_bytes,
                        "Largest operand compared (bytes; suffixes k, M, G are powers of 1024): the passage "
                        "search needs ~134 bytes of memory per input byte and may take time quadratic in the "
                        "number of distinct characters")
        ->transform(CLI::AsSizeValue(false))
        ->default_str("1M");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        (void)app.exit(e);
        return exit_usage;
    }
    if (dd.threshold <= 0.0) {
        std::fprintf(stderr, "semfp: --threshold must be in (0, 1]\n");
        return exit_usage;
    }
    if (dd.hd > static_cast<int>(dd.pipeline.bits)) {
        std::fprintf(stderr, "semfp: --hd must be at most --bits\n");
        return exit_usage;
    }
    // Two stages are the default of simhash (the other methods have no sketch stage); `cluster`
    // follows the files: sketch when they carry sketches.
    if (dd_app->count("--verify") == 0 && dd.method == dedup_method::simhash) dd.verify = verify_kind::sketch;
    if (fp_app->count("--verify") == 0 && fp.signature.method == signature_method::simhash)
        fp.verify = verify_kind::sketch;
    cl.verify_from_files = cl_app->count("--verify") == 0;
    // --pos-boost weights the keywords of --method keyword; any other method would ignore it.
    if ((fp_app->count("--pos-boost") != 0 && fp.signature.method != signature_method::keyword) ||
        (dd_app->count("--pos-boost") != 0 && dd.method != dedup_method::keyword)) {
        std::fprintf(stderr, "semfp: --pos-boost needs --method keyword\n");
        return exit_usage;
    }
    fp.binary = out_format == "bin" || out_format == "BIN" || out_format == "Bin";
    if (!shard.empty()) (void)std::sscanf(shard.c_str(), "%u/%u", &fp.shard_index, &fp.shard_count);
    if (*fp_app) return run_fingerprint(fp);
    if (*cl_app) return run_cluster(cl);
    if (*dd_app) return run_dedup(dd);
    if (*seen_app) return run_seen(seen);
    if (*copies_app) return run_copies(copies);
    return run_compare(cmp);
}

}  // namespace semfp::cli
