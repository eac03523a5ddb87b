#include <semfp/copy/passages.hpp>
#include <semfp/detail/suffix_automaton.hpp>
#include <semfp/text/utf8.hpp>

#include "support/catch.hpp"
#include "support/sample_text.hpp"

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

std::string random_han(std::size_t n, std::uint64_t seed, char32_t first = 0x4E00, std::uint32_t range = 3000) {
    std::mt19937_64 rng(seed);
    std::string s;
    for (std::size_t i = 0; i < n; ++i) semfp::utf8::append(s, static_cast<char32_t>(first + rng() % range));
    return s;
}

std::string_view slice(std::string_view s, std::size_t b, std::size_t e) { return s.substr(b, e - b); }

// Longest common substring length by dynamic programming (code points of two ASCII strings).
std::size_t lcs_length(std::string_view a, std::string_view b) {
    std::vector<std::size_t> prev(b.size() + 1, 0), cur(b.size() + 1, 0);
    std::size_t best = 0;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j) {
            cur[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1 : 0;
            best = std::max(best, cur[j]);
        }
        std::swap(prev, cur);
    }
    return best;
}

}  // namespace

TEST_CASE("passages: a planted passage is found with original offsets in both texts", "[copy][passages]") {
    const std::string passage = random_han(60, 1);
    const std::string a = random_han(100, 2) + passage + random_han(50, 3);
    const std::string b = random_han(20, 4) + passage + random_han(200, 5);
    for (const bool fast : {false, true}) {
        semfp::passage_options opt;
        opt.min_length = 20;
        const auto ps = fast ? semfp::copied_passages(a, b, opt) : semfp::shared_passages(a, b, opt);
        INFO((fast ? "copied_passages" : "shared_passages"));
        REQUIRE(ps.size() == 1);
        CHECK(ps[0].length >= 60);
        CHECK(ps[0].length <= 62);  // random neighbours may extend it by chance
        CHECK(slice(a, ps[0].a_begin, ps[0].a_end) == slice(b, ps[0].b_begin, ps[0].b_end));
        CHECK(slice(a, ps[0].a_begin, ps[0].a_end).find(passage) != std::string_view::npos);
    }
}

TEST_CASE("passages: the longest passage has the dynamic-programming length", "[copy][passages]") {
    std::mt19937_64 rng(11);
    for (int round = 0; round < 200; ++round) {
        std::string a, b;
        for (int i = 0; i < 60; ++i) a += static_cast<char>('a' + rng() % 3);
        for (int i = 0; i < 50; ++i) b += static_cast<char>('a' + rng() % 3);
        semfp::passage_options opt;
        opt.min_length = 1;
        opt.count = 1;
        const auto ps = semfp::shared_passages(a, b, opt);
        REQUIRE(ps.size() == 1);
        CHECK(ps[0].length == lcs_length(a, b));
        CHECK(slice(a, ps[0].a_begin, ps[0].a_end) == slice(b, ps[0].b_begin, ps[0].b_end));
    }
}

TEST_CASE("passages: offsets round-trip through width and Traditional-to-Simplified folding", "[copy][passages]") {
    // The copy is written in Traditional characters with full-width digits and letters.
    const std::string simplified = "\xE8\xAF\xAD\xE4\xB9\x89\xE6\x8C\x87\xE7\xBA\xB9\xE7\x94\xA8\xE4\xBA\x8E\xE7\xBD\x91"
                                   "\xE9\xA1\xB5\xE5\x8E\xBB\xE9\x87\x8D" "2024abc";  // 语义指纹用于网页去重2024abc
    const std::string traditional = "\xE8\xAA\x9E\xE7\xBE\xA9\xE6\x8C\x87\xE7\xB4\x8B\xE7\x94\xA8\xE6\x96\xBC\xE7\xB6\xB2"
                                    "\xE9\xA0\x81\xE5\x8E\xBB\xE9\x87\x8D\xEF\xBC\x92\xEF\xBC\x90\xEF\xBC\x92\xEF\xBC\x94"
                                    "\xEF\xBD\x81\xEF\xBD\x82\xEF\xBD\x83";  // 語義指紋用於網頁去重２０２４ａｂｃ
    const std::string a = random_han(30, 7) + "\xE3\x80\x82" + simplified + "\xE3\x80\x82" + random_han(30, 8);
    const std::string b = "\xE3\x80\x8C" + random_han(10, 9) + "\xE3\x80\x8D" + traditional + "!!" + random_han(25, 10);
    semfp::passage_options opt;
    opt.min_length = 10;
    for (const bool fast : {false, true}) {
        INFO((fast ? "copied_passages" : "shared_passages"));
        semfp::Winnower<> w({3, 8, false});
        const auto ps = fast ? semfp::copied_passages(a, b, opt, w) : semfp::shared_passages(a, b, opt);
        REQUIRE(ps.size() == 1);
        CHECK(ps[0].length == 17);
        CHECK(slice(a, ps[0].a_begin, ps[0].a_end) == simplified);
        CHECK(slice(b, ps[0].b_begin, ps[0].b_end) == traditional);
    }
}

