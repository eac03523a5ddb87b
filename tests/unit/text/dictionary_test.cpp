#include "support/catch.hpp"
#include "support/scale.hpp"

#include <semfp/error.hpp>
#include <semfp/text/dictionary.hpp>

#include <algorithm>
#include <iterator>
#include <cstdint>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

std::vector<std::string> all_words(const semfp::Dictionary& d) {
    std::vector<std::string> out;
    d.for_each_word([&](std::string_view w) { out.emplace_back(w); });
    return out;
}

semfp::Dictionary load_text(const std::string& text) {
    std::istringstream in(text);
    semfp::Dictionary d;
    d.load(in);
    return d;
}

// Random Han words over a small alphabet (many shared prefixes and suffixes).
std::vector<std::string> random_words(std::size_t count, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> len(1, 6);
    std::uniform_int_distribution<int> ch(0, 40);
    std::vector<std::string> out;
    for (std::size_t i = 0; i < count; ++i) {
        std::string w;
        const int n = len(rng);
        for (int k = 0; k < n; ++k) {
            const int v = ch(rng);
            // Mostly BMP ideographs, a few from Extension B (four UTF-8 bytes).
            const char32_t c = v < 38 ? static_cast<char32_t>(0x4E00 + v * 37) : static_cast<char32_t>(0x20000 + v);
            semfp::utf8::append(w, c);
        }
        out.push_back(std::move(w));
    }
    return out;
}

}  // namespace

TEST_CASE("Dictionary: build from words", "[dictionary]") {
    const semfp::Dictionary d{"研究", "研究生", "生命", "起源", "研究"};
    CHECK(d.size() == 4);
    CHECK(!d.empty());
    CHECK(d.contains("研究"));
    CHECK(d.contains("研究生"));
    CHECK(d.contains("生命"));
    CHECK(!d.contains("研"));
    CHECK(!d.contains("研究生命"));
    CHECK(!d.contains(""));
    CHECK(!d.contains("\xFF"));
    CHECK(d.max_word_length() == 3);

    const std::vector<std::string> words = all_words(d);
    CHECK(words == std::vector<std::string>{"生命", "研究", "研究生", "起源"});  // code-point order
}

TEST_CASE("Dictionary: range constructor and words with other characters", "[dictionary]") {
    const std::vector<std::string> list{"中国", "AT&T", "B超", "卡拉OK", "人民"};
    const semfp::Dictionary d(list);
    CHECK(d.size() == 2);  // only words made of Han characters are stored
    CHECK(d.contains("中国"));
    CHECK(!d.contains("B超"));

    // Extension A (U+4D00) is Han; the Yijing hexagram U+4DC0 next to it is a symbol.
    const semfp::Dictionary ext{"\xE4\xB4\x80\xE4\xB8\x80", "\xE4\xB4\x80"};
    CHECK(ext.size() == 2);
    CHECK(ext.contains("\xE4\xB4\x80"));
    REQUIRE_THROWS_AS(semfp::Dictionary({"\xE4\xB7\x80"}), semfp::invalid_argument_error);
    const semfp::Dictionary mixed_symbol{"\xE4\xB8\x80\xE4\xB7\x80"};
    CHECK(mixed_symbol.empty());

    REQUIRE_THROWS_AS(semfp::Dictionary({"中国", ""}), semfp::invalid_argument_error);
    REQUIRE_THROWS_AS(semfp::Dictionary({"\xE4\xB8"}), semfp::invalid_argument_error);
    REQUIRE_THROWS_AS(semfp::Dictionary({"，。"}), semfp::invalid_argument_error);
    REQUIRE_THROWS_AS(semfp::Dictionary({"中 国"}), semfp::invalid_argument_error);
}

