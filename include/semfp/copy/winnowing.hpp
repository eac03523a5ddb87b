#pragma once
/// \file
/// Winnowing (Schleimer, Wilkerson and Aiken, SIGMOD 2003): a position-carrying subset of a
/// text's k-gram hashes that any other text sharing a long enough run is guaranteed to share.
///
/// Why the design is what it is:
/// - Tokens come from any `Tokenizer`, so the same selector works on code points
///   (`CharNgramTokenizer<1>`, the default: punctuation and white space are never tokens, so a
///   copy survives re-punctuation), bigrams or dictionary words. Tokens are views into the text,
///   so each k-gram knows its byte span without a second pass.
/// - A k-gram's hash is a polynomial over its tokens' hashes, `sum H(tok[i+j]) * B^(k-1-j)`
///   (mod 2^64), updated in O(1) per token (a rolling hash), then passed through MurmurHash3's
///   finalizer so that the minimum of a window is a uniformly chosen k-gram.
/// - In every window of w = t - k + 1 consecutive k-gram hashes the minimum is selected (the
///   rightmost one on ties) and recorded once, with a monotonic queue: O(1) amortized per
///   k-gram, whatever the text, so one repeated character costs linear time. The guarantee:
///   two texts that share a run of at least t tokens share at least one selected hash, because
///   that run contains a whole window. Expected density on random text: 2 / (w + 1).
/// - Robust winnowing (same paper, section 4.3) keeps the previous selection while it is still
///   in the window and still minimal, so low-entropy text ("aaaa...", repeated table rows)
///   yields one fingerprint per window instead of one per k-gram.
/// - Offsets through normalization: `winnow(const normalized_text&)` reports spans in the
///   ORIGINAL text through `normalize_with_offsets`'s map, so a copy found after width or
///   Traditional->Simplified folding is located in the caller's bytes.
/// - The sentence blocks of the Chinese semantic-fingerprint articles ("information copy
///   detection"): every sentence with at least `min_keywords` tokens hashed whole
///   (`sentence_blocks`), a coarser fingerprint that ignores where a window falls.

