// Segmenter throughput and dictionary cost: FmmSegmenter (forward, reverse, bidirectional) vs the
// dictionary-free char-bigram tokenizer in the same run; embedded dictionary ready time and memory.
//   semfp_segmenter_bench [CORPUS_DIR] [--benchmark_repetitions=5 --benchmark_report_aggregates_only=true]
//   semfp_segmenter_bench --fresh-process [N]
// Before timing, it checks that FMM forward over the precomputed tries cuts every corpus document
// (mixed and Han-only) exactly as over run-time tries (the per-token reference path), and exits
// with status 1 if not.
// The second form starts this program N times (default 9) per variant, each a fresh process
// that measures one first use (CPU time from getrusage; resident, private and anonymous memory
// from /proc/self/smaps_rollup, before and after) and exits; it prints the medians. Private
// includes file-backed pages only this process maps (the dictionary's read-only data, which the
// system can drop and reread); anonymous is memory the process allocated or wrote. Variants: the
// process doing nothing else (baseline), the precomputed embedded dictionary (forward, and with
// the reverse trie, and one sentence segmented in every mode), and the same word list built at
// run time with Dictionary::from_lines (forward, and with the reverse trie).
//
// With cppjieba available at configure time (bench/extra_cppjieba.cmake: SEMFP_CPPJIEBA_DIR or
// SEMFP_FETCH_CPPJIEBA), the same lines are also segmented in this process by cppjieba's
// MPSegment (dictionary DAG + maximum probability, no HMM: its fastest full segmentation), once
// through its public `Cut` to words and once to word ranges only (no output strings), and
// `FmmVsCppjieba` times FMM forward and cppjieba alternately, round by round, and reports the
// median ratio. Without cppjieba these benchmarks are not registered and a line says so.
#include "support/corpus.hpp"

#include <semfp/dict/embedded.hpp>
#include <semfp/text/char_class.hpp>
#include <semfp/text/segmenter.hpp>
#include <semfp/text/tokenizers.hpp>
#include <semfp/text/utf8.hpp>

#include <benchmark/benchmark.h>

#if defined(SEMFP_HAVE_CPPJIEBA)
#include <cppjieba/MPSegment.hpp>
#endif

#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace {

std::vector<std::string> g_texts;  // the corpus documents as they are (mixed Han and ASCII)
std::vector<std::string> g_han;    // only the Han runs of each document, joined by '\n'
std::size_t g_bytes = 0;
std::size_t g_han_bytes = 0;

// CPU time of this process in milliseconds (user + system).
double cpu_ms() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

// Resident set size in bytes (Linux), 0 elsewhere.
std::size_t rss_bytes() {
    std::ifstream in("/proc/self/statm");
    std::size_t pages = 0, resident = 0;
    if (!(in >> pages >> resident)) return 0;
    return resident * 4096;
}

// Resident and private (clean + dirty) memory of this process in bytes, from smaps_rollup.
struct memory_use {
    double rss = 0;
    double priv = 0;
    double anon = 0;
};
memory_use memory_now() {
    memory_use m;
    std::ifstream in("/proc/self/smaps_rollup");
    std::string line;
    while (std::getline(in, line)) {
        double kb = 0;
        char key[64] = {};
        if (std::sscanf(line.c_str(), "%63s %lf", key, &kb) != 2) continue;
        if (std::strcmp(key, "Rss:") == 0) m.rss = kb * 1024;
        if (std::strcmp(key, "Private_Clean:") == 0 || std::strcmp(key, "Private_Dirty:") == 0) m.priv += kb * 1024;
        if (std::strcmp(key, "Anonymous:") == 0) m.anon = kb * 1024;
    }
    return m;
}

