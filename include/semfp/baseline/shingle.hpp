#pragma once
/// \file
/// The Shingle baseline: `ShingleSet` (the set of w-shingles of a text's tokens, as 64-bit
/// hashes), `Shingler<Tok, Hash>` (text -> `ShingleSet`, normalizing like `Fingerprinter`), and
/// exact `jaccard` / `containment` of two sets.
///
/// A w-shingle is a run of w consecutive tokens (Broder 1997). Tokens come from any
/// `semfp::Tokenizer` after `semfp::normalize_into`, so a `Shingler` and a `Fingerprinter` with
/// the same tokenizer and normalization see exactly the same tokens.

#include <semfp/concepts.hpp>
#include <semfp/core/fingerprinter.hpp>
#include <semfp/core/hash.hpp>
#include <semfp/core/simhash.hpp>
#include <semfp/error.hpp>
#include <semfp/text/normalize.hpp>
#include <semfp/text/tokenizers.hpp>

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace semfp {
inline namespace v0 {
namespace detail {

/// Combines the hashes of the tokens of one shingle, in order, into the shingle's hash.
/// Order-sensitive ("a b c" != "c b a"); every step is a bijection of the running state.
[[nodiscard]] constexpr std::uint64_t shingle_hash(std::span<const std::uint64_t> token_hashes) noexcept {
    std::uint64_t h = 0x9e3779b97f4a7c15ull ^ token_hashes.size();
    for (const std::uint64_t t : token_hashes) h = fmix64(h + t * 0xc6a4a7935bd1e995ull);
    return h;
}

}  // namespace detail

/// A set of shingles, stored as their 64-bit hashes in a sorted vector without duplicates.
///
/// A regular value type. Two sets compare equal when they hold the same hashes. Set operations
/// (`jaccard`, `containment`) merge the sorted vectors in linear time. Distinct shingles collide
/// with probability about n^2 / 2^65 for n shingles, which is negligible for documents.
class ShingleSet {
public:
    /// The empty set.
    ShingleSet() = default;

    /// The set of `hashes` (any order, duplicates allowed). O(n log n).
    explicit ShingleSet(std::vector<std::uint64_t> hashes) : m_hashes(std::move(hashes)) {
        std::sort(m_hashes.begin(), m_hashes.end());
        m_hashes.erase(std::unique(m_hashes.begin(), m_hashes.end()), m_hashes.end());
    }

    /// The w-shingles of the tokens `tok` gives for the normalized `text` (see `Shingler`).
    /// Throws `semfp::invalid_argument_error` when `width` is 0.
    template <HashPolicy Hash = default_hash, Tokenizer Tok>
    [[nodiscard]] static ShingleSet from_text(const Tok& tok, std::string_view text, std::size_t width = 3,
                                              const normalize_options& normalize = {});

    /// The hashes, sorted ascending, without duplicates.
    [[nodiscard]] std::span<const std::uint64_t> hashes() const noexcept { return m_hashes; }
    /// Number of distinct shingles.
    [[nodiscard]] std::size_t size() const noexcept { return m_hashes.size(); }
    /// True when the set has no shingles (a text without tokens).
    [[nodiscard]] bool empty() const noexcept { return m_hashes.empty(); }
    /// Iterators over the sorted hashes.
    [[nodiscard]] auto begin() const noexcept { return m_hashes.cbegin(); }
    [[nodiscard]] auto end() const noexcept { return m_hashes.cend(); }
    /// True when `hash` is in the set. O(log n).
    [[nodiscard]] bool contains(std::uint64_t hash) const noexcept {
        return std::binary_search(m_hashes.begin(), m_hashes.end(), hash);
    }

    friend bool operator==(const ShingleSet&, const ShingleSet&) = default;

private:
    std::vector<std::uint64_t> m_hashes;
};

/// Size of the intersection of two shingle sets. Linear merge: O(|a| + |b|).
[[nodiscard]] inline std::size_t intersection_size(const ShingleSet& a, const ShingleSet& b) noexcept {
    const auto x = a.hashes();
    const auto y = b.hashes();
    std::size_t i = 0, j = 0, n = 0;
    while (i < x.size() && j < y.size()) {
        if (x[i] < y[j]) {
            ++i;
        } else if (y[j] < x[i]) {
            ++j;
        } else {
            ++n;
            ++i;
            ++j;
        }
    }
    return n;
}

/// Exact Jaccard similarity |A n B| / |A u B|, in [0, 1]. Two empty sets (two texts without
/// tokens) are identical: 1. O(|a| + |b|).
[[nodiscard]] inline double jaccard(const ShingleSet& a, const ShingleSet& b) noexcept {
    if (a.empty() && b.empty()) return 1.0;
    const std::size_t inter = intersection_size(a, b);
    return static_cast<double>(inter) / static_cast<double>(a.size() + b.size() - inter);
}

/// Exact containment of `a` in `b`: |A n B| / |A|, in [0, 1] (1 when every shingle of `a` is in
/// `b`; not symmetric). An empty `a` is contained in anything: 1. O(|a| + |b|).
[[nodiscard]] inline double containment(const ShingleSet& a, const ShingleSet& b) noexcept {
    if (a.empty()) return 1.0;
    return static_cast<double>(intersection_size(a, b)) / static_cast<double>(a.size());
}

/// Reusable buffers of a `Shingler` call; reusing one makes shingling allocate only the result.
struct shingle_scratch {
    std::string text;                  ///< the normalized text
    std::vector<std::uint64_t> tokens; ///< token hashes
};

/// Text -> `ShingleSet`: normalize (as `Fingerprinter` does), tokenize with `Tok`, hash each
/// token with `Hash::hash64`, and hash every run of `width` consecutive tokens.
///
/// A text with k >= width tokens has the k - width + 1 shingles (fewer distinct ones when runs
/// repeat); a text with 1 <= k < width tokens has exactly one shingle made of all its tokens, so
/// short texts still compare; a text without tokens has the empty set. Linear in the text size
/// plus O(n log n) to sort n shingles. Const and thread-safe if `Tok::tokenize` is.
template <Tokenizer Tok = default_tokenizer, HashPolicy Hash = default_hash>
class Shingler {
public:
    using tokenizer_type = Tok;
    using hash_policy = Hash;

    /// A shingler with a default tokenizer, 3-token shingles and default normalization.
    Shingler()
        requires std::default_initializable<Tok>
    = default;

    /// A shingler with tokenizer `tok`, `width`-token shingles and normalization `normalize`.
    /// Throws `semfp::invalid_argument_error` when `width` is 0.
    explicit Shingler(Tok tok, std::size_t width = 3, normalize_options normalize = {})
        : m_tokenizer(std::move(tok)), m_width(width), m_normalize(normalize) {
        if (width == 0) detail::throw_invalid_argument("Shingler: shingle width must be at least 1");
    }

    /// The shingle set of `text`, using a per-thread scratch buffer.
    [[nodiscard]] ShingleSet operator()(std::string_view text) const {
        thread_local shingle_scratch scratch;
        return (*this)(text, scratch);
    }

    /// The shingle set of `text`, using the caller's scratch buffers.
    [[nodiscard]] ShingleSet operator()(std::string_view text, shingle_scratch& scratch) const {
        normalize_into(text, scratch.text, m_normalize);
        auto& tokens = scratch.tokens;
        tokens.clear();
        m_tokenizer.tokenize(std::string_view(scratch.text),
                             [&](std::string_view t) { tokens.push_back(Hash::hash64(t)); });
        std::vector<std::uint64_t> out;
        if (tokens.empty()) return ShingleSet(std::move(out));
        const std::span<const std::uint64_t> all(tokens);
        if (tokens.size() < m_width) {
            out.push_back(detail::shingle_hash(all));
        } else {
            out.reserve(tokens.size() - m_width + 1);
            for (std::size_t i = 0; i + m_width <= tokens.size(); ++i)
                out.push_back(detail::shingle_hash(all.subspan(i, m_width)));
        }
        return ShingleSet(std::move(out));
    }

    /// The tokenizer.
    [[nodiscard]] const Tok& tokenizer() const noexcept { return m_tokenizer; }
    /// Number of tokens per shingle.
    [[nodiscard]] std::size_t width() const noexcept { return m_width; }
    /// The normalization options.
    [[nodiscard]] const normalize_options& normalization() const noexcept { return m_normalize; }

private:
    Tok m_tokenizer{};
    std::size_t m_width = 3;
    normalize_options m_normalize{};
};

template <HashPolicy Hash, Tokenizer Tok>
ShingleSet ShingleSet::from_text(const Tok& tok, std::string_view text, std::size_t width,
                                 const normalize_options& normalize) {
    return Shingler<Tok, Hash>(tok, width, normalize)(text);
}

}  // namespace v0
}  // namespace semfp
