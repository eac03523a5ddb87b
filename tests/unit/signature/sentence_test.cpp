#include <semfp/signature/sentence.hpp>

#include "support/catch.hpp"
#include "support/sample_text.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace {

// Sentences of 7, 13, 4 and 8 Han characters.
const std::string text =
    "\xE7\xAC\xAC\xE4\xB8\x80\xE5\x8F\xA5\xE8\xAF\x9D\xE6\x9C\x89\xE4\xB9\x9D\xE5\xAD\x97\xE3\x80\x82"
    "\xE7\xAC\xAC\xE4\xBA\x8C\xE5\x8F\xA5\xE8\xAF\x9D\xE6\xAF\x94\xE8\xBE\x83\xE9\x95\xBF\xE6\x9C\x89"
    "\xE5\x8D\x81\xE4\xBA\x94\xE4\xB8\xAA\xE5\xAD\x97\xE7\xAC\xA6\xE3\x80\x82"
    "\xE7\x9F\xAD\xE5\x8F\xA5\xE5\xAD\x90\xE5\x95\x8A\xEF\xBC\x81"
    "\xE6\x9C\x80\xE5\x90\x8E\xE4\xB8\x80\xE5\x8F\xA5\xE5\x8D\x81\xE4\xBA\x8C\xE4\xB8\xAA\xE5\xAD\x97\xE3\x80\x82";
// 第一句话有九字。第二句话比较长有十五个字符。短句子啊！最后一句十二个字。

}  // namespace

TEST_CASE("sentence signature: top-k longest, first, last and fixed positions", "[signature][sentence]") {
    semfp::sentence_signature_options opt;
    opt.min_length = 1;
    opt.top_k = 2;
    const semfp::SentenceSignature<> top2(opt);
    const auto s = top2.select(text);
    REQUIRE(s.size() == 2);
    CHECK(s[0].index == 1);
    CHECK(s[0].length == 13);
    CHECK(s[1].index == 3);
    CHECK(s[1].length == 8);
    CHECK(text.substr(s[1].begin, s[1].end - s[1].begin) ==
          "\xE6\x9C\x80\xE5\x90\x8E\xE4\xB8\x80\xE5\x8F\xA5\xE5\x8D\x81\xE4\xBA\x8C\xE4\xB8\xAA\xE5\xAD\x97\xE3\x80\x82");
    opt.top_k = 1;
    opt.first = true;
    opt.positions = {2, 99};
    const auto f = semfp::SentenceSignature<>(opt).select(text);
    REQUIRE(f.size() == 3);
    CHECK(f[0].index == 0);
    CHECK(f[1].index == 1);
    CHECK(f[2].index == 2);
    opt.min_length = 10;
    opt.positions.clear();
    opt.first = false;
    opt.last = true;
    opt.top_k = 0;
    const auto l = semfp::SentenceSignature<>(opt).select(text);
    REQUIRE(l.size() == 1);
    CHECK(l[0].length == 13);  // the last of the sentences that count
}

TEST_CASE("sentence signature: copies match through punctuation, width and script changes", "[signature][sentence]") {
    const semfp::SentenceSignature<> sig;
    const auto a = sig(semfp_test::article_a);
    REQUIRE(a.size() == 3);
    // The same article re-punctuated with spaces: identical signature.
    std::string edited(semfp_test::article_a);
    for (std::size_t at = edited.find("\xEF\xBC\x8C"); at != std::string::npos; at = edited.find("\xEF\xBC\x8C", at + 1))
        edited.replace(at, 3, " ");
    CHECK(sig(edited) == a);
    // A different article shares nothing.
    const auto b = sig(semfp_test::article_b);
    CHECK(semfp::SentenceSignature<>::shared(a, b) == 0);
    CHECK_FALSE(semfp::SentenceSignature<>::matches(a, b, 1));
    // The article with one long sentence removed still shares two keys.
    const std::string combined = std::string(semfp_test::article_b) + std::string(semfp_test::article_a);
    CHECK(semfp::SentenceSignature<>::shared(a, sig(combined)) >= 1);
    // Traditional characters fold to the same keys.
    const semfp::SentenceSignature<> one({1, false, false, {}, 4, {}});
    CHECK(one("\xE8\xAA\x9E\xE7\xBE\xA9\xE6\x8C\x87\xE7\xB4\x8B\xE3\x80\x82") ==
          one("\xE8\xAF\xAD\xE4\xB9\x89\xE6\x8C\x87\xE7\xBA\xB9\xE3\x80\x82"));
}

TEST_CASE("sentence signature: empty and bad input", "[signature][sentence]") {
    const semfp::SentenceSignature<> sig;
    CHECK(sig("").empty());
    CHECK(sig(std::string("\0\xFF\xFE...", 6)).empty());
    CHECK(semfp::SentenceSignature<>::shared({}, {}) == 0);
}
