#pragma once
/// \file
/// The Taiwan vocabulary fold in the sketch only (`signature_options::sketch_fold_phrases`),
/// computed in the fused pass of the unfolded fingerprint.
///
/// Why. At 64 bits the vocabulary fold (`normalize_options::fold_phrases`) in the fingerprint
/// brings distinct documents dominated by one frequent word within the accept distance, so the
/// fingerprint stays unfolded; the sketch decides pairs by set similarity, where folded words
/// only help a Taiwan-phrased copy (bench/results/two_stage.md). The sketch of a text is then
/// the sketch of the tokens of its phrase-folded normalization, while the fingerprint votes with
/// the tokens of the unfolded one.
///
/// How, in one pass. The folded text is the unfolded normalized text with some spans replaced
/// (each phrase of `tw_phrase_table`, found greedily from the left on the character-folded
/// text), and phrases are rare, so the fused pass makes the unfolded text and its tokens as it
/// does for the fingerprint alone and keeps, for the sketch, each counted token's key and place
/// instead of adding it at once (`sketch_fold_sink`). Places where a phrase may start are
/// gathered on the way: a six-byte token whose bytes are the first two characters of some
/// phrase (every phrase of two or more characters is made of three-byte characters, so its
/// first pair is a bigram token: one bitmap test per token), a one-character phrase met by the
/// pass (its run loop stops at those characters), and every character of the part the pass
/// hands to the general normalizer. At the end the spans are found exactly, from those places
/// only, with the same phrase match as the normalizer (`fold_to_simplified` is idempotent, so
/// matching on the character-folded text finds what matching on the input finds); every kept
/// token that does not touch a span goes to the sketch, and the tokens of the folded text
/// that do (the bigrams of the replacement and of its two neighbours in the CJK run) are made,
/// filtered and hashed as the tokenizer would. The result equals the sketch of the reference
/// path (normalize with the fold, tokenize, sketch); tests compare over every phrase, random
/// and malformed text.

