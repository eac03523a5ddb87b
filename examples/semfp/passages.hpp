#pragma once
// Longest passages two texts share, found with a suffix automaton: what `semfp compare` shows so
// a user sees why two texts match.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace semfp::cli {

/// A passage of both texts: code-point offsets and length, and its UTF-8 text.
struct passage {
    std::size_t a = 0;       ///< offset in the first text, in code points
    std::size_t b = 0;       ///< offset in the second text, in code points
    std::size_t length = 0;  ///< in code points
    std::string text;
};

/// Up to `count` longest non-overlapping passages (at least `min_length` code points) that occur
/// in both `a` and `b`, longest first. Maximal matches: none extends further in both texts.
/// O((|a| + |b|) log) time with a suffix automaton of `a` over code points.
[[nodiscard]] std::vector<passage> shared_passages(std::string_view a, std::string_view b, std::size_t count,
                                                   std::size_t min_length);

}  // namespace semfp::cli
