#pragma once
/// \file
/// The variant-side skip of the sketch (`signature_options::sketch_skip_variants`): the sketch
/// leaves out every token that shares a character with a Taiwan-variant word, computed in the
/// fused pass of the fingerprint.
///
/// Why. A Taiwan-phrased copy of a mainland text (zi-xun for xin-xi "information", shi-yong-zhe
/// for yong-hu "user", si-fu-qi for fu-wu-qi "server") differs from it in those words and in the
/// two bigrams around each, which share a character with the word. Folding the phrases back
/// (`sketch_fold_phrases`) finds where each phrase starts and ends and rebuilds the tokens around
/// it, which costs about 0.35 of a fingerprint. Leaving the variant side's vocabulary out of the
/// sketch needs no phrase boundaries: a token is left out when it overlaps an occurrence of a
/// bigram of that vocabulary, which is known one token later. The representatives (xin-xi,
/// yong-hu, wen-jian, ...) stay in every sketch, so mainland text loses little
/// (bench/results/two_stage.md: 6.7 % of the tokens of the evaluation texts).
///
/// Definition (what `SignatureFingerprinter::reference` computes):
/// - V: the character bigrams of the `from` side of every phrase of two or more characters of
///   `tw_phrase_table` (the character-folded variant forms), less every bigram that also occurs in
///   a representative (`to`) of two or more characters. Every member is two three-byte
///   characters (six bytes).
/// - An occurrence: two adjacent characters of the normalized text forming a member of V. In a
///   run of CJK characters every adjacent pair is a bigram token, so the occurrences are the
///   tokens (counted or stopwords) whose six bytes are in V.
/// - The sketch holds the counted tokens that overlap no occurrence. A text with fewer than
///   `MinHashSketcher::short_tokens` counted tokens, or with fewer than that left, keeps its
///   default sketch (all its tokens, or its short view).

#include <semfp/core/sketch.hpp>
#include <semfp/core/sketch_phrase_fold.hpp>
#include <semfp/detail/tw_phrase_table.hpp>
#include <semfp/detail/utf8_codec.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>
#include <vector>