// One first use in this (fresh) process; prints "cpu_ms rss_bytes private_bytes".
int first_use_child(std::string_view variant) {
    const memory_use m0 = memory_now();
    const double c0 = cpu_ms();
    std::size_t words = 0;
    if (variant == "static" || variant == "static+reverse" || variant == "static+segment") {
        const semfp::Dictionary& d = semfp::embedded_dictionary();
        if (variant != "static") d.prepare_reverse();
        if (variant == "static+segment") {
            for (const auto mode : {semfp::segment_mode::forward, semfp::segment_mode::reverse,
                                    semfp::segment_mode::bidirectional}) {
                const semfp::FmmSegmenter seg(d, mode);
                seg.tokenize("\xE4\xB8\xAD\xE5\x8D\x8E\xE4\xBA\xBA\xE6\xB0\x91\xE5\x85\xB1\xE5\x92\x8C\xE5\x9B\xBD"
                             "\xE6\x88\x90\xE7\xAB\x8B\xE4\xBA\x86",
                             [&](std::string_view) { ++words; });
            }
        }
        words += d.size();
    } else if (variant == "runtime" || variant == "runtime+reverse") {
        static const semfp::Dictionary d = semfp::Dictionary::from_lines(semfp::embedded_word_pieces());
        if (variant != "runtime") d.prepare_reverse();
        words = d.size();
    }
    const double c1 = cpu_ms();
    const memory_use m1 = memory_now();
    std::printf("%.3f %.0f %.0f %.0f %zu\n", c1 - c0, m1.rss - m0.rss, m1.priv - m0.priv, m1.anon - m0.anon, words);
    return 0;
}

// Runs `self --first-use VARIANT` `n` times; prints the medians.
void fresh_process_report(const char* self, int n) {
    std::printf("fresh process, first use (medians of %d runs; CPU = user + system)\n", n);
    std::printf("%-16s %10s %14s %10s %12s %12s\n", "variant", "CPU ms", "min..max", "RSS +MB", "private +MB",
                "anonymous +MB");
    for (const char* variant : {"baseline", "static", "static+reverse", "static+segment", "runtime", "runtime+reverse"}) {
        std::vector<double> cpu, rss, priv, anon;
        for (int i = 0; i < n; ++i) {
            int fds[2];
            if (pipe(fds) != 0) return;
            const pid_t pid = fork();
            if (pid == 0) {
                dup2(fds[1], 1);
                close(fds[0]);
                close(fds[1]);
                execl(self, self, "--first-use", variant, static_cast<char*>(nullptr));
                _exit(127);
            }
            close(fds[1]);
            char buf[256] = {};
            std::size_t got = 0;
            for (ssize_t r; (r = read(fds[0], buf + got, sizeof buf - 1 - got)) > 0;) got += static_cast<std::size_t>(r);
            close(fds[0]);
            int status = 0;
            waitpid(pid, &status, 0);
            double c = 0, r = 0, p = 0, a = 0;
            if (std::sscanf(buf, "%lf %lf %lf %lf", &c, &r, &p, &a) == 4) {
                cpu.push_back(c);
                rss.push_back(r / 1e6);
                priv.push_back(p / 1e6);
                anon.push_back(a / 1e6);
            }
        }
        if (cpu.empty()) continue;
        auto median = [](std::vector<double> v) {
            std::sort(v.begin(), v.end());
            return v[v.size() / 2];
        };
        const auto [lo, hi] = std::minmax_element(cpu.begin(), cpu.end());
        char range[64];
        std::snprintf(range, sizeof range, "%.1f..%.1f", *lo, *hi);
        std::printf("%-16s %10.2f %14s %10.2f %12.2f %12.2f\n", variant, median(cpu), range, median(rss), median(priv),
                    median(anon));
    }
}

template <class Tok>
void run_tokenizer(benchmark::State& state, const Tok& tok, const std::vector<std::string>& texts,
                   std::size_t bytes) {
    std::size_t tokens = 0;
    for (auto _ : state) {
        std::size_t n = 0;
        for (const auto& t : texts) tok.tokenize(t, [&](std::string_view w) { n += w.size() != 0; });
        tokens = n;
        benchmark::DoNotOptimize(n);
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes));
    state.counters["tokens"] = static_cast<double>(tokens);
}

void BM_CharBigram(benchmark::State& state) {
    const semfp::CharNgramTokenizer<2> tok{};
    run_tokenizer(state, tok, state.range(0) ? g_han : g_texts, state.range(0) ? g_han_bytes : g_bytes);
}

void BM_Fmm(benchmark::State& state) {
    const auto mode = static_cast<semfp::segment_mode>(state.range(1));
    const semfp::FmmSegmenter seg(semfp::embedded_dictionary(), mode);
    run_tokenizer(state, seg, state.range(0) ? g_han : g_texts, state.range(0) ? g_han_bytes : g_bytes);
}

