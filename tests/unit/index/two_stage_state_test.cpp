#include <semfp/detail/crc32c.hpp>
#include <semfp/index/signature_file.hpp>
#include <semfp/index/sketch_band_index.hpp>
#include <semfp/index/two_stage_clusterer.hpp>

#include "support/catch.hpp"

#include <array>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

semfp::MinHashSketch random_sketch(std::mt19937_64& rng) {
    semfp::MinHashSketch::bins_type b{};
    for (auto& x : b) x = static_cast<std::uint8_t>(rng());
    return semfp::MinHashSketch(b, 200);
}

std::uint32_t read_u32(const std::string& s, std::size_t at) {
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(s[at + static_cast<std::size_t>(i)]);
    return v;
}

void write_u32(std::string& s, std::size_t at, std::uint32_t v) {
    for (std::size_t i = 0; i < 4; ++i) s[at + i] = static_cast<char>((v >> (8 * i)) & 0xFF);
}

// `body` (without a checksum) with its CRC-32C appended, as the writer ends a stream.
std::string with_checksum(std::string body) {
    const std::uint32_t crc =
        semfp::detail::crc32c_update(0, reinterpret_cast<const unsigned char*>(body.data()), body.size());
    body.append(4, '\0');
    write_u32(body, body.size() - 4, crc);
    return body;
}

// Loads `bytes` into `c`; returns the format_error's message, or "" if it loaded.
template <std::size_t Bits>
std::string load_error(semfp::TwoStageClusterer<Bits>& c, const std::string& bytes) {
    std::stringstream in(bytes);
    try {
        c.load(in);
    } catch (const semfp::format_error& e) {
        return e.what();
    }
    return "";
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEMPLATE_TEST_CASE_SIG("TwoStageClusterer state records the signature format of its sketches", "[index][two_stage]",
                       ((std::size_t Bits), Bits), 64, 128) {
    std::mt19937_64 rng(Bits);
    std::vector<semfp::Signature<Bits>> sigs(300);
    for (auto& s : sigs) {
        std::array<std::uint64_t, Bits / 64> w{};
        for (auto& x : w) x = rng();
        s.fingerprint = semfp::Fingerprint<Bits>(w);
        s.sketch = random_sketch(rng);
    }
    semfp::TwoStageClusterer<Bits> saved;
    for (std::size_t i = 0; i < 200; ++i) (void)saved.add(sigs[i], i);
    std::stringstream ss;
    saved.save(ss);
    const std::string bytes = ss.str();
    // Header: magic, state format 2, bits, signature format.
    REQUIRE(bytes.substr(0, 8) == "SEMFPTSC");
    REQUIRE(read_u32(bytes, 8) == 2);
    REQUIRE(read_u32(bytes, 12) == Bits);
    REQUIRE(read_u32(bytes, 16) == semfp::detail::signature_format_version);
    REQUIRE(load_error(saved, with_checksum(bytes.substr(0, bytes.size() - 4))).empty());  // the helper itself

    // The clusterer that fails to load keeps what it had.
    semfp::TwoStageClusterer<Bits> target;
    for (std::size_t i = 0; i < 50; ++i) (void)target.add(sigs[i + 200], i);
    const auto unchanged = [&] {
        REQUIRE(target.size() == 50);
        semfp::TwoStageClusterer<Bits> same;
        for (std::size_t i = 0; i < 50; ++i) (void)same.add(sigs[i + 200], i);
        REQUIRE(same.cluster_count() == target.cluster_count());
        for (std::size_t i = 0; i < 50; ++i) REQUIRE(target.cluster_of(i) == same.cluster_of(i));
    };

    SECTION("a state of an earlier signature format is refused, naming both formats") {
        const std::uint32_t older = semfp::detail::signature_format_version - 1;
        std::string patched = bytes.substr(0, bytes.size() - 4);
        write_u32(patched, 16, older);
        const std::string message = load_error(target, with_checksum(patched));
        REQUIRE(has(message, "signature format " + std::to_string(older)));
        REQUIRE(has(message, "signature format " + std::to_string(semfp::detail::signature_format_version)));
        unchanged();
        // A later one too.
        write_u32(patched, 16, semfp::detail::signature_format_version + 1);
        REQUIRE(has(load_error(target, with_checksum(patched)),
                    "signature format " + std::to_string(semfp::detail::signature_format_version + 1)));
        unchanged();
    }
    SECTION("a state of format 1 (no signature format recorded) is refused") {
        // Format 1 had the common header (version 1) and the body right after the bits.
        std::string old = bytes.substr(0, 16) + bytes.substr(20, bytes.size() - 24);
        write_u32(old, 8, 1);
        const std::string message = load_error(target, with_checksum(old));
        REQUIRE(has(message, "state format 1"));
        REQUIRE(has(message, "state format 2 with signature format " +
                                 std::to_string(semfp::detail::signature_format_version)));
        unchanged();
        write_u32(old, 8, 3);
        REQUIRE(has(load_error(target, with_checksum(old)), "unsupported state format 3"));
        unchanged();
    }
    SECTION("the current format loads and resumes") {
        REQUIRE(load_error(target, bytes).empty());
        REQUIRE(target.size() == 200);
        semfp::TwoStageClusterer<Bits> whole;
        for (std::size_t i = 0; i < sigs.size(); ++i) {
            const auto want = whole.add(sigs[i], i);
            if (i >= 200) REQUIRE(target.add(sigs[i], i) == want);
        }
    }
}

TEST_CASE("SketchBandIndex::clear forgets the largest item: growth asks each item's bins once again",
          "[index][two_stage]") {
    std::mt19937_64 rng(11);
    semfp::SketchBandIndex ix;
    std::vector<semfp::MinHashSketch> stored;
    const auto bins_of = [&](std::uint32_t x) { return stored[x == 0xFFFFFFF0u ? 0 : x].values(); };
    // An item near the largest number: too sparse for the growth bitmap.
    stored.push_back(random_sketch(rng));
    ix.insert_values(stored[0].values(), 0xFFFFFFF0u, bins_of);
    ix.clear();
    REQUIRE(ix.size() == 0);
    std::vector<int> asked;
    for (std::uint32_t i = 1; i < 1500; ++i) {
        stored.push_back(random_sketch(rng));
        asked.assign(stored.size(), 0);
        bool grew = false;
        ix.insert_values(stored.back().values(), i, [&](std::uint32_t x) {
            REQUIRE(x >= 1);
            REQUIRE(x < i);
            ++asked[x];
            grew = true;
            return stored[x].values();
        });
        // After clear() the items are dense again: the bitmap applies, one request per item (the
        // band 0 fallback would ask once per slot, 20 times per item).
        if (grew)
            for (std::uint32_t x = 1; x < i; ++x) REQUIRE(asked[x] == 1);
    }
    REQUIRE(ix.size() == 1499);
}
