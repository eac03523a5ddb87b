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
///   record stay inside. The generator places the nodes of frequent words first, so the records
///   that text visits (and the ones its walks probe and miss) share few cache lines.

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
    static constexpr char32_t unified_first = 0x4E00;  ///< CJK Unified Ideographs
    static constexpr char32_t unified_last = 0x9FFF;

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

    /// Asks the processor to fetch record `t` of `trie` into the cache (a hint; no effect on
    /// results).
    static void prefetch_record(const void* trie, std::uint32_t t) noexcept {
#if defined(__GNUC__) || defined(__clang__)
        __builtin_prefetch(static_cast<const unsigned char*>(trie) + std::size_t{t} * record_bytes);
#else
        (void)trie;
        (void)t;
#endif
    }

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

    /// True when every character with an id lies in U+4E00..U+9FFF, the block `forward_run`
    /// covers (the bundled list's do). Only then may `forward_run` stand in for `longest_prefix`.
    [[nodiscard]] bool ids_in_unified_block() const noexcept {
        return map_first >= unified_first && map_last <= unified_last;
    }

    /// Characters `forward_run` decodes ahead; words must be shorter than half of it.
    static constexpr std::size_t run_window = 256;

    /// Forward maximum matching over the run of characters of U+4E00..U+9FFF that starts at byte
    /// `pos` of `text` (there must be one there): calls `emit(offset, length)` for each token in
    /// text order, the longest word starting at the token's first character or that character
    /// alone, and returns the byte offset where the run ends. With `ids_in_unified_block()` and
    /// `max_word_length < run_window / 2`, the tokens are those of `longest_prefix` taken from
    /// each token start: no word reaches past the run, since the character after it has no id.
    ///
    /// Why it is faster than calling `longest_prefix` per token (1.1-1.2x on Chinese text, before
    /// the gain of the generator's layout): the run is decoded once, in a loop whose iterations
    /// do not depend on each other, into a window of ids; the record of every two-character
    /// prefix in the window is requested before any walk needs it, so those cache misses overlap
    /// instead of stalling one walk after another; the walks then read ids, not bytes.
    template <class Emit>
    std::size_t forward_run(std::string_view text, std::size_t pos, Emit&& emit) const
        noexcept(noexcept(emit(std::size_t{}, std::size_t{}))) {
        const auto* s = reinterpret_cast<const unsigned char*>(text.data());
        const std::size_t n = text.size();
        const std::uint32_t root = base_of(record(forward, 0));
        const std::size_t lookahead = max_word_length;
        std::uint16_t ids[run_window];  // character ids (0: no word uses the character)
        std::size_t at = pos;           // byte offset of ids[0]
        std::size_t q = pos;            // next byte to decode
        std::size_t count = 0;          // ids in the window
        bool run_over = false;
        for (;;) {
            // Decode until the window is full or the run ends.
            while (count < run_window) {
                if (n - q < 3) {
                    run_over = true;
                    break;
                }
                const unsigned b0 = s[q], b1 = s[q + 1], b2 = s[q + 2];
                // Lead bytes E4..E9 with two continuation bytes: U+4000..U+9FFF.
                if (b0 - 0xE4u > 5u || (b1 & 0xC0u) != 0x80u || (b2 & 0xC0u) != 0x80u) {
                    run_over = true;
                    break;
                }
                const std::uint32_t cp = utf8_three_byte_value(b0, b1, b2);
                if (cp < unified_first) {
                    run_over = true;
                    break;
                }
                ids[count++] = static_cast<std::uint16_t>(char_id(static_cast<char32_t>(cp)));
                q += 3;
            }
            // Ask for the record of every two-character prefix in the window at once (the
            // loads that miss the cache; the root's records stay cached): the misses overlap
            // instead of stalling one walk after another.
            for (std::size_t j = 0; j + 1 < count; ++j) {
                const std::uint32_t c0 = ids[j];
                const std::uint64_t r1 = record(forward, root + c0);
                const bool ok = c0 != 0 && (r1 & label_mask) == c0;
                prefetch_record(forward, (ok ? base_of(r1) : root) + ids[j + 1]);
            }
            // Walks that may need characters beyond the window wait for the next one.
            const std::size_t limit = run_over ? count : count - lookahead;
            std::size_t k = 0;
            while (k < limit) {
                std::uint32_t base = root;
                std::size_t best = 1;  // no word: the character alone
                for (std::size_t j = k; j < count; ++j) {
                    const std::uint32_t id = ids[j];
                    if (id == 0) break;
                    const std::uint64_t rec = record(forward, base + id);
                    if ((rec & label_mask) != id) break;
                    if (rec & terminal_bit) best = j + 1 - k;
                    base = base_of(rec);
                    if (base == leaf_base) break;
                }
                emit(at + 3 * k, 3 * best);
                k += best;
            }
            if (run_over) return at + 3 * count;
            // Keep the ids not consumed yet (fewer than `lookahead`) at the window's start.
            for (std::size_t j = k; j < count; ++j) ids[j - k] = ids[j];
            at += 3 * k;
            count -= k;
        }
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
