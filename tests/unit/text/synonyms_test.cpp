#include "support/catch.hpp"

#include <semfp/text/synonyms.hpp>
#include <semfp/text/tokenizers.hpp>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

TEST_CASE("SynonymTable maps variants to canonical forms", "[text][synonyms]") {
    semfp::SynonymTable t;
    std::istringstream in("\xef\xbb\xbf# comment\r\nnyc\tnew york\r\n\nNYC\tnew york\nbig apple\tnew york\n");
    t.load(in);
    CHECK(t.size() == 2);  // "NYC" normalizes to the existing "nyc"
    CHECK(t.canonical("nyc") == "new york");
    CHECK(t.canonical("big apple") == "new york");
    CHECK(t.canonical("boston") == "boston");
}

TEST_CASE("SynonymTable reports the line of a bad entry and stays unchanged", "[text][synonyms]") {
    semfp::SynonymTable t;
    t.add("a", "b");
    auto expect_line = [&](const std::string& text, std::size_t line) {
        std::istringstream in(text);
        try {
            t.load(in);
            FAIL("no parse_error");
        } catch (const semfp::parse_error& e) {
            CHECK(e.line() == line);
        }
        CHECK(t.size() == 1);
        CHECK(t.canonical("c") == "c");
    };
    expect_line("c\td\nno tab here\n", 2);
    expect_line("c\td\ne\tf\tg\n", 2);
    expect_line("\tcanonical\n", 1);
    expect_line("c\td\nc\te\n", 2);
    expect_line("a\tz\n", 1);
    expect_line("c\td\n" + std::string(semfp::SynonymTable::max_line_bytes + 1, 'x') + "\n", 2);
    CHECK_THROWS_AS(t.add("a", "z"), semfp::invalid_argument_error);
}

TEST_CASE("SynonymFilter passes canonical forms to the sink", "[text][synonyms]") {
    auto t = std::make_shared<semfp::SynonymTable>();
    t->add("colour", "color");
    const semfp::SynonymFilter<semfp::WhitespaceTokenizer> f(semfp::WhitespaceTokenizer{}, t);
    std::vector<std::string> out;
    f.tokenize("the colour red", [&](std::string_view w) { out.emplace_back(w); });
    CHECK(out == std::vector<std::string>{"the", "color", "red"});
    CHECK_THROWS_AS(semfp::SynonymFilter<semfp::WhitespaceTokenizer>(semfp::WhitespaceTokenizer{}, nullptr),
                    semfp::invalid_argument_error);
    static_assert(semfp::Tokenizer<semfp::SynonymFilter<semfp::WhitespaceTokenizer>>);
}
