#include "support/catch.hpp"

#include <semfp/core/digest.hpp>
#include <semfp/core/weighting.hpp>
#include <semfp/signature/keyword.hpp>
#include <semfp/text/dictionary.hpp>
#include <semfp/text/segmenter.hpp>
#include <semfp/text/synonyms.hpp>
#include <semfp/text/tokenizers.hpp>

#include <algorithm>
#include <bit>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {
using words_fp = semfp::KeywordFingerprinter<semfp::WhitespaceTokenizer>;

semfp::keyword_options opts(std::size_t n, bool freq = false) {
    semfp::keyword_options o;
    o.count = n;
    o.with_frequencies = freq;
    return o;
}
}  // namespace

TEST_CASE("exact_signature is the MD5 of the normalized text", "[signature][exact]") {
    CHECK(semfp::exact_signature("abc").to_hex() == "900150983cd24fb0d6963f7d28e17f72");
    // Full-width and upper-case letters normalize to "abc".
    CHECK(semfp::exact_signature("\xef\xbc\xa1\xef\xbc\xa2\xef\xbc\xa3") == semfp::exact_signature("abc"));
    CHECK(semfp::exact_signature("abd") != semfp::exact_signature("abc"));
    CHECK(semfp::exact_signature("") == semfp::exact_signature(""));
    // Invalid UTF-8 and NUL bytes have a signature too.
    CHECK(semfp::exact_signature(std::string("\xff\x00x", 3)) != semfp::exact_signature("x"));
}

TEST_CASE("keyword fingerprints keep the top n terms and ignore their order", "[signature][keyword]") {
    const words_fp fp(semfp::WhitespaceTokenizer{}, opts(2));
    // "aa" x3, "bb" x2, "cc" x1: the top two are {aa, bb} whatever the order and the rest.
    const auto a = fp("aa bb aa cc bb aa");
    CHECK(a == fp("bb aa aa aa bb dd"));
    CHECK(a == semfp::digest_fingerprint<semfp::Md5>("aa\nbb\n"));
    CHECK(a != fp("aa cc aa cc bb aa"));
    const auto kw = fp.keywords("aa bb aa cc bb aa");
    REQUIRE(kw.size() == 2);
    CHECK(kw[0].term == "aa");
    CHECK(kw[0].count == 3);
    CHECK(kw[1].term == "bb");
    CHECK(kw[1].weight == 2.0);
}

TEST_CASE("keyword ties are broken by code-point order", "[signature][keyword]") {
    const words_fp fp(semfp::WhitespaceTokenizer{}, opts(2));
    const auto kw = fp.keywords("zz yy xx ww");
    REQUIRE(kw.size() == 2);
    CHECK(kw[0].term == "ww");
    CHECK(kw[1].term == "xx");
    // Non-ASCII terms order by code point (UTF-8 byte order): U+4E2D < U+6587.
    // 飞机 (U+98DE) 中国 (U+4E2D) 汽车 (U+6C7D): 中国 < 汽车 < 飞机.
    const auto cjk = fp.keywords("\xe9\xa3\x9e\xe6\x9c\xba \xe4\xb8\xad\xe5\x9b\xbd \xe6\xb1\xbd\xe8\xbd\xa6");
    REQUIRE(cjk.size() == 2);
    CHECK(cjk[0].term == "\xe4\xb8\xad\xe5\x9b\xbd");
    CHECK(cjk[1].term == "\xe6\xb1\xbd\xe8\xbd\xa6");
}

TEST_CASE("keyword fingerprints with frequencies see frequency buckets", "[signature][keyword]") {
    const words_fp plain(semfp::WhitespaceTokenizer{}, opts(2));
    const words_fp freq(semfp::WhitespaceTokenizer{}, opts(2, true));
    // tf 2 and 3 share a bucket; 4 does not.
    CHECK(freq("aa aa bb") != freq("aa aa aa aa bb"));
    CHECK(freq("aa aa bb") == freq("aa aa aa bb"));
    CHECK(plain("aa aa bb") == plain("aa aa aa aa bb"));
    CHECK(freq("aa aa bb") == semfp::digest_fingerprint<semfp::Md5>("aa\t2\nbb\t1\n"));
}

