// Thread safety of what semfp shares between threads: the one-call fingerprint (function-local
// statics, per-thread scratch), the embedded dictionary's first use, one FmmSegmenter and one
// Dictionary (lazy reverse trie) used from many threads, and const HammingIndex queries. Each
// test compares the threads' results with a single-threaded run; the `tsan` preset runs them
// under ThreadSanitizer, which reports any data race. Lives with the embedded-dictionary tests
// because it needs that dictionary compiled in.
#include <semfp/dict/embedded.hpp>
#include <semfp/simhash.hpp>

#include "support/catch.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <latch>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

constexpr unsigned g_threads = 8;

std::vector<std::string> sample_texts() {
    const std::string_view pieces[] = {
        "\xE4\xB8\xAD\xE5\x8D\x8E\xE4\xBA\xBA\xE6\xB0\x91\xE5\x85\xB1\xE5\x92\x8C\xE5\x9B\xBD",
        "\xE5\x8C\x97\xE4\xBA\xAC\xE5\xA4\xA9\xE5\xAE\x89\xE9\x97\xA8",
        "\xE8\xBB\x9F\xE9\xAB\x94\xE5\x92\x8C\xE7\xB6\xB2\xE8\xB7\xAF",
        "iPhone 15 ",
        "\xE3\x80\x82",
        "The quick brown fox "};
    std::vector<std::string> texts;
    std::uint32_t state = 7;
    for (int d = 0; d < 64; ++d) {
        std::string t;
        for (int k = 0; k < 40; ++k) {
            state = state * 1103515245u + 12345u;
            t += pieces[(state >> 16) % std::size(pieces)];
        }
        texts.push_back(std::move(t));
    }
    return texts;
}

/// Runs `body(thread_number)` on g_threads threads released together.
template <class F>
void run_together(F body) {
    std::latch start(g_threads);
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < g_threads; ++t) {
        threads.emplace_back([&, t] {
            start.arrive_and_wait();
            body(t);
        });
    }
    for (auto& th : threads) th.join();
}

}  // namespace

TEST_CASE("threads: the embedded dictionary's first use and one shared segmenter", "[threads]") {
    // ctest runs every test case in its own process, so this is the dictionary's first use.
    const std::vector<std::string> texts = sample_texts();
    std::vector<const semfp::Dictionary*> seen(g_threads, nullptr);
    std::vector<std::vector<std::size_t>> counts(g_threads);
    run_together([&](unsigned t) {
        const semfp::Dictionary& dict = semfp::embedded_dictionary();
        seen[t] = &dict;
        const semfp::FmmSegmenter seg(dict);
        for (const std::string& text : texts) {
            std::size_t n = 0;
            seg.tokenize(text, [&](std::string_view) { ++n; });
            counts[t].push_back(n);
        }
    });
    const semfp::FmmSegmenter shared(semfp::embedded_dictionary(), semfp::segment_mode::bidirectional);
    std::vector<std::vector<std::size_t>> shared_counts(g_threads);
    run_together([&](unsigned t) {
        for (const std::string& text : texts) {
            std::size_t n = 0;
            shared.tokenize(text, [&](std::string_view) { ++n; });
            shared_counts[t].push_back(n);
        }
    });
    for (unsigned t = 1; t < g_threads; ++t) {
        CHECK(seen[t] == seen[0]);
        CHECK(counts[t] == counts[0]);
        CHECK(shared_counts[t] == shared_counts[0]);
    }
}

