#pragma once
/// \file
/// Sentences of a UTF-8 text, reported as views into it with their byte offsets.
///
/// Why a rule-based splitter with a callback: the consumers (period feature strings, sentence
/// signatures, passage explainers) need every sentence's position in the caller's text and
/// must not pay an allocation per sentence, so sentences are handed out as `std::string_view`s
/// into the input together with their byte offset, in one forward pass (linear time, no state
/// beyond a few offsets). Chinese prose ends sentences with full-width punctuation that is
/// never ambiguous; ASCII punctuation is ambiguous (decimals, versions, abbreviations) and is
/// accepted only where the corpus shows it ends a sentence: before white space or the end of
/// the text, or right after a Han character (the corpus writes a full stop after Han text as
/// an ASCII dot), never between two digits.
///
/// Rules, in order:
/// - A line break (LF, CR, CR LF, VT, FF, U+0085, U+2028, U+2029) ends a sentence and is not
///   part of it.
/// - Terminators: the ideographic full stop, exclamation and question marks, semicolon and the
///   ellipses, in their full-width, half-width, small and vertical forms (U+3002, U+FF61,
///   U+FE12, U+FF01, U+FF1F, U+FF1B, U+FE52, U+FE56, U+FE57, U+FE54, U+FE15, U+FE16, U+FE14,
///   U+2026, U+22EF, U+FE19) end a sentence wherever they appear.
/// - ASCII `.` `!` `?` `;` end a sentence when followed by white space or the end of the text,
///   or when preceded by a Han character; never when between two ASCII digits ("3.14",
///   "v1.2.3", "1;2" stay inside their sentence).
/// - A run of terminators stays together (U+FF1F U+FF01, U+2026 U+2026), and closing quotes and
///   brackets right after it (U+201D, U+2019, U+300D, U+300F, U+FF09, U+3011, U+300B, U+3009,
///   U+FE42, U+FE44, U+FF63, `)`, `]`) belong to the sentence that ends. ASCII quotes
///   do not (they open as often as they close).
/// - Leading and trailing white space (ASCII, U+00A0, U+3000 and the other Unicode spaces) is
///   trimmed from each sentence; a sentence that is empty after trimming, or made only of
///   terminators, is skipped.
///
/// Malformed UTF-8 bytes and NUL bytes are ordinary sentence content (a malformed byte counts
/// as one non-Han code point), so any input is split in linear time without failing.

#include <semfp/text/char_class.hpp>
#include <semfp/text/utf8.hpp>

#include <concepts>
#include <cstddef>
#include <string_view>
#include <type_traits>

