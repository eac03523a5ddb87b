#pragma once
/// \file
/// Dictionary-free tokenizers modelling `semfp::Tokenizer`: `CharNgramTokenizer<N>` (overlapping
/// code-point n-grams of Han/Kana/Hangul runs, other words whole) and `WhitespaceTokenizer`.

#include <semfp/concepts.hpp>
#include <semfp/text/char_class.hpp>
#include <semfp/text/utf8.hpp>

#include <array>
#include <cstddef>
#include <string_view>

namespace semfp {
inline namespace v0 {

/// Overlapping n-grams of code points over runs of CJK characters (Han, Kana, Hangul), with every
/// other word kept whole.
///
/// - A CJK run of k >= N code points yields k - N + 1 overlapping n-grams; a shorter run yields
///   itself as one token.
/// - ASCII words (letters and digits, with inner `.`, `-`, `_`: `iPhone15`, `3.14`, `UTF-8`) and
///   words of other scripts (Latin-1, Cyrillic, Greek, ...) are one token each.
/// - White space, punctuation, symbols, controls, NUL and malformed UTF-8 bytes separate tokens
///   and are never tokens.
/// Tokens are views into `text`, valid while `text` is. Linear time; never allocates.
template <std::size_t N>
class CharNgramTokenizer {
    static_assert(N >= 1 && N <= 8, "CharNgramTokenizer supports n-grams of 1 to 8 code points");

public:
    /// The n-gram length.
    static constexpr std::size_t n = N;

    /// Feeds the tokens of `text` to `sink`.
    template <TokenSink Sink>
    constexpr void tokenize(std::string_view text, Sink&& sink) const {
        const std::size_t size = text.size();
        std::size_t i = 0;
        while (i < size) {
            const auto b = static_cast<unsigned char>(text[i]);
            if (b < 0x80) {
                const std::size_t end = detail::scan_ascii_word(text, i);
                if (end > i) {
                    sink(text.substr(i, end - i));
                    i = end;
                } else {
                    ++i;
                }
                continue;
            }
            const utf8::decoded d = utf8::decode(text, i);
            const char_class k = classify(d.code_point);
            if (k == char_class::han || k == char_class::kana || k == char_class::hangul) {
                i = cjk_run(text, i, sink);
            } else if (k == char_class::letter) {
                i = word_run(text, i, sink);
            } else {
                i += d.length;
            }
        }
    }

private:
    [[nodiscard]] static constexpr bool is_cjk(char_class k) noexcept {
        return k == char_class::han || k == char_class::kana || k == char_class::hangul;
    }

    // Emits the n-grams of the CJK run starting at `pos`; returns the end of the run.
    template <class Sink>
    static constexpr std::size_t cjk_run(std::string_view text, std::size_t pos, Sink& sink) {
        // starts[c % (N + 1)] holds the byte offset of the c-th code point of the run.
        std::array<std::size_t, N + 1> starts{};
        std::size_t count = 0;
        std::size_t i = pos;
        while (i < text.size()) {
            const utf8::decoded d = utf8::decode(text, i);
            if (!d.valid || !is_cjk(classify(d.code_point))) break;
            starts[count % (N + 1)] = i;
            ++count;
            i += d.length;
            if (count >= N) {
                const std::size_t first = starts[(count - N) % (N + 1)];
                sink(text.substr(first, i - first));
            }
        }
        if (count < N) sink(text.substr(pos, i - pos));
        return i;
    }

    // Emits one word of letters (any script but CJK) and ASCII alphanumerics.
    template <class Sink>
    static constexpr std::size_t word_run(std::string_view text, std::size_t pos, Sink& sink) {
        std::size_t i = pos;
        while (i < text.size()) {
            const utf8::decoded d = utf8::decode(text, i);
            const char_class k = classify(d.code_point);
            if (k != char_class::letter && k != char_class::ascii_letter && k != char_class::ascii_digit) break;
            i += d.length;
        }
        sink(text.substr(pos, i - pos));
        return i;
    }
};

/// Character bigrams: the dictionary-free default for Chinese.
using CharBigramTokenizer = CharNgramTokenizer<2>;

/// Splits on white space (ASCII and Unicode, including U+3000); every maximal run of other
/// code points (punctuation included) is a token. Malformed bytes belong to tokens. Linear time;
/// never allocates.
class WhitespaceTokenizer {
public:
    /// Feeds the tokens of `text` to `sink`.
    template <TokenSink Sink>
    constexpr void tokenize(std::string_view text, Sink&& sink) const {
        std::size_t i = 0, start = 0;
        bool in_token = false;
        while (i < text.size()) {
            const utf8::decoded d = utf8::decode(text, i);
            const bool space = d.valid && classify(d.code_point) == char_class::space;
            if (space && in_token) {
                sink(text.substr(start, i - start));
                in_token = false;
            } else if (!space && !in_token) {
                start = i;
                in_token = true;
            }
            i += d.length;
        }
        if (in_token) sink(text.substr(start));
    }
};

}  // namespace v0
}  // namespace semfp
