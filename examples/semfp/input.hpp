#pragma once
// Input readers: JSON Lines, plain text with one document per line, whole text or HTML files,
// directories of such files, and standard input. Every document comes out as UTF-8.

#include "diagnostics.hpp"
#include "options.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace semfp::cli {

/// One input document.
struct Document {
    std::string id;
    std::string text;         ///< UTF-8; HTML markup when `html` is set
    bool html = false;        ///< the text is an HTML page: extract its text before use
    std::string raw;          ///< the original JSON line (JSON Lines input, when asked for)
    std::size_t bytes = 0;    ///< input bytes it was read from
};

/// The input format a path is read in when none is given (by extension; "-" is JSON Lines).
[[nodiscard]] input_format format_of_path(std::string_view path);

/// Decodes `bytes` to UTF-8 as `encoding` says (`detect`: byte order mark, HTML <meta>, then the
/// bytes themselves) and returns the text; `from_legacy` tells whether a GB charset was used.
/// Reports invalid UTF-8 (with the line of the first bad byte) through `diag`.
std::string decode_file_bytes(std::string_view bytes, input_encoding encoding, bool html, std::string_view where,
                              Diagnostics& diag, bool& from_legacy);

/// The visible text of an HTML page (without its title).
[[nodiscard]] std::string html_text(std::string_view markup);

/// Reads documents from every input in order.
class DocumentReader {
public:
    DocumentReader(const input_options& opt, Diagnostics& diag, bool keep_raw);
    ~DocumentReader();
    DocumentReader(const DocumentReader&) = delete;
    DocumentReader& operator=(const DocumentReader&) = delete;

    /// Reads the next document into `doc`; false when the inputs are exhausted. Bad input is
    /// reported through the Diagnostics and skipped.
    bool next(Document& doc);

    /// Fills `batch` with up to `max_docs` documents or about `max_bytes` bytes (reusing its
    /// elements' buffers); returns the number read (0 at the end).
    std::size_t read_batch(std::vector<Document>& batch, std::size_t max_docs, std::size_t max_bytes);

    /// Input bytes consumed so far.
    [[nodiscard]] std::uint64_t bytes_done() const noexcept;
    /// Total size of the inputs, 0 when unknown (standard input).
    [[nodiscard]] std::uint64_t bytes_total() const noexcept;
    /// Documents or lines decoded from GB18030/GBK rather than UTF-8.
    [[nodiscard]] std::size_t legacy_decoded() const noexcept;

private:
    struct state;
    std::unique_ptr<state> m_state;
};

}  // namespace semfp::cli
