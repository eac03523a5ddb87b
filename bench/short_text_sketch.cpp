// The b-bit MinHash sketch of the two-stage rule (core/sketch.hpp: 128 bins of 8 bits + a
// 4-byte feature count, 132 bytes) against a bottom-k sketch of the same size (the 32 smallest
// distinct 32-bit feature hashes + a 4-byte count, 132 bytes) on the same pairs: the error of
// each estimate against the exact Jaccard similarity of the token sets (the default pipeline's
// features, as SignatureFingerprinter::exact_jaccard computes it).
//
//   semfp_short_text_sketch PAIRS.jsonl DOCS.jsonl
//
// Reads the files bench/short_text_quality.py writes, or the kit's DEV pairs (HTML documents through
// semfp::extract_main_text; bench/support/dev_pairs.hpp). Prints one
// Markdown table: per pair kind, the mean absolute error, the root mean square error, the 95th
// percentile and the maximum of |estimate - exact| for both sketches.
#include <semfp/core/fingerprinter.hpp>
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
    std::vector<double> bbit, bottom;
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
    return head + stats(e.bbit) + stats(e.bottom) + "\n";
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
                const std::uint64_t h = semfp::MinHashSketcher::feature_hash(t);
                d.features.push_back(h);
                sk.add_hash(h);
            });
            d.sketch = sk.finish();
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
        const double e1 = std::fabs(semfp::estimated_jaccard(a.sketch, b.sketch) - exact);
        const double e2 = std::fabs(bottom_k_jaccard(a.bottom, b.bottom) - exact);
        for (errors* e : {&by_kind[p.kind], p.positive ? &all_pos : &all_neg}) {
            e->bbit.push_back(e1);
            e->bottom.push_back(e2);
            ++e->n;
            e->mean_j += exact;
        }
    }
    std::printf(
        "| kind | pairs | mean exact J | b-bit MinHash: mean abs err | RMSE | p95 | max | bottom-32: mean abs err | "
        "RMSE | p95 | max |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (auto& [kind, e] : by_kind) std::fputs(row(kind, e).c_str(), stdout);
    if (all_pos.n > 0) std::fputs(row("all positives", all_pos).c_str(), stdout);
    if (all_neg.n > 0) std::fputs(row("all negatives", all_neg).c_str(), stdout);
    return 0;
}
