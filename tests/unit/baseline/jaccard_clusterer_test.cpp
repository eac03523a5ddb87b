#include "support/catch.hpp"

#include <semfp/baseline/jaccard_clusterer.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace {

// Deterministic pseudo-random words.
struct rng {
    std::uint64_t state;
    std::uint64_t next() { return state = semfp::detail::fmix64(state + 0x9e3779b97f4a7c15ull); }
    std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
};

std::vector<std::string> make_texts() {
    rng r{42};
    std::vector<std::vector<std::string>> bases;
    for (int b = 0; b < 12; ++b) {
        std::vector<std::string> words;
        for (int w = 0; w < 120; ++w) words.push_back("w" + std::to_string(r.below(5000)));
        bases.push_back(words);
    }
    std::vector<std::string> texts;
    for (int i = 0; i < 60; ++i) {
        std::vector<std::string> words = bases[r.below(bases.size())];
        // 0..6 random word substitutions: Jaccard of 3-shingles from ~1 down to ~0.85.
        const std::size_t edits = r.below(7);
        for (std::size_t e = 0; e < edits; ++e) words[r.below(words.size())] = "x" + std::to_string(r.below(100000));
        std::string t;
        for (const auto& w : words) t += w + " ";
        texts.push_back(t);
    }
    return texts;
}

}  // namespace

TEST_CASE("JaccardClusterer equals an exhaustive single-pass reference", "[baseline][cluster]") {
    const double threshold = GENERATE(0.8, 0.9, 0.95);
    const auto texts = make_texts();
    using Sh = semfp::Shingler<semfp::WhitespaceTokenizer>;
    const Sh shingler(semfp::WhitespaceTokenizer{}, 3);
    // One value per band: a pair of Jaccard >= 0.8 misses every band with probability
    // 0.2^128, so candidate generation is exhaustive for practical purposes and the result must
    // equal the exact reference whatever the hash function.
    semfp::JaccardClusterer<semfp::WhitespaceTokenizer> clusterer(threshold, shingler, semfp::lsh_params{128, 1});

    // Reference: compare with every centre, best Jaccard >= threshold, earliest on ties.
    std::vector<semfp::ShingleSet> centre_sets;
    std::vector<std::uint64_t> centre_ids;
    std::vector<std::uint64_t> expected;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const auto s = shingler(texts[i]);
        std::optional<std::size_t> best;
        double best_j = -1;
        for (std::size_t c = 0; c < centre_sets.size(); ++c) {
            const double j = semfp::jaccard(s, centre_sets[c]);
            if (j >= threshold && j > best_j) {
                best_j = j;
                best = c;
            }
        }
        if (best) {
            expected.push_back(centre_ids[*best]);
        } else {
            centre_sets.push_back(s);
            centre_ids.push_back(i);
            expected.push_back(i);
        }
    }

    for (std::size_t i = 0; i < texts.size(); ++i) {
        const auto r = clusterer.add(texts[i], i);
        CHECK(r.cluster == expected[i]);
        CHECK(r.is_new == (expected[i] == i));
        CHECK(r.jaccard >= threshold);
    }
    REQUIRE(clusterer.size() == texts.size());
    CHECK(clusterer.cluster_count() == centre_ids.size());
    CHECK(std::vector<std::uint64_t>(clusterer.centres().begin(), clusterer.centres().end()) == centre_ids);
    std::size_t total = 0;
    for (const std::size_t n : clusterer.cluster_sizes()) total += n;
    CHECK(total == texts.size());
    for (std::size_t i = 0; i < texts.size(); ++i) {
        CHECK(clusterer.cluster_of(i) == expected[i]);
        CHECK(clusterer.contains(i));
        CHECK(clusterer.is_centre(i) == (expected[i] == i));
    }
    for (std::size_t c = 0; c < centre_ids.size(); ++c)
        CHECK(clusterer.cluster_size(centre_ids[c]) == clusterer.cluster_sizes()[c]);
    CHECK(clusterer.cluster_size(texts.size() + 5) == 0);
    CHECK_FALSE(clusterer.contains(texts.size()));
    CHECK_FALSE(clusterer.cluster_of(texts.size()).has_value());
    // The test data must exercise both outcomes.
    CHECK(centre_ids.size() > 1);
    CHECK(centre_ids.size() < texts.size());
}

TEST_CASE("JaccardClusterer parameters and errors", "[baseline][cluster]") {
    semfp::JaccardClusterer<> c(0.95);
    CHECK(c.threshold() == 0.95);
    CHECK(c.lsh_shape().bands * c.lsh_shape().rows <= 128);
    const auto first = c.add("\xE4\xB8\xAD\xE6\x96\x87\xE6\x96\x87\xE6\x9C\xAC", 7);
    CHECK(first.is_new);
    CHECK(first.cluster == 7);
    const auto again = c.add("\xE4\xB8\xAD\xE6\x96\x87\xE6\x96\x87\xE6\x9C\xAC", 8);
    CHECK_FALSE(again.is_new);
    CHECK(again.cluster == 7);
    REQUIRE_THROWS_AS(c.add("abc", 7), semfp::invalid_argument_error);
    CHECK(c.size() == 2);
    REQUIRE_THROWS_AS(semfp::JaccardClusterer<>(0.0), semfp::invalid_argument_error);
    REQUIRE_THROWS_AS(semfp::JaccardClusterer<>(1.5), semfp::invalid_argument_error);
    semfp::JaccardClusterer<> exact(1.0);
    CHECK(exact.add("a b c", 1).is_new);
    CHECK_FALSE(exact.add("A B C", 2).is_new);
    CHECK(exact.add("a b c d", 3).is_new);
}
