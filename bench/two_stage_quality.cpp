// Calibration of the two-stage rule (semfp::two_stage_rule) on the evaluation kit's labelled
// pairs, split by base document so that the rule is confirmed on text it was not tuned on.
//
//   semfp_two_stage_quality PAIRS.jsonl DOCS.jsonl [--out REPORT.md]
//
// Every document gets a Signature<64> and a Signature<128> (semfp::SignatureFingerprinter
// defaults; HTML documents through semfp::extract_main_text, as bench/quality.cpp). Pairs go to
// the tuning or the confirmation half by a hash of their base document (the "base" field without
// its "#site..." suffix). On the tuning half, for each Hamming radius R up to max_radius, the
// sketch threshold is the smallest that leaves no negative (plain or same-site) within R
// verified, separately for short pairs (either text under two_stage_rule::short_features
// tokens); the radius with the largest recall wins (ties: the smaller radius). Both halves are
// then reported with that rule, next to Simhash alone at recommended_distance. The sketch
// estimate is compared with exact Jaccard on a sample of pairs.
//
// "The whole rule chosen on the tuning half" (support/two_stage_calibration.hpp) chooses the
// accept distance too (the largest distance with no long negative of the tuning half), then the
// radius and min_similarity, and reports the library default and that rule on both halves, for
// the default signatures and for two 64-bit variants with the Taiwan vocabulary fold
// (normalize_options::fold_phrases, on at 128 bits only): in the fingerprint and the sketch, and
// in the sketch only. Every rule is printed before any confirmation figure of it; the false
// positives of the confirmation half are listed with their distance and estimate. The sketch-only
// variant is made by `SignatureFingerprinter` with `signature_options::sketch_fold_phrases` (one
// fused pass; the program stops if it differs from the unfolded fingerprint joined to the folded
// signature's sketch), and is also reported with the rule fixed in advance on the tuning half
// (accept distance 5, radius 32, min_similarity 0.653).
//
// The union variant (default fingerprint; the sketch of the set of the tokens of the unfolded and
// of the phrase-folded text, a text of fewer than 30 unfolded tokens keeping its default sketch)
// is computed by a two-pass reference (both tokenizations fed to one MinHashSketcher; a one-pass
// version in the fused pass was measured at the exact fold's cost, so the library does not offer
// it: bench/results/two_stage.md). Its min_similarity is derived on the tuning half by the
// library's rule (the largest estimate of a negative within radius 32, + 0.045, rounded up to
// 0.001) and printed before it is reported with the whole rule and with that rule (accept
// distance 5, radius 32). The skip variant (the default fingerprint; the sketch of the tokens
// that share no character with a bigram of the Taiwan vocabulary table, either side) is
// derived and reported the same way (support/two_stage_variants.hpp).
#include <semfp/core/signature.hpp>
#include <semfp/index/hamming_index.hpp>
#include <semfp/index/sketch_band_index.hpp>
#include <semfp/text/article.hpp>

#include "support/dev_pairs.hpp"
#include "support/two_stage_calibration.hpp"
#include "support/two_stage_rule_report.hpp"
#include "support/two_stage_variants.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

constexpr std::string_view program = "semfp_two_stage_quality";

using pair_row = semfp::bench::dev_pair;
using semfp::bench::calibration_view;
using semfp::bench::fixed_rule;
using semfp::bench::pair_view;
using semfp::bench::required_margin;
using semfp::bench::view_of;
using semfp::bench::whole_rule;

struct docs_t {
    std::vector<std::string> texts;
    std::vector<semfp::Signature<64>> s64;
    std::vector<semfp::Signature<128>> s128;
};

struct scored {
    bool lib;  // accepted by the library's two_stage_rule::recommended<Bits>()
    bool near;  // within the rule's accept_distance (found by the exact candidate search)
    unsigned d;
    double j;
    bool is_short;
};

struct rule_t {
    unsigned radius;
    double t;        // threshold, long pairs
    double t_short;  // threshold, short pairs
};

