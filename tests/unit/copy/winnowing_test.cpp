#include <semfp/copy/winnowing.hpp>
#include <semfp/text/normalize.hpp>
#include <semfp/text/utf8.hpp>

#include "support/catch.hpp"
#include "support/sample_text.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace {

using semfp::winnow_fingerprint;

// Random Han text: code points drawn from 3,000 common ideographs (U+4E00..).
std::string random_han(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::string s;
    for (std::size_t i = 0; i < n; ++i) semfp::utf8::append(s, static_cast<char32_t>(0x4E00 + rng() % 3000));
    return s;
}

// The textbook selection: in every window the rightmost minimum; each selected position once.
std::vector<winnow_fingerprint> brute_force(const std::vector<winnow_fingerprint>& grams, std::size_t w) {
    std::vector<winnow_fingerprint> out;
    if (grams.empty()) return out;
    const std::size_t windows = grams.size() >= w ? grams.size() - w + 1 : 1;
    std::size_t last = grams.size();
    for (std::size_t s = 0; s < windows; ++s) {
        const std::size_t e = std::min(grams.size(), s + w);
        std::size_t pick = s;
        for (std::size_t i = s; i < e; ++i)
            if (grams[i].hash <= grams[pick].hash) pick = i;
        if (pick != last) out.push_back(grams[pick]);
        last = pick;
    }
    return out;
}

// The documented k-gram hash computed directly from its definition.
template <class Winnower>
std::uint64_t direct_kgram_hash(const std::vector<std::string_view>& tokens, std::size_t first, std::size_t k) {
    std::uint64_t h = 0;
    for (std::size_t j = 0; j < k; ++j) h = h * Winnower::base + semfp::default_hash::hash64(tokens[first + j]);
    return semfp::detail::fmix64(h);
}

std::set<std::uint64_t> hashes_of(const std::vector<winnow_fingerprint>& fps) {
    std::set<std::uint64_t> s;
    for (const auto& f : fps) s.insert(f.hash);
    return s;
}

}  // namespace

TEST_CASE("winnowing: k-gram hashes are the documented polynomial, spans are token bytes", "[copy][winnowing]") {
    const semfp::Winnower<> w({4, 10, false});
    const std::string text(semfp_test::article_c);
    std::vector<std::string_view> tokens;
    semfp::CharNgramTokenizer<1>{}.tokenize(text, [&](std::string_view t) { tokens.push_back(t); });
    std::vector<winnow_fingerprint> grams;
    semfp::winnow_counters counters;
    w.kgrams(text, grams, &counters);
    REQUIRE(counters.tokens == tokens.size());
    REQUIRE(grams.size() == tokens.size() - 3);
    for (std::size_t i = 0; i < grams.size(); ++i) {
        CHECK(grams[i].hash == direct_kgram_hash<semfp::Winnower<>>(tokens, i, 4));
        CHECK(grams[i].token == i);
        CHECK(grams[i].begin == static_cast<std::size_t>(tokens[i].data() - text.data()));
        CHECK(grams[i].end == static_cast<std::size_t>(tokens[i + 3].data() + tokens[i + 3].size() - text.data()));
    }
}

TEST_CASE("winnowing: selection equals the brute-force reference", "[copy][winnowing]") {
    const std::size_t k = GENERATE(std::size_t{1}, std::size_t{3}, std::size_t{5});
    const std::size_t t = GENERATE(std::size_t{5}, std::size_t{12}, std::size_t{40});
    const semfp::Winnower<> w({k, t, false});
    std::vector<std::string> texts = {random_han(3000, k * 100 + t), std::string(semfp_test::article_a),
                                      std::string(semfp_test::article_b), std::string(semfp_test::article_c),
                                      std::string(200, 'x') + "abc abc abc abc", random_han(7, 1), ""};
    for (const auto& text : texts) {
        std::vector<winnow_fingerprint> grams, got;
        w.kgrams(text, grams);
        w.winnow(text, got);
        CHECK(got == brute_force(grams, t - k + 1));
    }
}

TEST_CASE("winnowing: every shared run of at least t tokens shares a fingerprint", "[copy][winnowing]") {
    const std::size_t k = 5, t = 20;
    const semfp::Winnower<> w({k, t, false});
    const std::string passage = random_han(200, 7);
    for (std::size_t len = t; len <= 60; ++len) {
        // The first `len` code points of the passage planted in two unrelated texts.
        const std::string run = passage.substr(0, len * 3);
        const std::string a = random_han(150, len) + run + random_han(90, len + 1000);
        const std::string b = random_han(40, len + 2000) + run + random_han(170, len + 3000);
        const auto ha = hashes_of(w(a));
        const auto hb = hashes_of(w(b));
        std::size_t shared = 0;
        for (const auto h : ha) shared += hb.count(h);
        INFO("run of " << len << " tokens");
        CHECK(shared >= 1);
    }
}

TEST_CASE("winnowing: density on random text is 2/(w+1) within 5 %", "[copy][winnowing]") {
    const std::size_t t = GENERATE(std::size_t{14}, std::size_t{29}, std::size_t{54});
    const std::size_t k = 5;
    const semfp::Winnower<> w({k, t, false});
    const std::string text = random_han(200000, t);
    semfp::winnow_counters c;
    std::vector<winnow_fingerprint> fps;
    w.winnow(text, fps, &c);
    const double density = static_cast<double>(fps.size()) / static_cast<double>(c.kgrams);
    const double expected = 2.0 / static_cast<double>(t - k + 2);
    INFO("t = " << t << " density " << density << " expected " << expected);
    CHECK(std::abs(density - expected) <= 0.05 * expected);
}

