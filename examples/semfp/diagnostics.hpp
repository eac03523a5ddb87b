#pragma once
// Bad-input reports: printed to stderr with file and line, counted for the summary, and fatal
// under --strict.

#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

namespace semfp::cli {

/// Thrown when bad input is found under --strict (exit status 1).
class bad_input_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Thrown when an output cannot be written (exit status 1).
class output_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class Diagnostics {
public:
    /// At most this many reports are printed; the rest are only counted.
    static constexpr std::size_t max_printed = 20;

    explicit Diagnostics(bool strict) : m_strict(strict) {}

    /// Reports bad input at `where` (a file name), `line` (1-based; 0 = whole file). Throws
    /// bad_input_error under --strict.
    void bad_input(std::string_view where, std::size_t line, std::string_view message) {
        ++m_count;
        std::string text(where);
        if (line != 0) {
            text += ':';
            text += std::to_string(line);
        }
        text += ": ";
        text += message;
        if (m_strict) throw bad_input_error(text);
        if (m_count <= max_printed) {
            std::fprintf(stderr, "semfp: warning: %s\n", text.c_str());
        } else if (m_count == max_printed + 1) {
            std::fprintf(stderr, "semfp: warning: more bad input; only counted from here on\n");
        }
    }

    /// Number of bad inputs reported.
    [[nodiscard]] std::size_t count() const noexcept { return m_count; }
    [[nodiscard]] bool strict() const noexcept { return m_strict; }

private:
    bool m_strict;
    std::size_t m_count = 0;
};

}  // namespace semfp::cli
