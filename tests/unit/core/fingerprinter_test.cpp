#include "support/catch.hpp"
#include "support/edits.hpp"
#include "support/sample_text.hpp"

#include <semfp/core/fingerprinter.hpp>
#include <semfp/core/weighting.hpp>
#include <semfp/text/stopwords.hpp>

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

TEST_CASE("Fingerprinter: defined results for degenerate text", "[fingerprinter]") {
    const semfp::Fingerprinter<semfp::CharBigramTokenizer> fp;
    CHECK(fp("") == semfp::Fingerprint<64>{});
    CHECK(fp("\xef\xbc\x8c\xe3\x80\x82!?  \t\n") == semfp::Fingerprint<64>{});  // punctuation and space only
    CHECK(fp(std::string(1000, '\0')) == semfp::Fingerprint<64>{});             // NUL bytes
    CHECK(fp("\xff\xfe\xc0\xaf") == semfp::Fingerprint<64>{});                  // malformed bytes only
    CHECK(fp("abc") != semfp::Fingerprint<64>{});
}

TEST_CASE("Fingerprinter: normalization makes width and case irrelevant", "[fingerprinter]") {
    const semfp::Fingerprinter<semfp::CharBigramTokenizer, semfp::default_hash, 128> fp;
    CHECK(fp("Hello World 2024") == fp("\xef\xbc\xa8\xef\xbd\x85llo WORLD \xef\xbc\x92\xef\xbc\x90\xef\xbc\x92\xef\xbc\x94"));
    CHECK(fp(semfp_test::article_a) == fp(semfp_test::article_a));
    CHECK(fp(semfp_test::article_a) != fp(semfp_test::article_b));
}

TEST_CASE("Fingerprinter: distance grows with edit size", "[fingerprinter]") {
    const semfp::Fingerprinter<semfp::CharBigramTokenizer> fp;
    const auto base = fp(semfp_test::article_a);
    std::mt19937 rng(1234);
    // Mean distance over several random edits per size must grow with the edit size.
    double previous = -1;
    for (double fraction : {0.0, 0.05, 0.2, 0.5}) {
        double sum = 0;
        for (int t = 0; t < 20; ++t)
            sum += semfp::hamming_distance(base, fp(semfp_test::substitute_han(semfp_test::article_a, fraction, rng)));
        const double mean = sum / 20;
        CHECK(mean > previous);
        previous = mean;
    }
    CHECK(previous > 15);  // half of the characters replaced: far apart
    CHECK(semfp::hamming_distance(base, fp(semfp_test::article_b)) > 15);
}

TEST_CASE("Fingerprinter: TF-IDF and sub-linear TF", "[fingerprinter]") {
    semfp::IdfTable idf(1.0);
    idf.set("aa", 0.0);  // a term with zero IDF cannot influence the fingerprint
    semfp::fingerprint_options opt;
    opt.idf = &idf;
    const semfp::Fingerprinter<semfp::WhitespaceTokenizer, semfp::Murmur3> with_idf(semfp::WhitespaceTokenizer{}, opt);
    const semfp::Fingerprinter<semfp::WhitespaceTokenizer, semfp::Murmur3> plain;
    CHECK(with_idf("aa bb aa aa") == plain("bb"));
    CHECK(with_idf("aa bb") == semfp::Fingerprint<64>{semfp::Murmur3::hash64("bb")});

    semfp::fingerprint_options sub;
    sub.tf = semfp::tf_scaling::sublinear;
    const semfp::Fingerprinter<semfp::WhitespaceTokenizer, semfp::Murmur3> sublinear(semfp::WhitespaceTokenizer{}, sub);
    // Sub-linear TF weighs "p" (tf 3) as 1 + ln 3; the result must equal a reference Simhash
    // with those weights.
    semfp::Simhash<64, semfp::Murmur3> ref;
    ref.add("p", semfp::detail::quantize_weight(1.0 + std::log(3.0)));
    ref.add("q", semfp::detail::quantize_weight(1.0));
    ref.add("r", semfp::detail::quantize_weight(1.0));
    CHECK(sublinear("p q p r p") == ref.finish());
    semfp::Simhash<64, semfp::Murmur3> raw;
    raw.add("p", 3);
    raw.add("q", 1);
    raw.add("r", 1);
    CHECK(plain("p q p r p") == raw.finish());

    const semfp::Fingerprinter<semfp::WhitespaceTokenizer, semfp::Murmur3, 128> sub128(semfp::WhitespaceTokenizer{}, sub);
    semfp::Simhash<128, semfp::Murmur3> ref128;
    ref128.add("p", semfp::detail::quantize_weight(1.0 + std::log(2.0)));
    ref128.add("q", semfp::detail::quantize_weight(1.0));
    CHECK(sub128("p q p") == ref128.finish());
}

TEST_CASE("Fingerprinter composes with StopwordFilter", "[fingerprinter]") {
    const semfp::Fingerprinter<semfp::StopwordFilter<semfp::WhitespaceTokenizer>, semfp::Murmur3> fp;
    // "的" and "了" are stopwords: they do not change the fingerprint.
    CHECK(fp("\xe6\x8c\x87\xe7\xba\xb9 \xe7\x9a\x84 \xe5\x8e\xbb\xe9\x87\x8d \xe4\xba\x86") ==
          fp("\xe6\x8c\x87\xe7\xba\xb9 \xe5\x8e\xbb\xe9\x87\x8d"));
}

TEST_CASE("One-call fingerprint", "[fingerprinter]") {
    const auto a = semfp::fingerprint(semfp_test::article_a);
    const auto b = semfp::fingerprint<128>(semfp_test::article_a);
    CHECK(a == semfp::fingerprint(semfp_test::article_a));
    CHECK(b == semfp::fingerprint<128>(semfp_test::article_a));
    CHECK(semfp::hamming_distance(a, semfp::fingerprint(semfp_test::article_b)) > 10);
    CHECK(semfp::fingerprint("") == semfp::Fingerprint<64>{});
}

TEST_CASE("Adversarial and large input is handled", "[fingerprinter]") {
    const semfp::Fingerprinter<semfp::CharBigramTokenizer> fp;
    std::string repeated;
    for (int i = 0; i < 200000; ++i) repeated += "\xe7\x9a\x84";  // one character, 600 kB
    CHECK(fp(repeated) == semfp::Fingerprint<64>{semfp::default_hash::hash64("\xe7\x9a\x84\xe7\x9a\x84")});
    std::string punct;
    for (int i = 0; i < 200000; ++i) punct += "\xef\xbc\x8c!";
    CHECK(fp(punct) == semfp::Fingerprint<64>{});
    std::string junk;
    std::mt19937 rng(3);
    for (int i = 0; i < 1 << 20; ++i) junk.push_back(static_cast<char>(rng()));
    (void)fp(junk);  // must terminate without error; the sanitizer build checks memory safety
    std::string big;
    while (big.size() < (8u << 20)) big += semfp_test::article_a;
    CHECK(fp(big) != semfp::Fingerprint<64>{});
}
