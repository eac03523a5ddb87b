#include "support/catch.hpp"

#include <semfp/text/utf8.hpp>

#include <cstddef>
#include <cstdint>
#include <random>
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

// Where the decoder meets its first malformed byte (the definition `valid_prefix` must match).
std::size_t first_malformed(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const semfp::utf8::decoded d = semfp::utf8::decode(s, i);
        if (!d.valid) return i;
        i += d.length;
    }
    return s.size();
}
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

static_assert(semfp::utf8::valid_prefix("ab\xe4\xb8\xad") == 5);
static_assert(semfp::utf8::valid_prefix("ab\xe4\xb8") == 2);
static_assert(!semfp::utf8::is_valid("\xed\xa0\x80"));  // a surrogate

TEST_CASE("UTF-8: valid_prefix stops at the decoder's first malformed byte", "[utf8]") {
    // Every first and second byte, with continuations and non-continuations after them, at
    // offsets that put the sequence inside, at the end of and just after an eight-byte ASCII word,
    // and before CJK text; the mismatches are counted (one assertion for 2 million strings).
    std::size_t mismatches = 0, checked = 0, valid = 0;
    std::string first_mismatch;
    const unsigned char thirds[] = {0x80, 0xBF, 0x41, 0xC0};
    const unsigned char fourths[] = {0x8F, 0x41};
    std::string s;
    for (const std::size_t offset : {std::size_t{0}, std::size_t{7}, std::size_t{8}, std::size_t{9}})
        for (unsigned b0 = 0; b0 < 256; ++b0)
            for (unsigned b1 = 0; b1 < 256; ++b1)
                for (const unsigned char b2 : thirds)
                    for (const unsigned char b3 : fourths) {
                        s.assign(offset, 'a');
                        for (const unsigned b : {b0, b1, unsigned{b2}, unsigned{b3}}) s.push_back(static_cast<char>(b));
                        s += "\xe4\xb8\xad\xe6\x96\x87";
                        const std::size_t want = first_malformed(s);
                        ++checked;
                        valid += want == s.size() ? 1u : 0u;
                        if (semfp::utf8::valid_prefix(s) != want || semfp::utf8::is_valid(s) != (want == s.size())) {
                            if (mismatches++ == 0) first_mismatch = s;
                        }
                    }
    INFO("first mismatch: " << first_mismatch.size() << " bytes");
    CHECK(checked == 4u * 256u * 256u * 8u);
    CHECK(valid > 0);
    CHECK(mismatches == 0);

    // Random text: CJK, ASCII runs and stray bytes, cut anywhere.
    std::mt19937_64 rng(7);
    const char* pieces[] = {"\xe4\xb8\xad", "abcdefgh", "x", "\xf0\x9f\x98\x80", "\xc3\xa9", "\xed\x9f\xbf", "\xef\xbf\xbd"};
    std::size_t random_mismatches = 0;
    for (int r = 0; r < 20000; ++r) {
        s.clear();
        const std::size_t n = rng() % 40;
        for (std::size_t k = 0; k < n; ++k) s += pieces[rng() % 7];
        if (!s.empty() && rng() % 2 == 0) s[rng() % s.size()] = static_cast<char>(rng());
        if (rng() % 4 == 0) s.resize(rng() % (s.size() + 1));
        const std::size_t want = first_malformed(s);
        if (semfp::utf8::valid_prefix(s) != want || semfp::utf8::is_valid(s) != (want == s.size())) ++random_mismatches;
    }
    CHECK(random_mismatches == 0);
}
