// Cost of the baselines next to Simhash on the same corpus and tokens (character bigrams):
// documents/s to build a 64-bit Simhash fingerprint, a ShingleSet (3-shingles) and a 128-value
// MinHash signature; comparisons/s of Hamming distance, exact Jaccard and the signature estimate.
//   semfp_baseline_bench [CORPUS_DIR] [--benchmark_repetitions=5 --benchmark_report_aggregates_only=true]
// bench/baseline_ratios.py turns the JSON output into ratios of medians measured in one run.
#include "support/corpus.hpp"

#include <semfp/baseline/minhash.hpp>
#include <semfp/baseline/shingle.hpp>
#include <semfp/simhash.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

namespace {

std::vector<semfp::bench::document> g_docs;
std::size_t g_bytes = 0;

using Bigram = semfp::CharBigramTokenizer;
const semfp::Fingerprinter<Bigram, semfp::default_hash, 64> g_fingerprinter{};
const semfp::Shingler<Bigram, semfp::default_hash> g_shingler{};

std::vector<semfp::Fingerprint<64>> g_fps;
std::vector<semfp::ShingleSet> g_sets;
std::vector<semfp::MinHash<128>> g_sigs;

// Pairs compared: every document with 64 others spread over the corpus.
constexpr std::size_t partners = 64;
[[nodiscard]] std::size_t partner(std::size_t i, std::size_t k, std::size_t n) { return (i + 1 + k * 37) % n; }

void set_doc_counters(benchmark::State& state) {
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * g_docs.size()));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * g_bytes));
}

void BM_Build_Simhash64(benchmark::State& state) {
    semfp::fingerprint_scratch scratch;
    for (auto _ : state)
        for (const auto& d : g_docs) benchmark::DoNotOptimize(g_fingerprinter(d.text, scratch));
    set_doc_counters(state);
}

// Variants of the Simhash pipeline weighed in bench/results/quality_dev.md: the bundled stopword
// filter over the bigrams, and sub-linear TF (which sorts each document's term hashes).
template <bool Stopwords, bool Sublinear>
void BM_Build_Simhash64Variant(benchmark::State& state) {
    semfp::fingerprint_options o;
    if (Sublinear) o.tf = semfp::tf_scaling::sublinear;
    using Tok = std::conditional_t<Stopwords, semfp::StopwordFilter<Bigram>, Bigram>;
    const semfp::Fingerprinter<Tok, semfp::default_hash, 64> fp(Tok{}, o);
    semfp::fingerprint_scratch scratch;
    for (auto _ : state)
        for (const auto& d : g_docs) benchmark::DoNotOptimize(fp(d.text, scratch));
    set_doc_counters(state);
}

void BM_Build_ShingleSet(benchmark::State& state) {
    semfp::shingle_scratch scratch;
    for (auto _ : state)
        for (const auto& d : g_docs) benchmark::DoNotOptimize(g_shingler(d.text, scratch));
    set_doc_counters(state);
}

// Text -> shingles -> signature: what a MinHash pipeline pays per document.
void BM_Build_MinHash128(benchmark::State& state) {
    semfp::shingle_scratch scratch;
    for (auto _ : state)
        for (const auto& d : g_docs) benchmark::DoNotOptimize(semfp::MinHash<128>(g_shingler(d.text, scratch)));
    set_doc_counters(state);
}

// The signature step alone, from shingle sets already built.
void BM_Build_MinHash128FromSet(benchmark::State& state) {
    for (auto _ : state)
        for (const auto& s : g_sets) benchmark::DoNotOptimize(semfp::MinHash<128>(s));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * g_sets.size()));
}

template <class F>
void compare_all(benchmark::State& state, F f) {
    const std::size_t n = g_docs.size();
    for (auto _ : state) {
        double sink = 0;
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t k = 0; k < partners; ++k) sink += f(i, partner(i, k, n));
        benchmark::DoNotOptimize(sink);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n * partners));
}

void BM_Compare_Hamming64(benchmark::State& state) {
    compare_all(state, [](std::size_t a, std::size_t b) { return semfp::hamming_distance(g_fps[a], g_fps[b]); });
}

void BM_Compare_ExactJaccard(benchmark::State& state) {
    compare_all(state, [](std::size_t a, std::size_t b) { return semfp::jaccard(g_sets[a], g_sets[b]); });
}

void BM_Compare_MinHashEstimate(benchmark::State& state) {
    compare_all(state, [](std::size_t a, std::size_t b) { return semfp::estimate_jaccard(g_sigs[a], g_sigs[b]); });
}

BENCHMARK(BM_Build_Simhash64)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_Build_Simhash64Variant, true, false)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_Build_Simhash64Variant, false, true)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_Build_Simhash64Variant, true, true)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Build_ShingleSet)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Build_MinHash128)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Build_MinHash128FromSet)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Compare_Hamming64)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Compare_ExactJaccard)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Compare_MinHashEstimate)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
    const auto dir = semfp::bench::corpus_dir(argc, argv);
    g_docs = semfp::bench::load_corpus(dir / "manpages_zh_cn.jsonl");
    if (g_docs.size() < 2) {
        std::fprintf(stderr, "semfp_baseline_bench: need at least 2 documents in %s\n", dir.string().c_str());
        return 2;
    }
    std::size_t shingles = 0;
    for (const auto& d : g_docs) {
        g_bytes += d.text.size();
        g_fps.push_back(g_fingerprinter(d.text));
        g_sets.push_back(g_shingler(d.text));
        g_sigs.emplace_back(g_sets.back());
        shingles += g_sets.back().size();
    }
    std::printf("corpus: %zu documents, %.1f MB, %.0f distinct bigram 3-shingles per document\n", g_docs.size(),
                static_cast<double>(g_bytes) / 1e6, static_cast<double>(shingles) / static_cast<double>(g_docs.size()));
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