TEST_CASE("passages: white space runs are one space and never ends of a passage", "[copy][passages]") {
    const std::string a = "xx alpha beta  gamma\n\tdelta yy";
    const std::string b = "zz\nalpha beta gamma delta\n";
    semfp::passage_options opt;
    opt.min_length = 5;
    const auto ps = semfp::shared_passages(a, b, opt);
    REQUIRE(ps.size() == 1);
    CHECK(slice(a, ps[0].a_begin, ps[0].a_end) == "alpha beta  gamma\n\tdelta");
    CHECK(slice(b, ps[0].b_begin, ps[0].b_end) == "alpha beta gamma delta");
    CHECK(ps[0].length == 22);
}

TEST_CASE("passages: chosen passages do not overlap and respect count and min_length", "[copy][passages]") {
    const std::string p1 = random_han(40, 21), p2 = random_han(25, 22), p3 = random_han(12, 23);
    const std::string a = p1 + random_han(10, 24) + p2 + random_han(10, 25) + p3 + p1;
    const std::string b = p3 + random_han(8, 26) + p2 + random_han(8, 27) + p1;
    semfp::passage_options opt;
    opt.min_length = 10;
    const auto ps = semfp::shared_passages(a, b, opt);
    REQUIRE(ps.size() == 3);
    CHECK(ps[0].length >= 40);
    CHECK(ps[1].length >= 25);
    CHECK(ps[2].length >= 12);
    for (std::size_t i = 0; i < ps.size(); ++i)
        for (std::size_t j = i + 1; j < ps.size(); ++j) {
            CHECK((ps[i].a_end <= ps[j].a_begin || ps[j].a_end <= ps[i].a_begin));
            CHECK((ps[i].b_end <= ps[j].b_begin || ps[j].b_end <= ps[i].b_begin));
        }
    opt.count = 2;
    CHECK(semfp::shared_passages(a, b, opt).size() == 2);
    opt.count = 5;
    opt.min_length = 30;
    CHECK(semfp::shared_passages(a, b, opt).size() == 1);
}

TEST_CASE("passages: bad input", "[copy][passages]") {
    CHECK(semfp::shared_passages("", "abc").empty());
    CHECK(semfp::copied_passages("abc", "").empty());
    semfp::passage_options opt;
    opt.min_length = 3;
    // Malformed bytes match only themselves; NUL is an ordinary character.
    const std::string a("q\xFF\xFEzz\0yy", 8), b("r\xFF\xFEzz\0yyw", 9);
    const auto ps = semfp::shared_passages(a, b, opt);
    REQUIRE(ps.size() == 1);
    CHECK(ps[0].length == 7);
    CHECK(ps[0].a_begin == 1);
    CHECK(ps[0].b_end == 8);
    const std::string c("q\xFD\xFCzz\0yy", 8);
    const auto pc = semfp::shared_passages(c, b, opt);
    REQUIRE(pc.size() == 1);
    CHECK(pc[0].length == 5);
}

TEST_CASE("suffix automaton: bounded states and edges whatever the alphabet", "[copy][passages]") {
    // 60,000 distinct code points: the classic sorted-vector layout is quadratic here.
    std::vector<char32_t> distinct(60000);
    for (std::size_t i = 0; i < distinct.size(); ++i) distinct[i] = static_cast<char32_t>(0x20000 + i);
    const semfp::detail::suffix_automaton sam(distinct);
    CHECK(sam.state_count() <= 2 * distinct.size());
    CHECK(sam.edge_count() <= 3 * distinct.size());
    CHECK(sam.memory_bytes() <= 250 * distinct.size());
    // One repeated character: a chain, linear in size.
    const std::vector<char32_t> same(100000, U'a');
    const semfp::detail::suffix_automaton chain(same);
    CHECK(chain.state_count() == same.size() + 1);
    CHECK(chain.edge_count() == same.size());
    // Every substring is accepted, others are not.
    const std::vector<char32_t> text = {U'a', U'b', U'c', U'a', U'b', U'd'};
    const semfp::detail::suffix_automaton s(text);
    auto accepts = [&](std::u32string_view w) {
        std::uint32_t v = 0;
        for (const char32_t c : w) {
            v = s.next(v, c);
            if (v == semfp::detail::suffix_automaton::none) return false;
        }
        return true;
    };
    CHECK(accepts(U"abca"));
    CHECK(accepts(U"cabd"));
    CHECK(accepts(U"bd"));
    CHECK_FALSE(accepts(U"abd "));
    CHECK_FALSE(accepts(U"ac"));
}
