#include <semfp/index/posting_index.hpp>

#include "support/catch.hpp"

#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <utility>
#include <vector>

namespace {

using keys = std::vector<std::uint64_t>;

// Textbook pair counting: every pair of documents and the size of their key-set intersection,
// keys held by more than `cap` documents excluded.
std::vector<semfp::shared_key_pair> reference_pairs(const std::vector<keys>& docs, std::size_t cap) {
    std::map<std::uint64_t, std::size_t> df;
    std::vector<std::set<std::uint64_t>> sets;
    for (const auto& d : docs) {
        sets.emplace_back(d.begin(), d.end());
        for (const auto k : sets.back()) {
            ++df[k];
        }
    }
    std::vector<semfp::shared_key_pair> out;
    for (std::uint32_t a = 0; a < docs.size(); ++a) {
        for (std::uint32_t b = a + 1; b < docs.size(); ++b) {
            std::uint32_t n = 0;
            for (const auto k : sets[a]) {
                if (sets[b].count(k) != 0 && (cap == 0 || df[k] <= cap)) {
                    ++n;
                }
            }
            if (n > 0) {
                out.push_back({a, b, n});
            }
        }
    }
    return out;
}

}  // namespace

TEST_CASE("PostingIndex builds posting and forward lists", "[posting_index]") {
    semfp::PostingIndex idx;
    const keys d0{5, 3, 3, 9};
    const keys d1{9, 5};
    const keys d2{};
    const keys d3{7};
    idx.add(0, d0, 4);
    idx.add(1, d1, 2);
    idx.add(2, d2, 0);
    idx.add(3, d3, 1);
    REQUIRE_FALSE(idx.built());
    idx.build();
    REQUIRE(idx.built());
    CHECK(idx.document_count() == 4);
    CHECK(idx.key_count() == 4);      // 3 5 7 9
    CHECK(idx.posting_count() == 6);  // duplicate 3 in d0 counted once
    const std::size_t k5 = idx.find(5);
    REQUIRE(k5 < idx.key_count());
    CHECK(idx.key(k5) == 5);
    const auto p = idx.postings(k5);
    REQUIRE(p.size() == 2);
    CHECK(p[0].doc == 0);
    CHECK(p[0].count == 4);
    CHECK(p[1].doc == 1);
    CHECK(p[1].count == 2);
    CHECK(idx.find(42) == idx.key_count());
    CHECK(idx.keys_of(0).size() == 3);
    CHECK(idx.keys_of(2).empty());
    CHECK(idx.document_frequency(idx.find(9)) == 2);
    CHECK(idx.shared_keys(0, 1) == 2);
    CHECK(idx.shared_keys(0, 3) == 0);
}

TEST_CASE("PostingIndex pair counts match the textbook definition for every thread count and cap",
          "[posting_index]") {
    std::mt19937_64 rng(11);
    std::vector<keys> docs(700);
    for (auto& d : docs) {
        const std::size_t n = rng() % 12;
        for (std::size_t i = 0; i < n; ++i) {
            d.push_back(rng() % 400);  // dense key space: many shared keys
        }
    }
    docs[5] = docs[17];  // an exact duplicate
    semfp::PostingIndex idx;
    for (std::uint32_t i = 0; i < docs.size(); ++i) {
        idx.add(i, docs[i], 0);
    }
    idx.build();
    const std::size_t cap = GENERATE(std::size_t{0}, std::size_t{3}, std::size_t{12});
    const auto expected = reference_pairs(docs, cap);
    REQUIRE_FALSE(expected.empty());
    for (const unsigned threads : {1u, 2u, 3u, 8u}) {
        semfp::pair_count_options o;
        o.max_postings = cap;
        o.threads = threads;
        CHECK(idx.count_pairs(o) == expected);
    }
    semfp::pair_count_options o;
    o.max_postings = cap;
    o.min_shared = 2;
    std::vector<semfp::shared_key_pair> at_least_two;
    for (const auto& p : expected) {
        if (p.shared >= 2) {
            at_least_two.push_back(p);
        }
    }
    CHECK(idx.count_pairs(o) == at_least_two);
}

TEST_CASE("PostingIndex accepts adds after a build", "[posting_index]") {
    semfp::PostingIndex idx;
    const keys a{1, 2};
    const keys b{2, 3};
    idx.add(0, a, 0);
    idx.build();
    CHECK(idx.count_pairs().empty());
    idx.add(1, b, 0);
    REQUIRE_THROWS_AS((void)idx.count_pairs(), semfp::invalid_argument_error);
    idx.build();
    const auto pairs = idx.count_pairs();
    REQUIRE(pairs.size() == 1);
    CHECK(pairs[0] == semfp::shared_key_pair{0, 1, 1});
    CHECK(idx.posting_count() == 4);
}

TEST_CASE("PostingIndex refuses the reserved document number and handles an empty index", "[posting_index]") {
    semfp::PostingIndex idx;
    const keys a{1};
    REQUIRE_THROWS_AS(idx.add(0xFFFFFFFFu, a, 0), semfp::invalid_argument_error);
    CHECK(idx.document_count() == 0);
    idx.build();
    CHECK(idx.count_pairs().empty());
    CHECK(idx.find(1) == 0);
}
