#pragma once
/// \file
/// Text normalization applied before tokenizing: full-width ASCII to half-width, ideographic
/// space to space, ASCII case folding, and (optionally) Traditional to Simplified Han folding,
/// with Taiwan-standard vocabulary folded to mainland words.

#include <semfp/text/script_fold.hpp>
#include <semfp/text/utf8.hpp>

#include <cstddef>
#include <string>
#include <string_view>

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

/// Writes the normalized form of `in` to `out` (replacing its contents).
///
/// Malformed UTF-8 bytes and every code point not folded are copied unchanged, so the output is
/// never much longer than the input (a folded phrase is at most 9 bytes longer), and the
/// tokenizers see malformed bytes exactly as in the input. `out` keeps its capacity between
/// calls, so reusing one string makes normalization allocation-free in steady state.
/// Complexity: linear in `in.size()`.
inline void normalize_into(std::string_view in, std::string& out, const normalize_options& opt = {}) {
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
            if (opt.fold_case) {
                for (std::size_t k = i; k < j; ++k) {
                    char c = in[k];
                    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + ('a' - 'A'));
                    out.push_back(c);
                }
            } else {
                out.append(in.data() + i, j - i);
            }
            i = j;
            continue;
        }
        // Only lead bytes E3 (U+3000..U+3FFF), EF (U+F000..U+FFFF) and, with script folding,
        // E3..E9 and F0 (Han blocks) can start a sequence that changes.
        const bool may_width = opt.fold_width && (b == 0xE3 || b == 0xEF);
        const bool may_script = opt.fold_script && ((b >= 0xE3 && b <= 0xE9) || b == 0xF0);
        const utf8::decoded d = utf8::decode(in, i);
        if (!d.valid || (!may_width && !may_script)) {
            out.append(in.data() + i, d.length);
            i += d.length;
            continue;
        }
        char32_t cp = d.code_point;
        if (may_width) {
            if (cp == 0x3000) cp = U' ';
            else if (cp >= 0xFF01 && cp <= 0xFF5E) cp -= 0xFEE0;
        }
        if (cp < 0x80) {
            char c = static_cast<char>(cp);
            if (opt.fold_case && c >= 'A' && c <= 'Z') c = static_cast<char>(c + ('a' - 'A'));
            out.push_back(c);
        } else {
            if (may_script) {
                cp = fold_to_simplified(cp);
                if (opt.fold_phrases && detail::may_start_tw_phrase(cp)) {
                    // ends[j]: the input offset after the j-th code point of a candidate phrase.
                    std::size_t ends[detail::tw_phrase_max_length]{};
                    ends[0] = i + d.length;
                    const detail::tw_phrase_match m = detail::match_tw_phrase(cp, [&](std::size_t j) -> char32_t {
                        const std::size_t at = ends[j - 1];
                        if (at >= n || static_cast<unsigned char>(in[at]) < 0x80) return U'\0';  // phrases are Han
                        const utf8::decoded next = utf8::decode(in, at);
                        if (!next.valid) return U'\0';
                        ends[j] = at + next.length;
                        return fold_to_simplified(next.code_point);
                    });
                    if (m.chars != 0) {
                        out.append(m.to);
                        i = ends[m.chars - 1];
                        continue;
                    }
                }
            }
            if (cp == d.code_point) out.append(in.data() + i, d.length);
            else utf8::append(out, cp);
        }
        i += d.length;
    }
}

/// Returns the normalized form of `text` (see `normalize_into`).
[[nodiscard]] inline std::string normalize(std::string_view text, const normalize_options& opt = {}) {
    std::string out;
    normalize_into(text, out, opt);
    return out;
}

}  // namespace v0
}  // namespace semfp
