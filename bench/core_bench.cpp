// Core throughput: hash policies, Simhash accumulation, end-to-end fingerprinting, UTF-8
// validation (`utf8::is_valid` against the decode walk it replaced, in the same run).
//   semfp_core_bench [CORPUS_DIR] [--benchmark_repetitions=5 --benchmark_report_aggregates_only=true]
#include "support/corpus.hpp"

#include <semfp/simhash.hpp>
#include <semfp/text/utf8.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

std::vector<semfp::bench::document> g_docs;
std::vector<std::string> g_tokens;  // the bigram tokens of the corpus (mostly 6-byte CJK bigrams)
std::size_t g_bytes = 0;

template <class Hash, std::size_t Bits>
void BM_Hash(benchmark::State& state) {
    std::uint64_t sink = 0;
    std::size_t bytes = 0;
    for (auto _ : state) {
        for (const auto& t : g_tokens) {
            if constexpr (Bits == 64) sink += Hash::hash64(t);
            else sink += Hash::hash128(t).hi;
            bytes += t.size();
        }
    }
    benchmark::DoNotOptimize(sink);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * g_tokens.size()));
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
}

// Baseline for the accumulation: the textbook loop with a branch per bit and signed votes.
template <std::size_t Bits>
void BM_SimhashTextbook(benchmark::State& state) {
    std::mt19937_64 rng(1);
    std::vector<std::uint64_t> hashes(1 << 16);
    for (auto& h : hashes) h = rng();
    for (auto _ : state) {
        std::int64_t v[Bits] = {};
        for (std::size_t f = 0; f < hashes.size(); f += Bits / 64) {
            for (std::size_t w = 0; w < Bits / 64; ++w)
                for (std::size_t i = 0; i < 64; ++i) {
                    if ((hashes[f + w] >> i) & 1u) v[w * 64 + i] += 3;
                    else v[w * 64 + i] -= 3;
                }
        }
        benchmark::DoNotOptimize(v);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * hashes.size() / (Bits / 64)));
}

template <std::size_t Bits>
void BM_SimhashAccumulate(benchmark::State& state) {
    using F = semfp::Fingerprint<Bits>;
    std::mt19937_64 rng(1);
    std::vector<typename F::storage_type> hashes(1 << 16 >> (Bits / 64 - 1));
    for (auto& h : hashes)
        for (auto& w : h) w = rng();
    for (auto _ : state) {
        semfp::Simhash<Bits> acc;
        for (const auto& h : hashes) acc.add_hashed(h, 3);
        benchmark::DoNotOptimize(acc.finish());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * hashes.size()));
}

template <class Tok>
void BM_Tokenize(benchmark::State& state) {
    const Tok tok{};
    std::string norm;
    for (auto _ : state) {
        std::size_t n = 0;
        for (const auto& d : g_docs) {
            semfp::normalize_into(d.text, norm);
            tok.tokenize(norm, [&](std::string_view t) { n += t.size(); });
        }
        benchmark::DoNotOptimize(n);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * g_bytes));
}

template <class FP>
void BM_Fingerprint(benchmark::State& state) {
    const FP fp{};
    semfp::fingerprint_scratch scratch;
    for (auto _ : state) {
        for (const auto& d : g_docs) benchmark::DoNotOptimize(fp(d.text, scratch));
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * g_bytes));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * g_docs.size()));
}

// Baseline of UTF-8 validation: a walk that decodes every non-ASCII character (what
// `utf8::is_valid` did before it validated without decoding).
void BM_Utf8DecodeWalk(benchmark::State& state) {
    for (auto _ : state) {
        std::size_t valid = 0;
        for (const auto& d : g_docs) {
            const std::string_view s(d.text);
            bool ok = true;
            for (std::size_t i = 0; i < s.size() && ok;) {
                if (static_cast<unsigned char>(s[i]) < 0x80) {
                    ++i;
                    continue;
                }
                const semfp::utf8::decoded c = semfp::utf8::decode(s, i);
                ok = c.valid;
                i += c.length;
            }
            valid += ok ? 1u : 0u;
        }
        benchmark::DoNotOptimize(valid);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * g_bytes));
}

void BM_Utf8IsValid(benchmark::State& state) {
    for (auto _ : state) {
        std::size_t valid = 0;
        for (const auto& d : g_docs) valid += semfp::utf8::is_valid(d.text) ? 1u : 0u;
        benchmark::DoNotOptimize(valid);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * g_bytes));
}

using semfp::CharBigramTokenizer;
using semfp::Fingerprinter;

BENCHMARK_TEMPLATE(BM_Hash, semfp::Sdbm, 64);
BENCHMARK_TEMPLATE(BM_Hash, semfp::Mixed<semfp::Sdbm>, 64);
BENCHMARK_TEMPLATE(BM_Hash, semfp::Fnv1a, 64);
BENCHMARK_TEMPLATE(BM_Hash, semfp::Mixed<semfp::Fnv1a>, 64);
BENCHMARK_TEMPLATE(BM_Hash, semfp::Murmur3, 64);
BENCHMARK_TEMPLATE(BM_Hash, semfp::Mixed<semfp::Murmur3>, 64);
BENCHMARK_TEMPLATE(BM_Hash, semfp::Sdbm, 128);
BENCHMARK_TEMPLATE(BM_Hash, semfp::Fnv1a, 128);
BENCHMARK_TEMPLATE(BM_Hash, semfp::Murmur3, 128);
BENCHMARK_TEMPLATE(BM_SimhashTextbook, 64);
BENCHMARK_TEMPLATE(BM_SimhashAccumulate, 64);
BENCHMARK_TEMPLATE(BM_SimhashTextbook, 128);
BENCHMARK_TEMPLATE(BM_SimhashAccumulate, 128);
BENCHMARK(BM_Utf8DecodeWalk);
BENCHMARK(BM_Utf8IsValid);
BENCHMARK_TEMPLATE(BM_Tokenize, CharBigramTokenizer);
BENCHMARK_TEMPLATE(BM_Fingerprint, Fingerprinter<CharBigramTokenizer, semfp::default_hash, 64>);
BENCHMARK_TEMPLATE(BM_Fingerprint, Fingerprinter<CharBigramTokenizer, semfp::default_hash, 128>);
BENCHMARK_TEMPLATE(BM_Fingerprint, Fingerprinter<CharBigramTokenizer, semfp::Mixed<semfp::Sdbm>, 64>);
BENCHMARK_TEMPLATE(BM_Fingerprint, Fingerprinter<semfp::StopwordFilter<CharBigramTokenizer>, semfp::default_hash, 64>);

}  // namespace

int main(int argc, char** argv) {
    const auto dir = semfp::bench::corpus_dir(argc, argv);
    g_docs = semfp::bench::load_corpus(dir / "manpages_zh_cn.jsonl");
    for (const auto& d : g_docs) g_bytes += d.text.size();
    std::string norm;
    for (const auto& d : g_docs) {
        semfp::normalize_into(d.text, norm);
        semfp::CharBigramTokenizer{}.tokenize(norm, [&](std::string_view t) { g_tokens.emplace_back(t); });
    }
    std::printf("corpus: %zu documents, %.1f MB, %zu bigram tokens\n", g_docs.size(), static_cast<double>(g_bytes) / 1e6,
                g_tokens.size());
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
