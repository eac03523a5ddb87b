#pragma once
/// \file
/// `Signature<Bits>` (fingerprint + MinHash sketch), the `SignatureFingerprinter` that makes
/// both in one pass, and the two-stage rule that decides near-duplicates with them.
///
/// Why two stages. Simhash alone must stop at the distance where the first distinct pair
/// appears (`recommended_distance`), which leaves heavily edited copies out. Two stages accept
/// pairs up to a generous Hamming radius (`two_stage_rule::radius`) and let the sketch, an
/// estimate of the Jaccard similarity of the same features, decide those beyond the accept
/// distance (`two_stage_rule::min_similarity`). Both come from one normalization and one
/// tokenization: the sketch hashes the tokens the Simhash votes with, by the high word of the
/// MurmurHash3 digest the fingerprint's default hash policy computes for them anyway
/// (`MinHashSketcher::token_hash`); in a short text it hashes the character bigrams of the
/// normalized text instead (`MinHashSketcher::finish(normalized)`, by the same hash of each bigram's bytes).
///
/// Two radii. `radius` bounds the pairs the rule accepts; it is not the radius of a search.
/// `TwoStageClusterer` (and the `semfp` tool's `--verify sketch`) finds its candidates beyond
/// the accept distance through the sketch (`SketchBandIndex`), so `radius` does not set its
/// cost and may be as large as the width. An exact Hamming search used as the candidate stage
/// (`SinglePassClusterer::add` with a verifier, `HammingIndex`) must instead use
/// `exact_search_radius<Bits>()`, which caps the radius at `exact_search_limit<Bits>` (12 of 64
/// bits, 28 of 128); it then finds exactly the rule's pairs within that radius, at the cost
/// documented in hamming_index.hpp, and none beyond it.
///
/// Short texts. A text with fewer than `two_stage_rule::short_features` tokens (about 30: a
/// title, a line of verse) moves too few Simhash votes for its distance to mean much, so for
/// such pairs the distance decides nothing: the rule asks for `short_similarity` at any
/// distance. Most short texts have at most 32 distinct features, so their sketch is exact (see
/// sketch.hpp) and, between two of them, the similarity compared is the exact Jaccard
/// similarity of their feature sets; texts without any token match only each other. The values of
/// `two_stage_rule{}` are chosen on a tuning half of the evaluation pairs and confirmed on the
/// other half (bench/two_stage_quality.cpp for the kit's pairs, bench/short_text_sketch.cpp and
/// bench/short_text_quality.py for short texts; bench/results/two_stage.md).

