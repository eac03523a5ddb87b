#pragma once
/// \file
/// Stopword filtering: `StopwordList` (a set of words), `bundled_stopwords()` (794 Chinese
/// stopwords from the MIT-licensed stopwords-zh package) and `StopwordFilter<Tok>`, a tokenizer
/// adaptor that drops the tokens of another tokenizer found in a list.

#include <semfp/concepts.hpp>
#include <semfp/detail/list_lines.hpp>
#include <semfp/detail/string_hash.hpp>
#include <semfp/error.hpp>
#include <semfp/text/data/stopwords_zh.hpp>
#include <semfp/text/utf8.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <istream>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace semfp {
inline namespace v0 {
namespace detail {

/// The key of a word in a stopword list's prefilter (its top 16 bits are used), from its first
/// and last (up to) eight bytes read as little-endian integers (`first`, `last`; only `first`
/// counts when the word is at most eight bytes long) and its length `n`. One multiplication for
/// short words, which is how the fused fingerprint pass computes it for every token.
[[nodiscard]] constexpr std::uint64_t stopword_key_parts(std::uint64_t first, std::uint64_t last, std::size_t n) noexcept {
    std::uint64_t h = (first ^ (static_cast<std::uint64_t>(n) << 58)) * 0x9E3779B97F4A7C15ull;
    if (n > 8) h = (h ^ last) * 0xC2B2AE3D27D4EB4Full;
    return h;
}

/// The prefilter key of `w` (see `stopword_key_parts`).
[[nodiscard]] constexpr std::uint64_t stopword_key(std::string_view w) noexcept {
    const std::size_t n = w.size();
    const std::size_t k = n < 8 ? n : 8;
    std::uint64_t first = 0, last = 0;
    for (std::size_t i = 0; i < k; ++i) {
        first |= std::uint64_t{static_cast<unsigned char>(w[i])} << (8 * i);
        last |= std::uint64_t{static_cast<unsigned char>(w[n - k + i])} << (8 * i);
    }
    return stopword_key_parts(first, last, n);
}

}  // namespace detail

/// A set of words with a fast membership test (open addressing over one string arena).
/// Lookups are `noexcept` and allocation-free; adding may allocate.
class StopwordList {
public:
    /// An empty list.
    StopwordList() = default;

    /// A list of `words` (duplicates and empty words are ignored).
    explicit StopwordList(std::span<const std::string_view> words) {
        for (auto w : words) add(w);
    }

    /// Adds `word`; no effect if it is empty or already present.
    void add(std::string_view word) {
        if (word.empty() || contains(word)) return;
        if ((m_entries.size() + 1) * 2 > m_slots.size()) rehash(m_slots.empty() ? 64 : m_slots.size() * 2);
        if (m_filter.empty()) m_filter.assign(filter_words, 0);
        m_entries.push_back({m_arena.size(), word.size()});
        m_arena.append(word);
        const std::uint64_t key = detail::stopword_key(word);
        m_filter[key >> (64 - filter_log2 + 6)] |= std::uint64_t{1} << ((key >> (64 - filter_log2)) & 63);
        insert_slot(static_cast<std::uint32_t>(m_entries.size() - 1), word);
        if (word.size() > m_max_length) m_max_length = word.size();
    }

    /// Reads one word per line from `in` (UTF-8; a BOM, CRLF line ends, blank lines and lines
    /// starting with `#` are accepted; anything after the first tab or space is ignored).
    /// Throws `semfp::parse_error` naming the line for invalid UTF-8; the list is then unchanged.
    void load(std::istream& in) {
        StopwordList copy = *this;
        detail::for_each_list_line(in, "stopword list", [&](std::string_view v, std::size_t line_no) {
            const std::size_t cut = v.find_first_of(" \t");
            if (cut != std::string_view::npos) v = v.substr(0, cut);
            if (!utf8::is_valid(v)) detail::throw_parse_error("stopword list: invalid UTF-8", line_no, 0);
            copy.add(v);
        });
        *this = std::move(copy);
    }

    /// True when `word` is in the list. O(|word|); never allocates.
    [[nodiscard]] bool contains(std::string_view word) const noexcept {
        if (m_slots.empty() || word.size() > m_max_length || word.empty()) return false;
        const std::size_t mask = m_slots.size() - 1;
        for (std::size_t s = slot_of(word) & mask;; s = (s + 1) & mask) {
            const std::uint32_t e = m_slots[s];
            if (e == empty_slot) return false;
            if (entry(e) == word) return true;
        }
    }

    /// False when no word of the list has prefilter key `key` (`detail::stopword_key`), so a
    /// word with that key is not in the list; true means "maybe": ask `contains`. O(1).
    [[nodiscard]] bool may_contain_key(std::uint64_t key) const noexcept {
        if (m_filter.empty()) return false;
        return ((m_filter[key >> (64 - filter_log2 + 6)] >> ((key >> (64 - filter_log2)) & 63)) & 1u) != 0;
    }

    /// Number of key bits that index the prefilter: the bit of key `key` is bit
    /// `(key >> (64 - prefilter_bits)) & 63` of word `key >> (64 - prefilter_bits + 6)`.
    static constexpr unsigned prefilter_bits = 16;

    /// The prefilter that `may_contain_key` reads, as its words (`1 << (prefilter_bits - 6)` of
    /// them; none while the list is empty), so that a loop over many keys can hold it. Valid
    /// until the list changes.
    [[nodiscard]] std::span<const std::uint64_t> prefilter() const noexcept { return m_filter; }

    /// Number of words.
    [[nodiscard]] std::size_t size() const noexcept { return m_entries.size(); }
    /// True when the list has no words.
    [[nodiscard]] bool empty() const noexcept { return m_entries.empty(); }

private:
    struct span_ref {
        std::size_t offset;
        std::size_t length;
    };
    static constexpr std::uint32_t empty_slot = 0xFFFFFFFFu;
    // The prefilter: one bit per key prefix of filter_log2 bits (8 KiB; the bundled list sets
    // about 1% of the bits).
    static constexpr unsigned filter_log2 = prefilter_bits;
    static constexpr std::size_t filter_words = std::size_t{1} << (filter_log2 - 6);

    [[nodiscard]] static std::size_t slot_of(std::string_view w) noexcept {
        return static_cast<std::size_t>(detail::set_hash64(w));
    }
    [[nodiscard]] std::string_view entry(std::uint32_t e) const noexcept {
        return std::string_view(m_arena).substr(m_entries[e].offset, m_entries[e].length);
    }
    void insert_slot(std::uint32_t e, std::string_view w) noexcept {
        const std::size_t mask = m_slots.size() - 1;
        std::size_t s = slot_of(w) & mask;
        while (m_slots[s] != empty_slot) s = (s + 1) & mask;
        m_slots[s] = e;
    }
    void rehash(std::size_t n) {
        m_slots.assign(n, empty_slot);
        for (std::uint32_t e = 0; e < m_entries.size(); ++e) insert_slot(e, entry(e));
    }

    std::string m_arena;
    std::vector<span_ref> m_entries;
    std::vector<std::uint32_t> m_slots;
    std::vector<std::uint64_t> m_filter;  // empty until the first word
    std::size_t m_max_length = 0;
};

/// The bundled Chinese stopword list (stopwords-zh 0.4.0, MIT; 794 words and punctuation marks,
/// Simplified script). Built once, thread-safely, on first use.
[[nodiscard]] inline const std::shared_ptr<const StopwordList>& bundled_stopwords() {
    static const std::shared_ptr<const StopwordList> list =
        std::make_shared<const StopwordList>(std::span<const std::string_view>(detail::stopwords_zh));
    return list;
}

/// A tokenizer adaptor that forwards the tokens of `Tok` except those in a stopword list.
/// Copies share the list. Models `Tokenizer` whenever `Tok` does.
template <Tokenizer Tok>
class StopwordFilter {
public:
    /// Filters a default-constructed `Tok` with the bundled Chinese list.
    StopwordFilter()
        requires std::default_initializable<Tok>
        : StopwordFilter(Tok{}) {}

    /// Filters `tok` with the bundled Chinese list.
    explicit StopwordFilter(Tok tok) : StopwordFilter(std::move(tok), bundled_stopwords()) {}

    /// Filters `tok` with `list` (shared, not copied).
    StopwordFilter(Tok tok, std::shared_ptr<const StopwordList> list)
        : m_tokenizer(std::move(tok)), m_list(std::move(list)) {
        if (!m_list) detail::throw_invalid_argument("StopwordFilter: null stopword list");
    }

    /// Feeds the tokens of `text` that are not stopwords to `sink`.
    template <TokenSink Sink>
    void tokenize(std::string_view text, Sink&& sink) const {
        const StopwordList& list = *m_list;
        m_tokenizer.tokenize(text, [&](std::string_view token) {
            if (!list.contains(token)) sink(token);
        });
    }

    /// The wrapped tokenizer.
    [[nodiscard]] const Tok& inner() const noexcept { return m_tokenizer; }
    /// The stopword list.
    [[nodiscard]] const StopwordList& stopwords() const noexcept { return *m_list; }

private:
    Tok m_tokenizer;
    std::shared_ptr<const StopwordList> m_list;
};

}  // namespace v0
}  // namespace semfp
