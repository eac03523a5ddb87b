#pragma once
/// \file
/// The fast path of the character-bigram fingerprint pipeline (`Fingerprinter` with
/// `CharBigramTokenizer`, with or without a `StopwordFilter`, raw term frequency, no IDF):
/// normalization into a padded buffer eight ASCII bytes at a time and three-byte Han characters
/// without a general decode, then one pass that finds the tokens, tests the stopword prefilter,
/// hashes and votes, with no token ever materialized. It computes exactly what the reference
/// path (`normalize_into`, `Tok::tokenize`, `Simhash::add`) computes: the same normalized bytes,
/// the same tokens in the same order, the same hashes; a test compares the two on corpus-like,
/// random and malformed text. Rare units (width folding, phrases, malformed bytes, other
/// scripts) go through the same functions the reference path uses.

#include <semfp/core/fingerprint.hpp>
#include <semfp/core/hash.hpp>
#include <semfp/core/simhash.hpp>
#include <semfp/text/char_class.hpp>
#include <semfp/text/normalize.hpp>
#include <semfp/text/script_fold.hpp>
#include <semfp/text/stopwords.hpp>
#include <semfp/text/tokenizers.hpp>
#include <semfp/text/utf8.hpp>

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

namespace semfp {
inline namespace v0 {
namespace detail {

/// Zero bytes kept after the normalized text so that 16-byte loads past a token are in bounds.
inline constexpr std::size_t fused_padding = 16;

[[nodiscard]] inline std::uint64_t fused_load_le64(const char* p) noexcept {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    if constexpr (std::endian::native == std::endian::big) {
        std::uint64_t r = 0;
        for (int i = 0; i < 8; ++i) r |= ((v >> (8 * i)) & 0xFFu) << (8 * (7 - i));
        v = r;
    }
    return v;
}

inline void fused_store_le64(char* p, std::uint64_t v) noexcept {
    if constexpr (std::endian::native == std::endian::big) {
        std::uint64_t r = 0;
        for (int i = 0; i < 8; ++i) r |= ((v >> (8 * i)) & 0xFFu) << (8 * (7 - i));
        v = r;
    }
    std::memcpy(p, &v, 8);
}

/// The low `n` bytes (n <= 8) of a little-endian word.
[[nodiscard]] constexpr std::uint64_t fused_low_bytes(std::uint64_t v, std::size_t n) noexcept {
    return n >= 8 ? v : v & ((std::uint64_t{1} << (8 * n)) - 1);
}

/// `Murmur3::hash128(string_view(p, len))` for a buffer readable up to `p + len + 15`.
[[nodiscard]] inline hash128_t fused_murmur3(const char* p, std::size_t len) noexcept {
    constexpr std::uint64_t c1 = 0x87c37b91114253d5ull;
    constexpr std::uint64_t c2 = 0x4cf5ad432745937full;
    std::uint64_t h1 = 0, h2 = 0;
    const std::size_t nblocks = len / 16;
    for (std::size_t i = 0; i < nblocks; ++i) {
        std::uint64_t k1 = fused_load_le64(p + i * 16);
        std::uint64_t k2 = fused_load_le64(p + i * 16 + 8);
        k1 *= c1;
        k1 = rotl64(k1, 31);
        k1 *= c2;
        h1 ^= k1;
        h1 = rotl64(h1, 27);
        h1 += h2;
        h1 = h1 * 5 + 0x52dce729;
        k2 *= c2;
        k2 = rotl64(k2, 33);
        k2 *= c1;
        h2 ^= k2;
        h2 = rotl64(h2, 31);
        h2 += h1;
        h2 = h2 * 5 + 0x38495ab5;
    }
    const char* tail = p + nblocks * 16;
    const std::size_t rem = len & 15;
    if (rem > 8) {
        std::uint64_t k2 = fused_low_bytes(fused_load_le64(tail + 8), rem - 8);
        k2 *= c2;
        k2 = rotl64(k2, 33);
        k2 *= c1;
        h2 ^= k2;
    }
    if (rem > 0) {
        std::uint64_t k1 = fused_low_bytes(fused_load_le64(tail), rem);
        k1 *= c1;
        k1 = rotl64(k1, 31);
        k1 *= c2;
        h1 ^= k1;
    }
    h1 ^= len;
    h2 ^= len;
    h1 += h2;
    h2 += h1;
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 += h2;
    h2 += h1;
    return {h1, h2};
}

/// `feature_bits<Bits, Hash>(string_view(p, len))`, from a padded buffer.
template <std::size_t Bits, HashPolicy Hash>
[[nodiscard]] inline typename Fingerprint<Bits>::storage_type fused_feature_bits(const char* p, std::size_t len) noexcept {
    if constexpr (std::is_same_v<Hash, Murmur3>) {
        const hash128_t h = fused_murmur3(p, len);
        if constexpr (Bits == 64) return {h.lo};
        else return {h.hi, h.lo};
    } else if constexpr (std::is_same_v<Hash, Mixed<Murmur3>>) {
        const hash128_t h = fused_murmur3(p, len);
        if constexpr (Bits == 64) {
            return {fmix64(h.lo)};
        } else {
            const std::uint64_t lo = fmix64(h.lo ^ rotl64(h.hi, 29));
            return {fmix64(h.hi ^ lo), lo};
        }
    } else {
        return feature_bits<Bits, Hash>(std::string_view(p, len));
    }
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

[[nodiscard]] constexpr bool fused_test_bit(const std::array<std::uint64_t, 1024>& bits, std::uint32_t b) noexcept {
    return ((bits[b >> 6] >> (b & 63)) & 1u) != 0;
}

/// Decodes a well-formed three-byte sequence at `p` (lead E0..EF, RFC 3629 rules); returns 0 when
/// the bytes are not one (the caller then takes the general decoder). Reads p[0..2].
[[nodiscard]] constexpr char32_t fused_decode3(const unsigned char* p) noexcept {
    const unsigned b0 = p[0], b1 = p[1], b2 = p[2];
    const unsigned lo = (b0 == 0xE0) ? 0xA0 : 0x80;
    const unsigned hi = (b0 == 0xED) ? 0x9F : 0xBF;
    if ((b0 & 0xF0) != 0xE0 || b1 < lo || b1 > hi || (b2 & 0xC0) != 0x80) return 0;
    return static_cast<char32_t>(((b0 & 0x0Fu) << 12) | ((b1 & 0x3Fu) << 6) | (b2 & 0x3Fu));
}

/// ASCII case folding of eight ASCII bytes (every byte below 0x80).
[[nodiscard]] constexpr std::uint64_t fused_fold_case8(std::uint64_t v) noexcept {
    constexpr std::uint64_t ones = 0x0101010101010101ull;
    // High bit of each byte: byte >= 'A' and byte > 'Z' (no carries: every byte is below 0x80).
    const std::uint64_t ge_a = v + ones * (0x80 - 'A');
    const std::uint64_t gt_z = v + ones * (0x80 - 'Z' - 1);
    const std::uint64_t upper = ge_a & ~gt_z & (ones * 0x80);
    return v | (upper >> 2);
}

/// Writes the normalized form of `in` (exactly `normalize_into(in, out, opt)`'s bytes) to the
/// start of `buf`, followed by `fused_padding` zero bytes; returns its length. `buf` only grows.
inline std::size_t fused_normalize(std::string_view in, std::string& buf, const normalize_options& opt) {
    const std::size_t n = in.size();
    // A unit grows at most fourfold (a one-character phrase of 3 bytes becomes at most 12).
    const std::size_t need = 4 * n + 2 * fused_padding;
    if (buf.size() < need) buf.resize(need);
    const char* s = in.data();
    char* const out = buf.data();
    char* o = out;
    std::size_t i = 0;
    while (i < n) {
        if (n - i >= 8) {
            const std::uint64_t v = fused_load_le64(s + i);
            if ((v & 0x8080808080808080ull) == 0) {
                fused_store_le64(o, opt.fold_case ? fused_fold_case8(v) : v);
                o += 8;
                i += 8;
                continue;
            }
        }
        const auto b = static_cast<unsigned char>(s[i]);
        if (b < 0x80) {
            char c = s[i];
            if (opt.fold_case && c >= 'A' && c <= 'Z') c = static_cast<char>(c + ('a' - 'A'));
            *o++ = c;
            ++i;
            continue;
        }
        // U+4000..U+9FFF (lead E4..E9): no width folding applies, script folding may.
        if (b >= 0xE4 && b <= 0xE9 && n - i >= 3) {
            const auto b1 = static_cast<unsigned char>(s[i + 1]);
            const auto b2 = static_cast<unsigned char>(s[i + 2]);
            if ((b1 & 0xC0) == 0x80 && (b2 & 0xC0) == 0x80) {
                const char32_t cp = static_cast<char32_t>(((b & 0x0Fu) << 12) | ((b1 & 0x3Fu) << 6) | (b2 & 0x3Fu));
                const char32_t folded = opt.fold_script ? fold_to_simplified(cp) : cp;
                bool phrase = opt.fold_script && opt.fold_phrases && may_start_tw_phrase(folded);
                if (phrase && !fused_test_bit(tw_single_bitmap, static_cast<std::uint32_t>(folded))) {
                    // No one-character phrase: a phrase needs a Han second character whose pair
                    // with this one starts some phrase (as the reference's `next` sees it).
                    if (n - i < 4 || static_cast<unsigned char>(s[i + 3]) < 0x80) {
                        phrase = false;
                    } else if (n - i >= 6) {
                        const char32_t next = fused_decode3(reinterpret_cast<const unsigned char*>(s + i + 3));
                        if (next != 0 && !fused_test_bit(tw_pair_bitmap, tw_pair_bit(folded, fold_to_simplified(next))))
                            phrase = false;
                    }
                }
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
        if (may_width) {
            if (cp == 0x3000) cp = U' ';
            else if (cp >= 0xFF01 && cp <= 0xFF5E) cp -= 0xFEE0;
        }
        if (cp < 0x80) {
            char c = static_cast<char>(cp);
            if (opt.fold_case && c >= 'A' && c <= 'Z') c = static_cast<char>(c + ('a' - 'A'));
            *o++ = c;
            i += d.length;
            continue;
        }
        if (may_script) {
            cp = fold_to_simplified(cp);
            if (opt.fold_phrases && may_start_tw_phrase(cp)) {
                std::size_t ends[tw_phrase_max_length]{};
                ends[0] = i + d.length;
                const tw_phrase_match m = match_tw_phrase(cp, [&](std::size_t j) -> char32_t {
                    const std::size_t at = ends[j - 1];
                    if (at >= n || static_cast<unsigned char>(in[at]) < 0x80) return U'\0';
                    const utf8::decoded next = utf8::decode(in, at);
                    if (!next.valid) return U'\0';
                    ends[j] = at + next.length;
                    return fold_to_simplified(next.code_point);
                });
                if (m.chars != 0) {
                    std::memcpy(o, m.to.data(), m.to.size());
                    o += m.to.size();
                    i = ends[m.chars - 1];
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
    return static_cast<std::size_t>(o - out);
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

/// The token pass over a normalized text `t` (followed by `fused_padding` zero bytes): calls
/// `emit(p, len)` for exactly the tokens `CharBigramTokenizer::tokenize(t, ...)` yields, in order.
template <class Emit>
inline void fused_bigrams(std::string_view t, Emit&& emit) {
    const char* p = t.data();
    const std::size_t n = t.size();
    std::size_t i = 0;
    while (i < n) {
        const auto b = static_cast<unsigned char>(p[i]);
        if (b < 0x80) {
            if (!is_ascii_alnum(p[i])) {
                ++i;
                continue;
            }
            // scan_ascii_word; the zero padding ends every word, so no bounds checks.
            std::size_t e = i + 1;
            for (;;) {
                const char c = p[e];
                if (is_ascii_alnum(c)) {
                    ++e;
                } else if ((c == '.' || c == '-' || c == '_') && is_ascii_alnum(p[e + 1]) && e + 1 < n) {
                    e += 2;
                } else {
                    break;
                }
            }
            emit(p + i, e - i);
            i = e;
            continue;
        }
        const fused_unit u = fused_classify(t, i);
        if (fused_is_cjk(u.cls)) {
            // A CJK run: one token per adjacent pair, or the lone character.
            std::size_t prev = i;
            std::size_t pos = i + u.length;
            std::size_t count = 1;
            while (pos < n) {
                const auto c = static_cast<unsigned char>(p[pos]);
                if (c < 0x80) break;
                const fused_unit v = fused_classify(t, pos);
                if (!fused_is_cjk(v.cls)) break;
                emit(p + prev, pos + v.length - prev);
                prev = pos;
                pos += v.length;
                ++count;
            }
            if (count < 2) emit(p + i, pos - i);
            i = pos;
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

/// The tokenizers the fused pass reproduces: `CharBigramTokenizer`, alone or behind a
/// `StopwordFilter`.
template <class Tok>
struct fused_tokenizer : std::false_type {};
template <>
struct fused_tokenizer<CharNgramTokenizer<2>> : std::true_type {
    [[nodiscard]] static const StopwordList* stopwords(const CharNgramTokenizer<2>&) noexcept { return nullptr; }
};
template <>
struct fused_tokenizer<StopwordFilter<CharNgramTokenizer<2>>> : std::true_type {
    [[nodiscard]] static const StopwordList* stopwords(const StopwordFilter<CharNgramTokenizer<2>>& t) noexcept {
        return &t.stopwords();
    }
};

/// The raw-TF, unweighted fingerprint of `text` through the fused pass; `buf` is reused.
/// `stopwords` null means no filter.
template <std::size_t Bits, HashPolicy Hash>
[[nodiscard]] Fingerprint<Bits> fused_fingerprint(std::string_view text, std::string& buf, const normalize_options& opt,
                                                  const StopwordList* stopwords) {
    const std::size_t len = fused_normalize(text, buf, opt);
    const std::string_view norm(buf.data(), len);
    Simhash<Bits, Hash> acc;
    if (stopwords != nullptr && !stopwords->empty()) {
        const StopwordList& list = *stopwords;
        fused_bigrams(norm, [&](const char* p, std::size_t n) {
            if (list.may_contain_key(fused_stopword_key(p, n)) && list.contains(std::string_view(p, n))) return;
            acc.add_hashed(fused_feature_bits<Bits, Hash>(p, n), 1);
        });
    } else {
        fused_bigrams(norm, [&](const char* p, std::size_t n) { acc.add_hashed(fused_feature_bits<Bits, Hash>(p, n), 1); });
    }
    return acc.finish();
}

}  // namespace detail
}  // namespace v0
}  // namespace semfp
