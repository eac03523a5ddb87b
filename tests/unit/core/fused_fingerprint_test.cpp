#include "support/catch.hpp"
#include "support/fused_reference.hpp"
#include "support/sample_text.hpp"

#include <semfp/core/fingerprinter.hpp>
#include <semfp/core/fused_fingerprint.hpp>
#include <semfp/core/sketch.hpp>
#include <semfp/text/normalize.hpp>
#include <semfp/text/stopwords.hpp>
#include <semfp/text/tokenizers.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

std::string read_fixture(const char* name) {
    std::ifstream in(std::string(SEMFP_TEST_DATA_DIR) + "/" + name, std::ios::binary);
    REQUIRE(in);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Fixture texts and their lines: Simplified, Taiwan-converted and mixed-script text.
std::vector<std::string> fixture_texts() {
    std::vector<std::string> out{std::string(semfp_test::article_a), std::string(semfp_test::article_b),
                                 std::string(semfp_test::article_c)};
    for (const char* name : {"script/software_zh_cn.txt", "script/software_zh_tw.txt", "html/docbook_zh.txt"}) {
        const std::string text = read_fixture(name);
        out.push_back(text);
        std::istringstream lines(text);
        for (std::string line; std::getline(lines, line);) out.push_back(line);
    }
    return out;
}

// Units the random texts are built from: every branch of the fused pass (ASCII words and
// separators, Han with and without a Traditional fold, Taiwan phrase starts, the Yijing block,
// width-folded forms, CJK punctuation, kana, hangul, letters of other scripts, 2- and 4-byte
// sequences, malformed and truncated bytes, NUL).
const std::vector<std::string>& units() {
    static const std::vector<std::string> u{
        "a", "Z", "q", "7", "0", " ", "\t", "\n", ".", "-", "_", ",", "!", "iPhone15", "UTF-8", "3.14", "a.", ".b",
        "snake_case", std::string(1, '\0'), "\xE7\x9A\x84", "\xE6\x98\xAF", "\xE4\xB8\xAD", "\xE6\x96\x87",
        "\xE8\xBB\x9F", "\xE9\xAB\x94", "\xE7\xA8\x8B", "\xE5\xBC\x8F", "\xE8\xBD\xAF", "\xE4\xBB\xB6",
        "\xE9\x9B\xBB", "\xE8\x85\xA6", "\xE7\xB6\xB2", "\xE8\xB7\xAF", "\xE4\xB8\x87", "\xE7\x94\xA8",
        "\xE5\xAD\x97", "\xE5\x85\x83", "\xE4\xB8\x93", "\xE6\xA1\x88", "\xE4\xB8\x9B", "\xE9\x9B\x86",
        "\xE4\xB7\x80", "\xE4\xB7\xBF", "\xE4\xB6\xBF", "\xE3\x80\x80", "\xE3\x80\x81", "\xE3\x80\x82",
        "\xE3\x80\x85", "\xE3\x81\x82", "\xE3\x82\xA2", "\xE3\x90\x80", "\xE3\x91\xAE", "\xEF\xBC\xA1",
        "\xEF\xBD\x9A", "\xEF\xBC\x91", "\xEF\xBC\x8C", "\xEF\xBC\x8E", "\xEF\xBD\x9E", "\xEF\xBD\xA1",
        "\xEF\xBE\x80", "\xEF\xA4\x80", "\xEA\xB0\x80", "\xE1\x84\x80", "\xC3\xA9", "\xCE\xA9", "\xD0\x96",
        "\xC2\xA0", "\xC2\xB7", "\xF0\xA0\x80\x80", "\xF0\xAB\x9D\x88", "\xF0\x9F\x98\x80", "\xE2\x80\x94",
        "\xE2\x80\x8B", "\xEF\xBB\xBF", "\xFF", "\x80", "\xC0\xAF", "\xE0\x80\xAF", "\xED\xA0\x80", "\xE4\xB8",
        "\xE4", "\xF0\x90", "\xF4\x90\x80\x80", "\xF5"};
    return u;
}

std::string random_units(std::mt19937& rng, std::size_t count) {
    const auto& u = units();
    std::uniform_int_distribution<std::size_t> pick(0, u.size() - 1);
    std::string s;
    for (std::size_t i = 0; i < count; ++i) s += u[pick(rng)];
    return s;
}

std::string random_bytes(std::mt19937& rng, std::size_t count) {
    std::uniform_int_distribution<int> byte(0, 255);
    std::string s;
    for (std::size_t i = 0; i < count; ++i) s.push_back(static_cast<char>(byte(rng)));
    return s;
}

// Every text the property tests run over.
std::vector<std::string> test_texts() {
    std::vector<std::string> out = fixture_texts();
    out.emplace_back();
    std::mt19937 rng(20240521);
    for (std::size_t n = 0; n < 400; ++n) out.push_back(random_units(rng, n % 97));
    for (std::size_t n = 0; n < 200; ++n) out.push_back(random_bytes(rng, n % 61));
    // Fixture text with random damage: bytes replaced, cut in the middle of a character.
    const std::string base = read_fixture("script/software_zh_tw.txt");
    for (std::size_t n = 0; n < 100; ++n) {
        std::string s = base.substr(0, rng() % (base.size() + 1));
        for (int k = 0; k < 3 && !s.empty(); ++k) s[rng() % s.size()] = static_cast<char>(rng() & 0xFF);
        out.push_back(s + random_units(rng, 5));
    }
    return out;
}

std::vector<std::string> reference_tokens(std::string_view normalized) {
    std::vector<std::string> t;
    semfp::CharBigramTokenizer{}.tokenize(normalized, [&](std::string_view x) { t.emplace_back(x); });
    return t;
}

using semfp_test::require_same_as_reference;

}  // namespace

