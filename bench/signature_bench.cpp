// Exact-signature methods beside Simhash, in one run: documents per second of the default
// 128-bit Simhash (the baseline every ratio is taken against), exact signatures, keyword
// fingerprints (TF with bigrams; TF-IDF with dictionary words and the embedded IDF table, with
// and without the part-of-speech boost of the embedded jieba tags) and
// I-Match (1 and 10 lexicons); then the seen-stores: Bloom filter and FingerprintSet ns per
// operation (with bits per key as a counter), the flat FingerprintSet against the sorted-array
// set it replaced (support/sorted_fingerprint_set.hpp), and TF-IDF keywords against the former
// selection that looked the IDF up inside the sort comparator.
//
// Every benchmark runs 5 repetitions and reports the median (mean and spread too); at the end a
// summary prints each median with its ratio to the same-run baseline (Simhash 128 for docs/s,
// the sorted-array set for the stores).
//   semfp_signature_bench [CORPUS_DIR] [--benchmark_filter=...]
#include "support/corpus.hpp"
#include "support/sorted_fingerprint_set.hpp"

#include <semfp/dict/embedded.hpp>
#include <semfp/dict/embedded_idf.hpp>
#include <semfp/dict/embedded_pos.hpp>
#include <semfp/simhash.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
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

// TF-IDF keywords with the part-of-speech boost (nouns and proper nouns x2, verbs x1.5; the
// embedded jieba tags): one more hash lookup per distinct term. Same-run baseline:
// BM_KeywordFmmTfIdf.
void BM_KeywordFmmTfIdfPos(benchmark::State& state) {
    semfp::keyword_options o;
    o.count = static_cast<std::size_t>(state.range(0));
    o.idf = &semfp::embedded_idf_table();
    o.pos = &semfp::embedded_pos_table();
    o.boost = {2.0, 2.0, 1.5};
    const semfp::KeywordFingerprinter<semfp::FmmSegmenter> fp(semfp::FmmSegmenter(semfp::embedded_dictionary()), o);
    run_docs(state, [&](std::string_view t) { return fp(t); });
}

// The TF-IDF keyword fingerprint as it was before the weights were computed once per term: the
// same normalization, counting and hashing, with the IDF looked up in the partial_sort
// comparator (two hash lookups per comparison). Same-run baseline of BM_KeywordFmmTfIdf.
struct lookup_in_comparator {
    const semfp::FmmSegmenter* tok;
    const semfp::IdfTable* idf;
    std::size_t count;
    semfp::Fingerprint<128> operator()(std::string_view text) const {
        thread_local semfp::keyword_scratch s;
        semfp::normalize_into(text, s.text, semfp::default_fingerprint_options<128>().normalize);
        s.tokens.clear();
        tok->tokenize(std::string_view(s.text), [&](std::string_view t) {
            std::size_t cps = 0;
            for (const char ch : t) cps += (static_cast<unsigned char>(ch) & 0xC0) != 0x80 ? 1u : 0u;
            if (cps >= 2) s.tokens.push_back(t);
        });
        std::sort(s.tokens.begin(), s.tokens.end());
        s.terms.clear();
        for (const std::string_view t : s.tokens) {
            if (!s.terms.empty() && s.terms.back().first == t) ++s.terms.back().second;
            else s.terms.emplace_back(t, 1u);
        }
        s.order.resize(s.terms.size());
        for (std::size_t i = 0; i < s.order.size(); ++i) s.order[i] = i;
        const std::size_t kept = std::min(count, s.terms.size());
        const auto w = [&](std::size_t i) { return static_cast<double>(s.terms[i].second) * idf->idf(s.terms[i].first); };
        std::partial_sort(s.order.begin(), s.order.begin() + static_cast<std::ptrdiff_t>(kept), s.order.end(),
                          [&](std::size_t a, std::size_t b) { return w(a) != w(b) ? w(a) > w(b) : a < b; });
        std::sort(s.order.begin(), s.order.begin() + static_cast<std::ptrdiff_t>(kept));
        if (kept == 0) return semfp::digest_fingerprint<semfp::Md5>(s.text);
        s.key.clear();
        for (std::size_t i = 0; i < kept; ++i) {
            s.key.append(s.terms[s.order[i]].first);
            s.key.push_back('\n');
        }
        return semfp::digest_fingerprint<semfp::Md5>(s.key);
    }
};

void BM_KeywordFmmTfIdfFormer(benchmark::State& state) {
    const semfp::FmmSegmenter tok(semfp::embedded_dictionary());
    const lookup_in_comparator fp{&tok, &semfp::embedded_idf_table(), static_cast<std::size_t>(state.range(0))};
    // The baseline must compute the same fingerprints as the library.
    semfp::keyword_options o;
    o.count = fp.count;
    o.idf = fp.idf;
    const semfp::KeywordFingerprinter<semfp::FmmSegmenter> lib(tok, o);
    for (const auto& d : g_docs)
        if (lib(d.text) != fp(d.text)) {
            state.SkipWithError("former TF-IDF selection disagrees with the library");
            return;
        }
    run_docs(state, fp);
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

template <class Set>
void BM_SetInsert(benchmark::State& state) {
    const auto k = keys(1'000'000, 1);
    for (auto _ : state) {
        Set s;
        for (const auto& x : k) s.insert(x);
        benchmark::DoNotOptimize(s.size());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * k.size()));
}

