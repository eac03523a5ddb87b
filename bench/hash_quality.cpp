// Bit balance of fingerprints over the corpus, per hash policy: how far each fingerprint bit is
// from being set in half of the documents, and how far apart distinct documents are.
//   semfp_hash_quality [CORPUS_DIR]
#include "support/corpus.hpp"

#include <semfp/simhash.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

template <class Hash, std::size_t Bits>
void report(const char* name, const std::vector<semfp::bench::document>& docs) {
    // Character folding only, at both widths, so that the widths compare hashes alone.
    const semfp::Fingerprinter<semfp::CharBigramTokenizer, Hash, Bits> fp(semfp::CharBigramTokenizer{}, semfp::fingerprint_options{});
    std::vector<semfp::Fingerprint<Bits>> fps;
    for (const auto& d : docs) fps.push_back(fp(d.text));
    std::vector<double> ones(Bits, 0);
    for (const auto& f : fps)
        for (std::size_t i = 0; i < Bits; ++i) ones[i] += f.bit(i) ? 1 : 0;
    double worst = 0;
    int skewed = 0;
    for (auto& o : ones) {
        o /= static_cast<double>(fps.size());
        worst = std::max(worst, std::abs(o - 0.5));
        if (o < 0.4 || o > 0.6) ++skewed;
    }
    // Distances between distinct documents (the corpus has no exact duplicates among pages with
    // different ids, but some real near-duplicates): mean, and how many pairs fall within 3 / 10.
    double sum = 0;
    std::size_t pairs = 0, within3 = 0, within10 = 0;
    for (std::size_t a = 0; a < fps.size(); ++a)
        for (std::size_t b = a + 1; b < fps.size(); ++b) {
            const unsigned d = semfp::hamming_distance(fps[a], fps[b]);
            sum += d;
            ++pairs;
            within3 += d <= 3;
            within10 += d <= Bits / 6;
        }
    std::printf("| %-22s | %3zu | %5.3f | %3d | %6.2f | %5zu | %6zu |\n", name, Bits, worst, skewed,
                sum / static_cast<double>(pairs), within3, within10);
}

}  // namespace

int main(int argc, char** argv) {
    const auto docs = semfp::bench::load_corpus(semfp::bench::corpus_dir(argc, argv) / "manpages_zh_cn.jsonl");
    std::printf("%zu documents, char-bigram tokens, raw TF\n\n", docs.size());
    std::printf("| hash                   | bits | max abs(p-0.5) | bits outside [0.4,0.6] | mean distance | pairs <= 3 | pairs <= bits/6 |\n");
    std::printf("|---|---|---|---|---|---|---|\n");
    report<semfp::Sdbm, 64>("Sdbm (paper, raw)", docs);
    report<semfp::Mixed<semfp::Sdbm>, 64>("Mixed<Sdbm>", docs);
    report<semfp::Fnv1a, 64>("Fnv1a (raw)", docs);
    report<semfp::Mixed<semfp::Fnv1a>, 64>("Mixed<Fnv1a>", docs);
    report<semfp::Murmur3, 64>("Murmur3", docs);
    report<semfp::Mixed<semfp::Murmur3>, 64>("Mixed<Murmur3>", docs);
    report<semfp::Sdbm, 128>("Sdbm (paper, raw)", docs);
    report<semfp::Mixed<semfp::Sdbm>, 128>("Mixed<Sdbm>", docs);
    report<semfp::Fnv1a, 128>("Fnv1a (raw)", docs);
    report<semfp::Murmur3, 128>("Murmur3", docs);
    report<semfp::Mixed<semfp::Murmur3>, 128>("Mixed<Murmur3>", docs);
    return 0;
}
