#pragma once
/// \file
/// Passages two texts share, located in both ORIGINAL texts: `shared_passages` (exact, a
/// suffix automaton) and `copied_passages` (fast, seeded by shared winnowing fingerprints).
///
/// Why two explainers: the suffix automaton finds every maximal shared passage of two texts in
/// time linear in their length and is the reference answer, but it builds a structure of tens
/// of bytes per code point for every pair; over a collection, a copy index has already
/// winnowed both texts, and extending each shared fingerprint into the exact passage around it
/// costs only the passage's length. Both compare the texts after the library's normalization
/// (width, case and Traditional->Simplified folding, `normalize_with_offsets`) with runs of
/// white space collapsed to one space, so a copy that was re-encoded in full-width forms or
/// Traditional characters, or re-wrapped, is still one passage; offsets are mapped back to the
/// caller's bytes, lengths are counted in code points of the compared form.
///
/// Bad input: malformed UTF-8 bytes are compared as themselves (each malformed byte is a
/// distinct symbol that matches only the same byte), NUL is an ordinary character, empty texts
/// share nothing. Texts over 2^31 code points throw `invalid_argument_error`.

#include <semfp/copy/winnowing.hpp>
#include <semfp/detail/suffix_automaton.hpp>
#include <semfp/error.hpp>
#include <semfp/text/normalize.hpp>
#include <semfp/text/utf8.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace semfp {
inline namespace v0 {

/// A passage found in both texts.
struct shared_passage {
    std::size_t a_begin = 0;  ///< first byte in the original first text
    std::size_t a_end = 0;    ///< one past its last byte there
    std::size_t b_begin = 0;  ///< first byte in the original second text
    std::size_t b_end = 0;    ///< one past its last byte there
    std::size_t length = 0;   ///< code points of the compared (normalized, space-collapsed) form
    std::size_t a_char = 0;   ///< code-point offset of the passage in the compared form of the first text
    std::size_t b_char = 0;   ///< code-point offset in the compared form of the second text
    friend constexpr bool operator==(const shared_passage&, const shared_passage&) noexcept = default;
};

/// Options of `shared_passages` and `copied_passages`.
struct passage_options {
    std::size_t count = std::numeric_limits<std::size_t>::max();  ///< most passages returned
    std::size_t min_length = 8;   ///< shortest passage, in code points
    bool normalize = true;        ///< compare normalized texts (else the bytes as given, spaces still collapsed)
    normalize_options normalization{};  ///< foldings applied when `normalize`
};

namespace detail {

/// A text as the passage explainers compare it: one symbol per code point of the normalized
/// text, white-space runs collapsed to one space and trimmed, each with its original byte span.
struct compared_text {
    std::vector<char32_t> symbols;
    std::vector<std::size_t> begin;  ///< original first byte of each symbol
    std::vector<std::size_t> end;    ///< original end byte of each symbol
    normalized_text normalized;      ///< the normalized text and its offset map
    std::vector<std::uint32_t> symbol_of;  ///< normalized byte -> index of the symbol holding it

    compared_text(std::string_view original, const passage_options& opt) {
        if (opt.normalize) {
            normalized = normalize_with_offsets(original, opt.normalization);
        } else {
            normalized.text.assign(original);
            normalized.offsets.resize(original.size() + 1);
            for (std::size_t i = 0; i <= original.size(); ++i) normalized.offsets[i] = i;
        }
        const std::string_view s = normalized.text;
        // Code points are counted in 32 bits (symbol_of); refuse what cannot be indexed.
        if (s.size() >= (std::size_t{1} << 31)) throw_invalid_argument("semfp: passage text over 2^31 bytes");
        symbols.reserve(s.size());
        begin.reserve(s.size());
        end.reserve(s.size());
        symbol_of.resize(s.size() + 1);
        bool pending_space = false;
        std::size_t space_begin = 0, space_end = 0;
        std::size_t i = 0;
        while (i < s.size()) {
            const utf8::decoded d = utf8::decode(s, i);
            const auto next = i + d.length;
            const bool ws = d.valid && (d.code_point == U' ' || d.code_point == U'\n' || d.code_point == U'\t' ||
                                        d.code_point == U'\r' || d.code_point == U'\f' || d.code_point == U'\v');
            const auto r = normalized.original_range(i, next);
            if (ws) {
                if (!pending_space) space_begin = r.begin;
                pending_space = !symbols.empty();
                space_end = r.end;
            } else {
                if (pending_space) {
                    symbols.push_back(U' ');
                    begin.push_back(space_begin);
                    end.push_back(space_end);
                    pending_space = false;
                }
                // A malformed byte is a lone-surrogate symbol of its own value (never a valid
                // code point), so it matches only the same byte.
                symbols.push_back(d.valid ? d.code_point : static_cast<char32_t>(0xDC00u + static_cast<unsigned char>(s[i])));
                begin.push_back(r.begin);
                end.push_back(r.end);
            }
            const auto idx = static_cast<std::uint32_t>(symbols.empty() ? 0 : symbols.size() - 1);
            for (std::size_t k = i; k < next; ++k) symbol_of[k] = idx;
            i = next;
        }
        symbol_of[s.size()] = static_cast<std::uint32_t>(symbols.size());
    }

    [[nodiscard]] std::size_t size() const noexcept { return symbols.size(); }
};

/// A shared run: code-point offsets in both compared texts and its length.
struct passage_run {
    std::size_t a, b, len;
};

/// Chooses non-overlapping passages longest first: each candidate is cut so that it overlaps
/// no passage chosen before in either text, keeping its longer side; white space is trimmed
/// from both ends. Returns passages longest first (ties: earlier in the second text).
inline std::vector<shared_passage> choose_passages(std::vector<passage_run> cands, const compared_text& ta,
                                                   const compared_text& tb, const passage_options& opt) {
    std::stable_sort(cands.begin(), cands.end(), [](const passage_run& x, const passage_run& y) { return x.len > y.len; });
    std::vector<shared_passage> out;
    std::map<std::size_t, std::size_t> in_a, in_b;  // start -> end of chosen runs, per text
    auto cut = [&](passage_run c) {
        for (bool changed = true; changed && c.len != 0;) {
            changed = false;
            for (const bool side_a : {false, true}) {
                const auto& chosen = side_a ? in_a : in_b;
                const std::size_t cs = side_a ? c.a : c.b;
                auto it = chosen.upper_bound(cs);
                if (it != chosen.begin() && std::prev(it)->second > cs) --it;
                if (it == chosen.end() || it->first >= cs + c.len) continue;
                const std::size_t ps = it->first, pe = it->second;
                const std::size_t left = ps > cs ? ps - cs : 0;
                const std::size_t right = pe < cs + c.len ? cs + c.len - pe : 0;
                if (left >= right) {
                    c.len = left;
                } else {
                    const std::size_t skip = c.len - right;
                    c.a += skip;
                    c.b += skip;
                    c.len = right;
                }
                changed = true;
                break;
            }
        }
        while (c.len != 0 && tb.symbols[c.b] == U' ') {
            ++c.a;
            ++c.b;
            --c.len;
        }
        while (c.len != 0 && tb.symbols[c.b + c.len - 1] == U' ') --c.len;
        return c;
    };
    for (const passage_run& whole : cands) {
        if (out.size() >= opt.count || whole.len < opt.min_length) break;
        const passage_run c = cut(whole);
        if (c.len < opt.min_length || c.len == 0) continue;
        in_a.emplace(c.a, c.a + c.len);
        in_b.emplace(c.b, c.b + c.len);
        out.push_back({ta.begin[c.a], ta.end[c.a + c.len - 1], tb.begin[c.b], tb.end[c.b + c.len - 1], c.len, c.a, c.b});
    }
    std::stable_sort(out.begin(), out.end(), [](const shared_passage& x, const shared_passage& y) {
        return x.length != y.length ? x.length > y.length : x.b_char < y.b_char;
    });
    return out;
}

}  // namespace detail

/// Number of code points of the compared form of `text` (normalized as `options` says, white
/// space runs collapsed to one space and trimmed), in which passage lengths are counted: the
/// denominator of the share of a text that passages cover. Linear; throws as `shared_passages`.
[[nodiscard]] inline std::size_t compared_length(std::string_view text, const passage_options& options = {}) {
    return detail::compared_text(text, options).size();
}

/// The longest non-overlapping passages of at least `options.min_length` code points that occur
/// in both `a` and `b`, longest first, at most `options.count`. Every passage is maximal (it
/// extends in neither direction in both texts) unless it was cut where it overlapped a longer
/// passage chosen before. Offsets are bytes of the ORIGINAL `a` and `b`; a passage edge inside
/// a folded unit covers the whole unit.
///
/// Complexity: O(|a| + |b|) expected time for the automaton of `a` (independent of how many
/// distinct code points occur) plus O(p log p) for p candidate passages; memory about 120 bytes
/// per code point of `a` measured on the corpus, under 250 in the worst case (see
/// detail/suffix_automaton.hpp), plus about 40 bytes per code point of both texts for their
/// compared forms.
/// Throws `invalid_argument_error` for texts over 2^31 bytes, and std::bad_alloc.
[[nodiscard]] inline std::vector<shared_passage> shared_passages(std::string_view a, std::string_view b,
                                                                 const passage_options& options = {}) {
    if (options.count == 0 || a.empty() || b.empty()) return {};
    const detail::compared_text ta(a, options);
    const detail::compared_text tb(b, options);
    if (ta.size() == 0 || tb.size() == 0) return {};
    const detail::suffix_automaton sam(ta.symbols);
    using detail::suffix_automaton;

    // Longest match of a suffix of b[0..j] in a, for every j; right-maximal ones are candidates.
    std::vector<detail::passage_run> cands;
    std::uint32_t v = 0;
    std::size_t l = 0, prev_len = 0, prev_a_end = 0;
    const std::size_t min_len = options.min_length == 0 ? 1 : options.min_length;
    for (std::size_t j = 0; j < tb.size(); ++j) {
        const char32_t c = tb.symbols[j];
        while (v != 0 && sam.next(v, c) == suffix_automaton::none) {
            v = sam.at(v).link;
            l = sam.at(v).len;
        }
        const std::uint32_t t = sam.next(v, c);
        if (t != suffix_automaton::none) {
            v = t;
            ++l;
        } else {
            v = 0;
            l = 0;
        }
        // The match ending at j - 1 is right-maximal unless the match at j extends it.
        if (j != 0 && prev_len >= min_len && l != prev_len + 1)
            cands.push_back({prev_a_end + 1 - prev_len, j - prev_len, prev_len});
        prev_len = l;
        prev_a_end = l != 0 ? sam.at(v).first_end : 0;
    }
    if (prev_len >= min_len) cands.push_back({prev_a_end + 1 - prev_len, tb.size() - prev_len, prev_len});
    passage_options opt = options;
    opt.min_length = min_len;
    return detail::choose_passages(std::move(cands), ta, tb, opt);
}

/// Passages shared by `a` and `b` found from their shared winnowing fingerprints: each
/// k-gram selected in both texts is extended on the compared texts to the maximal exact passage
/// around it (so a hash collision yields nothing and every passage is verified), seeds inside a
/// passage already found are skipped, and overlapping passages are resolved as in
/// `shared_passages`. Finds every passage that contains a shared run of at least
/// `winnower.options().t` tokens; shorter ones only when a selected fingerprint falls inside.
///
/// Complexity: O(|a| + |b|) for winnowing plus O(f log f) for f fingerprints plus the total
/// length of the passages found. Throws as `shared_passages`.
template <class W = Winnower<>>
[[nodiscard]] std::vector<shared_passage> copied_passages(std::string_view a, std::string_view b,
                                                          const passage_options& options = {}, const W& winnower = W{}) {
    if (options.count == 0 || a.empty() || b.empty()) return {};
    const detail::compared_text ta(a, options);
    const detail::compared_text tb(b, options);
    std::vector<winnow_fingerprint> fa, fb;
    winnower.winnow(std::string_view(ta.normalized.text), fa);
    winnower.winnow(std::string_view(tb.normalized.text), fb);
    auto by_hash = [](const winnow_fingerprint& x, const winnow_fingerprint& y) { return x.hash < y.hash; };
    std::sort(fb.begin(), fb.end(), by_hash);

    struct seed {
        std::size_t a, b;
    };
    std::vector<seed> seeds;
    for (const winnow_fingerprint& f : fa) {
        auto [lo, hi] = std::equal_range(fb.begin(), fb.end(), f, by_hash);
        for (auto it = lo; it != hi; ++it) seeds.push_back({ta.symbol_of[f.begin], tb.symbol_of[it->begin]});
    }
    // By diagonal, then position: a seed inside the passage just found on its diagonal is skipped.
    std::sort(seeds.begin(), seeds.end(), [](const seed& x, const seed& y) {
        const auto dx = static_cast<std::ptrdiff_t>(x.a) - static_cast<std::ptrdiff_t>(x.b);
        const auto dy = static_cast<std::ptrdiff_t>(y.a) - static_cast<std::ptrdiff_t>(y.b);
        return dx != dy ? dx < dy : x.a < y.a;
    });
    const std::size_t min_len = options.min_length == 0 ? 1 : options.min_length;
    std::vector<detail::passage_run> cands;
    std::ptrdiff_t diag = 0;
    std::size_t covered_to = 0;  // on diagonal `diag`, passages found end before this a
    bool have = false;
    for (const seed& s : seeds) {
        const std::ptrdiff_t d = static_cast<std::ptrdiff_t>(s.a) - static_cast<std::ptrdiff_t>(s.b);
        if (have && d == diag && s.a < covered_to) continue;
        if (s.a >= ta.size() || s.b >= tb.size() || ta.symbols[s.a] != tb.symbols[s.b]) continue;
        std::size_t i = s.a, j = s.b;
        while (i != 0 && j != 0 && ta.symbols[i - 1] == tb.symbols[j - 1]) {
            --i;
            --j;
        }
        std::size_t len = s.a - i;
        while (i + len < ta.size() && j + len < tb.size() && ta.symbols[i + len] == tb.symbols[j + len]) ++len;
        have = true;
        diag = d;
        covered_to = i + len;
        if (len >= min_len) cands.push_back({i, j, len});
    }
    passage_options opt = options;
    opt.min_length = min_len;
    return detail::choose_passages(std::move(cands), ta, tb, opt);
}

}  // namespace v0
}  // namespace semfp
