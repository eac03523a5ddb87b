// Sixteen-byte ASCII classification (SSE2 where present) against the portable SWAR versions and
// a byte-by-byte definition, and the fused pass's ASCII word scan built on it against
// `scan_ascii_word`.
#include "support/catch.hpp"

#include <semfp/core/fused_text.hpp>
#include <semfp/detail/ascii16.hpp>
#include <semfp/text/char_class.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace {

bool alnum(unsigned char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Sixteen bytes drawn so that every class boundary is hit often: '/', '0', '9', ':', '@', 'A',
// 'Z', '[', '`', 'a', 'z', '{', 0x7F, 0x80, 0xC0 | 0x20 ... as well as any byte at all.
std::string window(std::mt19937& rng) {
    static const unsigned char edges[] = {'/', '0', '9', ':', '@', 'A', 'Z', '[', '`', 'a', 'z', '{', 0x7F, 0x80,
                                          0xC1, 0xD0, 0xDA, 0xE1, 0xFA, 0xFF, 0x00, 0x20, 'm', 'M', '5', '.', '-', '_'};
    std::string s(16, '\0');
    for (char& c : s)
        c = static_cast<char>(rng() % 3 == 0 ? static_cast<unsigned char>(rng()) : edges[rng() % sizeof(edges)]);
    return s;
}

}  // namespace

TEST_CASE("ascii16: masks agree with the portable versions and the byte definitions", "[ascii16]") {
    std::mt19937 rng(11);
    for (int t = 0; t < 20000; ++t) {
        const std::string s = window(rng);
        std::uint32_t high = 0, al = 0;
        for (std::size_t i = 0; i < 16; ++i) {
            const auto c = static_cast<unsigned char>(s[i]);
            high |= std::uint32_t{c >= 0x80} << i;
            al |= std::uint32_t{alnum(c)} << i;
        }
        REQUIRE(semfp::detail::fused_high16_portable(s.data()) == high);
        REQUIRE(semfp::detail::fused_alnum16_portable(s.data()) == al);
        REQUIRE(semfp::detail::fused_high16(s.data()) == high);
        REQUIRE(semfp::detail::fused_alnum16(s.data()) == al);
        REQUIRE(semfp::detail::fused_stops16(s.data()) == (al | high));
        std::uint32_t a2 = 0, h2 = 0;
        semfp::detail::fused_classify16(s.data(), a2, h2);
        REQUIRE(a2 == al);
        REQUIRE(h2 == high);

        // The copies: the same mask, and the ASCII prefix stored (folded or not) exactly.
        const std::size_t prefix = high == 0 ? 16 : static_cast<std::size_t>(std::countr_zero(high));
        for (const bool fold : {false, true}) {
            std::string expect = s.substr(0, prefix);
            if (fold)
                for (char& c : expect)
                    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
            char a[16], b[16];
            REQUIRE(semfp::detail::fused_copy_ascii16(s.data(), a, fold) == high);
            REQUIRE(semfp::detail::fused_copy_ascii16_portable(s.data(), b, fold) == high);
            REQUIRE(std::string_view(a, prefix) == expect);
            REQUIRE(std::string_view(b, prefix) == expect);
        }
    }
    // Every single byte value in every position.
    for (unsigned v = 0; v < 256; ++v)
        for (std::size_t pos = 0; pos < 16; ++pos) {
            std::string s(16, ' ');
            s[pos] = static_cast<char>(v);
            REQUIRE(semfp::detail::fused_alnum16(s.data()) == (std::uint32_t{alnum(static_cast<unsigned char>(v))} << pos));
            REQUIRE(semfp::detail::fused_high16(s.data()) == (std::uint32_t{v >= 0x80} << pos));
        }
}

TEST_CASE("ascii16: the fused ASCII word scan gives scan_ascii_word's words", "[ascii16][fused]") {
    std::mt19937 rng(5);
    const std::vector<std::string> pieces{"a", "Z9", "abcdefghijklmnopqrstuvwxyz0123456789", "x.y", "a-b_c", "v1.2.3",
                                          ".", "-", "_", " ", "  ", "--", "..", ",", "\t", "!", "\n",
                                          "abcdefghijklmno", "abcdefghijklmnop", "abcdefghijklmnopq", "a.", "_a"};
    for (int t = 0; t < 5000; ++t) {
        std::string text;
        const std::size_t parts = rng() % 24;
        for (std::size_t k = 0; k < parts; ++k) text += pieces[rng() % pieces.size()];
        if (text.empty()) text = " ";
        // Sometimes a non-ASCII byte ends the ASCII part, sometimes the text ends it.
        const bool high_end = rng() % 2 == 0;
        if (high_end) text += rng() % 2 == 0 ? "\xE4\xB8\x80" : "\xC3\xA9";
        const std::size_t start = rng() % text.size();
        if (static_cast<unsigned char>(text[start]) >= 0x80) continue;

        std::vector<std::string> expect;
        std::size_t i = start, stop = text.size();
        while (i < text.size()) {
            const auto c = static_cast<unsigned char>(text[i]);
            if (c >= 0x80) {
                stop = i;
                break;
            }
            if (alnum(c)) {
                const std::size_t e = semfp::detail::scan_ascii_word(text, i);
                expect.emplace_back(text.substr(i, e - i));
                i = e;
            } else {
                ++i;
            }
        }

        std::string padded = text + std::string(semfp::detail::fused_padding, '\0');
        std::vector<std::string> got;
        auto emit = [&](const char* p, std::size_t n) { got.emplace_back(p, n); };
        const std::size_t end = semfp::detail::fused_ascii_words(padded.data(), text.size(), start, emit);
        INFO("text '" << text << "' from " << start);
        REQUIRE(got == expect);
        REQUIRE((end < text.size() ? end : text.size()) == stop);
    }
}
