#include "support/catch.hpp"
#include "support/sample_text.hpp"

#include <semfp/text/normalize.hpp>
#include <semfp/text/sentences.hpp>
#include <semfp/text/utf8.hpp>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

std::string read_fixture(std::string_view dir, std::string_view name) {
    std::ifstream in(std::filesystem::path(SEMFP_TEST_DATA_DIR) / dir / name, std::ios::binary);
    REQUIRE(in);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<semfp::normalize_options> all_options() {
    std::vector<semfp::normalize_options> out;
    for (int m = 0; m < 16; ++m) {
        semfp::normalize_options o;
        o.fold_width = (m & 1) != 0;
        o.fold_case = (m & 2) != 0;
        o.fold_script = (m & 4) != 0;
        o.fold_phrases = (m & 8) != 0;
        out.push_back(o);
    }
    return out;
}

/// Checks the invariants of an offset map against the original text.
void check_map(std::string_view original, const semfp::normalized_text& r) {
    REQUIRE(r.offsets.size() == r.text.size() + 1);
    CHECK(r.offsets.back() == original.size());
    for (std::size_t k = 0; k < r.text.size(); ++k) {
        REQUIRE(r.offsets[k] < original.size());
        if (k > 0) REQUIRE(r.offsets[k] >= r.offsets[k - 1]);  // monotone
        // An unchanged ASCII byte maps to itself (case folding aside).
        const auto c = static_cast<unsigned char>(r.text[k]);
        if (c < 0x80 && static_cast<unsigned char>(original[r.offsets[k]]) < 0x80) {
            char o = original[r.offsets[k]];
            if (o >= 'A' && o <= 'Z') o = static_cast<char>(o + 32);
            char t = r.text[k];
            if (t >= 'A' && t <= 'Z') t = static_cast<char>(t + 32);
            REQUIRE(o == t);
        }
    }
}

/// Every normalized code point maps to the start of an original code point.
void check_code_point_starts(std::string_view original, const semfp::normalized_text& r) {
    std::vector<bool> starts(original.size() + 1, false);
    for (std::size_t i = 0; i < original.size();) {
        starts[i] = true;
        i += semfp::utf8::decode(original, i).length;
    }
    starts[original.size()] = true;
    for (std::size_t k = 0; k < r.text.size();) {
        REQUIRE(starts[r.offsets[k]]);
        k += semfp::utf8::decode(r.text, k).length;
    }
}

}  // namespace

TEST_CASE("normalize_with_offsets: same bytes as normalize on the fixtures, every option", "[normalize][offsets]") {
    using namespace std::string_view_literals;
    const std::string texts[] = {
        std::string(semfp_test::article_a),
        std::string(semfp_test::article_b),
        std::string(semfp_test::article_c),
        read_fixture("script", "software_zh_cn.txt"),
        read_fixture("script", "software_zh_tw.txt"),
        read_fixture("html", "docbook_zh.txt"),
        read_fixture("html", "news_gbk.txt"),
        // Width folding, Traditional -> Simplified, Taiwan phrases, malformed bytes, NUL.
        std::string("ＡＢＣ１２３！\xE3\x80\x80軟體與資料庫記憶體預設值，程式\xFF\xE4\xB8 End\0x"sv),
    };
    for (const auto& o : all_options()) {
        for (const std::string& t : texts) {
            const semfp::normalized_text r = semfp::normalize_with_offsets(t, o);
            CHECK(r.text == semfp::normalize(t, o));
            check_map(t, r);
            check_code_point_starts(t, r);
        }
    }
}

