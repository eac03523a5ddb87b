// Tunes the lexicon of I-Match (the IDF band of kept terms, and the sub-lexicon share for
// multi-lexicon I-Match) on the evaluation kit's pairs, split by base document as
// bench/two_stage_quality.cpp splits them, and reports the chosen configurations on the other
// half at zero false positives.
//
//   semfp_imatch_tuning PAIRS.jsonl DOCS.jsonl [--out REPORT.md] [--narrow]
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
// Grid: every band [lo, hi], keep fraction (K > 1) and min_terms m (a signature over fewer than m
// kept terms is the exact signature of the text, semfp::imatch_options::min_terms).
// Choice, per K: on the tuning half, the configuration with no false positive on plain or
// same-site negatives and the most positives found ("plain"); and the same with a margin: no false
// positive either when every document gets 2K sub-lexicons (the first K of them are the K-lexicon
// signatures, so this only adds chances of an accidental match). Ties go to the earlier grid point.
#include <semfp/core/hash.hpp>
#include <semfp/core/sketch.hpp>
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

// Sub-lexicons emulated per keep fraction: K up to 10, and 2K for the doubled-K margin.
constexpr std::size_t k_max = 20;
std::vector<double> fractions = {0.5, 0.6, 0.7, 0.8};
std::vector<double> band_lo = {0, 2, 3, 4, 5, 6, 7, 8, 9};
std::vector<double> band_hi = {8, 9, 10, 11, 12, 13, 14, 1e300};
// --narrow: the neighbourhood of the band chosen by the full grid ([7, 9], keep 0.5), for a
// quicker run of the min_terms and margin rules.
void narrow_grid() {
    fractions = {0.5, 0.6, 0.7};
    band_lo = {6, 7, 8};
    band_hi = {9, 10, 11};
}
const std::vector<std::size_t> min_terms_grid = {1, 2, 3, 4, 6, 8, 12};

struct config {
    double lo, hi;
    std::size_t k;
    double keep;
    std::size_t m = 1;  // imatch_options::min_terms
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
    if (argc < 3) die("usage: semfp_imatch_tuning PAIRS.jsonl DOCS.jsonl [--out REPORT.md] [--narrow]");
    std::string out_path;
    for (int i = 3; i < argc; ++i) {
        if (std::string(argv[i]) == "--out" && i + 1 < argc) out_path = argv[i + 1];
        if (std::string(argv[i]) == "--narrow") narrow_grid();
    }

    const semfp::IdfTable& idf = semfp::embedded_idf_table();
    const semfp::FmmSegmenter seg(semfp::embedded_dictionary());
    const semfp::imatch_options defaults;

    // Documents: normalized text -> sorted unique term ids; exact signature when no term is kept.
    semfp::bench::dev_docs dev = semfp::bench::read_dev_docs(program, argv[2]);
    const std::vector<std::string> texts = std::move(dev.texts);
    std::unordered_map<std::string, std::uint32_t> vocab;
    std::vector<double> term_idf;
    std::vector<std::uint64_t> term_hash;                               // mixed id, for the set hash
    std::vector<std::vector<std::uint32_t>> term_in(fractions.size());  // bit k: in sub-lexicon k
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
                    std::uint32_t bits = 0;
                    for (std::size_t k = 0; k < k_max; ++k)
                        if (semfp::Murmur3::hash128_seeded(t, defaults.seed + k).lo <= below) bits |= 1u << k;
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

    std::vector<std::string> doc_ids(texts.size());
    for (const auto& [id, d] : dev.index) doc_ids[d] = id;