TEST_CASE("Dictionary: empty and moved-from dictionaries are usable", "[dictionary]") {
    semfp::Dictionary d;
    CHECK(d.empty());
    CHECK(d.longest_prefix("中国", 0) == 0);
    CHECK(d.longest_suffix("中国", 6) == 0);
    CHECK(!d.contains("中国"));
    CHECK(all_words(d).empty());

    semfp::Dictionary a{"中国"};
    a.prepare_reverse();
    semfp::Dictionary b(std::move(a));
    CHECK(b.contains("中国"));
    CHECK(b.longest_suffix("中国", 6) == 6);
    CHECK(a.empty());  // NOLINT(bugprone-use-after-move): moved-from state is specified as empty
    CHECK(a.longest_prefix("中国", 0) == 0);
    CHECK(a.add("人民"));
    CHECK(a.contains("人民"));
    CHECK(a.longest_suffix("人民", 6) == 6);

    semfp::Dictionary c;
    c = b;
    CHECK(c.contains("中国"));
    CHECK(c.longest_suffix("中国", 6) == 6);
    c = std::move(a);
    CHECK(c.contains("人民"));
    CHECK(!c.contains("中国"));
}

TEST_CASE("Dictionary: longest prefix and suffix", "[dictionary]") {
    const semfp::Dictionary d{"研究", "研究生", "生命", "命", "起源", "\xF0\xA0\x80\x80\xF0\xA0\x80\x81"};
    const std::string text = "研究生命起源";  // 6 characters, 18 bytes
    CHECK(d.longest_prefix(text, 0) == 9);    // 研究生
    CHECK(d.longest_prefix(text, 3) == 0);    // no word starts with 究
    CHECK(d.longest_prefix(text, 9) == 3);    // 命
    CHECK(d.longest_prefix(text, 12) == 6);   // 起源
    CHECK(d.longest_prefix(text, 18) == 0);
    CHECK(d.longest_prefix(text, 100) == 0);

    CHECK(d.longest_suffix(text, 18) == 6);   // 起源
    CHECK(d.longest_suffix(text, 12) == 6);   // 生命
    CHECK(d.longest_suffix(text, 9) == 9);    // 研究生
    CHECK(d.longest_suffix(text, 6) == 6);    // 研究
    CHECK(d.longest_suffix(text, 3) == 0);
    CHECK(d.longest_suffix(text, 0) == 0);

    // Supplementary-plane ideographs (four bytes each).
    const std::string ext = "\xF0\xA0\x80\x80\xF0\xA0\x80\x81";
    CHECK(d.longest_prefix(ext, 0) == 8);
    CHECK(d.longest_suffix(ext, 8) == 8);

    // Malformed and ASCII text stops the walk without reading outside.
    CHECK(d.longest_prefix("研\xE7", 0) == 0);
    CHECK(d.longest_prefix("\xE7\xA0", 0) == 0);
    CHECK(d.longest_suffix("\x80\x80\x80研究", 9) == 6);
    CHECK(d.longest_suffix("\xA0\x94\xE7\xA9\xB6", 5) == 0);
    CHECK(d.longest_prefix("abc", 0) == 0);
}

