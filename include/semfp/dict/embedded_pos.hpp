#pragma once
/// \file
/// Opt-in access to the bundled part-of-speech tags (jieba's dict.txt tags of every word of the
/// embedded dictionary, MIT license; see LICENSE.jieba.txt beside this header), for the
/// part-of-speech weight boost of keyword fingerprints.
///
/// The terms are the embedded dictionary's words, so the table suits
/// `FmmSegmenter(embedded_dictionary())`. Including this header compiles the embedded dictionary
/// (<semfp/dict/embedded.hpp>) and one byte per word (about 350 KB) into the translation unit:
/// include it in one source file of a program. The umbrella <semfp/simhash.hpp> never includes it.
/// \code
///   #include <semfp/dict/embedded.hpp>
///   #include <semfp/dict/embedded_pos.hpp>
///   semfp::keyword_options opt;
///   opt.pos = &semfp::embedded_pos_table();
///   opt.boost.proper_noun = 2.0;  // person, place, organisation names count twice
///   const semfp::KeywordFingerprinter<semfp::FmmSegmenter> fp(semfp::FmmSegmenter(semfp::embedded_dictionary()), opt);
/// \endcode

#include <semfp/dict/embedded.hpp>
#include <semfp/dict/embedded_pos_data.hpp>
#include <semfp/signature/pos_tags.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace semfp {
inline namespace v0 {
namespace detail {
static_assert(pos_data::word_count == dict_data::word_count,
              "embedded_pos_data.hpp and embedded_data.hpp come from different word lists: regenerate both");
}  // namespace detail

/// The bundled part-of-speech table, built on first use (thread-safe: a function-local static)
/// and kept for the life of the program: every embedded dictionary word with its jieba tag.
[[nodiscard]] inline const PosTable& embedded_pos_table() {
    static const PosTable table = [] {
        PosTable t;
        for (std::size_t i = 1; i < std::size(detail::pos_data::tag_names); ++i)
            (void)t.add_tag(detail::pos_data::tag_names[i]);
        t.reserve(detail::pos_data::word_count);
        // Word i of the embedded list takes tag byte i of the pieces (both in the same order).
        std::size_t piece = 0, at = 0;
        for (const std::string_view words : detail::dict_data::pieces) {
            std::size_t pos = 0;
            while (pos < words.size()) {
                const std::size_t end = words.find('\n', pos);
                const std::string_view word = words.substr(pos, end - pos);
                pos = end + 1;
                while (at >= detail::pos_data::pieces[piece].size()) {
                    ++piece;
                    at = 0;
                }
                const auto id = static_cast<std::uint8_t>(detail::pos_data::pieces[piece][at++] - detail::pos_data::tag_base);
                if (id != 0) t.set(word, id);
            }
        }
        return t;
    }();
    return table;
}

/// The raw bundled tags: byte i of the concatenated pieces is `'@'` plus the tag id of word i of
/// `embedded_word_pieces()` (static storage).
[[nodiscard]] constexpr std::span<const std::string_view> embedded_pos_pieces() noexcept {
    return std::span<const std::string_view>(detail::pos_data::pieces);
}

/// Version of the Debian python3-jieba package the bundled tags were generated from.
[[nodiscard]] constexpr std::string_view embedded_pos_version() noexcept { return detail::pos_data::source_version; }

}  // namespace v0
}  // namespace semfp
