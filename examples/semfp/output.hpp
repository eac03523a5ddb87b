#pragma once
// Output files ("-" is standard output) with write errors turned into output_error, and a
// minimal JSON string writer.

#include <cstdio>
#include <string>
#include <string_view>

namespace semfp::cli {

/// Appends `s` to `out` as a JSON string literal (quotes included). UTF-8 passes through;
/// control characters, quotes and backslashes are escaped.
void append_json_string(std::string& out, std::string_view s);

/// A buffered output file. Throws output_error when it cannot be opened, written or closed.
class OutputFile {
public:
    OutputFile() = default;
    /// Opens `path` for writing ("-": standard output).
    explicit OutputFile(const std::string& path);
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    [[nodiscard]] bool is_open() const noexcept { return m_file != nullptr; }
    /// Buffers `text`; flushes when the buffer is large.
    void write(std::string_view text);
    /// The buffer to append to directly (flushed by `commit`).
    [[nodiscard]] std::string& buffer() noexcept { return m_buffer; }
    /// Flushes if the buffer is large.
    void commit();
    /// Flushes and closes; throws output_error on failure.
    void close();

private:
    void flush();

    std::FILE* m_file = nullptr;
    bool m_owned = false;
    std::string m_path;
    std::string m_buffer;
};

}  // namespace semfp::cli
