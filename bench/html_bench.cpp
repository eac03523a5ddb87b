// Web-page text layer throughput: HTML to text, article text, and GB18030 / UTF-8 decoding to
// UTF-8.
//   semfp_html_bench [CORPUS_DIR] [--benchmark_repetitions=5 --benchmark_report_aggregates_only=true]
//   SEMFP_KIT_DOCS=build/eval/dev_pairs.docs.jsonl semfp_html_bench ...
//
// With SEMFP_KIT_DOCS naming the evaluation kit's docs file, its web pages ("format": "html":
// site templates with navigation, ads, related links, comments and footer) are measured too:
// extract_main_text against html_to_text on the same pages in the same run.
//
// Pages are built from the corpus documents (one page per document: head with title, style and
// script, a navigation list, one <p> per line with escaped text, inline markup and entities).
// Baselines measured in the same run: a naive tag stripper (copy bytes outside <...>, no
// entities, no raw text) for html_to_text, and glibc's iconv(3) for GB18030 decoding.
#include "support/corpus.hpp"

#include <semfp/text/article.hpp>
#include <semfp/text/encoding.hpp>
#include <semfp/text/html.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#if __has_include(<nlohmann/json.hpp>)
#include <nlohmann/json.hpp>
#define SEMFP_BENCH_HAVE_JSON 1
#endif

#if defined(__GLIBC__) && __has_include(<iconv.h>)
#include <iconv.h>
#define SEMFP_BENCH_HAVE_ICONV 1
#endif

namespace {

std::vector<std::string> g_pages;    // UTF-8 HTML pages
std::vector<std::string> g_kit_pages;  // the evaluation kit's web pages (SEMFP_KIT_DOCS)
std::size_t g_kit_bytes = 0;
std::vector<std::string> g_utf8;     // corpus texts
std::vector<std::string> g_gb18030;  // the same texts in GB18030
std::size_t g_page_bytes = 0, g_utf8_bytes = 0, g_gb_bytes = 0;

std::string escape(std::string_view s) {
    std::string out;
    for (const char c : s) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string make_page(const semfp::bench::document& d) {
    std::string page =
        "<!DOCTYPE html>\n<html lang=\"zh-CN\"><head><meta charset=\"utf-8\">\n<title>" + escape(d.id) +
        "</title>\n<style>body{font-family:sans-serif} .nav>li{float:left}</style>\n"
        "<script>var cfg = {page: \"" +
        escape(d.id) +
        "\", ads: '<div class=\"ad\"></div>'};</script>\n"
        "</head><body>\n<div class=\"nav\"><ul><li><a href=\"/\">&#39318;&#39029;</a></li>"
        "<li><a href=\"/man/\" title=\"manual &amp; pages\">man</a></li></ul></div>\n<div class=\"content\">\n";
    std::size_t start = 0, line_no = 0;
    while (start <= d.text.size()) {
        std::size_t end = d.text.find('\n', start);
        if (end == std::string::npos) end = d.text.size();
        const std::string_view line = std::string_view(d.text).substr(start, end - start);
        if (!line.empty()) {
            page += (line_no % 7 == 0) ? "<h2 class=\"title\">" : "<p>";
            page += escape(line);
            if (line_no % 3 == 0) page += " <b>&nbsp;&mdash;</b>";
            page += (line_no % 7 == 0) ? "</h2>\n" : "</p>\n";
            ++line_no;
        }
        start = end + 1;
    }
    page += "</div>\n<!-- footer -->\n<div id=\"footer\">&copy; 2024</div></body></html>\n";
    return page;
}

// The baseline: copies the bytes outside <...>; no entities, raw text or whitespace handling.
std::size_t naive_strip(std::string_view html, std::string& out) {
    out.clear();
    bool in_tag = false;
    for (const char c : html) {
        if (c == '<')
            in_tag = true;
        else if (c == '>')
            in_tag = false;
        else if (!in_tag)
            out += c;
    }
    return out.size();
}

void BM_NaiveTagStrip(benchmark::State& state) {
    std::string out;
    for (auto _ : state) {
        for (const auto& p : g_pages) benchmark::DoNotOptimize(naive_strip(p, out));
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(g_page_bytes));
}

void BM_HtmlToText(benchmark::State& state) {
    semfp::html_document doc;
    for (auto _ : state) {
        for (const auto& p : g_pages) {
            semfp::extract_html_into(p, doc);
            benchmark::DoNotOptimize(doc.text.data());
        }
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(g_page_bytes));
}

// Article text of the same pages (the visible text plus block records and the container score).
void BM_ExtractMainText(benchmark::State& state) {
    for (auto _ : state) {
        for (const auto& p : g_pages) benchmark::DoNotOptimize(semfp::extract_main_text(p));
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(g_page_bytes));
}

#if defined(SEMFP_BENCH_HAVE_JSON)
// The kit's web pages: all visible text vs. article text.
void BM_KitHtmlToText(benchmark::State& state) {
    semfp::html_document doc;
    for (auto _ : state) {
        for (const auto& p : g_kit_pages) {
            semfp::extract_html_into(p, doc);
            benchmark::DoNotOptimize(doc.text.data());
        }
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(g_kit_bytes));
}

void BM_KitExtractMainText(benchmark::State& state) {
    for (auto _ : state) {
        for (const auto& p : g_kit_pages) benchmark::DoNotOptimize(semfp::extract_main_text(p));
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(g_kit_bytes));
}
#endif

// The same pages fed in 4 KiB pieces through html_text_stream.
void BM_HtmlTextStream4K(benchmark::State& state) {
    for (auto _ : state) {
        for (const auto& p : g_pages) {
            semfp::html_text_stream stream;
            for (std::size_t i = 0; i < p.size(); i += 4096) stream.feed(std::string_view(p).substr(i, 4096));
            stream.finish();
            benchmark::DoNotOptimize(stream.text().data());
        }
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(g_page_bytes));
}

void BM_DecodeUtf8(benchmark::State& state) {
    std::string out;
    for (auto _ : state) {
        for (const auto& t : g_utf8) {
            out.clear();
            benchmark::DoNotOptimize(semfp::append_utf8(t, semfp::charset::utf8, out));
        }
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(g_utf8_bytes));
}

void BM_DecodeGb18030(benchmark::State& state) {
    std::string out;
    for (auto _ : state) {
        for (const auto& t : g_gb18030) {
            out.clear();
            benchmark::DoNotOptimize(semfp::append_utf8(t, semfp::charset::gb18030, out));
        }
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(g_gb_bytes));
}

void BM_SniffCharset(benchmark::State& state) {
    for (auto _ : state) {
        for (const auto& t : g_gb18030) benchmark::DoNotOptimize(semfp::detect_charset(t));
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(g_gb_bytes));
}

BENCHMARK(BM_NaiveTagStrip);
BENCHMARK(BM_HtmlToText);
BENCHMARK(BM_ExtractMainText);
BENCHMARK(BM_HtmlTextStream4K);
BENCHMARK(BM_DecodeUtf8);
BENCHMARK(BM_DecodeGb18030);
BENCHMARK(BM_SniffCharset);

#if defined(SEMFP_BENCH_HAVE_ICONV)
// Converts with iconv(3); returns false when a conversion fails.
bool iconv_convert(iconv_t cd, const std::string& in, std::string& out) {
    iconv(cd, nullptr, nullptr, nullptr, nullptr);
    out.resize(in.size() * 2 + 16);
    char* ip = const_cast<char*>(in.data());
    std::size_t il = in.size();
    char* op = out.data();
    std::size_t ol = out.size();
    if (iconv(cd, &ip, &il, &op, &ol) == static_cast<std::size_t>(-1)) return false;
    out.resize(out.size() - ol);
    return true;
}

void BM_IconvGb18030(benchmark::State& state) {
    iconv_t cd = iconv_open("UTF-8", "GB18030");
    std::string out;
    for (auto _ : state) {
        for (const auto& t : g_gb18030) benchmark::DoNotOptimize(iconv_convert(cd, t, out));
    }
    iconv_close(cd);
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(g_gb_bytes));
}
BENCHMARK(BM_IconvGb18030);
#endif

}  // namespace

