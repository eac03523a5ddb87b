#pragma once
// The JSON Lines parser of the tool's inputs. Two implementations with one set of rules: a fast
// one (simdjson, when the build found it) that takes the common case without allocating per
// document, and the reference one (nlohmann/json) that decides everything else - every bad line,
// an integer id, duplicate fields the fast one cannot settle - so the results and the messages
// are the same whichever parser is built in.

#include "input.hpp"
#include "options.hpp"

namespace semfp::cli {

/// Whether the fast parser is built in (simdjson found at configure time).
[[nodiscard]] bool have_fast_json_parser() noexcept;

/// Parses the JSON line in `doc.text` into `doc.id`, `doc.text` and `doc.html` (the raw line goes
/// to `doc.raw` when `keep_raw`), or records the line as bad input (`doc.valid` false, a problem
/// with the line number). The fast parser when it can, else the reference parser. Thread-safe.
void parse_json_line(Document& doc, const input_options& opt, bool keep_raw);

/// The reference parser alone (no NUL check: `parse_json_line` does it first).
void parse_json_line_reference(Document& doc, const input_options& opt, bool keep_raw);

/// The fast parser alone: true when it parsed the line (a JSON object whose id and text fields
/// are strings), false - `doc` untouched - when the reference parser must decide. Always false
/// without simdjson. Thread-safe (one parser per thread, its buffers reused).
[[nodiscard]] bool parse_json_line_fast(Document& doc, const input_options& opt, bool keep_raw);

}  // namespace semfp::cli
