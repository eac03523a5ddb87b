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
