#pragma once
/// \file
/// `UnionFind` and the two ways of turning a duplicate graph into clusters: connected
/// components, and the radius-2 class rule of the period-feature-string patent (CN102945244A).
///
/// Why both: connected components are transitive, so a chain of near-duplicates (a ~ b ~ c ~ d)
/// joins documents that share nothing; the patent bounds that drift by letting each node form a
/// class with the nodes within two edges of it and giving every node to the largest class that
/// contains it, so a cluster never reaches further than four edges across and the node that
/// defines it (its centre) is within two edges of every member. Both functions return clusters
/// in a deterministic order (by smallest member) with ascending members, whatever the order of
/// the edges.

#include <semfp/error.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>
#include <utility>
#include <vector>

namespace semfp {
inline namespace v0 {

/// Disjoint sets over 0 .. n-1 with path halving and union by size: near-constant time per
/// operation (inverse Ackermann, amortized).
class UnionFind {
public:
    /// `n` singleton sets.
    explicit UnionFind(std::size_t n = 0) : m_parent(n), m_size(n, 1) {
        std::iota(m_parent.begin(), m_parent.end(), std::uint32_t{0});
    }

    /// Number of elements.
    [[nodiscard]] std::size_t size() const noexcept { return m_parent.size(); }

    /// The representative of `x`'s set (`x` < size()); halves the path on the way.
    [[nodiscard]] std::uint32_t find(std::uint32_t x) noexcept {
        while (m_parent[x] != x) {
            m_parent[x] = m_parent[m_parent[x]];
            x = m_parent[x];
        }
        return x;
    }

    /// Joins the sets of `a` and `b`; returns false when they were already one set.
    bool unite(std::uint32_t a, std::uint32_t b) noexcept {
        a = find(a);
        b = find(b);
        if (a == b) {
            return false;
        }
        if (m_size[a] < m_size[b]) {
            std::swap(a, b);
        }
        m_parent[b] = a;
        m_size[a] += m_size[b];
        return true;
    }

    /// Number of elements in `x`'s set.
    [[nodiscard]] std::size_t set_size(std::uint32_t x) noexcept { return m_size[find(x)]; }

    /// The sets, each with ascending members, ordered by their smallest member. O(n).
    [[nodiscard]] std::vector<std::vector<std::uint32_t>> sets() {
        std::vector<std::uint32_t> slot(m_parent.size(), UINT32_MAX);
        std::vector<std::vector<std::uint32_t>> out;
        for (std::uint32_t x = 0; x < m_parent.size(); ++x) {
            const std::uint32_t r = find(x);
            if (slot[r] == UINT32_MAX) {
                slot[r] = static_cast<std::uint32_t>(out.size());
                out.emplace_back();
            }
            out[slot[r]].push_back(x);
        }
        return out;
    }

private:
    std::vector<std::uint32_t> m_parent;
    std::vector<std::uint32_t> m_size;
};

/// An undirected edge between two nodes.
struct graph_edge {
    std::uint32_t a = 0;
    std::uint32_t b = 0;
};

/// Connected components of the graph on nodes 0 .. n-1 with `edges` (singletons included),
/// members ascending, components by smallest member. Throws `invalid_argument_error` for an
/// edge naming a node >= n. Complexity: near-linear in n + edges.
[[nodiscard]] inline std::vector<std::vector<std::uint32_t>> connected_components(std::size_t n,
                                                                                  std::span<const graph_edge> edges) {
    UnionFind uf(n);
    for (const graph_edge& e : edges) {
        if (e.a >= n || e.b >= n) {
            detail::throw_invalid_argument("connected_components: edge names a node out of range");
        }
        uf.unite(e.a, e.b);
    }
    return uf.sets();
}

/// The radius-2 classes of the patent: result `[v]` is the centre of the class node `v` keeps.
///
/// The class of node `c` is `c` with every node within two edges of it. Each node keeps the
/// largest class containing it; among classes of equal size, the one whose centre has the
/// smallest number. An isolated node is its own centre. The clusters are the nodes grouped by
/// centre (`radius2_clusters`); a centre need not keep its own class (a bigger one may take it),
/// so clusters are subsets of classes. Throws `invalid_argument_error` for an edge naming a
/// node >= n. Complexity: the sum over nodes of their two-edge neighbourhood sizes (small for
/// duplicate graphs, quadratic for a dense hub); memory O(n + edges).
[[nodiscard]] inline std::vector<std::uint32_t> radius2_centres(std::size_t n, std::span<const graph_edge> edges) {
    // Adjacency in CSR form, self-loops and repeated edges harmless (the stamp skips repeats).
    std::vector<std::uint32_t> start(n + 1, 0);
    for (const graph_edge& e : edges) {
        if (e.a >= n || e.b >= n) {
            detail::throw_invalid_argument("radius2_centres: edge names a node out of range");
        }
        ++start[e.a + 1];
        ++start[e.b + 1];
    }
    for (std::size_t v = 0; v < n; ++v) {
        start[v + 1] += start[v];
    }
    std::vector<std::uint32_t> adj(start[n]);
    {
        std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
        for (const graph_edge& e : edges) {
            adj[fill[e.a]++] = e.b;
            adj[fill[e.b]++] = e.a;
        }
    }
    std::vector<std::uint32_t> stamp(n, UINT32_MAX);
    std::vector<std::uint32_t> members;
    // Visits the class of `c` once: f(member).
    auto for_class = [&](std::uint32_t c, auto&& f) {
        members.clear();
        stamp[c] = c;
        members.push_back(c);
        for (std::uint32_t i = start[c]; i < start[c + 1]; ++i) {
            const std::uint32_t u = adj[i];
            if (stamp[u] != c) {
                stamp[u] = c;
                members.push_back(u);
            }
        }
        const std::size_t first_ring = members.size();
        for (std::size_t m = 1; m < first_ring; ++m) {
            const std::uint32_t u = members[m];
            for (std::uint32_t i = start[u]; i < start[u + 1]; ++i) {
                const std::uint32_t w = adj[i];
                if (stamp[w] != c) {
                    stamp[w] = c;
                    members.push_back(w);
                }
            }
        }
        for (const std::uint32_t m : members) {
            f(m);
        }
    };
    std::vector<std::uint32_t> centre(n);
    std::vector<std::uint32_t> best(n, 0);
    std::iota(centre.begin(), centre.end(), std::uint32_t{0});
    // Centres are visited in ascending order and replace only on a strictly larger class, so
    // ties go to the smallest centre.
    for (std::uint32_t c = 0; c < n; ++c) {
        for_class(c, [](std::uint32_t) noexcept {});
        const auto size = static_cast<std::uint32_t>(members.size());
        for (const std::uint32_t m : members) {
            if (size > best[m]) {
                best[m] = size;
                centre[m] = c;
            }
        }
    }
    return centre;
}

/// Nodes grouped by the centre they keep (`centre[v]`, as `radius2_centres` returns it),
/// members ascending, clusters by smallest member. Throws `invalid_argument_error` for a centre
/// >= centre.size(). O(n).
[[nodiscard]] inline std::vector<std::vector<std::uint32_t>> radius2_clusters(std::span<const std::uint32_t> centre) {
    const std::size_t n = centre.size();
    std::vector<std::uint32_t> slot(n, UINT32_MAX);
    std::vector<std::vector<std::uint32_t>> out;
    for (std::uint32_t v = 0; v < n; ++v) {
        const std::uint32_t c = centre[v];
        if (c >= n) {
            detail::throw_invalid_argument("radius2_clusters: centre out of range");
        }
        if (slot[c] == UINT32_MAX) {
            slot[c] = static_cast<std::uint32_t>(out.size());
            out.emplace_back();
        }
        out[slot[c]].push_back(v);
    }
    return out;
}

/// The clusters of the radius-2 rule: nodes grouped by the centre they keep
/// (`radius2_centres`), members ascending, clusters by smallest member.
[[nodiscard]] inline std::vector<std::vector<std::uint32_t>> radius2_clusters(std::size_t n,
                                                                              std::span<const graph_edge> edges) {
    return radius2_clusters(radius2_centres(n, edges));
}

}  // namespace v0
}  // namespace semfp