TEST_CASE("Fused pass: normalization gives normalize_into's bytes", "[fused]") {
    const auto texts = test_texts();
    std::string buf;
    for (const bool phrases : {false, true})
        for (const bool width : {false, true})
            for (const bool fold_case : {false, true})
                for (const bool script : {false, true}) {
                    semfp::normalize_options opt;
                    opt.fold_phrases = phrases;
                    opt.fold_width = width;
                    opt.fold_case = fold_case;
                    opt.fold_script = script;
                    for (const std::string& t : texts) {
                        const std::size_t n = semfp::detail::fused_normalize(t, buf, opt);
                        REQUIRE(std::string_view(buf.data(), n) == semfp::normalize(t, opt));
                        for (std::size_t k = 0; k < semfp::detail::fused_padding; ++k) REQUIRE(buf[n + k] == '\0');
                    }
                }
}

TEST_CASE("Fused pass: tokens are CharBigramTokenizer's", "[fused]") {
    std::string buf;
    for (const std::string& t : test_texts()) {
        // Tokenize the raw text too (malformed bytes and all), not only normalized text.
        for (const bool normalize : {false, true}) {
            std::string text = normalize ? semfp::normalize(t) : t;
            buf.assign(text);
            buf.append(semfp::detail::fused_padding, '\0');
            std::vector<std::string> fused;
            semfp::detail::fused_bigrams(std::string_view(buf.data(), text.size()),
                                         [&](const char* p, std::size_t n) { fused.emplace_back(p, n); });
            REQUIRE(fused == reference_tokens(text));
        }
    }
}

namespace {

// `fused_hash_keyed<Bits, Hash>` of `token` lying in a buffer with `after` behind it (other text
// in the real pass) and the pass's zero padding: the sketch's hash is `token_hash`, the bits are
// the feature's (`fused_split_mix` words once mixed).
template <std::size_t Bits, class Hash>
void require_keyed_as_reference(const std::string& token, const std::string& after) {
    const std::string buf = token + after + std::string(semfp::detail::fused_padding, '\0');
    const auto h = semfp::detail::fused_hash_keyed<Bits, Hash>(buf.data(), token.size());
    REQUIRE(h.token_hash == semfp::MinHashSketcher::token_hash(token));
    REQUIRE(h.token_hash == semfp::Murmur3::hash128(token).hi);
    auto bits = h.bits;
    if constexpr (semfp::detail::fused_split_mix<Bits, Hash>) semfp::detail::fused_mix_murmur3(bits);
    REQUIRE(bits == semfp::detail::feature_bits<Bits, Hash>(token));
}

template <class Hash>
void require_keyed_both_widths(const std::string& token, const std::string& after) {
    require_keyed_as_reference<64, Hash>(token, after);
    require_keyed_as_reference<128, Hash>(token, after);
}

}  // namespace

