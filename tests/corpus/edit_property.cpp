// Property on real text: over the documents of the shared corpus, the mean Hamming distance
// between a document's fingerprint and that of a randomly edited copy grows with the edit size,
// and unedited copies are at distance 0. Registered as a ctest only when the corpus exists.
//   semfp_corpus_property CORPUS_DIR
#include "../../bench/support/corpus.hpp"

#include <semfp/simhash.hpp>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace {

// Substitutes `fraction` of the Han characters with random Han characters.
std::string substitute(const std::string& text, double fraction, std::mt19937& rng) {
    std::u32string cps;
    for (auto d : semfp::utf8::code_points(text)) cps.push_back(d.code_point);
    std::vector<std::size_t> han;
    for (std::size_t i = 0; i < cps.size(); ++i)
        if (semfp::is_han(cps[i])) han.push_back(i);
    std::shuffle(han.begin(), han.end(), rng);
    std::uniform_int_distribution<std::uint32_t> pick(0x4E00, 0x9FA5);
    const auto n = static_cast<std::size_t>(fraction * static_cast<double>(han.size()));
    for (std::size_t i = 0; i < n; ++i) cps[han[i]] = pick(rng);
    std::string out;
    for (char32_t c : cps) semfp::utf8::append(out, c);
    return out;
}

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
                                           semfp::fingerprint<Bits>(substitute(d.text, size, rng)));
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
