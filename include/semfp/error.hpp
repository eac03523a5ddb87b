#pragma once
/// \file
/// Exception types thrown at semfp's boundaries (malformed input files, bad parameters, corrupt
/// saved data). Hot paths (hashing, tokenizing, fingerprinting, index queries) never throw.

#include <cstddef>
#include <stdexcept>
#include <string>

namespace semfp {
inline namespace v0 {

/// Base of every exception semfp throws.
class error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A parameter outside its documented range (for example a Hamming radius above an index's limit).
class invalid_argument_error : public error {
public:
    using error::error;
};

/// Malformed text input: a dictionary line, a hexadecimal fingerprint, a word list.
/// `line()` and `column()` are 1-based; 0 means "not applicable".
class parse_error : public error {
public:
    parse_error(const std::string& what, std::size_t line, std::size_t column)
        : error(what), m_line(line), m_column(column) {}
    [[nodiscard]] std::size_t line() const noexcept { return m_line; }
    [[nodiscard]] std::size_t column() const noexcept { return m_column; }

private:
    std::size_t m_line;
    std::size_t m_column;
};

/// Saved binary data that is truncated, corrupted, of another version or of another type.
/// `offset()` is the byte offset in the stream where the problem was detected.
class format_error : public error {
public:
    format_error(const std::string& what, std::size_t offset) : error(what), m_offset(offset) {}
    [[nodiscard]] std::size_t offset() const noexcept { return m_offset; }

private:
    std::size_t m_offset;
};

/// A file or stream could not be opened, read or written.
class io_error : public error {
public:
    using error::error;
};

namespace detail {

[[noreturn]] inline void throw_invalid_argument(const std::string& what) {
    throw invalid_argument_error(what);
}
[[noreturn]] inline void throw_parse_error(const std::string& what, std::size_t line, std::size_t column) {
    std::string msg = what;
    if (line != 0) {
        msg += " (line " + std::to_string(line);
        if (column != 0) msg += ", column " + std::to_string(column);
        msg += ")";
    } else if (column != 0) {
        msg += " (position " + std::to_string(column) + ")";
    }
    throw parse_error(msg, line, column);
}
[[noreturn]] inline void throw_format_error(const std::string& what, std::size_t offset) {
    throw format_error(what + " (at byte " + std::to_string(offset) + ")", offset);
}
[[noreturn]] inline void throw_io_error(const std::string& what) { throw io_error(what); }

}  // namespace detail
}  // namespace v0
}  // namespace semfp
