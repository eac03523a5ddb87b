#pragma once
// Two-pass references of 64-bit sketch variants measured by bench/two_stage_quality.cpp, and
// the tuning-half derivation of a variant's min_similarity (the library's procedure).
//
// The skip variant (bench/results/two_stage.md, "The variant-vocabulary skip"): V is the set of
// character bigrams of every phrase of two or more characters of detail::tw_phrase_table, both
// sides (each character-folded `from` and each representative `to`); an occurrence is a place
// of the unfolded normalized text where two adjacent characters form a member of V. The sketch
// holds the counted tokens whose bytes overlap no occurrence; a text with fewer than 30 counted
// tokens, or with fewer than 30 left, keeps its default sketch. The second skip variant takes V
// from the `from` sides only, less the bigrams of any representative.
#include "dev_pairs.hpp"
#include "two_stage_rule_report.hpp"

#include <semfp/core/signature.hpp>
#include <semfp/detail/tw_phrase_table.hpp>
#include <semfp/detail/utf8_codec.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace semfp::bench {

/// V: the six-byte bigrams of the phrases of the Taiwan vocabulary table, both sides; with
/// `variant_side_only`, those of the `from` sides that occur in no `to`.
inline std::set<std::string> tw_variant_bigrams(bool variant_side_only = false) {
    std::set<std::string> v;
    std::set<std::string> rep;
    auto pairs_of = [](const std::vector<std::string>& chars, std::set<std::string>& into) {
        for (std::size_t i = 0; i + 1 < chars.size(); ++i)
            if (chars[i].size() == 3 && chars[i + 1].size() == 3) into.insert(chars[i] + chars[i + 1]);
    };
    auto add_pairs = [&](const std::vector<std::string>& chars) { pairs_of(chars, v); };
    for (const auto& p : semfp::detail::tw_phrase_table) {
        std::vector<std::string> from;
        for (const char32_t c : p.from) {
            char u[4];
            from.emplace_back(u, semfp::detail::utf8_encode(c, u));
        }
        add_pairs(from);
        std::vector<std::string> to;
        for (std::size_t i = 0; i < p.to.size();) {
            const std::size_t n = semfp::detail::utf8_decode(p.to, i).length;
            to.emplace_back(p.to.substr(i, n));
            i += n;
        }
        if (variant_side_only)
            pairs_of(to, rep);
        else
            add_pairs(to);
    }
    for (const std::string& r : rep) v.erase(r);
    return v;
}

/// Counts of the skip variant over a set of texts.
struct skip_stats {
    std::size_t texts_skipping = 0;  ///< long texts whose sketch changed
    std::size_t kept_default = 0;    ///< long texts left with fewer than 30 tokens (default sketch)
    std::size_t tokens = 0;          ///< counted tokens of long texts
    std::size_t skipped = 0;         ///< of which skipped
};

