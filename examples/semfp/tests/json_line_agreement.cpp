// The tool's two JSON Lines parsers agree: on every line below, the parser the tool uses (the
// fast one when built in, the reference one for what it leaves) gives the same document, or the
// same problem with the same message, as the reference parser alone; and with the fast parser
// built in, a warm thread parses lines into a reused Document without allocating. Exit status 1
// on any failure. Arguments: files whose lines are checked too (the fuzz seeds, samples).
#include "json_line.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <new>
#include <string>
#include <vector>

namespace {
std::atomic<std::size_t> allocations{0};
}  // namespace

// Counts every allocation of the program (the test's own as well: it only compares counts
// taken around the parsing).
void* operator new(std::size_t n) {
    allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
    allocations.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(n == 0 ? 1 : n);
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace {

using semfp::cli::Document;
using semfp::cli::input_options;

int failures = 0;
int fast_taken = 0;

std::string describe(const Document& d) {
    std::string s = d.valid ? "valid" : "invalid";
    s += " id=[" + d.id + "] text=[" + d.text + "] html=" + (d.html ? "1" : "0") + " raw=[" + d.raw + "]";
    for (const auto& p : d.problems) s += " problem=" + std::to_string(p.line) + ":" + p.message;
    return s;
}

Document fresh(const std::string& line) {
    static const std::string source = "agreement.jsonl";
    Document d;
    d.text = line;
    d.source = &source;
    d.line = 7;
    return d;
}

void check(const std::string& line, const input_options& opt, bool keep_raw) {
    Document used = fresh(line);
    Document reference = fresh(line);
    semfp::cli::parse_json_line(used, opt, keep_raw);
    if (line.find('\0') == std::string::npos) {
        semfp::cli::parse_json_line_reference(reference, opt, keep_raw);
    } else {
        semfp::cli::parse_json_line(reference, opt, keep_raw);  // the NUL rule comes first
    }
    Document fast = fresh(line);
    if (line.find('\0') == std::string::npos && semfp::cli::parse_json_line_fast(fast, opt, keep_raw)) {
        ++fast_taken;
        if (describe(fast) != describe(reference)) {
            ++failures;
            std::printf("FAST DIFFERS on %s\n  fast:      %s\n  reference: %s\n", line.c_str(), describe(fast).c_str(),
                        describe(reference).c_str());
        }
    }
    if (describe(used) != describe(reference)) {
        ++failures;
        std::printf("DIFFERS on %s\n  used:      %s\n  reference: %s\n", line.c_str(), describe(used).c_str(),
                    describe(reference).c_str());
    }
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> lines = {
        R"({"id": "a", "text": "plain"})",
        R"({"id": "a", "text": "<p>x</p>", "format": "html"})",
        R"({"id": "a", "text": "x", "format": "HTML"})",
        R"({"id": "a", "text": "x", "format": 1})",
        R"({"id": "a", "text": "x", "format": "html", "format": "text"})",
        R"({"id": "a", "text": "x", "format": 2, "format": "html"})",
        R"({"id": "a", "id": "b", "text": "x"})",
        R"({"id": 1, "id": "b", "text": "x"})",
        R"({"id": "b", "id": 1, "text": "x"})",
        R"({"id": "a", "text": "x", "text": "y"})",
        R"({"id": "a", "text": 1, "text": "y"})",
        R"({"id": "a", "text": "y", "text": null})",
        R"({"\u0069d": "esc", "t\u0065xt": "keys escaped"})",
        R"({"id": "a", "text": "\u4e2d\u6587 \ud83d\ude00 \" \\ \/ \b \f \n \r \t"})",
        R"({"id": "a", "text": "lone high \ud800"})",
        R"({"id": "a", "text": "lone low \udc00"})",
        R"({"id": "a", "text": "high then letter \ud800\u0041"})",
        R"({"id": "a", "text": "two highs \ud800\ud800"})",
        R"({"id": "a", "text": "nul escape \u0000 inside"})",
        R"({"id": "a", "text": "bad escape \x"})",
        R"({"id": "a", "text": "short escape \u12"})",
        "{\"id\": \"a\", \"text\": \"raw tab \t inside\"}",
        "{\"id\": \"a\", \"text\": \"raw control \x01 inside\"}",
        "{\"id\": \"a\", \"text\": \"raw DEL \x7f inside\"}",
        "{\"id\": \"a\", \"text\": \"raw CR \r inside\"}",
        R"({"id": "a", "text": "x", "n": 123456789012345678901234567890})",
        R"({"id": "a", "text": "x", "n": 1e999})",
        R"({"id": "a", "text": "x", "n": -1e-999})",
        R"({"id": "a", "text": "x", "n": 01})",
        R"({"id": "a", "text": "x", "n": 1.})",
        R"({"id": "a", "text": "x", "n": .5})",
        R"({"id": "a", "text": "x", "n": +1})",
        R"({"id": "a", "text": "x", "n": -})",
        R"({"id": "a", "text": "x", "n": NaN})",
        R"({"id": "a", "text": "x", "n": [1, 2, {"deep": [true, false, null]}]})",
        R"({"id": -0, "text": "x"})",
        R"({"id": -5, "text": "x"})",
        R"({"id": 18446744073709551615, "text": "x"})",
        R"({"id": 18446744073709551616, "text": "x"})",
        R"({"id": 1.0, "text": "x"})",
        R"({"id": 1e2, "text": "x"})",
        R"({"id": true, "text": "x"})",
        R"({"id": null, "text": "x"})",
        R"({"id": ["a"], "text": "x"})",
        R"({"id": "a", "text": {"nested": "x"}})",
        R"({"id": "a", "text": ""})",
        R"({"id": "", "text": "empty id"})",
        R"({"id": "a"})",
        R"({"text": "x"})",
        R"({"id": "a", "body": "x"})",
        R"({})",
        R"([])",
        R"(["not", "an", "object"])",
        R"("string")",
        R"(123)",
        R"(null)",
        R"({"id": "a", "text": "x"} trailing)",
        R"({"id": "a", "text": "x"} {"id": "b", "text": "y"})",
        R"({"id": "a", "text": "x",})",
        R"({"id": "a" "text": "x"})",
        R"({'id': 'a', 'text': 'x'})",
        R"({"id": "a", "text": "unterminated)",
        "   {\"id\": \"ws\", \"text\": \"around\"}  \t ",
        "{\"id\": \"a\", \"text\": \"x\"}\f",
        "\xEF\xBB\xBF{\"id\": \"bom\", \"text\": \"x\"}",
        "{\"id\": \"a\", \"text\": \"bad utf8 \xC3\x28\"}",
        "{\"id\": \"\xE4\xB8\xAD\", \"text\": \"\xE4\xB8\xAD\xE6\x96\x87\"}",
        "",
        " ",
        "{",
        "}",
    };
    static constexpr char with_nul[] = "{\"id\": \"a\", \"text\": \"raw NUL \0 inside\"}";
    lines.emplace_back(with_nul, sizeof with_nul - 1);
    // Deep nesting (beyond simdjson's default depth of 1024) and a long text.
    lines.push_back("{\"id\": \"deep\", \"text\": \"x\", \"n\": " + std::string(2000, '[') + std::string(2000, ']') + "}");
    lines.push_back("{\"id\": \"long\", \"text\": \"" + std::string(100000, 'y') + "\"}");
    for (int i = 1; i < argc; ++i) {
        std::ifstream in(argv[i], std::ios::binary);
        if (!in) {
            std::printf("cannot open %s\n", argv[i]);
            return 1;
        }
        for (std::string line; std::getline(in, line);) lines.push_back(line);
    }
    input_options plain;
    input_options custom;
    custom.id_field = "doc";
    custom.text_field = "body";
    input_options same;
    same.id_field = "text";
    for (const auto& line : lines) {
        for (const bool keep_raw : {false, true}) {
            check(line, plain, keep_raw);
            check(line, custom, keep_raw);
            check(line, same, keep_raw);
        }
    }
    check(R"({"doc": "a", "body": "custom fields"})", custom, false);

    // The common case allocates nothing per document once the buffers have grown.
    if (semfp::cli::have_fast_json_parser()) {
        const std::vector<std::string> common = {
            R"({"id": "d000001", "text": "\u8fd1\u5e74\u6765 plain text", "source": "web", "rate": 0.1})",
            R"({"id": "d000002-longer-id", "text": "<p>page</p>", "format": "html", "group": [1, 2, 3]})",
            R"({"text": "fields in another order", "kind": null, "id": "d3"})",
        };
        for (const bool keep_raw : {false, true}) {
            Document doc = fresh(common[0]);
            for (int round = 0; round < 2; ++round) {
                const std::size_t before = allocations.load();
                for (int i = 0; i < 100; ++i) {
                    doc.text.assign(common[static_cast<std::size_t>(i) % common.size()]);
                    doc.problems.clear();
                    doc.raw.clear();
                    semfp::cli::parse_json_line(doc, plain, keep_raw);
                    if (!doc.valid) {
                        ++failures;
                        std::printf("common line rejected: %s\n", describe(doc).c_str());
                    }
                }
                const std::size_t made = allocations.load() - before;
                std::printf("keep_raw=%d round %d: %zu allocation(s) for 100 lines\n", keep_raw ? 1 : 0, round, made);
                if (round == 1 && made != 0) {
                    ++failures;
                    std::printf("the fast parser allocated per document\n");
                }
            }
        }
    }
    std::printf("%zu lines, %d taken by the fast parser, %d disagreement(s)\n", lines.size(), fast_taken, failures);
    if (semfp::cli::have_fast_json_parser() && fast_taken == 0) {
        std::printf("the fast parser is built in but took no line\n");
        return 1;
    }
    return failures == 0 ? 0 : 1;
}
