#pragma once
/// \file
/// `PosTable`: part-of-speech tags by term, for the opt-in part-of-speech weight boost of
/// `KeywordFingerprinter` (keyword.hpp), and `pos_boost`, the factors by tag class.
///
/// Tags are short names (jieba's: n, nr, ns, nt, nz, v, vn, a, ...) numbered 1, 2, ... in the
/// order they are first added; 0 means "no tag". Terms are matched exactly as the tokenizer emits
/// them after normalization (store normalized, segmented words), through a 64-bit hash of their
/// bytes in a flat open-addressing table: lookups are `noexcept`, allocation-free and touch one
/// or two cache lines. The bundled table of jieba's tags is <semfp/dict/embedded_pos.hpp>.

#include <semfp/core/hash.hpp>
#include <semfp/detail/list_lines.hpp>
#include <semfp/error.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace semfp {
inline namespace v0 {

/// Part-of-speech tags by term (at most 255 distinct tag names).
class PosTable {
public:
    /// An empty table.
    PosTable() = default;

    /// The id of tag `name` (1..255), added if new.
    /// \throws invalid_argument_error if `name` is empty, longer than 15 bytes, or a 256th tag.
    std::uint8_t add_tag(std::string_view name) {
        if (name.empty() || name.size() > 15) detail::throw_invalid_argument("PosTable: a tag name has 1..15 bytes");
        for (std::size_t i = 1; i < m_names.size(); ++i)
            if (m_names[i] == name) return static_cast<std::uint8_t>(i);
        if (m_names.size() > 255) detail::throw_invalid_argument("PosTable: more than 255 distinct tags");
        m_names.emplace_back(name);
        return static_cast<std::uint8_t>(m_names.size() - 1);
    }

    /// Tags `term` with tag id `id` (from `add_tag`); a later call for the same term wins.
    /// \throws invalid_argument_error if `id` is 0 or not a known tag id.
    void set(std::string_view term, std::uint8_t id) {
        if (id == 0 || id >= m_names.size()) detail::throw_invalid_argument("PosTable: unknown tag id");
        if ((m_used + 1) * 4 > m_keys.size() * 3) grow(m_keys.empty() ? 1024 : m_keys.size() * 2);
        const std::uint64_t h = key(term);
        std::size_t i = h & (m_keys.size() - 1);
        while (m_keys[i] != 0 && m_keys[i] != h) i = (i + 1) & (m_keys.size() - 1);
        if (m_keys[i] == 0) ++m_used;
        m_keys[i] = h;
        m_tags[i] = id;
    }

    /// Tags `term` with tag `name` (added if new).
    void set(std::string_view term, std::string_view name) { set(term, add_tag(name)); }

    /// Prepares room for `n` terms without rehashing.
    void reserve(std::size_t n) {
        std::size_t cap = 1024;
        while (cap * 3 < n * 4 + 4) cap *= 2;
        if (cap > m_keys.size()) grow(cap);
    }

    /// Reads `word [freq] tag` lines (jieba's dict.txt: the last whitespace-separated field is
    /// the tag; lines with one field are skipped). A UTF-8 BOM, CRLF, blank and `#` lines are
    /// accepted. All or nothing: on a malformed line (a tag longer than 15 bytes, a 256th tag)
    /// throws `semfp::parse_error` naming the line and leaves the table unchanged.
    void load(std::istream& in) {
        PosTable next = *this;
        detail::for_each_list_line(in, "pos table", [&](std::string_view v, std::size_t line_no) {
            const std::size_t cut = v.find_first_of(" \t");
            if (cut == std::string_view::npos) return;
            const std::size_t end = v.find_last_not_of(" \t");
            const std::size_t start = v.find_last_of(" \t", end) + 1;
            const std::string_view tag = v.substr(start, end + 1 - start);
            if (tag.size() > 15 || (next.m_names.size() > 255 && next.find_tag(tag) == 0))
                detail::throw_parse_error("pos table: invalid tag", line_no, start + 1);
            next.set(v.substr(0, cut), next.add_tag(tag));
        });
        *this = std::move(next);
    }

    /// The tag id of `term`, 0 when it has none. O(1), `noexcept`.
    [[nodiscard]] std::uint8_t tag_of(std::string_view term) const noexcept {
        if (m_used == 0) return 0;
        const std::uint64_t h = key(term);
        const std::size_t mask = m_keys.size() - 1;
        for (std::size_t i = h & mask;; i = (i + 1) & mask) {
            if (m_keys[i] == h) return m_tags[i];
            if (m_keys[i] == 0) return 0;
        }
    }

    /// The name of tag id `id` ("" for 0 or an unknown id).
    [[nodiscard]] std::string_view tag_name(std::uint8_t id) const noexcept {
        return id < m_names.size() ? std::string_view(m_names[id]) : std::string_view();
    }

    /// The id of tag `name`, 0 if the table has no such tag.
    [[nodiscard]] std::uint8_t find_tag(std::string_view name) const noexcept {
        for (std::size_t i = 1; i < m_names.size(); ++i)
            if (m_names[i] == name) return static_cast<std::uint8_t>(i);
        return 0;
    }

    /// Number of tag names.
    [[nodiscard]] std::size_t tag_count() const noexcept { return m_names.size() - 1; }
    /// Number of tagged terms.
    [[nodiscard]] std::size_t size() const noexcept { return m_used; }

private:
    // 64-bit hash of the term, never 0 (0 marks a free slot); a collision between two tagged
    // terms (about n^2 / 2^65) only swaps a tag.
    [[nodiscard]] static std::uint64_t key(std::string_view term) noexcept {
        const std::uint64_t h = Murmur3::hash64(term);
        return h == 0 ? 1 : h;
    }

    void grow(std::size_t cap) {
        std::vector<std::uint64_t> keys(cap, 0);
        std::vector<std::uint8_t> tags(cap, 0);
        for (std::size_t j = 0; j < m_keys.size(); ++j) {
            if (m_keys[j] == 0) continue;
            std::size_t i = m_keys[j] & (cap - 1);
            while (keys[i] != 0) i = (i + 1) & (cap - 1);
            keys[i] = m_keys[j];
            tags[i] = m_tags[j];
        }
        m_keys.swap(keys);
        m_tags.swap(tags);
    }

    std::vector<std::uint64_t> m_keys;  // power-of-two size, at most 3/4 used
    std::vector<std::uint8_t> m_tags;
    std::vector<std::string> m_names{std::string()};
    std::size_t m_used = 0;
};

/// Weight factors by part-of-speech class, for `keyword_options::pos`. Classes by jieba's tag
/// names: proper nouns are nr*, ns*, nt*, nz* (person, place, organisation and other proper
/// names); nouns are the other tags starting with 'n' (n, ng, ...); verbs the tags starting
/// with 'v' (v, vn, vd, ...). Untagged terms and other tags keep factor 1.
struct pos_boost {
    double noun = 1.0;         ///< n, ng and other n* tags that are not proper nouns
    double proper_noun = 1.0;  ///< nr*, ns*, nt*, nz*
    double verb = 1.0;         ///< v*

    /// True when every factor is 1 (no boost).
    [[nodiscard]] bool neutral() const noexcept { return noun == 1.0 && proper_noun == 1.0 && verb == 1.0; }
};

namespace detail {

/// The factor of each tag id of `table` under `boost` (index = tag id; 1 for the rest).
[[nodiscard]] inline std::array<double, 256> pos_factors(const PosTable& table, const pos_boost& boost) noexcept {
    std::array<double, 256> f{};
    f.fill(1.0);
    for (std::size_t id = 1; id <= table.tag_count() && id < 256; ++id) {
        const std::string_view t = table.tag_name(static_cast<std::uint8_t>(id));
        if (t.empty()) continue;
        if (t[0] == 'v') {
            f[id] = boost.verb;
        } else if (t[0] == 'n') {
            const bool proper = t.size() >= 2 && (t[1] == 'r' || t[1] == 's' || t[1] == 't' || t[1] == 'z');
            f[id] = proper ? boost.proper_noun : boost.noun;
        }
    }
    return f;
}

}  // namespace detail
}  // namespace v0
}  // namespace semfp
