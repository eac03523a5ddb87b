#pragma once
/// \file
/// `semfp::Dictionary`: the word list behind `semfp::FmmSegmenter`.
///
/// A dictionary holds words made of Han characters in two code-point tries (one over the words,
/// one over the reversed words), so the longest word starting or ending at a position is found
/// in one walk. Words that contain characters of other classes (`AT&T`, or `B` followed by a Han character) are
/// accepted from files and `add()` but not stored: the segmenter emits runs of ASCII letters and
/// digits, and of other scripts, as tokens of their own, so such words could never match.
///
/// Bring your own word list:
/// \code
///   std::ifstream in("user.dict");
///   semfp::Dictionary dict;
///   dict.load(in);        // "word [frequency] [tag]" per line
///   dict.add(u8_word);    // one more word at run time (UTF-8)
///   semfp::FmmSegmenter seg(dict);
/// \endcode
/// or include <semfp/dict/embedded.hpp> for the bundled list (`semfp::embedded_dictionary()`).

#include <semfp/detail/dict_words.hpp>
#include <semfp/detail/list_lines.hpp>
#include <semfp/detail/seg_dat.hpp>
#include <semfp/detail/seg_decode.hpp>
#include <semfp/detail/seg_trie.hpp>
#include <semfp/error.hpp>
#include <semfp/text/char_class.hpp>
#include <semfp/text/utf8.hpp>

