#include <semfp/index/single_pass_clusterer.hpp>
#include <semfp/index/sketch_band_index.hpp>
#include <semfp/index/two_stage_clusterer.hpp>

#include "support/catch.hpp"
#include "support/scale.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

semfp::MinHashSketch random_sketch(std::mt19937_64& rng, std::uint32_t features = 200) {
    semfp::MinHashSketch::bins_type b{};
    for (auto& x : b) x = static_cast<std::uint8_t>(rng());
    return semfp::MinHashSketch(b, features);
}

/// A signature with a random fingerprint (its words in `w`) and a random sketch.
template <std::size_t Bits>
semfp::Signature<Bits> random_signature(std::mt19937_64& rng, std::array<std::uint64_t, Bits / 64>& w) {
    semfp::Signature<Bits> a;
    for (auto& x : w) x = rng();
    a.fingerprint = semfp::Fingerprint<Bits>(w);
    a.sketch = random_sketch(rng);
    return a;
}

/// `s` with `changes` bins (at random positions, possibly repeated) given other values.
semfp::MinHashSketch edited(const semfp::MinHashSketch& s, unsigned changes, std::mt19937_64& rng) {
    auto b = s.values();
    for (unsigned c = 0; c < changes; ++c) {
        auto& x = b[rng() % b.size()];
        x = static_cast<std::uint8_t>(x + 1 + rng() % 255);
    }
    return semfp::MinHashSketch(b, s.features());
}

template <std::size_t Bits>
semfp::Fingerprint<Bits> flipped(semfp::Fingerprint<Bits> fp, unsigned flips, std::mt19937_64& rng) {
    auto w = fp.data();
    for (unsigned f = 0; f < flips; ++f) {
        const auto bit = rng() % Bits;
        w[bit / 64] ^= std::uint64_t{1} << (bit % 64);
    }
    return semfp::Fingerprint<Bits>(w);
}

/// Signatures: random ones, and near copies of earlier ones with up to `max_flips` bits flipped
/// and up to 70 bins changed (so that some pairs are accepted by distance, some by the sketch,
/// some rejected, and some of those the rule accepts share no band); a few short texts.
template <std::size_t Bits>
std::vector<semfp::Signature<Bits>> make_signatures(std::size_t n, unsigned max_flips, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<semfp::Signature<Bits>> out;
    for (std::size_t i = 0; i < n; ++i) {
        semfp::Signature<Bits> s;
        if (i > 0 && rng() % 3 != 0) {
            const auto& base = out[rng() % i];
            s.fingerprint = flipped(base.fingerprint, static_cast<unsigned>(rng() % (max_flips + 1)), rng);
            s.sketch = edited(base.sketch, static_cast<unsigned>(rng() % 71), rng);
        } else {
            std::array<std::uint64_t, Bits / 64> w{};
            for (auto& x : w) x = rng();
            s.fingerprint = semfp::Fingerprint<Bits>(w);
            s.sketch = random_sketch(rng, rng() % 8 == 0 ? 10u : 200u);
        }
        out.push_back(s);
    }
    return out;
}

/// The definition: candidates are the kept signatures within the accept distance or sharing a
/// band; the nearest the rule accepts wins, ties by the earliest. O(n^2).
template <std::size_t Bits>
std::vector<semfp::cluster_assignment> reference(const std::vector<semfp::Signature<Bits>>& sigs,
                                                 const semfp::two_stage_rule& rule, const semfp::sketch_band_layout& l,
                                                 semfp::match_policy match) {
    std::vector<semfp::cluster_assignment> out;
    std::vector<std::size_t> kept;  // items compared with
    std::vector<std::size_t> centre_of;
    for (std::size_t i = 0; i < sigs.size(); ++i) {
        unsigned best_d = ~0u;
        std::size_t best = 0;
        for (const std::size_t k : kept) {
            const unsigned d = semfp::hamming_distance(sigs[k].fingerprint, sigs[i].fingerprint);
            const bool candidate = d <= rule.accept_distance || semfp::share_band(sigs[k].sketch, sigs[i].sketch, l);
            if (candidate && d < best_d && rule.accepts(d, sigs[k].sketch, sigs[i].sketch)) {
                best_d = d;
                best = k;
            }
        }
        const bool is_new = best_d == ~0u;
        centre_of.push_back(is_new ? i : centre_of[best]);
        if (is_new || (match == semfp::match_policy::members && best_d != 0)) kept.push_back(i);
        out.push_back({static_cast<std::uint64_t>(centre_of[i]) * 10 + 7, is_new, is_new ? 0u : best_d});
    }
    return out;
}