TEST_CASE("Fused pass: the sketch's token hash equals MinHashSketcher::token_hash at 64 and 128 bits",
          "[fused][sketch]") {
    std::vector<std::string> tokens;
    std::mt19937 rng(14);
    // Random bytes, lengths 1..40 (one tail word, two, one block and tails, several blocks).
    for (int round = 0; round < 40; ++round)
        for (std::size_t len = 1; len <= 40; ++len) tokens.push_back(random_bytes(rng, len));
    // Adversarial: every length 1..40 of all-zero, all-0xFF, 0x80 and one repeated CJK character;
    // CJK bigrams; bytes that differ from each other only past the 8- and 16-byte words.
    for (std::size_t len = 1; len <= 40; ++len) {
        tokens.emplace_back(len, '\0');
        tokens.emplace_back(len, '\xFF');
        tokens.emplace_back(len, '\x80');
        std::string cjk;
        while (cjk.size() < len) cjk += "\xE4\xB8\xAD";
        tokens.push_back(cjk.substr(0, len));
        std::string tail(len, 'a');
        tail.back() = 'b';
        tokens.push_back(tail);
    }
    for (const char* b : {"\xE4\xB8\xAD\xE6\x96\x87", "\xE8\xBB\x9F\xE9\xAB\x94", "ab", "a"}) tokens.emplace_back(b);
    std::size_t distinct_tops = 0;
    std::vector<std::uint32_t> tops;
    for (const std::string& t : tokens) {
        INFO("token of " << t.size() << " bytes");
        for (const std::string& after : {std::string(), std::string(16, '\xFF'), random_bytes(rng, 16)}) {
            require_keyed_both_widths<semfp::default_hash>(t, after);
            require_keyed_both_widths<semfp::Murmur3>(t, after);
            require_keyed_both_widths<semfp::Mixed<semfp::Sdbm>>(t, after);
        }
        tops.push_back(static_cast<std::uint32_t>(semfp::MinHashSketcher::token_hash(t) >> 32));
    }
    // The key the sketch keeps (top 32 bits) separates the distinct tokens.
    std::sort(tokens.begin(), tokens.end());
    std::sort(tops.begin(), tops.end());
    distinct_tops = static_cast<std::size_t>(std::unique(tops.begin(), tops.end()) - tops.begin());
    CHECK(distinct_tops == static_cast<std::size_t>(std::unique(tokens.begin(), tokens.end()) - tokens.begin()));
}

TEST_CASE("Fused pass: hashes and stopword keys match the plain functions", "[fused]") {
    std::mt19937 rng(7);
    for (std::size_t len = 0; len < 70; ++len) {
        std::string s = random_bytes(rng, len);
        std::string padded = s + std::string(semfp::detail::fused_padding, '\0');
        REQUIRE(semfp::detail::fused_murmur3(padded.data(), len) == semfp::Murmur3::hash128(s));
        REQUIRE(semfp::detail::fused_stopword_key(padded.data(), len) == semfp::detail::stopword_key(s));
        REQUIRE(semfp::detail::fused_feature_bits<128, semfp::default_hash>(padded.data(), len) ==
                semfp::detail::feature_bits<128, semfp::default_hash>(s));
        REQUIRE(semfp::detail::fused_feature_bits<64, semfp::Mixed<semfp::Sdbm>>(padded.data(), len) ==
                semfp::detail::feature_bits<64, semfp::Mixed<semfp::Sdbm>>(s));
    }
    // The prefilter never rejects a listed word.
    const semfp::StopwordList& list = *semfp::bundled_stopwords();
    for (const std::string_view w : semfp::detail::stopwords_zh) {
        if (w.empty()) continue;
        REQUIRE(list.may_contain_key(semfp::detail::stopword_key(w)));
    }
    semfp::StopwordList empty;
    REQUIRE_FALSE(empty.may_contain_key(semfp::detail::stopword_key("the")));
}