#include <semfp/core/fingerprint.hpp>
#include <semfp/core/fingerprinter.hpp>
#include <semfp/core/fused_fingerprint.hpp>
#include <semfp/core/simhash.hpp>
#include <semfp/core/sketch.hpp>
#include <semfp/core/sketch_phrase_fold.hpp>
#include <semfp/core/sketch_variant_skip.hpp>
#include <semfp/text/normalize.hpp>
#include <semfp/text/stopwords.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace semfp {
inline namespace v0 {

/// A fingerprint and the sketch of the same features. A regular value type.
template <std::size_t Bits>
struct Signature {
    static constexpr std::size_t bits = Bits;
    Fingerprint<Bits> fingerprint{};
    MinHashSketch sketch{};

    friend constexpr bool operator==(const Signature&, const Signature&) noexcept = default;
};

/// The two-stage near-duplicate rule: within `accept_distance` bits (Simhash alone, the
/// recommended distance), or within `radius` bits and an estimated Jaccard similarity of at
/// least `min_similarity` (`short_similarity` when either text has fewer than `short_features`
/// tokens). Each part alone has no false positive on the evaluation pairs, so their union keeps
/// everything Simhash alone finds and adds what the sketch confirms.
struct two_stage_rule {
    /// Largest Hamming distance of an accepted pair (any value; the width or more: no limit).
    /// Not a search radius: see the file comment and `exact_search_radius`. Recommended: 32 of
    /// 64 bits, 40 of 128 (the 64-bit value is the default here).
    unsigned radius = 32;
    /// Pairs this close are accepted without the sketch (searched exactly by `TwoStageClusterer`:
    /// at most `HammingIndex<Bits>::max_radius`).
    unsigned accept_distance = 5;
    /// Smallest estimated Jaccard similarity of a verified pair. 0.638 (the 64-bit value;
    /// `recommended<128>()` has 0.653), by one rule at both widths: the largest negative
    /// estimate within the radius on the tuning half plus 0.045, the estimate's standard-
    /// deviation bound, rounded up to 0.001. With the sketch hash of format 5 that negative is
    /// 0.592 at 64 bits (151 / 255; 0.5922 + 0.045 -> 0.638) and 0.608 at 128 (155 / 255;
    /// 0.6078 + 0.045 -> 0.653). A MinHash estimate is (2m - 1) / 255 for m agreeing bins of
    /// 128, so 0.638 asks for 82 bins, 0.653 for 84 (bench/results/two_stage.md).
    double min_similarity = 0.638;
    /// Texts with fewer tokens than this are short.
    std::uint32_t short_features = 30;
    /// Smallest similarity when either text is short (in the short view: the Jaccard similarity
    /// of the character bigrams of the normalized texts, white space removed). 0.71, by a rule
    /// fixed before measuring: the smallest multiple of 0.01 without a false positive on the
    /// tuning half of the short-text set (0.66), plus 0.045 (the b-bit estimate's standard-
    /// deviation bound), rounded up to 0.01. The confirmation half was looked at only after
    /// (bench/short_text_quality.py --clean, bench/short_text_sketch.cpp;
    /// bench/results/two_stage.md).
    double short_similarity = 0.71;

    /// Largest radius of an exact Hamming search serving as this rule's candidate stage at `Bits`
    /// bits: 12 of 64, 28 of 128 (see `exact_search_radius`).
    template <std::size_t Bits>
    static constexpr unsigned exact_search_limit = Bits == 64 ? 12u : 28u;

    /// The radius of an exact Hamming search serving as this rule's candidate stage
    /// (`SinglePassClusterer::add(fp, id, verify)` with a verifier calling `accepts`, or
    /// `HammingIndex::for_each_within`): `radius`, capped at `exact_search_limit<Bits>` but never
    /// below `accept_distance`. Such a search finds exactly the pairs the rule accepts within
    /// that radius; pairs it accepts farther away are found by the banded stage only
    /// (`TwoStageClusterer`). The cap keeps the exact search's cost where it is documented
    /// (hamming_index.hpp: about 164 us per query at 12 of 64 bits, 2.7 ms at 28 of 128,
    /// against 1 M entries); beyond it the search approaches a scan of every entry.
    template <std::size_t Bits>
    [[nodiscard]] constexpr unsigned exact_search_radius() const noexcept {
        return std::min(radius, std::max(exact_search_limit<Bits>, accept_distance));
    }

    /// The defaults for `Bits`-bit fingerprints (see the file comment for how they were chosen):
    /// accept distance `recommended_distance<Bits>`, radius 32 of 64 bits and 40 of 128,
    /// `min_similarity` 0.638 of 64 bits and 0.653 of 128 (the tuning half's largest negative
    /// estimate within the radius + 0.045, rounded up to 0.001, at both widths). The radius is
    /// the one that finds the most pairs of the tuning half through the banded stage with no
    /// false positive and a margin of at least 0.045 (the estimate's standard deviation bound)
    /// between `min_similarity` and every negative within it (0.592 against 0.638 at 64 bits,
    /// 0.608 against 0.653 at 128); ties go to the smaller radius. On the confirmation half:
    /// zero false positives, plain and same-site (bench/results/two_stage.md).
    template <std::size_t Bits>
    [[nodiscard]] static constexpr two_stage_rule recommended() noexcept {
        two_stage_rule r;
        r.radius = Bits == 64 ? 32u : 40u;
        r.accept_distance = recommended_distance<Bits>;
        r.min_similarity = Bits == 64 ? 0.638 : 0.653;
        return r;
    }

    /// True if the sketches pass the second stage (the fingerprints are not looked at).
    [[nodiscard]] constexpr bool verifies(const MinHashSketch& a, const MinHashSketch& b) const noexcept {
        if (a.empty() || b.empty()) return a.empty() && b.empty();
        const bool is_short = a.features() < short_features || b.features() < short_features;
        return estimated_jaccard(a, b) >= (is_short ? short_similarity : min_similarity);
    }

    /// True if a pair at Hamming distance `d` with these sketches is a near-duplicate.
    /// Short texts (and empty ones) are never accepted on the distance alone, and for them the
    /// distance is not looked at: the sketch alone decides (a 5 % edit of a 30-character title
    /// moves its fingerprint beyond `radius` about one time in five; bench/results/two_stage.md).
    /// A candidate stage that searches by distance finds short pairs within its radius only;
    /// `TwoStageClusterer`'s sketch bands find them at any distance.
    [[nodiscard]] constexpr bool accepts(unsigned d, const MinHashSketch& a, const MinHashSketch& b) const noexcept {
        const bool is_short = a.features() < short_features || b.features() < short_features;
        if (is_short) return verifies(a, b);
        if (d > radius) return false;
        return d <= accept_distance || verifies(a, b);
    }

    /// True if `a` and `b` are near-duplicates.
    template <std::size_t Bits>
    [[nodiscard]] constexpr bool matches(const Signature<Bits>& a, const Signature<Bits>& b) const noexcept {
        return accepts(hamming_distance(a.fingerprint, b.fingerprint), a.sketch, b.sketch);
    }
};

/// Options of a `SignatureFingerprinter` beyond those of its fingerprinter.
struct signature_options {
    /// Sketch the text of the Taiwan vocabulary fold (`normalize_options::fold_phrases`) when
    /// the fingerprint is made without it (with `fold_script`): the fingerprint stays what the
    /// fingerprinter makes, the sketch is that of the phrase-folded text's tokens, computed in
    /// the same fused pass (sketch_phrase_fold.hpp). No effect when the fingerprint folds
    /// phrases already (128 bits by default) or scripts not at all. Off by default: at 64 bits
    /// it meets the two-stage quality targets on the evaluation pairs (s2twp 99.7 % on the
    /// confirmation half, no false positive, with `min_similarity` 0.653), but costs about
    /// 1.45 fingerprints per signature against the 1.3 budget (bench/results/two_stage.md).
    bool sketch_fold_phrases = false;
    /// Leave out of the sketch every token that shares a character with a Taiwan-variant word (a
    /// bigram of the variant side of `tw_phrase_table` that no representative has), computed
    /// in the same fused pass (sketch_variant_skip.hpp); the fingerprint is unchanged. No effect
    /// when the fingerprint folds phrases or scripts not at all, or with `sketch_fold_phrases`.
    /// Off by default. At 64 bits it meets every two-stage quality target on the evaluation pairs
    /// with the default rule (s2twp 99.7 % on the confirmation half, substitute 5 % 96.7 %, no
    /// false positive), and costs about 1.32 fingerprints per signature against the 1.3 budget
    /// (bench/results/two_stage.md).
    bool sketch_skip_variants = false;
};

/// The options a `SignatureFingerprinter<..., Bits>` uses when given none (no sketch-only
/// phrase fold at either width; see `signature_options`).
template <std::size_t Bits>
[[nodiscard]] constexpr signature_options default_signature_options() noexcept {
    return signature_options{};
}

/// Makes `Signature<Bits>`s: the fingerprint of a `Fingerprinter<Tok, Hash, Bits>` and the
/// sketch of the same tokens. With raw term frequency and no IDF table (the defaults) the text
/// is normalized and tokenized once for both (with character bigrams: in the fused pass of the
/// fingerprint alone); otherwise the sketch takes a second tokenization.
/// Const and thread-safe if the tokenizer is.
template <Tokenizer Tok = default_tokenizer, HashPolicy Hash = default_hash, std::size_t Bits = 64>
class SignatureFingerprinter {
public:
    using fingerprinter_type = Fingerprinter<Tok, Hash, Bits>;
    using signature_type = Signature<Bits>;

    SignatureFingerprinter()
        requires std::default_initializable<Tok>
    = default;
    /// A signature maker of the fingerprints of `fp`, with options `opt` (by default
    /// `default_signature_options<Bits>()`).
    explicit SignatureFingerprinter(fingerprinter_type fp, signature_options opt = default_signature_options<Bits>())
        : m_fp(std::move(fp)), m_opt(opt) {}

    /// The signature of `text`, using a per-thread scratch buffer.
    [[nodiscard]] signature_type operator()(std::string_view text) const {
        thread_local fingerprint_scratch scratch;
        return (*this)(text, scratch);
    }

    /// The signature of `text`, using the caller's scratch buffers. With character bigrams
    /// (alone or behind a `StopwordFilter`), raw TF and no IDF table, the fused fingerprint pass
    /// (fused_fingerprint.hpp) feeds the sketch the `MinHashSketcher::token_hash` of each feature
    /// it counts, taken from the digest it hashes the feature with; the result always equals
    /// `reference`.
    [[nodiscard]] signature_type operator()(std::string_view text, fingerprint_scratch& scratch) const {
        if constexpr (detail::fused_tokenizer<Tok>::value) {
            const fingerprint_options& o = m_fp.options();
            if (o.tf == tf_scaling::raw && o.idf == nullptr && sketch_folds()) return folded_sketch(text, scratch);
            if (o.tf == tf_scaling::raw && o.idf == nullptr && sketch_skips()) return skipped_sketch(text, scratch);
            if (o.tf == tf_scaling::raw && o.idf == nullptr) {
                MinHashSketcher sketcher;
                // The pass hands over each counted token's `MinHashSketcher::token_hash`, the high
                // word of the MurmurHash3 digest it computes for the fingerprint.
                auto sink = [&sketcher](std::uint64_t h) noexcept { sketcher.add_hash(h); };
                const Fingerprint<Bits> fp = detail::fused_fingerprint<Bits, Hash>(
                    text, scratch.padded, o.normalize, detail::fused_tokenizer<Tok>::stopwords(m_fp.tokenizer()), sink);
                if (!sketcher.is_short()) return {fp, sketcher.finish()};
                // A short text is short: normalizing it a second time for its bigram view is
                // cheap, and keeps the fused pass of long texts free of it.
                normalize_into(text, scratch.text, o.normalize);
                return {fp, sketcher.finish(scratch.text)};
            }
        }
        return reference(text, scratch);
    }

    /// The signature of `text` computed step by step: normalize into `scratch.text`, tokenize,
    /// add each feature to the Simhash and the sketch (a second tokenization for weighted
    /// fingerprints). Always equal to `operator()`; kept as the reference the fused path is
    /// tested and measured against.
    [[nodiscard]] signature_type reference(std::string_view text, fingerprint_scratch& scratch) const {
        MinHashSketcher sketcher;
        const fingerprint_options& o = m_fp.options();
        if (o.tf == tf_scaling::raw && o.idf == nullptr && !sketch_folds() && !sketch_skips()) {
            Simhash<Bits, Hash> acc;
            m_fp.for_each_feature(text, scratch.text, [&](std::string_view t) {
                acc.add(t, 1);
                sketcher.add_token(t);
            });
            return {acc.finish(), sketcher.finish(scratch.text)};
        }
        if (o.tf == tf_scaling::raw && o.idf == nullptr) {
            // The fingerprint of the unfolded text, the sketch of the phrase-folded one.
            Simhash<Bits, Hash> acc;
            m_fp.for_each_feature(text, scratch.text, [&](std::string_view t) { acc.add(t, 1); });
            for_each_sketch_feature(text, scratch.text, [&](std::string_view t) { sketcher.add_token(t); });
            return {acc.finish(), sketcher.finish(scratch.text)};
        }
        signature_type s;
        s.fingerprint = m_fp.reference(text, scratch);
        for_each_sketch_feature(text, scratch.text, [&](std::string_view t) { sketcher.add_token(t); });
        s.sketch = sketcher.finish(scratch.text);
        return s;
    }

    /// The exact Jaccard similarity of the feature sets of two texts (what the sketch estimates:
    /// the tokens; in a text of fewer than `MinHashSketcher::short_tokens` tokens, the character
    /// bigrams of its normalized text): 1 for two texts without tokens. Allocates; O(n log n).
    [[nodiscard]] double exact_jaccard(std::string_view a, std::string_view b) const {
        std::string norm;
        auto set_of = [&](std::string_view text) {
            std::vector<std::uint64_t> hs;
            std::size_t tokens = 0;
            for_each_sketch_feature(text, norm, [&](std::string_view t) {
                hs.push_back(MinHashSketcher::token_hash(t));
                ++tokens;
            });
            // The view the sketch of this text holds (MinHashSketcher::short_tokens).
            if (tokens != 0 && tokens < MinHashSketcher::short_tokens) {
                hs.clear();
                MinHashSketcher::for_each_text_bigram(norm, [&hs](std::uint64_t h) { hs.push_back(h); });
            }
            std::sort(hs.begin(), hs.end());
            hs.erase(std::unique(hs.begin(), hs.end()), hs.end());
            return hs;
        };
        const auto x = set_of(a);
        const auto y = set_of(b);
        if (x.empty() && y.empty()) return 1.0;
        std::size_t common = 0;
        for (std::size_t i = 0, j = 0; i < x.size() && j < y.size();) {
            if (x[i] == y[j]) {
                ++common;
                ++i;
                ++j;
            } else if (x[i] < y[j]) {
                ++i;
            } else {
                ++j;
            }
        }
        return static_cast<double>(common) / static_cast<double>(x.size() + y.size() - common);
    }

    /// The underlying fingerprinter.
    [[nodiscard]] const fingerprinter_type& fingerprinter() const noexcept { return m_fp; }
    /// The options.
    [[nodiscard]] const signature_options& options() const noexcept { return m_opt; }

    /// True when the sketch sees the phrase-folded text and the fingerprint does not
    /// (`signature_options::sketch_fold_phrases` in effect).
    [[nodiscard]] bool sketch_folds() const noexcept {
        const normalize_options& n = m_fp.options().normalize;
        return m_opt.sketch_fold_phrases && n.fold_script && !n.fold_phrases;
    }

    /// True when the sketch leaves out the Taiwan-variant words
    /// (`signature_options::sketch_skip_variants` in effect).
    [[nodiscard]] bool sketch_skips() const noexcept {
        const normalize_options& n = m_fp.options().normalize;
        return m_opt.sketch_skip_variants && !sketch_folds() && n.fold_script && !n.fold_phrases;
    }

    /// The normalization of the text whose tokens the sketch holds.
    [[nodiscard]] normalize_options sketch_normalize() const noexcept {
        normalize_options n = m_fp.options().normalize;
        if (sketch_folds()) n.fold_phrases = true;
        return n;
    }

    /// Feeds the features the sketch holds (the fingerprint's, of the phrase-folded text when
    /// `sketch_folds()`) to `sink`; `normalized` receives the normalized text they point into.
    /// With `sketch_skips()` these are the tokens the skip keeps (all of them when the text keeps
    /// its default sketch).
    template <class Sink>
    void for_each_sketch_feature(std::string_view text, std::string& normalized, Sink&& sink) const {
        normalize_into(text, normalized, sketch_normalize());
        if (!sketch_skips()) {
            m_fp.tokenizer().tokenize(std::string_view(normalized), sink);
            return;
        }
        // The occurrences (see sketch_variant_skip.hpp) are found on the text, the tokens are
        // views of it: a token is kept when no byte of it lies in an occurrence.
        const detail::sketch_variant_table& v = detail::sketch_variants();
        const std::string_view t(normalized);
        std::vector<std::size_t> occ_end_at(t.size() + 1, 0);  // end of an occurrence starting here
        for (std::size_t i = 0, prev = std::string_view::npos; i < t.size();) {
            const std::size_t len = detail::utf8_decode(t, i).length;
            if (prev != std::string_view::npos && i - prev == 3 && len == 3 && v.contains(detail::sketch_six_bytes(t.data() + prev)))
                occ_end_at[prev] = prev + 6;
            prev = i;
            i += len;
        }
        std::vector<std::string_view> all;
        m_fp.tokenizer().tokenize(t, [&all](std::string_view tok) { all.push_back(tok); });
        std::vector<std::string_view> kept;
        for (const std::string_view tok : all) {
            const auto b = static_cast<std::size_t>(tok.data() - t.data());
            bool out = false;
            // An occurrence overlapping [b, b + size) starts within the five bytes before b or inside.
            for (std::size_t k = b >= 5 ? b - 5 : 0; k < b + tok.size() && !out; ++k) out = occ_end_at[k] > b;
            if (!out) kept.push_back(tok);
        }
        const std::vector<std::string_view>& fed = kept.size() < MinHashSketcher::short_tokens ? all : kept;
        for (const std::string_view tok : fed) sink(tok);
    }

private:
    // The fused pass with the sketch of the phrase-folded text (sketch_phrase_fold.hpp); out of
    // line, so that the default path above is compiled as without the option.
    [[gnu::noinline]] signature_type folded_sketch(std::string_view text, fingerprint_scratch& scratch) const {
        // Offsets of the normalized text must fit 32 bits.
        if (detail::fused_buffer_size(text.size()) <= 0xFFFFFFFFu) {
            MinHashSketcher sketcher;
            detail::sketch_fold_sink sink(scratch.fold, sketcher);
            const StopwordList* list = detail::fused_tokenizer<Tok>::stopwords(m_fp.tokenizer());
            const Fingerprint<Bits> fp =
                detail::fused_fingerprint<Bits, Hash>(text, scratch.padded, m_fp.options().normalize, list, sink);
            if (list != nullptr && list->empty()) list = nullptr;
            if (sink.finish(std::string_view(scratch.padded.data(), sink.size()), list)) {
                if (!sketcher.is_short()) return {fp, sketcher.finish()};
                normalize_into(text, scratch.text, sketch_normalize());
                return {fp, sketcher.finish(scratch.text)};
            }
        }
        return reference(text, scratch);
    }

    // The fused pass with the variant-side skip (sketch_variant_skip.hpp); out of line, as above.
    [[gnu::noinline]] signature_type skipped_sketch(std::string_view text, fingerprint_scratch& scratch) const {
        MinHashSketcher sketcher;
        detail::sketch_skip_sink sink(sketcher);
        const Fingerprint<Bits> fp = detail::fused_fingerprint<Bits, Hash>(
            text, scratch.padded, m_fp.options().normalize, detail::fused_tokenizer<Tok>::stopwords(m_fp.tokenizer()), sink);
        if (!sink.finish()) {
            // More tokens left out than the sink holds, and fewer than short_tokens kept: the
            // default sketch, from the default pass (a rare text).
            const SignatureFingerprinter plain(m_fp);
            return {fp, plain(text, scratch).sketch};
        }
        if (!sketcher.is_short()) return {fp, sketcher.finish()};
        normalize_into(text, scratch.text, m_fp.options().normalize);
        return {fp, sketcher.finish(scratch.text)};
    }

    fingerprinter_type m_fp{};
    signature_options m_opt = default_signature_options<Bits>();
};

/// The `Bits`-bit signature of `text` with semfp's defaults (the fingerprint equals
/// `semfp::fingerprint<Bits>(text)`). Thread-safe.
template <std::size_t Bits = 64>
[[nodiscard]] Signature<Bits> signature(std::string_view text) {
    static const SignatureFingerprinter<default_tokenizer, default_hash, Bits> maker{};
    return maker(text);
}

}  // namespace v0
}  // namespace semfp
