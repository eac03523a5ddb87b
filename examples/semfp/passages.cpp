#include "passages.hpp"

#include <semfp/text/utf8.hpp>

#include <algorithm>
#include <cstdint>
#include <utility>

namespace semfp::cli {

namespace {

struct code_points {
    std::vector<char32_t> cps;
    std::vector<std::size_t> offsets;  // byte offset of each code point, plus the end
};

code_points decode_all(std::string_view s) {
    code_points r;
    std::size_t i = 0;
    while (i < s.size()) {
        const utf8::decoded d = utf8::decode(s, i);
        r.cps.push_back(d.code_point);
        r.offsets.push_back(i);
        i += d.length;
    }
    r.offsets.push_back(s.size());
    return r;
}

// Suffix automaton of a code-point sequence. Transitions of a state live in a small vector
// sorted by code point (most states have very few).
class SuffixAutomaton {
public:
    struct node {
        std::size_t len;
        int link;
        std::size_t first_end;  // end (inclusive) of the first occurrence
        std::vector<std::pair<char32_t, int>> next;
    };

    explicit SuffixAutomaton(const std::vector<char32_t>& text) {
        m_states.reserve(2 * text.size() + 1);
        m_states.push_back({0, -1, 0, {}});
        int last = 0;
        for (std::size_t i = 0; i < text.size(); ++i) {
            const char32_t c = text[i];
            const int cur = static_cast<int>(m_states.size());
            m_states.push_back({state(last).len + 1, -1, i, {}});
            int p = last;
            while (p != -1 && next(p, c) < 0) {
                set_next(p, c, cur);
                p = state(p).link;
            }
            if (p == -1) {
                state(cur).link = 0;
            } else {
                const int q = next(p, c);
                if (state(p).len + 1 == state(q).len) {
                    state(cur).link = q;
                } else {
                    const int clone = static_cast<int>(m_states.size());
                    node copy = state(q);
                    copy.len = state(p).len + 1;
                    m_states.push_back(std::move(copy));
                    while (p != -1 && next(p, c) == q) {
                        set_next(p, c, clone);
                        p = state(p).link;
                    }
                    state(q).link = clone;
                    state(cur).link = clone;
                }
            }
            last = cur;
        }
    }

    [[nodiscard]] int next(int s, char32_t c) const {
        const auto& t = state(s).next;
        const auto it = std::lower_bound(t.begin(), t.end(), c, [](const auto& e, char32_t x) { return e.first < x; });
        return it != t.end() && it->first == c ? it->second : -1;
    }
    [[nodiscard]] node& state(int s) { return m_states[static_cast<std::size_t>(s)]; }
    [[nodiscard]] const node& state(int s) const { return m_states[static_cast<std::size_t>(s)]; }

private:
    void set_next(int s, char32_t c, int to) {
        auto& t = state(s).next;
        const auto it = std::lower_bound(t.begin(), t.end(), c, [](const auto& e, char32_t x) { return e.first < x; });
        if (it != t.end() && it->first == c) {
            it->second = to;
        } else {
            t.insert(it, {c, to});
        }
    }

    std::vector<node> m_states;
};

}  // namespace

std::vector<passage> shared_passages(std::string_view a, std::string_view b, std::size_t count,
                                     std::size_t min_length) {
    std::vector<passage> out;
    if (count == 0 || a.empty() || b.empty()) return out;
    const code_points ca = decode_all(a);
    const code_points cb = decode_all(b);
    const SuffixAutomaton sam(ca.cps);

    // Longest match of a suffix of b[0..j] in a, for every j.
    struct match {
        std::size_t len;
        std::size_t a_end;
    };
    std::vector<match> m(cb.cps.size());
    int v = 0;
    std::size_t l = 0;
    for (std::size_t j = 0; j < cb.cps.size(); ++j) {
        const char32_t c = cb.cps[j];
        while (v != 0 && sam.next(v, c) < 0) {
            v = sam.state(v).link;
            l = sam.state(v).len;
        }
        const int t = sam.next(v, c);
        if (t >= 0) {
            v = t;
            ++l;
        } else {
            v = 0;
            l = 0;
        }
        m[j] = {l, l != 0 ? sam.state(v).first_end : 0};
    }

    // Right-maximal matches (the next position does not extend them), longest first.
    struct candidate {
        std::size_t len, a, b;
    };
    std::vector<candidate> cands;
    for (std::size_t j = 0; j < m.size(); ++j) {
        if (m[j].len < min_length) continue;
        if (j + 1 < m.size() && m[j + 1].len == m[j].len + 1) continue;
        cands.push_back({m[j].len, m[j].a_end + 1 - m[j].len, j + 1 - m[j].len});
    }
    std::stable_sort(cands.begin(), cands.end(), [](const candidate& x, const candidate& y) { return x.len > y.len; });

    // Cuts `c` (aligned ranges of a and b) so that it overlaps no chosen passage in either text,
    // keeping its longer side each time; passages chosen earlier are longer.
    auto cut = [&](candidate c) {
        for (bool changed = true; changed && c.len != 0;) {
            changed = false;
            for (const passage& p : out) {
                for (const bool in_a : {false, true}) {
                    const std::size_t cs = in_a ? c.a : c.b;
                    const std::size_t ps = in_a ? p.a : p.b;
                    if (!(cs < ps + p.length && ps < cs + c.len)) continue;
                    const std::size_t left = ps > cs ? ps - cs : 0;
                    const std::size_t right_start = ps + p.length;
                    const std::size_t right = right_start < cs + c.len ? cs + c.len - right_start : 0;
                    if (left >= right) {
                        c.len = left;
                    } else {
                        const std::size_t skip = c.len - right;
                        c.a += skip;
                        c.b += skip;
                        c.len = right;
                    }
                    changed = true;
                }
            }
        }
        // No white space at either end.
        while (c.len != 0 && cb.cps[c.b] == U' ') {
            ++c.a;
            ++c.b;
            --c.len;
        }
        while (c.len != 0 && cb.cps[c.b + c.len - 1] == U' ') --c.len;
        return c;
    };
    for (const candidate& whole : cands) {
        if (out.size() >= count) break;
        if (whole.len < min_length) break;
        const candidate c = cut(whole);
        if (c.len < min_length) continue;
        passage p;
        p.a = c.a;
        p.b = c.b;
        p.length = c.len;
        p.text.assign(b.substr(cb.offsets[c.b], cb.offsets[c.b + c.len] - cb.offsets[c.b]));
        out.push_back(std::move(p));
    }
    std::stable_sort(out.begin(), out.end(), [](const passage& x, const passage& y) { return x.length > y.length; });
    return out;
}

}  // namespace semfp::cli
