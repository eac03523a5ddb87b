#include <semfp/core/signature.hpp>

#include "support/catch.hpp"

#include <cmath>
#include <string>
#include <string_view>
#include <type_traits>

namespace {

const std::string base_text =
    "\u65b0\u534e\u793e\u5317\u4eac\u7535\uff0c\u56fd\u5bb6\u7edf\u8ba1\u5c40\u4eca\u5929\u53d1\u5e03\u6570\u636e"
    "\u663e\u793a\uff0c\u4eca\u5e74\u524d\u4e09\u5b63\u5ea6\u56fd\u5185\u751f\u4ea7\u603b\u503c\u540c\u6bd4\u589e"
    "\u957f\u767e\u5206\u4e4b\u4e94\u70b9\u4e8c\uff0c\u7ecf\u6d4e\u8fd0\u884c\u603b\u4f53\u5e73\u7a33\uff0c\u5c31"
    "\u4e1a\u5f62\u52bf\u57fa\u672c\u7a33\u5b9a\uff0c\u5c45\u6c11\u6d88\u8d39\u4ef7\u683c\u6e29\u548c\u4e0a\u6da8"
    "\u3002\u4e13\u5bb6\u8ba4\u4e3a\uff0c\u56db\u5b63\u5ea6\u7ecf\u6d4e\u6709\u671b\u7ee7\u7eed\u56de\u5347\u3002";

}  // namespace

TEST_CASE("Signature: the fingerprint equals semfp::fingerprint, the sketch the exact Jaccard", "[core][signature]") {
    const auto s64 = semfp::signature<64>(base_text);
    REQUIRE(s64.fingerprint == semfp::fingerprint<64>(base_text));
    const auto s128 = semfp::signature<128>(base_text);
    REQUIRE(s128.fingerprint == semfp::fingerprint<128>(base_text));
    REQUIRE(s64.sketch.features() > 30);
    REQUIRE(s64.sketch == s128.sketch);  // no Taiwan phrases: the same tokens

    const semfp::SignatureFingerprinter<> maker;
    std::string edited = base_text;
    edited.replace(edited.size() / 2, 6, "\u67d0\u67d0");  // one substitution in the middle
    const double exact = maker.exact_jaccard(base_text, edited);
    CHECK(exact > 0.8);
    CHECK(exact < 1.0);
    const double est = semfp::estimated_jaccard(maker(base_text).sketch, maker(edited).sketch);
    CHECK(std::abs(est - exact) < 0.15);
    REQUIRE(maker.exact_jaccard("", "") == 1.0);
}

TEST_CASE("Fingerprinter<> and the baselines default to the same tokenizer", "[core][signature]") {
    STATIC_REQUIRE(std::is_same_v<semfp::Fingerprinter<>::tokenizer_type, semfp::default_tokenizer>);
    REQUIRE(semfp::Fingerprinter<>{}(base_text) == semfp::fingerprint<64>(base_text));
}