bool accepts(const rule_t& r, const scored& s) {
    if (r.radius == ~0u) return s.lib;  // the library's rule
    return s.d <= r.radius && s.j >= (s.is_short ? r.t_short : r.t);
}

template <std::size_t Bits>
std::vector<scored> score(const docs_t& docs, const std::vector<pair_row>& pairs,
                          const std::vector<semfp::Signature<Bits>>& sig, std::uint32_t short_features) {
    std::vector<scored> out;
    out.reserve(pairs.size());
    const auto lib = semfp::two_stage_rule::recommended<Bits>();
    for (const auto& p : pairs) {
        const auto& x = sig[p.a];
        const auto& y = sig[p.b];
        const pair_view v = view_of(x, y, short_features);
        out.push_back({lib.accepts(v.d, x.sketch, y.sketch), v.d <= lib.accept_distance, v.d, v.j, v.is_short});
    }
    (void)docs;
    return out;
}

/// Smallest threshold above every negative of `half` within radius r (short or long), and
/// the number of positives it accepts.
rule_t tune(const std::vector<pair_row>& pairs, const std::vector<scored>& s, int half, unsigned r) {
    double worst = -1;
    double worst_short = -1;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        if (pairs[i].half != half || pairs[i].positive || s[i].d > r) continue;
        (s[i].is_short ? worst_short : worst) = std::max(s[i].is_short ? worst_short : worst, s[i].j);
    }
    // One bin (1/128) above the worst negative: estimates are multiples of it.
    const double step = 1.0 / 128;
    rule_t rule{r, worst + step, std::max(worst, worst_short) + step};
    rule.t = std::max(rule.t, 0.0);
    return rule;
}

std::size_t accepted_positives(const std::vector<pair_row>& pairs, const std::vector<scored>& s, int half,
                               const rule_t& r) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i)
        if (pairs[i].half == half && pairs[i].positive && accepts(r, s[i])) ++n;
    return n;
}

struct table_row {
    std::size_t n = 0;
    std::size_t hit = 0;
};

std::map<std::string, table_row> per_kind(const std::vector<pair_row>& pairs, const std::vector<scored>& s, int half,
                                          const rule_t& r) {
    std::map<std::string, table_row> t;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        if (pairs[i].half != half) continue;
        auto& row = t[pairs[i].kind];
        ++row.n;
        row.hit += accepts(r, s[i]) ? 1 : 0;
    }
    return t;
}

