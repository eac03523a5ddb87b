// Signature (fingerprint + MinHash sketch) speed against the fingerprint alone, on 2,000-character
// documents.
//
//   semfp_signature_speed [CORPUS_DIR] [--rounds=N] [--check] [--only=signature|fingerprint]
//                         [--fold=on|off] [--skip=on|off]
//
// What is compared. `fingerprint<Bits>` is `DefaultFingerprinter<Bits>` with a reused scratch;
// `Signature<Bits>` is `SignatureFingerprinter<default_tokenizer, default_hash, Bits>` (what
// `semfp::signature<Bits>` and the `semfp` tool's default engine use) with a reused scratch: the
// same fused pass, which also feeds every counted token to the sketch. The target (two-stage
// detection) is a signature within 1.3 fingerprints.
//
// Method (the same as bench/fingerprint_speed.cpp). The corpus documents (manpages_zh_cn.jsonl)
// are cut into documents of 2,000 code points. In each round, for 64 and then 128 bits, the two
// are timed one after the other on the same documents with thread CPU time, the first of the
// pair alternating from round to round (so a warming cache or a slowing machine does not favour
// one side). The figures printed are medians over the rounds, and each ratio is the median of
// the per-round ratios, so a noisy round shifts both sides alike. The program is separate from
// semfp_fingerprint_speed on purpose: signature rows in that binary moved its other rows by
// 5-10 % through code placement alone.
//
// Before timing, every document, and its Traditional (Taiwan) rendering from
// manpages_zh_tw_twins.jsonl, is checked: the signature's fingerprint must equal
// `fingerprint<Bits>` and the whole signature `SignatureFingerprinter::reference` (exit 2
// otherwise). `--check` exits with status 1 when a ratio exceeds 1.3. `--only=` times one side
// alone (for a profiler; no ratio is printed). `--fold=on|off` sets
// `signature_options::sketch_fold_phrases` of the 64-bit signature (default: what
// `default_signature_options<64>()` says), so the option's cost is measured by the same program;
// `--skip=on|off` likewise sets `signature_options::sketch_skip_variants`.
#include "support/corpus.hpp"
#include "support/cpu_rounds.hpp"

#include <semfp/core/signature.hpp>
#include <semfp/simhash.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <string_view>
#include <vector>

namespace {

using semfp::bench::cut;
using semfp::bench::median;
using semfp::bench::per_doc_us;

enum class side { both, fingerprint, signature };

// Per-round times (us per document) of one width and the per-round ratios.
struct series {
    std::vector<double> fp, sig, ratio;
};

template <std::size_t Bits>
struct pair_of {
    semfp::DefaultFingerprinter<Bits> fp{};
    semfp::SignatureFingerprinter<semfp::default_tokenizer, semfp::default_hash, Bits> sig{};

    pair_of() = default;
    explicit pair_of(semfp::signature_options opt) : sig({}, opt) {}

    // False if a fused signature differs from the fingerprint or from the reference signature.
    bool agree(const std::vector<std::string>& docs, semfp::fingerprint_scratch& scratch) const {
        for (const auto& d : docs) {
            const auto s = sig(d, scratch);
            if (s.fingerprint != fp(d, scratch) || s != sig.reference(d, scratch)) return false;
        }
        return true;
    }

    void round(const std::vector<std::string>& docs, semfp::fingerprint_scratch& scratch, bool fp_first, side only,
               series& out) const {
        auto time_fp = [&] {
            return per_doc_us(docs, [&](const std::string& s) { return fp(s, scratch).word(0); });
        };
        auto time_sig = [&] {
            return per_doc_us(docs, [&](const std::string& s) {
                const auto g = sig(s, scratch);
                return g.fingerprint.word(0) + g.sketch.payload()[0] + g.sketch.state();
            });
        };
        double a = 0, b = 0;
        if (only == side::fingerprint) {
            a = time_fp();
        } else if (only == side::signature) {
            b = time_sig();
        } else if (fp_first) {
            a = time_fp();
            b = time_sig();
        } else {
            b = time_sig();
            a = time_fp();
        }
        out.fp.push_back(a);
        out.sig.push_back(b);
        out.ratio.push_back(a > 0 ? b / a : 0);
    }
};

}  // namespace

int main(int argc, char** argv) {
    int rounds = 9;
    bool check = false;
    side only = side::both;
    int fold = -1;  // --fold=on|off: the sketch-only phrase fold at 64 bits (default: the default)
    int skip = -1;  // --skip=on|off: the variant-side skip at 64 bits (default: the default)
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a.substr(0, 9) == "--rounds=") rounds = std::max(1, std::atoi(argv[i] + 9));
        if (a == "--check") check = true;
        if (a == "--only=fingerprint") only = side::fingerprint;
        if (a == "--only=signature") only = side::signature;
        if (a == "--fold=on") fold = 1;
        if (a == "--fold=off") fold = 0;
        if (a == "--skip=on") skip = 1;
        if (a == "--skip=off") skip = 0;
    }
    const auto dir = semfp::bench::corpus_dir(argc, argv);
    const std::vector<std::string> docs = semfp::bench::cut_corpus(dir / "manpages_zh_cn.jsonl", 2000, rounds);

    semfp::signature_options opt64 = semfp::default_signature_options<64>();
    if (fold >= 0) opt64.sketch_fold_phrases = fold == 1;
    if (skip >= 0) opt64.sketch_skip_variants = skip == 1;
    const pair_of<64> p64(opt64);
    const pair_of<128> p128;
    semfp::fingerprint_scratch scratch;

    std::vector<std::string> verify = docs;
    for (const auto& d : semfp::bench::load_corpus(dir / "manpages_zh_tw_twins.jsonl")) cut(d.text, 2000, verify);
    if (!p64.agree(verify, scratch) || !p128.agree(verify, scratch)) {
        std::printf("a signature differs from fingerprint<Bits> or from the reference signature on a document\n");
        return 2;
    }

    series s64, s128;
    for (int r = 0; r < rounds; ++r) {
        const bool fp_first = r % 2 == 0;
        p64.round(docs, scratch, fp_first, only, s64);
        p128.round(docs, scratch, fp_first, only, s128);
    }
    std::printf("%-34s %10s %28s\n", "benchmark", "us/doc", "ratio (median of rounds)");
    std::printf("%-34s %10.2f %28s\n", "fingerprint<64>", median(s64.fp), "1.00");
    std::printf("%-34s %10.2f %19.3f x fp<64>\n", "Signature<64>", median(s64.sig), median(s64.ratio));
    std::printf("%-34s %10.2f %28s\n", "fingerprint<128>", median(s128.fp), "1.00");
    std::printf("%-34s %10.2f %18.3f x fp<128>\n", "Signature<128>", median(s128.sig), median(s128.ratio));
    if (check && only == side::both && (median(s64.ratio) > 1.3 || median(s128.ratio) > 1.3)) {
        std::printf("target missed: Signature<Bits> <= 1.3 x fingerprint<Bits>\n");
        return 1;
    }
    return 0;
}
