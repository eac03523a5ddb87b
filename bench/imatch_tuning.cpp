// Tunes the lexicon of I-Match (the IDF band of kept terms, and the sub-lexicon share for
// multi-lexicon I-Match) on the evaluation kit's pairs, split by base document as
// bench/two_stage_quality.cpp splits them, and reports the chosen configurations on the other
// half at zero false positives.
//
//   semfp_imatch_tuning PAIRS.jsonl DOCS.jsonl [--out REPORT.md]
//
// Documents are normalized as semfp::IMatch normalizes them and segmented with FmmSegmenter over
// the embedded dictionary; the IDF table is the embedded jieba table. HTML documents go through
// semfp::extract_main_text (as the tool does by default). Each document is segmented once; for
// every band the K sub-lexicon signatures are emulated by a 128-bit set hash of the kept terms'
// ids (two independent 64-bit sums of mixed ids), with the exact signature of the text when no
// term is kept, as semfp::IMatch does. The emulation decides pair matches exactly as IMatch's
// digests do (up to hash collisions); the program checks this against semfp::IMatch itself on
// the chosen configurations (the first 3,000 pairs of the confirmation half) and stops if they
// disagree.
//
// Choice: on the tuning half, among all bands of the grid (and keep fractions for K > 1), the
// configuration with no false positive on plain or same-site negatives and the most positives
// found; ties go to the earlier grid point.
#include <semfp/core/hash.hpp>
#include <semfp/dict/embedded.hpp>
#include <semfp/dict/embedded_idf.hpp>
#include <semfp/signature/imatch.hpp>
#include <semfp/text/article.hpp>
#include <semfp/text/segmenter.hpp>

#include "support/dev_pairs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

constexpr std::string_view program = "semfp_imatch_tuning";

[[noreturn]] void die(const std::string& m) { semfp::bench::die(program, m); }

