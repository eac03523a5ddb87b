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
