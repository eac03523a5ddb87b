#pragma once
/// \file
/// Internal: the code-point trie behind `semfp::Dictionary` (forward and reversed words).
///
/// Layout. Nodes are numbered in breadth-first order, so the children of a node occupy one
/// contiguous, label-sorted range `[first[n], first[n + 1])`; a node is 8 bytes (label with
/// flags, first child). The root's children with a BMP label are also reachable through a
/// direct 64 Ki table, so the first step of a walk is one load; the children of other nodes with
/// many children (the second character of a word, mostly) are also indexed in one hash table, so
/// that step is one probe instead of a binary search; small groups are scanned linearly. The
/// trie is built straight from the words in sorted order (already sorted input, such as the
/// embedded word list, is detected and costs no sorting).
///
/// Words added after building are linked through a small open-addressing overflow table keyed
/// by (parent, code point); a node that has overflow children carries a flag, so walks over the
/// static part never consult the table. The owner rebuilds (compacts) the trie when the overflow
/// part grows.

#include <semfp/error.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
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
        for (std::size_t i = 0; i < n; ++i) cps.push_back(word[i]);  // words are short
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

    /// An empty trie; allocates nothing. `child()` needs a non-empty layout (`has_nodes()`).
    seg_trie() noexcept = default;
    seg_trie(const seg_trie&) = default;
    seg_trie& operator=(const seg_trie&) = default;
    seg_trie(seg_trie&& other) noexcept { swap(other); }
    seg_trie& operator=(seg_trie&& other) noexcept {
        seg_trie tmp(std::move(other));
        swap(tmp);
        return *this;
    }
    ~seg_trie() = default;

    /// False for a default-constructed (or moved-from) trie, whose arrays are empty.
    [[nodiscard]] bool has_nodes() const noexcept { return !m_first.empty(); }

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
        m_wide.swap(other.m_wide);
        std::swap(m_over_count, other.m_over_count);
        std::swap(m_static_nodes, other.m_static_nodes);
        std::swap(m_words, other.m_words);
        std::swap(m_max_len, other.m_max_len);
    }

    /// The child of `node` labelled `c`, or 0 (the root is never a child).
    [[nodiscard]] std::uint32_t child(std::uint32_t node, char32_t c) const noexcept {
        if (node == 0 && c < m_root.size()) return m_root[c];
        const std::uint32_t* lab = m_label.data();
        std::uint32_t b = m_first[node];
        std::uint32_t e = m_first[node + 1];
        if (e - b <= 8) {
            for (; b < e; ++b)
                if ((lab[b] & cp_mask) == c) return b;
        } else if (!m_wide.empty()) {
            // Large sibling groups: one hash probe instead of a binary search over many lines.
            const std::uint64_t key = (static_cast<std::uint64_t>(node) << 21) | c;
            for (std::size_t slot = wide_slot(key);; slot = (slot + 1) & (m_wide.size() - 1)) {
                const std::uint64_t v = m_wide[slot];
                if ((v >> 22) == key) return static_cast<std::uint32_t>(v & wide_child_mask);
                if (v == empty_key) break;
            }
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
        if (!has_nodes()) return 0;
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

    /// Reserves memory so that inserting a word of `n` code points cannot throw.
    void reserve_insert(std::size_t n) {
        if (!has_nodes()) {
            std::vector<std::uint32_t> label(1, 0u), first{1u, 1u}, root(root_table_size, 0u);
            m_label.swap(label);
            m_first.swap(first);
            m_root.swap(root);
            m_static_nodes = 1;
        }
        if (m_label.size() + n >= std::numeric_limits<std::uint32_t>::max() / 2)
            throw_invalid_argument("semfp: dictionary too large");
        m_label.reserve(m_label.size() + n);
        m_first.reserve(m_first.size() + n);
        overflow_reserve(m_over_count + n);
    }

    /// Adds one word after building. Returns true when it was not present.
    /// Strong guarantee: all memory is reserved before anything changes.
    bool insert(const char32_t* word, std::size_t n) {
        if (n == 0) return false;
        if (!has_nodes()) reserve_insert(n);
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
        reserve_insert(n - i);
        // Nothing below allocates.
        for (; i < n; ++i) {
            const auto id = static_cast<std::uint32_t>(m_label.size());
            m_label.push_back(static_cast<std::uint32_t>(word[i]));
            m_first.push_back(m_static_nodes);
            if (node == 0 && word[i] < m_root.size()) {
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
    [[nodiscard]] std::size_t dynamic_nodes() const noexcept { return m_label.size() - (has_nodes() ? m_static_nodes : 0); }
    [[nodiscard]] std::size_t static_nodes() const noexcept { return m_static_nodes; }

    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        return m_label.capacity() * sizeof(std::uint32_t) + m_first.capacity() * sizeof(std::uint32_t) +
               m_root.capacity() * sizeof(std::uint32_t) + m_over.capacity() * sizeof(overflow_entry) +
               m_wide.capacity() * sizeof(std::uint64_t);
    }

    /// Calls `f(const char32_t* word, std::size_t n)` for every word, in code-point order for the
    /// static part (words added later come in an unspecified order).
    template <class F>
    void for_each_word(F&& f) const {
        if (!has_nodes()) return;
        // Overflow children, grouped by parent.
        std::vector<std::pair<std::uint64_t, std::uint32_t>> extra;  // (parent << 21 | cp, child)
        for (const auto& e : m_over)
            if (e.key != empty_key) extra.emplace_back(e.key, e.child);
        // Root children added later sit in the root table: visit the added nodes rather than
        // the whole 64 Ki table (a node is the root's child labelled c iff the table says so).
        for (std::uint32_t id = m_static_nodes; id < m_label.size(); ++id) {
            const std::uint32_t c = m_label[id] & cp_mask;
            if (c < m_root.size() && m_root[c] == id) extra.emplace_back(static_cast<std::uint64_t>(c), id);
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

    /// Calls `f(const char32_t* reversed_word, std::size_t n)` for every word, spelled
    /// backwards, in an unspecified order. Cheaper than `for_each_word` (no depth-first walk:
    /// each word is read from its last node up to the root).
    template <class F>
    void for_each_reversed_word(F&& f) const {
        if (!has_nodes()) return;
        const std::size_t nodes = m_label.size();
        std::vector<std::uint32_t> parent(nodes, 0u);
        for (std::uint32_t n = 0; n < m_static_nodes; ++n)
            for (std::uint32_t c = m_first[n]; c < m_first[n + 1]; ++c) parent[c] = n;
        for (const auto& e : m_over)
            if (e.key != empty_key) parent[e.child] = static_cast<std::uint32_t>(e.key >> 21);
        std::vector<char32_t> word;
        for (std::size_t n = 1; n < nodes; ++n) {
            if ((m_label[n] & terminal_bit) == 0) continue;
            word.clear();
            for (std::size_t m = n; m != 0; m = parent[m]) word.push_back(static_cast<char32_t>(m_label[m] & cp_mask));
            f(static_cast<const char32_t*>(word.data()), word.size());
        }
    }

private:
    struct overflow_entry {
        std::uint64_t key;
        std::uint32_t child;
    };
    static constexpr std::uint64_t empty_key = ~std::uint64_t{0};

    static constexpr std::uint64_t wide_child_mask = (std::uint64_t{1} << 22) - 1;
    static constexpr std::size_t wide_min_children = 9;

    [[nodiscard]] std::size_t wide_slot(std::uint64_t key) const noexcept {
        return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 40) & (m_wide.size() - 1);
    }

    // Indexes the children of every node with many children in m_wide (the root's too, for
    // labels outside the BMP table): entries are
    // (parent << 21 | code point) << 22 | child. Skipped for tries of 2^21 nodes or more.
    void build_wide() {
        const std::uint32_t nodes = m_static_nodes;
        std::vector<std::uint64_t> wide;
        if (nodes < (1u << 21)) {
            std::size_t count = 0;
            for (std::uint32_t n = 0; n < nodes; ++n)
                if (m_first[n + 1] - m_first[n] >= wide_min_children) count += m_first[n + 1] - m_first[n];
            if (count != 0) {
                std::size_t cap = 1024;
                while (cap < count * 2) cap *= 2;
                wide.assign(cap, empty_key);
                m_wide.swap(wide);
                for (std::uint32_t n = 0; n < nodes; ++n) {
                    if (m_first[n + 1] - m_first[n] < wide_min_children) continue;
                    for (std::uint32_t id = m_first[n]; id < m_first[n + 1]; ++id) {
                        const std::uint64_t key = (static_cast<std::uint64_t>(n) << 21) | (m_label[id] & cp_mask);
                        std::size_t slot = wide_slot(key);
                        while (m_wide[slot] != empty_key) slot = (slot + 1) & (m_wide.size() - 1);
                        m_wide[slot] = (key << 22) | id;
                    }
                }
                return;
            }
        }
        m_wide.swap(wide);
    }

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

    // Lexicographic comparison of words a and b from code point `from` on.
    [[nodiscard]] static bool word_less(const seg_word_list& words, std::uint32_t a, std::uint32_t b,
                                        std::uint32_t from) noexcept {
        const char32_t* pa = words.cps.data() + words.offsets[a];
        const char32_t* pb = words.cps.data() + words.offsets[b];
        const std::uint32_t na = words.offsets[a + 1] - words.offsets[a];
        const std::uint32_t nb = words.offsets[b + 1] - words.offsets[b];
        for (std::uint32_t i = from; i < na && i < nb; ++i)
            if (pa[i] != pb[i]) return pa[i] < pb[i];
        return na < nb;
    }

    // Below this many words, sorted_order uses a plain comparison sort.
    static constexpr std::size_t small_sort_limit = 2048;

    // The non-empty words sorted by code points: an LSD radix sort on the first three code
    // points, then a comparison sort of the (rare) ties (a comparison sort for short lists).
    [[nodiscard]] static std::vector<std::uint32_t> sorted_order(const seg_word_list& words) {
        const std::size_t n = words.size();
        struct item {
            std::uint64_t key;
            std::uint32_t word;
        };
        std::vector<item> a;
        a.reserve(n);
        for (std::size_t w = 0; w < n; ++w) {
            const char32_t* p = words.cps.data() + words.offsets[w];
            const std::uint32_t len = words.offsets[w + 1] - words.offsets[w];
            if (len == 0) continue;
            std::uint64_t key = 0;
            for (std::uint32_t k = 0; k < 3; ++k)
                key = (key << 21) | (k < len ? static_cast<std::uint64_t>(p[k] & cp_mask) : 0u);
            a.push_back({key, static_cast<std::uint32_t>(w)});
        }
        const std::size_t m = a.size();
        std::vector<std::uint32_t> order(m);
        if (m <= small_sort_limit) {
            // Few words: a comparison sort costs less than four passes over a 64 Ki count table.
            for (std::size_t i = 0; i < m; ++i) order[i] = a[i].word;
            std::sort(order.begin(), order.end(),
                      [&](std::uint32_t x, std::uint32_t y) { return word_less(words, x, y, 0); });
            return order;
        }
        std::vector<item> tmp(m);
        // 63-bit keys, four passes of 16 bits.
        std::vector<std::uint32_t> count(65537);
        for (unsigned shift = 0; shift < 64; shift += 16) {
            std::fill(count.begin(), count.end(), 0u);
            for (const item& x : a) ++count[((x.key >> shift) & 0xFFFF) + 1];
            for (std::size_t i = 1; i < count.size(); ++i) count[i] += count[i - 1];
            for (const item& x : a) tmp[count[(x.key >> shift) & 0xFFFF]++] = x;
            a.swap(tmp);
        }
        for (std::size_t i = 0; i < m; ++i) order[i] = a[i].word;
        // Ties on the first three code points: order by the rest.
        for (std::size_t g = 0; g < m;) {
            std::size_t h = g + 1;
            while (h < m && a[h].key == a[g].key) ++h;
            if (h - g > 1)
                std::sort(order.begin() + static_cast<std::ptrdiff_t>(g), order.begin() + static_cast<std::ptrdiff_t>(h),
                          [&](std::uint32_t x, std::uint32_t y) { return word_less(words, x, y, 3); });
            g = h;
        }
        return order;
    }

    // Common prefix of each non-empty word with the previous non-empty one (0 for the first);
    // returns false (and stops) as soon as two words are out of order.
    [[nodiscard]] static bool prefix_lengths(const seg_word_list& words, std::vector<std::uint32_t>& lcp) {
        const std::size_t n = words.size();
        lcp.assign(n, 0u);
        const char32_t* prev = nullptr;
        std::uint32_t prev_len = 0;
        for (std::size_t w = 0; w < n; ++w) {
            const char32_t* p = words.cps.data() + words.offsets[w];
            const std::uint32_t len = words.offsets[w + 1] - words.offsets[w];
            if (len == 0) continue;
            if (prev != nullptr) {
                const std::uint32_t m = len < prev_len ? len : prev_len;
                std::uint32_t l = 0;
                while (l < m && p[l] == prev[l]) ++l;
                if (l < prev_len && (l == len || p[l] < prev[l])) return false;
                lcp[w] = l;
            }
            prev = p;
            prev_len = len;
        }
        return true;
    }

    // Breadth-first layout straight from the sorted words: the nodes of depth d are the distinct
    // prefixes of length d + 1, numbered in sorted order after all shallower nodes, so each
    // sibling group is contiguous and sorted. Two linear passes, no sorting.
    void build_static(const seg_word_list& input) {
        std::vector<std::uint32_t> lcp;
        // Unsorted input: lay the words out in sorted order first, so the passes below read
        // memory sequentially.
        seg_word_list permuted;
        const bool sorted = prefix_lengths(input, lcp);
        if (!sorted) {
            const std::vector<std::uint32_t> order = sorted_order(input);
            permuted.cps.resize(input.cps.size());
            permuted.offsets.reserve(order.size() + 1);
            std::size_t at = 0;
            for (const std::uint32_t w : order) {
                for (std::uint32_t k = input.offsets[w]; k < input.offsets[w + 1]; ++k) permuted.cps[at++] = input.cps[k];
                permuted.offsets.push_back(static_cast<std::uint32_t>(at));
            }
            permuted.cps.resize(at);
            const bool ok = prefix_lengths(permuted, lcp);
            (void)ok;
        }
        const seg_word_list& words = sorted ? input : permuted;
        const std::size_t n = words.size();
        constexpr std::uint32_t unset = std::numeric_limits<std::uint32_t>::max();
        std::vector<std::uint32_t> per_depth;
        for (std::size_t w = 0; w < n; ++w) {
            const std::uint32_t len = words.offsets[w + 1] - words.offsets[w];
            if (len > per_depth.size()) per_depth.resize(len, 0u);
            for (std::uint32_t d = lcp[w]; d < len; ++d) ++per_depth[d];
        }
        std::vector<std::uint32_t> next(per_depth.size());
        std::uint64_t total = 1;
        for (std::size_t d = 0; d < per_depth.size(); ++d) {
            next[d] = static_cast<std::uint32_t>(total);
            total += per_depth[d];
        }
        if (total >= unset / 2) throw_invalid_argument("semfp: dictionary too large");
        const auto nodes = static_cast<std::uint32_t>(total);
        std::vector<std::uint32_t> label(nodes, 0u);
        std::vector<std::uint32_t> first(static_cast<std::size_t>(nodes) + 1, unset);
        std::vector<std::uint32_t> path(per_depth.size(), 0u);
        std::size_t word_count = 0;
        for (std::size_t w = 0; w < n; ++w) {
            const char32_t* p = words.cps.data() + words.offsets[w];
            const std::uint32_t len = words.offsets[w + 1] - words.offsets[w];
            if (len == 0) continue;
            for (std::uint32_t d = lcp[w]; d < len; ++d) {
                const std::uint32_t id = next[d]++;
                label[id] = static_cast<std::uint32_t>(p[d]) & cp_mask;
                const std::uint32_t parent = d == 0 ? 0u : path[d - 1];
                if (first[parent] == unset) first[parent] = id;
                path[d] = id;
            }
            std::uint32_t& last = label[path[len - 1]];
            if ((last & terminal_bit) == 0) ++word_count;
            last |= terminal_bit;
        }
        first[nodes] = nodes;
        for (std::size_t i = nodes; i-- > 0;)
            if (first[i] == unset) first[i] = first[i + 1];
        std::vector<std::uint32_t> root(root_table_size, 0u);
        m_label.swap(label);
        m_first.swap(first);
        m_root.swap(root);
        m_static_nodes = nodes;
        m_words = word_count;
        m_max_len = per_depth.size();
        for (std::uint32_t id = m_first[0]; id < m_first[1]; ++id) {
            const std::uint32_t c = m_label[id] & cp_mask;
            if (c < root_table_size) m_root[c] = id;
        }
        build_wide();
    }

    std::vector<std::uint32_t> m_label;  // per node: code point | terminal_bit | overflow_bit
    std::vector<std::uint32_t> m_first;  // per node + 1: first child (static part)
    std::vector<std::uint32_t> m_root;   // BMP code point -> child of the root, 0 if none
    std::vector<overflow_entry> m_over;  // (parent, code point) -> child, for words added later
    std::vector<std::uint64_t> m_wide;   // children of large static sibling groups, hashed
    std::size_t m_over_count = 0;
    std::uint32_t m_static_nodes = 0;
    std::size_t m_words = 0;
    std::size_t m_max_len = 0;
};

}  // namespace detail
}  // namespace v0
}  // namespace semfp
