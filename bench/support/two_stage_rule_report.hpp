#pragma once
// Reports of a two-stage rule on both halves of the labelled pairs, for
// bench/two_stage_quality.cpp: what both stages see of a pair, the whole rule chosen on the
// tuning half (support/two_stage_calibration.hpp) next to the library default, and a rule fixed
// in advance, per kind of pair. Every line goes to the caller's `emit`.
#include "dev_pairs.hpp"
#include "two_stage_calibration.hpp"

#include <semfp/core/signature.hpp>
#include <semfp/index/hamming_index.hpp>
#include <semfp/index/sketch_band_index.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace semfp::bench {

/// What both stages see of a pair: the Hamming distance, the sketch estimate, and whether
/// either text is short.
struct pair_view {
    unsigned d;
    double j;
    bool is_short;
};

/// The view of the pair (x, y); `short_features` as in semfp::two_stage_rule.
template <std::size_t Bits>
pair_view view_of(const semfp::Signature<Bits>& x, const semfp::Signature<Bits>& y, std::uint32_t short_features) {
    return {semfp::hamming_distance(x.fingerprint, y.fingerprint), semfp::estimated_jaccard(x.sketch, y.sketch),
            x.sketch.features() < short_features || y.sketch.features() < short_features};
}

inline constexpr double required_margin = 0.045;  // the standard deviation bound of the estimate (sketch.hpp)

/// Per kind of pair, for each half h: at [h * (N + 1)] the number of pairs, then how many of them
/// each of `rules` finds through the banded stage. `view` is a `calibration_view` of the pairs.
template <std::size_t N, class View>
std::map<std::string, std::array<std::size_t, 2 * (N + 1)>> tally_by_kind(
    const std::vector<dev_pair>& pairs, const View& view, const std::array<const semfp::two_stage_rule*, N>& rules) {
    std::map<std::string, std::array<std::size_t, 2 * (N + 1)>> t;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        if (view[i].half < 0) continue;
        auto& row = t[pairs[i].kind];
        const std::size_t o = view[i].half == 0 ? 0 : N + 1;
        ++row[o];
        for (std::size_t r = 0; r < N; ++r)
            if (semfp::bench::banded_finds(*rules[r], view[i])) ++row[o + 1 + r];
    }
    return t;
}

/// `a` of `n` in per cent (0 when `n` is 0).
inline double percent_of(std::size_t a, std::size_t n) {
    return n == 0 ? 0.0 : 100.0 * static_cast<double>(a) / static_cast<double>(n);
}

/// The pairs as the calibration sees them (support/two_stage_calibration.hpp).
template <std::size_t Bits>
std::vector<semfp::bench::calibration_pair> calibration_view(const std::vector<dev_pair>& pairs,
                                                             const std::vector<semfp::Signature<Bits>>& sig,
                                                             std::uint32_t short_features) {
    const semfp::sketch_band_layout def{};
    std::vector<semfp::bench::calibration_pair> out;
    out.reserve(pairs.size());
    for (const auto& p : pairs) {
        const auto& x = sig[p.a];
        const auto& y = sig[p.b];
        const pair_view v = view_of(x, y, short_features);
        out.push_back({v.d, v.j, v.is_short, x.sketch.empty() && y.sketch.empty(),
                       semfp::share_band(x.sketch, y.sketch, def), p.positive, p.half});
    }
    return out;
}

