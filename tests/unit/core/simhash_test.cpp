#include "support/catch.hpp"
#include "support/edits.hpp"
#include "support/sample_text.hpp"

#include <semfp/core/fingerprinter.hpp>
#include <semfp/core/simhash.hpp>
#include <semfp/text/stopwords.hpp>

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

// Reference Simhash: signed votes in 64-bit integers, straight from the definition.
template <std::size_t Bits, class Hash>
semfp::Fingerprint<Bits> reference_simhash(const std::vector<std::pair<std::string, std::uint32_t>>& features) {
    std::vector<std::int64_t> votes(Bits, 0);
    for (const auto& [f, w] : features) {
        const auto h = semfp::detail::feature_bits<Bits, Hash>(f);
        for (std::size_t i = 0; i < Bits; ++i) {
            const bool set = (h[Bits / 64 - 1 - i / 64] >> (i % 64)) & 1u;
            votes[i] += set ? std::int64_t{w} : -std::int64_t{w};
        }
    }
    typename semfp::Fingerprint<Bits>::storage_type out{};
    for (std::size_t i = 0; i < Bits; ++i)
        if (votes[i] > 0) out[Bits / 64 - 1 - i / 64] |= std::uint64_t{1} << (i % 64);
    return semfp::Fingerprint<Bits>(out);
}

}  // namespace

TEMPLATE_TEST_CASE_SIG("Simhash equals the textbook definition", "[simhash]", ((std::size_t B), B), 64, 128) {
    std::mt19937 rng(7);
    for (int round = 0; round < 50; ++round) {
        std::vector<std::pair<std::string, std::uint32_t>> features;
        const int n = static_cast<int>(rng() % 40);
        for (int i = 0; i < n; ++i)
            features.emplace_back("f" + std::to_string(rng() % 1000), static_cast<std::uint32_t>(1 + rng() % 50));
        semfp::Simhash<B, semfp::Mixed<semfp::Fnv1a>> acc;
        for (const auto& [f, w] : features) acc.add(f, w);
        CHECK(acc.finish() == reference_simhash<B, semfp::Mixed<semfp::Fnv1a>>(features));
    }
}

TEMPLATE_TEST_CASE_SIG("Simhash equals the definition for weights of every counter width", "[simhash]",
                       ((std::size_t B), B), 64, 128) {
    // Small weights use 8-bit counters, weights up to 65,535 16-bit counters, larger ones 32-bit
    // lanes; many features force every kind of counter to be flushed mid-way.
    std::mt19937 rng(11);
    for (int round = 0; round < 40; ++round) {
        std::vector<std::pair<std::string, std::uint32_t>> features;
        const int n = static_cast<int>(rng() % 600);
        for (int i = 0; i < n; ++i) {
            const auto kind = rng() % 3;
            const auto w = static_cast<std::uint32_t>(kind == 0   ? 1 + rng() % 255
                                                      : kind == 1 ? 256 + rng() % (65536 - 256)
                                                                  : 65536 + rng() % 1000000);
            features.emplace_back("f" + std::to_string(rng() % 500), w);
        }
        semfp::Simhash<B, semfp::Mixed<semfp::Fnv1a>> acc;
        for (const auto& [f, w] : features) acc.add(f, w);
        CHECK(acc.finish() == reference_simhash<B, semfp::Mixed<semfp::Fnv1a>>(features));
    }
}

TEST_CASE("Simhash basics", "[simhash]") {
    semfp::Simhash<64> empty;
    CHECK(empty.finish() == semfp::Fingerprint<64>{});
    CHECK(empty.total_weight() == 0);

    semfp::Simhash<64, semfp::Murmur3> one;
    one.add("hello", 5);
    CHECK(one.finish().value() == semfp::Murmur3::hash64("hello"));  // a single feature is its own hash
    one.add("ignored", 0);
    CHECK(one.finish().value() == semfp::Murmur3::hash64("hello"));

    // Adding twice with weight w equals adding once with 2w.
    semfp::Simhash<128> a, b;
    a.add("x", 3);
    a.add("x", 3);
    a.add("y", 5);
    b.add("x", 6);
    b.add("y", 5);
    CHECK(a.finish() == b.finish());
    a.reset();
    CHECK(a.finish() == semfp::Fingerprint<128>{});
}

TEST_CASE("Simhash sums do not overflow with huge weights", "[simhash]") {
    semfp::Simhash<64, semfp::Murmur3> acc;
    for (int i = 0; i < 5; ++i) acc.add("heavy", 0xFFFFFFFFu);  // forces block flushes
    acc.add("light", 0xFFFFFFFFu);
    CHECK(acc.total_weight() == 6ull * 0xFFFFFFFFull);
    CHECK(acc.finish().value() == semfp::Murmur3::hash64("heavy"));
}

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

TEST_CASE("IdfTable loads idf.txt-style lists", "[weighting]") {
    semfp::IdfTable t(2.0);
    std::istringstream ok("\xEF\xBB\xBF# comment\r\nterm 1.5\r\n\n\xe4\xb8\xad\xe6\x96\x87\t3\n");
    t.load(ok);
    CHECK(t.size() == 2);
    CHECK(t.idf("term") == 1.5);
    CHECK(t.idf("\xe4\xb8\xad\xe6\x96\x87") == 3.0);
    CHECK(t.idf("unknown") == 2.0);
    std::istringstream bad("a 1\nb x\n");
    try {
        t.load(bad);
        FAIL("expected parse_error");
    } catch (const semfp::parse_error& e) {
        CHECK(e.line() == 2);
    }
    CHECK(t.size() == 2);  // unchanged
    CHECK(t.idf("a") == 2.0);
    std::istringstream no_number("a 1\nterm   \n");
    REQUIRE_THROWS_AS(t.load(no_number), semfp::parse_error);
    std::istringstream negative("a -1\n");
    REQUIRE_THROWS_AS(t.load(negative), semfp::parse_error);
    REQUIRE_THROWS_AS(t.set("x", -1.0), semfp::invalid_argument_error);
    t.set_from_document_frequency("rare", 1, 999);
    CHECK(t.idf("rare") > t.idf("term"));
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
