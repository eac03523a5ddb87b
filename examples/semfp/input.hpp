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

/// A problem found in an input (reported with its place by `report_problems`).
struct input_problem {
    std::size_t line = 0;  ///< 1-based; 0: the whole file
    std::string message;
};

/// A problem the reader itself found (a file that cannot be opened, a line over the size limit):
/// kept with the next document read (`Document::preceding`), or for `take_reports`.
struct reader_report {
    std::string where;
    std::size_t line = 0;
    std::string message;
};

/// One input document. The reader fills it with the raw bytes it read; `finish_document` (which
/// may run on any thread) decodes and parses them.
struct Document {
    std::string id;
    std::string text;         ///< UTF-8; HTML markup when `html` is set
    bool html = false;        ///< the text is an HTML page: extract its text before use
    std::string raw;          ///< the original JSON line (JSON Lines input, when asked for)
    std::size_t bytes = 0;    ///< input bytes it was read from

    // Set by the reader.
    const std::string* source = nullptr;  ///< file name for messages
    std::size_t line = 0;                 ///< line of a JSON Lines / lines document
    input_format pending = input_format::detect;  ///< format of the raw bytes in `text`
    /// What the reader found wrong between the previous document and this one (over-long lines,
    /// files it could not open or read), oldest first: reported just before this document's own
    /// problems, so every report comes out in input order.
    std::vector<reader_report> preceding;

    // Set by finish_document.
    bool valid = true;                    ///< false: bad input, skipped
    bool legacy = false;                  ///< decoded from GB18030/GBK
    std::vector<input_problem> problems;  ///< to report, in input order
};

/// Spare capacity the reader leaves after the raw bytes of a line document (JSON Lines, lines):
/// a parser that reads a little past the end (simdjson reads up to 64 bytes) then works on the
/// line where it is, without growing and copying the buffer on the worker thread.
inline constexpr std::size_t line_slack = 64;

/// Decodes and parses the raw bytes the reader left in `doc` (thread-safe; `opt` is read only).
void finish_document(Document& doc, const input_options& opt, bool keep_raw);

/// Reports `doc.preceding`, then the problems of `doc` (throws bad_input_error under --strict at
/// the first); returns doc.valid.
bool report_problems(const Document& doc, Diagnostics& diag);

/// The input format a path is read in when none is given (by extension; "-" is JSON Lines).
[[nodiscard]] input_format format_of_path(std::string_view path);

/// Decodes the bytes of a whole file to UTF-8 as `encoding` says (`detect`: byte order mark,
/// HTML <meta>, then the bytes themselves); `from_legacy` tells whether a GB charset was used.
/// Invalid UTF-8 (with the line of the first bad byte) is added to `problems`.
std::string decode_file_bytes(std::string_view bytes, input_encoding encoding, bool html, bool& from_legacy,
                              std::vector<input_problem>& problems);

/// The text of an HTML page (without its title) that `mode` selects: its article
/// (`semfp::extract_main_text`) or all visible text.
[[nodiscard]] std::string html_text(std::string_view markup, html_text_mode mode);

/// `html_text` with the `--html-text` mode of the inputs being read (the last DocumentReader
/// constructed; `main` before any).
[[nodiscard]] std::string html_text(std::string_view markup);

/// Reads documents from every input in order.
class DocumentReader {
public:
    DocumentReader(const input_options& opt, Diagnostics& diag, bool keep_raw);
    ~DocumentReader();
    DocumentReader(const DocumentReader&) = delete;
    DocumentReader& operator=(const DocumentReader&) = delete;

    /// Reads the next document's raw bytes into `doc` (complete it with `finish_document`);
    /// false when the inputs are exhausted. What the reader finds wrong on the way (unreadable
    /// files, over-long lines) goes to `doc.preceding`; found after the last document, it is
    /// reported (or kept, see `defer_reports`) when `next` returns false.
    bool next(Document& doc);

    /// Fills `batch` with up to `max_docs` documents or about `max_bytes` bytes (reusing its
    /// elements' buffers); returns the number read (0 at the end). What the reader finds wrong
    /// after the last document of the input is reported (or kept) by the call that returns 0,
    /// so after the batch's documents have been reported.
    std::size_t read_batch(std::vector<Document>& batch, std::size_t max_docs, std::size_t max_bytes);

    /// From now on (`on`), the reader's own reports that follow the last document are kept for
    /// `take_reports` instead of going to the Diagnostics (the others travel with the document
    /// they precede). Reports of the directories scanned by the constructor are not kept.
    void defer_reports(bool on) noexcept;
    /// Moves the reports kept since the last call to `out` (cleared first), oldest first.
    void take_reports(std::vector<reader_report>& out);

    /// Input bytes consumed so far.
    [[nodiscard]] std::uint64_t bytes_done() const noexcept;
    /// Total size of the inputs, 0 when unknown (standard input).
    [[nodiscard]] std::uint64_t bytes_total() const noexcept;

private:
    struct state;
    std::unique_ptr<state> m_state;
};

}  // namespace semfp::cli