TEST_CASE("Dictionary: add at run time", "[dictionary]") {
    semfp::Dictionary d{"中国"};
    d.prepare_reverse();
    CHECK(d.add("中国人"));
    CHECK(!d.add("中国人"));
    CHECK(!d.add("中国"));
    CHECK(d.add("人"));
    CHECK(d.add("\xF0\xA0\x80\x80"));  // a root child outside the BMP
    CHECK(!d.add("B超"));
    CHECK(d.size() == 4);
    CHECK(d.contains("中国人"));
    CHECK(d.contains("\xF0\xA0\x80\x80"));
    CHECK(d.longest_prefix("中国人民", 0) == 9);
    CHECK(d.longest_suffix("中国人", 9) == 9);
    CHECK(d.longest_suffix("\xF0\xA0\x80\x80", 4) == 4);
    CHECK(d.max_word_length() == 3);

    REQUIRE_THROWS_AS(d.add(""), semfp::invalid_argument_error);
    REQUIRE_THROWS_AS(d.add("\xC0\x80"), semfp::invalid_argument_error);
    REQUIRE_THROWS_AS(d.add("!?"), semfp::invalid_argument_error);
    REQUIRE_THROWS_AS(d.add("中\t国"), semfp::invalid_argument_error);
    CHECK(d.size() == 4);

    SECTION("many additions trigger compaction and keep every word") {
        // 5,000 words under the sanitizers (about four assertions each): two compactions there,
        // five with 20,000.
        const std::vector<std::string> words = random_words(semfp_test::cases(20000, 4), 7);
        std::set<std::string> expected{"中国", "中国人", "人", "\xF0\xA0\x80\x80"};
        for (const auto& w : words) {
            const bool fresh = expected.insert(w).second;
            CHECK(d.add(w) == fresh);
        }
        CHECK(d.size() == expected.size());
        for (const auto& w : expected) {
            CHECK(d.contains(w));
            CHECK(d.longest_prefix(w, 0) == w.size());
            CHECK(d.longest_suffix(w, w.size()) == w.size());
        }
        const std::vector<std::string> listed = all_words(d);
        CHECK(std::set<std::string>(listed.begin(), listed.end()) == expected);
        CHECK(listed.size() == expected.size());
    }
}

TEST_CASE("Dictionary: unsorted input builds the same tries as sorted input", "[dictionary]") {
    std::vector<std::string> words = random_words(30000, 11);
    const semfp::Dictionary a(words);
    std::sort(words.begin(), words.end());
    const semfp::Dictionary b(words);
    CHECK(a.size() == b.size());
    CHECK(all_words(a) == all_words(b));
    std::set<std::string> unique(words.begin(), words.end());
    CHECK(a.size() == unique.size());
    for (const auto& w : unique) {
        REQUIRE(a.longest_prefix(w, 0) == w.size());
        REQUIRE(a.longest_suffix(w, w.size()) == w.size());
    }
    // The longest match, checked against a brute-force search.
    const std::vector<std::string> texts = random_words(200, 5);
    for (const auto& t : texts) {
        std::size_t best = 0;
        for (std::size_t len = 1; len <= t.size(); ++len)
            if (unique.count(t.substr(0, len))) best = len;
        CHECK(a.longest_prefix(t, 0) == best);
        std::size_t best_suffix = 0;
        for (std::size_t len = 1; len <= t.size(); ++len)
            if (unique.count(t.substr(t.size() - len))) best_suffix = len;
        CHECK(a.longest_suffix(t, t.size()) == best_suffix);
    }
}

TEST_CASE("Dictionary: short and long unsorted lists list their words in code-point order", "[dictionary]") {
    // Both sides of the switch from a comparison sort to the radix sort of the build.
    for (const std::size_t count : {std::size_t{2}, std::size_t{50}, std::size_t{2047}, std::size_t{2049}, std::size_t{6000}}) {
        const std::vector<std::string> words = random_words(count, static_cast<std::uint32_t>(count));
        const semfp::Dictionary d(words);
        const std::set<std::string> unique(words.begin(), words.end());
        // UTF-8 byte order is code-point order.
        CHECK(all_words(d) == std::vector<std::string>(unique.begin(), unique.end()));
        CHECK(d.size() == unique.size());
    }
    // Words added at the root after a build are listed too (the added nodes are visited, not
    // the root table).
    semfp::Dictionary d{"中国"};
    CHECK(d.add("人"));
    CHECK(d.add("\xF0\xA0\x80\x80"));
    CHECK(d.add("国家"));
    const std::vector<std::string> listed = all_words(d);
    CHECK(std::set<std::string>(listed.begin(), listed.end()) ==
          std::set<std::string>{"中国", "人", "\xF0\xA0\x80\x80", "国家"});
    CHECK(listed.size() == 4);
}

