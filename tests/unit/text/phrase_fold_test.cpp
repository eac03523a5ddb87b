#include "support/catch.hpp"

#include <semfp/core/fingerprinter.hpp>
#include <semfp/text/normalize.hpp>
#include <semfp/text/script_fold.hpp>
#include <semfp/text/utf8.hpp>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

namespace {

std::string read_fixture(std::string_view name) {
    std::ifstream in(std::filesystem::path(SEMFP_TEST_DATA_DIR) / "script" / name, std::ios::binary);
    REQUIRE(in);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string to_utf8(std::u32string_view s) {
    std::string out;
    for (const char32_t c : s) semfp::utf8::append(out, c);
    return out;
}

semfp::normalize_options with_phrases() {
    semfp::normalize_options o;
    o.fold_phrases = true;
    return o;
}

/// Code points at which two texts differ, after aligning on their common prefix and suffix.
std::size_t differing_code_points(std::string_view a, std::string_view b) {
    std::u32string x;
    std::u32string y;
    for (std::size_t i = 0; i < a.size();) {
        const auto d = semfp::utf8::decode(a, i);
        x.push_back(d.code_point);
        i += d.length;
    }
    for (std::size_t i = 0; i < b.size();) {
        const auto d = semfp::utf8::decode(b, i);
        y.push_back(d.code_point);
        i += d.length;
    }
    std::size_t diff = 0;
    for (std::size_t i = 0; i < std::min(x.size(), y.size()); ++i) diff += x[i] != y[i];
    return diff + (x.size() > y.size() ? x.size() - y.size() : y.size() - x.size());
}

}  // namespace

TEST_CASE("phrase fold: every phrase of the table becomes its representative", "[script_fold][phrases]") {
    REQUIRE(semfp::phrase_fold_size == semfp::detail::tw_phrase_table_size);
    REQUIRE(semfp::phrase_fold_size > 400);
    for (std::size_t i = 0; i < semfp::detail::tw_phrase_table_size; ++i) {
        const auto& p = semfp::detail::tw_phrase_table[i];
        const std::string from = to_utf8(p.from);
        CAPTURE(from, p.to);
        CHECK(semfp::normalize(from, with_phrases()) == p.to);
        // Off by default: the (already character-folded) phrase stays as it is.
        CHECK(semfp::normalize(from) == from);
        if (i > 0) CHECK(semfp::detail::tw_phrase_table[i - 1].from < p.from);  // sorted, unique
    }
}

TEST_CASE("phrase fold: a text and its Taiwan-phrase conversion fold to nearly the same text", "[script_fold][phrases]") {
    const std::string cn = read_fixture("software_zh_cn.txt");
    const std::string tw = read_fixture("software_zh_tw.txt");
    const std::size_t with = differing_code_points(semfp::normalize(cn, with_phrases()), semfp::normalize(tw, with_phrases()));
    const std::size_t without = differing_code_points(semfp::normalize(cn), semfp::normalize(tw));
    CAPTURE(with, without);
    // Characters alone leave every vocabulary change (file, program, default, data, memory, ...).
    CHECK(without > 60);
    // With phrases only the ambiguous one remains: mainland "process" is written like mainland
    // "program" in Taiwan (two occurrences of two characters).
    CHECK(with <= 4);
}

TEST_CASE("phrase fold: needs script folding, and respects the other options", "[script_fold][phrases]") {
    const std::string software_tw = "\xE8\xBB\x9F\xE9\xAB\x94";  // Traditional ruan-ti
    const std::string software_cn = "\xE8\xBD\xAF\xE4\xBB\xB6";  // Simplified ruan-jian
    semfp::normalize_options o = with_phrases();
    CHECK(semfp::normalize(software_tw, o) == software_cn);
    CHECK(semfp::normalize("ABC" + software_tw + "\xEF\xBC\xA1", o) == "abc" + software_cn + "a");
    o.fold_script = false;
    CHECK(semfp::normalize(software_tw, o) == software_tw);
}

TEST_CASE("phrase fold: malformed and truncated input", "[script_fold][phrases]") {
    const std::string tw = read_fixture("software_zh_tw.txt");
    const auto o = with_phrases();
    // Every prefix (most end inside a character) and every single-byte corruption is handled:
    // malformed bytes are copied, a phrase never spans them, and nothing is read past the end.
    for (std::size_t n = 0; n <= tw.size(); ++n) {
        const std::string out = semfp::normalize(std::string_view(tw).substr(0, n), o);
        CHECK(out.size() <= n + 9 * (n / 3 + 1));
    }
    const std::string software_tw = "\xE8\xBB\x9F\xE9\xAB\x94";
    CHECK(semfp::normalize("\xE8\xBB\x9F\xFF\xE9\xAB\x94", o) == "\xE8\xBD\xAF\xFF\xE4\xBD\x93");
    CHECK(semfp::normalize(std::string("\xE8\xBB\x9F\0\xE9\xAB\x94", 7), o) == std::string("\xE8\xBD\xAF\0\xE4\xBD\x93", 7));
    CHECK(semfp::normalize(software_tw.substr(0, 5), o) == "\xE8\xBD\xAF\xE9\xAB");
}

TEST_CASE("phrase fold: on by default at 128 bits, off at 64", "[script_fold][phrases][fingerprinter]") {
    STATIC_REQUIRE(semfp::default_fingerprint_options<128>().normalize.fold_phrases);
    STATIC_REQUIRE(!semfp::default_fingerprint_options<64>().normalize.fold_phrases);
    STATIC_REQUIRE(!semfp::fingerprint_options{}.normalize.fold_phrases);
    const std::string cn = read_fixture("software_zh_cn.txt");
    const std::string tw = read_fixture("software_zh_tw.txt");
    const unsigned d128 = semfp::hamming_distance(semfp::fingerprint<128>(cn), semfp::fingerprint<128>(tw));
    // The same pipeline without the fold, and the 64-bit default.
    const semfp::DefaultFingerprinter<128> plain(semfp::default_tokenizer{}, semfp::fingerprint_options{});
    const unsigned d128_plain = semfp::hamming_distance(plain(cn), plain(tw));
    const unsigned d64 = semfp::hamming_distance(semfp::fingerprint<64>(cn), semfp::fingerprint<64>(tw));
    CAPTURE(d128, d128_plain, d64);
    CHECK(d128 <= semfp::recommended_distance<128>);
    CHECK(d128_plain > semfp::recommended_distance<128>);
    CHECK(d64 > semfp::recommended_distance<64>);
    // A Fingerprinter given no options uses the defaults of its width.
    const semfp::DefaultFingerprinter<128> defaulted;
    CHECK(defaulted(tw) == semfp::fingerprint<128>(tw));
}