#include <semfp/core/fused_text.hpp>
#include <semfp/core/sketch.hpp>
#include <semfp/detail/ascii16.hpp>
#include <semfp/text/char_class.hpp>
#include <semfp/text/normalize.hpp>
#include <semfp/text/script_fold.hpp>
#include <semfp/text/stopwords.hpp>
#include <semfp/text/utf8.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace semfp {
inline namespace v0 {
namespace detail {

/// Slot (16 bits) of the six bytes of two three-byte characters, little-endian, in
/// `sketch_pair_starts`.
[[nodiscard]] constexpr std::uint32_t sketch_pair_slot(std::uint64_t key) noexcept {
    return static_cast<std::uint32_t>((key * 0x9E3779B97F4A7C15ull) >> 48);
}

/// The three UTF-8 bytes of `c` (U+0800..U+FFFF) as a little-endian number.
[[nodiscard]] constexpr std::uint64_t sketch_utf8_key3(char32_t c) noexcept {
    return std::uint64_t{0xE0u | (c >> 12)} | (std::uint64_t{0x80u | ((c >> 6) & 0x3Fu)} << 8) |
           (std::uint64_t{0x80u | (c & 0x3Fu)} << 16);
}

// The one-pass fold relies on these properties of the phrase table: a phrase of two or more
// characters has only three-byte characters (its first pair is one six-byte bigram token), and
// a one-character phrase in the BMP lies in U+4E00..U+9FFF (where the pass's run loop can stop
// at it); every phrase starts with a character whose UTF-8 lead byte is E3..E9 or F0 (where
// the normalizer tries a phrase at all).
static_assert([] {
    for (const auto& p : tw_phrase_table) {
        if (p.from.size() >= 2)
            for (const char32_t c : p.from)
                if (c < 0x800 || c >= 0x10000) return false;
        if (p.from.size() == 1 && p.from[0] < 0x10000 && (p.from[0] < 0x4E00 || p.from[0] > 0x9FFF)) return false;
        const char32_t f = p.from[0];
        if (f < 0x10000 && (f < 0x3000 || f >= 0xA000)) return false;
        if (f >= 0x40000) return false;
    }
    return true;
}());

/// Bit set for the bytes of every pair of characters that starts a phrase of two or more
/// characters (8 KiB; a clear bit proves that no phrase starts with those six bytes).
inline constexpr auto sketch_pair_starts = [] {
    std::array<std::uint64_t, 1024> bits{};
    for (const auto& p : tw_phrase_table)
        if (p.from.size() >= 2) {
            const std::uint32_t s = sketch_pair_slot(sketch_utf8_key3(p.from[0]) | (sketch_utf8_key3(p.from[1]) << 24));
            bits[s >> 6] |= std::uint64_t{1} << (s & 63);
        }
    return bits;
}();

/// Bit (top 16 bits of `MinHashSketcher::token_hash`) set for the bytes of every pair of
/// characters that starts a phrase of two or more characters, so that a counted token, whose
/// hash the pass computes anyway, is tested without reading its bytes (8 KiB, built at first use).
[[nodiscard]] inline const std::array<std::uint64_t, 1024>& sketch_pair_hashes() noexcept {
    static const std::array<std::uint64_t, 1024> bits = [] {
        std::array<std::uint64_t, 1024> b{};
        for (const auto& p : tw_phrase_table)
            if (p.from.size() >= 2) {
                char key[6];
                for (std::size_t i = 0; i < 2; ++i) {
                    const std::uint64_t k = sketch_utf8_key3(p.from[i]);
                    for (std::size_t j = 0; j < 3; ++j) key[3 * i + j] = static_cast<char>((k >> (8 * j)) & 0xFFu);
                }
                const std::uint64_t s = MinHashSketcher::token_hash(std::string_view(key, 6)) >> 48;
                b[s >> 6] |= std::uint64_t{1} << (s & 63);
            }
        return b;
    }();
    return bits;
}

/// A replaced span of the unfolded normalized text, [begin, end), and its replacement.
struct sketch_fold_span {
    std::size_t begin;
    std::size_t end;
    std::string_view to;
};

/// Per-thread buffers of the sketch fold (they only grow).
struct sketch_fold_buffers {
    std::vector<std::uint32_t> keys;      ///< sketch key (top 32 bits of the token hash) of each held token
    std::vector<std::uint64_t> places;    ///< (begin << 32) | end of each held token in the normalized text
    std::vector<std::uint32_t> pairs;     ///< starts of tokens that are a phrase's first pair
    std::vector<sketch_fold_span> pair_spans;  ///< the phrase matched at each (end 0: not yet known)
    std::vector<std::uint32_t> singles;   ///< places of one-character phrases (and four-byte folds)
    std::vector<sketch_fold_span> spans;  ///< the replaced spans, in text order
    std::vector<std::uint64_t> hashes;    ///< token hashes of the folded groups
    std::vector<std::uint32_t> ends;      ///< character ends in `bytes`
    std::string bytes;                    ///< the characters of a replaced group and its neighbours
};

/// The sink of `fused_fingerprint` that makes the phrase-folded sketch in `sketcher` (see the
/// file comment). Offsets of the normalized text must fit 32 bits (the caller checks).
///
/// A counted token goes to the sketch at once unless a phrase may touch it: it lies within
/// `max_span` bytes after a place where a phrase may start, holds such a place, follows the
/// place where the general normalizer took over, or is the last token of its batch (the next
/// batch, not yet looked at, may start a phrase inside it). Such tokens are held, and decided
/// once the spans are known (`finish`).
class sketch_fold_sink {
public:
    /// Tells `fused_fingerprint` and `fused_pass` to report tokens and phrase places.
    static constexpr bool records_phrase_places = true;
    /// Longest span a phrase can replace, in bytes (ten three-byte characters, or one of four).
    static constexpr std::size_t max_span = 3 * tw_phrase_max_length > 4 ? 3 * tw_phrase_max_length : 4;

    sketch_fold_sink(sketch_fold_buffers& b, MinHashSketcher& sketcher) noexcept : m_b(b), m_sketcher(sketcher) {
        m_b.pairs.clear();
        m_b.pair_spans.clear();
        m_b.singles.clear();
    }

    /// The normalized text starts at `base`; the input has `text_size` bytes.
    void set_base(const char* base, std::size_t text_size) {
        m_base = base;
        // Each token starts at its own character of the normalized text (at most twice the
        // input's bytes without the phrase fold).
        const std::size_t most = 2 * text_size + 16;
        if (m_b.keys.size() < most) {
            m_b.keys.resize(most);
            m_b.places.resize(most);
        }
    }

    /// A batch of tokens is about to be hashed; the normalized text is written up to `written`.
    void batch(const char* written) noexcept { m_written = written; }

    /// A token of the unfolded text that is not counted (a stopword): a phrase may start there
    /// if its six bytes are a phrase's first pair. Reads eight bytes at `p` (the buffer has room).
    void scan(const char* p, std::size_t n) {
        const std::uint32_t s = sketch_pair_slot(fused_load_le64(p) & 0xFFFFFFFFFFFFull);
        if (n == 6 && ((sketch_pair_starts[s >> 6] >> (s & 63)) & 1u) != 0) pair_at(p);
    }

    /// A counted token and its `MinHashSketcher::token_hash` `h`, in text order. The token
    /// before it is decided now: every place that may start a phrase inside it is known.
    [[gnu::always_inline]] void add(std::uint64_t h, const char* p, std::size_t n) noexcept {
        const std::uint64_t s = h >> 48;
        if (((m_pair_hashes[s >> 6] >> (s & 63)) & 1u) != 0 && n == 6) [[unlikely]]
            pair_at(p);
        // The token before: to the sketch at once, unless a place may start a phrase before its
        // end or a phrase may reach it (or there is none yet: `m_hot` starts at 1).
        if (m_pending_end > m_next || m_pending_begin < m_hot) [[unlikely]]
            decide();
        else
            m_sketcher.add_hash(m_pending_hash);
        m_pending_hash = h;
        m_pending_begin = static_cast<std::size_t>(p - m_base);
        m_pending_end = m_pending_begin + n;
    }
    /// A one-character phrase (or a character that folds to four bytes) written at `at`.
    void single(std::size_t at) {
        m_b.singles.push_back(static_cast<std::uint32_t>(at));
        if (at < m_next) m_next = at;
    }
    /// The pass hands the rest of the text, from `at` on, to the general normalizer.
    void tail(std::size_t at) noexcept {
        m_tail = at;
        if (at < m_next) m_next = at;
    }
    /// The pass wrote `size` bytes of normalized text (followed by `fused_padding` zero bytes).
    void done(std::size_t size) noexcept { m_size = size; }
    /// Where the general normalizer took over (npos: it did not).
    [[nodiscard]] std::size_t tail_start() const noexcept { return m_tail; }
    /// The size of the normalized text (after the pass).
    [[nodiscard]] std::size_t size() const noexcept { return m_size; }
    /// Tokens held back so far.
    [[nodiscard]] std::size_t held() const noexcept { return m_held; }

    /// Adds to the sketcher the held tokens that touch no span of the phrase fold of the
    /// normalized text `t`, and the tokens of the folded text that replace those that do and
    /// that the stopword filter `list` (null: none) keeps. False when a replacement is not made
    /// of CJK characters (no phrase of the table is so): the caller then takes the reference
    /// path.
    [[nodiscard]] bool finish(std::string_view t, const StopwordList* list) {
        decide();
        find_spans(t);
        const std::vector<sketch_fold_span>& spans = m_b.spans;
        m_b.hashes.clear();
        for (std::size_t g = 0; g < spans.size();) {
            std::size_t e = g + 1;
            while (e < spans.size() && spans[e].begin == spans[e - 1].end) ++e;
            if (!group_tokens(t, g, e, list)) return false;
            g = e;
        }
        // The held tokens that touch no span (in text order, as the spans).
        std::size_t s = 0;
        for (std::size_t k = 0; k < m_held; ++k) {
            const std::uint64_t place = m_b.places[k];
            const auto begin = static_cast<std::size_t>(place >> 32);
            const auto end = static_cast<std::size_t>(place & 0xFFFFFFFFu);
            while (s < spans.size() && spans[s].end <= begin) ++s;
            if (s < spans.size() && spans[s].begin < end) continue;
            m_sketcher.add_hash(std::uint64_t{m_b.keys[k]} << 32);
        }
        for (const std::uint64_t h : m_b.hashes) m_sketcher.add_hash(h);
        return true;
    }

private:
    // The length of the CJK character of `t` that ends at `at`, 0 if none.
    [[nodiscard]] static std::size_t cjk_before(std::string_view t, std::size_t at) noexcept {
        // A lead byte never continues an earlier unit, so a well-formed sequence that ends at
        // `at` and starts with one is the unit before `at`.
        for (const std::size_t len : {std::size_t{3}, std::size_t{4}}) {
            if (at < len) return 0;
            const utf8::decoded d = utf8::decode(t, at - len);
            if (d.valid && d.length == len) return is_cjk(classify(d.code_point)) ? len : 0;
        }
        return 0;
    }
    // The length of the CJK character of `t` that starts at `at`, 0 if none.
    [[nodiscard]] static std::size_t cjk_at(std::string_view t, std::size_t at) noexcept {
        if (at >= t.size() || static_cast<unsigned char>(t[at]) < 0x80) return 0;
        const utf8::decoded d = utf8::decode(t, at);
        return d.valid && is_cjk(classify(d.code_point)) ? d.length : 0;
    }
    [[nodiscard]] static constexpr bool is_cjk(char_class k) noexcept {
        return k == char_class::han || k == char_class::kana || k == char_class::hangul;
    }

    // The phrase the normalizer replaces at `at` of the character-folded text `t` (followed by
    // `fused_padding` zero bytes), if any.
    [[nodiscard]] static tw_phrase_match match_at(std::string_view t, std::size_t at, std::size_t& end,
                                                  const tw_raw_prefixes& raw) {
        const auto b = static_cast<unsigned char>(t[at]);
        if (!((b >= 0xE3 && b <= 0xE9) || b == 0xF0)) return {};
        char32_t first = 0;
        std::size_t len = 3;
        if (b != 0xF0) {
            first = fused_decode3(reinterpret_cast<const unsigned char*>(t.data() + at));
            if (first == 0 || at + 3 > t.size()) return {};
            // Most places are pairs that only start longer phrases (wen-jian, shi-yong): the raw
            // prefix tests of the fused pass (built over every form of each character, so they
            // hold for folded text too) rule them out without a match.
            if (!fused_test_bit(tw_single_bitmap, static_cast<std::uint32_t>(first)) &&
                fused_no_pair_phrase_at(t.data() + at, raw))
                return {};
        } else {
            const utf8::decoded d = utf8::decode(t, at);
            if (!d.valid) return {};
            first = fold_to_simplified(d.code_point);
            len = d.length;
        }
        if (!may_start_tw_phrase(first)) return {};
        tw_phrase_reader next{t};
        next.ends[0] = at + len;
        const tw_phrase_match m = fused_match_tw_phrase(first, next);
        if (m.chars != 0) end = next.ends[m.chars - 1];
        return m;
    }

    // The spans of the greedy left-to-right match, from the gathered places and the tail.
    void find_spans(std::string_view t) {
        // Both lists are in text order: merged on the way.
        const std::vector<std::uint32_t>& pairs = m_b.pairs;
        const std::vector<std::uint32_t>& singles = m_b.singles;
        m_b.spans.clear();
        const tw_raw_prefixes& raw = tw_raw_prefix_tables();
        std::size_t covered = 0;
        for (std::size_t i = 0, j = 0; i < pairs.size() || j < singles.size();) {
            const bool pair = i < pairs.size() && (j == singles.size() || pairs[i] <= singles[j]);
            const std::size_t a = pair ? pairs[i] : singles[j];
            sketch_fold_span known{a, 0, {}};
            if (pair) known = m_b.pair_spans[i++];
            while (j < singles.size() && singles[j] == a) ++j;
            if (a >= m_tail) break;
            if (a < covered) continue;
            if (known.end == 0) {
                const tw_phrase_match m = match_at(t, a, known.end, raw);
                if (m.chars == 0) continue;
                known.to = m.to;
            }
            m_b.spans.push_back(known);
            covered = known.end;
        }
        for (std::size_t i = std::max(covered, m_tail); i < t.size();) {
            if (static_cast<unsigned char>(t[i]) < 0x80) {
                ++i;
                continue;
            }
            std::size_t end = 0;
            const tw_phrase_match m = match_at(t, i, end, raw);
            if (m.chars != 0) {
                m_b.spans.push_back({i, end, m.to});
                i = end;
                continue;
            }
            i += utf8::decode(t, i).length;
        }
    }

    // The tokens of the folded CJK run around the adjacent spans [g, e): the bigrams of the
    // character before them and the one after (when CJK) and the replacements' characters, or
    // the lone character of a one-character run, as the tokenizer makes them. Appends the
    // hashes of those the filter keeps.
    [[nodiscard]] bool group_tokens(std::string_view t, std::size_t g, std::size_t e, const StopwordList* list) {
        const std::vector<sketch_fold_span>& spans = m_b.spans;
        std::string& chars = m_b.bytes;
        std::vector<std::uint32_t>& ends = m_b.ends;  // end of each character in `chars`
        chars.clear();
        ends.clear();
        auto push = [&](std::string_view c) {
            chars.append(c);
            ends.push_back(static_cast<std::uint32_t>(chars.size()));
        };
        if (const std::size_t before = cjk_before(t, spans[g].begin); before != 0)
            push(t.substr(spans[g].begin - before, before));
        for (std::size_t s = g; s < e; ++s) {
            const std::string_view to = spans[s].to;
            for (std::size_t i = 0; i < to.size();) {
                const utf8::decoded d = utf8::decode(to, i);
                if (!d.valid || !is_cjk(classify(d.code_point))) return false;
                push(to.substr(i, d.length));
                i += d.length;
            }
        }
        if (const std::size_t after = cjk_at(t, spans[e - 1].end); after != 0) push(t.substr(spans[e - 1].end, after));
        auto take = [&](std::size_t begin, std::size_t end) {
            const std::string_view tok = std::string_view(chars).substr(begin, end - begin);
            if (list == nullptr || !list->may_contain_key(stopword_key(tok)) || !list->contains(tok))
                m_b.hashes.push_back(MinHashSketcher::token_hash(tok));
        };
        if (ends.size() == 1) take(0, ends[0]);
        for (std::size_t k = 0; k + 1 < ends.size(); ++k) take(k == 0 ? 0 : ends[k - 1], ends[k + 1]);
        return true;
    }

    // The pending token (if any) goes to the sketch, or is held when a phrase may touch it.
    [[gnu::noinline]] void decide() noexcept {
        if (m_pending_end == 0) return;
        if (m_pending_end > m_next) absorb(m_pending_end);
        if (m_pending_begin < m_hot) {
            m_b.keys[m_held] = static_cast<std::uint32_t>(m_pending_hash >> 32);
            m_b.places[m_held] = (std::uint64_t{m_pending_begin} << 32) | m_pending_end;
            ++m_held;
        } else {
            m_sketcher.add_hash(m_pending_hash);
        }
    }

    // A token that may be a phrase's first pair starts at `p`.
    [[gnu::noinline]] void pair_at(const char* p) {
        // The raw tests hold for folded text too (built over every form of each character);
        // a one-character phrase first is recorded by the pass on its own.
        const tw_raw_prefixes& raw = tw_raw_prefix_tables();
        if (m_written - p >= 9 && fused_no_pair_phrase_at(p, raw)) return;
        const auto at = static_cast<std::uint32_t>(p - m_base);
        sketch_fold_span span{at, 0, {}};
        // With the characters a phrase there could read written (ten of at most four bytes),
        // match it now: none, and the place is dropped; else its end bounds the tokens held.
        if (m_written - p >= static_cast<std::ptrdiff_t>(4 * tw_phrase_max_length)) {
            std::size_t end = 0;
            const tw_phrase_match m = match_at(std::string_view(m_base, static_cast<std::size_t>(m_written - m_base)), at, end, raw);
            if (m.chars == 0) return;
            span = {at, end, m.to};
        }
        m_b.pairs.push_back(at);
        m_b.pair_spans.push_back(span);
        if (at < m_next) m_next = at;
    }

    // Takes in the places where a phrase may start before `end`: tokens that begin before the
    // end of the phrase matched there (or `max_span` bytes after it when not yet known) are
    // held, and every token after the tail's start.
    [[gnu::noinline]] void absorb(std::size_t end) noexcept {
        const std::vector<std::uint32_t>& pairs = m_b.pairs;
        const std::vector<std::uint32_t>& singles = m_b.singles;
        for (; m_pair < pairs.size() && pairs[m_pair] < end; ++m_pair) {
            const std::size_t e = m_b.pair_spans[m_pair].end;
            m_hot = std::max<std::size_t>(m_hot, e != 0 ? e : pairs[m_pair] + max_span);
        }
        while (m_single < singles.size() && singles[m_single] < end)
            m_hot = std::max<std::size_t>(m_hot, singles[m_single++] + max_span);
        if (m_tail < end) m_hot = ~std::size_t{0};
        m_next = ~std::size_t{0};
        if (m_pair < pairs.size()) m_next = pairs[m_pair];
        if (m_single < singles.size()) m_next = std::min<std::size_t>(m_next, singles[m_single]);
        if (m_tail >= end) m_next = std::min(m_next, m_tail);
    }

    sketch_fold_buffers& m_b;
    MinHashSketcher& m_sketcher;
    const char* m_base = nullptr;
    const std::array<std::uint64_t, 1024>& m_pair_hashes = sketch_pair_hashes();
    const char* m_written = nullptr;  // end of the normalized text written so far
    std::uint64_t m_pending_hash = 0;  // the last counted token, not yet decided
    std::size_t m_pending_begin = 0, m_pending_end = 0;  // (end 0: none)
    std::size_t m_held = 0;
    std::size_t m_hot = 1;                // tokens that begin before this are held
    std::size_t m_next = ~std::size_t{0};  // the first place not taken in yet
    std::size_t m_pair = 0, m_single = 0;  // places taken in
    std::size_t m_tail = ~std::size_t{0};
    std::size_t m_size = 0;
};

}  // namespace detail
}  // namespace v0
}  // namespace semfp
