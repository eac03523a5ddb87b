#include "support/catch.hpp"

#include <semfp/core/weighting.hpp>
#include <semfp/signature/imatch.hpp>
#include <semfp/text/tokenizers.hpp>

#include <cstdint>
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