/// The skip variant's signatures (reference: normalize, tokenize, mark occurrences, sketch the
/// rest); `defaults` are the default signatures of the same texts. With `variant_side_only`, V
/// holds only the `from` sides' bigrams that no representative has ("skip, variant side only").
template <class Maker>
std::vector<semfp::Signature<64>> skip_variant_signatures(std::string_view program, const Maker& maker,
                                                          const std::vector<std::string>& texts,
                                                          const std::vector<semfp::Signature<64>>& defaults, skip_stats& st,
                                                          bool variant_side_only = false) {
    const std::set<std::string> v = tw_variant_bigrams(variant_side_only);
    std::vector<semfp::Signature<64>> out;
    std::string norm;
    std::vector<unsigned char> covered;
    struct tok {
        std::size_t begin, end;
        std::uint64_t hash;
    };
    std::vector<tok> toks;
    for (std::size_t d = 0; d < texts.size(); ++d) {
        toks.clear();
        maker.for_each_sketch_feature(texts[d], norm, [&](std::string_view t) {
            if (t.data() < norm.data() || t.data() + t.size() > norm.data() + norm.size())
                die(program, "a token is not a view of the normalized text");
            const auto b = static_cast<std::size_t>(t.data() - norm.data());
            toks.push_back({b, b + t.size(), semfp::MinHashSketcher::token_hash(t)});
        });
        if (toks.size() < semfp::MinHashSketcher::short_tokens) {
            out.push_back(defaults[d]);
            continue;
        }
        covered.assign(norm.size() + 1, 0);
        const std::string_view n(norm);
        // Every member of V is two three-byte characters: an occurrence starts at a character.
        std::size_t prev = std::string_view::npos;  // start of the previous character
        for (std::size_t i = 0; i < n.size();) {
            const auto u = static_cast<unsigned char>(n[i]);
            const std::size_t len = u < 0x80 ? 1 : semfp::detail::utf8_decode(n, i).length;
            if (prev != std::string_view::npos && i - prev == 3 && len == 3 && v.count(std::string(n.substr(prev, 6))) != 0)
                for (std::size_t k = prev; k < prev + 6; ++k) covered[k] = 1;
            prev = i;
            i += len;
        }
        semfp::MinHashSketcher sk;
        std::size_t kept = 0;
        for (const tok& t : toks) {
            bool hit = false;
            for (std::size_t k = t.begin; k < t.end && !hit; ++k) hit = covered[k] != 0;
            if (hit) continue;
            sk.add_hash(t.hash);
            ++kept;
        }
        st.tokens += toks.size();
        st.skipped += toks.size() - kept;
        if (kept < semfp::MinHashSketcher::short_tokens) {
            ++st.kept_default;
            out.push_back(defaults[d]);
            continue;
        }
        out.push_back({defaults[d].fingerprint, sk.finish()});
        if (out.back().sketch != defaults[d].sketch) ++st.texts_skipping;
    }
    return out;
}

/// Stops the program unless `signature_options::sketch_skip_variants` (the library's one-pass
/// variant-side skip) gives `reference`'s signatures for every text.
inline void require_library_skip(std::string_view program, const std::vector<std::string>& texts,
                                 const std::vector<semfp::Signature<64>>& reference) {
    semfp::signature_options so;
    so.sketch_skip_variants = true;
    const semfp::SignatureFingerprinter<semfp::default_tokenizer, semfp::default_hash, 64> lib{
        semfp::DefaultFingerprinter<64>{}, so};
    for (std::size_t i = 0; i < texts.size(); ++i)
        if (lib(texts[i]) != reference[i])
            die(program, "signature_options::sketch_skip_variants differs from its reference on document " + std::to_string(i));
}

/// The library's procedure for min_similarity, on the tuning half only: the largest estimate of
/// a negative (plain or same-site, short or long) within `rule.radius`, + 0.045, rounded up to
/// 0.001. Prints the derivation (before any confirmation figure of the variant).
template <class Emit>
semfp::two_stage_rule derive_on_tuning_half(const std::string& title, const std::vector<dev_pair>& pairs,
                                            const std::vector<semfp::Signature<64>>& sig, semfp::two_stage_rule rule,
                                            Emit& emit) {
    double worst = 0;
    double worst_long = 0;
    for (const dev_pair& p : pairs) {
        if (p.half != 0 || p.positive) continue;
        const pair_view v = view_of(sig[p.a], sig[p.b], rule.short_features);
        if (v.d > rule.radius) continue;
        worst = std::max(worst, v.j);
        if (!v.is_short) worst_long = std::max(worst_long, v.j);
    }
    rule.min_similarity = std::ceil((worst + required_margin) * 1000.0 - 1e-9) / 1000.0;
    char buf[640];
    std::snprintf(buf, sizeof buf,
                  "### 64 bits, %s: rule derived on the tuning half\n\nLargest estimate of a negative within radius %u "
                  "on the tuning half: %.4f (long negatives only: %.4f); + %.3f, rounded up: min_similarity %.3f "
                  "(accept distance %u, radius %u, fixed in advance).\n\n",
                  title.c_str(), rule.radius, worst, worst_long, required_margin, rule.min_similarity, rule.accept_distance,
                  rule.radius);
    emit(buf);
    return rule;
}

}  // namespace semfp::bench
