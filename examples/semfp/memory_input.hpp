#pragma once
// Documents from bytes already in memory (a block of a JSON Lines file handed over by Python, a
// shard cut at line boundaries): split into lines exactly as DocumentReader splits a file, so
// that `finish_document` then applies the tool's bad-input rules unchanged and every caller sees
// the same ids, texts and problems as `semfp fingerprint` and `semfp dedup`.

#include "input.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace semfp::cli {

/// Splits `bytes` into line documents of `format` (jsonl or lines) as DocumentReader does: a
/// trailing CR is dropped, a UTF-8 byte order mark is dropped from the file's first line, blank
/// lines are skipped; a last line without a line break counts. `first_line` is the 1-based line
/// number of the first line of `bytes` in its file (1 when `bytes` is a whole file; the BOM rule
/// applies only then). `source` names the file in messages and must outlive the documents.
/// A line longer than `max_document_bytes` (without its line feed, as `--max-document-size`
/// counts it) is skipped and reported in `skipped`, with the tool's message, when given.
/// Returns the number of documents; `docs` is resized to hold them (buffers reused).
std::size_t split_line_documents(std::string_view bytes, input_format format, const std::string& source,
                                 std::size_t first_line, std::vector<Document>& docs,
                                 std::size_t max_document_bytes = static_cast<std::size_t>(-1),
                                 std::vector<input_problem>* skipped = nullptr);

}  // namespace semfp::cli
