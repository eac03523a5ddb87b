// The tool's JSON Lines reader on one arbitrary line: it either yields a document or reports the
// line as bad input (recorded in the document); it never throws or crashes.
#include "fuzz_support.hpp"

#include "input.hpp"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::string source = "fuzz.jsonl";
    semfp::cli::input_options opt;
    opt.format = semfp::cli::input_format::jsonl;
    semfp::cli::Document doc;
    doc.text.assign(reinterpret_cast<const char*>(data), size);
    doc.bytes = size;
    doc.source = &source;
    doc.line = 1;
    doc.pending = semfp::cli::input_format::jsonl;
    try {
        semfp::cli::finish_document(doc, opt, (size & 1) != 0);
    } catch (const std::exception& e) {
        semfp_fuzz::fail(e.what());
    }
    return 0;
}
