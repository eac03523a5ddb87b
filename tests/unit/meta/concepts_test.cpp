#include "support/catch.hpp"

#include <semfp/simhash.hpp>

#include <string_view>

namespace {
struct no_tokenize {};
struct wrong_signature {
    void tokenize(int) const {}
};
struct non_const_tokenize {
    template <class Sink>
    void tokenize(std::string_view, Sink&&) {}
};
struct my_tokenizer {
    template <semfp::TokenSink Sink>
    void tokenize(std::string_view text, Sink&& sink) const {
        sink(text);
    }
};
struct not_noexcept_hash {
    static std::uint64_t hash64(std::string_view) { return 0; }
    static semfp::hash128_t hash128(std::string_view) { return {}; }
};
struct only64_hash {
    static std::uint64_t hash64(std::string_view) noexcept { return 0; }
};
struct my_hash {
    static constexpr std::uint64_t hash64(std::string_view s) noexcept { return s.size(); }
    static constexpr semfp::hash128_t hash128(std::string_view s) noexcept { return {s.size(), 0}; }
};
}  // namespace

TEST_CASE("Tokenizer concept", "[concepts]") {
    STATIC_REQUIRE(semfp::Tokenizer<semfp::CharBigramTokenizer>);
    STATIC_REQUIRE(semfp::Tokenizer<semfp::CharNgramTokenizer<3>>);
    STATIC_REQUIRE(semfp::Tokenizer<semfp::WhitespaceTokenizer>);
    STATIC_REQUIRE(semfp::Tokenizer<semfp::StopwordFilter<semfp::CharBigramTokenizer>>);
    STATIC_REQUIRE(semfp::Tokenizer<my_tokenizer>);
    STATIC_REQUIRE_FALSE(semfp::Tokenizer<no_tokenize>);
    STATIC_REQUIRE_FALSE(semfp::Tokenizer<wrong_signature>);
    STATIC_REQUIRE_FALSE(semfp::Tokenizer<non_const_tokenize>);
    STATIC_REQUIRE_FALSE(semfp::Tokenizer<int>);
}

TEST_CASE("HashPolicy concept", "[concepts]") {
    STATIC_REQUIRE(semfp::HashPolicy<semfp::Sdbm>);
    STATIC_REQUIRE(semfp::HashPolicy<semfp::Fnv1a>);
    STATIC_REQUIRE(semfp::HashPolicy<semfp::Murmur3>);
    STATIC_REQUIRE(semfp::HashPolicy<semfp::Mixed<semfp::Sdbm>>);
    STATIC_REQUIRE(semfp::HashPolicy<my_hash>);
    STATIC_REQUIRE_FALSE(semfp::HashPolicy<not_noexcept_hash>);
    STATIC_REQUIRE_FALSE(semfp::HashPolicy<only64_hash>);
    STATIC_REQUIRE_FALSE(semfp::HashPolicy<int>);
}

TEST_CASE("user components compose at compile time", "[concepts]") {
    const semfp::Fingerprinter<my_tokenizer, my_hash> fp;
    CHECK(fp("abc") == semfp::Fingerprint<64>{3});
    STATIC_REQUIRE(semfp::TokenSink<void (*)(std::string_view)>);
    STATIC_REQUIRE_FALSE(semfp::TokenSink<void (*)(int*)>);
}

TEST_CASE("version", "[meta]") {
    CHECK(semfp::version_major == 0);
    CHECK(semfp::version_minor == 1);
}
