#pragma once
/// \file
/// The fast path of the character-bigram fingerprint pipeline (`Fingerprinter` with
/// `CharBigramTokenizer`, with or without a `StopwordFilter`, raw term frequency, no IDF): one
/// pass over the text that decodes, folds (width, case, script, Taiwan phrases), writes the
/// normalized bytes once and finds the tokens as it goes (`fused_pass`); tokens are then tested
/// against the stopword prefilter, hashed from the padded buffer and counted as bit-sliced votes
/// in batches (`fused_fingerprint`). Nothing is allocated per call once the buffer has grown.
/// It computes exactly what the reference path (`Fingerprinter::reference`: `normalize_into`,
/// `Tok::tokenize`, `Simhash::add`) computes: the same normalized bytes, tokens, hashes and
/// votes; tests compare the two on fixture, random and malformed text, and the benchmark
/// (bench/fingerprint_speed.cpp) on the whole corpus before it times anything.

#include <semfp/core/fingerprint.hpp>
#include <semfp/core/hash.hpp>
#include <semfp/core/fused_hash.hpp>
#include <semfp/core/fused_text.hpp>
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

/// The bundled stopword list (`bundled_stopwords()`, which never changes) as an exact table the
/// fused pass reads inline: the words of at most 16 bytes by their first and last eight bytes
/// and their length (open addressing on the prefilter key's top bits). It answers what
/// `StopwordList::contains` answers, without its byte-by-byte hash and `memcmp`; longer words
/// are left to `contains`.
class fused_bundled_stopwords {
public:
    static constexpr std::size_t max_length = 16;

    fused_bundled_stopwords() noexcept {
        for (const std::string_view w : stopwords_zh) {
            if (w.empty() || w.size() > max_length || contains(w.data(), w.size(), stopword_key(w))) continue;
            const word x = make(w.data(), w.size());
            std::size_t slot = home(stopword_key(w));
            while (m_words[slot].length != 0) slot = (slot + 1) & (slots - 1);
            m_words[slot] = x;
        }
    }

    /// True when the `n`-byte word at `p` (`n` <= `max_length`), whose
    /// prefilter key is `key`, is a bundled stopword.
    [[nodiscard]] bool contains(const char* p, std::size_t n, std::uint64_t key) const noexcept {
        const word x = make(p, n);
        for (std::size_t slot = home(key);; slot = (slot + 1) & (slots - 1)) {
            const word& y = m_words[slot];
            if (y.length == 0) return false;
            if (y.first == x.first && y.last == x.last && y.length == x.length) return true;
        }
    }

private:
    static constexpr std::size_t slots = 2048;  // the list has 794 words (load below 0.4)
    struct word {
        std::uint64_t first = 0;   // the first (up to) eight bytes, little-endian
        std::uint64_t last = 0;    // the last eight bytes of a word over eight bytes, else 0
        std::uint64_t length = 0;  // 0: empty slot
    };
    [[nodiscard]] static std::size_t home(std::uint64_t key) noexcept { return static_cast<std::size_t>(key >> 53); }
    [[nodiscard]] static word make(const char* p, std::size_t n) noexcept {
        const std::size_t k = n < 8 ? n : 8;
        std::uint64_t first = 0, last = 0;
        for (std::size_t i = 0; i < k; ++i) {
            first |= std::uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
            if (n > 8) last |= std::uint64_t{static_cast<unsigned char>(p[n - 8 + i])} << (8 * i);
        }
        return {first, last, n};
    }
    std::array<word, slots> m_words{};
};

