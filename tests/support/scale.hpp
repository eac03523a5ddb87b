#pragma once
// How many random cases the largest randomized tests run. Under the sanitizers (Debug, every
// access checked) a case costs 20-50 times what it costs in the developer build, so those tests
// run a part of their cases there; the developer build runs all of them. Every case kind still
// runs under the sanitizers: only the count shrinks.

#include <cstddef>

namespace semfp_test {

#if defined(SEMFP_SANITIZED_BUILD)
inline constexpr bool sanitized_build = true;
#else
inline constexpr bool sanitized_build = false;
#endif

/// `n` in the developer build, `n / divisor` (at least 1) under the sanitizers.
[[nodiscard]] constexpr std::size_t cases(std::size_t n, std::size_t divisor) noexcept {
    if (!sanitized_build) return n;
    return n / divisor > 0 ? n / divisor : 1;
}

}  // namespace semfp_test
