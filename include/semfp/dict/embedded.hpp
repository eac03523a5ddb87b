#pragma once
/// \file
/// Opt-in access to the bundled word list (348,974 words from jieba's dictionary, MIT license;
/// see LICENSE.jieba.txt beside this header).
///
/// Including this header compiles about 3.4 MB of data into the translation unit (about 1 s and
/// 50 MB of compiler memory more than without it, with g++ 12 or clang 14 at -O2); include it in
/// one source file of a program. The umbrella <semfp/simhash.hpp> never includes it.
/// \code
///   #include <semfp/dict/embedded.hpp>
///   #include <semfp/text/segmenter.hpp>
///   const semfp::FmmSegmenter seg(semfp::embedded_dictionary());
///   seg.tokenize(text, [](std::string_view word) { /* ... */ });
/// \endcode

#include <semfp/dict/embedded_data.hpp>
#include <semfp/text/dictionary.hpp>

#include <span>
#include <string_view>

namespace semfp {
inline namespace v0 {

/// The bundled dictionary, built on first use (about 25 ms on one core; thread-safe: a
/// function-local static) and kept for the life of the program (8.4 MB; reverse and
/// bidirectional segmenters add the reverse trie, about 50 ms and 8.6 MB more).
[[nodiscard]] inline const Dictionary& embedded_dictionary() {
    static const Dictionary dict = Dictionary::from_lines(std::span<const std::string_view>(detail::dict_data::pieces));
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
