#include <semfp/index/union_find.hpp>

#include "support/catch.hpp"

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

using clusters = std::vector<std::vector<std::uint32_t>>;
using edges = std::vector<semfp::graph_edge>;

TEST_CASE("UnionFind joins sets and reports them in a fixed order", "[union_find]") {
    semfp::UnionFind uf(6);
    CHECK(uf.unite(4, 2));
    CHECK(uf.unite(2, 5));
    CHECK_FALSE(uf.unite(5, 4));
    CHECK(uf.find(4) == uf.find(5));
    CHECK(uf.find(0) != uf.find(4));
    CHECK(uf.set_size(2) == 3);
    CHECK(uf.sets() == clusters{{0}, {1}, {2, 4, 5}, {3}});
}

TEST_CASE("connected_components does not depend on edge order", "[union_find]") {
    edges e{{0, 1}, {1, 2}, {5, 6}, {2, 3}, {7, 7}};
    const clusters expected{{0, 1, 2, 3}, {4}, {5, 6}, {7}};
    CHECK(semfp::connected_components(8, e) == expected);
    std::mt19937 rng(3);
    for (int i = 0; i < 5; ++i) {
        std::shuffle(e.begin(), e.end(), rng);
        for (auto& x : e) {
            if (rng() % 2 != 0) {
                std::swap(x.a, x.b);
            }
        }
        CHECK(semfp::connected_components(8, e) == expected);
    }
    const edges bad{{0, 8}};
    REQUIRE_THROWS_AS((void)semfp::connected_components(8, bad), semfp::invalid_argument_error);
    REQUIRE_THROWS_AS((void)semfp::radius2_centres(8, bad), semfp::invalid_argument_error);
}

TEST_CASE("radius-2 rule: a path of five splits where components would chain", "[union_find]") {
    // 0-1-2-3-4: class(2) = {0..4} (size 5) is the largest and contains everyone.
    const edges path5{{0, 1}, {1, 2}, {2, 3}, {3, 4}};
    CHECK(semfp::radius2_centres(5, path5) == std::vector<std::uint32_t>{2, 2, 2, 2, 2});
    // 0-1-2-3-4-5-6: classes of 2, 3 and 4 all have size 5 (the largest). Node 5 lies in
    // class(3) and class(4): the tie goes to the smaller centre, 3; node 6 only in class(4).
    const edges path7{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}};
    const auto c7 = semfp::radius2_centres(7, path7);
    CHECK(c7 == std::vector<std::uint32_t>{2, 2, 2, 2, 2, 3, 4});
    CHECK(semfp::radius2_clusters(7, path7) == clusters{{0, 1, 2, 3, 4}, {5}, {6}});
    CHECK(semfp::connected_components(7, path7) == clusters{{0, 1, 2, 3, 4, 5, 6}});
}

TEST_CASE("radius-2 rule: each node keeps the largest class containing it", "[union_find]") {
    // A star around 0 with leaves 1..4, and a pair 5-6 hanging off leaf 4 through 5.
    const edges g{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {4, 5}, {5, 6}};
    // class(0) = {0,1,2,3,4,5} (6); class(4) = {0,1,2,3,4,5,6} (7) is the largest of all.
    const auto c = semfp::radius2_centres(7, g);
    CHECK(c == std::vector<std::uint32_t>{4, 4, 4, 4, 4, 4, 4});
    // Isolated nodes are their own centre; two separate edges tie on size 2: smallest centre.
    const edges pairs{{1, 2}, {3, 4}};
    CHECK(semfp::radius2_centres(5, pairs) == std::vector<std::uint32_t>{0, 1, 1, 3, 3});
    CHECK(semfp::radius2_clusters(5, pairs) == clusters{{0}, {1, 2}, {3, 4}});
    CHECK(semfp::radius2_clusters(0, edges{}).empty());
}

TEST_CASE("radius-2 rule does not depend on edge order", "[union_find]") {
    std::mt19937 rng(9);
    edges g;
    for (int i = 0; i < 120; ++i) {
        g.push_back({static_cast<std::uint32_t>(rng() % 60), static_cast<std::uint32_t>(rng() % 60)});
    }
    const auto expected = semfp::radius2_centres(60, g);
    for (int i = 0; i < 4; ++i) {
        std::shuffle(g.begin(), g.end(), rng);
        CHECK(semfp::radius2_centres(60, g) == expected);
    }
    // Every node's centre is within two edges of it (it is in the centre's class).
    for (std::uint32_t v = 0; v < 60; ++v) {
        const std::uint32_t c = expected[v];
        if (c == v) {
            continue;
        }
        bool near = false;
        for (const auto& e : g) {
            const bool touches_c = e.a == c || e.b == c;
            const std::uint32_t other = e.a == c ? e.b : e.a;
            if (touches_c && other == v) {
                near = true;
            }
            if (touches_c) {
                for (const auto& f : g) {
                    if ((f.a == other && f.b == v) || (f.b == other && f.a == v)) {
                        near = true;
                    }
                }
            }
        }
        CHECK(near);
    }
}

TEST_CASE("radius2_clusters from centres groups nodes as the edge form does", "[union_find]") {
    std::mt19937 rng(13);
    edges g;
    for (int i = 0; i < 200; ++i) {
        g.push_back({static_cast<std::uint32_t>(rng() % 90), static_cast<std::uint32_t>(rng() % 90)});
    }
    const auto centre = semfp::radius2_centres(90, g);
    const auto grouped = semfp::radius2_clusters(centre);
    CHECK(grouped == semfp::radius2_clusters(90, g));
    CHECK(grouped.size() < 90);
    CHECK(semfp::radius2_clusters(std::vector<std::uint32_t>{2, 2, 2, 0}) == clusters{{0, 1, 2}, {3}});
    CHECK(semfp::radius2_clusters(std::vector<std::uint32_t>{}).empty());
    REQUIRE_THROWS_AS((void)semfp::radius2_clusters(std::vector<std::uint32_t>{0, 2}), semfp::invalid_argument_error);
}
