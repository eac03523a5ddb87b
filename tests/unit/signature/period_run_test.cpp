#include <semfp/index/union_find.hpp>
#include <semfp/signature/period.hpp>

#include "support/catch.hpp"
#include "support/scale.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

// PeriodDetector::run classifies pairs inside the pair-counting workers and skips most of them
// by an integer test. These tests hold it to the definition: every pair of pages compared
// directly (`compare`, which intersects the two pages' string lists and never counts postings),
// the related ones listed in (a, b) order, and the clusters of the edges that definition gives.

namespace {

// The shortest shared count that reaches containment t for a page of n strings, by scanning.
std::uint32_t scan_need(std::uint32_t n, double t) {
    std::uint32_t s = 0;
    while (s < n && static_cast<double>(s) / static_cast<double>(n) < t) {
        ++s;
    }
    return s;
}

bool same_pair(const semfp::period_pair& x, const semfp::period_pair& y) {
    // Bit-for-bit: the same divisions must give the same doubles.
    return x.a == y.a && x.b == y.b && x.shared == y.shared && x.relation == y.relation &&
           std::memcmp(&x.ccs, &y.ccs, sizeof x.ccs) == 0 && std::memcmp(&x.a_in_b, &y.a_in_b, sizeof x.a_in_b) == 0 &&
           std::memcmp(&x.b_in_a, &y.b_in_a, sizeof x.b_in_a) == 0;
}

std::vector<std::vector<std::uint32_t>> members(const std::vector<semfp::period_cluster>& clusters,
                                                std::vector<std::uint32_t>* centres) {
    std::vector<std::vector<std::uint32_t>> out;
    for (const auto& c : clusters) {
        out.push_back(c.members);
        if (centres != nullptr) {
            centres->push_back(c.centre);
        }
    }
    return out;
}

// Runs the detector and checks pairs and both kinds of clusters against the pairwise definition.
void check_against_definition(const std::vector<std::string>& pages, const semfp::period_options& o) {
    semfp::PeriodDetector det(o);
    for (const auto& p : pages) {
        (void)det.add(p);
    }
    det.run();
    const auto n = static_cast<std::uint32_t>(pages.size());
    std::vector<semfp::period_pair> expected;
    std::vector<semfp::graph_edge> edges;
    for (std::uint32_t a = 0; a < n; ++a) {
        for (std::uint32_t b = a + 1; b < n; ++b) {
            const semfp::period_pair q = det.compare(a, b);
            if (q.relation != semfp::period_relation::none) {
                expected.push_back(q);
            }
            if (std::min(q.a_in_b, q.b_in_a) >= o.cluster_threshold || q.relation == semfp::period_relation::duplicate ||
                (o.cluster_contains && q.relation == semfp::period_relation::contains)) {
                edges.push_back({a, b});
            }
        }
    }
    const auto& got = det.pairs();
    REQUIRE(got.size() == expected.size());
    std::size_t differing = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        differing += same_pair(got[i], expected[i]) ? 0 : 1;
    }
    CHECK(differing == 0);

    std::vector<std::uint32_t> centres;
    const auto radius2 = members(det.clusters(true), &centres);
    CHECK(radius2 == semfp::radius2_clusters(n, edges));
    const std::vector<std::uint32_t> centre_of = semfp::radius2_centres(n, edges);
    for (std::size_t c = 0; c < radius2.size(); ++c) {
        CHECK(centres[c] == centre_of[radius2[c].front()]);
    }
    CHECK(members(det.clusters(false), nullptr) == semfp::connected_components(n, edges));
}

// Option sets around the defaults: looser and tighter thresholds, `contains` edges, no noise
// filter, a small posting cap, a minimum of one string, several thread counts.
std::vector<semfp::period_options> option_sets() {
    std::vector<semfp::period_options> sets;
    semfp::period_options o;
    o.threads = 1;
    sets.push_back(o);
    o.threads = 2;
    o.min_idf = 0;
    sets.push_back(o);
    o.threads = 3;
    o.cluster_contains = true;
    o.cluster_threshold = 0.5;
    o.contains_threshold = 0.7;
    o.duplicate_threshold = 0.8;
    sets.push_back(o);
    o = {};
    o.min_strings = 1;
    o.min_idf = 1;
    o.min_noise_df = 2;
    o.max_postings = 5;
    o.cluster_threshold = 1;
    o.threads = 2;
    sets.push_back(o);
    o = {};
    o.length = 4;
    o.min_strings = 0;
    o.duplicate_threshold = 0.3;
    o.contains_threshold = 0.9;
    o.cluster_threshold = 0.2;
    sets.push_back(o);
    return sets;
}

}  // namespace

