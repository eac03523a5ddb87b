#include <semfp/index/signature_file.hpp>

#include <semfp/detail/crc32c.hpp>

#include "support/catch.hpp"

#include <cstdint>
#include <span>
#include <sstream>
#include <string>
#include <vector>

namespace {

template <std::size_t Bits>
std::vector<semfp::signature_entry<Bits>> sample() {
    const semfp::SignatureFingerprinter<semfp::default_tokenizer, semfp::default_hash, Bits> maker;
    std::vector<semfp::signature_entry<Bits>> v;
    const char* texts[] = {"", "\u4eca\u5929\u5929\u6c14\u5f88\u597d", "hello world, hello semfp",
                           "\u65b0\u534e\u793e\u5317\u4eac\u7535\uff0c\u56fd\u5bb6\u7edf\u8ba1\u5c40"};
    std::uint64_t id = 90;
    for (const char* t : texts) v.push_back({id++, maker(t)});
    return v;
}

template <std::size_t Bits>
std::string saved(const std::vector<semfp::signature_entry<Bits>>& v) {
    std::ostringstream os;
    semfp::save_signatures<Bits>(os, std::span<const semfp::signature_entry<Bits>>(v));
    return os.str();
}

}  // namespace

TEST_CASE("Signatures round-trip through the library's format", "[index][serialization][signature]") {
    const auto v64 = sample<64>();
    std::istringstream is64(saved(v64));
    REQUIRE(semfp::load_signatures<64>(is64) == v64);
    const auto v128 = sample<128>();
    std::istringstream is128(saved(v128));
    REQUIRE(semfp::load_signatures<128>(is128) == v128);
    const std::vector<semfp::signature_entry<64>> none;
    std::istringstream empty(saved(none));
    REQUIRE(semfp::load_signatures<64>(empty).empty());
}

TEST_CASE("Signature files: corrupted, truncated, wrong width and duplicate ids are format errors",
          "[index][serialization][signature]") {
    const auto v = sample<64>();
    const std::string bytes = saved(v);
    REQUIRE(bytes.substr(0, 8) == "SEMFPSIG");
    for (std::size_t cut : {std::size_t{0}, std::size_t{10}, std::size_t{30}, bytes.size() - 1}) {
        std::istringstream is(bytes.substr(0, cut));
        REQUIRE_THROWS_AS(semfp::load_signatures<64>(is), semfp::format_error);
    }
    std::string flipped = bytes;
    flipped[60] = static_cast<char>(flipped[60] ^ 0x10);
    std::istringstream bad(flipped);
    REQUIRE_THROWS_AS(semfp::load_signatures<64>(bad), semfp::format_error);
    std::istringstream wide(bytes);
    REQUIRE_THROWS_AS(semfp::load_signatures<128>(wide), semfp::format_error);
    auto dup = v;
    dup[2].id = dup[0].id;
    std::istringstream dups(saved(dup));
    REQUIRE_THROWS_AS(semfp::load_signatures<64>(dups), semfp::format_error);
}

TEST_CASE("Signature files of formats 1 to 4 and invalid sketches are refused", "[index][serialization][signature]") {
    const auto v = sample<64>();
    REQUIRE(v[1].signature.sketch.is_exact());  // a short text: its sketch holds its set
    std::string bytes = saved(v);
    REQUIRE(bytes[8] == '\x05');
    // The version word follows the magic; a file of an earlier format (other sketches: format 4
    // hashed long texts' tokens by FNV-1a) or of any other version is refused.
    for (const char version : {'\x01', '\x02', '\x03', '\x04', '\x06'}) {
        std::string old = bytes;
        old[8] = version;
        std::istringstream is(old);
        try {
            (void)semfp::load_signatures<64>(is);
            FAIL("a signature file of another format loaded");
        } catch (const semfp::format_error& e) {
            CHECK(e.offset() == 8);
            const std::string what = e.what();
            if (version == '\x06') {
                CHECK(what.find("unsupported") != std::string::npos);
            } else {
                CHECK(what.find("format " + std::to_string(static_cast<int>(version))) != std::string::npos);
                CHECK(what.find("not comparable") != std::string::npos);
            }
        }
    }
    // A sketch state claiming an exact set of 33 hashes, with a correct checksum: still refused.
    const std::size_t state_at = 8 + 4 + 4 + 8 + 8 + 8;  // header, count, first id, fingerprint
    std::string bad = bytes.substr(0, bytes.size() - 4);
    const std::uint32_t state = (std::uint32_t{33} << 26) | 40u;
    for (int b = 0; b < 4; ++b) bad[state_at + static_cast<std::size_t>(b)] = static_cast<char>(state >> (8 * b));
    const std::uint32_t crc =
        semfp::detail::crc32c_update(0, reinterpret_cast<const unsigned char*>(bad.data()), bad.size());
    for (int b = 0; b < 4; ++b) bad.push_back(static_cast<char>(crc >> (8 * b)));
    std::istringstream is(bad);
    REQUIRE_THROWS_AS(semfp::load_signatures<64>(is), semfp::format_error);
}
