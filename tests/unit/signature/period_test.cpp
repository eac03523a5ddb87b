#include <semfp/signature/period.hpp>

#include "support/catch.hpp"

#include <cstdint>
#include <string>
#include <vector>

using strings = std::vector<std::string>;

namespace {

semfp::period_options small(std::size_t length) {
    semfp::period_options o;
    o.length = length;
    o.min_strings = 1;
    o.min_idf = 0;
    return o;
}

// A text of `n` distinct sentences numbered from `first`, each ending with a full stop.
std::string sentences(int first, int n) {
    std::string s;
    for (int i = first; i < first + n; ++i) {
        s += "这句话说明了一个不同的事实编号" + std::to_string(i) + "。";
    }
    return s;
}

}  // namespace

TEST_CASE("period strings: L code points before each full stop, or back to the previous one", "[period]") {
    CHECK(semfp::period_strings("今天天气很好。我们去公园散步吧。", small(4)) == strings{"天气很好", "园散步吧"});
    // A gap shorter than L gives the whole gap; empty gaps give nothing.
    CHECK(semfp::period_strings("好。。很好。", small(4)) == strings{"好", "很好"});
    // White space is removed and does not count towards L.
    CHECK(semfp::period_strings("天 气\t很\n好。", small(3)) == strings{"气很好"});
    // Text after the last terminator, and texts without one, give no string.
    CHECK(semfp::period_strings("没有句号的导航 首页 新闻", small(4)).empty());
    CHECK(semfp::period_strings("", small(4)).empty());
    // Only the configured terminators count; full-width ！ arrives as ! after width folding.
    auto o = small(3);
    o.terminators = std::u32string(1, U'\u3002');  // (not a literal: GCC 12 -Wrestrict false positive)
    CHECK(semfp::period_strings("真好！真的很好。", o) == strings{"的很好"});
    CHECK(semfp::period_strings("真好！真的很好。", small(3)) == strings{"真好", "的很好"});
    // ASCII stops end a string only before white space or the end, or after CJK text.
    CHECK(semfp::period_strings("版本3.14发布. 详细信息.见网站", small(4)) == strings{"14发布", "详细信息"});
    CHECK(semfp::period_strings("v1.2.3", small(4)).empty());
    CHECK(semfp::period_strings("Run it. Then stop.", small(4)) == strings{"unit", "stop"});
}

TEST_CASE("period strings are normalized: width, case and script variants match", "[period]") {
    const auto o = small(6);
    CHECK(semfp::period_strings("ＡＢＣ版本發佈了。", o) == semfp::period_strings("abc版本发布了。", o));
    CHECK(semfp::period_strings("半角句号｡", o) == strings{"半角句号"});
}

TEST_CASE("period strings survive malformed input", "[period]") {
    const std::string bad = std::string("ab\xff\xfe") + std::string(1, '\0') + "c\xe3\x80";  // cut 。
    CHECK(semfp::period_strings(bad, small(4)).empty());
    const std::string with = std::string("x\xffy") + "\xe3\x80\x82";
    const auto s = semfp::period_strings(with, small(8));
    REQUIRE(s.size() == 1);
    CHECK(s[0] == "x\xffy");
}

TEST_CASE("shared_period_strings lists the common strings once, in the first text's order", "[period]") {
    const auto o = small(5);
    const std::string a = "甲乙丙丁戊。己庚辛壬癸。甲乙丙丁戊。";
    const std::string b = "另一个页面。甲乙丙丁戊。己庚辛壬癸。";
    CHECK(semfp::shared_period_strings(a, b, o) == strings{"甲乙丙丁戊", "己庚辛壬癸"});
}

TEST_CASE("PeriodDetector: CCS, containments and relations", "[period]") {
    semfp::period_options o;
    o.length = 12;
    o.min_idf = 0;
    o.min_strings = 3;
    o.duplicate_threshold = 0.8;
    o.contains_threshold = 0.9;
    semfp::PeriodDetector det(o);
    const auto a = det.add("a", sentences(0, 10));                   // 10 strings
    const auto b = det.add("b", sentences(0, 9) + sentences(50, 1));  // 9 shared of 10
    const auto c = det.add("c", sentences(2, 4));                    // excerpt: 4 of a's
    const auto d = det.add("d", sentences(100, 10));                 // unrelated
    const auto e = det.add("e", sentences(0, 2));                    // too few strings
    det.run();
    CHECK(det.id(b) == "b");
    CHECK(det.string_count(a) == 10);
    const auto ab = det.compare(a, b);
    CHECK(ab.shared == 9);
    REQUIRE_THAT(ab.ccs, Catch::Matchers::WithinAbs(0.9, 1e-12));
    CHECK(ab.relation == semfp::period_relation::duplicate);
    const auto ac = det.compare(c, a);  // argument order does not matter
    CHECK(ac.a == a);
    CHECK(ac.b == c);
    CHECK(ac.shared == 4);
    REQUIRE_THAT(ac.a_in_b, Catch::Matchers::WithinAbs(0.4, 1e-12));
    REQUIRE_THAT(ac.b_in_a, Catch::Matchers::WithinAbs(1.0, 1e-12));
    REQUIRE_THAT(ac.ccs, Catch::Matchers::WithinAbs(1.0, 1e-12));
    CHECK(ac.relation == semfp::period_relation::contains);
    CHECK(det.compare(a, d).relation == semfp::period_relation::none);
    CHECK(det.compare(a, e).relation == semfp::period_relation::none);
    CHECK(det.compare(a, e).shared == 2);

    // pairs() holds exactly the related pairs, by (a, b).
    const auto& p = det.pairs();
    REQUIRE(p.size() == 3);  // a-b duplicate, a-c and b-c contains
    CHECK((p[0].a == a && p[0].b == b && p[0].relation == semfp::period_relation::duplicate));
    CHECK((p[1].a == a && p[1].b == c && p[1].relation == semfp::period_relation::contains));
    CHECK((p[2].a == b && p[2].b == c && p[2].relation == semfp::period_relation::contains));
    CHECK(semfp::to_string(p[1].relation) == "contains");

    // Clusters: duplicate edges only by default.
    const auto cl = det.clusters();
    REQUIRE(cl.size() == 4);
    CHECK(cl[0].members == std::vector<std::uint32_t>{a, b});
    CHECK(cl[0].centre == a);
}

