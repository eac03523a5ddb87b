// Property on real text: over the documents of the shared corpus, the mean Hamming distance
// between a document's fingerprint and that of a randomly edited copy grows with the edit size,
// and unedited copies are at distance 0. Registered as a ctest only when the corpus exists.
//   semfp_corpus_property CORPUS_DIR
#include "../../bench/support/corpus.hpp"
#include "../support/edits.hpp"

#include <semfp/simhash.hpp>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace {

template <std::size_t Bits>
bool check(const std::vector<semfp::bench::document>& docs) {
    std::mt19937 rng(2013);
    const double sizes[] = {0.0, 0.01, 0.05, 0.1, 0.2, 0.4};
    double previous = -1;
    bool ok = true;
    for (double size : sizes) {
        double sum = 0;
        for (const auto& d : docs)
            sum += semfp::hamming_distance(semfp::fingerprint<Bits>(d.text),
                                           semfp::fingerprint<Bits>(semfp_test::substitute_han(d.text, size, rng)));
        const double mean = sum / static_cast<double>(docs.size());
        std::printf("%3zu bits, substitute %4.0f%% of Han characters: mean distance %6.2f\n", Bits, size * 100, mean);
        if (size == 0.0 && mean != 0.0) ok = false;
        if (mean <= previous) ok = false;
        previous = mean;
    }
    return ok;
}

}  // namespace

int main(int argc, char** argv) {
    auto docs = semfp::bench::load_corpus(semfp::bench::corpus_dir(argc, argv) / "manpages_zh_cn.jsonl");
    if (docs.size() > 200) docs.resize(200);
    if (docs.empty()) {
        std::fprintf(stderr, "no documents\n");
        return 1;
    }
    const bool ok = check<64>(docs) && check<128>(docs);
    std::puts(ok ? "property holds" : "property VIOLATED");
    return ok ? 0 : 1;
}
