#include "support/catch.hpp"

#include <semfp/detail/dict_words.hpp>
#include <semfp/error.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace {

using semfp::detail::dict_char;
using semfp::detail::dict_word_kind;

// A toy classification: CJK ideographs are Han, ' ' is space, '-' and U+3002 are separators.
dict_char toy_kind(char32_t c) {
    if (c >= 0x4E00 && c <= 0x9FFF) return dict_char::han;
    if (c == U' ') return dict_char::space;
    if (c == U'-' || c == 0x3002) return dict_char::separator;
    return dict_char::other;
}

dict_word_kind kind_of(std::string_view w, std::vector<char32_t>& out) {
    return semfp::detail::decode_dict_word(w, out, toy_kind);
}

}  // namespace

TEST_CASE("dict_words: a word is decoded only when made of Han characters", "[dictionary]") {
    std::vector<char32_t> out{U'x'};
    CHECK(kind_of("\xE4\xB8\xAD\xE5\x9B\xBD", out) == dict_word_kind::han);  // 中国
    CHECK(out == std::vector<char32_t>{U'x', 0x4E2D, 0x56FD});
    // Every other kind leaves `out` as it was.
    CHECK(kind_of("", out) == dict_word_kind::empty);
    CHECK(kind_of("a\xE4\xB8\xAD", out) == dict_word_kind::mixed);
    CHECK(kind_of("\xE4\xB8\xAD\xFF", out) == dict_word_kind::malformed_utf8);
    CHECK(kind_of("\xE4\xB8\xAD \xE5\x9B\xBD", out) == dict_word_kind::has_space);
    CHECK(kind_of("-\xE3\x80\x82-", out) == dict_word_kind::separators_only);
    CHECK(out.size() == 3);
    // Han outside the URO fast path (U+20000, four bytes) goes through the general loop.
    std::vector<char32_t> ext;
    CHECK(semfp::detail::decode_dict_word("\xF0\xA0\x80\x80", ext, [](char32_t) { return dict_char::han; }) ==
          dict_word_kind::han);
    CHECK(ext == std::vector<char32_t>{0x20000});
    CHECK(std::string(semfp::detail::dict_word_problem(dict_word_kind::has_space)) == "word containing white space");
}

TEST_CASE("dict_words: lines split into word, frequency and tag", "[dictionary]") {
    using semfp::detail::dict_split_line;
    auto w = dict_split_line("  \xE4\xB8\xAD 12\tn", 4, 0);
    CHECK(w.word == "\xE4\xB8\xAD");
    CHECK(w.column == 3);
    w = dict_split_line("\xE4\xB8\xAD ns", 1, 3);  // a tag in the second column; after a BOM
    CHECK(w.word == "\xE4\xB8\xAD");
    CHECK(w.column == 4);
    CHECK(dict_split_line("# comment", 1, 0).word.empty());
    CHECK(dict_split_line(" \t ", 1, 0).word.empty());
    auto column_of = [](std::string_view line) -> std::size_t {
        try {
            (void)dict_split_line(line, 7, 0);
        } catch (const semfp::parse_error& e) {
            CHECK(e.line() == 7);
            return e.column();
        }
        return 0;
    };
    CHECK(column_of("a 1 n extra") == 7);  // more than three columns
    CHECK(column_of("a -1") == 3);         // a frequency that is not a non-negative integer
    CHECK(column_of("a 12345678901234567890") == 3);
    CHECK(column_of("a n n") == 3);         // three columns need a frequency
    CHECK(column_of("a 1 \xFF") == 5);      // a tag that is not UTF-8
    CHECK(column_of("a 1234567890123456789 n") == 0);
}

TEST_CASE("dict_words: reversed words keep their offsets", "[dictionary]") {
    semfp::detail::seg_word_list words;
    const char32_t a[] = {1, 2, 3};
    const char32_t b[] = {4};
    const char32_t c[] = {5, 6};
    words.push(a, 3);
    words.push(b, 1);
    words.push(c, 2);
    const semfp::detail::seg_word_list rev = semfp::detail::seg_reversed_words(words);
    CHECK(rev.offsets == words.offsets);
    CHECK(rev.cps == std::vector<char32_t>{3, 2, 1, 4, 6, 5});
}