TEST_CASE("PeriodDetector: the IDF filter drops template sentences", "[period]") {
    // 40 pages of one site: each its own article plus the site's footer sentences. Pages 0 and
    // 1 carry the same article. Without the filter, the footer makes every page pair similar.
    const std::string footer = "本站所有文章均来自网络如有侵权请联系删除。版权所有不得转载本站内容。欢迎访问我们的网站首页。";
    auto run = [&](double min_idf) {
        semfp::period_options o;
        o.length = 12;
        o.min_idf = min_idf;
        o.min_noise_df = 4;
        o.duplicate_threshold = 0.8;
        semfp::PeriodDetector det(o);
        for (int i = 0; i < 40; ++i) {
            (void)det.add(sentences(i == 1 ? 0 : i * 10, 4) + footer);
        }
        det.run();
        return det;
    };
    const auto unfiltered = run(0);
    CHECK(unfiltered.string_count(0) == 7);
    CHECK(unfiltered.compare(0, 1).relation == semfp::period_relation::duplicate);
    CHECK(unfiltered.compare(2, 3).shared == 3);  // the footer alone
    const auto filtered = run(1.0);               // df 40 of 40: IDF 0 < 1
    CHECK(filtered.string_count(0) == 4);
    CHECK(filtered.is_noise("版权所有不得转载本站内容"));
    CHECK_FALSE(filtered.is_noise("明了一个不同的事实编号0"));
    CHECK(filtered.compare(0, 1).relation == semfp::period_relation::duplicate);
    CHECK(filtered.compare(2, 3).shared == 0);
    CHECK(filtered.pairs().size() == 1);
    // The main text keeps the article's sentences and drops the footer.
    const std::string main = filtered.main_text(sentences(20, 4) + footer);
    CHECK(main.find("事实编号20。") != std::string::npos);
    CHECK(main.find("事实编号23。") != std::string::npos);
    CHECK(main.find("版权所有") == std::string::npos);
}

TEST_CASE("PeriodDetector: results do not depend on the thread count, the cap removes pairs", "[period]") {
    auto run = [](unsigned threads, std::size_t cap) {
        semfp::period_options o;
        o.length = 10;
        o.min_idf = 0;
        o.threads = threads;
        o.max_postings = cap;
        semfp::PeriodDetector det(o);
        for (int i = 0; i < 600; ++i) {
            (void)det.add(sentences((i % 50) * 3, 6));  // 50 overlapping articles, 12 copies each
        }
        det.run();
        std::vector<std::uint64_t> flat;
        for (const auto& p : det.pairs()) {
            flat.push_back((std::uint64_t{p.a} << 32) | p.b);
            flat.push_back(p.shared);
            flat.push_back(static_cast<std::uint64_t>(p.relation));
        }
        return flat;
    };
    const auto one = run(1, 0);
    REQUIRE_FALSE(one.empty());
    CHECK(run(2, 0) == one);
    CHECK(run(5, 0) == one);
    CHECK(run(2, 11).empty());  // every string is in 12 or more pages
}

TEST_CASE("PeriodDetector refuses bad options", "[period]") {
    semfp::period_options o;
    o.length = 0;
    REQUIRE_THROWS_AS(semfp::PeriodDetector(o), semfp::invalid_argument_error);
    o = {};
    o.terminators.clear();
    REQUIRE_THROWS_AS(semfp::PeriodDetector(o), semfp::invalid_argument_error);
    o = {};
    o.duplicate_threshold = 1.5;
    REQUIRE_THROWS_AS(semfp::PeriodDetector(o), semfp::invalid_argument_error);
    semfp::PeriodDetector empty;
    empty.run();
    CHECK(empty.pairs().empty());
    CHECK(empty.clusters().empty());
}
