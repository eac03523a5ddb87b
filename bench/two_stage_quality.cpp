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
#include <semfp/core/signature.hpp>
#include <semfp/index/hamming_index.hpp>

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

constexpr std::string_view program = "semfp_two_stage_quality";

using pair_row = semfp::bench::dev_pair;

struct docs_t {
    std::vector<std::string> texts;
    std::vector<semfp::Signature<64>> s64;
    std::vector<semfp::Signature<128>> s128;
};

struct scored {
    bool lib;  // accepted by the library's two_stage_rule::recommended<Bits>()
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
    for (const auto& p : pairs) {
        const auto& x = sig[p.a];
        const auto& y = sig[p.b];
        const unsigned d = semfp::hamming_distance(x.fingerprint, y.fingerprint);
        out.push_back({semfp::two_stage_rule::recommended<Bits>().accepts(d, x.sketch, y.sketch), d,
                       semfp::estimated_jaccard(x.sketch, y.sketch),
                       x.sketch.features() < short_features || y.sketch.features() < short_features});
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
                      "similarity >= %.2f (short texts, fewer than %u tokens: always similarity >= %.2f). Recall per "
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
