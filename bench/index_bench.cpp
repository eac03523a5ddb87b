// Index and Single-Pass clustering throughput on synthetic fingerprints (no corpus needed).
//   semfp_index_bench [--large] [--benchmark_filter=...]
//
// Data: N 64-bit fingerprints; 10% are copies of a uniformly chosen earlier one with 0-3 random
// bit flips, the rest uniformly random (fixed seed); ids ascend. Default run (~1 minute):
// Single-Pass at N = 100 k and 1 M, the linear-scan clusterer at N = 100 k (full run,
// assignments compared), the clusterer-against-clusterer comparison at 100 k and 1 M centres
// (see BM_QueryVsLinearScan), query latency against 1 M entries for three block layouts.
// `--large` adds N = 10 M and query latency against 10 M entries (needs about 1 GB).
//
// Counters: ns_per_fp (wall time per fingerprint, stream generation excluded), centres,
// index_B_per_fp (bytes held by the clusterer / N), peak_rss_B_per_fp (peak resident set of the
// process / N; the Single-Pass input is streamed, but everything run before counts), speedup
// (linear / index time per added fingerprint: the median of five interleaved rounds),
// query_speedup (per isolated query), mismatches
// (must be 0), p50_ns / p99_ns / mean_ns (single-query latency), insert_ns.
#include <semfp/index/hamming_index.hpp>
#include <semfp/index/single_pass_clusterer.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <span>
#include <string>
#include <vector>

#if defined(__linux__) || defined(__APPLE__)
#include <sys/resource.h>
#endif

namespace {

using FP = semfp::Fingerprint64;
constexpr unsigned hd = 3;

std::vector<FP> make_data(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<FP> fps;
    fps.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (i > 0 && rng() % 10 == 0) {
            std::uint64_t x = fps[rng() % i].value();
            const auto flips = rng() % 4;
            for (std::uint64_t f = 0; f < flips; ++f) x ^= std::uint64_t{1} << (rng() % 64);
            fps.emplace_back(x);
        } else {
            fps.emplace_back(rng());
        }
    }
    return fps;
}

std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/// The same distribution as `make_data`, computed per position (counter-based), so that a
/// stream of any length needs no memory: fingerprint i is a copy (10%) of a uniformly chosen
/// earlier one with 0-3 bit flips, else uniformly random.
struct fingerprint_stream {
    std::uint64_t seed;
    [[nodiscard]] std::uint64_t at(std::uint64_t i) const {
        const std::uint64_t h = splitmix64(seed ^ splitmix64(i));
        if (i == 0 || h % 10 != 0) return splitmix64(h ^ 0x5555);
        std::uint64_t x = at(splitmix64(h ^ 1) % i);
        for (std::uint64_t f = 0, flips = (h >> 32) % 4; f < flips; ++f) x ^= std::uint64_t{1} << (splitmix64(h + 2 + f) % 64);
        return x;
    }
};

double peak_rss_bytes() {
#if defined(__linux__)
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_maxrss) * 1024.0;
#elif defined(__APPLE__)
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_maxrss);
#else
    return 0;
#endif
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/// The straightforward clusterer: every new fingerprint is compared with every centre. Built
/// with the popcount instruction where the compiler allows it, so that the speedup is not
/// inflated by a library-call popcount.
struct linear_clusterer {
    std::vector<std::uint64_t> centre_fp;
    std::vector<std::uint64_t> centre_id;

#if defined(__GNUC__) && defined(__x86_64__)
    __attribute__((target("popcnt")))
#endif
    std::pair<std::size_t, unsigned> nearest(std::uint64_t x) const {
        std::size_t best = centre_fp.size();
        unsigned best_d = hd + 1;
        for (std::size_t c = 0; c < centre_fp.size(); ++c) {
            const auto d = static_cast<unsigned>(std::popcount(centre_fp[c] ^ x));
            if (d < best_d) {
                best_d = d;
                best = c;
            }
        }
        return {best, best_d};
    }
    std::uint64_t add(std::uint64_t x, std::uint64_t id) {
        const auto [c, d] = nearest(x);
        if (c != centre_fp.size()) return centre_id[c];
        centre_fp.push_back(x);
        centre_id.push_back(id);
        return id;
    }
};

