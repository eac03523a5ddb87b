#pragma once
// Outputs of the tool. A file the user names is never truncated in place: it is written to a
// unique temporary file in the same directory, flushed and synced, and renamed over the target
// only by `close()`. A run that fails or stops half-way (an exception, --strict, a full disk)
// therefore leaves the previous file as it was and removes its temporary. "-" (standard output)
// and targets that are not regular files (/dev/null, a FIFO, a terminal) stream directly: there
// is nothing to replace atomically.
//
// Every command that writes a file uses `AtomicOutput` (or, for a library `save`, the library's
// own atomic save) and calls `check_no_overlap` (overlap.hpp) before opening anything.

#include <cstdio>
#include <string>
#include <string_view>

namespace semfp::cli {

/// How `append_json_string` writes what is not printable ASCII.
enum class json_escape {
    /// Bytes from 0x80 up pass through as they are (the tool's JSON outputs: UTF-8 stays UTF-8).
    utf8,
    /// Every character from U+0080 up as `\uxxxx` (lower-case hex; a UTF-16 surrogate pair above
    /// the BMP), as Python's `json.dumps` writes it by default (`ensure_ascii=True`): the canonical
    /// option texts that digest.hpp hashes. The UTF-8 is decoded leniently: a byte that does not
    /// start a complete sequence (lead byte + continuation bytes) is written as `\ufffd` alone.
    ascii,
};

/// Appends `s` to `out` as a JSON string literal (quotes included): `"` and `\` escaped, the
/// controls U+0000-U+001F and U+007F as `\b \t \n \f \r` or `\u00xx`, the rest as `mode` says.
void append_json_string(std::string& out, std::string_view s, json_escape mode = json_escape::utf8);

/// A buffered output written atomically. Throws `output_error` when it cannot be created,
/// written, synced or renamed.
///
/// Lifecycle: construct (creates the temporary; the target is not touched), append through
/// `write` or `buffer()` + `commit()`, then `close()` to publish. Destroying the object without
/// a successful `close()` discards everything written: the temporary is removed and the target
/// keeps its previous content (or stays absent). Standard output ("-") and non-regular targets
/// are written in place, so for them the data already written stays written.
///
/// The temporary is named `.<target name>.semfp-<pid>-<random>` beside the target (so the rename
/// never crosses file systems); a symbolic link as target is followed and the file it points at
/// is replaced, not the link. A new file gets the permissions `fopen` would give it; a replaced
/// file keeps its mode.
class AtomicOutput {
public:
    AtomicOutput() = default;
    /// Prepares an output for `path` ("-": standard output). Throws `output_error` when the
    /// temporary cannot be created (directory missing or not writable).
    explicit AtomicOutput(const std::string& path);
    /// Discards the output unless `close()` succeeded (see the class comment).
    ~AtomicOutput();
    AtomicOutput(const AtomicOutput&) = delete;
    AtomicOutput& operator=(const AtomicOutput&) = delete;

    [[nodiscard]] bool is_open() const noexcept { return m_file != nullptr; }
    /// The name given by the user (or "<stdout>"), for messages.
    [[nodiscard]] const std::string& name() const noexcept { return m_path; }
    /// Buffers `text`; flushes when the buffer is large.
    void write(std::string_view text);
    /// The buffer to append to directly (flushed by `commit`).
    [[nodiscard]] std::string& buffer() noexcept { return m_buffer; }
    /// Flushes if the buffer is large (does not publish anything: see `close`).
    void commit();
    /// Writes the rest, syncs the temporary to disk and renames it over the target; throws
    /// `output_error` on failure, in which case the temporary is removed and the target is
    /// untouched. Does nothing when already closed or discarded.
    void close();
    /// Drops everything written so far and removes the temporary (never throws).
    void discard() noexcept;

private:
    void flush();

    std::FILE* m_file = nullptr;
    bool m_owned = false;     // a file we opened (not stdout)
    std::string m_path;       // as given, for messages
    std::string m_target;     // what the temporary is renamed to (symbolic links resolved)
    std::string m_temp;       // the temporary; empty when writing in place
    std::string m_buffer;
};

/// The former name of `AtomicOutput` (same behaviour).
using OutputFile = AtomicOutput;

}  // namespace semfp::cli
