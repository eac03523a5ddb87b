#include <semfp/core/weighting.hpp>
#include <semfp/detail/list_lines.hpp>
#include <semfp/text/dictionary.hpp>
#include <semfp/text/stopwords.hpp>

#include "support/catch.hpp"

#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<std::string> lines_of(const std::string& text, std::size_t max, std::vector<std::size_t>* long_lines) {
    std::istringstream in(text);
    std::vector<std::string> out;
    std::string line;
    std::size_t n = 0, consumed = 0;
    for (;;) {
        const auto r = semfp::detail::read_bounded_line(in, line, max);
        if (r.status == semfp::detail::line_status::end) break;
        ++n;
        consumed += r.consumed;
        if (r.status == semfp::detail::line_status::too_long) {
            REQUIRE(line.empty());
            if (long_lines != nullptr) long_lines->push_back(n);
            continue;
        }
        out.push_back(line);
    }
    REQUIRE(consumed == text.size());
    return out;
}

}  // namespace

TEST_CASE("read_bounded_line splits like getline and bounds each line", "[detail][list_lines]") {
    using v = std::vector<std::string>;
    REQUIRE(lines_of("", 10, nullptr).empty());
    REQUIRE(lines_of("a\nbc\n", 10, nullptr) == v{"a", "bc"});
    REQUIRE(lines_of("a\n\nlast", 10, nullptr) == v{"a", "", "last"});
    REQUIRE(lines_of(std::string("nul\0byte\n", 9), 10, nullptr) == v{std::string("nul\0byte", 8)});
    // Lines longer than one internal chunk (64 KiB) are joined, up to the bound.
    const std::string big(200000, 'x');
    REQUIRE(lines_of(big + "\nok\n" + big, 300000, nullptr) == v{big, "ok", big});
    std::vector<std::size_t> long_lines;
    REQUIRE(lines_of(big + "\nok\n" + big, 199999, &long_lines) == v{"ok"});
    REQUIRE(long_lines == std::vector<std::size_t>{1, 3});
    long_lines.clear();
    REQUIRE(lines_of("12345\n123456\n", 5, &long_lines) == v{"12345"});
    REQUIRE(long_lines == std::vector<std::size_t>{2});
}

TEST_CASE("word-list loaders refuse a line over the bound with its line number", "[detail][list_lines]") {
    const std::string huge(semfp::detail::max_list_line_bytes + 1, 'a');
    const std::string text = "# comment\nword\n" + huge + "\n";
    {
        semfp::StopwordList set;
        std::istringstream in(text);
        try {
            set.load(in);
            FAIL("accepted");
        } catch (const semfp::parse_error& e) {
            REQUIRE(e.line() == 3);
        }
    }
    {
        semfp::Dictionary d;
        REQUIRE(d.add("\xE4\xB8\xAD\xE6\x96\x87"));  // 中文
        const std::size_t before = d.size();
        std::istringstream in("\xE8\xAF\x8D\xE5\x85\xB8 5\n" + huge);  // 词典 5
        REQUIRE_THROWS_AS(d.load(in), semfp::parse_error);
        REQUIRE(d.size() == before);  // strong guarantee
    }
}