// 300 queries (edited copies of stored sketches, or random ones): the index reports exactly the
// items (numbered by `item_of`) whose stored sketch shares a band with the query.
template <class ItemOf>
void check_candidates(const semfp::SketchBandIndex& ix, const std::vector<semfp::MinHashSketch>& stored,
                      ItemOf item_of, std::mt19937_64& rng) {
    for (int q = 0; q < 300; ++q) {
        const auto query = rng() % 2 == 0 ? edited(stored[rng() % stored.size()], 50, rng) : random_sketch(rng);
        std::vector<std::uint32_t> got;
        ix.for_each_candidate(query, [&](std::uint32_t x) { got.push_back(x); });
        std::sort(got.begin(), got.end());
        got.erase(std::unique(got.begin(), got.end()), got.end());
        std::vector<std::uint32_t> want;
        for (std::size_t i = 0; i < stored.size(); ++i)
            if (semfp::share_band(stored[i], query, ix.layout())) want.push_back(item_of(i));
        std::sort(want.begin(), want.end());
        REQUIRE(got == want);
    }
}

}  // namespace

TEST_CASE("SketchBandIndex reports exactly the items sharing a band", "[index][two_stage]") {
    std::mt19937_64 rng(42);
    for (const semfp::sketch_band_layout l : {semfp::sketch_band_layout{20, 4}, semfp::sketch_band_layout{12, 10},
                                              semfp::sketch_band_layout{128, 1}}) {
        semfp::SketchBandIndex ix(l);
        std::vector<semfp::MinHashSketch> stored;
        for (int i = 0; i < 3000; ++i) {
            stored.push_back(i > 0 && rng() % 2 == 0 ? edited(stored[rng() % stored.size()], 40, rng) : random_sketch(rng));
            ix.insert(stored.back(), static_cast<std::uint32_t>(i),
                      [&](std::uint32_t x) -> const semfp::MinHashSketch& { return stored[x]; });
        }
        REQUIRE(ix.size() == stored.size());
        check_candidates(ix, stored, [](std::size_t i) { return static_cast<std::uint32_t>(i); }, rng);
    }
    // Empty sketches are neither stored nor queried.
    semfp::SketchBandIndex ix;
    const semfp::MinHashSketch empty;
    ix.insert(empty, 0, [&](std::uint32_t) -> const semfp::MinHashSketch& { return empty; });
    REQUIRE(ix.size() == 0);
    int calls = 0;
    ix.for_each_candidate(empty, [&](std::uint32_t) { ++calls; });
    REQUIRE(calls == 0);
    REQUIRE_THROWS_AS(semfp::SketchBandIndex({33, 4}), semfp::invalid_argument_error);
    REQUIRE_THROWS_AS(semfp::SketchBandIndex({0, 4}), semfp::invalid_argument_error);
}

TEST_CASE("SketchBandIndex: sparse item numbers survive growth, each item's bins asked once per growth",
          "[index][two_stage]") {
    std::mt19937_64 rng(7);
    semfp::SketchBandIndex ix;
    std::vector<semfp::MinHashSketch> stored;
    std::vector<std::uint32_t> items;
    std::vector<int> asked;
    std::size_t growths = 0;
    for (int i = 0; i < 2000; ++i) {
        stored.push_back(i > 0 && rng() % 2 == 0 ? edited(stored[rng() % stored.size()], 40, rng) : random_sketch(rng));
        // Gaps between item numbers, then one item near the largest allowed number (too sparse
        // for a bitmap: growths after it find each item by its band 0 slot).
        items.push_back(i == 1000 ? 0xFFFFFFF0u : static_cast<std::uint32_t>(i) * 97u + 3u);
        std::fill(asked.begin(), asked.end(), 0);
        asked.resize(stored.size(), 0);
        bool grew = false;
        ix.insert_values(stored.back().values(), items.back(), [&](std::uint32_t x) {
            const auto at = x == 0xFFFFFFF0u ? std::size_t{1000} : static_cast<std::size_t>((x - 3u) / 97u);
            REQUIRE(at < stored.size() - 1);
            REQUIRE(items[at] == x);
            ++asked[at];
            grew = true;
            return stored[at].values();
        });
        if (grew) {
            ++growths;
            // Every item stored before was asked for: exactly once while the numbers are dense
            // enough for the bitmap.
            for (std::size_t j = 0; j + 1 < stored.size(); ++j) REQUIRE(asked[j] >= 1);
            if (i <= 1000)
                for (std::size_t j = 0; j + 1 < stored.size(); ++j) REQUIRE(asked[j] == 1);
        }
    }
    REQUIRE(growths >= 3);
    check_candidates(ix, stored, [&](std::size_t i) { return items[i]; }, rng);
}

