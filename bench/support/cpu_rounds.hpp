#pragma once
// Helpers of the round-by-round speed programs (semfp_fingerprint_speed, semfp_signature_speed):
// thread CPU time, medians, documents of a fixed number of code points, and the time per
// document of one pass over them. Bench-only code.

#include "corpus.hpp"

#include <semfp/text/utf8.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <ctime>
#include <string>
#include <string_view>
#include <vector>

namespace semfp::bench {

/// CPU time of the calling thread, in seconds.
inline double thread_cpu_seconds() noexcept {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

/// The median of `v` (the mean of the middle two for an even count); `v` must not be empty.
inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// Appends to `out` the pieces of `text` of `chars` code points each (a shorter last piece is
/// dropped).
inline void cut(std::string_view text, std::size_t chars, std::vector<std::string>& out) {
    std::size_t start = 0, i = 0, count = 0;
    while (i < text.size()) {
        i += semfp::utf8::decode(text, i).length;
        if (++count == chars) {
            out.emplace_back(text.substr(start, i - start));
            start = i;
            count = 0;
        }
    }
}

/// The documents of `chars` code points cut from the corpus file `file` (see `cut`), after a
/// line saying how many there are, their mean size and `rounds`.
inline std::vector<std::string> cut_corpus(const std::filesystem::path& file, std::size_t chars, int rounds) {
    std::vector<std::string> docs;
    for (const auto& d : load_corpus(file)) cut(d.text, chars, docs);
    std::size_t bytes = 0;
    for (const auto& d : docs) bytes += d.size();
    std::printf("documents: %zu of %zu code points (%.0f bytes on average), %d rounds, thread CPU time\n",
                docs.size(), chars, docs.empty() ? 0.0 : static_cast<double>(bytes) / static_cast<double>(docs.size()),
                rounds);
    return docs;
}

inline volatile std::uint64_t g_sink = 0;

/// Thread CPU microseconds per document of calling `f(document)` (which returns a number, summed
/// into a volatile so that nothing is optimized away) on every document.
template <class F>
double per_doc_us(const std::vector<std::string>& docs, F&& f) {
    std::uint64_t sink = 0;
    const double t0 = thread_cpu_seconds();
    for (const auto& d : docs) sink += f(d);
    const double t1 = thread_cpu_seconds();
    g_sink = g_sink + sink;
    return (t1 - t0) * 1e6 / static_cast<double>(docs.size());
}

}  // namespace semfp::bench
