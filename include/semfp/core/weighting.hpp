#pragma once
/// \file
/// Feature weighting for Simhash: term frequency (the paper's), optional sub-linear scaling, and
/// an inverse-document-frequency table for TF-IDF.

#include <semfp/concepts.hpp>
#include <semfp/core/hash.hpp>
#include <semfp/detail/list_lines.hpp>
#include <semfp/error.hpp>
#include <semfp/text/normalize.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace semfp {
inline namespace v0 {

/// How a term's frequency tf in a document becomes its weight.
enum class tf_scaling : std::uint8_t {
    raw,       ///< weight = tf (the paper's term-frequency weighting)
    sublinear, ///< weight = 1 + ln(tf)
};

/// Inverse document frequencies by term, for TF-IDF weighting.
///
/// Terms are matched exactly as the tokenizer emits them after normalization (see
/// normalize.hpp): store normalized, segmented terms. Unknown terms get `default_idf()`.
/// Lookups are `noexcept` and allocation-free.
///
/// Unknown-term rule: every table semfp builds from data (`from_list`, `from_corpus`, the
/// bundled `embedded_idf_table()`, the tool's `--idf FILE`) gives unknown terms the median of
/// its known IDFs, `median_idf()` (jieba's rule: a term of unknown rarity is taken as neither
/// common nor rare). A table constructed directly keeps the default passed to the constructor.
class IdfTable {
public:
    /// An empty table whose unknown terms weigh `default_idf` (>= 0).
    explicit IdfTable(double default_idf = 1.0) : m_default(default_idf) {
        if (!(default_idf >= 0.0) || !std::isfinite(default_idf))
            detail::throw_invalid_argument("IdfTable: default idf must be finite and >= 0");
    }

    /// Sets the IDF of `term` (finite, >= 0).
    void set(std::string_view term, double idf) {
        if (!(idf >= 0.0) || !std::isfinite(idf)) detail::throw_invalid_argument("IdfTable: idf must be finite and >= 0");
        m_idf[key(term)] = idf;
    }

    /// Sets the IDF of `term` from its document frequency: ln((1 + n_docs) / (1 + df)) + 1.
    void set_from_document_frequency(std::string_view term, std::uint64_t df, std::uint64_t n_docs) {
        set(term, std::log((1.0 + static_cast<double>(n_docs)) / (1.0 + static_cast<double>(df))) + 1.0);
    }

    /// A table measured on a corpus: every document of `docs` (a range of objects convertible to
    /// `std::string_view`) is normalized with `opt` and tokenized with `tok`, and each term gets
    /// ln((1 + N) / (1 + df)) + 1, where df counts the documents containing it; unknown terms get
    /// the median of those values (1 for an empty corpus). Use the tokenizer and normalization of
    /// the pipeline that will look the terms up. O(total tokens x log), memory O(distinct terms).
    template <class Range, Tokenizer Tok>
    [[nodiscard]] static IdfTable from_corpus(const Range& docs, const Tok& tok, const normalize_options& opt = {}) {
        std::unordered_map<std::string, std::uint64_t> df;
        std::vector<std::string_view> terms;
        std::string norm;
        std::uint64_t n_docs = 0;
        for (const auto& doc : docs) {
            ++n_docs;
            normalize_into(std::string_view(doc), norm, opt);
            terms.clear();
            tok.tokenize(std::string_view(norm), [&](std::string_view t) { terms.push_back(t); });
            std::sort(terms.begin(), terms.end());
            terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
            for (const std::string_view t : terms) ++df[std::string(t)];
        }
        IdfTable table;
        for (const auto& [term, count] : df) table.set_from_document_frequency(term, count, n_docs);
        table.m_default = table.median_idf();
        return table;
    }

    /// A table read from `term<whitespace>idf` lines (see `load`) whose unknown terms get the
    /// median of the values read (1 when there are none).
    /// \throws parse_error naming the line on a malformed line.
    [[nodiscard]] static IdfTable from_list(std::istream& in) {
        IdfTable table;
        table.load(in);
        table.m_default = table.median_idf();
        return table;
    }

    /// Reads `term<whitespace>idf` lines (jieba's idf.txt format). A UTF-8 BOM, CRLF, blank and
    /// `#` lines are accepted. Throws `semfp::parse_error` naming the line on a malformed line;
    /// the table is then unchanged.
    void load(std::istream& in) {
        std::unordered_map<std::uint64_t, double> next = m_idf;
        detail::for_each_list_line(in, "idf table", [&](std::string_view v, std::size_t line_no) {
            const std::size_t cut = v.find_first_of(" \t");
            if (cut == 0 || cut == std::string_view::npos)
                detail::throw_parse_error("idf table: expected 'term idf'", line_no, 0);
            const std::size_t start = v.find_first_not_of(" \t", cut);
            if (start == std::string_view::npos)
                detail::throw_parse_error("idf table: expected 'term idf'", line_no, 0);
            const std::string number(v.substr(start));
            std::size_t used = 0;
            double idf = 0;
            try {
                idf = std::stod(number, &used);
            } catch (const std::exception&) {
                detail::throw_parse_error("idf table: invalid number", line_no, cut + 2);
            }
            if (used != number.size() || !(idf >= 0.0) || !std::isfinite(idf))
                detail::throw_parse_error("idf table: invalid number", line_no, cut + 2);
            next[key(v.substr(0, cut))] = idf;
        });
        m_idf.swap(next);
    }

    /// The IDF of `term`, or `default_idf()` when unknown.
    [[nodiscard]] double idf(std::string_view term) const noexcept {
        const auto it = m_idf.find(key(term));
        return it == m_idf.end() ? m_default : it->second;
    }

    /// The IDF of unknown terms.
    [[nodiscard]] double default_idf() const noexcept { return m_default; }

    /// The median of the known IDFs: the value at index n / 2 of the n values in ascending order
    /// (jieba's rule), or `default_idf()` for an empty table. O(n) time and memory.
    [[nodiscard]] double median_idf() const {
        if (m_idf.empty()) return m_default;
        std::vector<double> v;
        v.reserve(m_idf.size());
        for (const auto& kv : m_idf) v.push_back(kv.second);
        const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
        std::nth_element(v.begin(), mid, v.end());
        return *mid;
    }
    /// Number of terms with an explicit IDF.
    [[nodiscard]] std::size_t size() const noexcept { return m_idf.size(); }

private:
    // Terms are keyed by a 64-bit hash; a collision between two vocabulary terms is
    // vanishingly rare (about n^2 / 2^65) and only affects their weights.
    [[nodiscard]] static std::uint64_t key(std::string_view term) noexcept { return Murmur3::hash64(term); }

    std::unordered_map<std::uint64_t, double> m_idf;
    double m_default;
};

namespace detail {

/// Fixed-point scale of real-valued weights (TF-IDF, sub-linear TF): 1.0 -> 256 units.
inline constexpr double weight_scale = 256.0;

/// Converts a non-negative real weight to Simhash units (saturating; a positive weight is at
/// least one unit so that no positive feature is dropped).
[[nodiscard]] inline std::uint32_t quantize_weight(double w) noexcept {
    if (!(w > 0.0)) return 0;
    const double q = std::round(w * weight_scale);
    if (q >= 4294967295.0) return 0xFFFFFFFFu;
    return q < 1.0 ? 1u : static_cast<std::uint32_t>(q);
}

}  // namespace detail
}  // namespace v0
}  // namespace semfp