/// Single-Pass over a stream of N fingerprints, fed in batches of 64 Ki as a document pipeline
/// would (the input is not held in memory, so peak RSS is the clusterer's own).
void BM_SinglePass(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    const fingerprint_stream stream{42};
    std::vector<FP> batch;
    std::size_t centres = 0;
    std::size_t bytes = 0;
    double seconds = 0;
    for (auto _ : state) {
        double generating = 0;
        const auto t0 = std::chrono::steady_clock::now();
        semfp::SinglePassClusterer<64> spc(semfp::cluster_options::paper());
        for (std::size_t first = 0; first < n; first += 65536) {
            const auto g0 = std::chrono::steady_clock::now();
            batch.clear();
            for (std::size_t i = first; i < std::min(n, first + 65536); ++i) batch.emplace_back(stream.at(i));
            generating += std::chrono::duration<double>(std::chrono::steady_clock::now() - g0).count();
            spc.add_range(batch, first);
        }
        // Time spent generating the stream is not the clusterer's.
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() - generating;
        centres = spc.cluster_count();
        bytes = spc.memory_usage();
        benchmark::DoNotOptimize(centres);
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));
    state.counters["centres"] = static_cast<double>(centres);
    state.counters["index_B_per_fp"] = static_cast<double>(bytes) / static_cast<double>(n);
    state.counters["peak_rss_B_per_fp"] = peak_rss_bytes() / static_cast<double>(n);
    state.counters["ns_per_fp"] = seconds * 1e9 / static_cast<double>(n);
}

/// Full run of both clusterers; assignments must be identical.
void BM_LinearVsIndex(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    const auto fps = make_data(n, 7);
    double linear_s = 0;
    double index_s = 0;
    std::size_t mismatches = 0;
    for (auto _ : state) {
        const auto t0 = std::chrono::steady_clock::now();
        linear_clusterer lin;
        std::vector<std::uint64_t> lin_cluster(n);
        for (std::size_t i = 0; i < n; ++i) lin_cluster[i] = lin.add(fps[i].value(), i);
        const auto t1 = std::chrono::steady_clock::now();
        semfp::SinglePassClusterer<64> spc(semfp::cluster_options::paper());
        std::vector<std::uint64_t> idx_cluster(n);
        for (std::size_t i = 0; i < n; ++i) idx_cluster[i] = spc.add(fps[i], i).cluster;
        const auto t2 = std::chrono::steady_clock::now();
        linear_s = std::chrono::duration<double>(t1 - t0).count();
        index_s = std::chrono::duration<double>(t2 - t1).count();
        mismatches = 0;
        for (std::size_t i = 0; i < n; ++i) mismatches += lin_cluster[i] != idx_cluster[i];
    }
    state.counters["linear_s"] = linear_s;
    state.counters["index_s"] = index_s;
    state.counters["speedup"] = linear_s / index_s;
    state.counters["mismatches"] = static_cast<double>(mismatches);
}