/// The table of the bundled list, built at first use (about 800 words).
[[nodiscard]] inline const fused_bundled_stopwords& fused_bundled_stopword_table() noexcept {
    static const fused_bundled_stopwords table;
    return table;
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

/// The phrase places `fused_pass` reports by default: none.
struct fused_no_places {};

/// True for a sink or place recorder that wants the phrase places (sketch_phrase_fold.hpp).
template <class T>
inline constexpr bool fused_records_places = requires { requires std::remove_cvref_t<T>::records_phrase_places; };

/// True for a sink that hears of every token with its place (`add(hash, p, n)` for counted
/// tokens, `scan(p, n)` for stopwords; sketch_variant_skip.hpp), or of the phrase places too.
template <class T>
inline constexpr bool fused_observes_tokens =
    fused_records_places<T> || requires { requires std::remove_cvref_t<T>::observes_tokens; };

/// The fused pass: normalizes `in` into `buf` and feeds `emit(p, len)` exactly the tokens that
/// `CharBigramTokenizer` yields on `normalize(in, opt)`, in order, while the text is read once.
/// ASCII, and three-byte units (Han, CJK and full-width punctuation, kana, hangul), are handled
/// in the loop: ASCII bytes (and units that fold to ASCII) gather into a region whose words are
/// found eight bytes at a time when a non-ASCII unit ends it; CJK units extend the current run.
/// At the first other unit (another script's letter, a two- or four-byte sequence, a malformed
/// byte, a possible Taiwan phrase) the rest of the text is normalized into the buffer and the
/// token pass resumes over it from the same tokenizer state. `buf` only grows.
/// With `Places::records_phrase_places` (the sketch's phrase fold, sketch_phrase_fold.hpp; only
/// without `fold_phrases`), `places.single(o)` hears of each one-character Taiwan phrase the
/// loop writes at `o`, `places.tail(o)` of the offset from which the general normalizer
/// takes over, and `places.done(size)` of the normalized text's size (then followed by
/// `fused_padding` zero bytes); the output is the same.
template <class Emit, class Places = fused_no_places>
inline void fused_pass(std::string_view in, std::string& buf, const normalize_options& opt, Emit& emit,
                       [[maybe_unused]] Places&& places = Places{}) {
    constexpr bool record = fused_records_places<Places>;
    const std::size_t n = in.size();
    if (buf.size() < fused_buffer_size(n)) buf.resize(fused_buffer_size(n));
    const char* s = in.data();
    char* const out = buf.data();
    std::size_t i = 0, o = 0;
    const tw_raw_prefixes* const raw = opt.fold_script && opt.fold_phrases ? &tw_raw_prefix_tables() : nullptr;
    // The run loop's stop test: a character that folds, or with phrases also one that is a
    // one-character phrase.
    const std::uint64_t* const han_stop =
        raw != nullptr || record ? fused_han_stop_bitmap.data() : fused_han_fold_bitmap.data();
    // Bytes the run loop needs from a character on: its three, or nine for the phrase test's
    // loads (the last two characters of a text then take the steps before the loop).
    const std::size_t run_room = raw != nullptr ? 9 : 3;
    bool in_region = false;  // ASCII output [region, o) not yet tokenized
    std::size_t region = 0;
    bool in_run = false;  // a CJK run from run_start; its last character starts at prev
    std::size_t run_start = 0, prev = 0, count = 0;

    // Words of the ASCII region: the zero bytes written at its end stand for the non-ASCII unit
    // that ends it (neither is a letter, digit or joiner), and are overwritten by that unit.
    auto close_region = [&]() {
        if (!in_region) return;
        in_region = false;
        // Most regions of CJK text are a few separators (spaces, folded full-width commas,
        // brackets): no letter or digit among at most eight bytes means no token.
        if (o - region <= 8 && fused_alnum8(fused_low_bytes(fused_load_le64(out + region), o - region)) == 0) return;
        std::memset(out + o, 0, fused_padding);
        fused_bigrams_from(std::string_view(out, o), region, emit);
    };
    auto close_run = [&]() {
        if (!in_run) return;
        if (count < 2) emit(out + run_start, o - run_start);
        in_run = false;
    };
    // A CJK character was written at [at, o): extend the run (a bigram) or start one.
    auto add_cjk = [&](std::size_t at) {
        if (in_run) {
            emit(out + prev, o - prev);
            prev = at;
            ++count;
        } else {
            in_run = true;
            run_start = prev = at;
            count = 1;
        }
    };

    while (i < n) {
        const auto b = static_cast<unsigned char>(s[i]);
        if (b < 0x80) {
            close_run();
            if (!in_region) {
                in_region = true;
                region = o;
            }
            if (n - i >= 16) {
                // Sixteen bytes at a time while they are all ASCII.
                for (;;) {
                    const std::uint32_t high = fused_copy_ascii16(s + i, out + o, opt.fold_case);
                    if (high != 0) {
                        const auto k = static_cast<std::size_t>(std::countr_zero(high));
                        o += k;
                        i += k;
                        break;
                    }
                    o += 16;
                    i += 16;
                    if (n - i < 16) break;
                }
            } else if (n - i >= 8) {
                const std::uint64_t v = fused_load_le64(s + i);
                const std::uint64_t high = v & 0x8080808080808080ull;
                const std::size_t k = high == 0 ? 8 : static_cast<std::size_t>(std::countr_zero(high) >> 3);
                fused_store_le64(out + o, opt.fold_case ? fused_fold_case8(v) : v);
                o += k;
                i += k;
            } else {
                out[o++] = fold_case_byte(s[i], opt.fold_case);
                ++i;
            }
            continue;
        }
        const char32_t cp = n - i >= 3 ? fused_decode3(reinterpret_cast<const unsigned char*>(s + i)) : 0;
        if (cp == 0) break;  // not a well-formed three-byte unit
        char32_t folded = opt.fold_width && (b == 0xE3 || b == 0xEF) ? fold_width_code_point(cp) : cp;
        if (folded < 0x80) {
            // Folds to ASCII: part of the region (it may be a letter, digit or joiner).
            close_run();
            if (!in_region) {
                in_region = true;
                region = o;
            }
            out[o++] = fold_case_byte(static_cast<char>(folded), opt.fold_case);
            i += 3;
            continue;
        }
        if (opt.fold_script && b >= 0xE3 && b <= 0xE9) {
            if (((t2s_bmp_bitmap[folded >> 6] >> (folded & 63)) & 1u) != 0) folded = fold_to_simplified(folded);
            if constexpr (record)
                if (folded >= 0x10000 || fused_test_bit(tw_single_bitmap, static_cast<std::uint32_t>(folded))) places.single(o);
            // Most characters are ruled out inline by their raw bytes; the rest ask the full test.
            if (opt.fold_phrases && !(folded < 0x10000 && fused_no_phrase_at(in, i, folded, *raw)) &&
                fused_may_start_phrase(in, i, 3, folded, *raw)) {
                // The reference's phrase match; a replacement (rare) goes the general way.
                tw_phrase_reader next{in};
                next.ends[0] = i + 3;
                const tw_phrase_match m = fused_match_tw_phrase(folded, next);
                if (m.chars != 0) {
                    // A replacement of three-byte CJK characters (all of them, in practice)
                    // joins the run here; anything else goes the general way.
                    const std::string_view to = m.to;
                    bool simple = !to.empty() && to.size() % 3 == 0;
                    for (std::size_t k = 0; simple && k < to.size(); k += 3) {
                        const char32_t c = fused_decode3(reinterpret_cast<const unsigned char*>(to.data() + k));
                        simple = c != 0 && fused_is_cjk(classify(c));
                    }
                    if (!simple) break;
                    close_region();
                    for (std::size_t k = 0; k < to.size(); k += 3) {
                        const std::size_t at = o;
                        std::memcpy(out + o, to.data() + k, 3);
                        o += 3;
                        add_cjk(at);
                    }
                    i = next.ends[m.chars - 1];
                    continue;
                }
            }
        }
        const char_class k = (folded >= 0x4E00 && folded <= 0x9FFF) ? char_class::han : classify(folded);
        if (k == char_class::letter) break;
        close_region();
        const bool cjk = fused_is_cjk(k);
        if (!cjk) close_run();
        const std::size_t at = o;
        if (folded == cp) {
            std::memcpy(out + o, s + i, 3);
            o += 3;
        } else {
            char enc[4];
            const std::size_t len = utf8::encode(folded, enc);
            std::memcpy(out + o, enc, len);
            o += len;
        }
        i += 3;
        if (!cjk) continue;
        add_cjk(at);
        // The rest of a run of common Han characters (U+4E00..U+9FFF) that no fold changes and
        // that start no phrase: the steps above reduce to copying the three bytes and emitting
        // a bigram. Any other unit leaves this loop and takes the steps above.
        while (n - i >= run_room) {
            const auto b0 = static_cast<unsigned char>(s[i]);
            const auto b1 = static_cast<unsigned char>(s[i + 1]);
            const auto b2 = static_cast<unsigned char>(s[i + 2]);
            if (static_cast<unsigned>(b0 - 0xE4u) > 0xE9u - 0xE4u || (b1 & 0xC0u) != 0x80u || (b2 & 0xC0u) != 0x80u) break;
            const std::uint32_t c = utf8_three_byte_value(b0, b1, b2);
            if (c < 0x4E00u) break;
            if (opt.fold_script) {
                const std::uint32_t w = (c >> 6) - static_cast<std::uint32_t>(fused_han_first_word);
                if (((han_stop[w] >> (c & 63)) & 1u) != 0) break;
                if (raw != nullptr && !fused_no_pair_phrase_at(s + i, *raw)) break;
            }
            std::memcpy(out + o, s + i, 3);
            emit(out + prev, o + 3 - prev);
            prev = o;
            o += 3;
            i += 3;
            ++count;
        }
    }
    close_region();
    if (i >= n) {
        close_run();
        if constexpr (record) {
            std::memset(out + o, 0, fused_padding);
            places.done(o);
        }
        return;
    }
    // A unit the loop does not handle: every such unit normalizes to non-ASCII bytes, so the
    // region ended above; normalize the rest and resume the token pass where it stands.
    if constexpr (record) places.tail(o);
    const std::size_t end = static_cast<std::size_t>(fused_normalize_from(in, i, out + o, opt) - out);
    const std::string_view t(out, end);
    std::size_t pos = o;
    if (in_run) pos = fused_cjk_run(t, run_start, prev, o, count, emit);
    fused_bigrams_from(t, pos, emit);
    if constexpr (record) places.done(end);
}

/// Simhash votes of unweighted features, as bit-sliced counters: plane k of hash word w holds bit
/// k of the 64 lanes' counts (a 12-bit binary number per lane). Sixteen features at a time go
/// through a carry-save adder tree (Harley-Seal: 15 three-input adders of 5 operations fold them
/// into planes 0..3 and one carry word of weight 16, rippled into planes 4..11), about 5
/// operations a feature and hash word instead of 16 for a ripple-carry add of each; `add` adds
/// one feature by ripple carry. Every 4,095 features the planes move into exact 64-bit sums; a
/// text with fewer needs no per-lane work at all: `finish` compares the 64 bit-sliced counts
/// with the majority threshold in 36 word operations. It gives what `Simhash::finish` gives for
/// the same features added with weight 1: bit i is set iff the features with bit i set
/// outnumber the others.
template <std::size_t Bits>
class fused_votes {
    static constexpr std::size_t words = Bits / 64;
    static constexpr std::size_t planes = 12;
    static constexpr std::uint32_t capacity = (1u << planes) - 1;  // largest count planes hold

public:
    using hash_type = typename Fingerprint<Bits>::storage_type;

    /// Adds one feature hash (words most significant first).
    void add(const hash_type& h) noexcept {
        if (m_pending == capacity) flush();
        for (std::size_t w = 0; w < words; ++w) {
            std::uint64_t carry = h[w];
            for (std::size_t k = 0; k < planes; ++k) {
                const std::uint64_t next = m_planes[k][w] & carry;
                m_planes[k][w] ^= carry;
                carry = next;
            }
        }
        ++m_pending;
    }

    /// Adds the sixteen feature hashes `h[0..15]`.
    void add16(const hash_type* h) noexcept {
        if (m_pending > capacity - 16) flush();
        // Each step runs over the words side by side (one vector operation at 128 bits).
        lanes ones, twos, fours, eights, twos_a, twos_b, fours_a, fours_b, eights_a, eights_b, sixteens;
        for (std::size_t w = 0; w < words; ++w) {
            ones[w] = m_planes[0][w];
            twos[w] = m_planes[1][w];
            fours[w] = m_planes[2][w];
            eights[w] = m_planes[3][w];
        }
        csa(twos_a, ones, ones, h[0], h[1]);
        csa(twos_b, ones, ones, h[2], h[3]);
        csa(fours_a, twos, twos, twos_a, twos_b);
        csa(twos_a, ones, ones, h[4], h[5]);
        csa(twos_b, ones, ones, h[6], h[7]);
        csa(fours_b, twos, twos, twos_a, twos_b);
        csa(eights_a, fours, fours, fours_a, fours_b);
        csa(twos_a, ones, ones, h[8], h[9]);
        csa(twos_b, ones, ones, h[10], h[11]);
        csa(fours_a, twos, twos, twos_a, twos_b);
        csa(twos_a, ones, ones, h[12], h[13]);
        csa(twos_b, ones, ones, h[14], h[15]);
        csa(fours_b, twos, twos, twos_a, twos_b);
        csa(eights_b, fours, fours, fours_a, fours_b);
        csa(sixteens, eights, eights, eights_a, eights_b);
        for (std::size_t w = 0; w < words; ++w) {
            m_planes[0][w] = ones[w];
            m_planes[1][w] = twos[w];
            m_planes[2][w] = fours[w];
            m_planes[3][w] = eights[w];
        }
        // No carry leaves plane 11: the count stays within `capacity`.
        for (std::size_t k = 4; k < planes; ++k)
            for (std::size_t w = 0; w < words; ++w) {
                const std::uint64_t next = m_planes[k][w] & sixteens[w];
                m_planes[k][w] ^= sixteens[w];
                sixteens[w] = next;
            }
        m_pending += 16;
    }

    /// The fingerprint of the features added.
    [[nodiscard]] Fingerprint<Bits> finish() noexcept {
        hash_type out{};
        if (m_total == 0) {
            // Bit set iff 2 * count > pending, i.e. count >= pending / 2 + 1: a bit-sliced
            // comparison of every lane with that constant, most significant plane first.
            const std::uint32_t threshold = m_pending / 2 + 1;
            for (std::size_t w = 0; w < words; ++w) {
                std::uint64_t greater = 0, equal = ~std::uint64_t{0};
                for (std::size_t k = planes; k-- > 0;) {
                    const std::uint64_t p = m_planes[k][w];
                    if (((threshold >> k) & 1u) != 0) {
                        equal &= p;
                    } else {
                        greater |= equal & p;
                        equal &= ~p;
                    }
                }
                out[w] = greater | equal;
            }
            return Fingerprint<Bits>(out);
        }
        flush();
        for (std::size_t w = 0; w < words; ++w)
            for (std::size_t j = 0; j < 64; ++j) {
                const std::uint64_t set = m_sums[w][j];
                out[w] |= std::uint64_t{set > m_total - set} << j;
            }
        return Fingerprint<Bits>(out);
    }

private:
    using lanes = std::array<std::uint64_t, words>;

    // Carry-save adder, word by word: high:low = a + b + c, bitwise (`low` may alias `a`).
    static void csa(lanes& high, lanes& low, const lanes& a, const lanes& b, const lanes& c) noexcept {
        for (std::size_t w = 0; w < words; ++w) {
            const std::uint64_t u = a[w] ^ b[w];
            high[w] = (a[w] & b[w]) | (u & c[w]);
            low[w] = u ^ c[w];
        }
    }

    void flush() noexcept {
        for (std::size_t w = 0; w < words; ++w) {
            for (std::size_t j = 0; j < 64; ++j) {
                std::uint64_t count = 0;
                for (std::size_t k = 0; k < planes; ++k) count |= ((m_planes[k][w] >> j) & 1u) << k;
                m_sums[w][j] += count;
            }
            for (std::size_t k = 0; k < planes; ++k) m_planes[k][w] = 0;
        }
        m_total += m_pending;
        m_pending = 0;
    }

    std::uint64_t m_planes[planes][words]{};  // [plane][word]
    std::uint64_t m_sums[words][64]{};
    std::uint64_t m_total = 0;
    std::uint32_t m_pending = 0;
};

/// The feature sink of `fused_fingerprint` when nothing but the fingerprint wants the features:
/// the calls to it (and the sketch's hash, where it costs extra) are compiled out.
struct fused_no_sink {
    void operator()(std::uint64_t) const noexcept {}
};

/// The raw-TF, unweighted fingerprint of `text` through the fused pass; `buf` is reused.
/// `stopwords` null means no filter. The pass records tokens (offset and length in `buf`, which
/// holds them until the end) in batches; each batch is then filtered, hashed and counted in a
/// loop without the pass's data-dependent branches, so the hashes of neighbouring tokens overlap.
/// `sink(h)` (noexcept) receives the sketch's hash (`MinHashSketcher::token_hash`, from the same
/// MurmurHash3 digest as the feature's bits: `fused_hash_keyed`) of every feature the
/// fingerprint counts (every token the stopword filter keeps), in text order; with
/// `fused_no_sink` (the default) there is no such call.
template <std::size_t Bits, HashPolicy Hash, class Sink = fused_no_sink>
[[nodiscard]] Fingerprint<Bits> fused_fingerprint(std::string_view text, std::string& buf, const normalize_options& opt,
                                                  const StopwordList* stopwords, [[maybe_unused]] Sink&& sink = Sink{}) {
    constexpr bool feed = !std::is_same_v<std::remove_cvref_t<Sink>, fused_no_sink>;
    // Phrase places for the fold's sink; every token and its place for it and the skip's.
    constexpr bool places = fused_records_places<Sink>;
    constexpr bool tokens = fused_observes_tokens<Sink>;
    constexpr std::size_t batch_size = 128;
    // The recorded tokens, in one object so that the pass reaches them through one pointer.
    struct alignas(64) {
        std::uint32_t offsets[batch_size];
        std::uint32_t lengths[batch_size];
        std::size_t pending = 0;
        const char* base = nullptr;
    } batch;
    fused_votes<Bits> acc;
    const StopwordList* list = (stopwords != nullptr && !stopwords->empty()) ? stopwords : nullptr;
    // The list's prefilter, held here for the loop (a bit per key prefix, see StopwordList).
    const std::uint64_t* const filter = list != nullptr ? list->prefilter().data() : nullptr;
    // The bundled list (immutable) is also held as a table that is read inline.
    const fused_bundled_stopwords* const bundled =
        list != nullptr && list == bundled_stopwords().get() ? &fused_bundled_stopword_table() : nullptr;
    // True when the token is not a stopword, i.e. is counted.
    auto keep = [&](const char* p, std::size_t n) noexcept {
        constexpr unsigned bits = StopwordList::prefilter_bits;
        const std::uint64_t key = fused_stopword_key(p, n);
        if (((filter[key >> (64 - bits + 6)] >> ((key >> (64 - bits)) & 63)) & 1u) == 0) return true;
        if (bundled != nullptr && n <= fused_bundled_stopwords::max_length) return !bundled->contains(p, n, key);
        return !list->contains(std::string_view(p, n));
    };
    auto run_batch = [&]() {
        // Hash the batch first (independent iterations that overlap), then count the votes
        // sixteen at a time.
        typename fused_votes<Bits>::hash_type hashes[batch_size];
        std::size_t m = 0;
        constexpr bool split = fused_split_mix<Bits, Hash>;
        // The feature's bits, and with a sink the sketch's hash of the token, handed over at
        // once (in text order).
        auto hash = [&](const char* p, std::size_t n) noexcept {
            if constexpr (tokens) {
                const fused_keyed_hash<Bits> h = fused_hash_keyed<Bits, Hash>(p, n);
                sink.add(h.token_hash, p, n);
                return h.bits;
            } else if constexpr (feed) {
                const fused_keyed_hash<Bits> h = fused_hash_keyed<Bits, Hash>(p, n);
                sink(h.token_hash);
                return h.bits;
            } else if constexpr (split) {
                return fused_murmur3_words(p, n);
            } else {
                return fused_feature_bits<Bits, Hash>(p, n);
            }
        };
        if constexpr (places)
            if (batch.pending != 0)
                sink.batch(batch.base + batch.offsets[batch.pending - 1] + batch.lengths[batch.pending - 1]);
        if (list == nullptr) {
            // No filter: a loop the compiler keeps free of the filter's calls and branches.
            for (std::size_t k = 0; k < batch.pending; ++k)
                hashes[k] = hash(batch.base + batch.offsets[k], batch.lengths[k]);
            m = batch.pending;
        } else {
            for (std::size_t k = 0; k < batch.pending; ++k) {
                const char* p = batch.base + batch.offsets[k];
                const std::size_t n = batch.lengths[k];
                if (!keep(p, n)) {
                    // The sink hears of counted tokens through `add`, of the others here.
                    if constexpr (tokens) sink.scan(p, n);
                    continue;
                }
                hashes[m++] = hash(p, n);
            }
        }
        if constexpr (split) fused_mix_murmur3_batch(hashes, m);
        std::size_t k = 0;
        for (; k + 16 <= m; k += 16) acc.add16(hashes + k);
        for (; k < m; ++k) acc.add(hashes[k]);
        batch.pending = 0;
    };
    // Beyond 32-bit offsets (texts over 4 GiB) a token is counted at once (votes add up in any
    // order); out of line and cold, so that `emit` stays small enough to be inlined.
    auto far = [&](const char* p, std::size_t n) __attribute__((noinline, cold)) {
        if constexpr (feed) run_batch();  // the sink sees the features in text order
        if (list == nullptr || keep(p, n)) {
            if constexpr (feed) {
                const fused_keyed_hash<Bits> h = fused_hash_keyed<Bits, Hash>(p, n);
                if constexpr (tokens) sink.add(h.token_hash, p, n);
                else sink(h.token_hash);
                // fused_split_mix's words, mixed into the feature's bits.
                typename fused_votes<Bits>::hash_type bits = h.bits;
                if constexpr (fused_split_mix<Bits, Hash>) fused_mix_murmur3(bits);
                acc.add(bits);
            } else {
                acc.add(fused_feature_bits<Bits, Hash>(p, n));
            }
        } else if constexpr (tokens) {
            sink.scan(p, n);
        }
    };
    auto emit = [&](const char* p, std::size_t n) {
        if (static_cast<std::size_t>(p - batch.base) > 0xFFFFFFFFu || n > 0xFFFFFFFFu) [[unlikely]] return far(p, n);
        batch.offsets[batch.pending] = static_cast<std::uint32_t>(p - batch.base);
        batch.lengths[batch.pending] = static_cast<std::uint32_t>(n);
        if (++batch.pending == batch_size) run_batch();
    };
    if (buf.size() < fused_buffer_size(text.size())) buf.resize(fused_buffer_size(text.size()));
    batch.base = buf.data();
    if constexpr (places) {
        sink.set_base(buf.data(), text.size());
        fused_pass(text, buf, opt, emit, sink);
    } else {
        fused_pass(text, buf, opt, emit);
    }
    run_batch();
    return acc.finish();
}

}  // namespace detail
}  // namespace v0
}  // namespace semfp