/// The banded candidate stage (semfp::SketchBandIndex): candidates are the pairs within the
/// rule's accept_distance and those sharing a band of the sketch; each is then decided by the
/// rule. Recall per kind against the exact radius search (the rule alone), and the share of
/// negative pairs that become candidates (what a query pays for in verifications).
template <class Emit>
void banding(const std::vector<pair_row>& pairs, const docs_t& docs, Emit& emit) {
    const std::vector<semfp::sketch_band_layout> layouts = {
        {42, 3}, {32, 3}, {32, 4}, {24, 4}, {20, 4}, {16, 4}, {12, 4}, {25, 5}, {20, 5}, {16, 5}, {21, 6}};
    char buf[512];
    auto section = [&]<std::size_t Bits>(const std::vector<semfp::Signature<Bits>>& sig) {
        const auto rule = semfp::two_stage_rule::recommended<Bits>();
        std::snprintf(buf, sizeof buf,
                      "### %zu bits: banded candidate stage (d <= %u, or a shared band of the sketch), then the "
                      "rule\n\nRecall kept of the rule applied to every pair (radius %u, as an exhaustive search would), both halves together (%% of the pairs "
                      "the rule accepts); worst kind; negatives that become candidates (sharing a band, any "
                      "distance).\n\n",
                      Bits, rule.accept_distance, rule.radius);
        emit(buf);
        // Per kind: pairs the rule accepts, and of those the banded stage keeps, per layout.
        std::map<std::string, std::size_t> acc;
        std::vector<std::map<std::string, std::size_t>> kept(layouts.size());
        std::vector<std::size_t> neg_collide(layouts.size(), 0);
        std::size_t negatives = 0;
        for (const auto& p : pairs) {
            const auto& x = sig[p.a];
            const auto& y = sig[p.b];
            const unsigned d = semfp::hamming_distance(x.fingerprint, y.fingerprint);
            if (!p.positive) {
                ++negatives;
                for (std::size_t l = 0; l < layouts.size(); ++l)
                    neg_collide[l] += semfp::share_band(x.sketch, y.sketch, layouts[l]) ? 1 : 0;
                continue;
            }
            if (!rule.accepts(d, x.sketch, y.sketch)) continue;
            ++acc[p.kind];
            for (std::size_t l = 0; l < layouts.size(); ++l)
                if (d <= rule.accept_distance || semfp::share_band(x.sketch, y.sketch, layouts[l])) ++kept[l][p.kind];
        }
        std::string head = "| layout (bands x rows) | all kinds | worst kind | negatives sharing a band |";
        std::string sep = "|---|---:|---|---:|";
        emit(head + "\n" + sep + "\n");
        for (std::size_t l = 0; l < layouts.size(); ++l) {
            std::size_t a = 0;
            std::size_t k = 0;
            double worst = 2;
            std::string worst_kind;
            for (const auto& [kind, n] : acc) {
                a += n;
                const std::size_t kk = kept[l].count(kind) ? kept[l].at(kind) : 0;
                k += kk;
                const double r = static_cast<double>(kk) / static_cast<double>(n);
                if (r < worst) {
                    worst = r;
                    worst_kind = kind;
                }
            }
            std::snprintf(buf, sizeof buf, "| %u x %u | %.2f %% (%zu of %zu) | %s %.2f %% | %.4f %% |\n",
                          layouts[l].bands, layouts[l].rows, 100.0 * static_cast<double>(k) / static_cast<double>(a), k,
                          a, worst_kind.c_str(), 100.0 * worst,
                          100.0 * static_cast<double>(neg_collide[l]) / static_cast<double>(negatives));
            emit(buf);
        }
        // Per kind for the library's default layout, per half.
        const semfp::sketch_band_layout def{};
        std::snprintf(buf, sizeof buf,
                      "\nDefault layout %u x %u, per kind and half (recall of the exact radius search -> of the "
                      "banded stage, %% of the kind's pairs):\n\n| kind | tuning exact | tuning banded | "
                      "confirmation exact | confirmation banded |\n|---|---:|---:|---:|---:|\n",
                      def.bands, def.rows);
        emit(buf);
        std::map<std::string, std::array<std::size_t, 6>> t;  // n0, exact0, banded0, n1, exact1, banded1
        for (const auto& p : pairs) {
            if (!p.positive) continue;
            const auto& x = sig[p.a];
            const auto& y = sig[p.b];
            const unsigned d = semfp::hamming_distance(x.fingerprint, y.fingerprint);
            auto& row = t[p.kind];
            const std::size_t o = p.half == 0 ? 0 : 3;
            ++row[o];
            if (!rule.accepts(d, x.sketch, y.sketch)) continue;
            ++row[o + 1];
            if (d <= rule.accept_distance || semfp::share_band(x.sketch, y.sketch, def)) ++row[o + 2];
        }
        for (const auto& [kind, r] : t) {
            auto pct = [](std::size_t a, std::size_t n) { return n == 0 ? 0.0 : 100.0 * static_cast<double>(a) / static_cast<double>(n); };
            std::snprintf(buf, sizeof buf, "| %s | %.1f %% | %.1f %% | %.1f %% | %.1f %% |\n", kind.c_str(), pct(r[1], r[0]),
                          pct(r[2], r[0]), pct(r[4], r[3]), pct(r[5], r[3]));
            emit(buf);
        }
        emit("\n");
    };
    section(docs.s64);
    section(docs.s128);
}

