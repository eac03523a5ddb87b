// The b-bit MinHash sketch of the two-stage rule (core/sketch.hpp: 128 bins of 8 bits + a
// 4-byte feature count, 132 bytes) against a bottom-k sketch of the same size (the 32 smallest
// distinct 32-bit feature hashes + a 4-byte count, 132 bytes) on the same pairs: the error of
// each estimate against the exact Jaccard similarity of the feature sets (the default pipeline's
// tokens, or a short text's character bigrams, as SignatureFingerprinter::exact_jaccard computes it).
//
//   semfp_short_text_sketch PAIRS.jsonl DOCS.jsonl
//
// Reads the files bench/short_text_quality.py writes, or the kit's DEV pairs (HTML documents through
// semfp::extract_main_text; bench/support/dev_pairs.hpp). Prints one
// Markdown table: per pair kind, the mean absolute error, the root mean square error, the 95th
// percentile and the maximum of |estimate - exact| for both sketches.
#include <semfp/core/fingerprinter.hpp>
#include <semfp/core/signature.hpp>
#include <semfp/core/sketch.hpp>

#include "support/dev_pairs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

constexpr std::string_view program = "semfp_short_text_sketch";

constexpr std::size_t bottom_k = 32;

struct doc {
    std::vector<std::uint64_t> features;  // sorted unique feature hashes
    semfp::MinHashSketch sketch;
    std::vector<std::uint32_t> bottom;  // the bottom_k smallest distinct 32-bit hashes, sorted
};

double exact_jaccard(const std::vector<std::uint64_t>& x, const std::vector<std::uint64_t>& y) {
    if (x.empty() && y.empty()) return 1.0;
    std::size_t common = 0;
    for (std::size_t i = 0, j = 0; i < x.size() && j < y.size();) {
        if (x[i] == y[j]) {
            ++common;
            ++i;
            ++j;
        } else if (x[i] < y[j]) {
            ++i;
        } else {
            ++j;
        }
    }
    return static_cast<double>(common) / static_cast<double>(x.size() + y.size() - common);
}

// Bottom-k estimate: among the k smallest values of the union of the two sketches, the share
// present in both (exact when both sets have fewer than k distinct values).
double bottom_k_jaccard(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
    if (a.empty() && b.empty()) return 1.0;
    std::size_t taken = 0, both = 0;
    std::size_t i = 0, j = 0;
    while (taken < bottom_k && (i < a.size() || j < b.size())) {
        if (j >= b.size() || (i < a.size() && a[i] < b[j])) {
            ++i;
        } else if (i >= a.size() || b[j] < a[i]) {
            ++j;
        } else {
            ++both;
            ++i;
            ++j;
        }
        ++taken;
    }
    return static_cast<double>(both) / static_cast<double>(taken);
}

struct errors {
    std::vector<double> bbit, hybrid, bottom;
    std::size_t n = 0;
    double mean_j = 0;
};

std::string row(const std::string& kind, errors& e) {
    auto stats = [](std::vector<double>& v) {
        double sum = 0, sq = 0;
        for (const double x : v) {
            sum += x;
            sq += x * x;
        }
        std::sort(v.begin(), v.end());
        const double n = static_cast<double>(v.size());
        const double p95 = v[std::min(v.size() - 1, static_cast<std::size_t>(0.95 * n))];
        char buf[128];
        std::snprintf(buf, sizeof buf, " %.3f | %.3f | %.3f | %.3f |", sum / n, std::sqrt(sq / n), p95, v.back());
        return std::string(buf);
    };
    char head[160];
    std::snprintf(head, sizeof head, "| %s | %zu | %.3f |", kind.c_str(), e.n, e.mean_j / static_cast<double>(e.n));
    return head + stats(e.bbit) + stats(e.hybrid) + stats(e.bottom) + "\n";
}