    // sigs[d][slot]: slot 0 = the whole band (K = 1), then fraction f, sub-lexicon k; counts[d][slot]:
    // how many band terms the slot keeps (saturating). A slot with fewer than min_terms terms
    // takes the exact signature of the text, as semfp::IMatch does.
    const std::size_t slots = 1 + fractions.size() * k_max;
    std::vector<sig128> sigs(texts.size() * slots);
    std::vector<std::uint16_t> counts(texts.size() * slots);
    auto compute_band = [&](double lo, double hi) {
        for (std::size_t d = 0; d < texts.size(); ++d) {
            sig128* s = &sigs[d * slots];
            std::uint16_t* c = &counts[d * slots];
            std::fill(s, s + slots, sig128{});
            std::fill(c, c + slots, std::uint16_t{0});
            for (const std::uint32_t id : doc_terms[d]) {
                const double v = term_idf[id];
                if (!(v >= lo && v <= hi)) continue;
                const std::uint64_t h = term_hash[id];
                const std::uint64_t h2 = mix(h);
                s[0].a += h;
                s[0].b += h2;
                if (c[0] < 0xFFFF) ++c[0];
                for (std::size_t f = 0; f < fractions.size(); ++f) {
                    std::uint32_t bits = term_in[f][id];
                    while (bits != 0) {
                        const auto k = static_cast<std::size_t>(__builtin_ctz(bits));
                        bits &= bits - 1;
                        const std::size_t slot = 1 + f * k_max + k;
                        s[slot].a += h;
                        s[slot].b += h2;
                        if (c[slot] < 0xFFFF) ++c[slot];
                    }
                }
            }
        }
    };
    auto sig_at = [&](std::uint32_t d, std::size_t slot, std::size_t m) -> const sig128& {
        return counts[d * slots + slot] < m ? exact[d] : sigs[d * slots + slot];
    };
    // The first sub-lexicon (of the first kk) where the pair's signatures agree; kk when none.
    auto first_match = [&](const pair_row& p, std::size_t f, std::size_t m, std::size_t kk) {
        for (std::size_t i = 0; i < kk; ++i)
            if (sig_at(p.a, 1 + f * k_max + i, m) == sig_at(p.b, 1 + f * k_max + i, m)) return i;
        return kk;
    };
    auto matches = [&](const pair_row& p, const config& c, std::size_t f) {
        if (c.k == 1) return sig_at(p.a, 0, c.m) == sig_at(p.b, 0, c.m);
        return first_match(p, f, c.m, c.k) < c.k;
    };

    // Two choices per K: the plain one (zero false positives on the tuning half, most positives)
    // and the one with a margin: also zero false positives when every document gets 2K
    // sub-lexicons (twice the chances of an accidental equal signature).
    const std::vector<std::size_t> ks = {1, 5, 10};
    struct choice {
        config c{};
        std::size_t found = 0;
        bool set = false;
    };
    std::map<std::size_t, choice> best, best_margin;
    std::string grid_log;
    for (const double lo : band_lo)
        for (const double hi : band_hi) {
            if (!(lo < hi)) continue;
            compute_band(lo, hi);
            for (const std::size_t m : min_terms_grid) {
                // K = 1 (no margin variant: it has one signature).
                // The confirmation half is counted too, for the grid log only (never for a choice).
                {
                    std::size_t found = 0, fp = 0, fp_c = 0;
                    for (const auto& p : pairs) {
                        const bool hit = sig_at(p.a, 0, m) == sig_at(p.b, 0, m);
                        if (p.half != 0) {
                            fp_c += !p.positive && hit ? 1u : 0u;
                            continue;
                        }
                        (p.positive ? found : fp) += hit ? 1u : 0u;
                    }
                    const config c{lo, hi, 1, 1.0, m};
                    char buf[160];
                    std::snprintf(buf, sizeof buf, "| %s | 1 | - | %zu | %zu | %zu | - | %zu |\n", band_text(c).c_str(),
                                  m, found, fp, fp_c);
                    grid_log += buf;
                    for (auto* b : {&best[1], &best_margin[1]})
                        if (fp == 0 && (!b->set || found > b->found)) *b = {c, found, true};
                }
                for (std::size_t f = 0; f < fractions.size(); ++f) {
                    std::size_t found[2] = {0, 0}, fp[2] = {0, 0}, fp2[2] = {0, 0}, fp_c[2] = {0, 0};
                    for (const auto& p : pairs) {
                        const std::size_t first = first_match(p, f, m, k_max);
                        for (int i = 0; i < 2; ++i) {
                            const std::size_t k = ks[1 + static_cast<std::size_t>(i)];
                            if (p.half != 0) {
                                fp_c[i] += !p.positive && first < k ? 1u : 0u;
                            } else if (p.positive) {
                                found[i] += first < k ? 1u : 0u;
                            } else {
                                fp[i] += first < k ? 1u : 0u;
                                fp2[i] += first < 2 * k ? 1u : 0u;
                            }
                        }
                    }
                    for (int i = 0; i < 2; ++i) {
                        const std::size_t k = ks[1 + static_cast<std::size_t>(i)];
                        const config c{lo, hi, k, fractions[f], m};
                        char buf[160];
                        std::snprintf(buf, sizeof buf, "| %s | %zu | %g | %zu | %zu | %zu | %zu | %zu |\n",
                                      band_text(c).c_str(), k, c.keep, m, found[i], fp[i], fp2[i], fp_c[i]);
                        grid_log += buf;
                        choice& b = best[k];
                        if (fp[i] == 0 && (!b.set || found[i] > b.found)) b = {c, found[i], true};
                        choice& bm = best_margin[k];
                        if (fp[i] == 0 && fp2[i] == 0 && (!bm.set || found[i] > bm.found)) bm = {c, found[i], true};
                    }
                }
            }
        }

