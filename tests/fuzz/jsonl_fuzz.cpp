// The tool's JSON Lines reader on one arbitrary line: it either yields a document or reports the
// line as bad input (recorded in the document); it never throws or crashes. When the fast parser
// (simdjson) is built in, it must agree with the reference parser (nlohmann/json) on the line:
// same document, or the reference parser decides.
#include "fuzz_support.hpp"

#include "input.hpp"
#include "json_line.hpp"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>

namespace {

bool same(const semfp::cli::Document& a, const semfp::cli::Document& b) {
    if (a.valid != b.valid || a.id != b.id || a.text != b.text || a.html != b.html || a.raw != b.raw) return false;
    if (a.problems.size() != b.problems.size()) return false;
    for (std::size_t i = 0; i < a.problems.size(); ++i) {
        if (a.problems[i].line != b.problems[i].line || a.problems[i].message != b.problems[i].message) return false;
    }
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::string source = "fuzz.jsonl";
    semfp::cli::input_options opt;
    opt.format = semfp::cli::input_format::jsonl;
    const bool keep_raw = (size & 1) != 0;
    const std::string line(reinterpret_cast<const char*>(data), size);
    auto fresh = [&] {
        semfp::cli::Document doc;
        doc.text = line;
        doc.bytes = size;
        doc.source = &source;
        doc.line = 1;
        doc.pending = semfp::cli::input_format::jsonl;
        return doc;
    };
    try {
        semfp::cli::Document doc = fresh();
        semfp::cli::finish_document(doc, opt, keep_raw);
        // The parsers on the same bytes (the NUL rule is checked before either runs).
        if (line.find('\0') == std::string::npos) {
            semfp::cli::Document used = fresh();
            semfp::cli::Document reference = fresh();
            semfp::cli::parse_json_line(used, opt, keep_raw);
            semfp::cli::parse_json_line_reference(reference, opt, keep_raw);
            semfp_fuzz::check(same(used, reference), "the JSON Lines parsers disagree");
            semfp::cli::Document fast = fresh();
            if (semfp::cli::parse_json_line_fast(fast, opt, keep_raw)) {
                semfp_fuzz::check(same(fast, reference), "the fast JSON parser disagrees with the reference one");
            }
        }
    } catch (const std::exception& e) {
        semfp_fuzz::fail(e.what());
    }
    return 0;
}
