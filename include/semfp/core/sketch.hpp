#pragma once
/// \file
/// `MinHashSketch`: a 132-byte estimate of the Jaccard similarity of two feature sets, the
/// second stage of two-stage near-duplicate detection. A hybrid: the exact set of 32-bit feature
/// hashes when a text has at most 32 distinct features, a b-bit MinHash above that.
///
/// Why this design. Simhash puts documents that share vocabulary close together, so beyond the
/// recommended distance it cannot tell a heavily edited copy from a same-site article; a set
/// similarity of the same features can. Exact Jaccard needs the feature sets (hundreds of bytes
/// to kilobytes per document); a k-permutation MinHash needs k hashes per feature (128 x the cost
/// of the fingerprint). One-permutation hashing (Li, Owen and Zhang 2012) hashes each feature
/// once: the top 7 bits of its 32-bit hash pick one of 128 bins, the bin keeps its smallest
/// remaining 25 bits; empty bins are filled by optimal densification (Shrivastava 2017: bin i
/// borrows the value of the first non-empty bin of a fixed pseudo-random sequence seeded by i,
/// the same in every document), so the 128 bins behave like 128 MinHash values. Only 8 mixed
/// bits of each minimum are kept (b-bit MinHash, Li and Koenig 2010): two bins agree with
/// probability J + (1 - J) / 256, and the estimate corrects for it. The cost per feature is one
/// 64-bit hash and one compare, which keeps fingerprint + sketch within the budget of the
/// fingerprint alone.
///
/// Short texts. Densified bins of small sets are correlated, and a title or a line of verse has
/// a few dozen features: there the b-bit estimate is off by 0.02-0.04 on average and up to 0.3
/// (bench/results/two_stage.md). The same 128 bytes hold 32 hashes of 32 bits, so a text with at
/// most 32 distinct features keeps its whole set ("exact" sketch). Because the MinHash bins are
/// a function of the 32-bit hashes alone, the bins of an exact sketch can be computed from it
/// (`values()`), and any two sketches stay comparable.
///
/// Size: 132 bytes per document: 128 bytes (bins, or up to 32 little-endian hashes) and one
/// 32-bit word (occurrences, saturating at 2^26 - 1, in the low 26 bits; the exact set's size,
/// 0 for a MinHash sketch, in the top 6).
///
/// Accuracy of `estimated_jaccard`:
/// - both sketches exact: the Jaccard similarity of the 32-bit hash sets, which differs from the
///   exact one only if two distinct features of the pair collide in 32 bits (probability below
///   64^2 / 2^33 < 5e-7 per pair);
/// - otherwise (b-bit MinHash): each bin agrees with probability p = J + (1 - J) / 256; the
///   estimate (matches / 128 - 1/256) / (1 - 1/256) has standard deviation about
///   sqrt(p (1 - p) / 128) / (1 - 1/256), at most 0.045 (J = 0.5), 0.035 at J = 0.2 or 0.8; by
///   Hoeffding's bound for independent bins it is more than 0.15 off with probability below
///   0.6 %. Measured against exact Jaccard in bench/results/two_stage.md.
///
/// Feature hashes. The sketch keeps the top 32 bits of a 64-bit feature hash, the high word of
/// the feature's MurmurHash3 x64_128 digest (`MinHashSketcher::token_hash`), in both views of a
/// text (`MinHashSketcher`):
/// - a whole token (texts of at least 30 tokens): with the default hash policy
///   (`Mixed<Murmur3>`, or `Murmur3`) the fingerprint's feature hash comes from the same digest
///   (its low word, mixed, at 64 bits; both words mixed together at 128), so the fused pass
///   (`SignatureFingerprinter`) gets the key of a token for free instead of hashing its bytes a
///   second time (the FNV-1a hash and finalizer used before cost about 0.2 of a fingerprint);
///   with another policy it computes the digest for the sketch alone. On 2 million random and
///   CJK tokens the key's bits agree with the Simhash's feature bits no more often than those
///   of an independent hash do (bench/results/two_stage.md);
/// - a character bigram of a short text (`MinHashSketcher::for_each_text_bigram`): the digest of
///   its two characters' bytes, so a bigram equal to a whole token of a long text (a two-
///   character word) is the same feature in both views, and a short text can match its variant
///   of 30 tokens or more.
/// Identical on every platform. `SignatureFingerprinter` sketches a text of at least 30 tokens
/// by its whole tokens and a shorter one by the character bigrams of its normalized text
/// (`MinHashSketcher::finish(normalized)`): a one-letter edit of a short title then changes two
/// features, not a whole word. Saved signatures of these feature sets and hashes are format 5
/// (index/signature_file.hpp).