TEST_CASE("keyword fingerprints weight by TF-IDF when given a table", "[signature][keyword]") {
    semfp::IdfTable idf;
    idf.set("common", 0.1);
    idf.set("rare", 5.0);
    semfp::keyword_options o = opts(1);
    o.idf = &idf;
    const words_fp fp(semfp::WhitespaceTokenizer{}, o);
    const auto kw = fp.keywords("common common common rare");
    REQUIRE(kw.size() == 1);
    CHECK(kw[0].term == "rare");
}

TEST_CASE("IdfTable::from_corpus counts document frequencies", "[signature][idf]") {
    const std::vector<std::string> docs{"aa bb", "aa cc", "aa aa dd"};
    const auto idf = semfp::IdfTable::from_corpus(docs, semfp::WhitespaceTokenizer{});
    CHECK(idf.size() == 4);
    REQUIRE_THAT(idf.idf("aa"), Catch::Matchers::WithinAbs(std::log(4.0 / 4.0) + 1.0, 1e-12));
    REQUIRE_THAT(idf.idf("bb"), Catch::Matchers::WithinAbs(std::log(4.0 / 2.0) + 1.0, 1e-12));
    // Unknown terms: the median of the 4 values (index 2 of ascending {aa, bb, cc, dd} = 1 + ln 2).
    REQUIRE_THAT(idf.idf("unknown"), Catch::Matchers::WithinAbs(std::log(4.0 / 2.0) + 1.0, 1e-12));
    CHECK(idf.default_idf() == idf.median_idf());
    const auto none = semfp::IdfTable::from_corpus(std::vector<std::string>{}, semfp::WhitespaceTokenizer{});
    CHECK(none.idf("x") == 1.0);
}

TEST_CASE("IdfTable: one unknown-term rule, the median of the known values", "[signature][idf]") {
    std::istringstream odd("a 5\nb 1\nc 3\n");
    const auto t = semfp::IdfTable::from_list(odd);
    CHECK(t.size() == 3);
    CHECK(t.median_idf() == 3.0);
    CHECK(t.idf("zzz") == 3.0);
    std::istringstream even("a 4\nb 1\nc 3\nd 2\n");
    CHECK(semfp::IdfTable::from_list(even).idf("zzz") == 3.0);  // index n / 2 of {1, 2, 3, 4}
    std::istringstream empty("# nothing\n");
    CHECK(semfp::IdfTable::from_list(empty).idf("zzz") == 1.0);
    std::istringstream bad("a 4\nb x\n");
    CHECK_THROWS_AS(semfp::IdfTable::from_list(bad), semfp::parse_error);
    // A table built by hand keeps the default it was given.
    semfp::IdfTable hand(2.5);
    hand.set("a", 9.0);
    CHECK(hand.idf("zzz") == 2.5);
    CHECK(hand.median_idf() == 9.0);
    CHECK(semfp::IdfTable(4.0).median_idf() == 4.0);
}

TEST_CASE("keyword fingerprints of term-less and odd texts are defined", "[signature][keyword]") {
    const semfp::KeywordFingerprinter<semfp::CharBigramTokenizer> fp;
    CHECK(fp("") == semfp::exact_signature(""));
    CHECK(fp("!!!") == semfp::exact_signature("!!!"));
    CHECK(fp("!!!") != fp("???"));
    CHECK(fp.keywords("").empty());
    (void)fp(std::string("\xff\xfe\x00\xc3", 4));
    (void)fp(std::string(1 << 20, 'x'));
    CHECK_THROWS_AS(words_fp(semfp::WhitespaceTokenizer{}, opts(0)), semfp::invalid_argument_error);
}

