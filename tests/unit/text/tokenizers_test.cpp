#include "support/catch.hpp"
#include "support/tokens.hpp"

#include <semfp/text/char_class.hpp>
#include <semfp/text/normalize.hpp>
#include <semfp/text/stopwords.hpp>
#include <semfp/text/tokenizers.hpp>

#include <sstream>
#include <string>
#include <string_view>
#include <vector>

using semfp_test::strings;
using semfp_test::tokens;

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