TEST_CASE("two_stage_rule: radius, similarity, short texts and empty texts", "[core][signature]") {
    const auto rule = semfp::two_stage_rule::recommended<64>();
    REQUIRE(rule.radius == 32);
    REQUIRE(semfp::two_stage_rule::recommended<128>().radius == 40);
    // The threshold rule (largest tuning negative within the radius + 0.045, rounded up to
    // 0.001) on format 5 sketches, at both widths: 151 / 255 = 0.5922 + 0.045 -> 0.638 at 64 bits,
    // 155 / 255 = 0.6078 + 0.045 -> 0.653 at 128. Both leave at least 0.045 to that negative.
    REQUIRE(rule.min_similarity == 0.638);
    REQUIRE(semfp::two_stage_rule::recommended<128>().min_similarity == 0.653);
    REQUIRE(semfp::two_stage_rule{}.min_similarity == rule.min_similarity);
    REQUIRE(rule.min_similarity - 151.0 / 255.0 >= 0.045);
    REQUIRE(semfp::two_stage_rule::recommended<128>().min_similarity - 155.0 / 255.0 >= 0.045);
    REQUIRE(semfp::two_stage_rule{}.radius == rule.radius);
    const auto a = semfp::signature(base_text);
    REQUIRE(rule.matches(a, a));
    const auto other = semfp::signature(
        "\u4eca\u5929\u5929\u6c14\u5f88\u597d\uff0c\u6211\u4eec\u4e00\u8d77\u53bb\u516c\u56ed\u6563\u6b65\uff0c"
        "\u770b\u5230\u8bb8\u591a\u5c0f\u670b\u53cb\u5728\u8349\u5730\u4e0a\u73a9\u800d\u3002");
    REQUIRE_FALSE(rule.verifies(a.sketch, other.sketch));
    // Empty texts match only empty texts.
    const auto empty = semfp::signature("");
    const auto punct = semfp::signature("\u3002\uff0c!!");
    REQUIRE(empty.sketch.empty());
    REQUIRE(rule.matches(empty, punct));
    REQUIRE_FALSE(rule.verifies(empty.sketch, a.sketch));
    // A short text needs the stricter similarity.
    semfp::two_stage_rule strict = rule;
    strict.short_features = 1000;
    strict.short_similarity = 1.0;
    std::string edited = base_text;
    edited.replace(0, 6, "\u67d0\u67d0");
    const auto b = semfp::signature(edited);
    REQUIRE(rule.verifies(a.sketch, b.sketch));
    REQUIRE_FALSE(strict.verifies(a.sketch, b.sketch));
    // Within accept_distance a long text needs no sketch; a short one always does.
    REQUIRE(rule.accept_distance == semfp::recommended_distance<64>);
    semfp::two_stage_rule no_sketch = rule;
    no_sketch.min_similarity = 2;  // the sketch never verifies a pair of long texts
    REQUIRE(no_sketch.accepts(rule.accept_distance, a.sketch, b.sketch));
    REQUIRE_FALSE(no_sketch.accepts(rule.accept_distance + 1, a.sketch, b.sketch));
    REQUIRE(rule.accepts(rule.accept_distance + 1, a.sketch, b.sketch));
    REQUIRE_FALSE(rule.accepts(rule.radius + 1, a.sketch, a.sketch));
    REQUIRE_FALSE(strict.accepts(0, a.sketch, b.sketch));
    REQUIRE(strict.accepts(0, a.sketch, a.sketch));
}

TEST_CASE("two_stage_rule: short texts are compared by the exact similarity of their token sets", "[core][signature]") {
    const semfp::SignatureFingerprinter<> maker;
    const auto rule = semfp::two_stage_rule::recommended<64>();
    // A line of verse: a short text, whose sketch holds its whole token set.
    const std::string poem =
        "\u5e8a\u524d\u660e\u6708\u5149\uff0c\u7591\u662f\u5730\u4e0a\u971c\u3002"
        "\u4e3e\u5934\u671b\u660e\u6708\uff0c\u4f4e\u5934\u601d\u6545\u4e61\u3002";
    std::string edited = poem;
    edited.replace(3, 3, "\u7a97");  // one character substituted
    const auto a = maker(poem);
    const auto b = maker(edited);
    REQUIRE(a.sketch.is_exact());
    REQUIRE(b.sketch.is_exact());
    REQUIRE(a.sketch.features() < rule.short_features);
    const double exact = maker.exact_jaccard(poem, edited);
    CHECK(exact < 1.0);
    REQUIRE(semfp::estimated_jaccard(a.sketch, b.sketch) == exact);
    REQUIRE(rule.verifies(a.sketch, b.sketch) == (exact >= rule.short_similarity));
    // Distance alone never decides for a short text.
    semfp::two_stage_rule never = rule;
    never.short_similarity = 2;
    REQUIRE_FALSE(never.accepts(0, a.sketch, b.sketch));
    // A long text keeps a MinHash sketch and is comparable with the short one.
    REQUIRE_FALSE(maker(base_text).sketch.is_exact());
    CHECK(semfp::estimated_jaccard(a.sketch, maker(base_text).sketch) < 0.2);
}

