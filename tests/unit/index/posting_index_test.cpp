#include <semfp/index/posting_index.hpp>

#include "support/catch.hpp"

#include <algorithm>
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

TEST_CASE("pair_counter drains the counted documents in ascending order and resets", "[posting_index]") {
    std::mt19937_64 rng(5);
    const std::size_t docs = 20000;  // five summary words
    semfp::detail::pair_counter counter(docs);
    for (int round = 0; round < 40; ++round) {
        std::map<std::uint32_t, std::uint32_t> expected;
        const std::size_t adds = rng() % 3000;
        // Some rounds stay inside one summary word, some hit the first and last document.
        const std::size_t span = round % 4 == 0 ? 4096 : docs;
        const std::size_t from = round % 4 == 0 ? rng() % (docs - span) : 0;
        for (std::size_t i = 0; i < adds; ++i) {
            const auto d = static_cast<std::uint32_t>(from + rng() % span);
            counter.add(d);
            ++expected[d];
        }
        if (round % 5 == 1) {
            counter.add(0);
            counter.add(static_cast<std::uint32_t>(docs - 1));
            ++expected[0];
            ++expected[static_cast<std::uint32_t>(docs - 1)];
        }
        std::vector<std::pair<std::uint32_t, std::uint32_t>> got;
        counter.drain([&](std::uint32_t d, std::uint32_t n) { got.emplace_back(d, n); });
        const std::vector<std::pair<std::uint32_t, std::uint32_t>> want(expected.begin(), expected.end());
        CHECK(got == want);
    }
    std::size_t calls = 0;
    counter.drain([&](std::uint32_t, std::uint32_t) { ++calls; });
    CHECK(calls == 0);
}

TEST_CASE("PostingIndex count_pairs_chunked hands each chunk its pairs in order, for every thread count",
          "[posting_index]") {
    std::mt19937_64 rng(23);
    const std::size_t n = 5000;  // 20 chunks of 256, pairs across summary words of the counter
    semfp::PostingIndex idx;
    for (std::uint32_t i = 0; i < n; ++i) {
        keys d;
        const std::size_t count = rng() % 8;
        for (std::size_t k = 0; k < count; ++k) {
            d.push_back(rng() % 3000);
        }
        idx.add(i, d, 0);
    }
    idx.build();
    semfp::pair_count_options one;
    one.max_postings = 40;
    const auto all = idx.count_pairs(one);
    REQUIRE(all.size() > 1000);
    struct chunk {
        std::vector<semfp::shared_key_pair> pairs;
        bool visited = false;
    };
    for (const unsigned threads : {1u, 2u, 3u}) {
        semfp::pair_count_options o = one;
        o.threads = threads;
        const auto chunks = idx.count_pairs_chunked<chunk>(
            o, [](chunk& c, std::uint32_t a, std::uint32_t b, std::uint32_t shared) {
                c.visited = true;
                c.pairs.push_back({a, b, shared});
            });
        REQUIRE(chunks.size() == (n + semfp::PostingIndex::pair_chunk_documents - 1) / semfp::PostingIndex::pair_chunk_documents);
        std::vector<semfp::shared_key_pair> flat;
        for (std::size_t c = 0; c < chunks.size(); ++c) {
            for (const auto& p : chunks[c].pairs) {
                CHECK(p.a / semfp::PostingIndex::pair_chunk_documents == c);
            }
            flat.insert(flat.end(), chunks[c].pairs.begin(), chunks[c].pairs.end());
        }
        CHECK(flat == all);
    }
}

TEST_CASE("PostingIndex count_pairs_chunked rethrows what a visit throws", "[posting_index]") {
    semfp::PostingIndex idx;
    const keys shared{1, 2, 3};
    for (std::uint32_t i = 0; i < 1000; ++i) {
        idx.add(i, shared, 0);
    }
    idx.build();
    for (const unsigned threads : {1u, 2u, 4u}) {
        semfp::pair_count_options o;
        o.threads = threads;
        REQUIRE_THROWS_AS(
            (void)idx.count_pairs_chunked<int>(o,
                                               [](int&, std::uint32_t a, std::uint32_t b, std::uint32_t) {
                                                   if (a == 700 && b == 900) {
                                                       semfp::detail::throw_invalid_argument("stop");
                                                   }
                                               }),
            semfp::invalid_argument_error);
    }
}
