// The signature through the fused fingerprint pass (the sketch fed by the pass) against the
// step-by-step reference path, on varied texts: fixtures, random mixtures of every kind of unit
// the fused pass handles (Traditional characters, Taiwan phrases, stopwords, width-folded
// forms, other scripts, malformed and truncated UTF-8, NUL), random bytes, empty and tiny texts.
#include "support/catch.hpp"
#include "support/sample_text.hpp"

#include <semfp/core/signature.hpp>
#include <semfp/text/stopwords.hpp>
#include <semfp/text/tokenizers.hpp>

#include <cstddef>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string read_fixture(const char* name) {
    std::ifstream in(std::string(SEMFP_TEST_DATA_DIR) + "/" + name, std::ios::binary);
    REQUIRE(in);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

const std::vector<std::string>& units() {
    static const std::vector<std::string> u{
        // ASCII words, separators, joiners, NUL
        "a", "Z", "7", " ", "\n", ".", "-", "_", ",", "iPhone15", "UTF-8", "3.14", "The", "the", std::string(1, '\0'),
        // common Simplified characters and stopwords (de, shi, le, he, zai)
        "\xE7\x9A\x84", "\xE6\x98\xAF", "\xE4\xBA\x86", "\xE5\x92\x8C", "\xE5\x9C\xA8", "\xE4\xB8\xAD", "\xE6\x96\x87",
        "\xE8\xBD\xAF", "\xE4\xBB\xB6", "\xE7\x94\xA8",
        // Traditional characters and Taiwan phrase starts (ruan ti, cheng shi, dian nao, wang lu)
        "\xE8\xBB\x9F", "\xE9\xAB\x94", "\xE7\xA8\x8B", "\xE5\xBC\x8F", "\xE9\x9B\xBB", "\xE8\x85\xA6", "\xE7\xB6\xB2",
        "\xE8\xB7\xAF", "\xE8\xBB\x9F\xE9\xAB\x94", "\xE7\xA8\x8B\xE5\xBC\x8F",
        // Yijing block, CJK punctuation, ideographic space, kana, hangul
        "\xE4\xB7\x80", "\xE3\x80\x80", "\xE3\x80\x81", "\xE3\x80\x82", "\xE3\x81\x82", "\xE3\x82\xA2", "\xEA\xB0\x80",
        // full-width letters, digits and punctuation, half-width kana
        "\xEF\xBC\xA1", "\xEF\xBD\x9A", "\xEF\xBC\x91", "\xEF\xBC\x8C", "\xEF\xBE\x80",
        // other scripts, two- and four-byte sequences
        "\xC3\xA9", "\xCE\xA9", "\xD0\x96", "\xC2\xA0", "\xF0\xA0\x80\x80", "\xF0\x9F\x98\x80", "\xE2\x80\x94",
        // malformed, overlong, surrogate and truncated sequences
        "\xFF", "\x80", "\xC0\xAF", "\xE0\x80\xAF", "\xED\xA0\x80", "\xE4\xB8", "\xE4", "\xF0\x90", "\xF5"};
    return u;
}

std::string random_units(std::mt19937& rng, std::size_t count) {
    const auto& u = units();
    std::uniform_int_distribution<std::size_t> pick(0, u.size() - 1);
    std::string s;
    for (std::size_t i = 0; i < count; ++i) s += u[pick(rng)];
    return s;
}

std::vector<std::string> texts() {
    std::vector<std::string> out{"", " ", "a", "\xE7\x9A\x84", "\xE4\xB8\xAD", "\xE4\xB8\xAD\xE6\x96\x87", "\xFF",
                                 std::string(1, '\0'), std::string(semfp_test::article_a),
                                 std::string(semfp_test::article_b), std::string(semfp_test::article_c)};
    for (const char* name : {"script/software_zh_cn.txt", "script/software_zh_tw.txt", "html/docbook_zh.txt"}) {
        const std::string text = read_fixture(name);
        out.push_back(text);
        std::istringstream lines(text);
        for (std::string line; std::getline(lines, line);) out.push_back(line);
    }
    std::mt19937 rng(20261124);
    for (std::size_t n = 0; n < 600; ++n) out.push_back(random_units(rng, n % 7 == 0 ? n : n % 53));
    std::uniform_int_distribution<int> byte(0, 255);
    for (std::size_t n = 0; n < 200; ++n) {
        std::string s;
        for (std::size_t i = 0; i < n % 67; ++i) s.push_back(static_cast<char>(byte(rng)));
        out.push_back(s);
    }
    const std::string tw = read_fixture("script/software_zh_tw.txt");
    for (std::size_t n = 0; n < 60; ++n) {
        std::string s = tw.substr(rng() % (tw.size() + 1));
        for (int k = 0; k < 3 && !s.empty(); ++k) s[rng() % s.size()] = static_cast<char>(rng() & 0xFF);
        out.push_back(random_units(rng, 3) + s);
    }
    return out;
}

