#pragma once
/// \file
/// Suffix automaton of a code-point sequence with bounded memory whatever the alphabet.
///
/// Why this representation: a state's transitions kept in a per-state sorted vector (the
/// classic layout) make the root, which has one transition per distinct code point, cost
/// O(d) per insertion, so a text of d distinct code points builds in O(d^2); per-state vectors
/// also cost a heap block each. Here every transition is one 12-byte edge in a single array,
/// chained per state (cloning a state walks its chain), and looked up through one
/// open-addressing table keyed by (state, code point). Bounds for a text of n code points:
/// at most 2n - 1 states (16 bytes each, 2n reserved), at most 3n - 4 edges (12 bytes each,
/// vector growth at most doubling that), and table slots (12 bytes each) at most four per edge
/// (load factor at least 1/4 after a doubling); so O(n) memory, under 250 bytes per code point
/// in the worst case and 119 measured on the corpus's longest page (245,908 code points:
/// 1.55 states and 2.08 edges per code point), which is 40 bytes per input byte on Han text
/// (3 bytes per code point). O(n) expected time, independent of the number of distinct code
/// points (the sorted-vector layout measured ~134 bytes per input byte and O(d^2) time).

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace semfp {
inline namespace v0 {
namespace detail {

class suffix_automaton {
public:
    static constexpr std::uint32_t none = 0xFFFFFFFFu;

    struct state {
        std::uint32_t len;        ///< longest string of the state
        std::uint32_t link;       ///< suffix link (none for the root)
        std::uint32_t first_end;  ///< end (inclusive) of its first occurrence in the text
        std::uint32_t edges;      ///< first edge of its chain (none: no transitions)
    };

    /// Builds the automaton of `text` (at most 2^31 code points).
    explicit suffix_automaton(std::span<const char32_t> text) {
        m_states.reserve(2 * text.size() + 1);
        m_edges.reserve(text.size() + text.size() / 2 + 1);
        grow_table(text.size() * 2 + 16);
        m_states.push_back({0, none, 0, none});
        std::uint32_t last = 0;
        for (std::size_t i = 0; i < text.size(); ++i) {
            const char32_t c = text[i];
            const auto cur = static_cast<std::uint32_t>(m_states.size());
            m_states.push_back({m_states[last].len + 1, none, static_cast<std::uint32_t>(i), none});
            std::uint32_t p = last;
            while (p != none && next(p, c) == none) {
                add_edge(p, c, cur);
                p = m_states[p].link;
            }
            if (p == none) {
                m_states[cur].link = 0;
            } else {
                const std::uint32_t q = next(p, c);
                if (m_states[p].len + 1 == m_states[q].len) {
                    m_states[cur].link = q;
                } else {
                    const auto clone = static_cast<std::uint32_t>(m_states.size());
                    m_states.push_back({m_states[p].len + 1, m_states[q].link, m_states[q].first_end, none});
                    for (std::uint32_t e = m_states[q].edges; e != none; e = m_edges[e].next) add_edge(clone, m_edges[e].c, m_edges[e].to);
                    while (p != none) {
                        const std::uint32_t slot = find_slot(p, c);
                        if (m_keys[slot] == empty_key || m_edges[m_slots[slot]].to != q) break;
                        m_edges[m_slots[slot]].to = clone;
                        p = m_states[p].link;
                    }
                    m_states[q].link = clone;
                    m_states[cur].link = clone;
                }
            }
            last = cur;
        }
    }

    /// Target of the transition of `s` on `c`, or `none`. O(1) expected.
    [[nodiscard]] std::uint32_t next(std::uint32_t s, char32_t c) const noexcept {
        const std::uint32_t slot = find_slot(s, c);
        return m_keys[slot] == empty_key ? none : m_edges[m_slots[slot]].to;
    }
    [[nodiscard]] const state& at(std::uint32_t s) const noexcept { return m_states[s]; }
    [[nodiscard]] std::size_t state_count() const noexcept { return m_states.size(); }
    [[nodiscard]] std::size_t edge_count() const noexcept { return m_edges.size(); }
    /// Bytes held by the automaton's arrays (capacity, not size).
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        return m_states.capacity() * sizeof(state) + m_edges.capacity() * sizeof(edge) +
               m_keys.capacity() * sizeof(std::uint64_t) + m_slots.capacity() * sizeof(std::uint32_t);
    }

private:
    struct edge {
        char32_t c;
        std::uint32_t to;
        std::uint32_t next;  // next edge of the same state
    };
    static constexpr std::uint64_t empty_key = ~std::uint64_t{0};

    [[nodiscard]] static std::uint64_t key(std::uint32_t s, char32_t c) noexcept {
        return (std::uint64_t{s} << 32) | std::uint64_t{c};
    }
    [[nodiscard]] std::uint32_t find_slot(std::uint32_t s, char32_t c) const noexcept {
        const std::uint64_t k = key(s, c);
        std::uint64_t h = k * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
        auto slot = static_cast<std::uint32_t>(h & m_mask);
        while (m_keys[slot] != empty_key && m_keys[slot] != k) slot = (slot + 1) & m_mask;
        return slot;
    }
    void add_edge(std::uint32_t s, char32_t c, std::uint32_t to) {
        if ((m_edges.size() + 1) * 2 > m_keys.size()) grow_table(m_keys.size() * 2);
        const auto e = static_cast<std::uint32_t>(m_edges.size());
        m_edges.push_back({c, to, m_states[s].edges});
        m_states[s].edges = e;
        const std::uint32_t slot = find_slot(s, c);
        m_keys[slot] = key(s, c);
        m_slots[slot] = e;
    }
    void grow_table(std::size_t at_least) {
        std::size_t cap = 16;
        while (cap < at_least) cap *= 2;
        m_keys.assign(cap, empty_key);
        m_slots.assign(cap, 0);
        m_mask = static_cast<std::uint32_t>(cap - 1);
        // Rehash every edge from the per-state chains.
        for (std::uint32_t s = 0; s < m_states.size(); ++s) {
            for (std::uint32_t e = m_states[s].edges; e != none; e = m_edges[e].next) {
                const std::uint32_t slot = find_slot(s, m_edges[e].c);
                m_keys[slot] = key(s, m_edges[e].c);
                m_slots[slot] = e;
            }
        }
    }

    std::vector<state> m_states;
    std::vector<edge> m_edges;
    std::vector<std::uint64_t> m_keys;
    std::vector<std::uint32_t> m_slots;
    std::uint32_t m_mask = 0;
};

}  // namespace detail
}  // namespace v0
}  // namespace semfp
