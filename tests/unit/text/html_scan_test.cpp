#include <semfp/detail/html_scan.hpp>
#include <semfp/text/article.hpp>

#include "support/catch.hpp"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

// The lookups and byte tests behind the extractor's fast paths, against plain definitions.

TEST_CASE("html element table: sorted, every name found with its kind, others inline", "[html]") {
    using semfp::detail::html_element_kind;
    using semfp::detail::html_elements;
    using semfp::detail::html_kind;
    for (std::size_t i = 0; i < std::size(html_elements); ++i) {
        if (i > 0) CHECK(html_elements[i - 1].name < html_elements[i].name);
        CHECK(html_element_kind(html_elements[i].name) == html_elements[i].kind);
    }
    STATIC_REQUIRE(html_element_kind("div") == html_kind::block);
    CHECK(html_element_kind("") == html_kind::inline_element);
    CHECK(html_element_kind("DIV") == html_kind::inline_element);  // callers pass lower case
    CHECK(html_element_kind("di") == html_kind::inline_element);
    CHECK(html_element_kind("divx") == html_kind::inline_element);
    CHECK(html_element_kind(std::string_view("div\0", 4)) == html_kind::inline_element);
    CHECK(html_element_kind(std::string_view("p\0", 2)) == html_kind::inline_element);
    CHECK(html_element_kind("blockquotes") == html_kind::inline_element);
    CHECK(html_element_kind("figcaptionx") == html_kind::inline_element);
    CHECK(html_element_kind("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa") == html_kind::inline_element);
    CHECK(html_element_kind("-") == html_kind::inline_element);
    // Every two-letter name: only the table's are known.
    for (char a = 'a'; a <= 'z'; ++a) {
        for (char b = '0'; b <= 'z'; ++b) {
            const char n[2] = {a, b};
            const std::string_view name(n, 2);
            bool listed = false;
            for (const auto& e : html_elements) listed = listed || e.name == name;
            CHECK((html_element_kind(name) != html_kind::inline_element) == listed);
        }
    }
}

TEST_CASE("html_plain_ascii8 accepts exactly the eight-byte runs of plain ASCII", "[html]") {
    std::mt19937 rng(5);
    const char alphabet[] = {'a',  'Z',    '0',    '<',    '>',    '&',    ' ',    '\t',   '\n',   '\r',   '\f', '\v',
                             '\0', '\x01', '\x1F', '\x20', '\x21', '\x7F', '\x80', '\xC2', '\xE4', '\xFF', '~',  '#'};
    for (int round = 0; round < 20000; ++round) {
        char buf[8];
        for (char& c : buf) c = alphabet[rng() % sizeof alphabet];
        for (const bool amp : {false, true}) {
            bool expect = true;
            for (const char c : buf) {
                const auto u = static_cast<unsigned char>(c);
                if (u >= 0x80 || u <= 0x20 || (amp && c == '&')) expect = false;
            }
            CHECK(semfp::detail::html_plain_ascii8(buf, amp) == expect);
        }
    }
}

TEST_CASE("measure_article_blocks counts eight bytes at a time as it does byte by byte", "[article]") {
    std::mt19937 rng(9);
    const std::vector<std::string> pieces = {"\xE3\x80\x82",
                                             "\xE3\x80\x81",
                                             "\xE3\x80\x80",
                                             "\xEF\xBC\x8C",
                                             "\xEF\xBC\x81",
                                             "\xEF\xBC\x9F",
                                             "\xEF\xBC\x9B",
                                             "\xEF\xBC\xA1",
                                             "\xE4\xB8\xAD",
                                             "a",
                                             " ",
                                             "\n",
                                             "\t",
                                             "\x01",
                                             "\xC3\xA9",
                                             "\xF0\x9F\x98\x80",
                                             "\xE3",
                                             "\xEF\xBC",
                                             "\x80"};
    for (int round = 0; round < 300; ++round) {
        std::string t;
        const int n = static_cast<int>(rng() % 120);
        for (int k = 0; k < n; ++k) t += pieces[rng() % pieces.size()];
        std::vector<semfp::detail::article_block> blocks;
        for (std::size_t b = 0; b < t.size();) {
            const std::size_t e = std::min(t.size(), b + 1 + rng() % 40);
            semfp::detail::article_block blk;
            blk.begin = b;
            blk.end = e;
            blocks.push_back(blk);
            b = e;
        }
        semfp::detail::measure_article_blocks(t, blocks);
        for (const auto& b : blocks) {
            std::uint32_t chars = 0, punct = 0;
            for (std::size_t i = b.begin; i < b.end; ++i) {
                const auto c = static_cast<unsigned char>(t[i]);
                if ((c & 0xC0) != 0x80 && c > 0x20) ++chars;
                if (i + 2 < b.end) {
                    const std::string_view three(t.data() + i, 3);
                    if (three == "\xE3\x80\x80") --chars;
                    if (three == "\xE3\x80\x81" || three == "\xE3\x80\x82" || three == "\xEF\xBC\x8C" ||
                        three == "\xEF\xBC\x81" || three == "\xEF\xBC\x9F" || three == "\xEF\xBC\x9B")
                        ++punct;
                }
            }
            CHECK(b.chars == chars);
            CHECK(b.punct == punct);
        }
    }
}
