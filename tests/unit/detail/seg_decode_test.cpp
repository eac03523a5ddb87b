#include "support/catch.hpp"

#include <semfp/detail/seg_decode.hpp>
#include <semfp/text/utf8.hpp>

#include <cstddef>
#include <iterator>
#include <random>
#include <string>
#include <string_view>

TEST_CASE("seg_decode: seg_decode and seg_decode_before agree with the one UTF-8 decoder", "[dictionary][utf8]") {
    // Reference for the backward form: step back over at most three continuation bytes and
    // decode forwards; the code point counts only when it ends exactly at p.
    auto reference_before = [](std::string_view s, std::size_t p) {
        std::size_t q = p - 1;
        while (q > 0 && p - q < 4 && (static_cast<unsigned char>(s[q]) & 0xC0) == 0x80) --q;
        const semfp::utf8::decoded d = semfp::utf8::decode(s, q);
        return d.valid && q + d.length == p ? d : semfp::utf8::decoded{0xFFFD, 1, false};
    };
    std::mt19937 rng(99);
    const char* pieces[] = {"\xE4\xB8\xAD", "\xE0\xA0\x80", "\xE0\x80\x80", "\xED\x9F\xBF", "\xED\xA0\x80", "\xEF\xBF\xBD",
                            "\xF0\x9F\x98\x80", "\xC3\xA9", "a", "\x80", "\xBF", "\xE4\xB8", "\xF4\x90\x80\x80"};
    std::size_t mismatches = 0;
    for (int round = 0; round < 20000; ++round) {
        std::string s;
        const int parts = 1 + static_cast<int>(rng() % 5);
        for (int k = 0; k < parts; ++k) {
            if (rng() % 4 == 0)
                s += static_cast<char>(rng() % 256);
            else
                s += pieces[rng() % std::size(pieces)];
        }
        for (std::size_t i = 0; i < s.size(); ++i) {
            const auto a = semfp::detail::seg_decode(s, i);
            const auto b = semfp::utf8::decode(s, i);
            if (a.valid != b.valid || a.length != b.length || a.code_point != b.code_point) ++mismatches;
        }
        for (std::size_t p = 1; p <= s.size(); ++p) {
            const auto a = semfp::detail::seg_decode_before(s, p);
            const auto b = reference_before(s, p);
            if (a.valid != b.valid || a.length != b.length || (a.valid && a.code_point != b.code_point)) ++mismatches;
        }
    }
    CHECK(mismatches == 0);
}
