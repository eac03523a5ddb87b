#include "memory_input.hpp"

#include <algorithm>
#include <string>

namespace semfp::cli {

std::size_t split_line_documents(std::string_view bytes, input_format format, const std::string& source,
                                 std::size_t first_line, std::vector<Document>& docs,
                                 std::size_t max_document_bytes, std::vector<input_problem>* skipped) {
    std::size_t n = 0;
    std::size_t line_no = first_line - 1;
    std::size_t pos = 0;
    while (pos < bytes.size()) {
        const std::size_t nl = bytes.find('\n', pos);
        const std::size_t end = nl == std::string_view::npos ? bytes.size() : nl;
        std::string_view line = bytes.substr(pos, end - pos);
        const std::size_t consumed = end - pos + 1;
        pos = nl == std::string_view::npos ? bytes.size() : nl + 1;
        ++line_no;
        if (line.size() > max_document_bytes) {  // the reader's rule: the line as read, CR included
            if (skipped != nullptr)
                skipped->push_back({line_no, "line longer than the maximum document size (" +
                                                 std::to_string(max_document_bytes) +
                                                 " bytes; see --max-document-size), skipped"});
            continue;
        }
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line_no == 1 && line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);
        if (std::all_of(line.begin(), line.end(), [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }))
            continue;
        if (docs.size() <= n) docs.emplace_back();
        Document& d = docs[n++];
        d.text.assign(line);
        d.bytes = consumed;
        d.source = &source;
        d.line = line_no;
        d.pending = format;
    }
    docs.resize(n);
    return n;
}

}  // namespace semfp::cli