// The short-text rule over every pair of documents inside each half (documents with "group",
// "site" and "half" fields, as bench/short_text_quality.py writes them). A candidate rule is the
// library's recommended<64>() with short_features S and short_similarity t in place of its own;
// for each S of a grid, t is the smallest multiple of 0.01 without a false positive (plain or
// same-site) on the tuning half, if any; the rule that accepts the most tuning positives wins
// (ties: the smaller S). Both halves are reported for it and for the library's values.
void tune_short_rule(const std::string& docs_path, const semfp::bench::dev_docs& dev) {
    struct meta {
        long long group;
        std::string site;
        int half;
    };
    std::vector<meta> m(dev.texts.size());
    {
        std::ifstream in(docs_path);
        std::string line;
        std::size_t i = 0;
        while (std::getline(in, line)) {
            if (line.empty()) continue;
            const auto j = nlohmann::json::parse(line);
            if (!j.contains("group") || !j.contains("half") || !j["group"].is_number()) return;
            if (i < m.size()) m[i] = {j["group"].get<long long>(), j.value("site", std::string()), j["half"].get<int>()};
            ++i;
        }
    }
    const semfp::SignatureFingerprinter<> maker;
    std::vector<semfp::Signature<64>> sig;
    sig.reserve(dev.texts.size());
    for (const auto& t : dev.texts) sig.push_back(maker(t));
    const semfp::two_stage_rule lib = semfp::two_stage_rule::recommended<64>();
    struct cand {
        unsigned d;
        double j;
        std::uint32_t min_features;
        bool positive;
        bool same_site;
        int half;
        std::uint32_t a, b;
    };
    // Pairs inside one half that some rule of the grid could accept: within the radius, or
    // (short pairs are decided by the sketch at any distance) a similarity of at least 0.3.
    std::vector<cand> c;
    std::size_t positives[2] = {0, 0};
    for (std::size_t a = 0; a < sig.size(); ++a)
        for (std::size_t b = a + 1; b < sig.size(); ++b) {
            if (m[a].half != m[b].half || m[a].half < 0 || m[a].half > 1) continue;
            const bool positive = m[a].group == m[b].group;
            positives[m[a].half] += positive ? 1u : 0u;
            const unsigned d = semfp::hamming_distance(sig[a].fingerprint, sig[b].fingerprint);
            const double j = semfp::estimated_jaccard(sig[a].sketch, sig[b].sketch);
            if (d > lib.radius && j < 0.3) continue;
            c.push_back({d, j,
                         std::min(sig[a].sketch.features(), sig[b].sketch.features()), positive,
                         m[a].site == m[b].site, m[a].half, static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b)});
        }
    struct outcome {
        std::size_t hits = 0, fp_plain = 0, fp_site = 0;
    };
    auto evaluate = [&](const semfp::two_stage_rule& r, int half) {
        outcome o;
        for (const cand& x : c) {
            if (x.half != half) continue;
            // two_stage_rule::accepts with the candidate's values.
            const bool is_short = x.min_features < r.short_features;
            const bool ok = is_short ? x.j >= r.short_similarity
                                     : x.d <= r.radius && (x.d <= r.accept_distance || x.j >= r.min_similarity);
            if (!ok) continue;
            if (x.positive)
                ++o.hits;
            else
                ++(x.same_site ? o.fp_site : o.fp_plain);
        }
        return o;
    };
    auto pct = [&](std::size_t n, int half) { return 100.0 * static_cast<double>(n) / static_cast<double>(positives[half]); };
    std::printf(
        "\nShort-text rule on every pair of documents inside each half (%zu / %zu positive pairs; short pairs at "
        "any distance, others within %u of 64 bits):\n\n"
        "| short_features | zero-FP short_similarity (tuning) | tuning: positives | FP plain / same-site | "
        "confirmation: positives | FP plain / same-site |\n|---:|---:|---:|---:|---:|---:|\n",
        positives[0], positives[1], lib.radius);
    semfp::two_stage_rule best = lib;
    std::size_t best_hits = 0;
    bool found = false;
    for (const std::uint32_t sf : {30u, 40u, 50u, 60u, 80u, 100u, 150u, 200u, 400u}) {
        semfp::two_stage_rule r = lib;
        r.short_features = sf;
        bool ok = false;
        for (int ti = 30; ti <= 100 && !ok; ++ti) {
            r.short_similarity = ti / 100.0;
            const outcome o = evaluate(r, 0);
            ok = o.fp_plain + o.fp_site == 0;
        }
        if (!ok) r.short_similarity = 1.01;
        const outcome t0 = evaluate(r, 0);
        const outcome t1 = evaluate(r, 1);
        std::printf("| %u | %s%.2f | %zu (%.1f %%) | %zu / %zu | %zu (%.1f %%) | %zu / %zu |\n", sf, ok ? "" : "none, ",
                    r.short_similarity, t0.hits, pct(t0.hits, 0), t0.fp_plain, t0.fp_site, t1.hits, pct(t1.hits, 1),
                    t1.fp_plain, t1.fp_site);
        if (ok && t0.fp_plain + t0.fp_site == 0 && (!found || t0.hits > best_hits)) {
            best = r;
            best_hits = t0.hits;
            found = true;
        }
    }
    // The library's short_features with thresholds around the chosen one: the margin on both halves.
    std::printf("\nshort_features %u, short_similarity varied:\n\n| short_similarity | tuning: positives | FP plain / "
                "same-site | confirmation: positives | FP plain / same-site |\n|---:|---:|---:|---:|---:|\n",
                lib.short_features);
    for (int ti = 66; ti <= 86; ti += 2) {
        semfp::two_stage_rule r = lib;
        r.short_similarity = ti / 100.0;
        const outcome t0 = evaluate(r, 0);
        const outcome t1 = evaluate(r, 1);
        std::printf("| %.2f | %zu (%.1f %%) | %zu / %zu | %zu (%.1f %%) | %zu / %zu |\n", r.short_similarity, t0.hits,
                    pct(t0.hits, 0), t0.fp_plain, t0.fp_site, t1.hits, pct(t1.hits, 1), t1.fp_plain, t1.fp_site);
    }
    // The closest negatives: what a zero-FP short threshold has to stay above.
    {
        std::vector<const cand*> neg;
        for (const cand& x : c)
            if (!x.positive) neg.push_back(&x);
        std::sort(neg.begin(), neg.end(), [](const cand* x, const cand* y) { return x->j > y->j; });
        std::printf("\nThe closest negatives (similarity, distance, tokens of the shorter text, texts):\n\n"
                    "| half | similarity | distance | tokens | site | text A | text B |\n|---:|---:|---:|---:|---|---|---|\n");
        auto clip = [](std::string t) {
            for (char& ch : t)
                if (ch == '\n' || ch == '|') ch = ' ';
            std::size_t cut = 0, cps = 0;
            while (cut < t.size() && cps < 40) {
                const auto u = static_cast<unsigned char>(t[cut]);
                cut += u < 0x80 ? 1 : u < 0xE0 ? 2 : u < 0xF0 ? 3 : 4;
                ++cps;
            }
            return cut < t.size() ? t.substr(0, cut) + "..." : t;
        };
        for (std::size_t i = 0; i < neg.size() && i < 12; ++i)
            std::printf("| %d | %.3f | %u | %u | %s | %s | %s |\n", neg[i]->half, neg[i]->j, neg[i]->d, neg[i]->min_features,
                        neg[i]->same_site ? "same" : "other", clip(dev.texts[neg[i]->a]).c_str(),
                        clip(dev.texts[neg[i]->b]).c_str());
    }
    const outcome l0 = evaluate(lib, 0);
    const outcome l1 = evaluate(lib, 1);
    std::printf("\nLibrary rule (short_features %u, short_similarity %.2f): tuning %zu (%.1f %%), FP %zu / %zu; "
                "confirmation %zu (%.1f %%), FP %zu / %zu.\n",
                lib.short_features, lib.short_similarity, l0.hits, pct(l0.hits, 0), l0.fp_plain, l0.fp_site, l1.hits,
                pct(l1.hits, 1), l1.fp_plain, l1.fp_site);
    if (found)
        std::printf("Chosen on the tuning half: short_features %u, short_similarity %.2f.\n", best.short_features,
                    best.short_similarity);
    else
        std::printf("No short-text rule of the grid has zero false positives on the tuning half.\n");
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) semfp::bench::die(program, "usage: semfp_short_text_sketch PAIRS.jsonl DOCS.jsonl");
    const semfp::Fingerprinter<> fp;
    const semfp::bench::dev_docs dev = semfp::bench::read_dev_docs(program, argv[2]);
    std::vector<doc> docs(dev.texts.size());
    {
        std::string norm;
        for (std::size_t i = 0; i < docs.size(); ++i) {
            doc& d = docs[i];
            semfp::MinHashSketcher sk;
            fp.for_each_feature(dev.texts[i], norm, [&](std::string_view t) {
                d.features.push_back(semfp::MinHashSketcher::token_hash(t));
                sk.add_token(t);
            });
            // The features of the view the sketch holds (MinHashSketcher::short_tokens): a short
            // text's are the character bigrams of its normalized text.
            if (!d.features.empty() && sk.is_short()) {
                d.features.clear();
                semfp::MinHashSketcher::for_each_text_bigram(norm, [&d](std::uint64_t h) { d.features.push_back(h); });
            }
            d.sketch = sk.finish(norm);
            std::sort(d.features.begin(), d.features.end());
            d.features.erase(std::unique(d.features.begin(), d.features.end()), d.features.end());
            for (const std::uint64_t h : d.features) d.bottom.push_back(static_cast<std::uint32_t>(h >> 32));
            std::sort(d.bottom.begin(), d.bottom.end());
            d.bottom.erase(std::unique(d.bottom.begin(), d.bottom.end()), d.bottom.end());
            if (d.bottom.size() > bottom_k) d.bottom.resize(bottom_k);
        }
    }
    std::map<std::string, errors> by_kind;
    errors all_pos, all_neg;
    for (const semfp::bench::dev_pair& p : semfp::bench::read_dev_pairs(program, argv[1], dev)) {
        const doc& a = docs[p.a];
        const doc& b = docs[p.b];
        const double exact = exact_jaccard(a.features, b.features);
        // The b-bit MinHash alone: the bins of the sketch (computed for an exact one).
        const semfp::MinHashSketch ma(a.sketch.values(), a.sketch.features());
        const semfp::MinHashSketch mb(b.sketch.values(), b.sketch.features());
        const double e1 = std::fabs(semfp::estimated_jaccard(ma, mb) - exact);
        const double e3 = std::fabs(semfp::estimated_jaccard(a.sketch, b.sketch) - exact);
        const double e2 = std::fabs(bottom_k_jaccard(a.bottom, b.bottom) - exact);
        for (errors* e : {&by_kind[p.kind], p.positive ? &all_pos : &all_neg}) {
            e->bbit.push_back(e1);
            e->hybrid.push_back(e3);
            e->bottom.push_back(e2);
            ++e->n;
            e->mean_j += exact;
        }
    }
    std::printf(
        "| kind | pairs | mean exact J | b-bit MinHash: mean abs err | RMSE | p95 | max | hybrid (semfp): mean abs "
        "err | RMSE | p95 | max | bottom-32: mean abs err | RMSE | p95 | max |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (auto& [kind, e] : by_kind) std::fputs(row(kind, e).c_str(), stdout);
    if (all_pos.n > 0) std::fputs(row("all positives", all_pos).c_str(), stdout);
    if (all_neg.n > 0) std::fputs(row("all negatives", all_neg).c_str(), stdout);
    tune_short_rule(argv[2], dev);
    return 0;
}