/// Single-Pass state with about `range(0)` centres; a sample of new fingerprints (half near
/// copies, half random) is clustered by both clusterers: the linear one scans all centres for
/// each, `SinglePassClusterer::add_range` uses the index. Both must assign identically;
/// `speedup` is the ratio of their times per added fingerprint. `query_speedup` compares a
/// linear scan with one isolated `HammingIndex::for_each_within` call per fingerprint (no
/// batching, so memory latency is not hidden).
void BM_QueryVsLinearScan(benchmark::State& state) {
    const auto target_centres = static_cast<std::size_t>(state.range(0));
    const auto fps = make_data(target_centres + target_centres / 8, 9);
    semfp::SinglePassClusterer<64> spc(semfp::cluster_options::paper());
    spc.add_range(fps);
    linear_clusterer lin;
    semfp::HammingIndex<64> index(hd);
    for (const auto& c : spc.centres()) {
        lin.centre_fp.push_back(c.fingerprint.value());
        lin.centre_id.push_back(c.id);
    }
    // The linear clusterer's tie rule is "earliest centre": order its centres by id (= arrival).
    std::vector<std::size_t> order(lin.centre_fp.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return lin.centre_id[a] < lin.centre_id[b]; });
    linear_clusterer sorted;
    for (const auto i : order) {
        sorted.centre_fp.push_back(lin.centre_fp[i]);
        sorted.centre_id.push_back(lin.centre_id[i]);
        index.insert(FP(lin.centre_fp[i]), lin.centre_id[i]);
    }
    std::mt19937_64 rng(5);
    std::vector<std::uint64_t> queries;
    for (int i = 0; i < 2000; ++i) {
        std::uint64_t x = i % 2 == 0 ? sorted.centre_fp[rng() % sorted.centre_fp.size()] : rng();
        if (i % 2 == 0)
            for (std::uint64_t f = rng() % 4; f > 0; --f) x ^= std::uint64_t{1} << (rng() % 64);
        queries.push_back(x);
    }
    double linear_ns = 0;
    double index_ns = 0;
    double linear_add_ns = 0;
    double index_add_ns = 0;
    double add_speedup = 0;
    std::size_t mismatches = 0;
    for (auto _ : state) {
        mismatches = 0;
        // Clusterer against clusterer: add the sample as new documents.
        linear_clusterer lin_copy = sorted;
        auto& spc_copy = spc;  // the benchmark runs once (Iterations(1)): add to the original
        // The index adds 100 k new fingerprints (the query sample first): 2,000 index adds
        // take about a millisecond, too short to time on a noisy machine. The linear clusterer
        // adds the first 2,000 (each scans every centre); assignments are compared on those.
        std::vector<FP> sample(queries.begin(), queries.end());
        for (std::size_t i = queries.size(); i < 100'000; ++i) {
            std::uint64_t x = i % 2 == 0 ? sorted.centre_fp[rng() % sorted.centre_fp.size()] : rng();
            if (i % 2 == 0)
                for (std::uint64_t f = rng() % 4; f > 0; --f) x ^= std::uint64_t{1} << (rng() % 64);
            sample.emplace_back(x);
        }
        const std::uint64_t first_id = fps.size();
        // Five rounds, each an index batch (20 k adds) then a linear batch (400 adds), so that
        // both see the same machine load; the median round's ratio is the speedup (the machine
        // is shared and noisy).
        constexpr std::size_t rounds = 5;
        std::vector<double> index_batch_ns;
        std::vector<double> linear_batch_ns;
        std::vector<double> ratios;
        std::vector<std::uint64_t> lin_cluster;
        const std::size_t index_batch = sample.size() / rounds;
        const std::size_t linear_batch = queries.size() / rounds;
        for (std::size_t b = 0; b < rounds; ++b) {
            const auto part = std::span<const FP>(sample).subspan(b * index_batch, index_batch);
            const auto t3 = std::chrono::steady_clock::now();
            spc_copy.add_range(part, first_id + b * index_batch);
            const auto t4 = std::chrono::steady_clock::now();
            // Linear adds must follow the same order of ids: the sample's first 2,000 are all
            // in the first index batch.
            for (std::size_t i = b * linear_batch; i < (b + 1) * linear_batch; ++i)
                lin_cluster.push_back(lin_copy.add(queries[i], first_id + i));
            const auto t5 = std::chrono::steady_clock::now();
            index_batch_ns.push_back(std::chrono::duration<double, std::nano>(t4 - t3).count() / static_cast<double>(index_batch));
            linear_batch_ns.push_back(std::chrono::duration<double, std::nano>(t5 - t4).count() / static_cast<double>(linear_batch));
            ratios.push_back(linear_batch_ns.back() / index_batch_ns.back());
        }
        for (std::size_t i = 0; i < queries.size(); ++i) mismatches += spc_copy.cluster_of(first_id + i) != lin_cluster[i];
        index_add_ns = median(index_batch_ns);
        linear_add_ns = median(linear_batch_ns);
        add_speedup = median(ratios);
        std::vector<std::uint64_t> lin_answer;
        std::vector<std::uint64_t> idx_answer;
        const auto t0 = std::chrono::steady_clock::now();
        for (const auto q : queries) {
            const auto [c, d] = sorted.nearest(q);
            lin_answer.push_back(c == sorted.centre_fp.size() ? ~0ull : sorted.centre_id[c]);
        }
        const auto t1 = std::chrono::steady_clock::now();
        for (const auto q : queries) {
            std::uint64_t best = ~0ull;
            unsigned best_d = hd + 1;
            index.for_each_within(FP(q), hd, [&](const semfp::hamming_match& m) {
                if (m.distance < best_d || (m.distance == best_d && m.id < best)) {
                    best_d = m.distance;
                    best = m.id;
                }
            });
            idx_answer.push_back(best);
        }
        const auto t2 = std::chrono::steady_clock::now();
        linear_ns = std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(queries.size());
        index_ns = std::chrono::duration<double, std::nano>(t2 - t1).count() / static_cast<double>(queries.size());
        for (std::size_t i = 0; i < queries.size(); ++i) mismatches += lin_answer[i] != idx_answer[i];

    }
    state.counters["centres"] = static_cast<double>(sorted.centre_fp.size());
    state.counters["sample"] = static_cast<double>(queries.size());
    state.counters["linear_ns_per_query"] = linear_ns;
    state.counters["index_ns_per_query"] = index_ns;
    state.counters["query_speedup"] = linear_ns / index_ns;
    state.counters["linear_ns_per_add"] = linear_add_ns;
    state.counters["index_ns_per_add"] = index_add_ns;
    state.counters["speedup"] = add_speedup;
    state.counters["mismatches"] = static_cast<double>(mismatches);
}

