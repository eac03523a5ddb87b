// The Taiwan phrase fold (`normalize_options::fold_phrases`) in the fused pass against the
// reference (`normalize_into`, then `CharBigramTokenizer`), on texts made of the phrases
// themselves: every phrase of the table alone, in its Traditional renderings, between each kind
// of neighbour (inside a run of Han characters, after ASCII, punctuation, two- and four-byte
// characters, at the very end of the text, cut short), every pair of phrases that overlap
// (longest match first), every phrase next to the next one, and all phrases in one text. The
// pass's raw-byte phrase tests decide where the fold is looked for; a test that wrongly said
// "no phrase here" changes the bytes, the tokens and the fingerprint.
#include "support/catch.hpp"
#include "support/phrase_texts.hpp"
#include "support/scale.hpp"

#include <semfp/core/fingerprinter.hpp>
#include <semfp/core/fused_fingerprint.hpp>
#include <semfp/core/fused_text.hpp>
#include <semfp/text/normalize.hpp>
#include <semfp/text/script_fold.hpp>
#include <semfp/text/tokenizers.hpp>
#include <semfp/text/utf8.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

// Compares the fused pass with the reference on `t`: normalized bytes (the fused general path),
// the tokens of the fused pass (its run loop and phrase replacement), and both fingerprints.
struct checker {
    semfp::normalize_options opt = semfp::default_fingerprint_options<128>().normalize;
    semfp::DefaultFingerprinter<128> fp128{};
    semfp::fingerprint_scratch a, b;
    std::string buf;
    std::size_t texts = 0, folded = 0;

    void operator()(const std::string& t) {
        INFO("text: " << t);
        const std::string want = semfp::normalize(t, opt);
        const std::size_t n = semfp::detail::fused_normalize(t, buf, opt);
        REQUIRE(std::string_view(buf.data(), n) == want);
        std::vector<std::string> ref, fused;
        semfp::CharBigramTokenizer{}.tokenize(want, [&](std::string_view x) { ref.emplace_back(x); });
        auto emit = [&](const char* p, std::size_t len) { fused.emplace_back(p, len); };
        semfp::detail::fused_pass(t, buf, opt, emit);
        REQUIRE(fused == ref);
        REQUIRE(fp128(t, a) == fp128.reference(t, b));
        ++texts;
        semfp::normalize_options plain = opt;
        plain.fold_phrases = false;
        folded += want != semfp::normalize(t, plain) ? 1 : 0;
    }
};

}  // namespace

TEST_CASE("Fused phrase fold: every phrase, in every rendering and between every kind of neighbour",
          "[fused][phrases]") {
    checker check;
    REQUIRE(check.opt.fold_phrases);
    // Under the sanitizers: one rendering (and fewer neighbours: see the generator).
    semfp_test::for_each_phrase_between_neighbours(semfp_test::sanitized_build ? 1 : 3, check);
    REQUIRE(check.texts > (semfp_test::sanitized_build ? 8 : 60) * semfp::detail::tw_phrase_table_size);
    // Most texts hold a phrase that the fold replaces (the rest: prefixes, and phrases that are
    // their own representative).
    REQUIRE(check.folded > check.texts / 2);
}

TEST_CASE("Fused phrase fold: overlapping and adjacent phrases, and all phrases in one text", "[fused][phrases]") {
    checker check;
    const std::string run(semfp_test::han_run);  // a Han run before and after
    // Every pair of overlapping phrases (longest match first), alone and inside a run.
    const std::size_t overlaps = semfp_test::for_each_overlapping_phrase_pair([&](const std::string& t) {
        check(t);
        check(run + t + run);
    });
    REQUIRE(overlaps > 50);
    // Each phrase next to the following one, in both orders, with and without a run around.
    semfp_test::for_each_adjacent_phrase_pair(1, [&](const std::string& x, const std::string& y) {
        check(x + y);
        check(y + x);
        check(run + x + y + run);
    });
    // All phrases in one text, adjacent, in the table's order and in reverse, plain and in their
    // Traditional renderings.
    for (std::size_t k = 0; k < 2; ++k) {
        const std::string forward = semfp_test::all_phrases(k, false), backward = semfp_test::all_phrases(k, true);
        check(forward);
        check(backward);
        check(run + forward + "abc" + backward + run);
    }
}