/// The whole rule (accept distance, radius, min_similarity) chosen on the tuning half, then the
/// library default and that rule per kind on both halves (banded stage, default layout).
template <std::size_t Bits, class Emit>
void whole_rule(const std::string& title, const std::vector<dev_pair>& pairs,
                const std::vector<semfp::Signature<Bits>>& sig, Emit& emit) {
    namespace sb = semfp::bench;
    const auto lib = semfp::two_stage_rule::recommended<Bits>();
    const auto view = calibration_view<Bits>(pairs, sig, lib.short_features);
    std::vector<unsigned> radii;
    for (unsigned r = semfp::two_stage_rule::exact_search_limit<Bits>; r <= Bits; r += 4) radii.push_back(r);
    const auto chosen = sb::choose_rule(view, 0, lib, radii, semfp::HammingIndex<Bits>::max_radius, required_margin);
    unsigned nearest[2] = {~0u, ~0u};  // nearest long negative per half
    for (const auto& p : view)
        if (p.half >= 0 && !p.positive && !p.is_short) nearest[p.half] = std::min(nearest[p.half], p.d);
    char buf[768];
    std::snprintf(buf, sizeof buf,
                  "### %zu bits, %s: the whole rule chosen on the tuning half\n\nTuning half: nearest long negative at "
                  "distance %u, so accept distance %u; radius %u, min_similarity %.3f (largest long negative estimate "
                  "within the radius + %.3f, rounded up); %zu tuning positives found, %zu tuning false positives. "
                  "Library default: accept distance %u, radius %u, min_similarity %.3f.\n\n",
                  Bits, title.c_str(), nearest[0], chosen.rule.accept_distance, chosen.rule.radius,
                  chosen.rule.min_similarity, required_margin, chosen.positives, chosen.false_positives,
                  lib.accept_distance, lib.radius, lib.min_similarity);
    emit(buf);
    std::snprintf(buf, sizeof buf,
                  "Confirmation half (looked at after the rule above was fixed): nearest long negative at distance "
                  "%u.\n\n| kind | pairs (tune / confirm) | library tuning | library confirmation | chosen tuning | "
                  "chosen confirmation |\n|---|---:|---:|---:|---:|---:|\n",
                  nearest[1]);
    emit(buf);
    // Per half: n, found by the library rule, found by the chosen rule.
    const auto t = tally_by_kind<2>(pairs, view, {&lib, &chosen.rule});
    const auto pct = percent_of;
    for (const auto& [kind, r] : t) {
        if (kind == "negative" || kind == "site_negative")
            std::snprintf(buf, sizeof buf, "| %s (false positives) | %zu / %zu | %zu | %zu | %zu | %zu |\n", kind.c_str(), r[0],
                          r[3], r[1], r[4], r[2], r[5]);
        else
            std::snprintf(buf, sizeof buf, "| %s | %zu / %zu | %.1f %% | %.1f %% | %.1f %% | %.1f %% |\n", kind.c_str(), r[0],
                          r[3], pct(r[1], r[0]), pct(r[4], r[3]), pct(r[2], r[0]), pct(r[5], r[3]));
        emit(buf);
    }
    bool any = false;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const auto& p = view[i];
        if (p.positive || p.half < 0) continue;
        const bool by_lib = sb::banded_finds(lib, p);
        const bool by_chosen = sb::banded_finds(chosen.rule, p);
        if (!by_lib && !by_chosen) continue;
        if (!any) emit("\nFalse positives (half, kind, distance, estimate, accepted by):\n\n");
        any = true;
        std::snprintf(buf, sizeof buf, "- half %d, %s, distance %u, estimate %.4f, %s\n", p.half, pairs[i].kind.c_str(), p.d,
                      p.j, by_lib && by_chosen ? "both rules" : by_lib ? "the library rule" : "the chosen rule");
        emit(buf);
    }
    emit("\n");
}

/// Both halves with a rule fixed beforehand (no choice made here).
template <std::size_t Bits, class Emit>
void fixed_rule(const std::string& title, const std::vector<dev_pair>& pairs, const std::vector<semfp::Signature<Bits>>& sig,
                const semfp::two_stage_rule& rule, Emit& emit) {
    const auto view = calibration_view<Bits>(pairs, sig, rule.short_features);
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "### %zu bits, %s: rule fixed in advance (accept distance %u, radius %u, min_similarity %.3f)\n\n"
                  "| kind | pairs (tune / confirm) | tuning | confirmation |\n|---|---:|---:|---:|\n",
                  Bits, title.c_str(), rule.accept_distance, rule.radius, rule.min_similarity);
    emit(buf);
    const auto t = tally_by_kind<1>(pairs, view, {&rule});  // per half: n, found
    const auto pct = percent_of;
    for (const auto& [kind, r] : t) {
        if (kind == "negative" || kind == "site_negative")
            std::snprintf(buf, sizeof buf, "| %s (false positives) | %zu / %zu | %zu | %zu |\n", kind.c_str(), r[0], r[2], r[1], r[3]);
        else
            std::snprintf(buf, sizeof buf, "| %s | %zu / %zu | %.1f %% (%zu) | %.1f %% (%zu) |\n", kind.c_str(), r[0], r[2],
                          pct(r[1], r[0]), r[1], pct(r[3], r[2]), r[3]);
        emit(buf);
    }
    emit("\n");
}

}  // namespace semfp::bench