// The same word list in tries built at run time (Dictionary::from_lines), as before the
// precomputed tries.
const semfp::Dictionary& runtime_dictionary() {
    static const semfp::Dictionary built = [] {
        semfp::Dictionary d = semfp::Dictionary::from_lines(semfp::embedded_word_pieces());
        d.prepare_reverse();
        return d;
    }();
    return built;
}

// Documents whose forward segmentation over the precomputed tries (runs decoded into windows of
// ids, seg_static_dict::forward_run) differs from the one over run-time tries (one longest_prefix
// per token): must be none.
std::size_t forward_paths_differ(const std::vector<std::string>& texts) {
    const semfp::FmmSegmenter fast(semfp::embedded_dictionary(), semfp::segment_mode::forward);
    const semfp::FmmSegmenter reference(runtime_dictionary(), semfp::segment_mode::forward);
    std::vector<std::string_view> a, b;
    std::size_t differ = 0;
    for (const auto& t : texts) {
        a.clear();
        b.clear();
        fast.tokenize(t, [&](std::string_view w) { a.push_back(w); });
        reference.tokenize(t, [&](std::string_view w) { b.push_back(w); });
        // Views into the same text: equal positions and lengths.
        const auto same_view = [](std::string_view x, std::string_view y) {
            return x.data() == y.data() && x.size() == y.size();
        };
        const bool same = a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), same_view);
        differ += same ? 0 : 1;
    }
    return differ;
}

// The same-run baseline of the lookups themselves.
void BM_FmmRuntimeTries(benchmark::State& state) {
    const auto mode = static_cast<semfp::segment_mode>(state.range(1));
    const semfp::FmmSegmenter seg(runtime_dictionary(), mode);
    run_tokenizer(state, seg, state.range(0) ? g_han : g_texts, state.range(0) ? g_han_bytes : g_bytes);
}

// Building the word list into tries at run time (what the first embedded_dictionary() call cost
// before the tries were precomputed; Dictionary::from_lines still does this).
void BM_DictionaryReady(benchmark::State& state) {
    const bool with_reverse = state.range(0) != 0;
    std::size_t bytes = 0;
    for (auto _ : state) {
        const semfp::Dictionary d = semfp::Dictionary::from_lines(semfp::embedded_word_pieces());
        if (with_reverse) d.prepare_reverse();
        bytes = d.memory_bytes();
        benchmark::DoNotOptimize(bytes);
    }
    state.counters["dict_MB"] = static_cast<double>(bytes) / 1e6;
}

#if defined(SEMFP_HAVE_CPPJIEBA)
// cppjieba's dictionary-only segmenter over its own dictionary (loaded once, outside the timing).
const cppjieba::MPSegment& jieba_mp() {
    static const cppjieba::MPSegment seg(SEMFP_CPPJIEBA_DICT);
    return seg;
}

// Number of words cppjieba's MPSegment finds in `texts`. `ranges`: stop at word ranges (its
// internal result, no strings built), else its public Cut to `Word`s.
std::size_t jieba_cut_all(const std::vector<std::string>& texts, bool ranges) {
    const cppjieba::MPSegment& seg = jieba_mp();
    std::size_t n = 0;
    std::vector<cppjieba::Word> words;
    std::vector<cppjieba::WordRange> wrs;
    // The separators MPSegment's own Cut splits on (SegmentBase's default set).
    static const std::unordered_set<cppjieba::Rune> separators = [] {
        std::unordered_set<cppjieba::Rune> set;
        cppjieba::RuneStrArray runes;
        if (cppjieba::DecodeUTF8RunesInString(cppjieba::SPECIAL_SEPARATORS, runes))
            for (const auto& r : runes) set.insert(r.rune);
        return set;
    }();
    for (const auto& t : texts) {
        if (!ranges) {
            seg.Cut(t, words);
            n += words.size();
            continue;
        }
        wrs.clear();
        cppjieba::PreFilter filter(separators, t);
        while (filter.HasNext()) {
            const cppjieba::PreFilter::Range r = filter.Next();
            seg.Cut(r.begin, r.end, wrs);
        }
        n += wrs.size();
    }
    return n;
}