#include <semfp/concepts.hpp>
#include <semfp/core/hash.hpp>
#include <semfp/core/simhash.hpp>
#include <semfp/error.hpp>
#include <semfp/text/normalize.hpp>
#include <semfp/text/sentences.hpp>
#include <semfp/text/tokenizers.hpp>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace semfp {
inline namespace v0 {

/// Parameters of `Winnower`.
struct winnow_options {
    std::size_t k = 10;    ///< noise threshold: tokens per hashed k-gram (>= 1)
    std::size_t t = 30;    ///< guarantee threshold: every shared run of >= t tokens is found (>= k)
    bool robust = false;   ///< robust winnowing: keep the previous selection on ties
};

/// One selected k-gram: its hash, the index of its first token, and its byte span.
struct winnow_fingerprint {
    std::uint64_t hash = 0;     ///< finalized k-gram hash
    std::size_t token = 0;      ///< index of the k-gram's first token in the text's token sequence
    std::size_t begin = 0;      ///< first byte of the k-gram's first token
    std::size_t end = 0;        ///< one past the last byte of its last token
    friend constexpr bool operator==(const winnow_fingerprint&, const winnow_fingerprint&) noexcept = default;
};

/// Operation counts of one `Winnower::winnow` call (the linear-time claim, checked by tests).
struct winnow_counters {
    std::size_t tokens = 0;       ///< tokens read
    std::size_t kgrams = 0;       ///< k-gram hashes computed
    std::size_t queue_steps = 0;  ///< pushes plus pops of the monotonic queue (<= 2 * kgrams + ...)
};

/// Selects winnowing fingerprints from texts.
///
/// \tparam Tok the tokenizer (default: single code points of CJK runs, other words whole)
/// \tparam Hash the token hash policy
/// Thread-safe for concurrent const use. Every member is linear in the text length.
template <Tokenizer Tok = CharNgramTokenizer<1>, HashPolicy Hash = default_hash>
class Winnower {
public:
    /// Multiplier of the polynomial k-gram hash (odd, so powers never vanish mod 2^64).
    static constexpr std::uint64_t base = 0x100000001b3ull * 2 + 1;

    /// Creates a winnower. Throws `invalid_argument_error` when `k == 0` or `t < k`.
    explicit Winnower(winnow_options options = {}, Tok tokenizer = {}) : m_options(options), m_tok(std::move(tokenizer)) {
        if (options.k == 0) detail::throw_invalid_argument("semfp: winnowing k must be at least 1");
        if (options.t < options.k) detail::throw_invalid_argument("semfp: winnowing t must be at least k");
        m_high = 1;
        for (std::size_t i = 1; i < options.k; ++i) m_high *= base;
    }

    /// The options given at construction.
    [[nodiscard]] const winnow_options& options() const noexcept { return m_options; }
    /// Window length w = t - k + 1, in k-grams.
    [[nodiscard]] std::size_t window() const noexcept { return m_options.t - m_options.k + 1; }

    /// Every k-gram of `text` in order (hash, first token, byte span in `text`), appended to
    /// `out`. A text with fewer than k tokens has none. The reference sequence the selection
    /// is made from.
    void kgrams(std::string_view text, std::vector<winnow_fingerprint>& out, winnow_counters* counters = nullptr) const {
        const std::size_t k = m_options.k;
        // Ring of the last k tokens: hash and byte span.
        struct tok_rec {
            std::uint64_t hash;
            std::size_t begin, end;
        };
        std::vector<tok_rec> ring(k);
        std::uint64_t h = 0;
        std::size_t count = 0;
        m_tok.tokenize(text, [&](std::string_view token) {
            const std::uint64_t th = Hash::hash64(token);
            const auto begin = static_cast<std::size_t>(token.data() - text.data());
            tok_rec& slot = ring[count % k];
            if (count >= k) h -= slot.hash * m_high;
            h = h * base + th;
            slot = {th, begin, begin + token.size()};
            ++count;
            if (count >= k) {
                const tok_rec& first = ring[count % k];
                out.push_back({detail::fmix64(h), count - k, first.begin, begin + token.size()});
            }
        });
        if (counters) {
            counters->tokens += count;
            counters->kgrams += count >= k ? count - k + 1 : 0;
        }
    }

    /// The winnowing fingerprints of `text`, appended to `out` in text order, spans in bytes of
    /// `text`. In every window of `window()` consecutive k-grams the minimum hash is selected
    /// (the rightmost on ties; with `robust`, the previous selection while it is still in the
    /// window and minimal), and each selected k-gram is recorded once. A text with at least k
    /// but fewer than `window()` k-grams forms one window; one with fewer than k tokens gives
    /// nothing. Invalid UTF-8 and NUL bytes are handled as the tokenizer handles them.
    /// Complexity: O(text.size()) plus the tokenizer; one allocation for the k-gram list.
    void winnow(std::string_view text, std::vector<winnow_fingerprint>& out, winnow_counters* counters = nullptr) const {
        std::vector<winnow_fingerprint> grams;
        kgrams(text, grams, counters);
        select(grams, out, counters);
    }

    /// `winnow` of a text to a new vector.
    [[nodiscard]] std::vector<winnow_fingerprint> operator()(std::string_view text) const {
        std::vector<winnow_fingerprint> out;
        winnow(text, out);
        return out;
    }

    /// The fingerprints of a normalized text with spans mapped back to the ORIGINAL text it was
    /// normalized from (`normalize_with_offsets`): a span cutting a folded unit covers all of it.
    void winnow(const normalized_text& text, std::vector<winnow_fingerprint>& out) const {
        const std::size_t from = out.size();
        winnow(std::string_view(text.text), out);
        for (std::size_t i = from; i < out.size(); ++i) {
            const auto r = text.original_range(out[i].begin, out[i].end);
            out[i].begin = r.begin;
            out[i].end = r.end;
        }
    }

    /// Normalizes `original` with `options` and winnows it; spans are bytes of `original`.
    [[nodiscard]] std::vector<winnow_fingerprint> winnow_original(std::string_view original,
                                                                  const normalize_options& options = {}) const {
        std::vector<winnow_fingerprint> out;
        winnow(normalize_with_offsets(original, options), out);
        return out;
    }

    /// The selection step alone: winnows a k-gram sequence (as produced by `kgrams`).
    void select(const std::vector<winnow_fingerprint>& grams, std::vector<winnow_fingerprint>& out,
                winnow_counters* counters = nullptr) const {
        if (grams.empty()) return;
        const std::size_t w = window();
        // Monotonic queue of k-gram indices with strictly increasing hashes from front to back:
        // the front is the rightmost minimum of the current window.
        std::deque<std::size_t> q;
        std::size_t steps = 0;
        std::size_t last = grams.size();  // index of the last recorded selection, none yet
        const std::size_t windows = grams.size() >= w ? grams.size() - w + 1 : 1;
        std::size_t next_in = 0;
        for (std::size_t start = 0; start < windows; ++start) {
            const std::size_t stop = grams.size() >= w ? start + w : grams.size();
            for (; next_in < stop; ++next_in) {
                while (!q.empty() && grams[q.back()].hash >= grams[next_in].hash) {
                    q.pop_back();
                    ++steps;
                }
                q.push_back(next_in);
                ++steps;
            }
            while (q.front() < start) {
                q.pop_front();
                ++steps;
            }
            std::size_t pick = q.front();
            if (m_options.robust && last != grams.size() && last >= start && grams[last].hash == grams[pick].hash) pick = last;
            if (pick != last) {
                out.push_back(grams[pick]);
                last = pick;
            }
        }
        if (counters) counters->queue_steps += steps;
    }

    /// The articles' sentence blocks: every sentence of `text` (`for_each_sentence`) with at
    /// least `min_keywords` tokens yields one fingerprint, the hash of its token sequence (so
    /// white space and punctuation inside do not matter), `token` set to the number of tokens of
    /// the sentences before it and the span of the sentence in `text`. Complexity: linear.
    void sentence_blocks(std::string_view text, std::size_t min_keywords, std::vector<winnow_fingerprint>& out) const {
        std::size_t tokens_before = 0;
        for_each_sentence(text, [&](std::string_view sentence, std::size_t offset) {
            std::uint64_t h = 0;
            std::size_t count = 0;
            m_tok.tokenize(sentence, [&](std::string_view token) {
                h = h * base + Hash::hash64(token);
                ++count;
            });
            if (count != 0 && count >= min_keywords) out.push_back({detail::fmix64(h ^ count), tokens_before, offset, offset + sentence.size()});
            tokens_before += count;
        });
    }

private:
    winnow_options m_options;
    Tok m_tok;
    std::uint64_t m_high = 1;  // base^(k-1)
};

}  // namespace v0
}  // namespace semfp
