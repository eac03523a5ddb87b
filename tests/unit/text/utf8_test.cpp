#include "support/catch.hpp"

#include <semfp/text/utf8.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace {
std::vector<char32_t> decode_all(std::string_view s) {
    std::vector<char32_t> out;
    for (auto d : semfp::utf8::code_points(s)) out.push_back(d.code_point);
    return out;
}
constexpr char32_t fffd = 0xFFFD;
}  // namespace

TEST_CASE("UTF-8: well-formed sequences of every length", "[utf8]") {
    CHECK(decode_all("a") == std::vector<char32_t>{U'a'});
    CHECK(decode_all("\xc2\xa9") == std::vector<char32_t>{0xA9});
    CHECK(decode_all("\xe4\xb8\xad") == std::vector<char32_t>{0x4E2D});
    CHECK(decode_all("\xf0\x9f\x98\x80") == std::vector<char32_t>{0x1F600});
    CHECK(decode_all("\xf4\x8f\xbf\xbf") == std::vector<char32_t>{0x10FFFF});
    CHECK(decode_all("\xef\xbf\xbf") == std::vector<char32_t>{0xFFFF});
    CHECK(decode_all(std::string_view("\0", 1)) == std::vector<char32_t>{0});
    CHECK(semfp::utf8::is_valid("\xe4\xb8\xad\xe6\x96\x87 text"));
    CHECK(semfp::utf8::length("\xe4\xb8\xad\xe6\x96\x87") == 2);
}

TEST_CASE("UTF-8: each malformed byte is one U+FFFD", "[utf8]") {
    SECTION("overlong forms") {
        CHECK(decode_all("\xc0\xaf") == std::vector<char32_t>{fffd, fffd});
        CHECK(decode_all("\xc1\xbf") == std::vector<char32_t>{fffd, fffd});
        CHECK(decode_all("\xe0\x80\xaf") == std::vector<char32_t>{fffd, fffd, fffd});
        CHECK(decode_all("\xe0\x9f\xbf") == std::vector<char32_t>{fffd, fffd, fffd});
        CHECK(decode_all("\xf0\x80\x80\xaf") == std::vector<char32_t>{fffd, fffd, fffd, fffd});
        CHECK(decode_all("\xf0\x8f\xbf\xbf") == std::vector<char32_t>{fffd, fffd, fffd, fffd});
    }
    SECTION("surrogates") {
        CHECK(decode_all("\xed\xa0\x80") == std::vector<char32_t>{fffd, fffd, fffd});
        CHECK(decode_all("\xed\xbf\xbf") == std::vector<char32_t>{fffd, fffd, fffd});
        CHECK(decode_all("\xed\x9f\xbf") == std::vector<char32_t>{0xD7FF});
    }
    SECTION("above U+10FFFF") {
        CHECK(decode_all("\xf4\x90\x80\x80") == std::vector<char32_t>{fffd, fffd, fffd, fffd});
        CHECK(decode_all("\xf5\x80\x80\x80") == std::vector<char32_t>{fffd, fffd, fffd, fffd});
        CHECK(decode_all("\xff") == std::vector<char32_t>{fffd});
        CHECK(decode_all("\xfe") == std::vector<char32_t>{fffd});
    }
    SECTION("truncated sequences") {
        CHECK(decode_all("\xe4\xb8") == std::vector<char32_t>{fffd, fffd});
        CHECK(decode_all("\xe4\xb8" "a") == std::vector<char32_t>{fffd, fffd, U'a'});
        CHECK(decode_all("\xf0\x9f\x98") == std::vector<char32_t>{fffd, fffd, fffd});
        CHECK(decode_all("\xc2") == std::vector<char32_t>{fffd});
        CHECK(decode_all("a\xe4") == std::vector<char32_t>{U'a', fffd});
    }
    SECTION("lone continuation bytes") {
        CHECK(decode_all("\x80\xbf") == std::vector<char32_t>{fffd, fffd});
    }
    CHECK_FALSE(semfp::utf8::is_valid("\xc0\xaf"));
    CHECK_FALSE(semfp::utf8::is_valid("ok\xe4\xb8"));
    const auto d = semfp::utf8::decode("\xe4\xb8", 0);
    CHECK_FALSE(d.valid);
    CHECK(d.length == 1);
}

TEST_CASE("UTF-8: encode round-trips and replaces invalid scalars", "[utf8]") {
    for (char32_t cp : {char32_t{0}, char32_t{0x7F}, char32_t{0x80}, char32_t{0x7FF}, char32_t{0x800},
                        char32_t{0xFFFF}, char32_t{0x10000}, char32_t{0x10FFFF}, char32_t{0x4E2D}}) {
        std::string s;
        semfp::utf8::append(s, cp);
        const auto d = semfp::utf8::decode(s, 0);
        CHECK(d.valid);
        CHECK(d.code_point == cp);
        CHECK(d.length == s.size());
    }
    std::string s;
    semfp::utf8::append(s, 0xD800);
    semfp::utf8::append(s, 0x110000);
    CHECK(s == "\xef\xbf\xbd\xef\xbf\xbd");
}