TEST_CASE("Fused pass: fingerprints are bit-identical to the reference path", "[fused]") {
    const auto texts = test_texts();
    SECTION("defaults, 64 and 128 bits") {
        require_same_as_reference(semfp::DefaultFingerprinter<64>{}, texts);
        require_same_as_reference(semfp::DefaultFingerprinter<128>{}, texts);
    }
    SECTION("no stopword filter, other hash policies") {
        require_same_as_reference(semfp::Fingerprinter<semfp::CharBigramTokenizer, semfp::default_hash, 64>{}, texts);
        require_same_as_reference(semfp::Fingerprinter<semfp::CharBigramTokenizer, semfp::Murmur3, 128>{}, texts);
        require_same_as_reference(semfp::Fingerprinter<semfp::CharBigramTokenizer, semfp::Mixed<semfp::Sdbm>, 64>{},
                                  texts);
    }
    SECTION("other normalization options and stopword lists") {
        semfp::fingerprint_options opt;
        opt.normalize.fold_phrases = true;
        opt.normalize.fold_case = false;
        require_same_as_reference(semfp::DefaultFingerprinter<64>(semfp::default_tokenizer{}, opt), texts);
        auto list = std::make_shared<semfp::StopwordList>();
        list->add("the");
        list->add("\xE8\xBD\xAF\xE4\xBB\xB6");
        list->add("\xE7\x9A\x84");
        const semfp::default_tokenizer custom(semfp::CharBigramTokenizer{}, list);
        require_same_as_reference(semfp::DefaultFingerprinter<128>(custom), texts);
        require_same_as_reference(
            semfp::DefaultFingerprinter<64>(semfp::default_tokenizer(semfp::CharBigramTokenizer{},
                                                                     std::make_shared<semfp::StopwordList>())),
            texts);
    }
}

TEST_CASE("Fused pass: known answers of the one-call fingerprint", "[fused]") {
    // Values of semfp 0.1's step-by-step pipeline; the fused pass must not change them.
    const std::string tw = read_fixture("script/software_zh_tw.txt");
    const std::string mixed = std::string(semfp_test::article_c) +
                              "\xEF\xBC\xA1\xEF\xBC\xA2\xEF\xBC\xA3\xEF\xBC\x8D\xEF\xBC\x91\xEF\xBC\x92\xEF\xBC\x93"
                              "\xE3\x80\x80\xE7\xB9\x81\xE9\xAB\x94\xE4\xB8\xAD\xE6\x96\x87\xE8\xBB\x9F\xE9\xAB\x94"
                              "\xE7\xA8\x8B\xE5\xBC\x8F \xFF\xFE \xCE\xA9\xCE\xBC\xCE\xAD\xCE\xB3\xCE\xB1 "
                              "\xD0\x96\xD1\x83\xD0\xBA \xE4\xB8";
    CHECK(semfp::fingerprint<64>(semfp_test::article_a).to_hex() == "3a90e4df617e9b5f");
    CHECK(semfp::fingerprint<128>(semfp_test::article_a).to_hex() == "59503e5dd14ad0119b08759751a8e73d");
    CHECK(semfp::fingerprint<64>(semfp_test::article_c).to_hex() == "1c5016e4dc40860d");
    CHECK(semfp::fingerprint<128>(semfp_test::article_c).to_hex() == "3f2ad720a7b9f9e1b30f31a88a838c0b");
    CHECK(semfp::fingerprint<64>(tw).to_hex() == "40494c91f13a04c7");
    CHECK(semfp::fingerprint<128>(tw).to_hex() == "c3bb71c2d950fa80536bf0dd5bf77661");
    CHECK(semfp::fingerprint<64>(mixed).to_hex() == "147856e4dc40860f");
    CHECK(semfp::fingerprint<128>(mixed).to_hex() == "7b2e1500b3b9f9a1bb4bb3a88a8b9d49");
}
