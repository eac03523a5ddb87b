#pragma once
/// \file
/// Shared reader for line-oriented word lists (stopwords, IDF tables, dictionaries): one entry
/// per line, with a UTF-8 byte order mark, CRLF line ends, blank lines and `#` comment lines
/// accepted. Lines are read with a length bound, so a hostile file (gigabytes without a line
/// feed) is an error at its line, not an allocation failure.

#include <semfp/error.hpp>

#include <cstddef>
#include <ios>
#include <istream>
#include <string>
#include <string_view>

namespace semfp {
inline namespace v0 {
namespace detail {

/// What `read_bounded_line` found.
enum class line_status : unsigned char {
    line,      ///< a line (possibly the last one, without a line feed)
    too_long,  ///< a line longer than the bound: skipped up to its line feed, `line` left empty
    end,       ///< no more input (or a read error: check the stream's `bad()`)
};

/// Result of `read_bounded_line`.
struct bounded_line {
    line_status status;
    std::size_t consumed;  ///< bytes taken from the stream, line feed included
};

/// Reads one line (without its line feed) of at most `max_bytes` bytes into `line`, without
/// ever holding more than `max_bytes` plus a 64 KiB chunk in memory: a longer line is consumed
/// and reported as `too_long`, so hostile input costs time, never unbounded memory. Reads line
/// by line (never ahead), so it suits interactive streams. O(length of the line).
inline bounded_line read_bounded_line(std::istream& in, std::string& line, std::size_t max_bytes) {
    line.clear();
    char chunk[1 << 16];
    std::size_t consumed = 0;
    bool too_long = false;
    for (;;) {
        in.getline(chunk, sizeof chunk, '\n');
        const auto got = static_cast<std::size_t>(in.gcount());
        consumed += got;
        const bool eof = in.eof();
        const bool full = in.fail() && !eof && got == sizeof chunk - 1;
        const bool delim = !in.fail() && !eof;
        const std::size_t stored = delim ? got - 1 : got;
        if (!too_long) {
            if (line.size() + stored > max_bytes) {
                too_long = true;
                std::string().swap(line);
            } else {
                line.append(chunk, stored);
            }
        }
        if (full) {
            in.clear(in.rdstate() & ~std::ios::failbit);
            continue;
        }
        if (consumed == 0) return {line_status::end, 0};
        return {too_long ? line_status::too_long : line_status::line, consumed};
    }
}

/// Longest line accepted in a word list (stopwords, IDF table, dictionary): far above any real
/// entry, low enough that a file without line feeds cannot take the memory.
inline constexpr std::size_t max_list_line_bytes = std::size_t{1} << 20;

/// Calls `f(line, line_number)` for every entry line of `in` (1-based numbers, BOM and CR
/// removed, blank and comment lines skipped). Throws `semfp::io_error` naming `what` when the
/// stream fails other than at its end, `semfp::parse_error` for a line longer than
/// `max_list_line_bytes`; whatever `f` throws propagates.
template <class F>
void for_each_list_line(std::istream& in, const char* what, F&& f) {
    std::string line;
    std::size_t line_no = 0;
    for (;;) {
        const bounded_line r = read_bounded_line(in, line, max_list_line_bytes);
        if (r.status == line_status::end) break;
        ++line_no;
        if (r.status == line_status::too_long) {
            throw_parse_error(std::string(what) + ": line longer than " + std::to_string(max_list_line_bytes) +
                                  " bytes",
                              line_no, 1);
        }
        std::string_view v = line;
        if (line_no == 1 && v.substr(0, 3) == "\xEF\xBB\xBF") v.remove_prefix(3);
        if (!v.empty() && v.back() == '\r') v.remove_suffix(1);
        if (v.empty() || v.front() == '#') continue;
        f(v, line_no);
    }
    if (in.bad()) throw_io_error(std::string(what) + ": read error");
}

}  // namespace detail
}  // namespace v0
}  // namespace semfp