TEMPLATE_TEST_CASE_SIG("TwoStageClusterer follows its definition", "[index][two_stage]", ((std::size_t Bits), Bits), 64,
                       128) {
    const auto rule = semfp::two_stage_rule::recommended<Bits>();
    const auto sigs = make_signatures<Bits>(1500, rule.radius + 6, Bits);
    for (const auto match : {semfp::match_policy::centres, semfp::match_policy::members}) {
        const semfp::sketch_band_layout layout{};
        const auto want = reference<Bits>(sigs, rule, layout, match);
        semfp::TwoStageClusterer<Bits> c({rule, layout, match});
        std::size_t joined_beyond = 0;
        for (std::size_t i = 0; i < sigs.size(); ++i) {
            const auto got = c.add(sigs[i], i * 10 + 7);
            REQUIRE(got == want[i]);
            joined_beyond += !got.is_new && got.distance > rule.accept_distance ? 1 : 0;
        }
        REQUIRE(joined_beyond > 0);  // the sketch stage was exercised
        REQUIRE(std::any_of(want.begin(), want.end(), [&](const semfp::cluster_assignment& a) {
            return !a.is_new && a.distance > rule.template exact_search_radius<Bits>();
        }));  // and beyond the radius of any exact search
        REQUIRE(c.size() == sigs.size());
        REQUIRE(c.cluster_of(7) == std::optional<std::uint64_t>(7));
        REQUIRE_FALSE(c.cluster_of(8).has_value());
    }
}

TEST_CASE("TwoStageClusterer equals the exact radius search when the bands find every accepted pair",
          "[index][two_stage]") {
    // Near copies differ in at most 3 bins: with 20 bands every such pair shares a band, so the
    // banded candidate stage finds whatever the exact search at the rule's exact_search_radius
    // (12) finds, for the rule with that radius.
    std::mt19937_64 rng(7);
    std::vector<semfp::Signature<64>> sigs;
    for (int i = 0; i < 2000; ++i) {
        semfp::Signature<64> s;
        if (i > 0 && rng() % 2 == 0) {
            const auto& base = sigs[rng() % sigs.size()];
            s.fingerprint = flipped(base.fingerprint, static_cast<unsigned>(rng() % 15), rng);
            s.sketch = rng() % 4 == 0 ? random_sketch(rng) : edited(base.sketch, 3, rng);
        } else {
            s.fingerprint = semfp::Fingerprint<64>(rng());
            s.sketch = random_sketch(rng);
        }
        sigs.push_back(s);
    }
    auto rule = semfp::two_stage_rule::recommended<64>();
    rule.radius = rule.exact_search_radius<64>();
    REQUIRE(rule.radius == 12);
    semfp::SinglePassClusterer<64> exact({rule.radius, semfp::match_policy::centres});
    semfp::TwoStageClusterer<64> banded({rule, {}, semfp::match_policy::centres});
    std::size_t beyond = 0;
    for (std::size_t i = 0; i < sigs.size(); ++i) {
        const auto e = exact.add(sigs[i].fingerprint, i, [&](std::uint64_t c, unsigned d) {
            return rule.accepts(d, sigs[c].sketch, sigs[i].sketch);
        });
        const auto b = banded.add(sigs[i], i);
        REQUIRE(e == b);
        beyond += !b.is_new && b.distance > rule.accept_distance ? 1 : 0;
    }
    REQUIRE(beyond > 50);
}

