// semfp_period_quality: the period-feature-string detector (signature/period.hpp) measured on the
// evaluation kit's labelled pairs, and its throughput on a synthetic collection of web pages.
//
//   semfp_period_quality PAIRS.jsonl DOCS.jsonl [--length 5,8,10] [--idf 2] [--df-min 8]
//                        [--cap 1000] [--td 0.5] [--tc 0.8] [--html all|main] [--threads 2]
//   semfp_period_quality --throughput N CORPUS.jsonl [--threads 2]
//   semfp_period_quality --pages-throughput DOCS.jsonl [--threads 1] [--reps 7]
//
// Pairs mode runs the detector over every document of the docs file (web pages converted to
// text first: all visible text, as the patent works, or the article text) and scores each
// labelled pair by the relation the detector gives it (`compare`, the same values `run()` uses).
// For each configuration it prints recall per kind (any relation; `excerpt` also as `contains`)
// and the false positives on plain and same-site negatives, plus the largest containments any
// negative reaches: thresholds above them keep zero false positives.
//
// Throughput mode synthesizes N web pages from the corpus texts (each text on several sites,
// every site with its own template sentences, navigation and footer), converts nothing (the
// pages are text), and times add + run with the given threads, median of 3 runs, wall clock.
//
// Pages-throughput mode takes the kit's 3,000 web pages as article text (converted before the
// clock starts) and times add + run + clusters() end to end, median of --reps runs, CPU and wall.
#include <semfp/signature/period.hpp>
#include <semfp/text/article.hpp>
#include <semfp/text/html.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

std::vector<double> parse_list(const std::string& s) {
    std::vector<double> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ',')) {
        out.push_back(std::stod(item));
    }
    return out;
}

struct labelled_pair {
    std::uint32_t a;
    std::uint32_t b;
    std::string kind;
    int label;
};

long rss_kb() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("VmRSS:", 0) == 0) {
            return std::atol(line.c_str() + 6);
        }
    }
    return 0;
}

int throughput(std::size_t n, const std::string& corpus, unsigned threads, std::size_t length) {
    std::ifstream in(corpus);
    std::vector<std::string> texts;
    std::string line;
    while (std::getline(in, line)) {
        const auto j = nlohmann::json::parse(line, nullptr, false);
        if (!j.is_discarded() && j.contains("text") && j["text"].is_string()) {
            texts.push_back(j["text"].get<std::string>());
        }
    }
    if (texts.empty()) {
        std::fprintf(stderr, "no texts in %s\n", corpus.c_str());
        return 1;
    }
    // 200 sites; each page: site header and navigation, the article, the site's template
    // sentences (with full stops), footer. Each article appears on ~3 sites.
    std::mt19937_64 rng(7);
    std::vector<std::string> pages;
    pages.reserve(n);
    std::size_t bytes = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t site = rng() % 200;
        const std::string& t = texts[(i / 3) % texts.size()];
        std::string p = "站点" + std::to_string(site) + " 首页 新闻 体育 财经 科技 下载\n";
        p += t.substr(0, std::min<std::size_t>(t.size(), 3000));
        p += "\n本站所有文章均来自网络，如有侵权请联系站点" + std::to_string(site) + "删除。";
        p += "欢迎访问站点" + std::to_string(site) + "。版权所有。\n";
        bytes += p.size();
        pages.push_back(std::move(p));
    }
    std::vector<double> secs;
    std::size_t pairs = 0;
    std::size_t mem = 0;
    const long rss0 = rss_kb();
    long rss1 = 0;
    for (int r = 0; r < 3; ++r) {
        semfp::period_options o;
        o.threads = threads;
        o.length = length;
        semfp::PeriodDetector det(o);
        const auto t0 = std::chrono::steady_clock::now();
        for (const auto& p : pages) {
            (void)det.add(p);
        }
        det.run();
        const auto t1 = std::chrono::steady_clock::now();
        secs.push_back(std::chrono::duration<double>(t1 - t0).count());
        pairs = det.pairs().size();
        mem = det.memory_bytes();
        rss1 = std::max(rss1, rss_kb());
    }
    std::sort(secs.begin(), secs.end());
    std::printf("| pages | threads | mean page bytes | median s (3 runs) | pages/s | MB/s | pairs | detector bytes/page | peak RSS growth bytes/page |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    std::printf("| %zu | %u | %.0f | %.3f | %.0f | %.1f | %zu | %.0f | %.0f |\n", n, threads,
                static_cast<double>(bytes) / static_cast<double>(n), secs[1], static_cast<double>(n) / secs[1],
                static_cast<double>(bytes) / secs[1] / 1e6, pairs, static_cast<double>(mem) / static_cast<double>(n),
                static_cast<double>(rss1 - rss0) * 1024.0 / static_cast<double>(n));
    return 0;
}

double cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// The kit's web pages (every "format": "html" document of DOCS), converted to article text
// first (not timed), then add + run + clusters() timed end to end, `reps` times, with the
// default options and `threads` threads. Prints medians of CPU and wall time.
int pages_throughput(const std::string& docs, unsigned threads, int reps) {
    std::ifstream in(docs);
    std::vector<std::string> texts;
    std::string line;
    std::size_t bytes = 0;
    while (std::getline(in, line)) {
        const auto j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded() || j.value("format", "") != "html" || !j.contains("text")) {
            continue;
        }
        texts.push_back(semfp::extract_main_text(j["text"].get<std::string>()));
        bytes += texts.back().size();
    }
    if (texts.empty()) {
        std::fprintf(stderr, "no web pages in %s\n", docs.c_str());
        return 1;
    }
    std::vector<double> cpu, wall, add_cpu;
    std::size_t pairs = 0, clusters = 0;
    for (int r = 0; r < reps; ++r) {
        semfp::period_options o;
        o.threads = threads;
        const double c0 = cpu_seconds();
        const auto w0 = std::chrono::steady_clock::now();
        semfp::PeriodDetector det(o);
        for (const auto& t : texts) {
            (void)det.add(t);
        }
        const double c1 = cpu_seconds();
        det.run();
        const auto cl = det.clusters();
        const double c2 = cpu_seconds();
        const auto w2 = std::chrono::steady_clock::now();
        cpu.push_back(c2 - c0);
        add_cpu.push_back(c1 - c0);
        wall.push_back(std::chrono::duration<double>(w2 - w0).count());
        pairs = det.pairs().size();
        clusters = cl.size();
    }
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    const double n = static_cast<double>(texts.size());
    std::printf("| pages | text MB | threads | add CPU ms | add+run+clusters CPU ms | pages/s (CPU) | wall ms | pages/s (wall) | related pairs | clusters |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    std::printf("| %zu | %.1f | %u | %.1f | %.1f | %.0f | %.1f | %.0f | %zu | %zu |\n", texts.size(),
                static_cast<double>(bytes) / 1e6, threads, median(add_cpu) * 1e3, median(cpu) * 1e3, n / median(cpu),
                median(wall) * 1e3, n / median(wall), pairs, clusters);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> pos;
    std::vector<double> lengths{10};
    std::vector<double> idfs{2.0};
    std::vector<double> tds{0.5};
    std::vector<double> tcs{0.8};
    double tcl = 0.65;
    std::size_t df_min = 8;
    std::size_t cap = 1000;
    std::size_t min_strings = 3;
    std::string html = "all";
    std::u32string terms = U"\u3002\uFF61";
    unsigned threads = 2;
    std::size_t tput = 0;
    std::string cluster_out;
    std::string pages_docs;
    int reps = 7;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--length") lengths = parse_list(next());
        else if (a == "--idf") idfs = parse_list(next());
        else if (a == "--td") tds = parse_list(next());
        else if (a == "--tc") tcs = parse_list(next());
        else if (a == "--cluster-threshold") tcl = std::stod(next());
        else if (a == "--df-min") df_min = std::stoul(next());
        else if (a == "--cap") cap = std::stoul(next());
        else if (a == "--min-strings") min_strings = std::stoul(next());
        else if (a == "--html") html = next();
        else if (a == "--terms") {
            // "period" (。｡), "cjk" (also ! ? ; after width folding), "all" (also ASCII .)
            const std::string t = next();
            terms = t == "all" ? U"\u3002\uFF61!?;." : t == "cjk" ? U"\u3002\uFF61!?;" : U"\u3002\uFF61";
        }
        else if (a == "--threads") threads = static_cast<unsigned>(std::stoul(next()));
        else if (a == "--throughput") tput = std::stoul(next());
        else if (a == "--pages-throughput") pages_docs = next();
        else if (a == "--reps") reps = std::stoi(next());
        else if (a == "--cluster-out") cluster_out = next();
        else pos.push_back(a);
    }
    if (!pages_docs.empty()) {
        return pages_throughput(pages_docs, threads, reps);
    }
    if (tput != 0) {
        if (pos.size() != 1) {
            std::fprintf(stderr, "usage: semfp_period_quality --throughput N CORPUS.jsonl [--threads T]\n");
            return 2;
        }
        return throughput(tput, pos[0], threads, static_cast<std::size_t>(lengths.front()));
    }
    if (pos.size() != 2) {
        std::fprintf(stderr, "usage: semfp_period_quality PAIRS.jsonl DOCS.jsonl [options]\n");
        return 2;
    }
    std::vector<std::string> texts;
    std::vector<std::string> ids;
    std::vector<bool> is_page;
    std::unordered_map<std::string, std::uint32_t> number;
    {
        std::ifstream in(pos[1]);
        std::string line;
        while (std::getline(in, line)) {
            const auto j = nlohmann::json::parse(line, nullptr, false);
            if (j.is_discarded() || !j.contains("id") || !j.contains("text")) {
                continue;
            }
            std::string text = j["text"].get<std::string>();
            if (j.value("format", "") == "html") {
                text = html == "main" ? semfp::extract_main_text(text) : semfp::html_to_text(text);
            }
            number.emplace(j["id"].get<std::string>(), static_cast<std::uint32_t>(texts.size()));
            ids.push_back(j["id"].get<std::string>());
            is_page.push_back(j.value("format", "") == "html");
            texts.push_back(std::move(text));
        }
    }
    if (!cluster_out.empty()) {
        // The kit's web-page collection (every HTML doc: kinds site_page, boilerplate, repost)
        // clustered as `semfp dedup --method period` does, written as id<TAB>cluster.
        semfp::period_options o;
        o.length = static_cast<std::size_t>(lengths.front());
        o.min_idf = idfs.front();
        o.min_noise_df = df_min;
        o.max_postings = cap;
        o.min_strings = min_strings;
        o.threads = threads;
        o.terminators = terms;
        o.duplicate_threshold = tds.front();
        o.contains_threshold = tcs.front();
        o.cluster_threshold = tcl;
        semfp::PeriodDetector det(o);
        for (std::size_t i = 0; i < texts.size(); ++i) {
            if (is_page[i]) {
                (void)det.add(ids[i], texts[i]);
            }
        }
        det.run();
        std::ofstream out(cluster_out);
        const auto clusters = det.clusters();
        for (std::size_t c = 0; c < clusters.size(); ++c) {
            for (const std::uint32_t m : clusters[c].members) {
                out << det.id(m) << '\t' << c << '\n';
            }
        }
        std::printf("pages %zu, clusters %zu, written to %s\n", det.size(), clusters.size(), cluster_out.c_str());
        return 0;
    }
    std::vector<labelled_pair> pairs;
    std::vector<std::string> kinds;
    {
        std::ifstream in(pos[0]);
        std::string line;
        while (std::getline(in, line)) {
            const auto j = nlohmann::json::parse(line, nullptr, false);
            if (j.is_discarded()) {
                continue;
            }
            const auto ia = number.find(j.value("a", ""));
            const auto ib = number.find(j.value("b", ""));
            if (ia == number.end() || ib == number.end()) {
                continue;
            }
            pairs.push_back({ia->second, ib->second, j.value("kind", ""), j.value("label", 0)});
            if (std::find(kinds.begin(), kinds.end(), pairs.back().kind) == kinds.end()) {
                kinds.push_back(pairs.back().kind);
            }
        }
    }
    std::printf("docs %zu, pairs %zu, html text: %s\n\n", texts.size(), pairs.size(), html.c_str());
    std::printf("| L | θ | τ_d | τ_c |");
    for (const auto& k : kinds) {
        std::printf(" %s |", k.c_str());
    }
    std::printf(" excerpt as contains | FP plain | FP site | neg max both-ways | neg max one-way | related pairs | s |\n|");
    for (std::size_t c = 0; c < kinds.size() + 11; ++c) {
        std::printf("---:|");
    }
    std::printf("\n");
    for (const double L : lengths) {
        for (const double idf : idfs) {
            semfp::period_options o;
            o.length = static_cast<std::size_t>(L);
            o.min_idf = idf;
            o.min_noise_df = df_min;
            o.max_postings = cap;
            o.min_strings = min_strings;
            o.threads = threads;
            o.terminators = terms;
            for (const double td : tds) {
                for (const double tc : tcs) {
                    o.duplicate_threshold = td;
                    o.contains_threshold = tc;
                    semfp::PeriodDetector det(o);
                    const auto t0 = std::chrono::steady_clock::now();
                    for (const auto& t : texts) {
                        (void)det.add(t);
                    }
                    det.run();
                    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                    std::map<std::string, std::pair<std::size_t, std::size_t>> hit;  // kind -> (found, total)
                    std::size_t excerpt_contains = 0;
                    std::size_t excerpts = 0;
                    std::size_t fp_plain = 0;
                    std::size_t fp_site = 0;
                    double neg_both = 0;
                    double neg_one = 0;
                    for (const auto& p : pairs) {
                        const semfp::period_pair q = det.compare(p.a, p.b);
                        const bool related = q.relation != semfp::period_relation::none;
                        auto& h = hit[p.kind];
                        ++h.second;
                        h.first += related ? 1 : 0;
                        if (p.kind == "excerpt") {
                            ++excerpts;
                            excerpt_contains += q.relation == semfp::period_relation::contains ? 1 : 0;
                        }
                        if (p.label == 0) {
                            if (det.string_count(p.a) >= o.min_strings && det.string_count(p.b) >= o.min_strings) {
                                neg_both = std::max(neg_both, std::min(q.a_in_b, q.b_in_a));
                                neg_one = std::max(neg_one, q.ccs);
                            }
                            (p.kind == "site_negative" ? fp_site : fp_plain) += related ? 1 : 0;
                        }
                    }
                    std::printf("| %zu | %.2f | %.2f | %.2f |", o.length, idf, td, tc);
                    for (const auto& k : kinds) {
                        const auto& h = hit[k];
                        std::printf(" %.1f |", 100.0 * static_cast<double>(h.first) / static_cast<double>(h.second));
                    }
                    std::printf(" %.1f | %zu | %zu | %.3f | %.3f | %zu | %.2f |\n",
                                excerpts ? 100.0 * static_cast<double>(excerpt_contains) / static_cast<double>(excerpts) : 0.0,
                                fp_plain, fp_site, neg_both, neg_one, det.pairs().size(), s);
                    std::fflush(stdout);
                }
            }
        }
    }
    return 0;
}
