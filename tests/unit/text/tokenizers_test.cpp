#include "support/catch.hpp"

#include <semfp/text/char_class.hpp>
#include <semfp/text/normalize.hpp>
#include <semfp/text/stopwords.hpp>
#include <semfp/text/tokenizers.hpp>

#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {
template <class Tok>
std::vector<std::string> tokens(const Tok& tok, std::string_view text) {
    std::vector<std::string> out;
    tok.tokenize(text, [&](std::string_view t) { out.emplace_back(t); });
    return out;
}
using strings = std::vector<std::string>;
}  // namespace

TEST_CASE("char classes", "[char_class]") {
    CHECK(semfp::classify(U'\u4E2D') == semfp::char_class::han);
    CHECK(semfp::classify(U'\u3005') == semfp::char_class::han);  // 々
    CHECK(semfp::classify(0x20000) == semfp::char_class::han);
    CHECK(semfp::classify(U'a') == semfp::char_class::ascii_letter);
    CHECK(semfp::classify(U'7') == semfp::char_class::ascii_digit);
    CHECK(semfp::classify(U'\u3000') == semfp::char_class::space);
    CHECK(semfp::classify(U'\u3002') == semfp::char_class::punct);  // 。
    CHECK(semfp::classify(U'\uFF0C') == semfp::char_class::punct);  // ，
    CHECK(semfp::classify(U'\u201C') == semfp::char_class::punct);  // “
    CHECK(semfp::classify(U'\u3042') == semfp::char_class::kana);
    CHECK(semfp::classify(U'\uAC00') == semfp::char_class::hangul);
    CHECK(semfp::classify(U'\u0416') == semfp::char_class::letter);  // Cyrillic
    CHECK(semfp::classify(U'\uFF21') == semfp::char_class::letter);  // full-width A
    CHECK(semfp::classify(0) == semfp::char_class::other);
    CHECK(semfp::classify(0xFFFD) == semfp::char_class::other);
    CHECK(semfp::classify(0x1F600) == semfp::char_class::other);
    CHECK(semfp::is_separator(U'\uFF01'));
    CHECK_FALSE(semfp::is_separator(U'\u4E2D'));
}

TEST_CASE("ASCII words keep inner . - _", "[char_class]") {
    using semfp::detail::scan_ascii_word;
    CHECK(scan_ascii_word("iPhone15 x", 0) == 8);
    CHECK(scan_ascii_word("3.14.", 0) == 4);
    CHECK(scan_ascii_word("UTF-8", 0) == 5);
    CHECK(scan_ascii_word("a_b", 0) == 3);
    CHECK(scan_ascii_word("-x", 0) == 0);
    CHECK(scan_ascii_word("end.", 0) == 3);
    CHECK(scan_ascii_word("a--b", 0) == 1);
}

TEST_CASE("normalization", "[normalize]") {
    // full-width letters, digits and punctuation; ideographic space; case
    CHECK(semfp::normalize("\xef\xbc\xa1\xef\xbd\x82\xef\xbc\x91\xef\xbc\x81\xe3\x80\x80X") == "ab1! x");
    CHECK(semfp::normalize("MiXeD") == "mixed");
    semfp::normalize_options keep_case;
    keep_case.fold_case = false;
    CHECK(semfp::normalize("MiXeD", keep_case) == "MiXeD");
    // Malformed bytes and NUL are copied unchanged.
    const std::string raw("a\xff\xc0\0b", 5);
    CHECK(semfp::normalize(raw) == raw);
    // Simplified text is unchanged; output never longer than input for these foldings.
    const std::string_view zh = "\xe4\xb8\xad\xe6\x96\x87\xe3\x80\x82\xe6\x8c\x87\xe7\xba\xb9";
    CHECK(semfp::normalize(zh) == zh);
    // Full-width punctuation folds to ASCII.
    CHECK(semfp::normalize("\xe4\xb8\xad\xef\xbc\x8c\xe6\x96\x87") == "\xe4\xb8\xad,\xe6\x96\x87");
    std::string out = "stale";
    semfp::normalize_into("", out);
    CHECK(out.empty());
}

