// Costs of two-stage detection, each against its baseline measured in the same run:
//  - BM_Fingerprint / BM_Signature: fingerprint alone vs fingerprint + MinHash sketch, on the
//    corpus (bytes per second; the ratio is the sketch's cost); BM_SignatureReference: the
//    step-by-step signature path (SignatureFingerprinter::reference) the fused one replaced;
//  - BM_QueryRadius: one HammingIndex query (default layout, 1 M entries, half of them near
//    copies) against the radius, from the paper's 3 to max_radius;
//  - BM_Cluster: Single-Pass clustering of 100 k and 1 M signatures (half random, half near
//    copies: up to 16 bits flipped and up to 40 of 128 sketch bins changed) in three modes:
//    0 = fingerprints at recommended_distance, no verifier (the baseline); 1 = the exact
//    two-stage search, SinglePassClusterer at the radius with the sketch verifier (the 1 M run
//    takes minutes: filter it out for a quick run); 2 = TwoStageClusterer, the banded candidate
//    stage (exact search at the accept distance + SketchBandIndex) deciding by the same rule.
// Quote medians of --benchmark_repetitions=5 (bench/results/two_stage.md).
#include <semfp/core/signature.hpp>
#include <semfp/index/hamming_index.hpp>
#include <semfp/index/single_pass_clusterer.hpp>
#include <semfp/index/two_stage_clusterer.hpp>

#include "support/corpus.hpp"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

namespace {

std::vector<semfp::bench::document> g_docs;
std::size_t g_bytes = 0;

template <std::size_t Bits>
void BM_Fingerprint(benchmark::State& state) {
    const semfp::DefaultFingerprinter<Bits> fp{};
    semfp::fingerprint_scratch scratch;
    for (auto _ : state)
        for (const auto& d : g_docs) benchmark::DoNotOptimize(fp(d.text, scratch));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * g_bytes));
}

template <std::size_t Bits>
void BM_Signature(benchmark::State& state) {
    const semfp::SignatureFingerprinter<semfp::default_tokenizer, semfp::default_hash, Bits> maker{};
    semfp::fingerprint_scratch scratch;
    for (auto _ : state)
        for (const auto& d : g_docs) benchmark::DoNotOptimize(maker(d.text, scratch));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * g_bytes));
}

/// The step-by-step signature (normalize, tokenize, Simhash and sketch each token): the path
/// the fused one replaced, kept as its reference.
template <std::size_t Bits>
void BM_SignatureReference(benchmark::State& state) {
    const semfp::SignatureFingerprinter<semfp::default_tokenizer, semfp::default_hash, Bits> maker{};
    semfp::fingerprint_scratch scratch;
    for (auto _ : state)
        for (const auto& d : g_docs) benchmark::DoNotOptimize(maker.reference(d.text, scratch));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * g_bytes));
}

/// Random fingerprints, half of them near copies (up to `flips` bits) of an earlier one.
template <std::size_t Bits>
std::vector<semfp::Fingerprint<Bits>> make_data(std::size_t n, unsigned flips, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<semfp::Fingerprint<Bits>> fps;
    fps.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        std::array<std::uint64_t, Bits / 64> w{};
        if (i > 0 && rng() % 2 == 0) {
            w = fps[rng() % i].data();
            for (auto f = rng() % (flips + 1); f > 0; --f) {
                const auto b = rng() % Bits;
                w[b / 64] ^= std::uint64_t{1} << (b % 64);
            }
        } else {
            for (auto& x : w) x = rng();
        }
        fps.emplace_back(w);
    }
    return fps;
}

template <std::size_t Bits>
void BM_QueryRadius(benchmark::State& state) {
    const auto k = static_cast<unsigned>(state.range(0));
    constexpr std::size_t n = 1'000'000;
    static const auto fps = make_data<Bits>(n, Bits / 4, 3);
    static const auto index = [] {
        semfp::HammingIndex<Bits> ix;
        for (std::size_t i = 0; i < n; ++i) ix.insert(fps[i], i);
        return ix;
    }();
    const auto queries = make_data<Bits>(4096, Bits / 4, 5);
    std::size_t hits = 0;
    std::size_t q = 0;
    for (auto _ : state) {
        index.for_each_within(queries[q++ % queries.size()], k, [&](const semfp::hamming_match&) { ++hits; });
        // Near copies of stored entries as well as random fingerprints.
        index.for_each_within(fps[(q * 7919) % n], k, [&](const semfp::hamming_match&) { ++hits; });
    }
    benchmark::DoNotOptimize(hits);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * 2));
    state.counters["hits_per_query"] = static_cast<double>(hits) / static_cast<double>(2 * state.iterations());
}

