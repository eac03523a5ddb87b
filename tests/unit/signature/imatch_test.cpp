#include "support/catch.hpp"

#include <semfp/core/weighting.hpp>
#include <semfp/signature/imatch.hpp>
#include <semfp/text/tokenizers.hpp>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace {
using imatch = semfp::IMatch<semfp::WhitespaceTokenizer>;

semfp::IdfTable table() {
    semfp::IdfTable t(9.0);  // unknown terms: outside the band
    t.set("the", 0.5);
    for (const char* w : {"apple", "pear", "plum", "fig", "kiwi", "lime", "date", "yuzu"}) t.set(w, 3.0);
    return t;
}

semfp::imatch_options band(std::size_t k = 1) {
    semfp::imatch_options o;
    o.min_idf = 1.0;
    o.max_idf = 5.0;
    o.lexicons = k;
    return o;
}
}  // namespace

TEST_CASE("I-Match digests the sorted unique lexicon terms", "[signature][imatch]") {
    const auto idf = table();
    const imatch im(idf, {}, band());
    const auto a = im("the apple the pear zzz");
    CHECK(a == im("pear apple apple qqq the"));
    CHECK(a == semfp::digest_fingerprint<semfp::Md5>("apple\npear\n"));
    CHECK(a != im("apple pear plum"));
    CHECK(im.lexicon_terms("the pear apple pear") == std::vector<std::string>{"apple", "pear"});
}

TEST_CASE("I-Match without lexicon terms falls back to the exact signature", "[signature][imatch]") {
    const auto idf = table();
    const imatch im(idf, {}, band());
    CHECK(im("the the") != im("the zzz"));
    CHECK(im("") == semfp::exact_signature(""));
}

TEST_CASE("multi-lexicon I-Match survives a changed term in some sub-lexicon", "[signature][imatch]") {
    const auto idf = table();
    const imatch multi(idf, {}, band(10));
    REQUIRE(multi.size() == 10);
    const auto a = multi.signatures("apple pear plum fig kiwi lime date");
    const auto c = multi.signatures("apple pear plum fig kiwi lime date");
    CHECK(imatch::matches(a, c));
    CHECK(a == c);
    // Sub-lexicon k ignores both changed terms with probability 0.3^2 = 0.09, so with 10
    // sub-lexicons some signature survives with probability 1 - 0.91^10 = 0.61: over 40 seeds
    // the share of matches lies well inside [0.3, 0.9].
    int matched = 0;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        auto o = band(10);
        o.seed = seed;
        const imatch m(idf, {}, o);
        if (imatch::matches(m.signatures("apple pear plum fig kiwi lime date"),
                            m.signatures("apple pear plum fig kiwi lime yuzu")))
            ++matched;
    }
    CHECK(matched >= 12);
    CHECK(matched <= 36);
    const imatch single(idf, {}, band(1));
    CHECK(single("apple pear plum fig kiwi lime date") != single("apple pear plum fig kiwi lime yuzu"));
    // Distinct documents match in no sub-lexicon.
    CHECK_FALSE(imatch::matches(a, multi.signatures("plum fig")));
}

TEST_CASE("I-Match refuses bad options", "[signature][imatch]") {
    const auto idf = table();
    semfp::imatch_options o = band();
    o.min_idf = 6.0;
    CHECK_THROWS_AS(imatch(idf, {}, o), semfp::invalid_argument_error);
    o = band(0);
    CHECK_THROWS_AS(imatch(idf, {}, o), semfp::invalid_argument_error);
    o = band(3);
    o.keep_fraction = 0.0;
    CHECK_THROWS_AS(imatch(idf, {}, o), semfp::invalid_argument_error);
}

TEST_CASE("I-Match min_terms: a signature over too few terms is the exact signature", "[signature][imatch]") {
    const auto idf = table();
    auto o = band();
    o.min_terms = 3;
    const imatch im(idf, {}, o);
    // Two lexicon terms: below 3, so the exact signature of the (normalized) text.
    CHECK(im("apple pear") == semfp::exact_signature("apple pear"));
    CHECK(im("apple pear") != im("pear apple"));
    CHECK(im("apple pear zzz") != im("apple pear qqq"));
    // Three: the digest of the terms, as with min_terms = 1.
    CHECK(im("apple pear plum zzz") == semfp::digest_fingerprint<semfp::Md5>("apple\npear\nplum\n"));
    CHECK(im("apple pear plum zzz") == im("plum pear apple qqq"));
    const imatch plain(idf, {}, band());
    CHECK(plain("apple pear zzz") == plain("apple pear qqq"));
    // With K sub-lexicons the rule applies to each one's kept terms.
    o = band(10);
    o.min_terms = 8;  // more than any sub-lexicon keeps at keep 0.7 of 8 terms, with high probability
    o.keep_fraction = 0.5;
    const imatch multi(idf, {}, o);
    const auto s = multi.signatures("apple pear plum fig kiwi lime date yuzu");
    for (const auto& f : s) CHECK(f == semfp::exact_signature("apple pear plum fig kiwi lime date yuzu"));
    o.min_terms = 0;
    CHECK_THROWS_AS(imatch(idf, {}, o), semfp::invalid_argument_error);
}

TEST_CASE("I-Match over a table read from a list gives unknown terms the median IDF", "[signature][imatch][idf]") {
    std::istringstream in("a 1.0\nb 2.0\nc 7.0\nd 8.0\ne 9.0\n");
    const auto idf = semfp::IdfTable::from_list(in);
    CHECK(idf.default_idf() == 7.0);
    auto o = band();
    o.min_idf = 6.5;
    o.max_idf = 7.5;
    const imatch im(idf, {}, o);
    // "zzz" is unknown: median 7.0, inside [6.5, 7.5]; "c" too; "a" and "e" are outside.
    CHECK(im.lexicon_terms("a c e zzz") == std::vector<std::string>{"c", "zzz"});
}