// Queries of 1M keys against a set of 1M: absent keys (range 0) or present ones (range 1).
template <class Set>
void BM_SetQuery(benchmark::State& state) {
    const auto k = keys(1'000'000, 1);
    const auto probe = state.range(0) == 0 ? keys(1'000'000, 2) : k;
    Set s;
    for (const auto& x : k) s.insert(x);
    std::size_t hits = 0;
    for (auto _ : state)
        for (const auto& x : probe) hits += s.contains(x) ? 1u : 0u;
    benchmark::DoNotOptimize(hits);
    if constexpr (requires { s.capacity(); })
        state.counters["bits_per_key"] = static_cast<double>(s.capacity()) * 128.0 / static_cast<double>(s.size());
    else
        state.counters["bits_per_key"] = 128;  // + the recent-insertion hash set between compactions
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * probe.size()));
}

void BM_FingerprintSetInsert(benchmark::State& state) { BM_SetInsert<semfp::FingerprintSet<128>>(state); }
void BM_FingerprintSetQuery(benchmark::State& state) { BM_SetQuery<semfp::FingerprintSet<128>>(state); }
void BM_SortedSetInsert(benchmark::State& state) { BM_SetInsert<semfp::bench::SortedFingerprintSet<128>>(state); }
void BM_SortedSetQuery(benchmark::State& state) { BM_SetQuery<semfp::bench::SortedFingerprintSet<128>>(state); }

// Collects the median of every benchmark for the closing summary.
class SummaryReporter : public benchmark::ConsoleReporter {
public:
    void ReportRuns(const std::vector<Run>& runs) override {
        ConsoleReporter::ReportRuns(runs);
        for (const auto& r : runs) {
            if (r.aggregate_name != "median") continue;
            auto& m = medians[r.benchmark_name()];
            const auto items = r.counters.find("items_per_second");
            m.per_second = items != r.counters.end() ? static_cast<double>(items->second) : 0.0;
            for (const auto& [name, c] : r.counters)
                if (name != "items_per_second") m.counters += " " + name + "=" + std::to_string(static_cast<double>(c));
        }
    }
    struct median {
        double per_second = 0;
        std::string counters;
    };
    std::map<std::string, median> medians;
};

double median_rate(const SummaryReporter& rep, const std::string& prefix) {
    for (const auto& [name, m] : rep.medians)
        if (name.rfind(prefix, 0) == 0) return m.per_second;
    return 0;
}

}  // namespace

#define SEMFP_REPS Repetitions(5)->ReportAggregatesOnly(true)
BENCHMARK(BM_Simhash128)->Unit(benchmark::kMillisecond)->SEMFP_REPS;
BENCHMARK(BM_Exact)->Unit(benchmark::kMillisecond)->SEMFP_REPS;
BENCHMARK(BM_KeywordBigramTf)->Arg(8)->Arg(32)->Unit(benchmark::kMillisecond)->SEMFP_REPS;
BENCHMARK(BM_KeywordFmmTfIdf)->Arg(8)->Unit(benchmark::kMillisecond)->SEMFP_REPS;
BENCHMARK(BM_KeywordFmmTfIdfPos)->Arg(8)->Unit(benchmark::kMillisecond)->SEMFP_REPS;
BENCHMARK(BM_KeywordFmmTfIdfFormer)->Arg(8)->Unit(benchmark::kMillisecond)->SEMFP_REPS;
BENCHMARK(BM_IMatchFmm)->Arg(1)->Arg(10)->Unit(benchmark::kMillisecond)->SEMFP_REPS;
BENCHMARK(BM_BloomInsert)->Arg(10)->Arg(1)->Unit(benchmark::kMillisecond)->SEMFP_REPS;
BENCHMARK(BM_BloomQuery)->Arg(10)->Arg(1)->Unit(benchmark::kMillisecond)->SEMFP_REPS;
BENCHMARK(BM_FingerprintSetInsert)->Unit(benchmark::kMillisecond)->SEMFP_REPS;
BENCHMARK(BM_SortedSetInsert)->Unit(benchmark::kMillisecond)->SEMFP_REPS;
BENCHMARK(BM_FingerprintSetQuery)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->SEMFP_REPS;
BENCHMARK(BM_SortedSetQuery)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->SEMFP_REPS;

int main(int argc, char** argv) {
    const auto dir = semfp::bench::corpus_dir(argc, argv);
    g_docs = semfp::bench::load_corpus(dir / "manpages_zh_cn.jsonl");
    for (const auto& d : g_docs) g_bytes += d.text.size();
    (void)semfp::embedded_dictionary();
    (void)semfp::embedded_idf_table();
    (void)semfp::embedded_pos_table();
    std::printf("corpus: %zu documents, %.1f MB\n", g_docs.size(), static_cast<double>(g_bytes) / 1e6);
    benchmark::Initialize(&argc, argv);
    SummaryReporter rep;
    benchmark::RunSpecifiedBenchmarks(&rep);
    benchmark::Shutdown();

    // Summary: medians of 5, ratios to the same-run baseline.
    const double simhash = median_rate(rep, "BM_Simhash128");
    std::printf("\nsummary (medians of 5 repetitions)\n%-44s %14s %10s  %s\n", "benchmark", "per second", "ratio", "counters");
    for (const auto& [name, m] : rep.medians) {
        double base = simhash;
        if (name.find("SetInsert") != std::string::npos) base = median_rate(rep, "BM_SortedSetInsert");
        else if (name.find("SetQuery") != std::string::npos)
            base = median_rate(rep, name.find("/1") != std::string::npos ? "BM_SortedSetQuery/1" : "BM_SortedSetQuery/0");
        else if (name.find("Bloom") != std::string::npos)
            base = median_rate(rep, name.find("Insert") != std::string::npos ? "BM_SortedSetInsert" : "BM_SortedSetQuery/0");
        const double ns = m.per_second > 0 ? 1e9 / m.per_second : 0;
        std::printf("%-44s %14.1f %10.3f  (%.1f ns/item)%s\n", name.c_str(), m.per_second,
                    base > 0 ? m.per_second / base : 0.0, ns, m.counters.c_str());
    }
    return 0;
}
