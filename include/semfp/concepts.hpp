#pragma once
/// \file
/// The concepts that let semfp's components compose at compile time: `TokenSink`, `Tokenizer`
/// and `HashPolicy`, and the 128-bit hash value type they share.

#include <concepts>
#include <cstdint>
#include <string_view>

namespace semfp {
inline namespace v0 {

/// A 128-bit hash value as two 64-bit halves.
struct hash128_t {
    std::uint64_t lo = 0;  ///< least significant 64 bits
    std::uint64_t hi = 0;  ///< most significant 64 bits
    friend constexpr bool operator==(const hash128_t&, const hash128_t&) noexcept = default;
};

/// A callback that receives tokens: invocable with a `std::string_view` that stays valid only
/// for the duration of the call.
template <class F>
concept TokenSink = std::invocable<F&, std::string_view>;

namespace detail {
/// The weakest sink a tokenizer must accept; used to check the `Tokenizer` concept.
struct token_sink_archetype {
    void operator()(std::string_view) const noexcept {}
};
}  // namespace detail

/// A tokenizer feeds the tokens of a UTF-8 text to a sink, in order, as views into that text,
/// without allocating per token: `t.tokenize(text, sink)` on a const tokenizer.
template <class T>
concept Tokenizer = requires(const T& tokenizer, std::string_view text, detail::token_sink_archetype& sink) {
    tokenizer.tokenize(text, sink);
};

/// A stateless string hash with 64- and 128-bit outputs, both `noexcept` (and `constexpr` for
/// the bundled policies).
template <class H>
concept HashPolicy = requires(std::string_view bytes) {
    { H::hash64(bytes) } noexcept -> std::same_as<std::uint64_t>;
    { H::hash128(bytes) } noexcept -> std::same_as<hash128_t>;
};

}  // namespace v0
}  // namespace semfp
