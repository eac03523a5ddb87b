#pragma once
/// \file
/// Text normalization applied before tokenizing: full-width ASCII to half-width, ideographic
/// space to space, ASCII case folding, and (optionally) Traditional to Simplified Han folding,
/// with Taiwan-standard vocabulary folded to mainland words.
///
/// `normalize_with_offsets` runs the same loop (one template, `detail::normalize_core`, with
/// offset hooks that compile to nothing for plain normalization) and also maps every normalized
/// byte back to the original one, because folding changes byte lengths (a full-width letter is
/// 3 bytes, its fold 1; a folded phrase may grow or shrink) and callers report positions in the
/// text they were given.

#include <semfp/text/script_fold.hpp>
#include <semfp/text/utf8.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace semfp {
inline namespace v0 {

/// Which foldings `normalize_into` applies.
struct normalize_options {
    bool fold_width = true;   ///< U+FF01..U+FF5E -> U+0021..U+007E, U+3000 -> U+0020
    bool fold_case = true;    ///< A-Z -> a-z (after width folding, so full-width letters fold too)
    bool fold_script = true;  ///< Traditional -> Simplified Han characters (see script_fold.hpp)
    /// With `fold_script`: Taiwan-standard phrases -> mainland vocabulary, on the folded text,
    /// longest match first (see script_fold.hpp). Off here; 128-bit fingerprinters switch it on
    /// by default (`default_fingerprint_options`), where it was measured to recognize copies
    /// converted with Taiwan phrases at no other cost (README "Defaults").
    bool fold_phrases = false;
};

namespace detail {

/// Width folding of one code point (`normalize_options::fold_width`): U+3000 -> U+0020 and
/// U+FF01..U+FF5E -> U+0021..U+007E; any other code point is returned unchanged. Shared with the
/// fused fingerprint pass, which must fold exactly alike.
[[nodiscard]] constexpr char32_t fold_width_code_point(char32_t cp) noexcept {
    if (cp == 0x3000) return U' ';
    if (cp >= 0xFF01 && cp <= 0xFF5E) return cp - 0xFEE0;
    return cp;
}

/// ASCII case folding of one byte when `on` (`normalize_options::fold_case`).
[[nodiscard]] constexpr char fold_case_byte(char c, bool on) noexcept {
    return on && c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c;
}

/// The characters of a candidate phrase, read from the input for `match_tw_phrase` (shared by
/// `normalize_core` and the fused fingerprint pass, so both read them alike): character j starts
/// where character j - 1 ended, `ends[j - 1]` (the caller sets `ends[0]`); the end of the text,
/// ASCII (phrases are Han) or a malformed unit ends the phrase (U'\0'); each character is
/// script-folded.
struct tw_phrase_reader {
    std::string_view in;
    std::size_t ends[tw_phrase_max_length]{};  // ends[j]: input offset after character j

    constexpr char32_t operator()(std::size_t j) noexcept {
        const std::size_t at = ends[j - 1];
        if (at >= in.size() || static_cast<unsigned char>(in[at]) < 0x80) return U'\0';
        const utf8::decoded next = utf8::decode(in, at);
        if (!next.valid) return U'\0';
        ends[j] = at + next.length;
        return fold_to_simplified(next.code_point);
    }
};

/// Offset hooks of `normalize_core` that do nothing (plain normalization).
struct no_offset_marks {
    static constexpr void run(std::size_t, std::size_t) noexcept {}
    static constexpr void unit(std::size_t, std::size_t) noexcept {}
};

/// The one normalization loop, shared by `normalize_into` and `normalize_with_offsets` so both
/// produce the same bytes. After each piece of output it tells `marks` where it came from:
/// `marks.run(in_pos, out_pos)`: the output from `out_pos` to the end copies input bytes from
/// `in_pos` one for one (ASCII, possibly case-folded); `marks.unit(in_pos, out_pos)`: the
/// output from `out_pos` to the end replaces one input unit (a code point or a folded phrase)
/// that starts at `in_pos`.
template <class Marks>
void normalize_core(std::string_view in, std::string& out, const normalize_options& opt, Marks& marks) {
    out.clear();
    out.reserve(in.size());
    const std::size_t n = in.size();
    std::size_t i = 0;
    while (i < n) {
        const auto b = static_cast<unsigned char>(in[i]);
        if (b < 0x80) {
            // ASCII run: copy with optional case folding.
            std::size_t j = i;
            while (j < n && static_cast<unsigned char>(in[j]) < 0x80) ++j;
            const std::size_t out_at = out.size();
            if (opt.fold_case) {
                for (std::size_t k = i; k < j; ++k) out.push_back(fold_case_byte(in[k], true));
            } else {
                out.append(in.data() + i, j - i);
            }
            marks.run(i, out_at);
            i = j;
            continue;
        }
        // Only lead bytes E3 (U+3000..U+3FFF), EF (U+F000..U+FFFF) and, with script folding,
        // E3..E9 and F0 (Han blocks) can start a sequence that changes.
        const bool may_width = opt.fold_width && (b == 0xE3 || b == 0xEF);
        const bool may_script = opt.fold_script && ((b >= 0xE3 && b <= 0xE9) || b == 0xF0);
        const utf8::decoded d = utf8::decode(in, i);
        const std::size_t out_at = out.size();
        if (!d.valid || (!may_width && !may_script)) {
            out.append(in.data() + i, d.length);
            marks.unit(i, out_at);
            i += d.length;
            continue;
        }
        char32_t cp = d.code_point;
        if (may_width) cp = fold_width_code_point(cp);
        if (cp < 0x80) {
            out.push_back(fold_case_byte(static_cast<char>(cp), opt.fold_case));
        } else {
            if (may_script) {
                cp = fold_to_simplified(cp);
                if (opt.fold_phrases && detail::may_start_tw_phrase(cp)) {
                    detail::tw_phrase_reader next{in};
                    next.ends[0] = i + d.length;
                    const detail::tw_phrase_match m = detail::match_tw_phrase(cp, next);
                    if (m.chars != 0) {
                        out.append(m.to);
                        marks.unit(i, out_at);
                        i = next.ends[m.chars - 1];
                        continue;
                    }
                }
            }
            if (cp == d.code_point) out.append(in.data() + i, d.length);
            else utf8::append(out, cp);
        }
        marks.unit(i, out_at);
        i += d.length;
    }
}

}  // namespace detail

/// Writes the normalized form of `in` to `out` (replacing its contents).
///
/// Malformed UTF-8 bytes and every code point not folded are copied unchanged, so the output is
/// never much longer than the input (a folded phrase is at most 9 bytes longer), and the
/// tokenizers see malformed bytes exactly as in the input. `out` keeps its capacity between
/// calls, so reusing one string makes normalization allocation-free in steady state.
/// Complexity: linear in `in.size()`.
inline void normalize_into(std::string_view in, std::string& out, const normalize_options& opt = {}) {
    detail::no_offset_marks marks;
    detail::normalize_core(in, out, opt, marks);
}

/// A normalized text with the way back to the original: `offsets[k]` is the byte offset in the
/// original text of the unit that produced normalized byte `k`. A unit is one byte of ASCII,
/// one code point (or one malformed byte) otherwise, or a whole folded phrase, so every byte
/// of a folded unit maps to the unit's first original byte. `offsets` has one more entry than
/// `text`: `offsets[text.size()]` is the original text's length.
struct normalized_text {
    std::string text;                  ///< the normalized bytes, identical to `normalize(original, options)`
    std::vector<std::size_t> offsets;  ///< original byte offset of each normalized byte, plus the end

    /// Half-open byte range of the original text.
    struct range {
        std::size_t begin;  ///< first original byte
        std::size_t end;    ///< one past the last original byte
    };

    /// Original byte offset of normalized byte `pos` (`pos <= text.size()`; larger values give
    /// the original length). O(1).
    [[nodiscard]] std::size_t original_offset(std::size_t pos) const noexcept {
        if (offsets.empty()) return 0;
        return offsets[pos < offsets.size() ? pos : offsets.size() - 1];
    }

    /// The original bytes that produced the normalized bytes `[b, e)`: from the start of the unit
    /// holding byte `b` to the end of the unit holding byte `e - 1`, so a range that cuts a folded
    /// unit covers all of it. Empty range at `original_offset(b)` when `e <= b`. Arguments past
    /// the end are clamped. O(1) (a folded unit is at most a few bytes long).
    [[nodiscard]] range original_range(std::size_t b, std::size_t e) const noexcept {
        const std::size_t n = text.size();
        if (offsets.size() != n + 1) return {0, 0};
        if (b > n) b = n;
        if (e > n) e = n;
        if (e <= b) return {offsets[b], offsets[b]};
        const std::size_t last = offsets[e - 1];
        while (e < n && offsets[e] == last) ++e;
        return {offsets[b], offsets[e]};
    }
};

namespace detail {

/// Offset hooks of `normalize_core` that record where each normalized byte came from.
struct recording_offset_marks {
    std::vector<std::size_t>* offsets;
    const std::string* out;
    void run(std::size_t in_pos, std::size_t out_pos) const {
        for (std::size_t k = out_pos; k < out->size(); ++k) offsets->push_back(in_pos + (k - out_pos));
    }
    void unit(std::size_t in_pos, std::size_t out_pos) const { offsets->insert(offsets->end(), out->size() - out_pos, in_pos); }
};

}  // namespace detail

/// Normalizes `text` as `normalize(text, options)` does (same bytes) and records, for each
/// normalized byte, the original byte it came from, so positions found in the normalized text
/// (sentences, passages, features) can be reported as original offsets. Width folding shortens
/// a code point (3 bytes to 1), phrase folding changes lengths both ways; see `normalized_text`.
/// Complexity: linear in `text.size()`; memory: one `std::size_t` per normalized byte.
/// Throws only std::bad_alloc.
[[nodiscard]] inline normalized_text normalize_with_offsets(std::string_view text, const normalize_options& options = {}) {
    normalized_text r;
    r.offsets.reserve(text.size() + 1);
    detail::recording_offset_marks marks{&r.offsets, &r.text};
    detail::normalize_core(text, r.text, options, marks);
    r.offsets.push_back(text.size());
    return r;
}

/// Returns the normalized form of `text` (see `normalize_into`).
[[nodiscard]] inline std::string normalize(std::string_view text, const normalize_options& opt = {}) {
    std::string out;
    normalize_into(text, out, opt);
    return out;
}

}  // namespace v0
}  // namespace semfp