TEST_CASE("Dictionary: load the jieba format", "[dictionary]") {
    const std::string text =
        "\xEF\xBB\xBF"
        "中国 100 ns\r\n"
        "\r\n"
        "# a comment line\n"
        "   # an indented comment\n"
        "人民\t12\n"
        "共和国 n\n"
        "AT&T 3 nz\n"
        "  \t \n"
        "研究生 7\tn\n"
        "起源";
    const semfp::Dictionary d = load_text(text);
    CHECK(d.size() == 5);
    for (const char* w : {"中国", "人民", "共和国", "研究生", "起源"}) CHECK(d.contains(w));
    CHECK(!d.contains("AT&T"));

    SECTION("loading adds to the existing words") {
        semfp::Dictionary e{"世界"};
        std::istringstream in("和平 5\n");
        e.load(in);
        CHECK(e.size() == 2);
        CHECK(e.contains("世界"));
        CHECK(e.contains("和平"));
    }
    SECTION("an empty stream changes nothing") {
        semfp::Dictionary e{"世界"};
        std::istringstream in("");
        e.load(in);
        CHECK(e.size() == 1);
    }
}

TEST_CASE("Dictionary: malformed lines throw parse_error and change nothing", "[dictionary]") {
    struct bad_case {
        std::string text;
        std::size_t line;
        std::size_t column;
    };
    const bad_case cases[] = {
        {"中国 1\n人民 2\n\xE4\xB8 3\n", 3, 1},        // truncated UTF-8 in the word
        {"中国\n，。 5\n", 2, 1},                     // punctuation only
        {"中国\n  !!!\n", 2, 3},                      // ASCII punctuation only
        {"中国 12x\n", 1, 8},                         // bad frequency
        {"中国 -3 n\n", 1, 8},                        // negative frequency
        {"中国 1.5\n", 1, 8},                         // not an integer
        {"中国 99999999999999999999\n", 1, 8},        // too large
        {"中国 n n\n", 1, 8},                         // tag where the frequency belongs
        {"中国 1 n extra\n", 1, 12},                  // four columns
        {"# ok\n中国 1 \xFF\n", 2, 10},               // invalid UTF-8 in the tag
        {"\xEF\xBB\xBF\xFF\n", 1, 4},                 // after a byte order mark
    };
    for (const auto& c : cases) {
        semfp::Dictionary d{"世界", "和平"};
        d.prepare_reverse();
        std::istringstream in(c.text);
        bool thrown = false;
        try {
            d.load(in);
        } catch (const semfp::parse_error& e) {
            thrown = true;
            CHECK(e.line() == c.line);
            CHECK(e.column() == c.column);
            CHECK(std::string(e.what()).find("line " + std::to_string(c.line)) != std::string::npos);
        }
        CHECK(thrown);
        CHECK(d.size() == 2);
        CHECK(!d.contains("中国"));
        CHECK(d.contains("世界"));
        CHECK(d.longest_suffix("和平", 6) == 6);
    }
    std::istringstream in("中国\n\xFF\n");
    semfp::Dictionary d;
    REQUIRE_THROWS_AS(d.load(in), semfp::parse_error);
}

TEST_CASE("Dictionary: from_lines", "[dictionary]") {
    const std::string_view chunks[] = {"一\n一个\n", "人民\r\n\n中国\n", "中国人"};
    const semfp::Dictionary d = semfp::Dictionary::from_lines(chunks);
    CHECK(d.size() == 5);
    CHECK(d.contains("中国人"));
    const std::string_view bad[] = {"一\n", "二\n，\n"};
    try {
        (void)semfp::Dictionary::from_lines(bad);
        CHECK(false);
    } catch (const semfp::parse_error& e) {
        CHECK(e.line() == 3);
    }
}

TEST_CASE("Dictionary: memory is reported", "[dictionary]") {
    semfp::Dictionary d{"中国", "人民"};
    const std::size_t forward_only = d.memory_bytes();
    CHECK(forward_only > 0);
    d.prepare_reverse();
    CHECK(d.memory_bytes() > forward_only);
}