    std::string report;
    auto emit = [&](const std::string& s) {
        std::fputs(s.c_str(), stdout);
        report += s;
    };
    auto describe = [](const config& c) {
        std::string s = "K = " + std::to_string(c.k) + ", " + band_text(c);
        char buf[64];
        if (c.k > 1) {
            std::snprintf(buf, sizeof buf, ", keep %g", c.keep);
            s += buf;
        }
        if (c.m > 1) s += ", min terms " + std::to_string(c.m);
        return s;
    };
    char buf[512];
    std::size_t tune = 0;
    for (const auto& p : pairs) tune += p.half == 0 ? 1u : 0u;
    std::snprintf(buf, sizeof buf, "%zu documents, %zu pairs (tuning half: %zu, confirmation half: %zu)\n\n",
                  texts.size(), pairs.size(), tune, pairs.size() - tune);
    emit(buf);
    emit(
        "Chosen on the tuning half (zero false positives, most positives found; margin: zero false positives with 2K "
        "sub-lexicons too):\n\n| rule | configuration | positives found (tuning) |\n|---|---|---:|\n");
    std::vector<std::pair<std::string, config>> shown;
    for (const std::size_t k : ks) {
        for (const bool margin : {false, true}) {
            if (k == 1 && margin) continue;
            const choice& b = margin ? best_margin[k] : best[k];
            const std::string rule = margin ? "margin" : "plain";
            if (!b.set) {
                emit("| " + rule + " K = " + std::to_string(k) + " | (no configuration without false positives) | |\n");
                continue;
            }
            std::snprintf(buf, sizeof buf, "| %s | %s | %zu |\n", rule.c_str(), describe(b.c).c_str(), b.found);
            emit(buf);
            shown.push_back({rule, b.c});
        }
    }
    // The configurations of the previous tuning (no min_terms), for comparison.
    shown.push_back({"previous", config{7, 9, 5, 0.5, 1}});
    shown.push_back({"previous", config{7, 9, 10, 0.5, 1}});

    // Confirmation half: recall per kind and false positives.
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
        o.min_terms = c.m;
        const semfp::IMatch<semfp::FmmSegmenter> im(idf, check_seg, o);
        std::size_t checked = 0;
        for (const auto& p : pairs) {
            if (p.half != 1) continue;
            if (++checked > 3000) break;
            const bool lib =
                semfp::IMatch<semfp::FmmSegmenter>::matches(im.signatures(texts[p.a]), im.signatures(texts[p.b]));
            if (lib != matches(p, c, f)) die("emulated I-Match disagrees with semfp::IMatch on " + describe(c));
        }
        std::map<std::string, std::size_t> hit;
        std::size_t fp_plain = 0, fp_site = 0;
        for (const auto& p : pairs) {
            if (p.half != 1) continue;
            const bool m = matches(p, c, f);
            if (m) ++hit[p.kind];
            if (m && p.kind == "negative") ++fp_plain;
            if (m && p.kind == "site_negative") ++fp_site;
        }
        emit("| " + label + " " + describe(c) + " |");
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
        // Which negatives match, and through how many kept terms (the first equal signature).
        for (const auto& p : pairs) {
            if (p.half != 1 || p.positive || !matches(p, c, f)) continue;
            const std::size_t slot = c.k == 1 ? 0 : 1 + f * k_max + first_match(p, f, c.m, c.k);
            std::fprintf(stderr, "  false positive (%s): %s | %s, %u and %u kept terms in sub-lexicon slot %zu\n",
                         describe(c).c_str(), doc_ids[p.a].c_str(), doc_ids[p.b].c_str(),
                         static_cast<unsigned>(counts[p.a * slots + slot]),
                         static_cast<unsigned>(counts[p.b * slots + slot]), slot);
        }
    }
    emit(
        "\n(negative and site_negative columns are counts of false positives; every configuration was checked "
        "against semfp::IMatch on 3,000 confirmation pairs)\n");
    if (!out_path.empty()) {
        std::ofstream o(out_path);
        o << report
          << "\n\nTuning grid (band, K, keep, min terms; on the tuning half: positives found, false positives, "
             "false positives with 2K; false positives on the confirmation half, shown only, never used to choose):\n\n"
             "| band | K | keep | min terms | found | FP | FP 2K | FP confirmation |\n"
             "|---|---:|---:|---:|---:|---:|---:|---:|\n"
          << grid_log;
    }
    return 0;
}