/// Latency of single queries (radius 3) against an index of `range(0)` fingerprints, with
/// `range(1)` blocks (0: the default layout).
void BM_QueryLatency(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    const auto blocks = static_cast<unsigned>(state.range(1));
    const auto fps = make_data(n, 11);
    semfp::HammingIndex<64> index = blocks == 0 ? semfp::HammingIndex<64>(hd) : semfp::HammingIndex<64>(hd, blocks);
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < n; ++i) index.insert(fps[i], i);
    const double insert_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::mt19937_64 rng(3);
    std::vector<FP> queries;
    for (int i = 0; i < 20000; ++i) {
        std::uint64_t x = i % 2 == 0 ? fps[rng() % n].value() : rng();
        if (i % 2 == 0) x ^= std::uint64_t{1} << (rng() % 64);
        queries.emplace_back(x);
    }
    std::vector<double> ns;
    std::size_t found = 0;
    for (auto _ : state) {
        ns.clear();
        for (const auto& q : queries) {
            const auto t0 = std::chrono::steady_clock::now();
            std::size_t hits = 0;
            index.for_each_within(q, hd, [&](const semfp::hamming_match&) { ++hits; });
            const auto t1 = std::chrono::steady_clock::now();
            found += hits;
            ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count());
        }
    }
    benchmark::DoNotOptimize(found);
    double total = 0;
    for (const double x : ns) total += x;
    std::sort(ns.begin(), ns.end());
    state.counters["entries"] = static_cast<double>(n);
    state.counters["blocks"] = static_cast<double>(index.block_count());
    state.counters["insert_ns"] = insert_s * 1e9 / static_cast<double>(n);
    state.counters["mean_ns"] = total / static_cast<double>(ns.size());
    state.counters["p50_ns"] = ns[ns.size() / 2];
    state.counters["p99_ns"] = ns[ns.size() * 99 / 100];
    state.counters["index_B_per_entry"] = static_cast<double>(index.memory_usage()) / static_cast<double>(n);
}

}  // namespace

int main(int argc, char** argv) {
    bool large = false;
    std::vector<char*> args;
    for (int i = 0; i < argc; ++i) {
        if (std::strcmp(argv[i], "--large") == 0) large = true;
        else args.push_back(argv[i]);
    }
    int n_args = static_cast<int>(args.size());
    benchmark::Initialize(&n_args, args.data());

    auto* sp = benchmark::RegisterBenchmark("SinglePass", BM_SinglePass)->Arg(100'000)->Arg(1'000'000);
    benchmark::RegisterBenchmark("LinearVsIndex", BM_LinearVsIndex)->Arg(100'000)->Iterations(1)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("QueryVsLinearScan", BM_QueryVsLinearScan)
        ->Arg(100'000)
        ->Arg(1'000'000)
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
    // Layout comparison at 1 M entries: 2 blocks (radius-1 probes), 3 (one radius-1 table),
    // 4 (the default for k = 3: four exact 16-bit probes).
    auto* lat = benchmark::RegisterBenchmark("QueryLatency", BM_QueryLatency)
                    ->Args({1'000'000, 2})
                    ->Args({1'000'000, 3})
                    ->Args({1'000'000, 4});
    if (large) {
        // Registered last so that the peak RSS they report is their own.
        benchmark::RegisterBenchmark("SinglePass", BM_SinglePass)->Arg(10'000'000)->Iterations(1)->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark("QueryLatency", BM_QueryLatency)->Args({10'000'000, 0})->Iterations(1);
    }
    sp->Iterations(1)->Unit(benchmark::kMillisecond);
    lat->Iterations(1);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