// Compares `maker(t)` with `maker.reference(t)` on every text; returns how many sketches were
// exact and how many MinHash (both kinds must be exercised).
template <class Maker>
std::pair<std::size_t, std::size_t> require_same_as_reference(const Maker& maker, const std::vector<std::string>& ts) {
    semfp::fingerprint_scratch a, b;
    std::size_t exact = 0, minhash = 0;
    for (const std::string& t : ts) {
        INFO("text of " << t.size() << " bytes");
        const auto fused = maker(t, a);
        const auto ref = maker.reference(t, b);
        REQUIRE(fused.fingerprint == ref.fingerprint);
        REQUIRE(fused.sketch == ref.sketch);
        REQUIRE(fused.fingerprint == maker.fingerprinter().reference(t, b));
        exact += fused.sketch.is_exact() ? 1u : 0u;
        minhash += !fused.sketch.empty() && !fused.sketch.is_exact() ? 1u : 0u;
    }
    return {exact, minhash};
}

}  // namespace

TEST_CASE("Signature: the fused path equals the reference path", "[core][signature][fused]") {
    const auto ts = texts();
    SECTION("defaults, 64 and 128 bits (Taiwan phrases at 128)") {
        const auto [exact, minhash] = require_same_as_reference(semfp::SignatureFingerprinter<>{}, ts);
        CHECK(exact > 100);
        CHECK(minhash > 100);
        require_same_as_reference(semfp::SignatureFingerprinter<semfp::default_tokenizer, semfp::default_hash, 128>{}, ts);
    }
    SECTION("no stopword filter, other hash policies, custom and empty stopword lists") {
        require_same_as_reference(semfp::SignatureFingerprinter<semfp::CharBigramTokenizer, semfp::default_hash, 64>{}, ts);
        require_same_as_reference(semfp::SignatureFingerprinter<semfp::CharBigramTokenizer, semfp::Murmur3, 128>{}, ts);
        // A policy other than Murmur3: the pass computes the sketch's digest on its own.
        require_same_as_reference(
            semfp::SignatureFingerprinter<semfp::CharBigramTokenizer, semfp::Mixed<semfp::Sdbm>, 64>{}, ts);
        require_same_as_reference(semfp::SignatureFingerprinter<semfp::default_tokenizer, semfp::Fnv1a, 128>{}, ts);
        auto list = std::make_shared<semfp::StopwordList>();
        list->add("the");
        list->add("\xE8\xBD\xAF\xE4\xBB\xB6");
        list->add("\xE7\x9A\x84");
        using Fp = semfp::DefaultFingerprinter<64>;
        require_same_as_reference(
            semfp::SignatureFingerprinter<>(Fp(semfp::default_tokenizer(semfp::CharBigramTokenizer{}, list))), ts);
        require_same_as_reference(semfp::SignatureFingerprinter<>(Fp(
                                      semfp::default_tokenizer(semfp::CharBigramTokenizer{},
                                                               std::make_shared<semfp::StopwordList>()))),
                                  ts);
    }
    SECTION("other normalization options; weighted fingerprints take the reference path") {
        semfp::fingerprint_options opt;
        opt.normalize.fold_phrases = true;
        opt.normalize.fold_case = false;
        opt.normalize.fold_width = false;
        using Fp = semfp::DefaultFingerprinter<64>;
        require_same_as_reference(semfp::SignatureFingerprinter<>(Fp(semfp::default_tokenizer{}, opt)), ts);
        opt = {};
        opt.tf = semfp::tf_scaling::sublinear;
        require_same_as_reference(semfp::SignatureFingerprinter<>(Fp(semfp::default_tokenizer{}, opt)), ts);
    }
}

TEST_CASE("Signature: the one-call signature keeps its values", "[core][signature][fused]") {
    // The sketch equals one built from the reference tokens of the same text.
    const std::string tw = read_fixture("script/software_zh_tw.txt");
    for (const std::string& t : {std::string(semfp_test::article_a), tw, std::string("\xE4\xB8\xAD\xE6\x96\x87 a")}) {
        semfp::MinHashSketcher sketcher;
        std::string norm;
        semfp::DefaultFingerprinter<128>{}.for_each_feature(t, norm, [&](std::string_view f) { sketcher.add_token(f); });
        const auto s = semfp::signature<128>(t);
        REQUIRE(s.sketch == sketcher.finish(norm));
        REQUIRE(s.fingerprint == semfp::fingerprint<128>(t));
    }
}