TEST_CASE("threads: a dictionary's lazy reverse trie raced by readers", "[threads]") {
    semfp::Dictionary dict;
    for (std::string_view w :
         {"\xE4\xB8\xAD\xE5\x8D\x8E", "\xE4\xBA\xBA\xE6\xB0\x91", "\xE5\x85\xB1\xE5\x92\x8C\xE5\x9B\xBD",
          "\xE4\xB8\xAD\xE5\x8D\x8E\xE4\xBA\xBA\xE6\xB0\x91"}) {
        dict.add(w);
    }
    const std::string text = "\xE4\xB8\xAD\xE5\x8D\x8E\xE4\xBA\xBA\xE6\xB0\x91\xE5\x85\xB1\xE5\x92\x8C\xE5\x9B\xBD";
    std::vector<std::size_t> got(g_threads);
    run_together([&](unsigned t) {
        if (t % 2 == 0) dict.prepare_reverse();
        std::size_t sum = 0;
        for (std::size_t end = 0; end <= text.size(); ++end) sum += dict.longest_suffix(text, end);
        got[t] = sum;
    });
    for (unsigned t = 1; t < g_threads; ++t) CHECK(got[t] == got[0]);
}

TEST_CASE("threads: fingerprinting from many threads", "[threads]") {
    const std::vector<std::string> texts = sample_texts();
    std::vector<semfp::Fingerprint<64>> want64;
    std::vector<semfp::Fingerprint<128>> want128;
    // No fingerprint is computed before the threads start: the function-local statics are raced.
    std::vector<std::vector<semfp::Fingerprint<64>>> got64(g_threads);
    std::vector<std::vector<semfp::Fingerprint<128>>> got128(g_threads);
    run_together([&](unsigned t) {
        for (const std::string& text : texts) {
            got64[t].push_back(semfp::fingerprint<64>(text));
            got128[t].push_back(semfp::fingerprint<128>(text));
        }
    });
    for (const std::string& text : texts) {
        want64.push_back(semfp::fingerprint<64>(text));
        want128.push_back(semfp::fingerprint<128>(text));
    }
    for (unsigned t = 0; t < g_threads; ++t) {
        CHECK(got64[t] == want64);
        CHECK(got128[t] == want128);
    }
}

TEST_CASE("threads: concurrent const HammingIndex queries", "[threads]") {
    const std::vector<std::string> texts = sample_texts();
    semfp::HammingIndex<64> index(8);
    for (std::size_t i = 0; i < texts.size(); ++i) index.insert(semfp::fingerprint<64>(texts[i]), i);
    const semfp::HammingIndex<64>& shared = index;
    std::vector<std::size_t> want;
    for (const std::string& text : texts) want.push_back(shared.query(semfp::fingerprint<64>(text), 8).size());
    std::vector<std::vector<std::size_t>> got(g_threads);
    run_together([&](unsigned t) {
        for (const std::string& text : texts) got[t].push_back(shared.query(semfp::fingerprint<64>(text), 8).size());
    });
    for (unsigned t = 0; t < g_threads; ++t) CHECK(got[t] == want);
}

TEST_CASE("threads: query plans built on first use by concurrent const queries", "[threads]") {
    const std::vector<std::string> texts = sample_texts();
    constexpr unsigned limit = semfp::HammingIndex<64>::max_radius;
    // Two identical indexes: `fresh` has built no plan when the threads start.
    semfp::HammingIndex<64> reference(3);
    semfp::HammingIndex<64> fresh(3);
    std::vector<semfp::Fingerprint64> fps;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        fps.push_back(semfp::fingerprint<64>(texts[i]));
        reference.insert(fps.back(), i);
        fresh.insert(fps.back(), i);
    }
    std::vector<std::size_t> want;
    for (unsigned k = 0; k <= limit; ++k)
        for (const auto& fp : fps) want.push_back(reference.query(fp, k).size());
    const semfp::HammingIndex<64>& shared = fresh;
    std::vector<std::vector<std::size_t>> got(g_threads, std::vector<std::size_t>(want.size()));
    run_together([&](unsigned t) {
        // Each thread walks the radii from a different start, so that plans are raced for.
        for (unsigned i = 0; i <= limit; ++i) {
            const unsigned k = (i + t * 3) % (limit + 1);
            for (std::size_t f = 0; f < fps.size(); ++f) {
                if (f % 2 == 0) shared.prefetch(fps[f], k);
                got[t][k * fps.size() + f] = shared.query(fps[f], k).size();
            }
        }
    });
    for (unsigned t = 0; t < g_threads; ++t) CHECK(got[t] == want);
}
