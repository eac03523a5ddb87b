#pragma once
/// \file
/// Internal: the code-point trie behind `semfp::Dictionary` (forward and reversed words).
///
/// Layout. Nodes are numbered in breadth-first order, so the children of a node occupy one
/// contiguous, label-sorted range `[first[n], first[n + 1])`; a node is 8 bytes (label with
/// flags, first child). The root's children with a BMP label are also reachable through a
/// direct 64 Ki table, so the first step of a walk is one load. Building is one pass per depth
/// over the words, sorting each sibling group by its next code point (already sorted input,
/// such as the embedded word list, costs no sorting).
///
/// Words added after building are linked through a small open-addressing overflow table keyed
/// by (parent, code point); a node that has overflow children carries a flag, so walks over the
/// static part never consult the table. The owner rebuilds (compacts) the trie when the overflow
/// part grows.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

namespace semfp {
inline namespace v0 {
namespace detail {

/// Words as code-point sequences: word `i` is `cps[offsets[i] .. offsets[i + 1])`.
struct seg_word_list {
    std::vector<char32_t> cps;
    std::vector<std::uint32_t> offsets{0};

    [[nodiscard]] std::size_t size() const noexcept { return offsets.size() - 1; }
    void push(const char32_t* word, std::size_t n) {
        cps.insert(cps.end(), word, word + n);
        offsets.push_back(static_cast<std::uint32_t>(cps.size()));
    }
    void clear() noexcept {
        cps.clear();
        offsets.assign(1, 0);
    }
};

class seg_trie {
public:
    static constexpr std::uint32_t cp_mask = 0x1FFFFFu;
    static constexpr std::uint32_t terminal_bit = 1u << 31;
    static constexpr std::uint32_t overflow_bit = 1u << 30;
    static constexpr std::uint32_t root_table_size = 0x10000u;

    seg_trie() : m_label(1, 0u), m_first{1u, 1u}, m_root(root_table_size, 0u) {}

    /// Replaces the content with `words` (any order, duplicates allowed, empty words ignored).
    /// Strong guarantee: builds into temporaries, then swaps.
    void build(const seg_word_list& words) {
        seg_trie fresh;
        fresh.build_static(words);
        swap(fresh);
    }

    void swap(seg_trie& other) noexcept {
        m_label.swap(other.m_label);
        m_first.swap(other.m_first);
        m_root.swap(other.m_root);
        m_over.swap(other.m_over);
        std::swap(m_over_count, other.m_over_count);
        std::swap(m_static_nodes, other.m_static_nodes);
        std::swap(m_words, other.m_words);
        std::swap(m_max_len, other.m_max_len);
    }

    /// The child of `node` labelled `c`, or 0 (the root is never a child).
    [[nodiscard]] std::uint32_t child(std::uint32_t node, char32_t c) const noexcept {
        if (node == 0 && c < root_table_size) return m_root[c];
        const std::uint32_t* lab = m_label.data();
        std::uint32_t b = m_first[node];
        std::uint32_t e = m_first[node + 1];
        if (e - b <= 8) {
            for (; b < e; ++b)
                if ((lab[b] & cp_mask) == c) return b;
        } else {
            while (b < e) {
                const std::uint32_t mid = b + (e - b) / 2;
                const std::uint32_t v = lab[mid] & cp_mask;
                if (v == c) return mid;
                if (v < c)
                    b = mid + 1;
                else
                    e = mid;
            }
        }
        if (lab[node] & overflow_bit) return overflow_find(node, c);
        return 0;
    }

    [[nodiscard]] bool terminal(std::uint32_t node) const noexcept { return (m_label[node] & terminal_bit) != 0; }

    /// Walks `word` from the root; returns the node reached or 0.
    [[nodiscard]] std::uint32_t find(const char32_t* word, std::size_t n) const noexcept {
        std::uint32_t node = 0;
        for (std::size_t i = 0; i < n; ++i) {
            node = child(node, word[i]);
            if (node == 0) return 0;
        }
        return node;
    }

    [[nodiscard]] bool contains(const char32_t* word, std::size_t n) const noexcept {
        if (n == 0) return false;
        const std::uint32_t node = find(word, n);
        return node != 0 && terminal(node);
    }

    /// Adds one word after building. Returns true when it was not present.
    /// Strong guarantee: all memory is reserved before anything changes.
    bool insert(const char32_t* word, std::size_t n) {
        if (n == 0) return false;
        std::uint32_t node = 0;
        std::size_t i = 0;
        for (; i < n; ++i) {
            const std::uint32_t next = child(node, word[i]);
            if (next == 0) break;
            node = next;
        }
        if (i == n) {
            if (terminal(node)) return false;
            m_label[node] |= terminal_bit;
            ++m_words;
            if (n > m_max_len) m_max_len = n;
            return true;
        }
        const std::size_t fresh = n - i;
        if (m_label.size() + fresh >= std::numeric_limits<std::uint32_t>::max() / 2) throw std::length_error("semfp: dictionary too large");
        m_label.reserve(m_label.size() + fresh);
        m_first.reserve(m_first.size() + fresh);
        overflow_reserve(m_over_count + fresh);
        // Nothing below allocates.
        for (; i < n; ++i) {
            const auto id = static_cast<std::uint32_t>(m_label.size());
            m_label.push_back(static_cast<std::uint32_t>(word[i]));
            m_first.push_back(m_static_nodes);
            if (node == 0 && word[i] < root_table_size) {
                m_root[word[i]] = id;
            } else {
                overflow_put(node, word[i], id);
                m_label[node] |= overflow_bit;
            }
            node = id;
        }
        m_label[node] |= terminal_bit;
        ++m_words;
        if (n > m_max_len) m_max_len = n;
        return true;
    }

    /// Number of words.
    [[nodiscard]] std::size_t size() const noexcept { return m_words; }
    /// Longest word, in code points.
    [[nodiscard]] std::size_t max_length() const noexcept { return m_max_len; }
    /// Nodes added after the last build.
    [[nodiscard]] std::size_t dynamic_nodes() const noexcept { return m_label.size() - m_static_nodes; }
    [[nodiscard]] std::size_t static_nodes() const noexcept { return m_static_nodes; }

    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        return m_label.capacity() * sizeof(std::uint32_t) + m_first.capacity() * sizeof(std::uint32_t) +
               m_root.capacity() * sizeof(std::uint32_t) + m_over.capacity() * sizeof(overflow_entry);
    }

    /// Calls `f(const char32_t* word, std::size_t n)` for every word, in code-point order for the
    /// static part (words added later come in an unspecified order).
    template <class F>
    void for_each_word(F&& f) const {
        // Overflow children, grouped by parent.
        std::vector<std::pair<std::uint64_t, std::uint32_t>> extra;  // (parent << 21 | cp, child)
        for (const auto& e : m_over)
            if (e.key != empty_key) extra.emplace_back(e.key, e.child);
        for (std::uint32_t c = 0; c < root_table_size; ++c) {
            const std::uint32_t id = m_root[c];
            if (id >= m_static_nodes) extra.emplace_back(static_cast<std::uint64_t>(c), id);
        }
        std::sort(extra.begin(), extra.end());
        std::vector<char32_t> word;
        struct frame {
            std::uint32_t node;
            std::uint32_t next_static;
            std::size_t next_extra;
        };
        std::vector<frame> stack;
        auto push = [&](std::uint32_t node) {
            const std::uint64_t lo = static_cast<std::uint64_t>(node) << 21;
            const auto it = std::lower_bound(extra.begin(), extra.end(), std::make_pair(lo, std::uint32_t{0}));
            stack.push_back({node, m_first[node], static_cast<std::size_t>(it - extra.begin())});
        };
        push(0);
        while (!stack.empty()) {
            frame& fr = stack.back();
            std::uint32_t next = 0;
            if (fr.next_static < m_first[fr.node + 1]) {
                next = fr.next_static++;
            } else if (fr.next_extra < extra.size() && (extra[fr.next_extra].first >> 21) == fr.node) {
                next = extra[fr.next_extra++].second;
            } else {
                stack.pop_back();
                if (!word.empty()) word.pop_back();
                continue;
            }
            word.push_back(static_cast<char32_t>(m_label[next] & cp_mask));
            if (terminal(next)) f(static_cast<const char32_t*>(word.data()), word.size());
            push(next);
        }
    }

private:
    struct overflow_entry {
        std::uint64_t key;
        std::uint32_t child;
    };
    static constexpr std::uint64_t empty_key = ~std::uint64_t{0};

    [[nodiscard]] static std::uint64_t over_key(std::uint32_t node, char32_t c) noexcept {
        return (static_cast<std::uint64_t>(node) << 21) | static_cast<std::uint64_t>(c);
    }
    [[nodiscard]] std::size_t over_slot(std::uint64_t key) const noexcept {
        return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 32) & (m_over.size() - 1);
    }

    [[nodiscard]] std::uint32_t overflow_find(std::uint32_t node, char32_t c) const noexcept {
        if (m_over.empty()) return 0;
        const std::uint64_t key = over_key(node, c);
        for (std::size_t s = over_slot(key);; s = (s + 1) & (m_over.size() - 1)) {
            if (m_over[s].key == key) return m_over[s].child;
            if (m_over[s].key == empty_key) return 0;
        }
    }

    void overflow_put(std::uint32_t node, char32_t c, std::uint32_t child_id) noexcept {
        const std::uint64_t key = over_key(node, c);
        std::size_t s = over_slot(key);
        while (m_over[s].key != empty_key) s = (s + 1) & (m_over.size() - 1);
        m_over[s] = {key, child_id};
        ++m_over_count;
    }

    // Ensures room for `count` entries at a load factor of at most 1/2.
    void overflow_reserve(std::size_t count) {
        if (count * 2 <= m_over.size()) return;
        std::size_t cap = 16;
        while (cap < count * 2) cap *= 2;
        std::vector<overflow_entry> fresh(cap, overflow_entry{empty_key, 0});
        fresh.swap(m_over);
        m_over_count = 0;
        for (const auto& e : fresh) {
            if (e.key == empty_key) continue;
            std::size_t s = over_slot(e.key);
            while (m_over[s].key != empty_key) s = (s + 1) & (m_over.size() - 1);
            m_over[s] = e;
            ++m_over_count;
        }
    }

    void build_static(const seg_word_list& words) {
        const std::size_t n = words.size();
        const char32_t* cps = words.cps.data();
        const std::uint32_t* off = words.offsets.data();
        constexpr std::uint32_t unset = std::numeric_limits<std::uint32_t>::max();
        m_label.assign(1, 0u);
        m_first.clear();
        std::vector<std::uint32_t> first(1, unset);
        std::vector<std::uint32_t> active;
        active.reserve(n);
        for (std::size_t w = 0; w < n; ++w)
            if (off[w + 1] > off[w]) active.push_back(static_cast<std::uint32_t>(w));
        std::vector<std::uint32_t> node_of(n, 0u);
        std::vector<std::uint32_t> next_active;
        next_active.reserve(active.size());
        std::vector<std::uint64_t> keyed;
        m_words = 0;
        m_max_len = 0;
        for (std::uint32_t depth = 0; !active.empty(); ++depth) {
            next_active.clear();
            std::size_t g = 0;
            while (g < active.size()) {
                const std::uint32_t parent = node_of[active[g]];
                std::size_t h = g + 1;
                while (h < active.size() && node_of[active[h]] == parent) ++h;
                sort_group(active.data() + g, h - g, depth, cps, off, keyed);
                char32_t last = 0;
                std::uint32_t current = 0;
                for (std::size_t i = g; i < h; ++i) {
                    const std::uint32_t w = active[i];
                    const char32_t c = cps[off[w] + depth];
                    if (current == 0 || c != last) {
                        current = static_cast<std::uint32_t>(m_label.size());
                        if (current >= unset / 2) throw std::length_error("semfp: dictionary too large");
                        m_label.push_back(static_cast<std::uint32_t>(c));
                        first.push_back(unset);
                        if (first[parent] == unset) first[parent] = current;
                        last = c;
                    }
                    node_of[w] = current;
                    if (off[w + 1] - off[w] == depth + 1) {
                        if ((m_label[current] & terminal_bit) == 0) ++m_words;
                        m_label[current] |= terminal_bit;
                        if (depth + 1 > m_max_len) m_max_len = depth + 1;
                    } else {
                        next_active.push_back(w);
                    }
                }
                g = h;
            }
            active.swap(next_active);
        }
        const auto nodes = static_cast<std::uint32_t>(m_label.size());
        first.push_back(nodes);
        for (std::size_t i = nodes; i-- > 0;)
            if (first[i] == unset) first[i] = first[i + 1];
        m_first.swap(first);
        m_static_nodes = nodes;
        for (std::uint32_t id = m_first[0]; id < m_first[1]; ++id) {
            const std::uint32_t c = m_label[id] & cp_mask;
            if (c < root_table_size) m_root[c] = id;
        }
    }

    // Sorts the words of one sibling group by their code point at `depth`.
    static void sort_group(std::uint32_t* w, std::size_t n, std::uint32_t depth, const char32_t* cps,
                           const std::uint32_t* off, std::vector<std::uint64_t>& keyed) {
        auto key = [&](std::uint32_t word) noexcept { return cps[off[word] + depth]; };
        if (n < 2) return;
        bool sorted = true;
        for (std::size_t i = 1; i < n; ++i) {
            if (key(w[i]) < key(w[i - 1])) {
                sorted = false;
                break;
            }
        }
        if (sorted) return;
        if (n <= 24) {
            for (std::size_t i = 1; i < n; ++i) {
                const std::uint32_t v = w[i];
                const char32_t k = key(v);
                std::size_t j = i;
                for (; j > 0 && key(w[j - 1]) > k; --j) w[j] = w[j - 1];
                w[j] = v;
            }
            return;
        }
        keyed.resize(n);
        for (std::size_t i = 0; i < n; ++i) keyed[i] = (static_cast<std::uint64_t>(key(w[i])) << 32) | w[i];
        if (n >= 4096) {
            radix_sort_21(keyed);
        } else {
            std::sort(keyed.begin(), keyed.end());
        }
        for (std::size_t i = 0; i < n; ++i) w[i] = static_cast<std::uint32_t>(keyed[i]);
    }

    // Stable LSD radix sort on bits 32..52 (the code point), two passes of 11 bits.
    static void radix_sort_21(std::vector<std::uint64_t>& v) {
        std::vector<std::uint64_t> tmp(v.size());
        for (unsigned shift = 32; shift < 54; shift += 11) {
            std::size_t count[2049] = {};
            for (const std::uint64_t x : v) ++count[((x >> shift) & 0x7FF) + 1];
            for (std::size_t i = 1; i < 2049; ++i) count[i] += count[i - 1];
            for (const std::uint64_t x : v) tmp[count[(x >> shift) & 0x7FF]++] = x;
            v.swap(tmp);
        }
    }

    std::vector<std::uint32_t> m_label;  // per node: code point | terminal_bit | overflow_bit
    std::vector<std::uint32_t> m_first;  // per node + 1: first child (static part)
    std::vector<std::uint32_t> m_root;   // BMP code point -> child of the root, 0 if none
    std::vector<overflow_entry> m_over;  // (parent, code point) -> child, for words added later
    std::size_t m_over_count = 0;
    std::uint32_t m_static_nodes = 1;
    std::size_t m_words = 0;
    std::size_t m_max_len = 0;
};

}  // namespace detail
}  // namespace v0
}  // namespace semfp
