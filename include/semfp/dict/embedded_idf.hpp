#pragma once
/// \file
/// Opt-in access to the bundled IDF table (270,132 terms from jieba's analyse/idf.txt, MIT
/// license; see LICENSE.jieba.txt beside this header), for TF-IDF keyword fingerprints and
/// I-Match lexicons over the embedded dictionary's words.
///
/// The terms are dictionary words, so the table suits `FmmSegmenter(embedded_dictionary())`;
/// looked up with character bigrams nearly every term is unknown. Including this header compiles
/// about 4.6 MB of data into the translation unit: include it in one source file of a program.
/// The umbrella <semfp/simhash.hpp> never includes it.
/// \code
///   #include <semfp/dict/embedded.hpp>
///   #include <semfp/dict/embedded_idf.hpp>
///   semfp::keyword_options opt;
///   opt.idf = &semfp::embedded_idf_table();
///   const semfp::KeywordFingerprinter<semfp::FmmSegmenter> fp(semfp::FmmSegmenter(semfp::embedded_dictionary()), opt);
/// \endcode

#include <semfp/core/weighting.hpp>
#include <semfp/dict/embedded_idf_data.hpp>

#include <charconv>
#include <span>
#include <string_view>

namespace semfp {
inline namespace v0 {

/// The bundled IDF table, built on first use (thread-safe: a function-local static) and kept for
/// the life of the program. Unknown terms get the median IDF (`embedded_idf_default()`, equal to
/// `median_idf()`), as jieba's own TF-IDF keyword extraction does and as every table semfp builds
/// from data does (`IdfTable::from_list`, `IdfTable::from_corpus`; see weighting.hpp).
[[nodiscard]] inline const IdfTable& embedded_idf_table() {
    static const IdfTable table = [] {
        IdfTable t(detail::idf_data::median_idf);
        for (const std::string_view piece : detail::idf_data::pieces) {
            std::size_t pos = 0;
            while (pos < piece.size()) {
                const std::size_t end = piece.find('\n', pos);
                const std::string_view line = piece.substr(pos, end - pos);
                pos = end + 1;
                const std::size_t tab = line.find('\t');
                double idf = 0;
                // The generator writes well-formed lines; a failed parse would leave idf = 0.
                (void)std::from_chars(line.data() + tab + 1, line.data() + line.size(), idf);
                t.set(line.substr(0, tab), idf);
            }
        }
        return t;
    }();
    return table;
}

/// The IDF of terms the bundled table does not list (the median of its values).
[[nodiscard]] constexpr double embedded_idf_default() noexcept { return detail::idf_data::median_idf; }

/// The raw bundled table: `term<TAB>idf` lines in code-point order, over pieces that never split
/// a line (static storage).
[[nodiscard]] constexpr std::span<const std::string_view> embedded_idf_pieces() noexcept {
    return std::span<const std::string_view>(detail::idf_data::pieces);
}

/// Version of the Debian python3-jieba package the bundled table was generated from.
[[nodiscard]] constexpr std::string_view embedded_idf_version() noexcept { return detail::idf_data::source_version; }

}  // namespace v0
}  // namespace semfp