TEMPLATE_TEST_CASE_SIG("TwoStageClusterer: the default rule joins copies beyond any exact search, up to its radius",
                       "[index][two_stage]", ((std::size_t Bits), Bits), 64, 128) {
    const auto rule = semfp::two_stage_rule::recommended<Bits>();
    REQUIRE(rule.template exact_search_radius<Bits>() <= semfp::SinglePassClusterer<Bits>::max_threshold);
    REQUIRE(rule.radius > semfp::SinglePassClusterer<Bits>::max_threshold);  // no exact search reaches it
    std::mt19937_64 rng(11);
    // Copies differing in `d` bits of the fingerprint and 3 bins of the sketch (similarity
    // about 0.98), each of a different original.
    auto pair_at = [&](unsigned d) {
        std::array<std::uint64_t, Bits / 64> w{};
        const auto a = random_signature<Bits>(rng, w);
        semfp::Signature<Bits> b = a;
        auto words = b.fingerprint.data();
        std::vector<unsigned> bits(Bits);
        for (unsigned i = 0; i < Bits; ++i) bits[i] = i;
        std::shuffle(bits.begin(), bits.end(), rng);
        for (unsigned i = 0; i < d; ++i) words[bits[i] / 64] ^= std::uint64_t{1} << (bits[i] % 64);
        b.fingerprint = semfp::Fingerprint<Bits>(words);
        b.sketch = edited(a.sketch, 3, rng);
        REQUIRE(semfp::hamming_distance(a.fingerprint, b.fingerprint) == d);
        return std::pair{a, b};
    };
    auto capped = rule;
    capped.radius = rule.template exact_search_radius<Bits>();
    semfp::TwoStageClusterer<Bits> c;
    semfp::TwoStageClusterer<Bits> c_capped({capped, {}, semfp::match_policy::centres});
    std::uint64_t id = 0;
    for (const unsigned d : {capped.radius + 1, rule.radius, rule.radius + 1}) {
        const auto [a, b] = pair_at(d);
        REQUIRE(c.add(a, id).is_new);
        REQUIRE(c_capped.add(a, id).is_new);
        ++id;
        const auto got = c.add(b, id);
        const auto got_capped = c_capped.add(b, id);
        ++id;
        REQUIRE(got_capped.is_new);  // beyond the capped rule's radius
        REQUIRE(got.is_new == (d > rule.radius));
        if (!got.is_new) REQUIRE(got.distance == d);
    }
}

TEST_CASE("TwoStageClusterer: ids, save and load", "[index][two_stage]") {
    const auto sigs = make_signatures<64>(800, 18, 3);
    semfp::TwoStageClusterer<64> whole;
    for (std::size_t i = 0; i < sigs.size(); ++i) (void)whole.add(sigs[i], i);
    semfp::TwoStageClusterer<64> first;
    for (std::size_t i = 0; i < 400; ++i) (void)first.add(sigs[i], i);
    std::stringstream ss;
    first.save(ss);
    const std::string bytes = ss.str();
    semfp::TwoStageClusterer<64> resumed({std::nullopt, {10, 3}, semfp::match_policy::members});
    resumed.load(ss);
    REQUIRE(resumed.layout() == semfp::sketch_band_layout{});
    REQUIRE(resumed.match() == semfp::match_policy::centres);
    REQUIRE(resumed.size() == 400);
    REQUIRE(resumed.cluster_count() == first.cluster_count());
    semfp::TwoStageClusterer<64> again;
    for (std::size_t i = 0; i < 400; ++i) (void)again.add(sigs[i], i);
    for (std::size_t i = 400; i < sigs.size(); ++i) REQUIRE(resumed.add(sigs[i], i) == again.add(sigs[i], i));
    for (std::size_t i = 0; i < sigs.size(); ++i) REQUIRE(resumed.cluster_of(i) == whole.cluster_of(i));

    // Damaged or truncated data is refused, and the clusterer is left as it was.
    for (std::size_t at : {std::size_t{0}, std::size_t{20}, bytes.size() / 2, bytes.size() - 1}) {
        std::string bad = bytes;
        bad[at] = static_cast<char>(bad[at] ^ 0x5A);
        std::stringstream in(bad);
        REQUIRE_THROWS_AS(resumed.load(in), semfp::format_error);
        REQUIRE(resumed.size() == sigs.size());
    }
    std::stringstream cut(bytes.substr(0, bytes.size() - 7));
    REQUIRE_THROWS_AS(resumed.load(cut), semfp::format_error);
    semfp::TwoStageClusterer<128> wide;
    std::stringstream other(bytes);
    REQUIRE_THROWS_AS(wide.load(other), semfp::format_error);

    // Ids must ascend; a refused id adds nothing.
    REQUIRE_THROWS_AS(resumed.add(sigs[0], 5), semfp::invalid_argument_error);
    REQUIRE(resumed.size() == sigs.size());
    semfp::two_stage_rule far;
    far.accept_distance = 40;
    REQUIRE_THROWS_AS(semfp::TwoStageClusterer<64>({far, {}, semfp::match_policy::centres}), semfp::invalid_argument_error);
}

