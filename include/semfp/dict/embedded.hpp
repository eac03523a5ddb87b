#pragma once
/// \file
/// Opt-in access to the bundled word list (348,974 words from jieba's dictionary, MIT license;
/// see LICENSE.jieba.txt beside this header).
///
/// The words come twice: as a sorted list (embedded_data.hpp, 3.4 MB) and as two precomputed
/// double-array tries over the words and the reversed words (embedded_trie_data.hpp, written by
/// cmake/generate_dictionary_trie.py). The tries are constant data: the first use builds
/// nothing and allocates nothing, and segmenting reads them where the program keeps its
/// read-only data (pages the system maps on demand and shares between processes).
///
/// Including this header compiles the data into the translation unit (see the README for the
/// measured compile time and memory); include it in one source file of a program. The umbrella
/// <semfp/simhash.hpp> never includes it.
/// \code
///   #include <semfp/dict/embedded.hpp>
///   #include <semfp/text/segmenter.hpp>
///   const semfp::FmmSegmenter seg(semfp::embedded_dictionary());
///   seg.tokenize(text, [](std::string_view word) { /* ... */ });
/// \endcode

#include <semfp/detail/seg_dat.hpp>
#include <semfp/dict/embedded_data.hpp>
#include <semfp/dict/embedded_trie_data.hpp>
#include <semfp/text/dictionary.hpp>

#include <span>
#include <string_view>

namespace semfp {
inline namespace v0 {

namespace detail {

static_assert(dict_trie_data::word_count == dict_data::word_count,
              "embedded_trie_data.hpp and embedded_data.hpp come from different word lists");

/// The precomputed tries of the bundled list.
inline constexpr seg_static_dict embedded_static_dict{
    &dict_trie_data::char_map,       dict_trie_data::map_first, dict_trie_data::map_last,
    &dict_trie_data::forward,        &dict_trie_data::reverse,  std::span<const std::string_view>(dict_data::pieces),
    dict_trie_data::word_count,      dict_trie_data::max_word_length};

}  // namespace detail

/// The bundled dictionary (thread-safe; a function-local static). Ready at once: it refers to
/// the precomputed tries (forward and reverse), so neither the first call nor a reverse or
/// bidirectional segmenter builds anything; `memory_bytes()` is 0. A copy that is modified
/// (`add`, `load`) builds tries of its own first.
[[nodiscard]] inline const Dictionary& embedded_dictionary() noexcept {
    static const Dictionary dict = Dictionary::from_precomputed(detail::embedded_static_dict);
    return dict;
}

/// The raw bundled word list: newline-terminated UTF-8 words in code-point order, spread over
/// pieces that never split a line (static storage).
[[nodiscard]] constexpr std::span<const std::string_view> embedded_word_pieces() noexcept {
    return std::span<const std::string_view>(detail::dict_data::pieces);
}

/// Version of the Debian python3-jieba package the bundled list was generated from.
[[nodiscard]] constexpr std::string_view embedded_dictionary_version() noexcept {
    return detail::dict_data::source_version;
}

}  // namespace v0
}  // namespace semfp
