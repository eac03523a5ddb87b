#pragma once
/// \file
/// `SynonymTable` and `SynonymFilter<Tokenizer>`: map tokens to canonical forms before they are
/// weighted, so that texts that name the same thing differently (two names of one department store, Beijing Hualian / Hualian Shangsha) get the
/// same features in every pipeline (Simhash, keyword fingerprints, I-Match, shingles).
///
/// The mapping is per token, after the wrapped tokenizer has cut the text: entries must be
/// tokens that tokenizer emits (dictionary words for a dictionary segmenter; they do nothing for
/// character bigrams unless the entries are bigrams). Entries are normalized when loaded, like
/// the text the tokenizer sees. Lookups binary-search a sorted array: no allocation, no hashing,
/// `noexcept`. A canonical form is not looked up again (no chains), so a table is a flat map
/// whatever order its lines come in.

#include <semfp/concepts.hpp>
#include <semfp/detail/list_lines.hpp>
#include <semfp/error.hpp>
#include <semfp/text/normalize.hpp>

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <istream>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace semfp {
inline namespace v0 {

/// A map from variant terms to canonical terms.
class SynonymTable {
public:
    /// Lines longer than this many bytes are rejected (a guard against binary or runaway input).
    static constexpr std::size_t max_line_bytes = 4096;

    /// An empty table.
    SynonymTable() = default;

    /// Adds `variant -> canonical` (both normalized with `opt`). An identical entry is ignored.
    /// \throws invalid_argument_error if either is empty (after normalization) or `variant`
    /// already maps to another canonical form; the table is then unchanged.
    void add(std::string_view variant, std::string_view canonical, const normalize_options& opt = {}) {
        std::vector<entry> next = m_entries;
        if (const char* why = insert(next, variant, canonical, opt)) detail::throw_invalid_argument(std::string("SynonymTable: ") + why);
        m_entries.swap(next);
    }

    /// Reads `variant<TAB>canonical` lines (UTF-8 BOM, CRLF, blank and `#` lines accepted),
    /// normalizing both sides with `opt`. Adds to the current entries.
    /// \throws parse_error naming the line on a line without exactly one tab, an empty side, a
    /// line over `max_line_bytes`, or a variant mapped to two canonical forms; `io_error` on a
    /// read error. Strong guarantee: on any exception the table is unchanged.
    void load(std::istream& in, const normalize_options& opt = {}) {
        std::vector<entry> next = m_entries;
        detail::for_each_list_line(in, "synonym table", [&](std::string_view v, std::size_t line_no) {
            if (v.size() > max_line_bytes)
                detail::throw_parse_error("synonym table: line longer than " + std::to_string(max_line_bytes) + " bytes",
                                          line_no, max_line_bytes + 1);
            const std::size_t tab = v.find('\t');
            if (tab == std::string_view::npos)
                detail::throw_parse_error("synonym table: expected 'variant<TAB>canonical'", line_no, 0);
            if (v.find('\t', tab + 1) != std::string_view::npos)
                detail::throw_parse_error("synonym table: more than one tab", line_no, v.find('\t', tab + 1) + 1);
            if (const char* why = insert(next, v.substr(0, tab), v.substr(tab + 1), opt))
                detail::throw_parse_error(std::string("synonym table: ") + why, line_no, 0);
        });
        m_entries.swap(next);
    }

    /// The canonical form of `term`, or `term` itself when it has none. The returned view points
    /// into the table (or is `term`): valid while both live and the table is not modified.
    [[nodiscard]] std::string_view canonical(std::string_view term) const noexcept {
        const auto it = std::lower_bound(m_entries.begin(), m_entries.end(), term,
                                         [](const entry& e, std::string_view t) { return std::string_view(e.first) < t; });
        return it != m_entries.end() && it->first == term ? std::string_view(it->second) : term;
    }

    /// Number of variants.
    [[nodiscard]] std::size_t size() const noexcept { return m_entries.size(); }
    /// True if the table has no entry.
    [[nodiscard]] bool empty() const noexcept { return m_entries.empty(); }

private:
    using entry = std::pair<std::string, std::string>;

    // Inserts into the sorted `entries`; returns the reason on failure (entries unchanged).
    static const char* insert(std::vector<entry>& entries, std::string_view variant, std::string_view canonical_form,
                              const normalize_options& opt) {
        std::string v = normalize(variant, opt);
        std::string c = normalize(canonical_form, opt);
        if (v.empty() || c.empty()) return "empty variant or canonical form";
        const auto it = std::lower_bound(entries.begin(), entries.end(), v,
                                         [](const entry& e, const std::string& t) { return e.first < t; });
        if (it != entries.end() && it->first == v) return it->second == c ? nullptr : "variant already has another canonical form";
        if (v == c) return nullptr;  // a term that maps to itself needs no entry
        entries.insert(it, entry{std::move(v), std::move(c)});
        return nullptr;
    }

    std::vector<entry> m_entries;  // sorted by variant
};

/// A tokenizer adaptor that replaces every token that is a variant in a `SynonymTable` by its
/// canonical form. Tokens passed on are views into the text or into the table. Models
/// `Tokenizer`; as thread-safe as `Tok`.
template <Tokenizer Tok>
class SynonymFilter {
public:
    /// Filters `tok` through `table` (shared, not copied).
    /// \throws invalid_argument_error if `table` is null.
    SynonymFilter(Tok tok, std::shared_ptr<const SynonymTable> table)
        : m_tokenizer(std::move(tok)), m_table(std::move(table)) {
        if (!m_table) detail::throw_invalid_argument("SynonymFilter: null synonym table");
    }

    /// Feeds the tokens of `text`, mapped to their canonical forms, to `sink`.
    template <TokenSink Sink>
    void tokenize(std::string_view text, Sink&& sink) const {
        const SynonymTable& table = *m_table;
        m_tokenizer.tokenize(text, [&](std::string_view token) { sink(table.canonical(token)); });
    }

    /// The wrapped tokenizer.
    [[nodiscard]] const Tok& inner() const noexcept { return m_tokenizer; }
    /// The table.
    [[nodiscard]] const SynonymTable& table() const noexcept { return *m_table; }

private:
    Tok m_tokenizer;
    std::shared_ptr<const SynonymTable> m_table;
};

}  // namespace v0
}  // namespace semfp
