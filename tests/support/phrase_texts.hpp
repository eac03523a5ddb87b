#pragma once
// Test texts made of the Taiwan vocabulary fold's phrases (`tw_phrase_table`), for the tests
// that check a fused pass against its reference path: every phrase in its Traditional
// renderings between each kind of neighbour and cut short, and every pair of phrases that
// overlap. The tests decide what they check on each text and how many texts they expect.

#include "support/sample_text.hpp"
#include "support/scale.hpp"

#include <semfp/text/script_fold.hpp>
#include <semfp/text/utf8.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace semfp_test {

/// `s` as UTF-8.
inline std::string utf8_of(std::u32string_view s) {
    std::string out;
    for (const char32_t c : s) semfp::utf8::append(out, c);
    return out;
}

/// The characters that fold to `c` (its Traditional forms), `c` itself first.
inline std::vector<char32_t> forms_of(char32_t c) {
    std::vector<char32_t> out{c};
    for (const auto& p : semfp::detail::t2s_table)
        if (p.to == c) out.push_back(p.from);
    return out;
}

/// A phrase written with the `k`-th form of each character (cycling through the forms).
inline std::string rendering(std::u32string_view phrase, std::size_t k) {
    std::u32string s;
    for (std::size_t i = 0; i < phrase.size(); ++i) {
        const auto forms = forms_of(phrase[i]);
        s += forms[(k + i) % forms.size()];
    }
    return utf8_of(s);
}

/// A run of Han characters that holds no phrase (我们的).
inline constexpr std::string_view han_run = "\xE6\x88\x91\xE4\xBB\xAC\xE7\x9A\x84";

/// Calls `check(text)` for every phrase in up to `renderings` of its Traditional renderings:
/// between each kind of neighbour (before: nothing, a Han run the run loop reaches the phrase
/// in, ASCII, full-width and CJK punctuation, a two- and a four-byte character; after: the
/// same, a lead byte cut short, and a Han run long enough that the phrase is not among the
/// text's last nine bytes), and every proper prefix inside a run. Under the sanitizers one
/// neighbour after each one before, turning with the phrase, so every pair still occurs.
template <class Check>
void for_each_phrase_between_neighbours(std::size_t renderings, Check&& check) {
    const std::vector<std::string> before{"",
                                          "\xE6\x88\x91\xE4\xBB\xAC\xE7\x9A\x84\xE8\xBF\x99",
                                          "abc ",
                                          "x",
                                          "\xEF\xBC\x8C",
                                          "\xE3\x80\x82",
                                          "\xC3\xA9",
                                          "\xF0\xA0\x80\x80"};
    const std::vector<std::string> after{"",         "\xE6\x88\x91\xE4\xBB\xAC\xE7\x9A\x84\xE8\xBF\x99\xE4\xB8\xAA",
                                         " end",     "\xEF\xBC\x8C",
                                         "\xC3\xA9", "\xF0\xA0\x80\x80",
                                         "\xE4\xB8", "\xE4\xB8\xAD\xE6\x96\x87"};
    for (std::size_t e = 0; e < semfp::detail::tw_phrase_table_size; ++e) {
        const std::u32string_view from = semfp::detail::tw_phrase_table[e].from;
        std::size_t forms = 1;
        for (const char32_t c : from) forms = std::max(forms, forms_of(c).size());
        for (std::size_t k = 0; k < std::min(forms, renderings); ++k) {
            const std::string p = rendering(from, k);
            for (std::size_t x = 0; x < before.size(); ++x)
                for (std::size_t y = 0; y < after.size(); ++y)
                    if (!sanitized_build || y == (x + e) % after.size()) check(before[x] + p + after[y]);
            for (std::size_t len = 1; len < from.size(); ++len)
                check(before[1] + rendering(from.substr(0, len), k) + after[1]);
        }
    }
}

/// Calls `check(text)` for every ordered pair of phrases (A, B) where a proper suffix of A is a
/// prefix of B, with A followed by the rest of B (so the longest match at each position
/// decides); returns the number of such pairs.
template <class Check>
std::size_t for_each_overlapping_phrase_pair(Check&& check) {
    const std::size_t count = semfp::detail::tw_phrase_table_size;
    std::size_t overlaps = 0;
    for (std::size_t a = 0; a < count; ++a) {
        const std::u32string_view x = semfp::detail::tw_phrase_table[a].from;
        for (std::size_t b = 0; b < count; ++b) {
            const std::u32string_view y = semfp::detail::tw_phrase_table[b].from;
            for (std::size_t k = 1; k < x.size() && k < y.size(); ++k) {
                if (x.substr(x.size() - k) != y.substr(0, k)) continue;
                check(utf8_of(x) + utf8_of(y.substr(k)));
                ++overlaps;
            }
        }
    }
    return overlaps;
}

/// Calls `check(x, y)` for every `step`-th phrase x (first rendering) and the phrase after it
/// in the table, y (second rendering), for texts of adjacent phrases.
template <class Check>
void for_each_adjacent_phrase_pair(std::size_t step, Check&& check) {
    const std::size_t count = semfp::detail::tw_phrase_table_size;
    for (std::size_t e = 0; e < count; e += step)
        check(rendering(semfp::detail::tw_phrase_table[e].from, 0),
              rendering(semfp::detail::tw_phrase_table[(e + 1) % count].from, 1));
}

/// All phrases in one text, adjacent, each in its `k`-th rendering, in the table's order or in
/// reverse.
inline std::string all_phrases(std::size_t k, bool reverse) {
    const std::size_t count = semfp::detail::tw_phrase_table_size;
    std::string out;
    for (std::size_t e = 0; e < count; ++e)
        out += rendering(semfp::detail::tw_phrase_table[reverse ? count - 1 - e : e].from, k);
    return out;
}

/// Pieces of random texts besides the phrases: common Han characters, the one-character
/// phrases' neighbours, ASCII, punctuation, full-width forms, two- and four-byte characters, and
/// malformed bytes (a stray continuation, a cut lead, an overlong form, a surrogate, FF).
inline const std::vector<std::string>& mixture_pieces() {
    static const std::vector<std::string> pieces{
        "\xE6\x88\x91",
        "\xE4\xBB\xAC",
        "\xE7\x9A\x84",
        "\xE4\xB8\xAD",
        "\xE4\xBB\x80",
        " ",
        "ab",
        "Z9",
        "\xEF\xBC\x8C",
        "\xE3\x80\x82",
        "\xE3\x80\x80",
        "\xC3\xA9",
        "\xF0\xA0\x80\x80",
        "\x80",
        "\xE4\xB8",
        "\xC0\xAF",
        "\xED\xA0\x80",
        "\xFF",
        "\xE3\x81\x82",
        "\xEA\xB0\x80",
        "\xEF\xBD\x81",
    };
    return pieces;
}

/// Runs `check` on the three sample articles (support/sample_text.hpp).
template <class Check>
void check_sample_articles(Check& check) {
    for (const std::string_view a : {article_a, article_b, article_c}) check(std::string(a));
}

}  // namespace semfp_test
