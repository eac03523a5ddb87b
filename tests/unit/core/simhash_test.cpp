#include "support/catch.hpp"
#include "support/edits.hpp"
#include "support/sample_text.hpp"

#include <semfp/core/fingerprinter.hpp>
#include <semfp/core/simhash.hpp>
#include <semfp/text/stopwords.hpp>

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

// Reference Simhash: signed votes in 64-bit integers, straight from the definition.
template <std::size_t Bits, class Hash>
semfp::Fingerprint<Bits> reference_simhash(const std::vector<std::pair<std::string, std::uint32_t>>& features) {
    std::vector<std::int64_t> votes(Bits, 0);
    for (const auto& [f, w] : features) {
        const auto h = semfp::detail::feature_bits<Bits, Hash>(f);
        for (std::size_t i = 0; i < Bits; ++i) {
            const bool set = (h[Bits / 64 - 1 - i / 64] >> (i % 64)) & 1u;
            votes[i] += set ? std::int64_t{w} : -std::int64_t{w};
        }
    }
    typename semfp::Fingerprint<Bits>::storage_type out{};
    for (std::size_t i = 0; i < Bits; ++i)
        if (votes[i] > 0) out[Bits / 64 - 1 - i / 64] |= std::uint64_t{1} << (i % 64);
    return semfp::Fingerprint<Bits>(out);
}

}  // namespace

TEMPLATE_TEST_CASE_SIG("Simhash equals the textbook definition", "[simhash]", ((std::size_t B), B), 64, 128) {
    std::mt19937 rng(7);
    for (int round = 0; round < 50; ++round) {
        std::vector<std::pair<std::string, std::uint32_t>> features;
        const int n = static_cast<int>(rng() % 40);
        for (int i = 0; i < n; ++i)
            features.emplace_back("f" + std::to_string(rng() % 1000), static_cast<std::uint32_t>(1 + rng() % 50));
        semfp::Simhash<B, semfp::Mixed<semfp::Fnv1a>> acc;
        for (const auto& [f, w] : features) acc.add(f, w);
        CHECK(acc.finish() == reference_simhash<B, semfp::Mixed<semfp::Fnv1a>>(features));
    }
}

TEMPLATE_TEST_CASE_SIG("Simhash equals the definition for weights of every counter width", "[simhash]",
                       ((std::size_t B), B), 64, 128) {
    // Small weights use 8-bit counters, weights up to 65,535 16-bit counters, larger ones 32-bit
    // lanes; many features force every kind of counter to be flushed mid-way.
    std::mt19937 rng(11);
    for (int round = 0; round < 40; ++round) {
        std::vector<std::pair<std::string, std::uint32_t>> features;
        const int n = static_cast<int>(rng() % 600);
        for (int i = 0; i < n; ++i) {
            const auto kind = rng() % 3;
            const auto w = static_cast<std::uint32_t>(kind == 0   ? 1 + rng() % 255
                                                      : kind == 1 ? 256 + rng() % (65536 - 256)
                                                                  : 65536 + rng() % 1000000);
            features.emplace_back("f" + std::to_string(rng() % 500), w);
        }
        semfp::Simhash<B, semfp::Mixed<semfp::Fnv1a>> acc;
        for (const auto& [f, w] : features) acc.add(f, w);
        CHECK(acc.finish() == reference_simhash<B, semfp::Mixed<semfp::Fnv1a>>(features));
    }
}

TEST_CASE("Simhash basics", "[simhash]") {
    semfp::Simhash<64> empty;
    CHECK(empty.finish() == semfp::Fingerprint<64>{});
    CHECK(empty.total_weight() == 0);

    semfp::Simhash<64, semfp::Murmur3> one;
    one.add("hello", 5);
    CHECK(one.finish().value() == semfp::Murmur3::hash64("hello"));  // a single feature is its own hash
    one.add("ignored", 0);
    CHECK(one.finish().value() == semfp::Murmur3::hash64("hello"));

    // Adding twice with weight w equals adding once with 2w.
    semfp::Simhash<128> a, b;
    a.add("x", 3);
    a.add("x", 3);
    a.add("y", 5);
    b.add("x", 6);
    b.add("y", 5);
    CHECK(a.finish() == b.finish());
    a.reset();
    CHECK(a.finish() == semfp::Fingerprint<128>{});
}

TEST_CASE("Simhash sums do not overflow with huge weights", "[simhash]") {
    semfp::Simhash<64, semfp::Murmur3> acc;
    for (int i = 0; i < 5; ++i) acc.add("heavy", 0xFFFFFFFFu);  // forces block flushes
    acc.add("light", 0xFFFFFFFFu);
    CHECK(acc.total_weight() == 6ull * 0xFFFFFFFFull);
    CHECK(acc.finish().value() == semfp::Murmur3::hash64("heavy"));
}