int main(int argc, char** argv) {
    const auto dir = semfp::bench::corpus_dir(argc, argv);
    const auto docs = semfp::bench::load_corpus(dir / "manpages_zh_cn.jsonl");
    for (const auto& d : docs) {
        g_pages.push_back(make_page(d));
        g_page_bytes += g_pages.back().size();
        g_utf8.push_back(d.text);
        g_utf8_bytes += d.text.size();
    }
#if defined(SEMFP_BENCH_HAVE_ICONV)
    iconv_t cd = iconv_open("GB18030", "UTF-8");
    std::string gb;
    for (const auto& t : g_utf8) {
        if (!iconv_convert(cd, t, gb)) continue;
        g_gb18030.push_back(gb);
        g_gb_bytes += gb.size();
    }
    iconv_close(cd);
#endif
    std::printf("corpus: %zu documents; %.1f MB of HTML pages, %.1f MB UTF-8 text, %.1f MB GB18030 text\n", docs.size(),
                static_cast<double>(g_page_bytes) / 1e6, static_cast<double>(g_utf8_bytes) / 1e6,
                static_cast<double>(g_gb_bytes) / 1e6);
#if defined(SEMFP_BENCH_HAVE_JSON)
    if (const char* kit = std::getenv("SEMFP_KIT_DOCS")) {
        std::ifstream in(kit);
        std::string line;
        while (std::getline(in, line)) {
            if (line.find("\"format\": \"html\"") == std::string::npos && line.find("\"format\":\"html\"") == std::string::npos)
                continue;
            const auto j = nlohmann::json::parse(line, nullptr, false);
            if (j.is_discarded() || !j.contains("text") || !j["text"].is_string()) continue;
            g_kit_pages.push_back(j["text"].get<std::string>());
            g_kit_bytes += g_kit_pages.back().size();
        }
        std::printf("kit: %zu web pages, %.1f MB\n", g_kit_pages.size(), static_cast<double>(g_kit_bytes) / 1e6);
        if (!g_kit_pages.empty()) {
            benchmark::RegisterBenchmark("BM_KitHtmlToText", BM_KitHtmlToText);
            benchmark::RegisterBenchmark("BM_KitExtractMainText", BM_KitExtractMainText);
        }
    }
#endif
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