#include <atomic>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <istream>
#include <mutex>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace semfp {
inline namespace v0 {

class FmmSegmenter;

/// A mutable set of words for maximum-matching segmentation.
///
/// Two tries: one over the words (forward matching) and one over the reversed words (reverse
/// matching). The reversed one is built on first need (`prepare_reverse()`, which
/// `FmmSegmenter` calls for its reverse and bidirectional modes), so forward-only use pays
/// neither its time nor its memory.
///
/// Thread safety: `const` member functions may run concurrently (the lazy reverse build is
/// synchronised); `add()`, `load()` and assignment need exclusive access. Memory per trie: 8 bytes
/// per node, a 256 KiB table for the first character and a hash index over large sibling
/// groups (the 349k-word jieba list built at run time: 8.4 MB forward, 17 MB with the reverse
/// trie). The bundled dictionary instead uses precomputed tries in static storage
/// (`from_precomputed`; <semfp/dict/embedded.hpp>): no heap memory and nothing to build.
class Dictionary {
public:
    /// An empty dictionary. Allocates nothing.
    Dictionary() noexcept = default;

    /// Copies the words (and the reverse trie when the source has built it).
    Dictionary(const Dictionary& other) : m_forward(other.m_forward), m_static(other.m_static) {
        const std::lock_guard<std::mutex> lock(other.m_reverse_mutex);
        if (other.m_reverse_ready.load(std::memory_order_acquire)) {
            m_reverse = other.m_reverse;
            m_reverse_ready.store(true, std::memory_order_relaxed);
        }
    }
    /// Moves the words; `other` is left empty.
    Dictionary(Dictionary&& other) noexcept
        : m_forward(std::move(other.m_forward)), m_reverse(std::move(other.m_reverse)),
          m_reverse_ready(other.m_reverse_ready.load(std::memory_order_relaxed)), m_static(other.m_static) {
        other.m_reverse_ready.store(false, std::memory_order_relaxed);
        other.m_static = nullptr;
    }
    /// Copy assignment (strong guarantee).
    Dictionary& operator=(const Dictionary& other) {
        if (this != &other) {
            Dictionary tmp(other);
            *this = std::move(tmp);
        }
        return *this;
    }
    /// Move assignment; `other` is left empty.
    Dictionary& operator=(Dictionary&& other) noexcept {
        if (this != &other) {
            m_forward = std::move(other.m_forward);
            m_reverse = std::move(other.m_reverse);
            m_static = other.m_static;
            other.m_static = nullptr;
            m_reverse_ready.store(other.m_reverse_ready.load(std::memory_order_relaxed), std::memory_order_relaxed);
            other.m_reverse_ready.store(false, std::memory_order_relaxed);
        }
        return *this;
    }
    ~Dictionary() = default;

    /// Builds from a range of words (anything convertible to `std::string_view`). Words that
    /// are not made of Han characters only are skipped (see the file comment).
    /// \throws invalid_argument_error for an empty word, invalid UTF-8, a word containing
    ///         white space or made only of punctuation. Complexity: linear in the total length.
    template <std::ranges::input_range R>
        requires std::convertible_to<std::ranges::range_reference_t<R>, std::string_view>
    explicit Dictionary(R&& words) {
        add_all(std::forward<R>(words));
    }

    /// Builds from a list of words (see the range constructor).
    Dictionary(std::initializer_list<std::string_view> words) { add_all(words); }

    /// Builds from newline-separated words spread over `chunks` (no line may straddle two
    /// chunks; `\r` before `\n` and blank lines are tolerated; no columns). This is how the
    /// embedded dictionary is built: sorted input builds without any sorting.
    /// \throws parse_error naming the line (counted over all chunks) of a malformed word.
    [[nodiscard]] static Dictionary from_lines(std::span<const std::string_view> chunks) {
        Dictionary d;
        detail::seg_word_list words;
        std::size_t total = 0;
        for (const std::string_view chunk : chunks) total += chunk.size();
        // Han characters take three bytes; typical word lists average two to three characters
        // a line (a reservation, not a limit).
        words.cps.reserve(total / 3);
        words.offsets.reserve(total / 8 + 2);
        std::size_t line_no = 0;
        for (const std::string_view chunk : chunks) {
            std::size_t pos = 0;
            while (pos < chunk.size()) {
                std::size_t eol = chunk.find('\n', pos);
                if (eol == std::string_view::npos) eol = chunk.size();
                std::string_view line = chunk.substr(pos, eol - pos);
                pos = eol + 1;
                ++line_no;
                if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
                if (line.empty()) continue;
                collect_word(line, words, line_no, 1);
            }
        }
        d.rebuild_with(words);
        return d;
    }

    /// A dictionary over precomputed tries kept in static storage (how the bundled dictionary of
    /// <semfp/dict/embedded.hpp> is made): nothing is built or allocated, lookups read the
    /// constant data directly, and the reverse trie is already there. The first `add()` or
    /// `load()` copies the words into tries of its own (then it behaves as any dictionary).
    /// `data` must outlive the dictionary and its copies.
    [[nodiscard]] static Dictionary from_precomputed(const detail::seg_static_dict& data) noexcept {
        Dictionary d;
        d.m_static = &data;
        return d;
    }

    /// Adds the words of a stream, one per line: `word [frequency] [tag]`, columns separated by
    /// spaces or tabs (the format of jieba's dict.txt and user dictionaries). A UTF-8 byte order
    /// mark, CRLF line ends, blank lines and lines starting with `#` are tolerated. Frequencies
    /// and tags are checked and ignored (maximum matching does not use them); a second column
    /// that does not start with a digit is taken as a tag.
    ///
    /// Strong guarantee: on any exception the dictionary is unchanged.
    /// \throws parse_error (with the 1-based line and column) for invalid UTF-8, a word made
    ///         only of punctuation, a frequency that is not a non-negative integer, or more than
    ///         three columns, a line longer than 1 MiB; io_error when the stream fails other
    ///         than at its end.
    /// Complexity: linear in the size of the stream plus the size of the dictionary (rebuild).
    void load(std::istream& in) {
        detail::seg_word_list words;
        std::string line;
        std::size_t line_no = 0;
        for (;;) {
            const detail::bounded_line r = detail::read_bounded_line(in, line, detail::max_list_line_bytes);
            if (r.status == detail::line_status::end) break;
            ++line_no;
            if (r.status == detail::line_status::too_long) {
                detail::throw_parse_error("semfp: dictionary line longer than " +
                                              std::to_string(detail::max_list_line_bytes) + " bytes",
                                          line_no, 1);
            }
            std::string_view v(line);
            std::size_t col0 = 0;
            if (line_no == 1 && v.substr(0, 3) == "\xEF\xBB\xBF") {
                v.remove_prefix(3);
                col0 = 3;
            }
            if (!v.empty() && v.back() == '\r') v.remove_suffix(1);
            parse_line(v, line_no, col0, words);
        }
        if (in.bad()) detail::throw_io_error("semfp: reading a dictionary stream failed");
        if (words.size() == 0) return;
        materialize();
        rebuild_with(words);
    }

    /// Adds one word. Returns true when the word was stored, false when it was already present
    /// or is not made of Han characters only (such a word never matches; see the file comment).
    /// Strong guarantee. Amortised O(length); the tries are compacted when the words added
    /// since the last rebuild grow large.
    /// \throws invalid_argument_error for an empty word, invalid UTF-8, a word containing white
    ///         space or made only of punctuation.
    bool add(std::string_view word) {
        std::vector<char32_t> cps;
        const detail::dict_word_kind k = decode_word(word, cps);
        if (k == detail::dict_word_kind::mixed) return false;
        if (k != detail::dict_word_kind::han)
            detail::throw_invalid_argument(std::string("semfp::Dictionary::add: ") + detail::dict_word_problem(k));
        if (contains(word)) return false;
        materialize();
        if (needs_compaction(cps.size())) {
            detail::seg_word_list words;
            words.push(cps.data(), cps.size());
            rebuild_with(words);
            return true;
        }
        const bool with_reverse = m_reverse_ready.load(std::memory_order_relaxed);
        std::vector<char32_t> reversed(cps.rbegin(), cps.rend());
        // Reserve in both tries first, so the pair of inserts below cannot fail half-way.
        m_forward.reserve_insert(cps.size());
        if (with_reverse) m_reverse.reserve_insert(reversed.size());
        m_forward.insert(cps.data(), cps.size());
        if (with_reverse) m_reverse.insert(reversed.data(), reversed.size());
        return true;
    }

    /// Adds every word of a range (see `add(std::string_view)`); one rebuild at the end.
    /// Strong guarantee. Returns the number of words stored.
    template <std::ranges::input_range R>
        requires std::convertible_to<std::ranges::range_reference_t<R>, std::string_view>
    std::size_t add_all(R&& words) {
        detail::seg_word_list list;
        for (auto&& w : words) {
            const std::string_view v = w;
            const detail::dict_word_kind k = decode_word(v, list.cps);
            if (k == detail::dict_word_kind::han) {
                list.offsets.push_back(static_cast<std::uint32_t>(list.cps.size()));
            } else if (k != detail::dict_word_kind::mixed) {
                detail::throw_invalid_argument(std::string("semfp::Dictionary: ") + detail::dict_word_problem(k));
            }
        }
        const std::size_t before = size();
        if (list.size() != 0) {
            materialize();
            rebuild_with(list);
        }
        return size() - before;
    }

    /// True when `word` is in the dictionary. O(length).
    [[nodiscard]] bool contains(std::string_view word) const noexcept {
        if (m_static != nullptr) return m_static->contains(word);
        if (!m_forward.has_nodes()) return false;
        std::uint32_t node = 0;
        for (std::size_t i = 0; i < word.size();) {
            const utf8::decoded d = detail::seg_decode(word, i);
            if (!d.valid) return false;
            node = m_forward.child(node, d.code_point);
            if (node == 0) return false;
            i += d.length;
        }
        return node != 0 && m_forward.terminal(node);
    }

    /// Number of words.
    [[nodiscard]] std::size_t size() const noexcept {
        return m_static != nullptr ? m_static->word_count : m_forward.size();
    }
    /// True when there are no words.
    [[nodiscard]] bool empty() const noexcept { return size() == 0; }
    /// Length of the longest word, in code points.
    [[nodiscard]] std::size_t max_word_length() const noexcept {
        return m_static != nullptr ? m_static->max_word_length : m_forward.max_length();
    }

    /// Byte length of the longest word that starts at byte `pos` of `text`, or 0 when no word
    /// does. Never reads outside `text`; stops at malformed UTF-8. O(length of the match + 1).
    [[nodiscard]] std::size_t longest_prefix(std::string_view text, std::size_t pos) const noexcept {
        if (m_static != nullptr) return m_static->longest_prefix(text, pos);
        if (!m_forward.has_nodes()) return 0;
        std::uint32_t node = 0;
        std::size_t best = 0;
        std::size_t p = pos;
        const std::size_t n = text.size();
        while (p < n) {
            if (static_cast<unsigned char>(text[p]) < 0x80) break;  // words hold Han characters only
            const utf8::decoded d = detail::seg_decode(text, p);
            if (!d.valid) break;
            node = m_forward.child(node, d.code_point);
            if (node == 0) break;
            p += d.length;
            if (m_forward.terminal(node)) best = p - pos;
        }
        return best;
    }

    /// Byte length of the longest word that ends at byte `end` of `text` (occupies
    /// `[end - length, end)`), or 0 when no word does. Never reads outside `text`.
    /// Fast (one walk of the reverse trie) once `prepare_reverse()` has run, as `FmmSegmenter`
    /// does for its reverse modes; before that it never builds anything (it cannot fail) and
    /// answers with forward lookups of each candidate suffix, O(max_word_length()^2).
    [[nodiscard]] std::size_t longest_suffix(std::string_view text, std::size_t end) const noexcept {
        end = end < text.size() ? end : text.size();
        if (m_static != nullptr) return m_static->longest_suffix(text, end);
        if (!m_reverse_ready.load(std::memory_order_acquire)) return longest_suffix_forward(text, end);
        const detail::seg_trie& rev = m_reverse;
        if (!rev.has_nodes()) return 0;
        std::uint32_t node = 0;
        std::size_t best = 0;
        std::size_t p = end;
        while (p > 0) {
            const utf8::decoded d = detail::seg_decode_before(text, p);
            if (!d.valid) break;
            node = rev.child(node, d.code_point);
            if (node == 0) break;
            p -= d.length;
            if (rev.terminal(node)) best = end - p;
        }
        return best;
    }

    /// Calls `f(std::string_view word)` for every word (UTF-8; the view is valid during the
    /// call only). Words present at the last rebuild come in code-point order.
    template <class F>
    void for_each_word(F&& f) const {
        if (m_static != nullptr) {
            m_static->for_each_word(f);
            return;
        }
        std::string buf;
        m_forward.for_each_word([&](const char32_t* w, std::size_t n) {
            buf.clear();
            for (std::size_t i = 0; i < n; ++i) utf8::append(buf, w[i]);
            f(std::string_view(buf));
        });
    }

    /// Builds the reverse trie (for reverse matching) now if it is not built yet. Idempotent and
    /// thread-safe. Complexity: O(total length of the words), 70-110 ms CPU for the 349k-word
    /// jieba list in a fresh process; nothing for precomputed tries (`from_precomputed`).
    /// \throws std::bad_alloc
    void prepare_reverse() const {
        if (m_static == nullptr) (void)reverse_trie();
    }

    /// Bytes of heap memory held (capacity of the internal arrays); 0 for a dictionary over
    /// precomputed tries (`from_precomputed`), whose data is static.
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        std::size_t bytes = m_forward.memory_bytes();
        if (m_reverse_ready.load(std::memory_order_acquire)) bytes += m_reverse.memory_bytes();
        return bytes;
    }

private:
    // Validates one word field and appends it when made of Han characters.
    static void collect_word(std::string_view word, detail::seg_word_list& words, std::size_t line_no,
                             std::size_t column) {
        const detail::dict_word_kind k = decode_word(word, words.cps);
        if (k == detail::dict_word_kind::han) {
            words.offsets.push_back(static_cast<std::uint32_t>(words.cps.size()));
        } else if (k != detail::dict_word_kind::mixed) {
            detail::throw_parse_error(std::string("semfp: malformed dictionary line: ") + detail::dict_word_problem(k),
                                      line_no, column);
        }
    }

    static void parse_line(std::string_view v, std::size_t line_no, std::size_t col0, detail::seg_word_list& words) {
        const detail::dict_line_word w = detail::dict_split_line(v, line_no, col0);
        if (!w.word.empty()) collect_word(w.word, words, line_no, w.column);
    }

    // The class of a character, as the word checks need it.
    [[nodiscard]] static constexpr detail::dict_char char_kind(char32_t c) noexcept {
        if (is_han(c)) return detail::dict_char::han;
        const char_class k = classify(c);
        if (k == char_class::space) return detail::dict_char::space;
        return is_separator(k) ? detail::dict_char::separator : detail::dict_char::other;
    }
    // Decodes `word` into `out` (appending) when it is made of Han characters only.
    static detail::dict_word_kind decode_word(std::string_view word, std::vector<char32_t>& out) {
        return detail::decode_dict_word(word, out, [](char32_t c) noexcept { return char_kind(c); });
    }

    // True when inserting a word of `n` code points should rebuild instead.
    [[nodiscard]] bool needs_compaction(std::size_t n) const noexcept {
        const std::size_t limit = m_forward.static_nodes() / 4 + 4096;
        return m_forward.dynamic_nodes() + n > limit || m_reverse.dynamic_nodes() + n > limit;
    }

    // Rebuilds both tries from the current words plus `extra`. Strong guarantee.
    void rebuild_with(const detail::seg_word_list& extra) {
        detail::seg_word_list all;
        all.cps.reserve(extra.cps.size() + m_forward.size() * 3);
        all.offsets.reserve(extra.size() + m_forward.size() + 1);
        m_forward.for_each_word([&](const char32_t* w, std::size_t n) { all.push(w, n); });
        const std::size_t existing = all.size();
        if (existing == 0) {
            build_both(extra);
            return;
        }
        all.cps.insert(all.cps.end(), extra.cps.begin(), extra.cps.end());
        for (std::size_t i = 1; i < extra.offsets.size(); ++i)
            all.offsets.push_back(static_cast<std::uint32_t>(all.offsets[existing] + extra.offsets[i]));
        build_both(all);
    }

    // Replaces the content by `words`. Strong guarantee.
    void build_both(const detail::seg_word_list& words) {
        detail::seg_trie fwd;
        fwd.build(words);
        detail::seg_trie bwd;
        const bool with_reverse = m_reverse_ready.load(std::memory_order_relaxed);
        if (with_reverse) bwd.build(detail::seg_reversed_words(words));
        m_forward.swap(fwd);
        m_reverse.swap(bwd);
    }

    // The reverse trie, built on first use (double-checked; the flag is published last).
    /// `longest_suffix` without the reverse trie: each suffix of up to max_word_length() code
    /// points (a word never spans invalid UTF-8) looked up in the forward trie.
    [[nodiscard]] std::size_t longest_suffix_forward(std::string_view text, std::size_t end) const noexcept {
        std::size_t best = 0;
        std::size_t p = end;
        for (std::size_t cps = 0; p > 0 && cps < max_word_length(); ++cps) {
            const utf8::decoded d = detail::seg_decode_before(text, p);
            if (!d.valid) break;
            p -= d.length;
            if (contains(text.substr(p, end - p))) best = end - p;
        }
        return best;
    }

    [[nodiscard]] const detail::seg_trie& reverse_trie() const {
        if (!m_reverse_ready.load(std::memory_order_acquire)) {
            const std::lock_guard<std::mutex> lock(m_reverse_mutex);
            if (!m_reverse_ready.load(std::memory_order_relaxed)) {
                detail::seg_word_list rev;
                rev.cps.reserve(m_forward.size() * 3);
                rev.offsets.reserve(m_forward.size() + 1);
                m_forward.for_each_reversed_word([&](const char32_t* w, std::size_t n) { rev.push(w, n); });
                detail::seg_trie bwd;
                bwd.build(rev);
                m_reverse.swap(bwd);
                m_reverse_ready.store(true, std::memory_order_release);
            }
        }
        return m_reverse;
    }

    // Replaces precomputed tries by tries of its own (forward and reverse) holding the same
    // words; nothing to do otherwise. Strong guarantee.
    void materialize() {
        if (m_static == nullptr) return;
        detail::seg_word_list words;
        words.cps.reserve(m_static->word_count * 3);
        words.offsets.reserve(m_static->word_count + 1);
        m_static->for_each_word([&](std::string_view w) {
            if (decode_word(w, words.cps) == detail::dict_word_kind::han)
                words.offsets.push_back(static_cast<std::uint32_t>(words.cps.size()));
        });
        detail::seg_trie fwd;
        fwd.build(words);
        detail::seg_trie bwd;
        bwd.build(detail::seg_reversed_words(words));
        m_forward.swap(fwd);
        m_reverse.swap(bwd);
        m_reverse_ready.store(true, std::memory_order_release);
        m_static = nullptr;
    }

    // The segmenter's forward mode walks precomputed tries through `m_static` directly.
    friend class FmmSegmenter;

    detail::seg_trie m_forward;
    mutable detail::seg_trie m_reverse;             // valid when m_reverse_ready
    mutable std::atomic<bool> m_reverse_ready{false};
    mutable std::mutex m_reverse_mutex;             // serialises the lazy build of m_reverse
    const detail::seg_static_dict* m_static = nullptr;  // precomputed tries in use, if any
};

}  // namespace v0
}  // namespace semfp