#include <semfp/core/hash.hpp>
#include <semfp/detail/utf8_codec.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace semfp {
inline namespace v0 {

namespace detail {

inline constexpr std::size_t sketch_bins = 128;
inline constexpr std::uint32_t sketch_empty_bin = ~std::uint32_t{0};
/// Texts with fewer tokens are sketched in the short view (MinHashSketcher::short_tokens).
inline constexpr std::uint32_t sketch_short_tokens = 30;
using sketch_minima = std::array<std::uint32_t, sketch_bins>;

/// Minima of no feature yet.
[[nodiscard]] constexpr sketch_minima sketch_filled() noexcept {
    sketch_minima a{};
    a.fill(sketch_empty_bin);
    return a;
}

/// The bin (top 7 bits) and the value (low 25 bits) of a 32-bit feature hash.
constexpr void sketch_take(sketch_minima& m, std::uint32_t k) noexcept {
    const std::size_t bin = k >> 25;
    const std::uint32_t v = k & ((std::uint32_t{1} << 25) - 1);
    // Unconditional store: whether a feature lowers its bin's minimum follows no pattern a
    // branch predictor can learn (bench/results/two_stage.md).
    m[bin] = v < m[bin] ? v : m[bin];
}

/// The 8 bits kept of a bin's minimum `v` (own: attempt 0; borrowed: the attempt that found it).
/// Mixed before truncating: the minimum's low bits alone are biased towards zero.
[[nodiscard]] constexpr std::uint8_t sketch_bits(std::uint32_t v, std::uint64_t attempt) noexcept {
    return static_cast<std::uint8_t>(fmix64((attempt << 32) | v) >> 56);
}

/// Bin `i`'s probe number `attempt` of the densification: the bin it borrows from then. A
/// function of (i, attempt) only, so two documents borrow alike.
[[nodiscard]] constexpr std::size_t sketch_probe(std::size_t i, std::uint64_t attempt) noexcept {
    return static_cast<std::size_t>(fmix64((static_cast<std::uint64_t>(i) << 32) | attempt) >> 57);
}

/// The 8 bits an empty bin `i` borrows: from the first non-empty bin of its probe sequence
/// (attempts 1..4096), else (unreachable in practice: each attempt fails with probability
/// < 127/128) from the next non-empty bin in cyclic order, which keeps the result defined.
[[nodiscard]] constexpr std::uint8_t sketch_borrow(const sketch_minima& m, std::size_t i) noexcept {
    for (std::uint64_t attempt = 1; attempt <= 4096; ++attempt) {
        const std::size_t j = sketch_probe(i, attempt);
        if (m[j] != sketch_empty_bin) return sketch_bits(m[j], attempt);
    }
    for (std::size_t s = 1; s < sketch_bins; ++s) {
        const std::size_t j = (i + s) % sketch_bins;
        if (m[j] != sketch_empty_bin) return sketch_bits(m[j], 4096 + s);
    }
    return 0;
}

/// Attempts covered by `sketch_probe_table` (a first visit packs as (attempt << 7) | bin into
/// 16 bits below the "none" mark 0xFFFF).
inline constexpr std::uint64_t sketch_table_attempts = 510;

/// `first[j][i]`: (a << 7) | j for the first attempt a <= `sketch_table_attempts` at which
/// bin i's probe sequence reaches bin j, 0xFFFF if none does. 32 KB.
struct sketch_probe_table {
    std::array<std::array<std::uint16_t, sketch_bins>, sketch_bins> first;
};

/// The probe table, computed on first use (128 x 510 mixes, well under a millisecond).
[[nodiscard]] inline const sketch_probe_table& sketch_probes() noexcept {
    static const sketch_probe_table table = [] {
        sketch_probe_table t;
        for (auto& row : t.first) row.fill(0xFFFF);
        // Downwards, so the first visit is written last.
        for (std::uint64_t a = sketch_table_attempts; a >= 1; --a)
            for (std::size_t i = 0; i < sketch_bins; ++i) {
                const std::size_t j = sketch_probe(i, a);
                t.first[j][i] = static_cast<std::uint16_t>((a << 7) | j);
            }
        return t;
    }();
    return table;
}

/// Non-empty minima at or below which `sketch_densify` uses the probe table (always so for an
/// exact sketch's bins: at most 32 hashes).
inline constexpr std::size_t sketch_sparse_bins = 32;

/// `sketch_densify` of minima with few non-empty bins: an empty bin borrows from the non-empty
/// bin its probe sequence reaches first, which is the smallest `first[j][i]` over the non-empty
/// bins j (one vectorizable minimum per non-empty bin instead of about 128 / non-empty probes,
/// each a mix and a mispredicted branch, per empty bin). Same result as the probe walk.
[[nodiscard]] inline std::array<std::uint8_t, sketch_bins> sketch_densify_sparse(const sketch_minima& m) noexcept {
    const sketch_probe_table& t = sketch_probes();
    std::array<std::uint16_t, sketch_bins> first;
    first.fill(0xFFFF);
    for (std::size_t j = 0; j < sketch_bins; ++j) {
        if (m[j] == sketch_empty_bin) continue;
        const auto& row = t.first[j];
        for (std::size_t i = 0; i < sketch_bins; ++i) first[i] = first[i] < row[i] ? first[i] : row[i];
    }
    std::array<std::uint8_t, sketch_bins> out{};
    for (std::size_t i = 0; i < sketch_bins; ++i) {
        const bool own = m[i] != sketch_empty_bin;
        if (!own && first[i] == 0xFFFF) {
            out[i] = sketch_borrow(m, i);
            continue;
        }
        const std::size_t j = own ? i : std::size_t{first[i] & 127u};
        const std::uint64_t attempt = own ? 0 : std::uint64_t{first[i]} >> 7;
        out[i] = sketch_bits(m[j], attempt);
    }
    return out;
}

/// The 128 b-bit values of non-empty minima, with optimal densification: the probe sequence
/// is a function of (bin, attempt) only, so two documents borrow alike.
[[nodiscard]] constexpr std::array<std::uint8_t, sketch_bins> sketch_densify(const sketch_minima& m) noexcept {
    if (!std::is_constant_evaluated()) {
        std::size_t filled = 0;
        for (const std::uint32_t v : m) filled += v != sketch_empty_bin ? 1u : 0u;
        if (filled <= sketch_sparse_bins) return sketch_densify_sparse(m);
    }
    std::array<std::uint8_t, sketch_bins> out{};
    for (std::size_t i = 0; i < sketch_bins; ++i)
        out[i] = m[i] != sketch_empty_bin ? sketch_bits(m[i], 0) : sketch_borrow(m, i);
    return out;
}

}  // namespace detail

/// A similarity sketch of a set of features, 132 bytes: the exact set of 32-bit feature hashes
/// when there are at most 32 distinct features, otherwise a b-bit one-permutation MinHash of 128
/// bins of 8 bits; and the number of features added (occurrences, not distinct). A regular value
/// type.
class MinHashSketch {
public:
    /// Number of bins.
    static constexpr std::size_t bins = detail::sketch_bins;
    /// Bits kept per bin.
    static constexpr unsigned bin_bits = 8;
    /// Largest set kept exactly (32 hashes of 32 bits fill the 128 bytes of the bins).
    static constexpr std::size_t exact_capacity = 32;
    /// Bytes per document when saved: `payload()` and `state()`.
    static constexpr std::size_t saved_bytes = bins + 4;
    /// Largest occurrence count kept (counts saturate here).
    static constexpr std::uint32_t max_features = (std::uint32_t{1} << 26) - 1;
    using bins_type = std::array<std::uint8_t, bins>;

    /// The sketch of the empty set.
    constexpr MinHashSketch() noexcept = default;
    /// A MinHash sketch from its bins; `features == 0` means the empty set.
    constexpr MinHashSketch(const bins_type& values, std::uint32_t features) noexcept
        : m_payload(values), m_state(features < max_features ? features : max_features) {}

    /// An exact sketch of `set_size` (1..32) distinct hashes given in ascending order in
    /// `hashes`, with `features` occurrences (at least `set_size`).
    [[nodiscard]] static constexpr MinHashSketch exact(const std::uint32_t* hashes, std::size_t set_size,
                                                       std::uint32_t features) noexcept {
        MinHashSketch s;
        for (std::size_t i = 0; i < set_size; ++i)
            for (std::size_t b = 0; b < 4; ++b) s.m_payload[4 * i + b] = static_cast<std::uint8_t>(hashes[i] >> (8 * b));
        const std::uint32_t f = features < max_features ? features : max_features;
        s.m_state = f | static_cast<std::uint32_t>(set_size << 26);
        return s;
    }

    /// A sketch from its saved form (`payload()`, `state()`); false (and `out` untouched) if the
    /// parts are not a valid sketch: an exact set larger than 32, of no occurrence, larger than
    /// its occurrence count allows (from 30 occurrences on, where the set holds whole tokens), or
    /// not strictly ascending.
    [[nodiscard]] static constexpr bool from_saved(const bins_type& payload, std::uint32_t state,
                                                   MinHashSketch& out) noexcept {
        MinHashSketch s;
        s.m_payload = payload;
        s.m_state = state;
        const std::size_t n = s.set_size();
        // A text of at least 30 tokens (MinHashSketcher::short_tokens) is sketched in whole
        // tokens, so its set cannot outnumber its occurrences; a shorter one's bigrams can.
        if (n > exact_capacity || (n != 0 && (s.features() == 0 || (s.features() >= detail::sketch_short_tokens && s.features() < n))))
            return false;
        for (std::size_t i = 1; i < n; ++i)
            if (s.set_hash(i) <= s.set_hash(i - 1)) return false;
        if (n != 0)
            for (std::size_t i = 4 * n; i < bins; ++i)
                if (payload[i] != 0) return false;
        out = s;
        return true;
    }

    /// The 128 MinHash bin values (of an exact sketch: computed from its set, as the sketcher
    /// would have made them).
    [[nodiscard]] constexpr bins_type values() const noexcept {
        if (!is_exact()) return m_payload;
        detail::sketch_minima m{};
        m.fill(detail::sketch_empty_bin);
        for (std::size_t i = 0; i < set_size(); ++i) detail::sketch_take(m, set_hash(i));
        return detail::sketch_densify(m);
    }
    /// Number of features added (occurrences, saturating at `max_features`); 0 for an empty text.
    [[nodiscard]] constexpr std::uint32_t features() const noexcept { return m_state & max_features; }
    [[nodiscard]] constexpr bool empty() const noexcept { return features() == 0; }
    /// True if the sketch holds its whole set (at most 32 distinct features).
    [[nodiscard]] constexpr bool is_exact() const noexcept { return set_size() != 0; }
    /// Size of the exact set; 0 for a MinHash sketch.
    [[nodiscard]] constexpr std::size_t set_size() const noexcept { return m_state >> 26; }
    /// The i-th hash of the exact set (ascending), `i < set_size()`.
    [[nodiscard]] constexpr std::uint32_t set_hash(std::size_t i) const noexcept {
        std::uint32_t h = 0;
        for (std::size_t b = 0; b < 4; ++b) h |= static_cast<std::uint32_t>(m_payload[4 * i + b]) << (8 * b);
        return h;
    }
    /// The 128 stored bytes (bins, or the exact set's hashes, little-endian, zero-padded).
    [[nodiscard]] constexpr const bins_type& payload() const noexcept { return m_payload; }
    /// The stored word: occurrences in the low 26 bits, the exact set's size in the top 6.
    [[nodiscard]] constexpr std::uint32_t state() const noexcept { return m_state; }

    friend constexpr bool operator==(const MinHashSketch&, const MinHashSketch&) noexcept = default;

private:
    bins_type m_payload{};
    std::uint32_t m_state = 0;
};

/// Builds a `MinHashSketch` from features added one at a time. Allocation-free, noexcept.
///
/// Two views of a text. A text of at least `short_tokens` tokens (`add_token`) is sketched with
/// its whole tokens; a shorter one, when `finish` is given its normalized text, with the
/// character bigrams of that text, white space removed (`for_each_text_bigram`). Short texts
/// need the bigrams: a title's few words are most of its features, a one-letter edit would lose
/// a whole word, and punctuation and stopwords carry what tells two template lines apart (on the
/// short-text set the bigrams of the text separate near-duplicates from the rest completely,
/// the tokens do not; bench/results/two_stage.md). Long texts keep whole tokens, which tell
/// apart English-heavy documents that share many letter pairs. Both views hash a feature's
/// bytes by `token_hash`, the hash the fingerprint pass computes for a token anyway (which keeps
/// the sketch of a long text nearly free), so a text bigram and an equal token (a two-character
/// word) are one feature: a short text and a long one compare on the features they share (the
/// long view's tokens are stopword-filtered and hold whole ASCII words, the short view's bigrams
/// hold white space-free pairs across punctuation and stopwords, so such pairs share fewer
/// features than two texts of one view). `features()` of the sketch (the token count) tells
/// which view it holds; the rule uses the short threshold when either text is short.
class MinHashSketcher {
public:
    /// Texts with fewer tokens than this are sketched in the short view (`finish(normalized)`).
    static constexpr std::uint32_t short_tokens = detail::sketch_short_tokens;

    /// The hash of a token in the whole-token view (the sketch keeps its top 32 bits): the high
    /// word of its MurmurHash3 x64_128 digest (`Murmur3::hash128(token).hi`), which the fused
    /// fingerprint pass computes for the fingerprint anyway.
    [[nodiscard]] static constexpr std::uint64_t token_hash(std::string_view token) noexcept {
        return Murmur3::hash128(token).hi;
    }

    /// Adds one occurrence of `feature` to the whole-token view (as `add_token`; repeats do not
    /// change the set, only `features()`).
    constexpr void add(std::string_view feature) noexcept { add_token(feature); }

    /// Calls `f(h)` with the features of the short view of the normalized text `text`: the
    /// `token_hash` of the bytes of every pair of neighbouring characters once ASCII white space is
    /// removed, in text order, repeats included; a text of one character gives that
    /// character's hash, a text of white space nothing. Characters are split as
    /// `detail::utf8_decode` splits them: a well-formed UTF-8 sequence is one character; a byte
    /// that does not start one (a stray continuation byte, C0, C1, F5-FF, an overlong form, a
    /// surrogate, a sequence cut short) is one character made of that byte alone, hashed as
    /// the raw byte (not as U+FFFD), as the normalizer copies it. O(bytes); never reads beyond
    /// `text`.
    template <class F>
    static constexpr void for_each_text_bigram(std::string_view text, F&& f) noexcept {
        std::size_t prev = 0, prev_len = 0, chars = 0;
        std::uint64_t prev_bits = 0;
        for (std::size_t i = 0; i < text.size();) {
            const auto u = static_cast<unsigned char>(text[i]);
            if (u == ' ' || (u >= 0x09 && u <= 0x0D)) {
                ++i;
                continue;
            }
            // The shared decoder's rule: a well-formed sequence is one character; a byte that
            // does not start one (malformed, overlong, surrogate, cut by the end) is one
            // character of its own.
            const std::size_t n = u < 0x80 ? 1 : detail::utf8_decode(text, i).length;
            // The pair's bytes packed little-endian (at most 4 + 4): MurmurHash3's tail path on
            // them is `token_hash` of the joined bytes, without a copy or the byte loop.
            std::uint64_t cur = 0;
            for (std::size_t k = 0; k < n; ++k)
                cur |= std::uint64_t{static_cast<unsigned char>(text[i + k])} << (8 * k);
            if (chars != 0) f(packed_hash(prev_bits | (cur << (8 * prev_len)), prev_len + n));
            prev_bits = cur;
            prev = i;
            prev_len = n;
            ++chars;
            i += n;
        }
        if (chars == 1) f(token_hash(text.substr(prev, prev_len)));
    }

    /// Adds one token (one occurrence: `features()` counts tokens) to the whole-token view, by
    /// its `token_hash`. What `SignatureFingerprinter` adds for each token (the fused pass adds
    /// the same hash through `add_hash`).
    constexpr void add_token(std::string_view token) noexcept { add_hash(token_hash(token)); }

    /// Adds a feature by its hash (`token_hash`, or any well-mixed 64-bit hash used alike for
    /// every document compared; only the top 32 bits are used).
    [[gnu::always_inline]] constexpr void add_hash(std::uint64_t h) noexcept {
        m_view.take(h);
        if (m_count != MinHashSketch::max_features) ++m_count;
    }

    /// True while fewer than `short_tokens` features were added: `finish(normalized)` would
    /// sketch the text's bigrams (a caller can skip making the normalized text otherwise).
    [[nodiscard]] constexpr bool is_short() const noexcept { return m_count < short_tokens; }

    /// The sketch of what was added, whole features in every case; the sketcher is reset.
    [[nodiscard]] constexpr MinHashSketch finish() noexcept {
        MinHashSketch out;
        if (m_count != 0) out = m_view.sketch(m_count);
        m_view.reset();
        m_count = 0;
        return out;
    }

    /// The sketch of a text whose tokens were added, `normalized` being the normalized text they
    /// come from: below `short_tokens` tokens the character bigrams of `normalized`
    /// (`for_each_text_bigram`), else the whole tokens; no token, the empty sketch. The
    /// sketcher is reset.
    [[nodiscard]] constexpr MinHashSketch finish(std::string_view normalized) noexcept {
        if (m_count == 0 || !is_short()) return finish();
        view bigrams;
        for_each_text_bigram(normalized, [&bigrams](std::uint64_t h) noexcept { bigrams.take(h); });
        const MinHashSketch out = bigrams.sketch(m_count);
        m_view.reset();
        m_count = 0;
        return out;
    }

private:
    // `token_hash` of 1 to 8 bytes packed little-endian in `k1` (MurmurHash3 x64_128 with seed 0
    // and no full block: only the tail lane k1, then the finalization).
    [[nodiscard]] static constexpr std::uint64_t packed_hash(std::uint64_t k1, std::size_t len) noexcept {
        return detail::murmur3_finish(detail::murmur3_mix_k1(k1), 0, len).hi;
    }

    // MinHash minima and the exact set while it has at most 32 hashes.
    struct view {
        detail::sketch_minima min = detail::sketch_filled();
        std::array<std::uint32_t, MinHashSketch::exact_capacity> set{};
        std::size_t set_size = 0;

        [[gnu::always_inline]] constexpr void take(std::uint64_t h) noexcept {
            const auto k = static_cast<std::uint32_t>(h >> 32);
            detail::sketch_take(min, k);
            if (set_size <= MinHashSketch::exact_capacity) remember(k);
        }
        // Distinct hashes while there are at most 32 (a linear search: short texts only; a long
        // one overflows after its first few dozen features and stops searching).
        constexpr void remember(std::uint32_t k) noexcept {
            for (std::size_t i = 0; i < set_size; ++i)
                if (set[i] == k) return;
            if (set_size < MinHashSketch::exact_capacity) set[set_size] = k;
            ++set_size;
        }
        [[nodiscard]] constexpr MinHashSketch sketch(std::uint32_t count) noexcept {
            if (set_size <= MinHashSketch::exact_capacity) {
                std::sort(set.begin(), set.begin() + static_cast<std::ptrdiff_t>(set_size));
                return MinHashSketch::exact(set.data(), set_size, count);
            }
            return MinHashSketch(detail::sketch_densify(min), count);
        }
        constexpr void reset() noexcept {
            min.fill(detail::sketch_empty_bin);
            set_size = 0;
        }
    };

    view m_view;
    std::uint32_t m_count = 0;
};

/// Number of bins on which the MinHash values of `a` and `b` agree (0..128).
[[nodiscard]] constexpr unsigned matching_bins(const MinHashSketch& a, const MinHashSketch& b) noexcept {
    const MinHashSketch::bins_type x = a.values();
    const MinHashSketch::bins_type y = b.values();
    unsigned n = 0;
    for (std::size_t i = 0; i < MinHashSketch::bins; ++i) n += x[i] == y[i] ? 1u : 0u;
    return n;
}

/// The Jaccard similarity of the sets of two exact sketches (of their 32-bit hashes).
[[nodiscard]] constexpr double exact_set_jaccard(const MinHashSketch& a, const MinHashSketch& b) noexcept {
    const std::size_t na = a.set_size();
    const std::size_t nb = b.set_size();
    std::size_t common = 0;
    for (std::size_t i = 0, j = 0; i < na && j < nb;) {
        const std::uint32_t x = a.set_hash(i);
        const std::uint32_t y = b.set_hash(j);
        common += x == y ? 1u : 0u;
        i += x <= y ? 1u : 0u;
        j += y <= x ? 1u : 0u;
    }
    return static_cast<double>(common) / static_cast<double>(na + nb - common);
}

/// The Jaccard similarity of the feature sets of `a` and `b`, in [0, 1]: exact (up to 32-bit
/// hash collisions) when both sketches are exact, otherwise the b-bit MinHash estimate (see the
/// file comment for the error). Two empty sets have similarity 1, an empty and a non-empty one 0.
[[nodiscard]] constexpr double estimated_jaccard(const MinHashSketch& a, const MinHashSketch& b) noexcept {
    if (a.empty() || b.empty()) return a.empty() && b.empty() ? 1.0 : 0.0;
    if (a.is_exact() && b.is_exact()) return exact_set_jaccard(a, b);
    constexpr double chance = 1.0 / 256;
    const double p = static_cast<double>(matching_bins(a, b)) / static_cast<double>(MinHashSketch::bins);
    const double j = (p - chance) / (1 - chance);
    return j < 0 ? 0.0 : j;
}

}  // namespace v0
}  // namespace semfp
