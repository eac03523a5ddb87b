#pragma once
// The word lists behind semfp::Dictionary: checking and decoding one word, splitting one line of
// a `word [frequency] [tag]` file into its columns, and reversing a list of words (for the
// reverse trie). The character classes come from the caller (text/char_class.hpp is above
// detail/), as a function object `kind(char32_t) -> dict_char`.

#include <semfp/detail/seg_decode.hpp>
#include <semfp/detail/seg_trie.hpp>
#include <semfp/detail/utf8_codec.hpp>
#include <semfp/error.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace semfp {
inline namespace v0 {
namespace detail {

/// What a character is to the dictionary.
enum class dict_char : std::uint8_t { han, space, separator, other };

enum class dict_word_kind : std::uint8_t { han, mixed, malformed_utf8, separators_only, empty, has_space };

// Decodes `word` into `out` (appending) when it is made of Han characters only; `kind` tells the
// class of a character.
template <class Kind>
dict_word_kind decode_dict_word(std::string_view word, std::vector<char32_t>& out, Kind&& kind) {
    if (word.empty()) return dict_word_kind::empty;
    const std::size_t mark = out.size();
    if (word.size() % 3 == 0) {
        // Fast path: the common case of a word made of URO ideographs (U+4E00..U+9FFF, leads
        // E4..E9 with two continuation bytes).
        std::size_t i = 0;
        for (; i < word.size(); i += 3) {
            const char32_t c = seg_three_byte(word.data() + i);
            if (c < 0x4E00 || c > 0x9FFF) break;
            out.push_back(c);
        }
        if (i == word.size()) return dict_word_kind::han;
        out.resize(mark);
    }
    bool all_han = true;
    bool all_sep = true;
    for (std::size_t i = 0; i < word.size();) {
        const utf8_decoded d = seg_decode(word, i);
        if (!d.valid) {
            out.resize(mark);
            return dict_word_kind::malformed_utf8;
        }
        const char32_t c = d.code_point;
        i += d.length;
        const dict_char k = kind(c);
        if (k == dict_char::han) {
            if (all_han) out.push_back(c);
            all_sep = false;
            continue;
        }
        if (k == dict_char::space) {
            out.resize(mark);
            return dict_word_kind::has_space;
        }
        all_han = false;
        if (k != dict_char::separator) all_sep = false;
    }
    if (all_sep) {
        out.resize(mark);
        return dict_word_kind::separators_only;
    }
    if (!all_han) {
        out.resize(mark);
        return dict_word_kind::mixed;
    }
    return dict_word_kind::han;
}

[[nodiscard]] inline const char* dict_word_problem(dict_word_kind k) noexcept {
    switch (k) {
    case dict_word_kind::malformed_utf8: return "invalid UTF-8 in word";
    case dict_word_kind::separators_only: return "word made only of punctuation or symbols";
    case dict_word_kind::empty: return "empty word";
    case dict_word_kind::has_space: return "word containing white space";
    default: return "malformed word";
    }
}

[[nodiscard]] constexpr bool dict_is_blank(char c) noexcept { return c == ' ' || c == '\t'; }

[[nodiscard]] constexpr bool dict_valid_utf8(std::string_view s) noexcept {
    for (std::size_t i = 0; i < s.size();) {
        const utf8_decoded d = utf8_decode(s, i);
        if (!d.valid) return false;
        i += d.length;
    }
    return true;
}

/// The word of one line of a word list (`word [frequency] [tag]`, blank-separated), with its
/// 1-based column; `word` is empty for a blank line or a comment (`#` first).
struct dict_line_word {
    std::string_view word;
    std::size_t column = 0;
};

/// Splits line `line_no` (its text `v` starts at byte `col0` of the line) and checks the columns
/// after the word: a frequency (a non-negative integer, at most 19 digits) and a tag (UTF-8);
/// a second column that does not look numeric is a tag.
/// \throws parse_error (with line and column) for more than three columns, a malformed
///         frequency or a tag that is not UTF-8.
[[nodiscard]] inline dict_line_word dict_split_line(std::string_view v, std::size_t line_no, std::size_t col0) {
    std::string_view fields[3];
    std::size_t columns[3] = {};
    std::size_t count = 0;
    std::size_t i = 0;
    while (true) {
        while (i < v.size() && dict_is_blank(v[i])) ++i;
        if (i >= v.size()) break;
        std::size_t j = i;
        while (j < v.size() && !dict_is_blank(v[j])) ++j;
        if (count == 3)
            throw_parse_error("semfp: malformed dictionary line: more than three columns", line_no, col0 + i + 1);
        if (count == 0 && v[i] == '#') return {};  // comment
        fields[count] = v.substr(i, j - i);
        columns[count] = col0 + i + 1;
        ++count;
        i = j;
    }
    if (count == 0) return {};  // blank line
    std::size_t tag = 1;
    if (count >= 2) {
        const std::string_view f = fields[1];
        const bool numeric_intent = (f[0] >= '0' && f[0] <= '9') || f[0] == '-' || f[0] == '+' || f[0] == '.';
        if (numeric_intent) {
            bool ok = f.size() <= 19;
            for (const char c : f) ok = ok && c >= '0' && c <= '9';
            if (!ok)
                throw_parse_error("semfp: malformed dictionary line: frequency is not a non-negative integer", line_no,
                                  columns[1]);
            tag = 2;
        } else if (count == 3) {
            throw_parse_error("semfp: malformed dictionary line: frequency is not a non-negative integer", line_no,
                              columns[1]);
        }
    }
    for (std::size_t t = tag; t < count; ++t) {
        if (!dict_valid_utf8(fields[t]))
            throw_parse_error("semfp: malformed dictionary line: invalid UTF-8 in tag", line_no, columns[t]);
    }
    return {fields[0], columns[0]};
}

/// Every word of `words` reversed (code points in reverse order), same offsets.
[[nodiscard]] inline seg_word_list seg_reversed_words(const seg_word_list& words) {
    seg_word_list rev;
    rev.cps.resize(words.cps.size());
    rev.offsets = words.offsets;
    for (std::size_t w = 0; w < words.size(); ++w) {
        const std::uint32_t b = words.offsets[w], e = words.offsets[w + 1];
        for (std::uint32_t i = b; i < e; ++i) rev.cps[i] = words.cps[b + (e - 1 - i)];
    }
    return rev;
}

}  // namespace detail
}  // namespace v0
}  // namespace semfp
