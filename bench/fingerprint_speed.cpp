// Fingerprinting speed against UTF-8 decoding speed, on 2,000-character documents.
//
//   semfp_fingerprint_speed [CORPUS_DIR] [--rounds=N] [--check] [--no-reference]
//
// The corpus documents (manpages_zh_cn.jsonl) are cut into documents of 2,000 code points. Each
// round times, one after the other on the same documents: a plain scalar UTF-8 validate-and-decode
// loop (the baseline), `fingerprint<64>` and `fingerprint<128>` (the default pipeline with a
// reused scratch), and the same fingerprinters' reference path (`Fingerprinter::reference`,
// normalize + tokenize + filter + hash one step at a time). Times are thread CPU time per
// document; the figures printed are medians over the rounds, and each ratio is the median of the
// per-round ratios, so a noisy round shifts both sides alike. `--check` exits with status 1 when
// fingerprint<64> costs more than 5 decode loops or fingerprint<128> more than 1.2 fingerprint<64>.
#include "support/corpus.hpp"
#include "support/cpu_rounds.hpp"

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

// The baseline: validate and decode every code point, summing them so nothing is optimized away.
// Written out here (not semfp's decoder) so that it stays a fixed yardstick. Kept out of line and
// on a 64-byte boundary: inlined where the compiler chose, its time moved by 8 % (3.5 to 3.8 us a
// document) from one build to the next with changes elsewhere in the program.
[[gnu::noinline, gnu::aligned(64)]] std::uint64_t decode_loop(std::string_view s) noexcept {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const auto* end = p + s.size();
    std::uint64_t sum = 0;
    while (p < end) {
        const unsigned b0 = *p;
        if (b0 < 0x80) {
            sum += b0;
            ++p;
            continue;
        }
        const std::size_t left = static_cast<std::size_t>(end - p);
        std::uint32_t cp = 0xFFFD;
        std::size_t len = 1;
        if (b0 >= 0xC2 && b0 < 0xE0) {
            if (left >= 2 && (p[1] & 0xC0) == 0x80) {
                cp = ((b0 & 0x1Fu) << 6) | (p[1] & 0x3Fu);
                len = 2;
            }
        } else if (b0 >= 0xE0 && b0 < 0xF0) {
            const unsigned lo = b0 == 0xE0 ? 0xA0 : 0x80, hi = b0 == 0xED ? 0x9F : 0xBF;
            if (left >= 3 && p[1] >= lo && p[1] <= hi && (p[2] & 0xC0) == 0x80) {
                cp = ((b0 & 0x0Fu) << 12) | ((p[1] & 0x3Fu) << 6) | (p[2] & 0x3Fu);
                len = 3;
            }
        } else if (b0 >= 0xF0 && b0 < 0xF5) {
            const unsigned lo = b0 == 0xF0 ? 0x90 : 0x80, hi = b0 == 0xF4 ? 0x8F : 0xBF;
            if (left >= 4 && p[1] >= lo && p[1] <= hi && (p[2] & 0xC0) == 0x80 && (p[3] & 0xC0) == 0x80) {
                cp = ((b0 & 0x07u) << 18) | ((p[1] & 0x3Fu) << 12) | ((p[2] & 0x3Fu) << 6) | (p[3] & 0x3Fu);
                len = 4;
            }
        }
        sum += cp;
        p += len;
    }
    return sum;
}

using semfp::bench::cut;
using semfp::bench::median;
using semfp::bench::per_doc_us;

}  // namespace

int main(int argc, char** argv) {
    int rounds = 9;
    bool check = false;
    bool with_reference = true;  // --no-reference: time only the baseline and the fused pass (for profiling)
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a.substr(0, 9) == "--rounds=") rounds = std::max(1, std::atoi(argv[i] + 9));
        if (a == "--check") check = true;
        if (a == "--no-reference") with_reference = false;
    }
    const auto dir = semfp::bench::corpus_dir(argc, argv);
    const std::vector<std::string> docs = semfp::bench::cut_corpus(dir / "manpages_zh_cn.jsonl", 2000, rounds);

    const semfp::DefaultFingerprinter<64> fp64{};
    const semfp::DefaultFingerprinter<128> fp128{};
    semfp::fingerprint_scratch scratch;
    auto w = [](const auto& f) { return f.word(0); };

    // The fused pass must give the reference path's fingerprints, here and on the Traditional
    // (Taiwan) renderings of the same pages, which exercise script and phrase folding.
    std::vector<std::string> verify = docs;
    for (const auto& d : semfp::bench::load_corpus(dir / "manpages_zh_tw_twins.jsonl")) cut(d.text, 2000, verify);
    for (const auto& d : verify) {
        if (fp64(d, scratch) != fp64.reference(d, scratch) || fp128(d, scratch) != fp128.reference(d, scratch)) {
            std::printf("fused and reference fingerprints differ on a document\n");
            return 2;
        }
    }

    std::vector<double> dec, f64, f128, r64, r128, q64, q128, qr64, qr128;
    for (int r = 0; r < rounds; ++r) {
        const double d = per_doc_us(docs, [](const std::string& s) { return decode_loop(s); });
        const double a = per_doc_us(docs, [&](const std::string& s) { return w(fp64(s, scratch)); });
        const double b = per_doc_us(docs, [&](const std::string& s) { return w(fp128(s, scratch)); });
        double c = 0, e = 0;
        if (with_reference) {
            c = per_doc_us(docs, [&](const std::string& s) { return w(fp64.reference(s, scratch)); });
            e = per_doc_us(docs, [&](const std::string& s) { return w(fp128.reference(s, scratch)); });
        }
        dec.push_back(d);
        f64.push_back(a);
        f128.push_back(b);
        r64.push_back(c);
        r128.push_back(e);
        q64.push_back(a / d);
        q128.push_back(b / a);
        qr64.push_back(c / d);
        qr128.push_back(e / c);
    }
    std::printf("%-34s %10s %28s\n", "benchmark", "us/doc", "ratio (median of rounds)");
    std::printf("%-34s %10.2f %28s\n", "utf8 decode loop (baseline)", median(dec), "1.00");
    std::printf("%-34s %10.2f %19.2f x decode\n", "fingerprint<64>", median(f64), median(q64));
    std::printf("%-34s %10.2f %19.2f x fp<64>\n", "fingerprint<128>", median(f128), median(q128));
    if (with_reference) {
        std::printf("%-34s %10.2f %19.2f x decode\n", "fingerprint<64> reference path", median(r64), median(qr64));
        std::printf("%-34s %10.2f %19.2f x ref<64>\n", "fingerprint<128> reference path", median(r128), median(qr128));
    }
    if (check && (median(q64) > 5.0 || median(q128) > 1.2)) {
        std::printf("target missed: fingerprint<64> <= 5 x decode, fingerprint<128> <= 1.2 x fingerprint<64>\n");
        return 1;
    }
    return 0;
}