TEST_CASE("TwoStageClusterer: empty sketches match only each other", "[index][two_stage]") {
    semfp::TwoStageClusterer<64> c;
    semfp::Signature<64> empty;  // zero fingerprint, empty sketch
    std::mt19937_64 rng(1);
    semfp::Signature<64> other{semfp::Fingerprint<64>(1), random_sketch(rng)};
    REQUIRE(c.add(empty, 1).is_new);
    REQUIRE(c.add(other, 2).is_new);  // distance 1, but one sketch is empty
    const auto r = c.add(empty, 3);
    REQUIRE_FALSE(r.is_new);
    REQUIRE(r.cluster == 1);
}

namespace {

/// An exact sketch of `n` distinct random 32-bit hashes.
semfp::MinHashSketch random_exact(std::mt19937_64& rng, std::size_t n) {
    std::vector<std::uint32_t> h;
    while (h.size() < n) {
        h.push_back(static_cast<std::uint32_t>(rng()));
        std::sort(h.begin(), h.end());
        h.erase(std::unique(h.begin(), h.end()), h.end());
    }
    return semfp::MinHashSketch::exact(h.data(), h.size(), static_cast<std::uint32_t>(n + rng() % 40));
}

/// `s` (exact) with up to `changes` of its hashes replaced.
semfp::MinHashSketch edited_exact(const semfp::MinHashSketch& s, unsigned changes, std::mt19937_64& rng) {
    std::vector<std::uint32_t> h;
    for (std::size_t i = 0; i < s.set_size(); ++i) h.push_back(s.set_hash(i));
    for (unsigned c = 0; c < changes; ++c) h[rng() % h.size()] = static_cast<std::uint32_t>(rng());
    std::sort(h.begin(), h.end());
    h.erase(std::unique(h.begin(), h.end()), h.end());
    return semfp::MinHashSketch::exact(h.data(), h.size(), s.features());
}

}  // namespace

// Exact sketches (short texts) are compared through bins derived once when they are indexed or
// queried; the decisions must be those of the rule on the sketches themselves, also between an
// exact sketch and a MinHash one (which compares bins), and after save and load.
TEMPLATE_TEST_CASE_SIG("TwoStageClusterer follows its definition with exact sketches", "[index][two_stage]",
                       ((std::size_t Bits), Bits), 64, 128) {
    std::mt19937_64 rng(Bits + 5);
    const std::size_t n = semfp_test::cases(1200, 3);
    const std::size_t saved_at = n * 7 / 12;  // the clusterer is saved and resumed here
    auto sigs = make_signatures<Bits>(n, 24, Bits + 1);
    for (std::size_t i = 0; i < sigs.size(); ++i) {
        auto& sk = sigs[i].sketch;
        const auto kind = rng() % 6;
        if (i > 0 && kind < 2) {  // near copy of an earlier signature with an exact sketch
            const auto& base = sigs[rng() % i];
            sigs[i].fingerprint = flipped(base.fingerprint, static_cast<unsigned>(rng() % 20), rng);
            sk = base.sketch.is_exact() ? edited_exact(base.sketch, static_cast<unsigned>(rng() % 4), rng)
                                        : random_exact(rng, 1 + rng() % 32);
        } else if (i > 0 && kind == 2 && sigs[i - 1].sketch.is_exact()) {  // MinHash of an exact one's bins
            sigs[i].fingerprint = flipped(sigs[i - 1].fingerprint, static_cast<unsigned>(rng() % 20), rng);
            sk = edited(semfp::MinHashSketch(sigs[i - 1].sketch.values(), 30 + static_cast<std::uint32_t>(rng() % 40)),
                        static_cast<unsigned>(rng() % 30), rng);
        } else if (kind == 3) {
            sk = random_exact(rng, 1 + rng() % 32);
        }
    }
    const auto rule = semfp::two_stage_rule::recommended<Bits>();
    for (const auto match : {semfp::match_policy::centres, semfp::match_policy::members}) {
        const auto want = reference<Bits>(sigs, rule, semfp::sketch_band_layout{}, match);
        semfp::TwoStageClusterer<Bits> c({rule, {}, match});
        std::size_t mixed = 0;  // joins of an exact and a MinHash sketch
        for (std::size_t i = 0; i < saved_at; ++i) {
            const auto got = c.add(sigs[i], i * 10 + 7);
            REQUIRE(got == want[i]);
            const auto centre = static_cast<std::size_t>((got.cluster - 7) / 10);
            mixed += !got.is_new && sigs[centre].sketch.is_exact() != sigs[i].sketch.is_exact() ? 1 : 0;
        }
        std::stringstream ss;
        c.save(ss);
        semfp::TwoStageClusterer<Bits> resumed;
        resumed.load(ss);
        for (std::size_t i = saved_at; i < sigs.size(); ++i) {
            const auto got = resumed.add(sigs[i], i * 10 + 7);
            REQUIRE(got == want[i]);
            REQUIRE(c.add(sigs[i], i * 10 + 7) == got);
        }
        if (match == semfp::match_policy::centres) REQUIRE(mixed > 0);
    }
}

