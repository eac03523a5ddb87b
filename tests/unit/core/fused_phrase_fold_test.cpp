// The Taiwan phrase fold (`normalize_options::fold_phrases`) in the fused pass against the
// reference (`normalize_into`, then `CharBigramTokenizer`), on texts made of the phrases
// themselves: every phrase of the table alone, in its Traditional renderings, between each kind
// of neighbour (inside a run of Han characters, after ASCII, punctuation, two- and four-byte
// characters, at the very end of the text, cut short), every pair of phrases that overlap
// (longest match first), every phrase next to the next one, and all phrases in one text. The
// pass's raw-byte phrase tests decide where the fold is looked for; a test that wrongly said
// "no phrase here" changes the bytes, the tokens and the fingerprint.
#include "support/catch.hpp"
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

std::string utf8_of(std::u32string_view s) {
    std::string out;
    for (const char32_t c : s) semfp::utf8::append(out, c);
    return out;
}

// The characters that fold to `c` (Traditional forms), `c` itself first.
std::vector<char32_t> forms_of(char32_t c) {
    std::vector<char32_t> out{c};
    for (const auto& p : semfp::detail::t2s_table)
        if (p.to == c) out.push_back(p.from);
    return out;
}

// A phrase written with the `k`-th form of each character (cycling through the forms).
std::string rendering(std::u32string_view phrase, std::size_t k) {
    std::u32string s;
    for (std::size_t i = 0; i < phrase.size(); ++i) {
        const auto forms = forms_of(phrase[i]);
        s += forms[(k + i) % forms.size()];
    }
    return utf8_of(s);
}

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

TEST_CASE("Fused phrase fold: every phrase, in every rendering and between every kind of neighbour", "[fused][phrases]") {
    checker check;
    REQUIRE(check.opt.fold_phrases);
    // Before: nothing, a Han run (the run loop reaches the phrase), ASCII, full-width and CJK
    // punctuation, a two-byte and a four-byte character. After: the same, a lead byte cut short,
    // and a Han run long enough that the phrase is not among the text's last nine bytes.
    const std::vector<std::string> before{"", "\xE6\x88\x91\xE4\xBB\xAC\xE7\x9A\x84\xE8\xBF\x99", "abc ", "x",
                                          "\xEF\xBC\x8C", "\xE3\x80\x82", "\xC3\xA9", "\xF0\xA0\x80\x80"};
    const std::vector<std::string> after{"",           "\xE6\x88\x91\xE4\xBB\xAC\xE7\x9A\x84\xE8\xBF\x99\xE4\xB8\xAA",
                                         " end",       "\xEF\xBC\x8C",
                                         "\xC3\xA9",   "\xF0\xA0\x80\x80",
                                         "\xE4\xB8",   "\xE4\xB8\xAD\xE6\x96\x87"};
    for (std::size_t e = 0; e < semfp::detail::tw_phrase_table_size; ++e) {
        const std::u32string_view from = semfp::detail::tw_phrase_table[e].from;
        std::size_t renderings = 1;
        for (const char32_t c : from) renderings = std::max(renderings, forms_of(c).size());
        // Under the sanitizers: one rendering, and one neighbour after each one before (turning
        // with the phrase, so that every pair of neighbours still occurs).
        const std::size_t kinds = semfp_test::sanitized_build ? 1 : 3;
        for (std::size_t k = 0; k < std::min(renderings, kinds); ++k) {
            const std::string p = rendering(from, k);
            for (std::size_t x = 0; x < before.size(); ++x)
                for (std::size_t y = 0; y < after.size(); ++y)
                    if (!semfp_test::sanitized_build || y == (x + e) % after.size()) check(before[x] + p + after[y]);
            // Cut short: every proper prefix, inside a run.
            for (std::size_t len = 1; len < from.size(); ++len) check(before[1] + rendering(from.substr(0, len), k) + after[1]);
        }
    }
    REQUIRE(check.texts > (semfp_test::sanitized_build ? 8 : 60) * semfp::detail::tw_phrase_table_size);
    // Most texts hold a phrase that the fold replaces (the rest: prefixes, and phrases that are
    // their own representative).
    REQUIRE(check.folded > check.texts / 2);
}

TEST_CASE("Fused phrase fold: overlapping and adjacent phrases, and all phrases in one text", "[fused][phrases]") {
    checker check;
    const std::size_t count = semfp::detail::tw_phrase_table_size;
    const std::string run = "\xE6\x88\x91\xE4\xBB\xAC\xE7\x9A\x84";  // a Han run before and after
    // Every ordered pair (A, B) where a proper suffix of A is a prefix of B: A followed by the
    // rest of B, so that the longest match at each position decides.
    std::size_t overlaps = 0;
    for (std::size_t a = 0; a < count; ++a) {
        const std::u32string_view x = semfp::detail::tw_phrase_table[a].from;
        for (std::size_t b = 0; b < count; ++b) {
            const std::u32string_view y = semfp::detail::tw_phrase_table[b].from;
            for (std::size_t k = 1; k < x.size() && k < y.size(); ++k) {
                if (x.substr(x.size() - k) != y.substr(0, k)) continue;
                const std::string t = utf8_of(x) + utf8_of(y.substr(k));
                check(t);
                check(run + t + run);
                ++overlaps;
            }
        }
    }
    REQUIRE(overlaps > 50);
    // Each phrase next to the following one, in both orders, with and without a run around.
    for (std::size_t e = 0; e < count; ++e) {
        const std::string x = rendering(semfp::detail::tw_phrase_table[e].from, 0);
        const std::string y = rendering(semfp::detail::tw_phrase_table[(e + 1) % count].from, 1);
        check(x + y);
        check(y + x);
        check(run + x + y + run);
    }
    // All phrases in one text, adjacent, in the table's order and in reverse, plain and in their
    // Traditional renderings.
    for (std::size_t k = 0; k < 2; ++k) {
        std::string forward, backward;
        for (std::size_t e = 0; e < count; ++e) {
            forward += rendering(semfp::detail::tw_phrase_table[e].from, k);
            backward += rendering(semfp::detail::tw_phrase_table[count - 1 - e].from, k);
        }
        check(forward);
        check(backward);
        check(run + forward + "abc" + backward + run);
    }
}