void BM_CppjiebaMP(benchmark::State& state) {
    const bool ranges = state.range(1) != 0;
    const auto& texts = state.range(0) ? g_han : g_texts;
    std::size_t words = 0;
    for (auto _ : state) {
        words = jieba_cut_all(texts, ranges);
        benchmark::DoNotOptimize(words);
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(state.range(0) ? g_han_bytes : g_bytes));
    state.counters["tokens"] = static_cast<double>(words);
}

double thread_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

// FMM forward and cppjieba MPSegment (word ranges) over the same lines, alternated `rounds`
// times in this thread; thread CPU time; medians of the per-round speeds and of the ratios.
void BM_FmmVsCppjieba(benchmark::State& state) {
    const bool han = state.range(0) != 0;
    const auto& texts = han ? g_han : g_texts;
    const double mb = static_cast<double>(han ? g_han_bytes : g_bytes) / 1e6;
    const semfp::FmmSegmenter seg(semfp::embedded_dictionary(), semfp::segment_mode::forward);
    std::vector<double> fmm, jieba, ratio;
    std::size_t fmm_tokens = 0;
    std::size_t jieba_tokens = jieba_cut_all(texts, true);  // warm: dictionary loaded, pages touched
    for (auto _ : state) {
        fmm.clear();
        jieba.clear();
        ratio.clear();
        for (int round = 0; round < 5; ++round) {
            const double t0 = thread_cpu_seconds();
            std::size_t n = 0;
            for (const auto& t : texts) seg.tokenize(t, [&](std::string_view w) { n += w.size() != 0; });
            const double t1 = thread_cpu_seconds();
            jieba_tokens = jieba_cut_all(texts, true);
            const double t2 = thread_cpu_seconds();
            fmm_tokens = n;
            fmm.push_back(mb / (t1 - t0));
            jieba.push_back(mb / (t2 - t1));
            ratio.push_back((t2 - t1) / (t1 - t0));
        }
    }
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    state.counters["fmm_MBps"] = median(fmm);
    state.counters["cppjieba_MBps"] = median(jieba);
    state.counters["ratio"] = median(ratio);
    state.counters["fmm_tokens"] = static_cast<double>(fmm_tokens);
    state.counters["cppjieba_tokens"] = static_cast<double>(jieba_tokens);
}
#endif

}  // namespace