TEST_CASE("CharNgramTokenizer: Han bigrams, ASCII words whole, separators skipped", "[tokenizer]") {
    const semfp::CharNgramTokenizer<2> bigram;
    // 中文指纹，iPhone15 与 UTF-8。
    CHECK(tokens(bigram, "\xe4\xb8\xad\xe6\x96\x87\xe6\x8c\x87\xe7\xba\xb9\xef\xbc\x8ciPhone15 "
                         "\xe4\xb8\x8e UTF-8\xe3\x80\x82") ==
          strings{"\xe4\xb8\xad\xe6\x96\x87", "\xe6\x96\x87\xe6\x8c\x87", "\xe6\x8c\x87\xe7\xba\xb9", "iPhone15",
                  "\xe4\xb8\x8e", "UTF-8"});
    CHECK(tokens(bigram, "").empty());
    CHECK(tokens(bigram, "\xef\xbc\x8c\xe3\x80\x82 !?").empty());
    CHECK(tokens(bigram, std::string_view("\0\0", 2)).empty());
    // Malformed bytes split runs and never appear in tokens.
    CHECK(tokens(bigram, "\xe4\xb8\xad\xff\xe6\x96\x87") == strings{"\xe4\xb8\xad", "\xe6\x96\x87"});
    // Other scripts: Cyrillic word whole; kana in n-grams.
    CHECK(tokens(bigram, "\xd0\xbc\xd0\xb8\xd1\x80 \xe3\x81\x82\xe3\x81\x84\xe3\x81\x86") ==
          strings{"\xd0\xbc\xd0\xb8\xd1\x80", "\xe3\x81\x82\xe3\x81\x84", "\xe3\x81\x84\xe3\x81\x86"});
    const semfp::CharNgramTokenizer<3> trigram;
    CHECK(tokens(trigram, "\xe4\xb8\x80\xe4\xba\x8c\xe4\xb8\x89\xe5\x9b\x9b") ==
          strings{"\xe4\xb8\x80\xe4\xba\x8c\xe4\xb8\x89", "\xe4\xba\x8c\xe4\xb8\x89\xe5\x9b\x9b"});
    const semfp::CharNgramTokenizer<1> unigram;
    CHECK(tokens(unigram, "\xe4\xb8\x80\xe4\xba\x8c ab") == strings{"\xe4\xb8\x80", "\xe4\xba\x8c", "ab"});
}

TEST_CASE("CharNgramTokenizer is linear on adversarial input", "[tokenizer]") {
    const semfp::CharBigramTokenizer bigram;
    std::string same;
    for (int i = 0; i < 100000; ++i) same += "\xe7\x9a\x84";
    std::size_t count = 0;
    bigram.tokenize(same, [&](std::string_view t) {
        ++count;
        CHECK(t.size() == 6);
    });
    CHECK(count == 99999);
    std::string bad(1 << 20, '\x80');
    count = 0;
    bigram.tokenize(bad, [&](std::string_view) { ++count; });
    CHECK(count == 0);
}

TEST_CASE("WhitespaceTokenizer", "[tokenizer]") {
    const semfp::WhitespaceTokenizer ws;
    CHECK(tokens(ws, "  a bb\t\xe4\xb8\xad\xe3\x80\x80x, ") == strings{"a", "bb", "\xe4\xb8\xad", "x,"});
    CHECK(tokens(ws, "").empty());
    CHECK(tokens(ws, " \n ").empty());
    CHECK(tokens(ws, "\xff") == strings{"\xff"});
}

TEST_CASE("StopwordFilter and lists", "[stopwords]") {
    const auto& bundled = *semfp::bundled_stopwords();
    CHECK(bundled.size() == 794);
    CHECK(bundled.contains("\xe7\x9a\x84"));  // 的
    CHECK_FALSE(bundled.contains("\xe6\x8c\x87\xe7\xba\xb9"));

    semfp::StopwordList list;
    std::istringstream in("\xEF\xBB\xBF# my list\r\nfoo\r\n\nbar 12\n");
    list.load(in);
    CHECK(list.size() == 2);
    CHECK(list.contains("foo"));
    CHECK(list.contains("bar"));
    std::istringstream bad("ok\n\xff\xfe\n");
    try {
        list.load(bad);
        FAIL("expected parse_error");
    } catch (const semfp::parse_error& e) {
        CHECK(e.line() == 2);
    }
    CHECK(list.size() == 2);
    CHECK_FALSE(list.contains("ok"));
    for (int i = 0; i < 1000; ++i) list.add("w" + std::to_string(i));
    CHECK(list.size() == 1002);
    CHECK(list.contains("w999"));

    const semfp::StopwordFilter<semfp::WhitespaceTokenizer> filter(
        semfp::WhitespaceTokenizer{}, std::make_shared<const semfp::StopwordList>(list));
    CHECK(tokens(filter, "foo keep bar w5 also") == strings{"keep", "also"});
    const semfp::StopwordFilter<semfp::WhitespaceTokenizer> zh;
    CHECK(tokens(zh, "\xe6\x8c\x87\xe7\xba\xb9 \xe7\x9a\x84 \xe5\x8e\xbb\xe9\x87\x8d") ==
          strings{"\xe6\x8c\x87\xe7\xba\xb9", "\xe5\x8e\xbb\xe9\x87\x8d"});
}