TEST_CASE("normalize_with_offsets: folded units map back to their original bytes", "[normalize][offsets]") {
    semfp::normalize_options o;
    o.fold_phrases = true;
    // "ＡＢ" (full width, 3 bytes each) + "軟體" (Taiwan "software", folded to the mainland word)
    // + "x".
    const std::string_view t = "ＡＢ軟體x";
    const semfp::normalized_text r = semfp::normalize_with_offsets(t, o);
    REQUIRE(r.text == semfp::normalize(t, o));
    REQUIRE(r.text.starts_with("ab"));
    CHECK(r.offsets[0] == 0);
    CHECK(r.offsets[1] == 3);
    // Every byte of the folded phrase maps to the phrase's first original byte.
    const std::size_t phrase_end = r.text.size() - 1;
    REQUIRE(r.text[phrase_end] == 'x');
    for (std::size_t k = 2; k < phrase_end; ++k) CHECK(r.offsets[k] == 6);
    CHECK(r.offsets[phrase_end] == 12);
    CHECK(r.offsets.back() == t.size());
    CHECK(r.original_offset(1) == 3);
    CHECK(r.original_offset(1000) == t.size());

    // A range that cuts the phrase covers the whole phrase.
    const auto whole = r.original_range(2, 3);
    CHECK(whole.begin == 6);
    CHECK(whole.end == 12);
    const auto all = r.original_range(0, r.text.size());
    CHECK(all.begin == 0);
    CHECK(all.end == t.size());
    const auto empty = r.original_range(1, 1);
    CHECK(empty.begin == 3);
    CHECK(empty.end == 3);
    const auto clamped = r.original_range(phrase_end, 99);
    CHECK(clamped.begin == 12);
    CHECK(clamped.end == 13);
}

TEST_CASE("normalize_with_offsets: sentences of the normalized text map to original sentences", "[normalize][offsets][sentences]") {
    semfp::normalize_options o;
    o.fold_phrases = true;
    const std::string tw = read_fixture("script", "software_zh_tw.txt");
    const semfp::normalized_text r = semfp::normalize_with_offsets(tw, o);
    std::vector<std::pair<std::size_t, std::size_t>> original;
    semfp::for_each_sentence(tw, [&](std::string_view s, std::size_t at) { original.emplace_back(at, at + s.size()); });
    std::vector<std::pair<std::size_t, std::size_t>> mapped;
    semfp::for_each_sentence(r.text, [&](std::string_view s, std::size_t at) {
        const auto range = r.original_range(at, at + s.size());
        mapped.emplace_back(range.begin, range.end);
    });
    REQUIRE(original.size() > 5);
    CHECK(mapped == original);
}

TEST_CASE("normalize_with_offsets: empty text", "[normalize][offsets]") {
    const semfp::normalized_text r = semfp::normalize_with_offsets("");
    CHECK(r.text.empty());
    REQUIRE(r.offsets.size() == 1);
    CHECK(r.offsets[0] == 0);
    CHECK(r.original_range(0, 0).begin == 0);
}

TEST_CASE("normalization", "[normalize]") {
    // full-width letters, digits and punctuation; ideographic space; case
    CHECK(semfp::normalize("\xef\xbc\xa1\xef\xbd\x82\xef\xbc\x91\xef\xbc\x81\xe3\x80\x80X") == "ab1! x");
    CHECK(semfp::normalize("MiXeD") == "mixed");
    semfp::normalize_options keep_case;
    keep_case.fold_case = false;
    CHECK(semfp::normalize("MiXeD", keep_case) == "MiXeD");
    // Malformed bytes and NUL are copied unchanged.
    const std::string raw("a\xff\xc0\0b", 5);
    CHECK(semfp::normalize(raw) == raw);
    // Simplified text is unchanged; output never longer than input for these foldings.
    const std::string_view zh = "\xe4\xb8\xad\xe6\x96\x87\xe3\x80\x82\xe6\x8c\x87\xe7\xba\xb9";
    CHECK(semfp::normalize(zh) == zh);
    // Full-width punctuation folds to ASCII.
    CHECK(semfp::normalize("\xe4\xb8\xad\xef\xbc\x8c\xe6\x96\x87") == "\xe4\xb8\xad,\xe6\x96\x87");
    std::string out = "stale";
    semfp::normalize_into("", out);
    CHECK(out.empty());
}