std::uint64_t mix(std::uint64_t x) noexcept {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

struct sig128 {
    std::uint64_t a = 0;
    std::uint64_t b = 0;
    bool operator==(const sig128&) const = default;
};

using pair_row = semfp::bench::dev_pair;

constexpr std::size_t k_max = 10;
const std::vector<double> fractions = {0.5, 0.6, 0.7, 0.8};
const std::vector<double> band_lo = {0, 2, 3, 4, 5, 6, 7, 8, 9};
const std::vector<double> band_hi = {8, 9, 10, 11, 12, 13, 14, 1e300};

struct config {
    double lo, hi;
    std::size_t k;
    double keep;
};

std::string band_text(const config& c) {
    char buf[96];
    if (c.hi > 1e200)
        std::snprintf(buf, sizeof buf, "[%g, inf)", c.lo);
    else
        std::snprintf(buf, sizeof buf, "[%g, %g]", c.lo, c.hi);
    return buf;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) die("usage: semfp_imatch_tuning PAIRS.jsonl DOCS.jsonl [--out REPORT.md]");
    std::string out_path;
    for (int i = 3; i + 1 < argc; ++i)
        if (std::string(argv[i]) == "--out") out_path = argv[i + 1];

    const semfp::IdfTable& idf = semfp::embedded_idf_table();
    const semfp::FmmSegmenter seg(semfp::embedded_dictionary());
    const semfp::imatch_options defaults;

    // Documents: normalized text -> sorted unique term ids; exact signature when no term is kept.
    semfp::bench::dev_docs dev = semfp::bench::read_dev_docs(program, argv[2]);
    const std::vector<std::string> texts = std::move(dev.texts);
    std::unordered_map<std::string, std::uint32_t> vocab;
    std::vector<double> term_idf;
    std::vector<std::uint64_t> term_hash;                               // mixed id, for the set hash
    std::vector<std::vector<std::uint16_t>> term_in(fractions.size());  // bit k: in sub-lexicon k
    std::vector<std::vector<std::uint32_t>> doc_terms(texts.size());
    std::vector<sig128> exact(texts.size());
    std::string norm;
    for (std::size_t d = 0; d < texts.size(); ++d) {
        semfp::normalize_into(texts[d], norm, defaults.normalize);
        const auto e = semfp::digest_fingerprint<semfp::Md5>(norm);
        exact[d] = {e.word(0), e.word(1)};
        auto& ids = doc_terms[d];
        seg.tokenize(std::string_view(norm), [&](std::string_view t) {
            auto [it, fresh] = vocab.try_emplace(std::string(t), static_cast<std::uint32_t>(term_idf.size()));
            if (fresh) {
                term_idf.push_back(idf.idf(t));
                term_hash.push_back(mix(it->second + 1));
                for (std::size_t f = 0; f < fractions.size(); ++f) {
                    const auto below = static_cast<std::uint64_t>(std::ldexp(fractions[f], 64));
                    std::uint16_t bits = 0;
                    for (std::size_t k = 0; k < k_max; ++k)
                        if (semfp::Murmur3::hash128_seeded(t, defaults.seed + k).lo <= below)
                            bits |= static_cast<std::uint16_t>(1u << k);
                    term_in[f].push_back(bits);
                }
            }
            ids.push_back(it->second);
        });
        std::sort(ids.begin(), ids.end());
        ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    }
    std::fprintf(stderr, "%zu documents, %zu distinct terms\n", texts.size(), vocab.size());

    const std::vector<pair_row> pairs = semfp::bench::read_dev_pairs(program, argv[1], dev);

    // sigs[d][slot]: slot 0 = the whole band (K = 1), then fraction f, sub-lexicon k.
    const std::size_t slots = 1 + fractions.size() * k_max;
    std::vector<sig128> sigs(texts.size() * slots);
    auto compute_band = [&](double lo, double hi) {
        for (std::size_t d = 0; d < texts.size(); ++d) {
            sig128* s = &sigs[d * slots];
            std::vector<std::uint32_t> counts(slots, 0);
            std::fill(s, s + slots, sig128{});
            for (const std::uint32_t id : doc_terms[d]) {
                const double v = term_idf[id];
                if (!(v >= lo && v <= hi)) continue;
                const std::uint64_t h = term_hash[id];
                const std::uint64_t h2 = mix(h);
                s[0].a += h;
                s[0].b += h2;
                ++counts[0];
                for (std::size_t f = 0; f < fractions.size(); ++f) {
                    std::uint16_t bits = term_in[f][id];
                    while (bits != 0) {
                        const auto k = static_cast<std::size_t>(__builtin_ctz(bits));
                        bits = static_cast<std::uint16_t>(bits & (bits - 1));
                        sig128& x = s[1 + f * k_max + k];
                        x.a += h;
                        x.b += h2;
                        ++counts[1 + f * k_max + k];
                    }
                }
            }
            for (std::size_t i = 0; i < slots; ++i)
                if (counts[i] == 0) s[i] = exact[d];
        }
    };
    auto matches = [&](const pair_row& p, std::size_t k, std::size_t f) {
        const sig128* a = &sigs[p.a * slots];
        const sig128* b = &sigs[p.b * slots];
        if (k == 1) return a[0] == b[0];
        for (std::size_t i = 0; i < k; ++i)
            if (a[1 + f * k_max + i] == b[1 + f * k_max + i]) return true;
        return false;
    };

    const std::vector<std::size_t> ks = {1, 5, 10};
    std::map<std::size_t, config> best;
    std::map<std::size_t, std::size_t> best_found;
    std::string grid_log;
    for (const double lo : band_lo)
        for (const double hi : band_hi) {
            if (!(lo < hi)) continue;
            compute_band(lo, hi);
            for (const std::size_t k : ks)
                for (std::size_t f = 0; f < (k == 1 ? 1 : fractions.size()); ++f) {
                    std::size_t found = 0, fp = 0;
                    for (const auto& p : pairs) {
                        if (p.half != 0) continue;
                        const bool m = matches(p, k, f);
                        if (p.positive)
                            found += m ? 1u : 0u;
                        else
                            fp += m ? 1u : 0u;
                    }
                    const config c{lo, hi, k, k == 1 ? 1.0 : fractions[f]};
                    char buf[160];
                    std::snprintf(buf, sizeof buf, "| %s | %zu | %g | %zu | %zu |\n", band_text(c).c_str(), k, c.keep,
                                  found, fp);
                    grid_log += buf;
                    if (fp == 0 && (best_found.find(k) == best_found.end() || found > best_found[k])) {
                        best[k] = c;
                        best_found[k] = found;
                    }
                }
        }

    std::string report;
    auto emit = [&](const std::string& s) {
        std::fputs(s.c_str(), stdout);
        report += s;
    };
    char buf[512];
    std::size_t tune = 0;
    for (const auto& p : pairs) tune += p.half == 0 ? 1u : 0u;
    std::snprintf(buf, sizeof buf, "%zu documents, %zu pairs (tuning half: %zu, confirmation half: %zu)\n\n",
                  texts.size(), pairs.size(), tune, pairs.size() - tune);
    emit(buf);
    emit(
        "Chosen on the tuning half (zero false positives, most positives found):\n\n"
        "| K | band | keep | positives found (tuning) |\n|---:|---|---:|---:|\n");
    for (const std::size_t k : ks) {
        if (best.find(k) == best.end()) {
            emit("| " + std::to_string(k) + " | (no configuration without false positives) | | |\n");
            continue;
        }
        std::snprintf(buf, sizeof buf, "| %zu | %s | %g | %zu |\n", k, band_text(best[k]).c_str(), best[k].keep,
                      best_found[k]);
        emit(buf);
    }

    // Confirmation half: recall per kind and false positives, for the chosen configurations and
    // for the former default band [5, 12] with keep 0.7.
    std::vector<std::pair<std::string, config>> shown;
    for (const std::size_t k : ks) {
        if (best.find(k) != best.end()) shown.push_back({"tuned", best[k]});
        shown.push_back({"former", config{5, 12, k, k == 1 ? 1.0 : 0.7}});
    }
    std::map<std::string, std::size_t> kind_total;
    for (const auto& p : pairs)
        if (p.half == 1) ++kind_total[p.kind];
    emit(
        "\nConfirmation half: recall (%) per kind; FP = false positives on plain / same-site negatives.\n\n| "
        "configuration |");
    std::string sep = "|---|";
    for (const auto& [kind, n] : kind_total) {
        emit(" " + kind + " (" + std::to_string(n) + ") |");
        sep += "---:|";
    }
    emit(" FP |\n" + sep + "---:|\n");
    const semfp::FmmSegmenter check_seg(semfp::embedded_dictionary());
    for (const auto& [label, c] : shown) {
        compute_band(c.lo, c.hi);
        const std::size_t f =
            c.k == 1
                ? 0
                : static_cast<std::size_t>(std::find(fractions.begin(), fractions.end(), c.keep) - fractions.begin());
        // The emulation against semfp::IMatch on the first 3,000 confirmation pairs.
        semfp::imatch_options o;
        o.min_idf = c.lo;
        o.max_idf = c.hi;
        o.lexicons = c.k;
        o.keep_fraction = c.k == 1 ? 0.7 : c.keep;
        const semfp::IMatch<semfp::FmmSegmenter> im(idf, check_seg, o);
        std::size_t checked = 0;
        for (const auto& p : pairs) {
            if (p.half != 1) continue;
            if (++checked > 3000) break;
            const bool lib =
                semfp::IMatch<semfp::FmmSegmenter>::matches(im.signatures(texts[p.a]), im.signatures(texts[p.b]));
            if (lib != matches(p, c.k, f)) die("emulated I-Match disagrees with semfp::IMatch on " + band_text(c));
        }
        std::map<std::string, std::size_t> hit;
        std::size_t fp_plain = 0, fp_site = 0;
        for (const auto& p : pairs) {
            if (p.half != 1) continue;
            const bool m = matches(p, c.k, f);
            if (m) ++hit[p.kind];
            if (m && p.kind == "negative") ++fp_plain;
            if (m && p.kind == "site_negative") ++fp_site;
        }
        std::snprintf(buf, sizeof buf, "| %s K = %zu, %s%s |", label.c_str(), c.k, band_text(c).c_str(),
                      c.k == 1 ? "" : (", keep " + std::to_string(c.keep).substr(0, 3)).c_str());
        emit(buf);
        for (const auto& [kind, n] : kind_total) {
            if (kind == "negative" || kind == "site_negative")
                std::snprintf(buf, sizeof buf, " %zu |", hit[kind]);
            else
                std::snprintf(buf, sizeof buf, " %.1f |",
                              100.0 * static_cast<double>(hit[kind]) / static_cast<double>(n));
            emit(buf);
        }
        std::snprintf(buf, sizeof buf, " %zu / %zu |\n", fp_plain, fp_site);
        emit(buf);
    }
    emit(
        "\n(negative and site_negative columns are counts of false positives; every configuration was checked "
        "against semfp::IMatch on 3,000 confirmation pairs)\n");
    if (!out_path.empty()) {
        std::ofstream o(out_path);
        o << report
          << "\n\nTuning grid (band, K, keep, positives found, false positives):\n\n| band | K | keep | found | FP "
             "|\n|---|---:|---:|---:|---:|\n"
          << grid_log;
    }
    return 0;
}