/// Signatures: half random, half near copies of an earlier one (up to 16 bits flipped, up to
/// 40 bins of the sketch changed).
std::vector<semfp::Signature<64>> make_signatures(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<semfp::Signature<64>> out;
    out.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        semfp::Signature<64> s;
        if (i > 0 && rng() % 2 == 0) {
            s = out[rng() % i];
            std::uint64_t w = s.fingerprint.word(0);
            for (auto f = rng() % 17; f > 0; --f) w ^= std::uint64_t{1} << (rng() % 64);
            s.fingerprint = semfp::Fingerprint<64>(w);
            auto bins = s.sketch.values();
            for (auto c = rng() % 41; c > 0; --c) bins[rng() % bins.size()] = static_cast<std::uint8_t>(rng());
            s.sketch = semfp::MinHashSketch(bins, s.sketch.features());
        } else {
            s.fingerprint = semfp::Fingerprint<64>(rng());
            semfp::MinHashSketch::bins_type bins{};
            for (auto& b : bins) b = static_cast<std::uint8_t>(rng());
            s.sketch = semfp::MinHashSketch(bins, 200);
        }
        out.push_back(s);
    }
    return out;
}

/// range(0): 0 = recommended_distance without a verifier, 1 = exact radius search with the
/// verifier (at the rule's exact_search_radius, 12), 2 = banded candidate stage (TwoStageClusterer); range(1) signatures.
void BM_Cluster(benchmark::State& state) {
    const auto mode = state.range(0);
    const auto n = static_cast<std::size_t>(state.range(1));
    const auto sigs = make_signatures(n, 9);
    const auto rule = semfp::two_stage_rule::recommended<64>();
    std::size_t clusters = 0;
    for (auto _ : state) {
        if (mode == 1) {
            semfp::SinglePassClusterer<64> spc({rule.exact_search_radius<64>(), semfp::match_policy::centres});
            for (std::size_t i = 0; i < n; ++i)
                spc.add(sigs[i].fingerprint, i,
                        [&](std::uint64_t c, unsigned d) { return rule.accepts(d, sigs[c].sketch, sigs[i].sketch); });
            clusters = spc.cluster_count();
        } else if (mode == 2) {
            semfp::TwoStageClusterer<64> tsc;
            for (std::size_t i = 0; i < n; ++i) tsc.add(sigs[i], i);
            clusters = tsc.cluster_count();
        } else {
            semfp::SinglePassClusterer<64> spc;
            for (std::size_t i = 0; i < n; ++i) spc.add(sigs[i].fingerprint, i);
            clusters = spc.cluster_count();
        }
    }
    state.counters["clusters"] = static_cast<double>(clusters);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

BENCHMARK_TEMPLATE(BM_Fingerprint, 64);
BENCHMARK_TEMPLATE(BM_Signature, 64);
BENCHMARK_TEMPLATE(BM_SignatureReference, 64);
BENCHMARK_TEMPLATE(BM_Fingerprint, 128);
BENCHMARK_TEMPLATE(BM_Signature, 128);
BENCHMARK_TEMPLATE(BM_SignatureReference, 128);
BENCHMARK_TEMPLATE(BM_QueryRadius, 64)->Arg(3)->Arg(5)->Arg(7)->Arg(9)->Arg(12)->Arg(14)->Arg(16);
BENCHMARK_TEMPLATE(BM_QueryRadius, 128)->Arg(7)->Arg(15)->Arg(20)->Arg(24)->Arg(28)->Arg(32);
BENCHMARK(BM_Cluster)
    ->Args({0, 100000})
    ->Args({1, 100000})
    ->Args({2, 100000})
    ->Args({0, 1000000})
    ->Args({2, 1000000})
    ->Args({1, 1000000})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

}  // namespace

int main(int argc, char** argv) {
    const auto dir = semfp::bench::corpus_dir(argc, argv);
    g_docs = semfp::bench::load_corpus(dir / "manpages_zh_cn.jsonl");
    for (const auto& d : g_docs) g_bytes += d.text.size();
    std::printf("corpus: %zu documents, %.1f MB\n", g_docs.size(), static_cast<double>(g_bytes) / 1e6);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
