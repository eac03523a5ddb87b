// sniff_charset on text that is almost, but not quite, UTF-8 (regression: one stray byte in a
// UTF-8 file used to make the whole file decode as GB18030).
#include <semfp/text/encoding.hpp>

#include "support/catch.hpp"

#include <string>
#include <string_view>

namespace {

// 近年来，大量网页被不同的网站反复转载，搜索引擎需要识别内容几乎相同的文档。 in UTF-8 and GB18030.
const std::string utf8_text =
    "\xE8\xBF\x91\xE5\xB9\xB4\xE6\x9D\xA5\xEF\xBC\x8C\xE5\xA4\xA7\xE9\x87\x8F\xE7\xBD\x91\xE9\xA1\xB5\xE8\xA2\xAB"
    "\xE4\xB8\x8D\xE5\x90\x8C\xE7\x9A\x84\xE7\xBD\x91\xE7\xAB\x99\xE5\x8F\x8D\xE5\xA4\x8D\xE8\xBD\xAC\xE8\xBD\xBD"
    "\xEF\xBC\x8C\xE6\x90\x9C\xE7\xB4\xA2\xE5\xBC\x95\xE6\x93\x8E\xE9\x9C\x80\xE8\xA6\x81\xE8\xAF\x86\xE5\x88\xAB"
    "\xE5\x86\x85\xE5\xAE\xB9\xE5\x87\xA0\xE4\xB9\x8E\xE7\x9B\xB8\xE5\x90\x8C\xE7\x9A\x84\xE6\x96\x87\xE6\xA1\xA3"
    "\xE3\x80\x82";
const std::string gb_text =
    "\xBD\xFC\xC4\xEA\xC0\xB4\xA3\xAC\xB4\xF3\xC1\xBF\xCD\xF8\xD2\xB3\xB1\xBB\xB2\xBB\xCD\xAC\xB5\xC4\xCD\xF8\xD5"
    "\xBE\xB7\xB4\xB8\xB4\xD7\xAA\xD4\xD8\xA3\xAC\xCB\xD1\xCB\xF7\xD2\xFD\xC7\xE6\xD0\xE8\xD2\xAA\xCA\xB6\xB1\xF0"
    "\xC4\xDA\xC8\xDD\xBC\xB8\xBA\xF5\xCF\xE0\xCD\xAC\xB5\xC4\xCE\xC4\xB5\xB5\xA1\xA3";

}  // namespace

TEST_CASE("sniff_charset keeps UTF-8 with a few stray bytes as UTF-8", "[text][encoding]") {
    REQUIRE(utf8_text.size() == 111);
    REQUIRE(semfp::sniff_charset(utf8_text) == semfp::charset::utf8);
    REQUIRE(semfp::sniff_charset(gb_text) == semfp::charset::gb18030);

    // One stray byte of each kind, at the start, in the middle (between characters and inside
    // one) and at the end.
    for (const char stray : {'\x80', '\xBF', '\xC0', '\xE8', '\xFE', '\xFF'}) {
        for (const std::size_t at : {std::size_t{0}, std::size_t{30}, std::size_t{31}, utf8_text.size()}) {
            std::string s = utf8_text;
            s.insert(at, 1, stray);
            INFO("stray byte " << static_cast<int>(static_cast<unsigned char>(stray)) << " at " << at);
            CHECK(semfp::sniff_charset(s) == semfp::charset::utf8);
            const semfp::decode_result r = semfp::to_utf8(s, semfp::sniff_charset(s));
            CHECK(r.replaced >= 1);
            CHECK(r.replaced <= 4);  // a stray byte inside a character breaks that character
        }
    }
    // A truncated last character, as a cut-off download leaves it.
    CHECK(semfp::sniff_charset(std::string_view(utf8_text).substr(0, utf8_text.size() - 1)) ==
          semfp::charset::utf8);
    // GB18030 text stays GB18030 with a stray ASCII or high byte as well.
    std::string g = gb_text;
    g.insert(10, 1, '\xFF');
    CHECK(semfp::sniff_charset(g) == semfp::charset::gb18030);
    // Short ambiguous input keeps the old rule (fewest replacements).
    CHECK(semfp::sniff_charset("\xD6\xD0\xCE\xC4") == semfp::charset::gb18030);  // 中文 in GBK
}
