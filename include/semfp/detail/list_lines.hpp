#pragma once
/// \file
/// Shared reader for line-oriented word lists (stopwords, IDF tables): one entry per line, with a
/// UTF-8 byte order mark, CRLF line ends, blank lines and `#` comment lines accepted.

#include <semfp/error.hpp>

#include <cstddef>
#include <istream>
#include <string>
#include <string_view>

namespace semfp {
inline namespace v0 {
namespace detail {

/// Calls `f(line, line_number)` for every entry line of `in` (1-based numbers, BOM and CR
/// removed, blank and comment lines skipped). Throws `semfp::io_error` naming `what` when the
/// stream fails other than at its end; whatever `f` throws propagates.
template <class F>
void for_each_list_line(std::istream& in, const char* what, F&& f) {
    std::string line;
    std::size_t line_no = 0;
    while (std::getline(in, line)) {
        ++line_no;
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
