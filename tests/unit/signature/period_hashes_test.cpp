#include <semfp/signature/period.hpp>
#include <semfp/signature/period_hashes.hpp>

#include "support/catch.hpp"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

// The one-pass hashes (the fast path of PeriodDetector::add) against the plain form:
// normalize_into, then for_each_normalized_period_string, then Murmur3::hash64 of each string.

namespace {

std::vector<std::uint64_t> plain(std::string_view text, const semfp::period_options& o) {
    std::string normalized, scratch;
    semfp::normalize_into(text, normalized, o.normalization);
    std::vector<std::uint64_t> out;
    semfp::for_each_normalized_period_string(
        normalized, o, scratch, [&](std::string_view s, std::size_t) { out.push_back(semfp::Murmur3::hash64(s)); });
    return out;
}

std::vector<std::uint64_t> one_pass(std::string_view text, const semfp::period_options& o) {
    const semfp::detail::period_terminator_set terms(o.terminators);
    std::vector<std::uint64_t> out;
    semfp::detail::for_each_period_hash(
        text, o.normalization, o.length, terms, [](char32_t c) noexcept { return semfp::detail::period_space(c); },
        [&](std::uint64_t h) { out.push_back(h); });
    return out;
}

std::vector<semfp::period_options> option_sets() {
    std::vector<semfp::period_options> sets;
    for (const std::size_t length : {std::size_t{1}, std::size_t{3}, std::size_t{8}, std::size_t{64}}) {
        semfp::period_options o;
        o.length = length;
        sets.push_back(o);
    }
    semfp::period_options o;
    o.terminators = U"\u3002";
    sets.push_back(o);
    o.terminators = U"a\u4E00\u570B.";  // letters and Han characters (one Traditional) as terminators
    sets.push_back(o);
    o.normalization.fold_case = false;
    o.normalization.fold_width = false;
    sets.push_back(o);
    o.normalization.fold_script = false;
    sets.push_back(o);
    return sets;
}

}  // namespace

TEST_CASE("period hashes in one pass equal the hashes of the normalized strings", "[period]") {
    const std::vector<std::string> texts = {
        "",
        "\xE3\x80\x82",
        "这是第一句话。这是第二句话！第三句？",
        "ＡＢＣ全角字母。國際標準化組織。v1.2 和 3.14 不分句. 中文后的句点.结束",
        "Mixed ASCII. Sentence two! And three? Done;",
        "空格\xE3\x80\x80与\u00A0不间断　空格。\t制表符 。 ",
        "malformed \xE4\xBD bytes \xFF\xC0\xAF here\xE3\x80\x82 cut \xE4",
        "\xE4\xBD\xEF\xBC\xA1 lead then full-width A\xE3\x80\x82 NUL \0 inside\xE3\x80\x82",
        "a.b.c. A.B.C.\n国.国 . 。。。",
    };
    for (const auto& o : option_sets()) {
        for (const auto& t : texts) CHECK(one_pass(t, o) == plain(t, o));
    }
}

TEST_CASE("period hashes in one pass: random bytes and random mixes of units", "[period]") {
    std::mt19937 rng(11);
    const std::vector<std::string> pieces = {"\xE3\x80\x82",
                                             "\xEF\xBD\xA1",
                                             "\xEF\xBC\x81",
                                             "\xEF\xBC\x8E",
                                             ".",
                                             "!",
                                             " ",
                                             "\n",
                                             "\xE3\x80\x80",
                                             "\xC2\xA0",
                                             "A",
                                             "z",
                                             "3",
                                             "\xE5\x9C\x8B",
                                             "\xE4\xB8\xAD",
                                             "\xF0\x9F\x98\x80",
                                             "\xE4",
                                             "\xBD",
                                             "\xFF",
                                             "\xED\xA0\x80",
                                             "\xEF\xBC\xA1",
                                             "\xE2\x80\x8B"};
    const auto sets = option_sets();
    for (int round = 0; round < 400; ++round) {
        std::string t;
        const int n = static_cast<int>(rng() % 200);
        for (int k = 0; k < n; ++k) {
            if (round % 2 == 0)
                t += pieces[rng() % pieces.size()];
            else
                t.push_back(static_cast<char>(rng() & 0xFF));
        }
        const auto& o = sets[static_cast<std::size_t>(round) % sets.size()];
        CHECK(one_pass(t, o) == plain(t, o));
    }
}

TEST_CASE("period hashes in one pass on the corpus", "[period]") {
    std::ifstream in(std::filesystem::path(SEMFP_SOURCE_DIR) / ".." / "shared" / "corpus" / "manpages_zh_cn.jsonl");
    std::string line;
    std::size_t docs = 0;
    const semfp::period_options o;
    while (docs < 300 && std::getline(in, line)) {
        CHECK(one_pass(line, o) == plain(line, o));  // the JSON line itself: escapes, ASCII and Han
        ++docs;
    }
    if (docs == 0) {
        // No corpus next to the source tree: a built-in text in several variants.
        const std::string t = "網頁內容。全角ＡＢＣ。Half width abc. 国际标准。";
        CHECK(one_pass(t, o) == plain(t, o));
    }
}

TEST_CASE("PeriodDetector with phrase folding takes the plain path and agrees", "[period]") {
    semfp::period_options o;
    o.min_idf = 0;
    o.min_strings = 1;
    o.normalization.fold_phrases = true;
    semfp::PeriodDetector with(o);
    (void)with.add("軟體程式設計很重要。我們使用軟體。");
    (void)with.add("软件程序设计很重要。我们使用软件。");
    with.run();
    CHECK(with.compare(0, 1).shared >= 1);
}
