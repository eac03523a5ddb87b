#pragma once
/// \file
/// The text side of the fused fingerprint pass (fused_fingerprint.hpp): normalization into a
/// padded buffer (`fused_normalize_from`, eight ASCII bytes at a time, three-byte units without
/// the general decoder, Taiwan phrases found by hash) and the character-bigram token pass over
/// normalized text (`fused_bigrams_from`), both resumable at any unit boundary. Each gives exactly
/// the bytes and tokens of its reference (`normalize_into`, `CharBigramTokenizer`); tests compare.

#include <semfp/detail/ascii16.hpp>
#include <semfp/detail/utf8_three.hpp>
#include <semfp/text/char_class.hpp>
#include <semfp/text/normalize.hpp>
#include <semfp/text/script_fold.hpp>
#include <semfp/text/stopwords.hpp>
#include <semfp/text/utf8.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace semfp {
inline namespace v0 {
namespace detail {

/// Zero bytes kept after the normalized text so that 16-byte loads past a token are in bounds.
inline constexpr std::size_t fused_padding = 16;

/// The low `n` bytes (n <= 8) of a little-endian word.
[[nodiscard]] constexpr std::uint64_t fused_low_bytes(std::uint64_t v, std::size_t n) noexcept {
    return n >= 8 ? v : v & ((std::uint64_t{1} << (8 * n)) - 1);
}

/// `stopword_key(string_view(p, len))`, from a padded buffer.
[[nodiscard]] inline std::uint64_t fused_stopword_key(const char* p, std::size_t len) noexcept {
    const std::uint64_t first = fused_low_bytes(fused_load_le64(p), len);
    const std::uint64_t last = len <= 8 ? first : fused_load_le64(p + len - 8);
    return stopword_key_parts(first, last, len);
}

/// Bit of a (first, second) code-point pair in `tw_pair_bitmap`.
[[nodiscard]] constexpr std::uint32_t tw_pair_bit(char32_t first, char32_t second) noexcept {
    const std::uint32_t h = (static_cast<std::uint32_t>(first) * 0x9E3779B1u) ^ (static_cast<std::uint32_t>(second) * 0x85EBCA77u);
    return (h ^ (h >> 15)) & 0xFFFFu;
}

/// Set for every (first, second) pair that starts a phrase of two or more characters
/// (a superset test: a clear bit proves that no such phrase starts there).
inline constexpr auto tw_pair_bitmap = [] {
    std::array<std::uint64_t, 1024> bits{};
    for (const auto& p : tw_phrase_table)
        if (p.from.size() >= 2) {
            const std::uint32_t b = tw_pair_bit(p.from[0], p.from[1]);
            bits[b >> 6] |= std::uint64_t{1} << (b & 63);
        }
    return bits;
}();

/// True when some one-character phrase might be `c` (exact for the BMP).
inline constexpr auto tw_single_bitmap = [] {
    std::array<std::uint64_t, 1024> bits{};
    for (const auto& p : tw_phrase_table)
        if (p.from.size() == 1 && p.from[0] < 0x10000) bits[p.from[0] >> 6] |= std::uint64_t{1} << (p.from[0] & 63);
    return bits;
}();

template <std::size_t N>
[[nodiscard]] constexpr bool fused_test_bit(const std::array<std::uint64_t, N>& bits, std::uint32_t b) noexcept {
    return ((bits[b >> 6] >> (b & 63)) & 1u) != 0;
}

/// Words of the run-loop bitmaps below: the common Han block U+4E00..U+9FFF, 64 code points a
/// word, from word `fused_han_first_word` of the BMP on.
inline constexpr std::size_t fused_han_first_word = 0x4E00 / 64;
inline constexpr std::size_t fused_han_words = 0xA000 / 64 - fused_han_first_word;

/// The common Han characters that script folding changes (`t2s_bmp_bitmap` on U+4E00..U+9FFF),
/// so that the fused pass's run loop reads 2.6 KiB instead of spreading over 8 KiB.
inline constexpr auto fused_han_fold_bitmap = [] {
    std::array<std::uint64_t, fused_han_words> bits{};
    for (std::size_t w = 0; w < fused_han_words; ++w) bits[w] = t2s_bmp_bitmap[fused_han_first_word + w];
    return bits;
}();

/// The same with the one-character phrases (`tw_single_bitmap`) added: the characters at which
/// the run loop stops when phrases fold too, tested with one load.
inline constexpr auto fused_han_stop_bitmap = [] {
    std::array<std::uint64_t, fused_han_words> bits{};
    for (std::size_t w = 0; w < fused_han_words; ++w)
        bits[w] = t2s_bmp_bitmap[fused_han_first_word + w] | tw_single_bitmap[fused_han_first_word + w];
    return bits;
}();

/// Bits of the slot of a pair of three-byte characters (six bytes, little-endian) in
/// `tw_raw_prefixes::pair`: one load and no decoding tell that no phrase of two or more
/// characters starts there, so the pass does not branch on the 1 in 3 Han characters of a text
/// that start some phrase (`tw_phrase_first_bitmap`).
inline constexpr unsigned tw_raw_pair_bits = 17;

[[nodiscard]] constexpr std::uint32_t tw_raw_pair_slot(std::uint64_t key) noexcept {
    return static_cast<std::uint32_t>((key * 0x9E3779B97F4A7C15ull) >> (64 - tw_raw_pair_bits));
}

/// The three UTF-8 bytes of `c` (U+0800..U+FFFF) as a little-endian number.
[[nodiscard]] constexpr std::uint64_t utf8_key3(char32_t c) noexcept {
    return std::uint64_t{0xE0u | (c >> 12)} | (std::uint64_t{0x80u | ((c >> 6) & 0x3Fu)} << 8) |
           (std::uint64_t{0x80u | (c & 0x3Fu)} << 16);
}

/// Slot of the raw key of a two-character phrase (`tw_raw_prefixes::pair2`, 14 bits).
[[nodiscard]] constexpr std::uint32_t tw_raw_pair2_slot(std::uint64_t key) noexcept {
    return static_cast<std::uint32_t>((key * 0xC2B2AE3D27D4EB4Full) >> 50);
}

/// Slot of the raw key of three characters (`tw_raw_prefixes::triple`, 14 bits): their first
/// eight bytes `v` (little-endian) and their ninth byte `last`.
[[nodiscard]] constexpr std::uint32_t tw_raw_triple_slot(std::uint64_t v, std::uint64_t last) noexcept {
    return static_cast<std::uint32_t>(((v * 0x9E3779B97F4A7C15ull) ^ (last * 0xC2B2AE3D27D4EB4Full)) >> 50);
}

/// The phrase prefixes as raw input bytes, for the three-byte characters that fold to them.
/// `pair`: the first two characters of every phrase of two or more characters
/// (`tw_raw_pair_slot`); `pair2`: the two-character phrases (`tw_raw_pair2_slot`); `triple`:
/// the first three characters of the longer phrases (`tw_raw_triple_slot`). A clear bit proves
/// that no such phrase starts with those bytes.
struct tw_raw_prefixes {
    std::array<std::uint64_t, (std::size_t{1} << tw_raw_pair_bits) / 64> pair{};  // 16 KiB
    std::array<std::uint64_t, 256> pair2{};                                        // 2 KiB
    std::array<std::uint64_t, 256> triple{};                                       // 2 KiB
};

/// Builds the raw prefix bitmaps (about 0.2 ms; at run time, because the compiler would spend
/// about a second on them in every translation unit).
[[nodiscard]] inline tw_raw_prefixes build_tw_raw_prefixes() noexcept {
    tw_raw_prefixes t;
    // The inverse of the character fold: (to, from) sorted by `to`.
    std::array<t2s_pair, t2s_table_size> inverse{};
    for (std::size_t k = 0; k < t2s_table_size; ++k) inverse[k] = {t2s_table[k].to, t2s_table[k].from};
    std::sort(inverse.begin(), inverse.end(), [](const t2s_pair& x, const t2s_pair& y) { return x.from < y.from; });
    // Calls f for every three-byte character that folds to c (c itself included).
    auto each_source = [&](char32_t c, auto&& f) {
        const auto three = [](char32_t x) { return x >= 0x800 && x < 0x10000 && (x < 0xD800 || x > 0xDFFF); };
        if (three(c)) f(c);
        auto it = std::lower_bound(inverse.begin(), inverse.end(), c, [](const t2s_pair& x, char32_t v) { return x.from < v; });
        for (; it != inverse.end() && it->from == c; ++it)
            if (three(it->to)) f(it->to);
    };
    auto set = [](auto& bits, std::uint32_t slot) { bits[slot >> 6] |= std::uint64_t{1} << (slot & 63); };
    for (const auto& p : tw_phrase_table) {
        if (p.from.size() < 2) continue;
        each_source(p.from[0], [&](char32_t a) {
            each_source(p.from[1], [&](char32_t b) {
                const std::uint64_t key = utf8_key3(a) | (utf8_key3(b) << 24);
                set(t.pair, tw_raw_pair_slot(key));
                if (p.from.size() == 2) {
                    set(t.pair2, tw_raw_pair2_slot(key));
                    return;
                }
                each_source(p.from[2], [&](char32_t c) {
                    set(t.triple, tw_raw_triple_slot(key | (utf8_key3(c) << 48), utf8_key3(c) >> 16));
                });
            });
        });
    }
    return t;
}

/// The raw prefix bitmaps, built at first use.
[[nodiscard]] inline const tw_raw_prefixes& tw_raw_prefix_tables() noexcept {
    static const tw_raw_prefixes tables = build_tw_raw_prefixes();
    return tables;
}

// The raw prefix tests rely on this: a character of a phrase that is not three bytes long (then
// tested as "maybe") is four bytes long, never one or two, and so is every character that
// folds to one.
static_assert(t2s_table[0].from >= 0x800 && [] {
    for (const auto& p : tw_phrase_table)
        for (const char32_t c : p.from)
            if (c < 0x800) return false;
    return true;
}());

/// Decodes a well-formed three-byte sequence at `p` (lead E0..EF, RFC 3629 rules); returns 0 when
/// the bytes are not one (the caller then takes the general decoder). Reads p[0..2].
[[nodiscard]] constexpr char32_t fused_decode3(const unsigned char* p) noexcept {
    const unsigned b0 = p[0], b1 = p[1], b2 = p[2];
    const unsigned lo = (b0 == 0xE0) ? 0xA0 : 0x80;
    const unsigned hi = (b0 == 0xED) ? 0x9F : 0xBF;
    if ((b0 & 0xF0) != 0xE0 || b1 < lo || b1 > hi || (b2 & 0xC0) != 0x80) return 0;
    return static_cast<char32_t>(utf8_three_byte_value(b0, b1, b2));
}

/// A first code point of the phrase table and the index of its first phrase.
struct tw_first_slot {
    char32_t first = 0;  // 0: empty slot
    std::uint32_t index = 0;
};

[[nodiscard]] constexpr std::size_t tw_first_home(char32_t c) noexcept {
    return (static_cast<std::uint32_t>(c) * 0x9E3779B1u) >> 21;  // 11 bits
}

/// The phrases' first code points (open addressing, 2,048 slots), so that a phrase match starts
/// without a binary search over the table.
inline constexpr auto tw_first_index = [] {
    std::array<tw_first_slot, 2048> t{};
    for (std::size_t e = 0; e < tw_phrase_table_size; ++e) {
        const char32_t f = tw_phrase_table[e].from[0];
        if (e > 0 && tw_phrase_table[e - 1].from[0] == f) continue;
        std::size_t h = tw_first_home(f);
        while (t[h].first != 0) h = (h + 1) & 2047;
        t[h] = {f, static_cast<std::uint32_t>(e)};
    }
    return t;
}();

/// `match_tw_phrase(first, next)`, finding the phrases that start with `first` by hash.
template <class Next>
[[nodiscard]] constexpr tw_phrase_match fused_match_tw_phrase(char32_t first, Next&& next) {
    tw_phrase_match best;
    std::size_t h = tw_first_home(first);
    while (tw_first_index[h].first != 0 && tw_first_index[h].first != first) h = (h + 1) & 2047;
    if (tw_first_index[h].first != first) return best;
    char32_t seen[tw_phrase_max_length]{};
    std::size_t have = 1;
    seen[0] = first;
    bool ended = false;
    for (std::size_t e = tw_first_index[h].index; e < tw_phrase_table_size && tw_phrase_table[e].from[0] == first; ++e) {
        const std::u32string_view key = tw_phrase_table[e].from;
        std::size_t i = 1;
        for (; i < key.size(); ++i) {
            if (i == have) {
                if (ended) break;
                const char32_t c = next(have);
                if (c == U'\0') {
                    ended = true;
                    break;
                }
                seen[have++] = c;
            }
            if (seen[i] != key[i]) break;
        }
        if (i == key.size() && key.size() > best.chars) best = {key.size(), tw_phrase_table[e].to};
    }
    return best;
}

/// False when no Taiwan phrase can start at the `len`-byte unit at `in[i]`, whose folded code
/// point is `folded` (as `match_tw_phrase` would find none); true means "maybe".
[[nodiscard]] inline bool fused_may_start_phrase(std::string_view in, std::size_t i, std::size_t len, char32_t folded,
                                                  const tw_raw_prefixes& raw = tw_raw_prefix_tables()) noexcept {
    if (folded >= 0x10000) return true;
    const std::size_t n = in.size();
    const bool single = fused_test_bit(tw_single_bitmap, static_cast<std::uint32_t>(folded));
    if (len == 3 && n - i >= 9) {
        // A three-byte character followed by a four-byte one, or by a three-byte one with which
        // it starts a phrase (the raw pair's bit), and then either forms a two-character phrase
        // or is followed by a four-byte character or by a three-byte one that continues a
        // longer phrase. Any other unit (ASCII, two bytes, malformed) continues no phrase.
        const std::uint64_t v = fused_load_le64(in.data() + i);
        const std::uint64_t key = v & 0xFFFFFFFFFFFFull;
        if (single || static_cast<unsigned char>(in[i + 3]) >= 0xF0) return true;
        if (!fused_test_bit(raw.pair, tw_raw_pair_slot(key))) return false;
        if (fused_test_bit(raw.pair2, tw_raw_pair2_slot(key)) || static_cast<unsigned char>(in[i + 6]) >= 0xF0) return true;
        return fused_test_bit(raw.triple, tw_raw_triple_slot(v, static_cast<unsigned char>(in[i + 8])));
    }
    if (!may_start_tw_phrase(folded)) return false;
    if (single) return true;
    // No one-character phrase: a phrase needs a second character (as the reference's `next`
    // sees it: not past the end, not ASCII, well-formed, folded) whose pair with this one starts
    // some phrase.
    const std::size_t j = i + len;
    if (j >= n || static_cast<unsigned char>(in[j]) < 0x80) return false;
    if (n - j >= 3) {
        const char32_t next = fused_decode3(reinterpret_cast<const unsigned char*>(in.data() + j));
        if (next != 0) return fused_test_bit(tw_pair_bitmap, tw_pair_bit(folded, fold_to_simplified(next)));
    }
    return true;
}

/// `fused_no_phrase_at(text, i, c, raw)` (below) for `in` = `text.data() + i`, nine bytes
/// readable from `in` on (the run loop's bound), and a character `c` already known to be no
/// one-character phrase. The next unit's lead byte comes from the same eight-byte load as the
/// pair's key.
[[nodiscard]] [[gnu::always_inline]] inline bool fused_no_pair_phrase_at(const char* in, const tw_raw_prefixes& raw) noexcept {
    const std::uint64_t v = fused_load_le64(in);
    const std::uint64_t key = v & 0xFFFFFFFFFFFFull;
    // Byte 3 at F0 or above (a four-byte character, or malformed next): "maybe".
    const bool four = (v & 0xF0000000ull) == 0xF0000000ull;
    if (!fused_test_bit(raw.pair, tw_raw_pair_slot(key))) return !four;
    // A pair that starts some phrase (about 1 in 20 Han characters): the phrase is not there
    // unless the pair is one or a third character may continue it. These pairs are mostly
    // frequent words that start only longer phrases (on the corpus wen-jian, shi-yong,
    // ming-ling), and whether a third character continues one is not predictable: the parts
    // are combined without branches, so the caller's one branch on the answer is the only one.
    const bool pair2 = fused_test_bit(raw.pair2, tw_raw_pair2_slot(key));
    const bool third_four = static_cast<unsigned char>(in[6]) >= 0xF0;
    const bool triple = fused_test_bit(raw.triple, tw_raw_triple_slot(v, static_cast<unsigned char>(in[8])));
    return !(four | pair2 | third_four | triple);
}

/// True when no Taiwan phrase starts at the three-byte character at `in[i]` whose folded code
/// point `c` (below U+10000) is given: the raw-byte part of `fused_may_start_phrase` (no
/// one-character phrase, a three-byte unit next, and then the raw pair's bit clear, or neither a
/// two-character phrase nor a longer one that the next unit continues), read inline. False
/// means "ask `fused_may_start_phrase`".
[[nodiscard]] [[gnu::always_inline]] inline bool fused_no_phrase_at(std::string_view in, std::size_t i, std::uint32_t c,
                                             const tw_raw_prefixes& raw) noexcept {
    if (in.size() - i < 9 || fused_test_bit(tw_single_bitmap, c)) return false;
    return fused_no_pair_phrase_at(in.data() + i, raw);
}

/// The most output bytes one input byte can produce in normalization: 2 for script folding (a
/// three-byte character may fold to a four-byte one), more if some Taiwan phrase's replacement
/// is longer than twice its characters' three bytes each (every character a phrase consumes is
/// at least three bytes long: Han, not ASCII).
inline constexpr std::size_t fused_growth = [] {
    std::size_t g = 2;
    for (const auto& p : tw_phrase_table) {
        const std::size_t in = 3 * p.from.size();
        const std::size_t need = (p.to.size() + in - 1) / in;
        if (need > g) g = need;
    }
    return g;
}();

/// Room the fused pass needs for the normalized form of `n` bytes (`fused_growth` per byte),
/// plus padding and slack for eight-byte stores.
[[nodiscard]] constexpr std::size_t fused_buffer_size(std::size_t n) noexcept { return fused_growth * n + 4 * fused_padding; }

/// Normalizes `in` from unit boundary `i` on (exactly `normalize_into`'s bytes for that part),
/// writing at `o` (room as `fused_buffer_size`); returns the end of the output, followed by
/// `fused_padding` zero bytes.
inline char* fused_normalize_from(std::string_view in, std::size_t i, char* o, const normalize_options& opt) noexcept {
    const std::size_t n = in.size();
    const tw_raw_prefixes* const raw = opt.fold_script && opt.fold_phrases ? &tw_raw_prefix_tables() : nullptr;
    const char* s = in.data();
    while (i < n) {
        if (n - i >= 8) {
            // The ASCII prefix of the next eight bytes, folded in one step (bytes after the
            // prefix are written too, then overwritten: only the prefix is kept).
            const std::uint64_t v = fused_load_le64(s + i);
            const std::uint64_t high = v & 0x8080808080808080ull;
            const std::size_t k = high == 0 ? 8 : static_cast<std::size_t>(std::countr_zero(high) >> 3);
            if (k != 0) {
                fused_store_le64(o, opt.fold_case ? fused_fold_case8(v) : v);
                o += k;
                i += k;
                continue;
            }
        }
        const auto b = static_cast<unsigned char>(s[i]);
        if (b < 0x80) {
            *o++ = fold_case_byte(s[i], opt.fold_case);
            ++i;
            continue;
        }
        // U+4000..U+9FFF (lead E4..E9): no width folding applies, script folding may.
        if (b >= 0xE4 && b <= 0xE9 && n - i >= 3) {
            const auto b1 = static_cast<unsigned char>(s[i + 1]);
            const auto b2 = static_cast<unsigned char>(s[i + 2]);
            if ((b1 & 0xC0) == 0x80 && (b2 & 0xC0) == 0x80) {
                const auto cp = static_cast<char32_t>(utf8_three_byte_value(b, b1, b2));
                // Most Han characters have no Traditional mapping: one bit test, no call.
                const bool mapped = opt.fold_script && ((t2s_bmp_bitmap[cp >> 6] >> (cp & 63)) & 1u) != 0;
                const char32_t folded = mapped ? fold_to_simplified(cp) : cp;
                const bool phrase = opt.fold_script && opt.fold_phrases && fused_may_start_phrase(in, i, 3, folded, *raw);
                if (!phrase) {
                    if (folded == cp) {
                        o[0] = s[i];
                        o[1] = s[i + 1];
                        o[2] = s[i + 2];
                        o += 3;
                    } else {
                        char enc[4];
                        const std::size_t len = utf8::encode(folded, enc);
                        std::memcpy(o, enc, len);
                        o += len;
                    }
                    i += 3;
                    continue;
                }
            }
        }
        // Any other unit: the reference loop's steps (see normalize_core).
        const bool may_width = opt.fold_width && (b == 0xE3 || b == 0xEF);
        const bool may_script = opt.fold_script && ((b >= 0xE3 && b <= 0xE9) || b == 0xF0);
        utf8::decoded d{};
        const char32_t cp3 = n - i >= 3 ? fused_decode3(reinterpret_cast<const unsigned char*>(s + i)) : 0;
        if (cp3 != 0) d = {cp3, 3, true};
        else d = utf8::decode(in, i);
        if (!d.valid || (!may_width && !may_script)) {
            std::memcpy(o, s + i, d.length);
            o += d.length;
            i += d.length;
            continue;
        }
        char32_t cp = d.code_point;
        if (may_width) cp = fold_width_code_point(cp);
        if (cp < 0x80) {
            *o++ = fold_case_byte(static_cast<char>(cp), opt.fold_case);
            i += d.length;
            continue;
        }
        if (may_script) {
            cp = fold_to_simplified(cp);
            if (opt.fold_phrases && may_start_tw_phrase(cp)) {
                tw_phrase_reader next{in};
                next.ends[0] = i + d.length;
                const tw_phrase_match m = match_tw_phrase(cp, next);
                if (m.chars != 0) {
                    std::memcpy(o, m.to.data(), m.to.size());
                    o += m.to.size();
                    i = next.ends[m.chars - 1];
                    continue;
                }
            }
        }
        if (cp == d.code_point) {
            std::memcpy(o, s + i, d.length);
            o += d.length;
        } else {
            char enc[4];
            const std::size_t len = utf8::encode(cp, enc);
            std::memcpy(o, enc, len);
            o += len;
        }
        i += d.length;
    }
    std::memset(o, 0, fused_padding);
    return o;
}

/// Writes the normalized form of `in` (exactly `normalize_into(in, out, opt)`'s bytes) to the
/// start of `buf`, followed by `fused_padding` zero bytes; returns its length. `buf` only grows.
inline std::size_t fused_normalize(std::string_view in, std::string& buf, const normalize_options& opt) {
    if (buf.size() < fused_buffer_size(in.size())) buf.resize(fused_buffer_size(in.size()));
    return static_cast<std::size_t>(fused_normalize_from(in, 0, buf.data(), opt) - buf.data());
}

/// True for the classes that form CJK runs (n-grams).
[[nodiscard]] constexpr bool fused_is_cjk(char_class k) noexcept {
    return k == char_class::han || k == char_class::kana || k == char_class::hangul;
}

/// One code point of the normalized text: its class, byte length and validity.
struct fused_unit {
    char_class cls;
    std::uint32_t length;
};

/// Decodes and classifies the non-ASCII unit at `t[i]` (a malformed byte is `other`, length 1).
[[nodiscard]] inline fused_unit fused_classify(std::string_view t, std::size_t i) noexcept {
    const auto b = static_cast<unsigned char>(t[i]);
    if (b >= 0xE4 && b <= 0xE9) {
        // U+4000..U+9FFF: Han except the Yijing hexagrams U+4DC0..U+4DFF. The padding makes the
        // two reads safe; a zero byte is not a continuation byte.
        const auto b1 = static_cast<unsigned char>(t.data()[i + 1]);
        const auto b2 = static_cast<unsigned char>(t.data()[i + 2]);
        if ((b1 & 0xC0) == 0x80 && (b2 & 0xC0) == 0x80 && i + 3 <= t.size()) {
            const bool yijing = b == 0xE4 && b1 == 0xB7 && b2 >= 0x80;  // U+4DC0..U+4DFF
            return {yijing ? char_class::punct : char_class::han, 3};
        }
    }
    if ((b & 0xF0) == 0xE0) {
        const char32_t cp = fused_decode3(reinterpret_cast<const unsigned char*>(t.data() + i));
        if (cp != 0 && i + 3 <= t.size()) return {classify(cp), 3};
    }
    const utf8::decoded d = utf8::decode(t, i);
    return {d.valid ? classify(d.code_point) : char_class::other, d.length};
}

/// Continues a CJK run of a normalized text `t` (followed by `fused_padding` zero bytes) that
/// started at `start`, whose last character starts at `prev` and ends at `pos`, with `count`
/// characters so far: emits the remaining bigrams, or the lone character of a one-character
/// run, exactly as `CharBigramTokenizer` does; returns the end of the run.
template <class Emit>
inline std::size_t fused_cjk_run(std::string_view t, std::size_t start, std::size_t prev, std::size_t pos,
                                 std::size_t count, Emit& emit) {
    const char* p = t.data();
    const std::size_t n = t.size();
    while (pos < n) {
        if (static_cast<unsigned char>(p[pos]) < 0x80) break;
        const fused_unit v = fused_classify(t, pos);
        if (!fused_is_cjk(v.cls)) break;
        emit(p + prev, pos + v.length - prev);
        prev = pos;
        pos += v.length;
        ++count;
    }
    if (count < 2) emit(p + start, pos - start);
    return pos;
}

/// The end of the ASCII word (`scan_ascii_word`: runs of letters and digits, joined by one '.',
/// '-' or '_' between two of them) of the text `p[0..n)` (followed by `fused_padding` zero
/// bytes, which end every word: no bounds checks) whose letters and digits run from its start up
/// to `e`, or further.
[[nodiscard]] inline std::size_t fused_ascii_word_end(const char* p, std::size_t n, std::size_t e) noexcept {
    for (;;) {
        const std::uint32_t other = ~fused_alnum16(p + e) & 0xFFFFu;
        if (other == 0) {
            e += 16;
            continue;
        }
        e += static_cast<std::size_t>(std::countr_zero(other));
        const char c = p[e];
        if ((c == '.' || c == '-' || c == '_') && is_ascii_alnum(p[e + 1]) && e + 1 < n) {
            e += 2;
            continue;
        }
        return e;
    }
}

/// The token pass over ASCII text from the ASCII byte `p[i]` (`i` < `n`) of a text `p[0..n)`
/// followed by `fused_padding` zero bytes: emits its words, and returns the position of the next
/// non-ASCII byte (or a position >= `n`). Each sixteen bytes are classified once: the words that
/// end inside them (most) need no other read.
template <class Emit>
inline std::size_t fused_ascii_words(const char* p, std::size_t n, std::size_t i, Emit& emit) {
    for (;;) {
        std::uint32_t alnum, high;
        fused_classify16(p + i, alnum, high);
        // Letters, digits and non-ASCII bytes stop the skip over separators. The zero padding is
        // none of them, so a skip may end past the text, which ends the caller's loop.
        std::uint32_t stop = alnum | high;
        std::size_t next = i + 16;
        while (stop != 0) {
            const auto k = static_cast<std::size_t>(std::countr_zero(stop));
            if (((high >> k) & 1u) != 0) return i + k;
            const std::uint32_t ends = ~alnum & (0xFFFFu << k) & 0xFFFFu;
            std::size_t e = 0;
            if (ends == 0) {
                e = fused_ascii_word_end(p, n, i + 16);
            } else {
                e = i + static_cast<std::size_t>(std::countr_zero(ends));
                const char c = p[e];
                if ((c == '.' || c == '-' || c == '_') && is_ascii_alnum(p[e + 1]) && e + 1 < n)
                    e = fused_ascii_word_end(p, n, e + 2);
            }
            emit(p + i + k, e - i - k);
            if (e - i >= 16) {
                next = e;  // the word ran past these sixteen bytes
                break;
            }
            stop &= 0xFFFFu << (e - i);
        }
        i = next;
        if (i >= n) return i;
    }
}

/// The token pass over a normalized text `t` (followed by `fused_padding` zero bytes) from
/// position `i`, where `CharBigramTokenizer::tokenize`'s loop would be: calls `emit(p, len)` for
/// exactly the tokens it yields from there, in order.
template <class Emit>
inline void fused_bigrams_from(std::string_view t, std::size_t i, Emit& emit) {
    const char* p = t.data();
    const std::size_t n = t.size();
    while (i < n) {
        const auto b = static_cast<unsigned char>(p[i]);
        if (b < 0x80) {
            i = fused_ascii_words(p, n, i, emit);
            continue;
        }
        const fused_unit u = fused_classify(t, i);
        if (fused_is_cjk(u.cls)) {
            i = fused_cjk_run(t, i, i, i + u.length, 1, emit);
        } else if (u.cls == char_class::letter) {
            std::size_t e = i;
            while (e < n) {
                const utf8::decoded d = utf8::decode(t, e);
                const char_class k = classify(d.code_point);
                if (k != char_class::letter && k != char_class::ascii_letter && k != char_class::ascii_digit) break;
                e += d.length;
            }
            emit(p + i, e - i);
            i = e;
        } else {
            i += u.length;
        }
    }
}

/// The token pass over a whole normalized text (see `fused_bigrams_from`).
template <class Emit>
inline void fused_bigrams(std::string_view t, Emit&& emit) {
    fused_bigrams_from(t, 0, emit);
}

}  // namespace detail
}  // namespace v0
}  // namespace semfp
