#include "support/catch.hpp"

#include <semfp/baseline/shingle.hpp>
#include <semfp/text/stopwords.hpp>

#include <cstdint>
#include <string>
#include <vector>

using semfp::ShingleSet;
using Catch::Matchers::WithinAbs;

namespace {

ShingleSet set_of(std::vector<std::uint64_t> v) { return ShingleSet(std::move(v)); }

}  // namespace

TEST_CASE("ShingleSet keeps sorted unique hashes", "[baseline][shingle]") {
    const ShingleSet s = set_of({5, 1, 3, 5, 1});
    REQUIRE(s.size() == 3);
    const std::vector<std::uint64_t> got(s.begin(), s.end());
    CHECK(got == std::vector<std::uint64_t>{1, 3, 5});
    CHECK(s.contains(3));
    CHECK_FALSE(s.contains(4));
    CHECK(set_of({3, 1, 5}) == s);
    CHECK(ShingleSet().empty());
}

TEST_CASE("exact Jaccard and containment on hand-made sets", "[baseline][shingle]") {
    const ShingleSet a = set_of({1, 2, 3});
    const ShingleSet b = set_of({2, 3, 4});
    const ShingleSet c = set_of({1, 2, 3, 4, 5, 6});
    const ShingleSet d = set_of({7, 8});
    const ShingleSet empty;

    CHECK(semfp::intersection_size(a, b) == 2);
    CHECK_THAT(semfp::jaccard(a, b), WithinAbs(0.5, 1e-12));
    CHECK_THAT(semfp::jaccard(b, a), WithinAbs(0.5, 1e-12));
    CHECK_THAT(semfp::jaccard(a, a), WithinAbs(1.0, 1e-12));
    CHECK_THAT(semfp::jaccard(a, c), WithinAbs(0.5, 1e-12));
    CHECK_THAT(semfp::jaccard(a, d), WithinAbs(0.0, 1e-12));
    CHECK_THAT(semfp::jaccard(empty, empty), WithinAbs(1.0, 1e-12));
    CHECK_THAT(semfp::jaccard(empty, a), WithinAbs(0.0, 1e-12));

    CHECK_THAT(semfp::containment(a, b), WithinAbs(2.0 / 3.0, 1e-12));
    CHECK_THAT(semfp::containment(a, c), WithinAbs(1.0, 1e-12));
    CHECK_THAT(semfp::containment(c, a), WithinAbs(0.5, 1e-12));
    CHECK_THAT(semfp::containment(a, d), WithinAbs(0.0, 1e-12));
    CHECK_THAT(semfp::containment(empty, a), WithinAbs(1.0, 1e-12));
    CHECK_THAT(semfp::containment(a, empty), WithinAbs(0.0, 1e-12));
}

TEST_CASE("Shingler makes w-shingles of tokens", "[baseline][shingle]") {
    const semfp::Shingler<semfp::WhitespaceTokenizer> w3(semfp::WhitespaceTokenizer{}, 3);

    SECTION("k >= w tokens give k - w + 1 shingles") {
        CHECK(w3("a b c d e").size() == 3);
        CHECK(w3("a b c").size() == 1);
        CHECK(w3("a b c a b c").size() == 3);  // abc, bca, cab, abc
    }
    SECTION("fewer than w tokens give one shingle of all of them") {
        CHECK(w3("a b").size() == 1);
        CHECK(w3("a").size() == 1);
        CHECK(w3("a b") != w3("b a"));
        CHECK(w3("a b") != w3("a"));
    }
    SECTION("no tokens give the empty set") {
        CHECK(w3("").empty());
        CHECK(w3("   ").empty());
    }
    SECTION("shingles are order-sensitive within and share across texts") {
        CHECK(w3("a b c") != w3("c b a"));
        // {abc, bcd} vs {bcd, cde}
        CHECK_THAT(semfp::jaccard(w3("a b c d"), w3("b c d e")), WithinAbs(1.0 / 3.0, 1e-12));
        CHECK_THAT(semfp::containment(w3("b c d"), w3("a b c d e")), WithinAbs(1.0, 1e-12));
    }
    SECTION("text is normalized like the fingerprinter's") {
        CHECK(w3("Alpha BETA gamma") == w3("alpha beta gamma"));
        CHECK(w3("\xEF\xBC\xA1\xEF\xBC\xA2 c d") == w3("ab c d"));  // full-width "AB"
    }
    SECTION("width 1 is the set of tokens") {
        const semfp::Shingler<semfp::WhitespaceTokenizer> w1(semfp::WhitespaceTokenizer{}, 1);
        CHECK(w1("x y x z").size() == 3);
        CHECK(w1("x y") == w1("y x"));
    }
    SECTION("width 0 is refused") {
        REQUIRE_THROWS_AS(semfp::Shingler<semfp::WhitespaceTokenizer>(semfp::WhitespaceTokenizer{}, 0),
                          semfp::invalid_argument_error);
    }
}

TEST_CASE("Shingler on Chinese text with character bigrams", "[baseline][shingle]") {
    const semfp::Shingler<> sh;  // default_tokenizer (as Fingerprinter), w = 3, default hash
    CHECK(sh.width() == 3);
    // "\xE4\xB8\xAD\xE6\x96\x87\xE6\x96\x87\xE6\x9C\xAC" = 4 Han characters -> 3 bigrams -> 1 shingle
    const std::string four = "\xE4\xB8\xAD\xE6\x96\x87\xE6\x96\x87\xE6\x9C\xAC";
    CHECK(sh(four).size() == 1);
    CHECK(sh(four + four).size() == 4);  // 7 bigrams, 5 windows, the last repeats the first
    CHECK_THAT(semfp::jaccard(sh(four), sh(four)), WithinAbs(1.0, 1e-12));

    SECTION("from_text equals the shingler") {
        CHECK(ShingleSet::from_text(semfp::CharBigramTokenizer{}, four + four) == sh(four + four));
        CHECK(ShingleSet::from_text<semfp::Fnv1a>(semfp::CharBigramTokenizer{}, four, 2) ==
              semfp::Shingler<semfp::CharBigramTokenizer, semfp::Fnv1a>(semfp::CharBigramTokenizer{}, 2)(four));
    }
    SECTION("works with a stopword filter") {
        const semfp::Shingler<semfp::StopwordFilter<semfp::CharBigramTokenizer>> filtered(
            semfp::StopwordFilter<semfp::CharBigramTokenizer>{}, 3);
        CHECK(filtered(four + four).size() <= 4);
    }
}