namespace semfp {
inline namespace v0 {
namespace detail {

/// The six bytes at `p`, little-endian (as `sketch_utf8_key3` makes a pair's key).
[[nodiscard]] inline std::uint64_t sketch_six_bytes(const char* p) noexcept {
    std::uint64_t k = 0;
    for (std::size_t i = 0; i < 6; ++i) k |= std::uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
    return k;
}

/// V (see the file comment): its members' six bytes (little-endian, sorted), two 64 Ki-bit
/// filters of them: by the top 16 bits of the member's `MinHashSketcher::token_hash` (for counted
/// tokens, whose hash the pass has) and by `sketch_pair_slot` of its bytes (for stopwords), and
/// an open-addressing table of the bytes for the exact test after a filter's hit (658 members:
/// a third of 2,048 slots; 1 % of other tokens pass a filter).
struct sketch_variant_table {
    static constexpr std::size_t probe_slots = 2048;  ///< open addressing, linear probing
    std::vector<std::uint64_t> keys;
    std::array<std::uint64_t, 1024> by_hash{};
    std::array<std::uint64_t, 1024> by_bytes{};
    std::array<std::uint64_t, probe_slots> probe{};  ///< the keys (0: empty; no key is 0)

    /// True when the six bytes `key` are a member of V.
    [[nodiscard]] bool contains(std::uint64_t key) const noexcept {
        for (std::size_t i = sketch_pair_slot(key) >> 5;; i = (i + 1) & (probe_slots - 1)) {
            if (probe[i] == key) return true;
            if (probe[i] == 0) return false;
        }
    }
};

/// V, built at first use from `tw_phrase_table`.
[[nodiscard]] inline const sketch_variant_table& sketch_variants() {
    static const sketch_variant_table table = [] {
        sketch_variant_table t;
        std::vector<std::uint64_t> reps;
        for (const auto& p : tw_phrase_table) {
            for (std::size_t i = 0; i + 1 < p.from.size(); ++i)
                t.keys.push_back(sketch_utf8_key3(p.from[i]) | (sketch_utf8_key3(p.from[i + 1]) << 24));
            // The representative, decoded (its characters are three-byte ones when it is a phrase
            // of two or more characters; any other pair cannot be a member anyway).
            std::uint64_t prev = 0;
            bool have = false;
            for (std::size_t i = 0; i < p.to.size();) {
                const utf8_decoded d = utf8_decode(p.to, i);
                const bool three = d.valid && d.length == 3;
                const std::uint64_t k = three ? sketch_utf8_key3(d.code_point) : 0;
                if (have && three) reps.push_back(prev | (k << 24));
                prev = k;
                have = three;
                i += d.length;
            }
        }
        std::sort(t.keys.begin(), t.keys.end());
        t.keys.erase(std::unique(t.keys.begin(), t.keys.end()), t.keys.end());
        std::sort(reps.begin(), reps.end());
        std::vector<std::uint64_t> kept;
        std::set_difference(t.keys.begin(), t.keys.end(), reps.begin(), reps.end(), std::back_inserter(kept));
        t.keys = std::move(kept);
        for (const std::uint64_t k : t.keys) {
            char bytes[6];
            for (std::size_t i = 0; i < 6; ++i) bytes[i] = static_cast<char>((k >> (8 * i)) & 0xFFu);
            const std::uint64_t h = MinHashSketcher::token_hash(std::string_view(bytes, 6)) >> 48;
            t.by_hash[h >> 6] |= std::uint64_t{1} << (h & 63);
            const std::uint32_t s = sketch_pair_slot(k);
            t.by_bytes[s >> 6] |= std::uint64_t{1} << (s & 63);
            std::size_t i = s >> 5;
            while (t.probe[i] != 0) i = (i + 1) & (sketch_variant_table::probe_slots - 1);
            t.probe[i] = k;
        }
        return t;
    }();
    return table;
}

/// The sink of `fused_fingerprint` that makes the variant-side skip's sketch in `sketcher`: it
/// hears of every token in text order (`add` for counted ones with their sketch hash, `scan` for
/// stopwords), keeps the last counted token until the next token is known (only the next one can
/// overlap it), and adds it to the sketch unless it overlaps an occurrence. Allocates nothing.
/// Offsets are compared as addresses of one buffer.
class sketch_skip_sink {
public:
    /// Tells `fused_fingerprint` to report every token with its place.
    static constexpr bool observes_tokens = true;

    explicit sketch_skip_sink(MinHashSketcher& sketcher) noexcept
        : m_sketcher(sketcher), m_table(sketch_variants()), m_by_hash(m_table.by_hash.data()) {}

    /// A counted token at `p` of `n` bytes, with its `MinHashSketcher::token_hash` `h`.
    [[gnu::always_inline]] void add(std::uint64_t h, const char* p, std::size_t n) noexcept {
        const std::uint64_t s = h >> 48;
        const auto at = reinterpret_cast<std::uintptr_t>(p);
        if (((m_by_hash[s >> 6] >> (s & 63)) & 1u) != 0 && n == 6) [[unlikely]]
            occurrence_if_member(p);
        settle();
        m_pending = h;
        m_pending_end = at + n;
        m_pending_out = at < m_occ_end;
    }

    /// A token the stopword filter removed, at `p` of `n` bytes. Reads eight bytes at `p` (the
    /// pass's buffer has room after the text).
    void scan(const char* p, std::size_t n) noexcept {
        if (n == 6) {
            const std::uint32_t s = sketch_pair_slot(fused_load_le64(p) & 0xFFFFFFFFFFFFull);
            if (((m_table.by_bytes[s >> 6] >> (s & 63)) & 1u) != 0) [[unlikely]]
                occurrence_if_member(p);
        }
        settle();
        m_pending_out = true;  // nothing pending: the next settle adds nothing
        m_pending_end = 0;
        m_phantom = true;
    }

    /// Decides the last token. When fewer than `MinHashSketcher::short_tokens` tokens were kept,
    /// the text keeps its default sketch: the tokens left out go back to the sketcher, which then
    /// holds every counted token (short or not, as without the skip). False when that cannot be
    /// done here (more than `held` tokens left out, a rare text): the caller makes the default
    /// sketch itself.
    [[nodiscard]] bool finish() noexcept {
        settle();
        if (!m_sketcher.is_short()) return true;
        if (m_skipped > held) return false;
        for (std::size_t i = 0; i < m_skipped; ++i) m_sketcher.add_hash(m_out[i]);
        return true;
    }
    /// Left-out tokens the sink keeps for `finish`.
    static constexpr std::size_t held = 64;

private:
    // The token at `p` is an occurrence when its six bytes are in V; it takes the pending token
    // out when they overlap.
    [[gnu::noinline]] void occurrence_if_member(const char* p) noexcept {
        if (!m_table.contains(fused_load_le64(p) & 0xFFFFFFFFFFFFull)) return;
        const auto at = reinterpret_cast<std::uintptr_t>(p);
        if (at < m_pending_end) m_pending_out = true;
        m_occ_end = std::max(m_occ_end, at + 6);
    }

    // The pending token is final once the next token is known (only the next one can overlap
    // it). With none pending (at the start, after a stopword) a phantom is, marked out.
    [[gnu::always_inline]] void settle() noexcept {
        if (!m_pending_out) [[likely]]
            m_sketcher.add_hash(m_pending);
        else
            skip();
    }
    [[gnu::noinline]] void skip() noexcept {
        if (m_phantom) {
            m_phantom = false;
            return;
        }
        if (m_skipped < held) m_out[m_skipped] = m_pending;
        ++m_skipped;
    }

    MinHashSketcher& m_sketcher;
    const sketch_variant_table& m_table;
    const std::uint64_t* m_by_hash;
    std::uint64_t m_pending = 0;
    std::uintptr_t m_pending_end = 0;
    std::uintptr_t m_occ_end = 0;  // end of the last occurrence
    std::size_t m_skipped = 0;
    std::array<std::uint64_t, held> m_out{};  // the first left-out tokens' hashes
    bool m_pending_out = true;
    bool m_phantom = true;
};

}  // namespace detail
}  // namespace v0
}  // namespace semfp