/// The rule's radius, chosen on the tuning half with the banded candidate stage (what
/// semfp::TwoStageClusterer and the tool do): on a grid of radii R from the exact-search limit
/// (two_stage_rule::exact_search_limit) to the full width, thresholds unchanged, a pair is found
/// when the rule with radius R accepts it and it is a candidate (within accept_distance, or
/// sharing a band of the default layout). Eligible: no false positive on the tuning half, plain
/// or same-site, and at least `required_margin` between each threshold and the largest estimate
/// of a negative of the tuning half within R. Chosen: the eligible radius that finds the most
/// positives of the tuning half, ties to the smaller radius. Then per kind, both halves, before
/// (R = the exact-search limit) and after (the chosen R) and the library's current default.

template <std::size_t Bits, class Emit>
void radius_sweep(const std::vector<pair_row>& pairs, const std::vector<semfp::Signature<Bits>>& sig, Emit& emit) {
    const auto lib = semfp::two_stage_rule::recommended<Bits>();
    auto rule = lib;
    rule.radius = static_cast<unsigned>(Bits);
    const unsigned before = semfp::two_stage_rule::exact_search_limit<Bits>;
    const semfp::sketch_band_layout def{};
    struct pre {
        unsigned d;
        double j;
        bool is_short;
        bool found_any_radius;  // accepted by the rule at the full width, and a banded candidate
    };
    std::vector<pre> v;
    v.reserve(pairs.size());
    for (const auto& p : pairs) {
        const auto& x = sig[p.a];
        const auto& y = sig[p.b];
        const pair_view pv = view_of(x, y, rule.short_features);
        const bool cand = pv.d <= rule.accept_distance || semfp::share_band(x.sketch, y.sketch, def);
        v.push_back({pv.d, pv.j, pv.is_short, cand && rule.accepts(pv.d, x.sketch, y.sketch)});
    }
    auto found = [&](std::size_t i, unsigned r) { return v[i].found_any_radius && v[i].d <= r; };
    char buf[640];
    std::snprintf(buf, sizeof buf,
                  "### %zu bits: the rule's radius (banded stage, default layout; thresholds %.3f, short %.3f)\n\n"
                  "Eligible on the tuning half: zero false positives (plain and same-site) and a margin >= %.3f "
                  "between the threshold and the largest negative estimate within the radius. Chosen: most "
                  "tuning positives found, ties to the smaller radius. Confirmation columns for information "
                  "only.\n\n| radius | FP tuning (plain + same-site) | largest negative estimate, tuning (long / "
                  "short) | margin | positives found, tuning | FP confirmation | largest negative estimate, "
                  "confirmation | positives found, confirmation |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n",
                  Bits, rule.min_similarity, rule.short_similarity, required_margin);
    emit(buf);
    unsigned chosen = 0;
    std::size_t chosen_hits = 0;
    for (unsigned r = before; r <= Bits; r += 4) {
        std::size_t fp[2][2] = {{0, 0}, {0, 0}};  // [half][same-site]
        std::size_t hits[2] = {0, 0};
        double worst[2][2] = {{0, 0}, {0, 0}};  // [half][short]
        bool any_short[2] = {false, false};
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            const int h = pairs[i].half;
            if (h < 0) continue;
            if (!pairs[i].positive) {
                if (v[i].d <= r) {
                    double& w = worst[h][v[i].is_short ? 1 : 0];
                    w = std::max(w, v[i].j);
                    any_short[h] = any_short[h] || v[i].is_short;
                }
                fp[h][pairs[i].kind == "site_negative" ? 1 : 0] += found(i, r) ? 1 : 0;
                continue;
            }
            hits[h] += found(i, r) ? 1 : 0;
        }
        const double margin = std::min(rule.min_similarity - worst[0][0],
                                       any_short[0] ? rule.short_similarity - worst[0][1] : 1.0);
        const bool eligible = fp[0][0] == 0 && fp[0][1] == 0 && margin >= required_margin;
        if (eligible && hits[0] > chosen_hits) {
            chosen = r;
            chosen_hits = hits[0];
        }
        std::snprintf(buf, sizeof buf, "| %u | %zu + %zu | %.4f / %s | %.4f%s | %zu | %zu + %zu | %.4f | %zu |\n", r,
                      fp[0][0], fp[0][1], worst[0][0], any_short[0] ? std::to_string(worst[0][1]).c_str() : "-",
                      margin, eligible ? "" : " (not eligible)", hits[0], fp[1][0], fp[1][1],
                      std::max(worst[1][0], worst[1][1]), hits[1]);
        emit(buf);
    }
    std::snprintf(buf, sizeof buf,
                  "\nChosen radius: %u (library default now: %u). Per kind, %% of the kind's pairs found (false "
                  "positives: pairs), banded stage:\n\n| kind | pairs (tune / confirm) | radius %u tuning | radius %u "
                  "confirmation | radius %u tuning | radius %u confirmation |\n|---|---:|---:|---:|---:|---:|\n",
                  chosen, lib.radius, before, before, chosen, chosen);
    emit(buf);
    std::map<std::string, std::array<std::size_t, 6>> t;  // per half: n, before, chosen
    std::array<std::size_t, 6> all{};
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const int h = pairs[i].half;
        if (h < 0) continue;
        const std::size_t o = h == 0 ? 0 : 3;
        for (auto* row : {&t[pairs[i].kind], pairs[i].positive ? &all : nullptr}) {
            if (row == nullptr) continue;
            ++(*row)[o];
            (*row)[o + 1] += found(i, before) ? 1 : 0;
            (*row)[o + 2] += found(i, chosen) ? 1 : 0;
        }
    }
    auto pct = [](std::size_t a, std::size_t n) {
        return n == 0 ? 0.0 : 100.0 * static_cast<double>(a) / static_cast<double>(n);
    };
    auto row_out = [&](const std::string& kind, const std::array<std::size_t, 6>& r) {
        if (kind == "negative" || kind == "site_negative") {
            std::snprintf(buf, sizeof buf, "| %s (false positives) | %zu / %zu | %zu | %zu | %zu | %zu |\n",
                          kind.c_str(), r[0], r[3], r[1], r[4], r[2], r[5]);
        } else {
            std::snprintf(buf, sizeof buf, "| %s | %zu / %zu | %.1f %% | %.1f %% | %.1f %% | %.1f %% |\n", kind.c_str(),
                          r[0], r[3], pct(r[1], r[0]), pct(r[4], r[3]), pct(r[2], r[0]), pct(r[5], r[3]));
        }
        emit(buf);
    };
    for (const auto& [kind, r] : t) row_out(kind, r);
    row_out("all positives", all);
    // Why script conversions are missed at the library's radius: beyond it, no candidate (no
    // shared band and beyond the accept distance), or a sketch estimate below the threshold.
    std::snprintf(buf, sizeof buf,
                  "\nScript-conversion pairs the library's rule (radius %u) misses: half, distance, sketch estimate, "
                  "shared band, reason.\n\n| kind | half | distance | estimate | shared band | reason |\n|---|---:|---:|---:|---|---|\n",
                  lib.radius);
    emit(buf);
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const std::string& kind = pairs[i].kind;
        if (!pairs[i].positive || pairs[i].half < 0 || (kind.find("s2t") == std::string::npos && kind.find("tw") == std::string::npos))
            continue;
        if (found(i, lib.radius)) continue;
        const bool band = semfp::share_band(sig[pairs[i].a].sketch, sig[pairs[i].b].sketch, def);
        const char* reason = v[i].d > lib.radius                                    ? "beyond the radius"
                             : !(v[i].d <= rule.accept_distance || band)            ? "no candidate"
                                                                                    : "estimate below the threshold";
        std::snprintf(buf, sizeof buf, "| %s | %d | %u | %.3f | %s | %s |\n", kind.c_str(), pairs[i].half, v[i].d, v[i].j,
                      band ? "yes" : "no", reason);
        emit(buf);
    }
    emit("\n");
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) semfp::bench::die(program, "usage: semfp_two_stage_quality PAIRS.jsonl DOCS.jsonl [--out REPORT.md]");
    std::string out_path;
    for (int i = 3; i + 1 < argc; i += 2)
        if (std::string(argv[i]) == "--out") out_path = argv[i + 1];

    docs_t docs;
    semfp::bench::dev_docs dev = semfp::bench::read_dev_docs(program, argv[2]);
    docs.texts = std::move(dev.texts);
    const semfp::SignatureFingerprinter<semfp::default_tokenizer, semfp::default_hash, 64> maker64;
    const semfp::SignatureFingerprinter<semfp::default_tokenizer, semfp::default_hash, 128> maker128;
    for (const auto& t : docs.texts) {
        docs.s64.push_back(maker64(t));
        docs.s128.push_back(maker128(t));
    }
    const std::vector<pair_row> pairs = semfp::bench::read_dev_pairs(program, argv[1], dev);

    const std::uint32_t short_features = semfp::two_stage_rule{}.short_features;
    std::string report;
    auto emit = [&](const std::string& s) {
        std::fputs(s.c_str(), stdout);
        report += s;
    };
    char buf[512];
    std::snprintf(buf, sizeof buf, "%zu documents, %zu pairs (tuning half: %zu)\n\n", docs.texts.size(), pairs.size(),
                  static_cast<std::size_t>(std::count_if(pairs.begin(), pairs.end(), [](const pair_row& p) { return p.half == 0; })));
    emit(buf);

    auto run = [&]<std::size_t Bits>(const std::vector<semfp::Signature<Bits>>& sig) {
        const auto s = score<Bits>(docs, pairs, sig, short_features);
        rule_t best{0, 2, 2};
        std::size_t best_hits = 0;
        emit("### " + std::to_string(Bits) + " bits: tuning (zero false positives on the tuning half)\n\n"
             "| radius | threshold | short threshold | positives found (tuning) |\n|---:|---:|---:|---:|\n");
        for (unsigned r = semfp::recommended_distance<Bits>; r <= semfp::HammingIndex<Bits>::max_radius; ++r) {
            const rule_t rule = tune(pairs, s, 0, r);
            const std::size_t hits = accepted_positives(pairs, s, 0, rule);
            std::snprintf(buf, sizeof buf, "| %u | %.4f | %.4f | %zu |\n", r, rule.t, rule.t_short, hits);
            emit(buf);
            if (hits > best_hits) {
                best_hits = hits;
                best = rule;
            }
        }
        std::snprintf(buf, sizeof buf, "\nChosen: radius %u, threshold %.4f, short threshold %.4f.\n\n", best.radius,
                      best.t, best.t_short);
        emit(buf);
        // The library's default rule, evaluated on both halves as it stands.
        const auto lib = semfp::two_stage_rule::recommended<Bits>();
        const rule_t chosen{~0u, 0, 0};
        for (int h = 0; h < 2; ++h) {
            double worst = 0;
            for (std::size_t i = 0; i < pairs.size(); ++i)
                if (pairs[i].half == h && !pairs[i].positive && s[i].d <= lib.radius) worst = std::max(worst, s[i].j);
            std::snprintf(buf, sizeof buf, "Largest estimate of a negative within radius %u, %s half: %.4f.\n", lib.radius,
                          h == 0 ? "tuning" : "confirmation", worst);
            emit(buf);
        }
        std::snprintf(buf, sizeof buf,
                      "\nLibrary default two_stage_rule::recommended<%zu>(): distance <= %u, or distance <= %u and "
                      "similarity >= %.3f (short texts, fewer than %u tokens: always similarity >= %.3f). Recall per "
                      "kind:\n\n",
                      Bits, lib.accept_distance, lib.radius, lib.min_similarity, lib.short_features, lib.short_similarity);
        emit(buf);
        const rule_t alone{semfp::recommended_distance<Bits>, -1, -1};
        const auto t0 = per_kind(pairs, s, 0, chosen);
        const auto t1 = per_kind(pairs, s, 1, chosen);
        const auto a0 = per_kind(pairs, s, 0, alone);
        const auto a1 = per_kind(pairs, s, 1, alone);
        emit("| kind | pairs (tune / confirm) | two-stage tuning | two-stage confirmation | Simhash alone (d <= " +
             std::to_string(semfp::recommended_distance<Bits>) + ") confirmation |\n|---|---:|---:|---:|---:|\n");
        for (const auto& [kind, row] : t0) {
            const auto& c = t1.at(kind);
            const bool neg = kind == "negative" || kind == "site_negative";
            auto pct = [&](const table_row& x) {
                return x.n == 0 ? 0.0 : 100.0 * static_cast<double>(x.hit) / static_cast<double>(x.n);
            };
            if (neg) {
                std::snprintf(buf, sizeof buf, "| %s (false positives) | %zu / %zu | %zu | %zu | %zu |\n", kind.c_str(),
                              row.n, c.n, row.hit, c.hit, a1.at(kind).hit);
            } else {
                std::snprintf(buf, sizeof buf, "| %s | %zu / %zu | %.1f %% | %.1f %% | %.1f %% |\n", kind.c_str(), row.n,
                              c.n, pct(row), pct(c), pct(a1.at(kind)));
            }
            emit(buf);
        }
        (void)a0;
        emit("\n");
    };
    run(docs.s64);
    run(docs.s128);
    banding(pairs, docs, emit);
    radius_sweep<64>(pairs, docs.s64, emit);
    radius_sweep<128>(pairs, docs.s128, emit);

    whole_rule<64>("default signature", pairs, docs.s64, emit);
    whole_rule<128>("default signature", pairs, docs.s128, emit);
    {
        // 64 bits with the Taiwan vocabulary fold: in the fingerprint and the sketch (one
        // fused pass, as at 128 bits), and in the sketch only (the fingerprint stays the default).
        semfp::fingerprint_options fo = semfp::default_fingerprint_options<64>();
        fo.normalize.fold_phrases = true;
        const semfp::SignatureFingerprinter<semfp::default_tokenizer, semfp::default_hash, 64> folded{
            semfp::Fingerprinter<semfp::default_tokenizer, semfp::default_hash, 64>(semfp::default_tokenizer{}, fo)};
        const semfp::SignatureFingerprinter<semfp::default_tokenizer, semfp::default_hash, 64> sketch_fold{
            semfp::DefaultFingerprinter<64>{}, semfp::signature_options{true}};
        std::vector<semfp::Signature<64>> full;
        std::vector<semfp::Signature<64>> sketch_only;
        for (std::size_t i = 0; i < docs.texts.size(); ++i) {
            full.push_back(folded(docs.texts[i]));
            sketch_only.push_back(sketch_fold(docs.texts[i]));
            const semfp::Signature<64> joined{docs.s64[i].fingerprint, full.back().sketch};
            if (sketch_only.back() != joined)
                semfp::bench::die(program, "the one-pass sketch-only fold differs from its reference on document " +
                                               std::to_string(i));
        }
        whole_rule<64>("Taiwan vocabulary fold in fingerprint and sketch", pairs, full, emit);
        whole_rule<64>("Taiwan vocabulary fold in the sketch only", pairs, sketch_only, emit);
        semfp::two_stage_rule fixed = semfp::two_stage_rule::recommended<64>();
        fixed.accept_distance = 5;
        fixed.radius = 32;
        fixed.min_similarity = 0.653;
        fixed_rule<64>("Taiwan vocabulary fold in the sketch only (signature_options::sketch_fold_phrases)", pairs,
                       sketch_only, fixed, emit);

        // The union variant: the default fingerprint; the sketch of the set of the tokens of the
        // unfolded text U and of the phrase-folded text F (reference: two tokenizations, every
        // token of U then every token of F added to one sketcher). A text with fewer than
        // short_tokens tokens of U keeps the default sketch (short view of U), so every text is
        // short or long as with the default signature.
        std::vector<semfp::Signature<64>> with_union;
        std::string norm;
        for (std::size_t i = 0; i < docs.texts.size(); ++i) {
            semfp::MinHashSketcher unfolded_only;
            semfp::MinHashSketcher both;
            std::uint32_t tokens = 0;
            maker64.for_each_sketch_feature(docs.texts[i], norm, [&](std::string_view t) {
                unfolded_only.add_token(t);
                both.add_token(t);
                ++tokens;
            });
            if (tokens < semfp::MinHashSketcher::short_tokens) {
                with_union.push_back(docs.s64[i]);
                continue;
            }
            if (unfolded_only.finish() != docs.s64[i].sketch)
                semfp::bench::die(program, "the unfolded tokens do not give the default sketch on document " + std::to_string(i));
            folded.for_each_sketch_feature(docs.texts[i], norm, [&](std::string_view t) { both.add_token(t); });
            with_union.push_back({docs.s64[i].fingerprint, both.finish()});
        }
        semfp::two_stage_rule union_rule = semfp::two_stage_rule::recommended<64>();
        union_rule.accept_distance = 5;
        union_rule.radius = 32;
        union_rule = semfp::bench::derive_on_tuning_half(
            "union sketch (tokens of the unfolded and the phrase-folded text)", pairs, with_union, union_rule, emit);
        whole_rule<64>("union sketch of the unfolded and the phrase-folded tokens", pairs, with_union, emit);
        fixed_rule<64>("union sketch of the unfolded and the phrase-folded tokens", pairs, with_union, union_rule, emit);
    }
    {
        // The skip variant (support/two_stage_variants.hpp; pre-registered): the default
        // fingerprint; the sketch of the counted tokens that share no byte with a bigram of the
        // Taiwan vocabulary table (either side) in the unfolded normalized text.
        for (const bool variant_side_only : {false, true}) {
            const std::string title = variant_side_only ? "variant-vocabulary skip, variant side only" : "variant-vocabulary skip";
            semfp::bench::skip_stats st;
            const std::vector<semfp::Signature<64>> skip =
                semfp::bench::skip_variant_signatures(program, maker64, docs.texts, docs.s64, st, variant_side_only);
            if (variant_side_only) semfp::bench::require_library_skip(program, docs.texts, skip);
            std::snprintf(buf, sizeof buf,
                          "### 64 bits, %s\n\nLong texts: %zu of %zu counted tokens skipped (%.1f %%); %zu texts with a "
                          "changed sketch, %zu left with fewer than 30 tokens (default sketch kept).\n\n",
                          title.c_str(), st.skipped, st.tokens,
                          100.0 * static_cast<double>(st.skipped) / static_cast<double>(st.tokens), st.texts_skipping,
                          st.kept_default);
            emit(buf);
            semfp::two_stage_rule skip_rule = semfp::two_stage_rule::recommended<64>();
            skip_rule.accept_distance = 5;
            skip_rule.radius = 32;
            skip_rule = semfp::bench::derive_on_tuning_half(title, pairs, skip, skip_rule, emit);
            whole_rule<64>(title, pairs, skip, emit);
            fixed_rule<64>(title, pairs, skip, skip_rule, emit);
        }
    }

    // Sketch estimate against exact Jaccard of the same tokens, on a sample of pairs.
    {
        std::vector<double> err;
        for (std::size_t i = 0; i < pairs.size(); i += 97) {
            const double exact = maker64.exact_jaccard(docs.texts[pairs[i].a], docs.texts[pairs[i].b]);
            err.push_back(std::abs(semfp::estimated_jaccard(docs.s64[pairs[i].a].sketch, docs.s64[pairs[i].b].sketch) - exact));
        }
        std::sort(err.begin(), err.end());
        double mean = 0;
        for (const double e : err) mean += e;
        mean /= static_cast<double>(err.size());
        std::snprintf(buf, sizeof buf,
                      "Sketch estimate vs exact Jaccard of the tokens (%zu sampled pairs): mean |error| %.4f, median "
                      "%.4f, 99th percentile %.4f, max %.4f.\n",
                      err.size(), mean, err[err.size() / 2], err[err.size() * 99 / 100], err.back());
        emit(buf);
    }
    if (!out_path.empty()) {
        std::ofstream out(out_path);
        out << report;
    }
    return 0;
}