TEMPLATE_TEST_CASE_SIG("TwoStageClusterer: a rule with another accept distance decides with it and keeps it through save "
                       "and load",
                       "[index][two_stage]", ((std::size_t Bits), Bits), 64, 128) {
    // The default accept distance is the recommended one; a calibrated rule may move it.
    REQUIRE(semfp::TwoStageClusterer<Bits>{}.rule().accept_distance == semfp::recommended_distance<Bits>);
    auto rule = semfp::two_stage_rule::recommended<Bits>();
    rule.accept_distance = semfp::recommended_distance<Bits> + 2;
    rule.radius = Bits == 64 ? 24u : 36u;
    rule.min_similarity = 0.653;
    std::mt19937_64 rng(Bits + 1);
    // Long texts with unrelated sketches: only the distance can join them.
    auto pair_at = [&](unsigned d) {
        std::array<std::uint64_t, Bits / 64> w{};
        const auto a = random_signature<Bits>(rng, w);
        semfp::Signature<Bits> b;
        for (unsigned i = 0; i < d; ++i) w[i / 64] ^= std::uint64_t{1} << (i % 64);
        b.fingerprint = semfp::Fingerprint<Bits>(w);
        b.sketch = random_sketch(rng);
        REQUIRE(semfp::estimated_jaccard(a.sketch, b.sketch) < 0.2);
        return std::pair{a, b};
    };
    semfp::TwoStageClusterer<Bits> c({rule, {}, semfp::match_policy::centres});
    semfp::TwoStageClusterer<Bits> dflt;
    std::vector<semfp::Signature<Bits>> added;
    std::uint64_t id = 0;
    for (const unsigned d : {rule.accept_distance, rule.accept_distance + 1, semfp::recommended_distance<Bits> + 1}) {
        const auto [a, b] = pair_at(d);
        REQUIRE(c.add(a, id).is_new);
        REQUIRE(dflt.add(a, id).is_new);
        added.push_back(a);
        ++id;
        const auto got = c.add(b, id);
        REQUIRE(got.is_new == (d > rule.accept_distance));
        if (!got.is_new) REQUIRE(got.distance == d);
        REQUIRE(dflt.add(b, id).is_new == (d > semfp::recommended_distance<Bits>));
        added.push_back(b);
        ++id;
    }
    std::stringstream ss;
    c.save(ss);
    semfp::TwoStageClusterer<Bits> loaded;  // the default rule, replaced by the saved one
    loaded.load(ss);
    REQUIRE(loaded.rule().accept_distance == rule.accept_distance);
    REQUIRE(loaded.rule().radius == rule.radius);
    REQUIRE(loaded.rule().min_similarity == rule.min_similarity);
    REQUIRE(loaded.rule().short_features == rule.short_features);
    REQUIRE(loaded.rule().short_similarity == rule.short_similarity);
    REQUIRE(loaded.cluster_count() == c.cluster_count());
    for (std::uint64_t i = 0; i < id; ++i) REQUIRE(loaded.cluster_of(i) == c.cluster_of(i));
    // The loaded clusterer goes on deciding with the saved accept distance.
    auto probe = added.front();
    auto words = probe.fingerprint.data();
    for (unsigned i = 0; i < rule.accept_distance; ++i) words[(Bits - 1 - i) / 64] ^= std::uint64_t{1} << ((Bits - 1 - i) % 64);
    probe.fingerprint = semfp::Fingerprint<Bits>(words);
    probe.sketch = random_sketch(rng);
    const auto joined = loaded.add(probe, id);
    REQUIRE_FALSE(joined.is_new);
    REQUIRE(joined.distance == rule.accept_distance);
}
