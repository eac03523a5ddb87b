// `semfp seen --store FILE [--bloom P] [--method exact|keyword] INPUT...`: prints id<TAB>new or
// id<TAB>seen for every document in input order, against a persistent store of signatures that
// the run then updates (documents repeated within the run are "seen" from their second copy).
//
// The store file is an envelope in the library's checksummed format (serialization.hpp):
//
//     header   magic "SEMFPSEN", format version, 128
//     u32      kind: 0 exact set (semfp::FingerprintSet<128>), 1 Bloom filter (semfp::BloomFilter)
//     u32 + n  the signature method's identity (signatures.hpp), UTF-8; with --idf it ends with
//              the MD5 of the IDF file, so a store made with another IDF table is refused
//     u32      CRC-32C of the envelope
//     ...      the set or filter in its own saved format (with its own checksum)
//
// A run refuses (exit status 2) a store of the other kind or of another method, since its
// answers would be meaningless. The store is written with the library's atomic save (temporary
// file + rename) after the output has been published, so a failed run leaves the old store and
// a re-run repeats the same answers.
#include "commands.hpp"
#include "output.hpp"
#include "overlap.hpp"
#include "signature_args.hpp"
#include "signature_run.hpp"
#include "signatures.hpp"

#include <semfp/error.hpp>
#include <semfp/index/bloom_filter.hpp>
#include <semfp/index/fingerprint_set.hpp>
#include <semfp/index/serialization.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>

namespace semfp::cli {

namespace {

constexpr std::string_view store_magic = "SEMFPSEN";
enum store_kind : std::uint32_t { kind_exact = 0, kind_bloom = 1 };

struct store {
    store_kind kind = kind_exact;
    std::string identity;
    FingerprintSet<128> exact;
    std::optional<BloomFilter> bloom;
};

void save_store(store& s, const std::string& path) {
    semfp::detail::save_file_atomically(path, [&](std::ostream& os) {
        semfp::detail::binary_writer w(os);
        w.header(store_magic, 128);
        w.u32(s.kind);
        w.u32(static_cast<std::uint32_t>(s.identity.size()));
        w.bytes(reinterpret_cast<const unsigned char*>(s.identity.data()), s.identity.size());
        w.finish();
        if (s.kind == kind_bloom) s.bloom->save(os);
        else s.exact.save(os);
    });
}

// Loads the store at `path`; throws semfp::format_error on a damaged or foreign file.
store load_store(const std::string& path) {
    store s;
    semfp::detail::load_file(path, [&](std::istream& is) {
        semfp::detail::binary_reader r(is);
        r.header(store_magic, 128);
        const std::size_t at = r.offset();
        const std::uint32_t kind = r.u32();
        if (kind > kind_bloom) semfp::detail::throw_format_error("semfp seen: unknown store kind", at);
        const std::uint32_t len = r.u32();
        if (len > 4096) semfp::detail::throw_format_error("semfp seen: store method name too long", at + 4);
        std::string identity(len, '\0');
        r.bytes(reinterpret_cast<unsigned char*>(identity.data()), len);
        r.finish();
        s.kind = static_cast<store_kind>(kind);
        s.identity = std::move(identity);
        if (s.kind == kind_bloom) {
            s.bloom.emplace(64, 1);
            s.bloom->load(is);
        } else {
            s.exact.load(is);
        }
    });
    return s;
}

const std::map<std::string, signature_method> seen_methods{{"exact", signature_method::exact},
                                                           {"keyword", signature_method::keyword}};

}  // namespace

CLI::App* add_seen_command(CLI::App& app, seen_command& cmd) {
    auto* sub = app.add_subcommand("seen", "Print id<TAB>new|seen per document against a persistent store, and update it");
    sub->add_option("inputs", cmd.input.paths, "Input files, directories or - (standard input)")->required();
    sub->add_option("--store", cmd.store, "The store of signatures already seen (created when absent)")->required();
    sub->add_option("--bloom", cmd.bloom,
                    "Create a Bloom filter store with this false-positive rate instead of an exact set "
                    "(an existing store must be a Bloom filter)")
        ->check(CLI::Range(1e-12, 0.5));
    sub->add_option("--capacity", cmd.capacity, "With --bloom: how many documents the new filter is sized for")
        ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40))
        ->capture_default_str();
    cmd.signature.method = signature_method::exact;
    sub->add_option("--method", cmd.signature.method, "exact (digest of the normalized text) or keyword")
        ->transform(CLI::CheckedTransformer(seen_methods, CLI::ignore_case).description("exact|keyword"));
    add_signature_options(*sub, cmd.signature, false);
    sub->add_option("--format", cmd.input.format, "Input format: jsonl, lines, html or text (see fingerprint --help)")
        ->transform(CLI::CheckedTransformer(std::map<std::string, input_format>{{"jsonl", input_format::jsonl},
                                                                                {"lines", input_format::lines},
                                                                                {"html", input_format::html},
                                                                                {"text", input_format::text}},
                                            CLI::ignore_case));
    sub->add_option("--id-field", cmd.input.id_field, "JSON field holding the document id")->capture_default_str();
    sub->add_option("--text-field", cmd.input.text_field, "JSON field holding the document text")->capture_default_str();
    sub->add_flag("--strict", cmd.input.strict, "Stop with exit status 1 at the first bad input");
    sub->add_option("--tokenizer", cmd.pipeline.tokenizer, "keyword: bigram or fmm (default: the library's)")
        ->transform(CLI::CheckedTransformer(
            std::map<std::string, tokenizer_kind>{{"bigram", tokenizer_kind::bigram}, {"fmm", tokenizer_kind::fmm}},
            CLI::ignore_case));
    sub->add_option("--threads,-j", cmd.run.threads, "Worker threads (0: one per hardware thread)");
    sub->add_flag("--quiet,-q", cmd.run.quiet, "No progress line and no summary");
    sub->add_option("--out,-o", cmd.out, "Output file (- for standard output)")->capture_default_str();
    return sub;
}

