#pragma once
/// \file
/// Internal: a word list as two precomputed double-array tries (words and reversed words), laid
/// out by a generator as constant data (the bundled dictionary: cmake/generate_dictionary_trie.py
/// writes <semfp/dict/embedded_trie_data.hpp>). Nothing is built or allocated at run time: the
/// arrays are read where the program keeps its read-only data.
///
/// Layout (little-endian):
/// - a character map: one 16-bit id per code point in [map_first, map_last], 0 for a code point
///   that no word uses. Every word is made of three-byte UTF-8 characters (the generator
///   refuses anything else), so a walk reads three bytes per step and needs no other decoder:
///   an overlong form or a surrogate decodes to a code point whose id is 0.
/// - per trie, records of 5 bytes: check (16 bits: bit 15 terminal, bits 0..14 the id of the
///   character leading to the record, 0 when free), then base (24 bits). The child of record s
///   for id c is record base(s) + c when its check label is c; the bases of nodes with children
///   are unique, which makes the label a sufficient check. Leaves have base 1, used by no node.
///   The root is record 0. The arrays are padded so that base + id and an 8-byte read at any
///   record stay inside.

#include <semfp/detail/utf8_three.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

namespace semfp {
inline namespace v0 {
namespace detail {

struct seg_static_dict {
    const void* char_map = nullptr;  ///< 16-bit ids, one per code point in [map_first, map_last]
    char32_t map_first = 0;
    char32_t map_last = 0;
    const void* forward = nullptr;  ///< records of the trie over the words
    const void* reverse = nullptr;  ///< records of the trie over the reversed words
    std::span<const std::string_view> word_pieces;  ///< the words, newline-terminated, sorted
    std::size_t word_count = 0;
    std::size_t max_word_length = 0;

    static constexpr std::uint32_t label_mask = 0x7FFFu;
    static constexpr std::uint32_t terminal_bit = 0x8000u;
    static constexpr std::size_t record_bytes = 5;

    /// The id of `cp`, 0 when no word uses it.
    [[nodiscard]] std::uint32_t char_id(char32_t cp) const noexcept {
        const std::uint32_t k = static_cast<std::uint32_t>(cp) - static_cast<std::uint32_t>(map_first);
        if (k > static_cast<std::uint32_t>(map_last - map_first)) return 0;
        const auto* p = static_cast<const unsigned char*>(char_map) + std::size_t{k} * 2;
        return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8);
    }

    /// Record `t` of `trie`: check in bits 0..15, base in bits 16..39.
    [[nodiscard]] static std::uint64_t record(const void* trie, std::uint32_t t) noexcept {
        const auto* p = static_cast<const unsigned char*>(trie) + std::size_t{t} * record_bytes;
        std::uint64_t v;
        if constexpr (std::endian::native == std::endian::little) {
            std::memcpy(&v, p, sizeof v);
        } else {
            v = 0;
            for (std::size_t i = 0; i < record_bytes; ++i) v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
        }
        return v;
    }
    [[nodiscard]] static std::uint32_t base_of(std::uint64_t rec) noexcept {
        return static_cast<std::uint32_t>(rec >> 16) & 0xFFFFFFu;
    }
    /// The base of every leaf (no node has it): a walk that reaches it can stop.
    static constexpr std::uint32_t leaf_base = 1;

    /// Id of the three-byte character at `p` (forward) or 0 when it is not one of the words'.
    [[nodiscard]] std::uint32_t id_at(const unsigned char* p) const noexcept {
        const unsigned b0 = p[0], b1 = p[1], b2 = p[2];
        if ((b0 & 0xF0u) != 0xE0u || (b1 & 0xC0u) != 0x80u || (b2 & 0xC0u) != 0x80u) return 0;
        return char_id(static_cast<char32_t>(utf8_three_byte_value(b0, b1, b2)));
    }

    /// Byte length of the longest word starting at byte `pos` of `text` (0 if none).
    [[nodiscard]] std::size_t longest_prefix(std::string_view text, std::size_t pos) const noexcept {
        const auto* s = reinterpret_cast<const unsigned char*>(text.data());
        const std::size_t n = text.size();
        std::uint32_t base = base_of(record(forward, 0));
        std::size_t best = 0;
        for (std::size_t p = pos; p <= n && n - p >= 3; p += 3) {
            const std::uint32_t id = id_at(s + p);
            if (id == 0) break;
            const std::uint64_t rec = record(forward, base + id);
            if ((rec & label_mask) != id) break;
            if (rec & terminal_bit) best = p + 3 - pos;
            base = base_of(rec);
            if (base == leaf_base) break;
        }
        return best;
    }

    /// Byte length of the longest word ending at byte `end` of `text` (0 if none); end <= size.
    [[nodiscard]] std::size_t longest_suffix(std::string_view text, std::size_t end) const noexcept {
        const auto* s = reinterpret_cast<const unsigned char*>(text.data());
        std::uint32_t base = base_of(record(reverse, 0));
        std::size_t best = 0;
        for (std::size_t p = end; p >= 3; p -= 3) {
            const std::uint32_t id = id_at(s + p - 3);
            if (id == 0) break;
            const std::uint64_t rec = record(reverse, base + id);
            if ((rec & label_mask) != id) break;
            if (rec & terminal_bit) best = end - (p - 3);
            base = base_of(rec);
            if (base == leaf_base) break;
        }
        return best;
    }

    /// True when `word` (UTF-8) is one of the words.
    [[nodiscard]] bool contains(std::string_view word) const noexcept {
        if (word.empty() || word.size() % 3 != 0) return false;
        const auto* s = reinterpret_cast<const unsigned char*>(word.data());
        std::uint32_t base = base_of(record(forward, 0));
        std::uint64_t rec = 0;
        for (std::size_t p = 0; p < word.size(); p += 3) {
            const std::uint32_t id = id_at(s + p);
            if (id == 0) return false;
            rec = record(forward, base + id);
            if ((rec & label_mask) != id) return false;
            base = base_of(rec);
        }
        return (rec & terminal_bit) != 0;
    }

    /// Calls `f(std::string_view word)` for every word, in code-point order.
    template <class F>
    void for_each_word(F&& f) const {
        for (const std::string_view piece : word_pieces) {
            std::size_t pos = 0;
            while (pos < piece.size()) {
                std::size_t eol = piece.find('\n', pos);
                if (eol == std::string_view::npos) eol = piece.size();
                if (eol > pos) f(piece.substr(pos, eol - pos));
                pos = eol + 1;
            }
        }
    }
};

}  // namespace detail
}  // namespace v0
}  // namespace semfp