TEST_CASE("winnowing: one repeated character costs linear work", "[copy][winnowing]") {
    std::string text;
    for (int i = 0; i < 50000; ++i) text += "\xE5\x95\x8A";  // U+554A
    semfp::winnow_counters c;
    std::vector<winnow_fingerprint> fps;
    const semfp::Winnower<> plain({5, 25, false});
    plain.winnow(text, fps, &c);
    CHECK(c.tokens == 50000);
    CHECK(c.kgrams == 50000 - 4);
    CHECK(c.queue_steps <= 2 * c.kgrams + 25);
    CHECK(fps.size() <= c.kgrams);
    // Robust winnowing keeps a selection while it stays in the window: one per window.
    semfp::winnow_counters rc;
    std::vector<winnow_fingerprint> robust_fps;
    const semfp::Winnower<> robust({5, 25, true});
    robust.winnow(text, robust_fps, &rc);
    CHECK(rc.queue_steps <= 2 * rc.kgrams + 25);
    CHECK(robust_fps.size() <= c.kgrams / 21 + 2);
    CHECK(robust_fps.size() >= c.kgrams / 21 - 2);
}

TEST_CASE("winnowing: robust selection equals its reference", "[copy][winnowing]") {
    const semfp::Winnower<> w({3, 10, true});
    // Low-entropy text with ties.
    std::string text;
    std::mt19937_64 rng(5);
    for (int i = 0; i < 3000; ++i) semfp::utf8::append(text, static_cast<char32_t>(0x4E00 + rng() % 3));
    std::vector<winnow_fingerprint> grams, got;
    w.kgrams(text, grams);
    w.winnow(text, got);
    std::vector<winnow_fingerprint> ref;
    const std::size_t win = 8;
    std::size_t last = grams.size();
    for (std::size_t s = 0; s + win <= grams.size(); ++s) {
        std::size_t pick = s;
        for (std::size_t i = s; i < s + win; ++i)
            if (grams[i].hash <= grams[pick].hash) pick = i;
        if (last != grams.size() && last >= s && grams[last].hash == grams[pick].hash) pick = last;
        if (pick != last) ref.push_back(grams[pick]);
        last = pick;
    }
    CHECK(got == ref);
}

TEST_CASE("winnowing: bad parameters and bad input", "[copy][winnowing]") {
    REQUIRE_THROWS_AS(semfp::Winnower<>({0, 5, false}), semfp::invalid_argument_error);
    REQUIRE_THROWS_AS(semfp::Winnower<>({6, 5, false}), semfp::invalid_argument_error);
    const semfp::Winnower<> w({2, 4, false});
    CHECK(w(std::string_view("\xFF\xFE\x00\xC0", 4)).empty());
    CHECK(w("").empty());
    // Fewer k-grams than one window: the minimum of all.
    CHECK(w("\xE4\xB8\x80\xE4\xB8\x81\xE4\xB8\x82").size() == 1);
}

TEST_CASE("winnowing: spans map to the original through width and script folding", "[copy][winnowing]") {
    // Full-width letters and Traditional characters around a Simplified passage.
    const std::string original = "\xEF\xBC\xA1\xEF\xBC\xA2 \xE8\xAA\x9E\xE7\xBE\xA9\xE6\x8C\x87\xE7\xB4\x8B xyz";
    // "ＡＢ 語義指紋 xyz"
    const semfp::Winnower<> w({1, 1, false});
    const auto nt = semfp::normalize_with_offsets(original);
    std::vector<winnow_fingerprint> fps;
    w.winnow(nt, fps);
    REQUIRE(fps.size() == 6);  // "ab", four Han characters, "xyz"
    CHECK(original.substr(fps[0].begin, fps[0].end - fps[0].begin) == "\xEF\xBC\xA1\xEF\xBC\xA2");
    CHECK(original.substr(fps[1].begin, fps[1].end - fps[1].begin) == "\xE8\xAA\x9E");  // 語
    CHECK(original.substr(fps[4].begin, fps[4].end - fps[4].begin) == "\xE7\xB4\x8B");  // 紋
    CHECK(original.substr(fps[5].begin, fps[5].end - fps[5].begin) == "xyz");
    // The folded text hashes as the Simplified text does.
    const std::string simplified = "ab \xE8\xAF\xAD\xE4\xB9\x89\xE6\x8C\x87\xE7\xBA\xB9 xyz";
    CHECK(hashes_of(w(simplified)) == hashes_of(fps));
}

TEST_CASE("winnowing: sentence blocks hash sentences with enough tokens", "[copy][winnowing]") {
    const semfp::Winnower<> w({2, 4, false});
    std::vector<winnow_fingerprint> a, b;
    w.sentence_blocks("\xE4\xBD\xA0\xE5\xA5\xBD\xE3\x80\x82 \xE4\xBB\x8A\xE5\xA4\xA9\xE5\xA4\xA9\xE6\xB0\x94\xE5\xBE\x88\xE5\xA5\xBD\xE3\x80\x82", 4, a);
    // "你好。 今天天气很好。": only the second sentence has >= 4 tokens.
    REQUIRE(a.size() == 1);
    CHECK(a[0].begin == 10);
    // Punctuation and spaces inside do not change the block hash.
    w.sentence_blocks("\xE4\xBB\x8A\xE5\xA4\xA9\xEF\xBC\x8C\xE5\xA4\xA9\xE6\xB0\x94 \xE5\xBE\x88\xE5\xA5\xBD\xEF\xBC\x81", 4, b);
    REQUIRE(b.size() == 1);
    CHECK(a[0].hash == b[0].hash);
}