int run_seen(const seen_command& cmd) {
    Diagnostics diag(cmd.input.strict);
    const auto engine = make_signature_engine(cmd.signature, cmd.pipeline);
    check_no_overlap(cmd.input.paths, {{"--out", cmd.out}, {"--store", cmd.store}});

    store s;
    const bool exists = std::filesystem::exists(cmd.store);
    if (exists) {
        s = load_store(cmd.store);
        if (cmd.bloom > 0 && s.kind != kind_bloom)
            semfp::detail::throw_invalid_argument("--store '" + cmd.store + "' is an exact set; --bloom asks for a Bloom filter");
        if (cmd.bloom <= 0 && s.kind == kind_bloom)
            semfp::detail::throw_invalid_argument("--store '" + cmd.store + "' is a Bloom filter; pass --bloom P to use it");
        const std::string mine = engine->identity();
        if (s.identity != mine) {
            // Same method and parameters, another IDF file: say so rather than quote two long
            // identities that differ in a digest.
            const auto cut_old = s.identity.find(idf_identity_marker);
            const auto cut_new = mine.find(idf_identity_marker);
            const std::string old_idf =
                cut_old == std::string::npos ? "not recorded" : s.identity.substr(cut_old + idf_identity_marker.size());
            const std::string new_idf = cut_new == std::string::npos ? "none" : mine.substr(cut_new + idf_identity_marker.size());
            if (s.identity.substr(0, cut_old) == mine.substr(0, cut_new))
                semfp::detail::throw_invalid_argument("--store '" + cmd.store + "' was made with another IDF table (MD5 " +
                                                      old_idf + "); this run's --idf has MD5 " + new_idf);
            semfp::detail::throw_invalid_argument("--store '" + cmd.store + "' holds signatures of '" + s.identity +
                                                  "', not of '" + mine + "'");
        }
    } else {
        s.identity = engine->identity();
        if (cmd.bloom > 0) {
            s.kind = kind_bloom;
            s.bloom.emplace(BloomFilter::for_capacity(cmd.capacity, cmd.bloom));
        }
    }

    AtomicOutput out(cmd.out);
    std::size_t seen = 0;
    const auto stats =
        run_signatures(cmd.input, cmd.run, *engine, diag, [&](const Document& d, std::span<const Fingerprint<128>> sigs) {
            const bool was = s.kind == kind_bloom ? s.bloom->test_and_insert(sigs[0]) : s.exact.test_and_insert(sigs[0]);
            seen += was ? 1u : 0u;
            std::string& ob = out.buffer();
            append_tsv_field(ob, d.id);
            ob += was ? "\tseen\n" : "\tnew\n";
            out.commit();
        });
    out.close();
    save_store(s, cmd.store);
    if (!cmd.run.quiet) {
        print_signature_summary("seen", stats, *engine, diag.count());
        if (s.kind == kind_bloom)
            std::fprintf(stderr, "  %s seen, %s new; Bloom filter store: %s keys, expected false-positive rate %.3g\n",
                         with_commas(seen).c_str(), with_commas(stats.docs - seen).c_str(),
                         with_commas(static_cast<std::size_t>(s.bloom->size())).c_str(), s.bloom->expected_fpr());
        else
            std::fprintf(stderr, "  %s seen, %s new; exact store: %s signatures\n", with_commas(seen).c_str(),
                         with_commas(stats.docs - seen).c_str(), with_commas(s.exact.size()).c_str());
    }
    return exit_ok;
}

}  // namespace semfp::cli
