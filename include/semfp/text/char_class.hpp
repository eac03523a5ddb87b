#pragma once
/// \file
/// Code-point classes used by the tokenizers and the segmenter.

#include <semfp/detail/ascii.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace semfp {
inline namespace v0 {

/// Coarse class of a code point, as the tokenizers need it.
enum class char_class : std::uint8_t {
    han,          ///< CJK unified ideographs (all extensions), compatibility ideographs, U+3005..U+3007
    ascii_letter, ///< A-Z, a-z
    ascii_digit,  ///< 0-9
    space,        ///< ASCII and Unicode white space, including U+3000 IDEOGRAPHIC SPACE
    punct,        ///< ASCII, Latin-1, general, CJK and full-width/half-width punctuation and symbols
    kana,         ///< Hiragana, Katakana (incl. half-width), Bopomofo
    hangul,       ///< Hangul syllables and jamo
    letter,       ///< letters and digits of other scripts (Latin-1/Extended, Greek, Cyrillic, full-width ASCII, ...)
    other,        ///< controls, NUL, U+FFFD (malformed input), private use, emoji and unassigned ranges
};

/// True for CJK ideographs: URO, Extensions A-I, compatibility ideographs, and U+3005..U+3007
/// (iteration mark, closing mark, ideographic zero), which behave as ideographs in words.
[[nodiscard]] constexpr bool is_han(char32_t c) noexcept {
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x323AF) ||
           (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F) || (c >= 0x3005 && c <= 0x3007);
}

/// Classifies a code point. O(1), branch only on ranges.
[[nodiscard]] constexpr char_class classify(char32_t c) noexcept {
    if (c < 0x80) {
        if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') return char_class::ascii_letter;
        if (c >= '0' && c <= '9') return char_class::ascii_digit;
        if (c == ' ' || (c >= 0x09 && c <= 0x0D)) return char_class::space;
        if (c < 0x20 || c == 0x7F) return char_class::other;
        return char_class::punct;
    }
    if (is_han(c)) return char_class::han;
    if (c < 0x100) {
        if (c == 0x85 || c == 0xA0) return char_class::space;
        if (c < 0xA0) return char_class::other;
        if (c < 0xC0 || c == 0xD7 || c == 0xF7) return char_class::punct;
        return char_class::letter;
    }
    if (c >= 0x1100 && c <= 0x11FF) return char_class::hangul;
    if (c < 0x2000) return char_class::letter;  // Latin Extended, Greek, Cyrillic, ... (coarse)
    if (c <= 0x200A || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000)
        return char_class::space;
    if (c < 0x2070) return (c >= 0x200B && c <= 0x200F) || (c >= 0x2060 && c <= 0x206F) ? char_class::other
                                                                                         : char_class::punct;
    if (c < 0x2E80) return char_class::punct;  // super/subscripts, currency, letterlike, arrows, math, box drawing,
                                               // shapes, dingbats, supplemental punctuation (coarse)
    if (c < 0x3000) return char_class::punct;  // CJK radicals, Kangxi radicals, ideographic description
    if (c < 0x3040) return char_class::punct;  // CJK symbols and punctuation
    if (c < 0x3100) return char_class::kana;   // Hiragana, Katakana
    if (c < 0x3130) return char_class::kana;   // Bopomofo
    if (c < 0x3190) return char_class::hangul; // Hangul compatibility jamo
    if (c < 0x31A0) return char_class::punct;  // Kanbun
    if (c < 0x31C0) return char_class::kana;   // Bopomofo extended
    if (c < 0x31F0) return char_class::punct;  // CJK strokes
    if (c < 0x3200) return char_class::kana;   // Katakana phonetic extensions
    if (c < 0x3400) return char_class::punct;  // enclosed CJK, CJK compatibility
    if (c >= 0xAC00 && c <= 0xD7FF) return char_class::hangul;
    if (c >= 0xA000 && c <= 0xABFF) return char_class::letter;  // Yi, Vai, ... (coarse)
    if (c >= 0xD800 && c <= 0xF8FF) return char_class::other;   // surrogates (never decoded), private use
    if (c >= 0xFE10 && c <= 0xFE1F) return char_class::punct;   // vertical forms
    if (c >= 0xFE30 && c <= 0xFE6F) return char_class::punct;   // CJK compatibility forms, small forms
    if (c == 0xFEFF) return char_class::other;                   // byte order mark / ZWNBSP
    if (c >= 0xFF01 && c <= 0xFF5E) {
        // Full-width ASCII: letters and digits count as letters (normalization folds them to ASCII).
        const char32_t a = c - 0xFEE0;
        if (((a | 0x20) >= 'a' && (a | 0x20) <= 'z') || (a >= '0' && a <= '9')) return char_class::letter;
        return char_class::punct;
    }
    if (c >= 0xFF5F && c <= 0xFF65) return char_class::punct;  // full-width brackets, half-width CJK punctuation
    if (c >= 0xFF66 && c <= 0xFF9F) return char_class::kana;   // half-width katakana
    if (c >= 0xFFA0 && c <= 0xFFDC) return char_class::hangul; // half-width hangul
    if (c >= 0xFFE0 && c <= 0xFFEE) return char_class::punct;  // full-width signs
    if (c >= 0xFFF0 && c <= 0xFFFF) return char_class::other;  // specials, U+FFFD
    if (c >= 0x1F000 && c <= 0x1FAFF) return char_class::other; // emoji, pictographs
    if (c >= 0xE0000) return char_class::other;                 // tags, variation selectors, private use
    if (c >= 0x1B000 && c <= 0x1B16F) return char_class::kana;  // kana supplement / extended
    if (c >= 0x3400 && c < 0xA000) return char_class::punct;    // Yijing hexagrams (4DC0..4DFF); Han handled above
    return char_class::letter;
}

/// True for classes that separate tokens: white space, punctuation and "other".
[[nodiscard]] constexpr bool is_separator(char_class k) noexcept {
    return k == char_class::space || k == char_class::punct || k == char_class::other;
}

/// True when `c` separates tokens (see `is_separator(char_class)`).
[[nodiscard]] constexpr bool is_separator(char32_t c) noexcept { return is_separator(classify(c)); }

namespace detail {

/// End (exclusive byte offset) of the ASCII word starting at `pos`: letters and digits, with
/// `.`, `-` and `_` allowed between two alphanumerics (`iPhone15`, `3.14`, `UTF-8`, `snake_case`).
/// Returns `pos` if `s[pos]` is not an ASCII letter or digit.
[[nodiscard]] constexpr std::size_t scan_ascii_word(std::string_view s, std::size_t pos) noexcept {
    std::size_t i = pos;
    const std::size_t n = s.size();
    while (i < n) {
        if (is_ascii_alnum(s[i])) {
            ++i;
        } else if ((s[i] == '.' || s[i] == '-' || s[i] == '_') && i > pos && i + 1 < n && is_ascii_alnum(s[i + 1])) {
            i += 2;
        } else {
            break;
        }
    }
    return i;
}

}  // namespace detail
}  // namespace v0
}  // namespace semfp