TEST_CASE("two_stage_rule: the radius of an exact search is capped, the rule's radius is not", "[core][signature]") {
    STATIC_REQUIRE(semfp::two_stage_rule::exact_search_limit<64> == 12);
    STATIC_REQUIRE(semfp::two_stage_rule::exact_search_limit<128> == 28);
    STATIC_REQUIRE(semfp::two_stage_rule::recommended<64>().exact_search_radius<64>() == 12);
    STATIC_REQUIRE(semfp::two_stage_rule::recommended<128>().exact_search_radius<128>() == 28);
    semfp::two_stage_rule r = semfp::two_stage_rule::recommended<64>();
    r.radius = 8;  // below the limit: the rule's own radius
    REQUIRE(r.exact_search_radius<64>() == 8);
    r.radius = 64;
    r.accept_distance = 14;  // above the limit: the accept distance is always searched
    REQUIRE(r.exact_search_radius<64>() == 14);
    REQUIRE(r.exact_search_radius<128>() == 28);
    // The rule accepts beyond the exact-search limit, up to its radius, when the sketch agrees.
    const auto a = semfp::signature(base_text);
    const auto rule = semfp::two_stage_rule::recommended<64>();
    REQUIRE(rule.accepts(rule.exact_search_radius<64>() + 1, a.sketch, a.sketch));
    REQUIRE(rule.accepts(rule.radius, a.sketch, a.sketch));
    REQUIRE_FALSE(rule.accepts(rule.radius + 1, a.sketch, a.sketch));
}

TEST_CASE("two_stage_rule: short texts, a letter edited, template lines and the distance",
          "[core][signature]") {
    const semfp::SignatureFingerprinter<> maker;
    const auto rule = semfp::two_stage_rule::recommended<64>();
    // A man-page title line: one letter of the command name substituted. As a whole word the
    // name would be lost (5 of 7 tokens shared, 0.71); in the short view (character bigrams of
    // the text, white space removed: 19 bigrams) two bigrams change on each side (17 of 21
    // features shared).
    const std::string title = "tk_messagebox - \u5f39\u51fa\u6d88\u606f\u7a97\u53e3";
    const std::string edited = "tk_messagebux - \u5f39\u51fa\u6d88\u606f\u7a97\u53e3";
    const auto a = maker(title);
    const auto b = maker(edited);
    REQUIRE(a.sketch.features() < rule.short_features);
    REQUIRE(a.sketch.is_exact());
    REQUIRE(b.sketch.is_exact());
    const double j = semfp::estimated_jaccard(a.sketch, b.sketch);
    REQUIRE(j == maker.exact_jaccard(title, edited));
    REQUIRE(j == 17.0 / 21.0);
    REQUIRE(rule.verifies(a.sketch, b.sketch));

    // Two short lines of one site that are different texts (the closest negatives of the
    // short-text set's tuning and confirmation halves) stay below the short threshold.
    const std::string dircolors_a = "dircolors - \u4e3a ls \u8bbe\u7f6e\u989c\u8272";
    const std::string dircolors_b = "dircolors - \u8bbe\u7f6e`ls'\u663e\u793a\u7ed3\u679c\u7684\u989c\u8272";
    CHECK(maker.exact_jaccard(dircolors_a, dircolors_b) < rule.short_similarity);
    REQUIRE_FALSE(rule.matches(maker(dircolors_a), maker(dircolors_b)));
    const std::string usage_a = "fileName arg arg ...?";
    const std::string usage_b = "wish [filename] [arg] [arg ...]";
    CHECK(maker.exact_jaccard(usage_a, usage_b) < rule.short_similarity);
    REQUIRE_FALSE(rule.matches(maker(usage_a), maker(usage_b)));

    // For a short pair the distance is not looked at: the sketch decides at any distance, while
    // a long pair beyond the radius is refused whatever its sketch.
    REQUIRE(rule.accepts(64, a.sketch, b.sketch));
    REQUIRE(rule.accepts(rule.radius + 1, a.sketch, a.sketch));
    semfp::two_stage_rule never = rule;
    never.short_similarity = 2;
    REQUIRE_FALSE(never.accepts(0, a.sketch, a.sketch));
    const auto long_text = maker(base_text);
    REQUIRE(long_text.sketch.features() >= rule.short_features);
    REQUIRE_FALSE(rule.accepts(rule.radius + 1, long_text.sketch, long_text.sketch));
    REQUIRE(rule.accepts(rule.radius, long_text.sketch, long_text.sketch));
    // A short text against a long one is decided by the short threshold, at any distance.
    REQUIRE(rule.accepts(64, a.sketch, long_text.sketch) == rule.verifies(a.sketch, long_text.sketch));
    REQUIRE_FALSE(rule.verifies(a.sketch, long_text.sketch));
}
