// Exact-signature methods beside Simhash, in one run: documents per second of the default
// 128-bit Simhash (the baseline every ratio is taken against), exact signatures, keyword
// fingerprints (TF with bigrams; TF-IDF with dictionary words and the embedded IDF table) and
// I-Match (1 and 10 lexicons); then the seen-stores: Bloom filter and FingerprintSet ns per
// operation (with bits per key as a counter).
//   semfp_signature_bench [CORPUS_DIR] [--benchmark_repetitions=5 --benchmark_report_aggregates_only=true]
#include "support/corpus.hpp"

#include <semfp/dict/embedded.hpp>
#include <semfp/dict/embedded_idf.hpp>
#include <semfp/simhash.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

std::vector<semfp::bench::document> g_docs;
std::size_t g_bytes = 0;

template <class F>
void run_docs(benchmark::State& state, const F& sign) {
    for (auto _ : state)
        for (const auto& d : g_docs) benchmark::DoNotOptimize(sign(d.text));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * g_docs.size()));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * g_bytes));
}

void BM_Simhash128(benchmark::State& state) {
    run_docs(state, [](std::string_view t) { return semfp::fingerprint<128>(t); });
}

void BM_Exact(benchmark::State& state) {
    run_docs(state, [](std::string_view t) { return semfp::exact_signature(t); });
}

void BM_KeywordBigramTf(benchmark::State& state) {
    semfp::keyword_options o;
    o.count = static_cast<std::size_t>(state.range(0));
    const semfp::KeywordFingerprinter<semfp::default_tokenizer> fp(semfp::default_tokenizer{}, o);
    run_docs(state, [&](std::string_view t) { return fp(t); });
}

void BM_KeywordFmmTfIdf(benchmark::State& state) {
    semfp::keyword_options o;
    o.count = static_cast<std::size_t>(state.range(0));
    o.idf = &semfp::embedded_idf_table();
    const semfp::KeywordFingerprinter<semfp::FmmSegmenter> fp(semfp::FmmSegmenter(semfp::embedded_dictionary()), o);
    run_docs(state, [&](std::string_view t) { return fp(t); });
}

void BM_IMatchFmm(benchmark::State& state) {
    semfp::imatch_options o;
    o.min_idf = 6.0;
    o.max_idf = 12.0;
    o.lexicons = static_cast<std::size_t>(state.range(0));
    const semfp::IMatch<semfp::FmmSegmenter> im(semfp::embedded_idf_table(), semfp::FmmSegmenter(semfp::embedded_dictionary()), o);
    std::vector<semfp::Fingerprint<128>> out(o.lexicons);
    run_docs(state, [&](std::string_view t) {
        im.signatures_into(t, out);
        return out[0];
    });
}

std::vector<semfp::Fingerprint<128>> keys(std::size_t n, std::uint64_t salt) {
    std::vector<semfp::Fingerprint<128>> out;
    out.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        const auto h = semfp::Murmur3::hash128_seeded(std::to_string(i), salt);
        out.emplace_back(semfp::Fingerprint<128>::storage_type{h.hi, h.lo});
    }
    return out;
}

// Bloom filter for 1M keys at the given rate (per mille): inserts, then queries of absent keys.
void BM_BloomInsert(benchmark::State& state) {
    const auto k = keys(1'000'000, 1);
    const double p = static_cast<double>(state.range(0)) / 1000.0;
    for (auto _ : state) {
        auto f = semfp::BloomFilter::for_capacity(k.size(), p);
        for (const auto& x : k) f.insert(x);
        benchmark::DoNotOptimize(f.size());
        state.counters["bits_per_key"] = static_cast<double>(f.bit_count()) / static_cast<double>(k.size());
        state.counters["hashes"] = f.hash_count();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * k.size()));
}

void BM_BloomQuery(benchmark::State& state) {
    const auto k = keys(1'000'000, 1);
    const auto absent = keys(1'000'000, 2);
    auto f = semfp::BloomFilter::for_capacity(k.size(), static_cast<double>(state.range(0)) / 1000.0);
    for (const auto& x : k) f.insert(x);
    std::size_t hits = 0;
    for (auto _ : state)
        for (const auto& x : absent) hits += f.maybe_contains(x) ? 1u : 0u;
    state.counters["measured_fpr"] = static_cast<double>(hits) / static_cast<double>(state.iterations() * absent.size());
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * absent.size()));
}

void BM_FingerprintSetInsert(benchmark::State& state) {
    const auto k = keys(1'000'000, 1);
    for (auto _ : state) {
        semfp::FingerprintSet<128> s;
        for (const auto& x : k) s.insert(x);
        benchmark::DoNotOptimize(s.size());
    }
    state.counters["bits_per_key"] = 128;
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * k.size()));
}

void BM_FingerprintSetQuery(benchmark::State& state) {
    const auto k = keys(1'000'000, 1);
    const auto absent = keys(1'000'000, 2);
    semfp::FingerprintSet<128> s;
    for (const auto& x : k) s.insert(x);
    std::size_t hits = 0;
    for (auto _ : state)
        for (const auto& x : absent) hits += s.contains(x) ? 1u : 0u;
    benchmark::DoNotOptimize(hits);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * absent.size()));
}

}  // namespace

BENCHMARK(BM_Simhash128)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Exact)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_KeywordBigramTf)->Arg(8)->Arg(32)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_KeywordFmmTfIdf)->Arg(8)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_IMatchFmm)->Arg(1)->Arg(10)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BloomInsert)->Arg(10)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BloomQuery)->Arg(10)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FingerprintSetInsert)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FingerprintSetQuery)->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
    const auto dir = semfp::bench::corpus_dir(argc, argv);
    g_docs = semfp::bench::load_corpus(dir / "manpages_zh_cn.jsonl");
    for (const auto& d : g_docs) g_bytes += d.text.size();
    (void)semfp::embedded_dictionary();
    (void)semfp::embedded_idf_table();
    std::printf("corpus: %zu documents, %.1f MB\n", g_docs.size(), static_cast<double>(g_bytes) / 1e6);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
