#include "support/catch.hpp"
#include "support/sample_text.hpp"

#include <semfp/text/sentences.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

struct piece {
    std::string text;
    std::size_t offset;
    bool operator==(const piece&) const = default;
};

std::vector<piece> split(std::string_view text) {
    std::vector<piece> out;
    semfp::for_each_sentence(text, [&](std::string_view s, std::size_t at) {
        // Every sentence is a view into the text at the reported offset.
        REQUIRE(at + s.size() <= text.size());
        REQUIRE(s.data() == text.data() + at);
        out.push_back({std::string(s), at});
    });
    return out;
}

std::vector<std::string> texts(std::string_view text) {
    std::vector<std::string> out;
    for (auto& p : split(text)) out.push_back(std::move(p.text));
    return out;
}

using strings = std::vector<std::string>;

}  // namespace

TEST_CASE("sentences: CJK terminators end sentences and stay with them", "[sentences]") {
    CHECK(texts("今天下雨。明天晴！后天呢？大后天；再说…") ==
          strings{"今天下雨。", "明天晴！", "后天呢？", "大后天；", "再说…"});
    // Half-width ideographic full stop, small and vertical forms, midline ellipsis.
    CHECK(texts("甲\xEF\xBD\xA1乙\xEF\xB9\x92丙\xEF\xB8\x92丁\xE2\x8B\xAF戊") ==
          strings{"甲\xEF\xBD\xA1", "乙\xEF\xB9\x92", "丙\xEF\xB8\x92", "丁\xE2\x8B\xAF", "戊"});
}

TEST_CASE("sentences: offsets are byte offsets into the original text", "[sentences]") {
    const std::string_view t = "  第一句。 第二句！\n第三句";
    const auto p = split(t);
    REQUIRE(p.size() == 3);
    CHECK(p[0] == piece{"第一句。", 2});
    CHECK(p[1] == piece{"第二句！", 2 + 12 + 1});
    CHECK(p[2] == piece{"第三句", t.find("第三句")});
}

TEST_CASE("sentences: runs of terminators and closing quotes belong to the sentence", "[sentences]") {
    CHECK(texts("真的吗？！那就好……") == strings{"真的吗？！", "那就好……"});
    CHECK(texts("他说：“我们走吧。”大家都同意。") == strings{"他说：“我们走吧。”", "大家都同意。"});
    CHECK(texts("（见附录。）下一句。") == strings{"（见附录。）", "下一句。"});
}

TEST_CASE("sentences: ASCII punctuation ends a sentence only in context", "[sentences]") {
    // After Han text, as the corpus writes it.
    CHECK(texts("详细信息.下一步") == strings{"详细信息.", "下一步"});
    // Before white space or the end of the text.
    CHECK(texts("It works. Really? Yes!") == strings{"It works.", "Really?", "Yes!"});
    CHECK(texts("a; b") == strings{"a;", "b"});
    // Not inside numbers or versions, not inside ASCII words.
    CHECK(texts("圆周率约为3.14，版本v1.2.3可用。") == strings{"圆周率约为3.14，版本v1.2.3可用。"});
    CHECK(texts("see example.com now") == strings{"see example.com now"});
    CHECK(texts("3.5亿元") == strings{"3.5亿元"});
    // A number at the end of a sentence still ends it.
    CHECK(texts("增长了3.5. 下降了2.1.") == strings{"增长了3.5.", "下降了2.1."});
    // An ASCII ellipsis stays in one piece.
    CHECK(texts("Wait... what") == strings{"Wait...", "what"});
}

TEST_CASE("sentences: line breaks end sentences, empty sentences are skipped", "[sentences]") {
    CHECK(texts("第一行\n第二行\r\n第三行\r第四行") == strings{"第一行", "第二行", "第三行", "第四行"});
    CHECK(texts("行\xE2\x80\xA8段\xE2\x80\xA9末") == strings{"行", "段", "末"});
    CHECK(texts("\n\n  \n\xE3\x80\x80\n").empty());
    CHECK(texts("。。。！？").empty());
    CHECK(texts("好。\n。\n  ！  \n坏。") == strings{"好。", "坏。"});
    CHECK(texts("").empty());
    // Ideographic space and no-break space are trimmed like ASCII spaces.
    CHECK(texts("\xE3\x80\x80文本\xC2\xA0") == strings{"文本"});
}

TEST_CASE("sentences: malformed UTF-8 and NUL bytes are content", "[sentences]") {
    using namespace std::string_view_literals;
    const std::string_view bad = "a\xFF\xC3 b\0c。\xE4\xB8"sv;
    const auto p = split(bad);
    REQUIRE(p.size() == 2);
    CHECK(p[0].text == "a\xFF\xC3 b\0c。"sv);
    CHECK(p[0].offset == 0);
    CHECK(p[1].text == "\xE4\xB8");
    CHECK(p[1].offset == bad.size() - 2);
}

TEST_CASE("sentences: the sentences of a text tile it except for white space and line breaks", "[sentences]") {
    for (const std::string_view t : {semfp_test::article_a, semfp_test::article_b, semfp_test::article_c}) {
        const auto p = split(t);
        REQUIRE(!p.empty());
        std::size_t pos = 0;
        for (const auto& s : p) {
            REQUIRE(s.offset >= pos);
            for (std::size_t k = pos; k < s.offset; ++k) CHECK((t[k] == ' ' || t[k] == '\n'));
            pos = s.offset + s.text.size();
        }
        CHECK(pos == t.size());
    }
    // article_a: every sentence ends with the ideographic full stop.
    for (const auto& s : split(semfp_test::article_a)) CHECK(s.text.ends_with("。"));
    CHECK(split(semfp_test::article_a).size() == 9);
}

TEST_CASE("sentences: the callback may be a non-copyable, nothrow function object", "[sentences]") {
    struct counter {
        std::size_t n = 0;
        counter() = default;
        counter(const counter&) = delete;
        void operator()(std::string_view, std::size_t) noexcept { ++n; }
    } c;
    semfp::for_each_sentence("一。二。三", c);
    CHECK(c.n == 3);
    STATIC_REQUIRE(noexcept(semfp::for_each_sentence("", c)));
}