TEST_CASE("need_count is the smallest shared count that reaches a containment", "[period]") {
    const double thresholds[] = {0.65, 0.9, 0.95, 1.0, 0.5, 0.1, 1e-9, 0.333333333333333, 2.0 / 3.0, 0.7};
    for (const double t : thresholds) {
        for (std::uint32_t n = 0; n <= 3000; ++n) {
            REQUIRE(semfp::detail::need_count(n, t) == scan_need(n, t));
        }
    }
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> unit(1e-6, 1.0);
    for (int i = 0; i < 2000; ++i) {
        const double t = unit(rng);
        const auto n = static_cast<std::uint32_t>(rng() % 100000);
        REQUIRE(semfp::detail::need_count(n, t) == scan_need(n, t));
    }
}

TEST_CASE("PeriodDetector::run equals the pairwise definition on random pages", "[period]") {
    // 700 pages (three chunks of the pair counting) from a pool of 120 sentences: copies,
    // excerpts, pages that contain others, site templates shared by many pages.
    std::mt19937_64 rng(41);
    std::vector<std::string> pool;
    for (int i = 0; i < 120; ++i) {
        pool.push_back("这是第" + std::to_string(i) + "句不同的话，内容编号" + std::to_string(i * 7919 % 1000) + "。");
    }
    std::vector<std::string> pages;
    const std::size_t count = semfp_test::cases(700, 4);
    for (std::size_t i = 0; i < count; ++i) {
        std::string p = "站点" + std::to_string(rng() % 9) + " 首页 新闻\n";
        const std::size_t first = rng() % 100;
        const std::size_t len = 1 + rng() % 20;
        for (std::size_t k = first; k < std::min<std::size_t>(first + len, pool.size()); ++k) {
            if (rng() % 10 != 0) {
                p += pool[k];
            }
        }
        p += "版权所有" + std::to_string(rng() % 9) + "。";
        pages.push_back(std::move(p));
    }
    for (const auto& o : option_sets()) {
        check_against_definition(pages, o);
    }
}

TEST_CASE("PeriodDetector::run equals the pairwise definition on corpus pages", "[period]") {
    std::ifstream in(std::filesystem::path(SEMFP_SOURCE_DIR) / ".." / "shared" / "corpus" / "manpages_zh_cn.jsonl");
    std::vector<std::string> texts;
    std::string line;
    // The "text" field of the first 60 lines, unescaped only as far as needed (no JSON
    // library in the tests): the period strings come from the Chinese prose either way.
    while (texts.size() < 60 && std::getline(in, line)) {
        const std::size_t at = line.find("\"text\": \"");
        if (at != std::string::npos) {
            texts.push_back(line.substr(at + 9, 3000));
        }
    }
    if (texts.empty()) {
        SUCCEED("no corpus next to the source tree");
        return;
    }
    // Each text on several sites, some cut short (excerpts contained in the full page).
    std::mt19937_64 rng(43);
    std::vector<std::string> pages;
    const std::size_t count = semfp_test::cases(400, 4);
    for (std::size_t i = 0; i < count; ++i) {
        const std::string& t = texts[(i / 3) % texts.size()];
        const std::size_t site = rng() % 30;
        std::string p = "站点" + std::to_string(site) + " 首页 新闻 下载\n";
        p += rng() % 4 == 0 ? t.substr(0, t.size() / 2) : t;
        p += "\n本站文章来自网络，如有侵权请联系站点" + std::to_string(site) + "删除。版权所有。\n";
        pages.push_back(std::move(p));
    }
    for (const auto& o : option_sets()) {
        check_against_definition(pages, o);
    }
}
