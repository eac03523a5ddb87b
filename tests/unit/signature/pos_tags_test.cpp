#include "support/catch.hpp"

#include <semfp/error.hpp>
#include <semfp/signature/keyword.hpp>
#include <semfp/signature/pos_tags.hpp>
#include <semfp/text/tokenizers.hpp>

#include <sstream>
#include <string>

TEST_CASE("PosTable stores tags by term and numbers tag names", "[signature][pos]") {
    semfp::PosTable t;
    CHECK(t.tag_of("anything") == 0);
    const auto n = t.add_tag("n");
    const auto ns = t.add_tag("ns");
    CHECK(n == 1);
    CHECK(ns == 2);
    CHECK(t.add_tag("n") == n);
    t.set("apple", n);
    t.set("paris", "ns");
    CHECK(t.tag_of("apple") == n);
    CHECK(t.tag_name(t.tag_of("paris")) == "ns");
    CHECK(t.tag_of("pear") == 0);
    CHECK(t.tag_name(0).empty());
    CHECK(t.find_tag("v") == 0);
    t.set("apple", ns);  // a later call wins
    CHECK(t.tag_of("apple") == ns);
    CHECK(t.size() == 2);
    REQUIRE_THROWS_AS(t.set("x", std::uint8_t{0}), semfp::invalid_argument_error);
    REQUIRE_THROWS_AS(t.set("x", std::uint8_t{9}), semfp::invalid_argument_error);
    REQUIRE_THROWS_AS(t.add_tag(""), semfp::invalid_argument_error);
}

TEST_CASE("PosTable grows and keeps every term", "[signature][pos]") {
    semfp::PosTable t;
    const auto a = t.add_tag("a");
    const auto b = t.add_tag("b");
    for (int i = 0; i < 5000; ++i) t.set("w" + std::to_string(i), i % 3 == 0 ? a : b);
    CHECK(t.size() == 5000);
    for (int i = 0; i < 5000; ++i) REQUIRE(t.tag_of("w" + std::to_string(i)) == (i % 3 == 0 ? a : b));
    CHECK(t.tag_of("w5000") == 0);
}

TEST_CASE("PosTable loads dict.txt lines, all or nothing", "[signature][pos]") {
    semfp::PosTable t;
    std::istringstream in("\xef\xbb\xbf# comment\napple 3 n\r\n\nparis 9 ns\nlonely\nrun v\n");
    t.load(in);
    CHECK(t.tag_name(t.tag_of("apple")) == "n");
    CHECK(t.tag_name(t.tag_of("paris")) == "ns");
    CHECK(t.tag_name(t.tag_of("run")) == "v");
    CHECK(t.tag_of("lonely") == 0);
    std::istringstream bad("pear 1 n\nplum 2 averyveryverylongtag\n");
    try {
        t.load(bad);
        FAIL("no parse_error");
    } catch (const semfp::parse_error& e) {
        CHECK(e.line() == 2);
    }
    CHECK(t.tag_of("pear") == 0);  // unchanged
    CHECK(t.size() == 3);
}

TEST_CASE("pos_boost factors follow jieba's tag classes", "[signature][pos]") {
    semfp::PosTable t;
    for (const char* name : {"n", "ng", "nr", "nrfg", "ns", "nt", "nz", "v", "vn", "a", "m"}) (void)t.add_tag(name);
    semfp::pos_boost b;
    b.noun = 2;
    b.proper_noun = 3;
    b.verb = 5;
    const auto f = semfp::detail::pos_factors(t, b);
    CHECK(f[t.find_tag("n")] == 2);
    CHECK(f[t.find_tag("ng")] == 2);
    CHECK(f[t.find_tag("nr")] == 3);
    CHECK(f[t.find_tag("nrfg")] == 3);
    CHECK(f[t.find_tag("ns")] == 3);
    CHECK(f[t.find_tag("nt")] == 3);
    CHECK(f[t.find_tag("nz")] == 3);
    CHECK(f[t.find_tag("v")] == 5);
    CHECK(f[t.find_tag("vn")] == 5);
    CHECK(f[t.find_tag("a")] == 1);
    CHECK(f[t.find_tag("m")] == 1);
    CHECK(f[0] == 1);
    CHECK(semfp::pos_boost{}.neutral());
    CHECK_FALSE(b.neutral());
}

TEST_CASE("the part-of-speech boost changes which keywords are kept", "[signature][keyword][pos]") {
    using fp_t = semfp::KeywordFingerprinter<semfp::WhitespaceTokenizer>;
    semfp::PosTable t;
    t.set("paris", "ns");
    t.set("apple", "n");
    t.set("eat", "v");
    semfp::keyword_options o;
    o.count = 1;
    // TF: "the" x3 beats "paris" x2.
    const std::string text = "the the the paris paris apple eat";
    CHECK(fp_t(semfp::WhitespaceTokenizer{}, o).keywords(text)[0].term == "the");
    o.pos = &t;  // a table without a boost changes nothing
    CHECK(fp_t(semfp::WhitespaceTokenizer{}, o)(text) == fp_t(semfp::WhitespaceTokenizer{}, semfp::keyword_options{1})(text));
    o.boost.proper_noun = 2.0;  // paris: 2 x 2 = 4 > 3
    const fp_t proper(semfp::WhitespaceTokenizer{}, o);
    const auto kw = proper.keywords(text);
    REQUIRE(kw.size() == 1);
    CHECK(kw[0].term == "paris");
    CHECK(kw[0].weight == 4.0);
    CHECK(proper(text) == semfp::digest_fingerprint<semfp::Md5>("paris\n"));
    o.boost = {};
    o.boost.verb = 4.0;  // eat: 1 x 4 = 4 > 3
    CHECK(fp_t(semfp::WhitespaceTokenizer{}, o).keywords(text)[0].term == "eat");
    o.boost = {};
    o.boost.noun = 3.0;  // apple: 3 = the's 3, tie broken by code point: apple < the
    CHECK(fp_t(semfp::WhitespaceTokenizer{}, o).keywords(text)[0].term == "apple");
    o.boost.noun = 0.0;
    REQUIRE_THROWS_AS(fp_t(semfp::WhitespaceTokenizer{}, o), semfp::invalid_argument_error);
    o.boost.verb = -1.0;
    REQUIRE_THROWS_AS(fp_t(semfp::WhitespaceTokenizer{}, o), semfp::invalid_argument_error);
}