namespace semfp {
inline namespace v0 {

namespace detail {

/// What a code point means to the sentence splitter.
enum class sentence_role : unsigned char {
    content,     ///< ordinary text
    space,       ///< white space that does not end a line (trimmed at sentence ends)
    line_break,  ///< ends a sentence, not part of it
    terminator,  ///< always ends a sentence (CJK and full-width punctuation)
    ascii_stop,  ///< `.` `!` `?` `;`: ends a sentence only in context
    closing,     ///< a closing quote or bracket: joins a preceding terminator run
};

[[nodiscard]] constexpr sentence_role sentence_role_of(char32_t c) noexcept {
    switch (c) {
        case U'\n': case U'\r': case U'\v': case U'\f': case 0x85: case 0x2028: case 0x2029:
            return sentence_role::line_break;
        case U'.': case U'!': case U'?': case U';':
            return sentence_role::ascii_stop;
        case 0x3002: case 0xFF61: case 0xFE12:                  // ideographic full stop and its forms
        case 0xFF01: case 0xFE57: case 0xFE15:                  // exclamation mark
        case 0xFF1F: case 0xFE56: case 0xFE16:                  // question mark
        case 0xFF1B: case 0xFE54: case 0xFE14:                  // semicolon
        case 0xFE52:                                            // small full stop
        case 0x2026: case 0x22EF: case 0xFE19:                  // ellipses
            return sentence_role::terminator;
        case 0x201D: case 0x2019: case 0x300D: case 0x300F: case 0xFF09: case 0x3011: case 0x300B:
        case 0x3009: case 0xFE42: case 0xFE44: case 0xFF63: case U')': case U']':
            return sentence_role::closing;
        default:
            break;
    }
    if (c == U' ' || c == U'\t' || c == 0xA0 || c == 0x3000 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
        c == 0x202F || c == 0x205F)
        return sentence_role::space;
    return sentence_role::content;
}

[[nodiscard]] constexpr bool is_ascii_digit_at(std::string_view s, std::size_t i) noexcept {
    return i < s.size() && s[i] >= '0' && s[i] <= '9';
}

}  // namespace detail

/// Calls `f(sentence, byte_offset)` for each sentence of `text`, in order (see the file comment
/// for the rules). `sentence` is a view into `text` (valid as long as `text` is) that includes
/// its terminators and closing quotes, trimmed of white space; `byte_offset` is the offset of
/// its first byte in `text`. Sentences do not overlap and never contain a line break.
///
/// \param text UTF-8 text; malformed bytes and NUL are ordinary content.
/// \param f called with `(std::string_view, std::size_t)`; its result is ignored.
/// Complexity: O(text.size()), no allocation. Throws only what `f` throws.
template <class F>
    requires std::invocable<F&, std::string_view, std::size_t>
void for_each_sentence(std::string_view text, F&& f) noexcept(
    std::is_nothrow_invocable_v<F&, std::string_view, std::size_t>) {
    using detail::sentence_role;
    const std::size_t n = text.size();
    std::size_t content_end = 0;     // end of its last non-space code point
    bool has_content = false;        // it holds something other than spaces and terminators
    bool prev_han = false;           // the previous code point is Han
    std::size_t first = n;           // first non-space byte of the current sentence

    auto flush = [&](std::size_t end) {
        if (has_content && first < end) {
            const std::size_t stop = content_end > first ? content_end : end;
            f(text.substr(first, stop - first), first);
        }
        first = n;
        content_end = end;
        has_content = false;
    };

    std::size_t i = 0;
    while (i < n) {
        const utf8::decoded d = utf8::decode(text, i);
        const std::size_t next = i + d.length;
        sentence_role role = d.valid ? detail::sentence_role_of(d.code_point) : sentence_role::content;
        if (role == sentence_role::ascii_stop) {
            const bool in_number = detail::is_ascii_digit_at(text, next) && i > 0 && detail::is_ascii_digit_at(text, i - 1);
            bool ends = false;
            if (!in_number) {
                if (next >= n || prev_han) {
                    ends = true;
                } else {
                    const utf8::decoded after = utf8::decode(text, next);
                    const sentence_role ar = after.valid ? detail::sentence_role_of(after.code_point) : sentence_role::content;
                    ends = ar == sentence_role::space || ar == sentence_role::line_break;
                }
            }
            role = ends ? sentence_role::terminator : sentence_role::content;
        }
        switch (role) {
            case sentence_role::line_break:
                flush(i);
                prev_han = false;
                i = next;
                continue;
            case sentence_role::space:
                prev_han = false;
                i = next;
                continue;
            case sentence_role::terminator: {
                if (first == n) first = i;
                // Take the whole run of terminators (ASCII stops in it count when they would end
                // a sentence on their own, or simply follow another terminator) and closing marks.
                std::size_t j = next;
                while (j < n) {
                    const utf8::decoded e = utf8::decode(text, j);
                    const sentence_role r = e.valid ? detail::sentence_role_of(e.code_point) : sentence_role::content;
                    if (r != sentence_role::terminator && r != sentence_role::ascii_stop && r != sentence_role::closing) break;
                    j += e.length;
                }
                content_end = j;
                flush(j);
                prev_han = false;
                i = j;
                continue;
            }
            case sentence_role::closing:
            case sentence_role::content:
            case sentence_role::ascii_stop:
                if (first == n) first = i;
                has_content = true;
                content_end = next;
                prev_han = d.valid && is_han(d.code_point);
                i = next;
                continue;
        }
    }
    flush(n);
}

}  // namespace v0
}  // namespace semfp