TEST_CASE("the articles' example: a synonym table makes 北京华联 and 华联商厦 fingerprint alike",
          "[signature][keyword][synonyms]") {
    const semfp::Dictionary dict{"\xe5\x8c\x97\xe4\xba\xac\xe5\x8d\x8e\xe8\x81\x94",   // 北京华联
                                 "\xe5\x8d\x8e\xe8\x81\x94\xe5\x95\x86\xe5\x8e\xa6",   // 华联商厦
                                 "\xe4\xbb\x8a\xe5\xa4\xa9", "\xe5\xbc\x80\xe4\xb8\x9a",  // 今天 开业
                                 "\xe9\xa1\xbe\xe5\xae\xa2"};                             // 顾客
    const std::string a = "\xe5\x8c\x97\xe4\xba\xac\xe5\x8d\x8e\xe8\x81\x94\xe4\xbb\x8a\xe5\xa4\xa9\xe5\xbc\x80"
                          "\xe4\xb8\x9a\xef\xbc\x8c\xe9\xa1\xbe\xe5\xae\xa2\xe5\xbe\x88\xe5\xa4\x9a";
    const std::string b = "\xe5\x8d\x8e\xe8\x81\x94\xe5\x95\x86\xe5\x8e\xa6\xe4\xbb\x8a\xe5\xa4\xa9\xe5\xbc\x80"
                          "\xe4\xb8\x9a\xef\xbc\x8c\xe9\xa1\xbe\xe5\xae\xa2\xe5\xbe\x88\xe5\xa4\x9a";
    const semfp::FmmSegmenter seg(dict);
    const semfp::KeywordFingerprinter<semfp::FmmSegmenter> without(seg, opts(8));
    CHECK(without(a) != without(b));

    auto table = std::make_shared<semfp::SynonymTable>();
    std::istringstream lines("\xe5\x8d\x8e\xe8\x81\x94\xe5\x95\x86\xe5\x8e\xa6\t\xe5\x8c\x97\xe4\xba\xac\xe5\x8d\x8e\xe8\x81\x94\n");
    table->load(lines);
    using filtered = semfp::SynonymFilter<semfp::FmmSegmenter>;
    const semfp::KeywordFingerprinter<filtered> with(filtered(seg, table), opts(8));
    CHECK(with(a) == with(b));
    CHECK(with(a) == without(a));
}

TEST_CASE("keyword selection equals the textbook definition (weights, ties, frequencies)", "[signature][keyword]") {
    // Reference: every distinct term's weight, a full sort by (weight descending, term
    // ascending), the first n terms re-sorted by term and hashed. Random texts over a small
    // vocabulary with many equal weights and IDF values exercise the tie rule.
    const std::vector<std::string> vocab = {"aa", "bb", "cc", "dd", "ee", "ff", "gg", "hh", "ii", "jj", "kk", "ll",
                                            "mm", "nn", "oo", "pp", "qq", "rr", "ss", "tt", "x"};
    semfp::IdfTable idf(1.5);
    for (std::size_t i = 0; i < vocab.size(); i += 2) idf.set(vocab[i], static_cast<double>(i % 5) * 0.5);
    std::uint64_t state = 12345;
    auto next = [&] {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<std::size_t>(state >> 33);
    };
    for (int round = 0; round < 300; ++round) {
        std::string text;
        const std::size_t len = next() % 60;
        for (std::size_t i = 0; i < len; ++i) text += vocab[next() % vocab.size()] + " ";
        const std::size_t n = 1 + next() % 10;
        const bool with_idf = round % 2 == 0;
        const bool freq = round % 3 == 0;
        semfp::keyword_options o = opts(n, freq);
        if (with_idf) o.idf = &idf;
        const words_fp fp(semfp::WhitespaceTokenizer{}, o);

        std::map<std::string, std::uint32_t> counts;
        std::istringstream words(text);
        for (std::string w; words >> w;)
            if (w.size() >= 2) ++counts[w];
        std::vector<std::pair<std::string, std::uint32_t>> terms(counts.begin(), counts.end());
        auto weight = [&](const std::pair<std::string, std::uint32_t>& t) {
            return static_cast<double>(t.second) * (with_idf ? idf.idf(t.first) : 1.0);
        };
        std::sort(terms.begin(), terms.end(), [&](const auto& a, const auto& b) {
            return weight(a) != weight(b) ? weight(a) > weight(b) : a.first < b.first;
        });
        terms.resize(std::min(n, terms.size()));
        std::sort(terms.begin(), terms.end());
        std::string key;
        for (const auto& [term, count] : terms) {
            key += term;
            if (freq) key += "\t" + std::to_string(std::bit_width(count));
            key += "\n";
        }
        const auto expected = terms.empty() ? semfp::exact_signature(text) : semfp::digest_fingerprint<semfp::Md5>(key);
        REQUIRE(fp(text) == expected);
        const auto kw = fp.keywords(text);
        REQUIRE(kw.size() == terms.size());
        for (std::size_t i = 0; i < kw.size(); ++i) CHECK(kw[i].term == terms[i].first);
    }
}