int main(int argc, char** argv) {
    if (argc >= 3 && std::strcmp(argv[1], "--first-use") == 0) return first_use_child(argv[2]);
    if (argc >= 2 && std::strcmp(argv[1], "--fresh-process") == 0) {
        fresh_process_report("/proc/self/exe", argc >= 3 ? std::atoi(argv[2]) : 9);
        return 0;
    }
    const auto dir = semfp::bench::corpus_dir(argc, argv);
    for (const char* name : {"manpages_zh_cn.jsonl", "manpages_zh_tw_twins.jsonl"}) {
        for (auto& d : semfp::bench::load_corpus(dir / name)) {
            std::string han;
            for (std::size_t i = 0; i < d.text.size();) {
                const semfp::utf8::decoded c = semfp::utf8::decode(d.text, i);
                if (semfp::is_han(c.code_point)) {
                    han.append(d.text, i, c.length);
                } else if (!han.empty() && han.back() != '\n') {
                    han.push_back('\n');
                }
                i += c.length;
            }
            g_bytes += d.text.size();
            g_han_bytes += han.size();
            g_texts.push_back(std::move(d.text));
            g_han.push_back(std::move(han));
        }
    }

    // First use of the embedded dictionary: time and memory, measured once before anything else.
    const std::size_t rss0 = rss_bytes();
    const double c0 = cpu_ms();
    const auto t0 = std::chrono::steady_clock::now();
    const semfp::Dictionary& dict = semfp::embedded_dictionary();
    const auto t1 = std::chrono::steady_clock::now();
    const double c1 = cpu_ms();
    const std::size_t rss1 = rss_bytes();
    const std::size_t forward_bytes = dict.memory_bytes();
    dict.prepare_reverse();
    const auto t2 = std::chrono::steady_clock::now();
    const double c2 = cpu_ms();
    const std::size_t rss2 = rss_bytes();
    std::printf("corpus: %zu documents, %.2f MB (%.2f MB of Han runs)\n", g_texts.size(), static_cast<double>(g_bytes) / 1e6,
                static_cast<double>(g_han_bytes) / 1e6);
    std::printf("embedded dictionary first use: %.1f ms wall, %.1f ms CPU, %.1f MB held, RSS +%.1f MB (%zu words)\n",
                std::chrono::duration<double, std::milli>(t1 - t0).count(), c1 - c0,
                static_cast<double>(forward_bytes) / 1e6, static_cast<double>(rss1 - rss0) / 1e6, dict.size());
    std::printf("reverse trie (reverse/bidirectional modes): +%.1f ms wall, +%.1f ms CPU, %.1f MB held in all, RSS +%.1f MB\n",
                std::chrono::duration<double, std::milli>(t2 - t1).count(), c2 - c1,
                static_cast<double>(dict.memory_bytes()) / 1e6, static_cast<double>(rss2 - rss1) / 1e6);

    // Identity check (not timed): the fast forward path against the per-token lookups.
    const std::size_t differ = forward_paths_differ(g_texts) + forward_paths_differ(g_han);
    std::printf("FMM forward, precomputed vs run-time tries: %zu of %zu documents segmented differently\n", differ,
                2 * g_texts.size());
    if (differ != 0) {
        std::fprintf(stderr, "semfp_segmenter_bench: the forward segmentations differ\n");
        return 1;
    }

    // Arguments: {han_only, mode}.
    benchmark::RegisterBenchmark("CharBigram/mixed", BM_CharBigram)->Args({0});
    benchmark::RegisterBenchmark("Fmm/forward/mixed", BM_Fmm)->Args({0, 0});
    benchmark::RegisterBenchmark("Fmm/reverse/mixed", BM_Fmm)->Args({0, 1});
    benchmark::RegisterBenchmark("Fmm/bidirectional/mixed", BM_Fmm)->Args({0, 2});
    benchmark::RegisterBenchmark("CharBigram/han_only", BM_CharBigram)->Args({1});
    benchmark::RegisterBenchmark("Fmm/forward/han_only", BM_Fmm)->Args({1, 0});
    benchmark::RegisterBenchmark("Fmm/reverse/han_only", BM_Fmm)->Args({1, 1});
    benchmark::RegisterBenchmark("Fmm/bidirectional/han_only", BM_Fmm)->Args({1, 2});
    benchmark::RegisterBenchmark("FmmRuntimeTries/forward/mixed", BM_FmmRuntimeTries)->Args({0, 0});
    benchmark::RegisterBenchmark("FmmRuntimeTries/forward/han_only", BM_FmmRuntimeTries)->Args({1, 0});
    benchmark::RegisterBenchmark("FmmRuntimeTries/reverse/han_only", BM_FmmRuntimeTries)->Args({1, 1});
    benchmark::RegisterBenchmark("FmmRuntimeTries/bidirectional/han_only", BM_FmmRuntimeTries)->Args({1, 2});
#if defined(SEMFP_HAVE_CPPJIEBA)
    benchmark::RegisterBenchmark("CppjiebaMP/words/mixed", BM_CppjiebaMP)->Args({0, 0});
    benchmark::RegisterBenchmark("CppjiebaMP/ranges/mixed", BM_CppjiebaMP)->Args({0, 1});
    benchmark::RegisterBenchmark("CppjiebaMP/words/han_only", BM_CppjiebaMP)->Args({1, 0});
    benchmark::RegisterBenchmark("CppjiebaMP/ranges/han_only", BM_CppjiebaMP)->Args({1, 1});
    benchmark::RegisterBenchmark("FmmVsCppjieba/han_only", BM_FmmVsCppjieba)->Arg(1)->Iterations(1)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("FmmVsCppjieba/mixed", BM_FmmVsCppjieba)->Arg(0)->Iterations(1)->Unit(benchmark::kMillisecond);
#else
    std::printf("cppjieba comparison skipped: configure with -DSEMFP_CPPJIEBA_DIR=... or -DSEMFP_FETCH_CPPJIEBA=ON "
                "(bench/extra_cppjieba.cmake)\n");
#endif
    benchmark::RegisterBenchmark("DictionaryReady/forward", BM_DictionaryReady)->Arg(0)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("DictionaryReady/forward+reverse", BM_DictionaryReady)->Arg(1)->Unit(benchmark::kMillisecond);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
