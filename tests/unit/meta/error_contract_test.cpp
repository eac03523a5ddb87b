// One error contract: every exception that leaves semfp through a public entry point is the
// documented semfp::error subclass (never std::invalid_argument, std::length_error, ...), and a
// load that fails leaves the object as it was. One check per entry point.
#include <semfp/simhash.hpp>

#include "support/catch.hpp"

#include <cstdint>
#include <filesystem>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>

namespace {

template <class Error, class F>
void require_throws(F&& f) {
    static_assert(std::is_base_of_v<semfp::error, Error>);
    REQUIRE_THROWS_AS(f(), Error);
}

const std::filesystem::path g_missing = std::filesystem::path(SEMFP_TEST_DATA_DIR) / "no-such-file.bin";

}  // namespace

TEST_CASE("error contract: Fingerprint::from_hex throws parse_error", "[error-contract]") {
    require_throws<semfp::parse_error>([] { (void)semfp::Fingerprint<64>::from_hex("12"); });
    require_throws<semfp::parse_error>([] { (void)semfp::Fingerprint<64>::from_hex("0123456789abcdeg"); });
    require_throws<semfp::parse_error>([] { (void)semfp::Fingerprint<128>::from_hex(std::string(32, 'z')); });
}

TEST_CASE("error contract: Dictionary", "[error-contract]") {
    semfp::Dictionary dict;
    dict.add("\xE4\xB8\xAD\xE6\x96\x87");
    require_throws<semfp::invalid_argument_error>([&] { dict.add("\xFF"); });
    std::istringstream bad("\xE4\xB8\xAD\n\xFF\xFE\n");
    require_throws<semfp::parse_error>([&] { dict.load(bad); });
    CHECK(dict.size() == 1);
    CHECK(dict.contains("\xE4\xB8\xAD\xE6\x96\x87"));
}

TEST_CASE("error contract: StopwordList and IdfTable loads throw parse_error, object unchanged", "[error-contract]") {
    semfp::StopwordList stop;
    stop.add("a");
    std::istringstream bad_stop("b\n\xFF\n");
    require_throws<semfp::parse_error>([&] { stop.load(bad_stop); });
    CHECK(stop.contains("a"));
    CHECK(!stop.contains("b"));

    semfp::IdfTable idf;
    std::istringstream good("x 2.5\n");
    idf.load(good);
    std::istringstream bad_idf("y 1.0\nz nope\n");
    require_throws<semfp::parse_error>([&] { idf.load(bad_idf); });
    std::istringstream huge("y 1e999\n");
    require_throws<semfp::parse_error>([&] { idf.load(huge); });
    CHECK(idf.idf("x") == 2.5);
}

TEST_CASE("error contract: HammingIndex", "[error-contract]") {
    using index = semfp::HammingIndex<64>;
    require_throws<semfp::invalid_argument_error>([] { index(index::max_radius + 1); });
    // An invalid block count reaches the internal multi-index: still invalid_argument_error.
    require_throws<semfp::invalid_argument_error>([] { index(3, 0); });
    require_throws<semfp::invalid_argument_error>([] { index(3, 99); });
    index idx(3);
    idx.insert(semfp::Fingerprint<64>(std::uint64_t{42}), 7);
    require_throws<semfp::invalid_argument_error>([&] { idx.insert(semfp::Fingerprint<64>(std::uint64_t{1}), 7); });
    require_throws<semfp::invalid_argument_error>(
        [&] { (void)idx.query(semfp::Fingerprint<64>(std::uint64_t{0}), index::max_radius + 1); });

    std::ostringstream os;
    index(3).save(os);
    const std::string empty = os.str();
    std::istringstream garbage("not an index");
    require_throws<semfp::format_error>([&] { idx.load(garbage); });
    // Entry count above what an index holds: a corrupt file (format_error at the count), not an
    // invalid argument.
    std::string too_many = empty;
    const std::size_t count_at = too_many.size() - 12;  // u64 count, then the u32 checksum
    for (std::size_t i = 0; i < 8; ++i) too_many[count_at + i] = '\xFF';
    std::istringstream big(too_many);
    try {
        idx.load(big);
        FAIL("load accepted 2^64 - 1 entries");
    } catch (const semfp::format_error& e) {
        CHECK(e.offset() == count_at);
    }
    require_throws<semfp::io_error>([&] { idx.load(g_missing); });
    CHECK(idx.size() == 1);
    CHECK(idx.contains(7));
}

TEST_CASE("error contract: SinglePassClusterer", "[error-contract]") {
    semfp::cluster_options bad_options;
    bad_options.threshold = 1000;
    require_throws<semfp::invalid_argument_error>([&] { semfp::SinglePassClusterer<64> c(bad_options); });
    semfp::SinglePassClusterer<64> clusterer;
    (void)clusterer.add(semfp::Fingerprint<64>(std::uint64_t{5}), 1);
    require_throws<semfp::invalid_argument_error>(
        [&] { (void)clusterer.add(semfp::Fingerprint<64>(std::uint64_t{5}), 1); });
    std::istringstream garbage(std::string(64, '\x01'));
    require_throws<semfp::format_error>([&] { clusterer.load(garbage); });
    std::ostringstream os;
    clusterer.save(os);
    const std::string saved = os.str();
    for (std::size_t cut : {std::size_t{0}, saved.size() / 2, saved.size() - 1}) {
        std::istringstream truncated(saved.substr(0, cut));
        require_throws<semfp::format_error>([&] { clusterer.load(truncated); });
    }
    require_throws<semfp::io_error>([&] { clusterer.load(g_missing); });
    CHECK(clusterer.size() == 1);
}

TEST_CASE("error contract: MinHash LSH parameters", "[error-contract]") {
    require_throws<semfp::invalid_argument_error>([] { (void)semfp::optimal_lsh_params(0.0, 128); });
    require_throws<semfp::invalid_argument_error>([] { (void)semfp::optimal_lsh_params(0.5, 0); });
    require_throws<semfp::invalid_argument_error>([] { semfp::MinHashLsh<128> lsh(semfp::lsh_params{0, 4}); });
    require_throws<semfp::invalid_argument_error>([] { semfp::MinHashLsh<128> lsh(semfp::lsh_params{64, 4}); });
}

TEST_CASE("error contract: longest_suffix cannot fail before prepare_reverse", "[error-contract]") {
    // Without the reverse trie it answers from the forward trie (no allocation, noexcept).
    semfp::Dictionary dict;
    for (std::string_view w : {"\xE4\xB8\xAD", "\xE4\xB8\xAD\xE6\x96\x87", "\xE6\x96\x87", "ab"}) dict.add(w);
    static_assert(noexcept(dict.longest_suffix(std::string_view{}, 0)));
    const std::string text =
        "x\xE4\xB8\xAD\xE6\x96\x87"
        "ab\xFF\xE6\x96\x87";
    std::size_t lazy[32] = {};
    const std::size_t memory = dict.memory_bytes();
    for (std::size_t end = 0; end <= text.size(); ++end) lazy[end] = dict.longest_suffix(text, end);
    CHECK(dict.memory_bytes() == memory);  // no reverse trie was built
    dict.prepare_reverse();
    for (std::size_t end = 0; end <= text.size() + 2; ++end) {
        CAPTURE(end);
        CHECK(dict.longest_suffix(text, end) == lazy[end < text.size() ? end : text.size()]);
    }
    CHECK(lazy[7] == 6);
    CHECK(lazy[13] == 3);
}
