#include <semfp/detail/crc32c.hpp>
#include <semfp/index/hamming_index.hpp>
#include <semfp/index/serialization.hpp>
#include <semfp/index/single_pass_clusterer.hpp>

#include "support/catch.hpp"
#include "support/scale.hpp"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<semfp::Fingerprint64> data64(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<semfp::Fingerprint64> fps;
    for (std::size_t i = 0; i < n; ++i) {
        if (i > 0 && rng() % 2 == 0) fps.emplace_back(fps[rng() % i].value() ^ (std::uint64_t{1} << (rng() % 64)));
        else fps.emplace_back(rng());
    }
    return fps;
}

template <class T>
std::string saved(const T& t) {
    std::ostringstream os(std::ios::binary);
    t.save(os);
    return os.str();
}

template <class T>
void load_from(T& t, const std::string& bytes) {
    std::istringstream is(bytes, std::ios::binary);
    t.load(is);
}

std::filesystem::path temp_path(const std::string& name) {
    return std::filesystem::temp_directory_path() / ("semfp_index_test_" + name);
}

// Files beside `path` whose name starts with path's name and ends in ".tmp".
std::size_t temporaries_beside(const std::filesystem::path& path) {
    std::size_t n = 0;
    const std::string stem = path.filename().string() + ".";
    for (const auto& e : std::filesystem::directory_iterator(path.parent_path())) {
        const std::string name = e.path().filename().string();
        if (name.rfind(stem, 0) == 0 && name.size() > 4 && name.compare(name.size() - 4, 4, ".tmp") == 0) ++n;
    }
    return n;
}

}  // namespace

TEST_CASE("CRC-32C known answers", "[index][serialization]") {
    const std::string s = "123456789";
    REQUIRE(semfp::detail::crc32c_update(0, reinterpret_cast<const unsigned char*>(s.data()), s.size()) ==
            0xE3069283u);
    STATIC_REQUIRE(semfp::detail::crc32c_update(0, nullptr, 0) == 0u);
    // Incremental equals one-shot.
    const std::string long_text(1000, 'x');
    const auto* p = reinterpret_cast<const unsigned char*>(long_text.data());
    const auto whole = semfp::detail::crc32c_update(0, p, long_text.size());
    REQUIRE(semfp::detail::crc32c_update(semfp::detail::crc32c_update(0, p, 333), p + 333, 667) == whole);
}

TEST_CASE("HammingIndex save/load round trip", "[index][serialization]") {
    const auto fps = data64(500, 1);
    semfp::HammingIndex<64> index(5);
    for (std::size_t i = 0; i < fps.size(); ++i) index.insert(fps[i], i * 3);
    index.erase(0);
    index.erase(30);
    const std::string bytes = saved(index);
    REQUIRE(bytes.substr(0, 8) == "SEMFPHIX");
    REQUIRE(bytes.size() == 16 + 16 + index.size() * 16 + 4);

    semfp::HammingIndex<64> copy;
    load_from(copy, bytes);
    REQUIRE(copy.size() == index.size());
    REQUIRE(copy.max_k() == 5);
    REQUIRE(copy.block_count() == index.block_count());
    for (std::size_t i = 1; i < fps.size(); i += 7) REQUIRE(copy.query(fps[i], 5) == index.query(fps[i], 5));
    REQUIRE(saved(copy) == bytes);  // deterministic

    semfp::HammingIndex<128> wide;
    REQUIRE_THROWS_AS(load_from(wide, bytes), semfp::format_error);
}

TEST_CASE("SinglePassClusterer save/load round trip", "[index][serialization]") {
    const auto fps = data64(800, 2);
    for (const auto match : {semfp::match_policy::centres, semfp::match_policy::members}) {
        semfp::SinglePassClusterer<64> spc({3, match});
        spc.add_range(fps, 50);
        const std::string bytes = saved(spc);
        REQUIRE(bytes.substr(0, 8) == "SEMFPSPC");
        semfp::SinglePassClusterer<64> copy;
        load_from(copy, bytes);
        REQUIRE(copy.options().match == match);
        REQUIRE(copy.size() == spc.size());
        REQUIRE(copy.cluster_count() == spc.cluster_count());
        for (std::uint64_t id = 50; id < 850; ++id) REQUIRE(copy.cluster_of(id) == spc.cluster_of(id));
        const auto c1 = spc.centres();
        const auto c2 = copy.centres();
        REQUIRE(c1.size() == c2.size());
        for (std::size_t i = 0; i < c1.size(); ++i) {
            REQUIRE(c1[i].id == c2[i].id);
            REQUIRE(c1[i].fingerprint == c2[i].fingerprint);
            REQUIRE(c1[i].size == c2[i].size);
            REQUIRE(copy.members(c1[i].id) == spc.members(c1[i].id));
        }
        // Continuing after a load gives the same answers as continuing the original.
        const auto more = data64(200, 3);
        for (std::size_t i = 0; i < more.size(); ++i) REQUIRE(copy.add(more[i], 5000 + i) == spc.add(more[i], 5000 + i));
        REQUIRE(saved(copy) == saved(spc));
    }
}

TEST_CASE("Truncated and corrupted streams are rejected and leave the object untouched",
          "[index][serialization]") {
    const auto fps = data64(60, 4);
    semfp::SinglePassClusterer<64> source;
    source.add_range(fps);
    const std::string bytes = saved(source);

    semfp::SinglePassClusterer<64> target({2, semfp::match_policy::members});
    target.add(semfp::Fingerprint64(42), 7);
    const std::string before = saved(target);

    SECTION("every truncation") {
        for (std::size_t len = 0; len < bytes.size(); ++len) {
            CAPTURE(len);
            try {
                load_from(target, bytes.substr(0, len));
                FAIL("truncated stream accepted");
            } catch (const semfp::format_error& e) {
                REQUIRE(e.offset() <= len);
            }
            REQUIRE(saved(target) == before);
        }
    }
    SECTION("every single bit flip") {
        // Under the sanitizers every third bit (3 and 8 coprime: each byte still gets two or
        // three flips, each bit position of a byte is flipped in some bytes): a load and a save
        // per flip cost about 100 times what they cost in the developer build.
        const std::size_t stride = semfp_test::sanitized_build ? 3 : 1;
        for (std::size_t bit = 0; bit < bytes.size() * 8; bit += stride) {
            CAPTURE(bit);
            std::string bad = bytes;
            bad[bit / 8] = static_cast<char>(bad[bit / 8] ^ (1 << (bit % 8)));
            REQUIRE_THROWS_AS(load_from(target, bad), semfp::format_error);
            REQUIRE(saved(target) == before);
        }
    }
    SECTION("index too") {
        semfp::HammingIndex<64> index;
        for (std::size_t i = 0; i < fps.size(); ++i) index.insert(fps[i], i);
        const std::string ib = saved(index);
        semfp::HammingIndex<64> t2;
        t2.insert(semfp::Fingerprint64(1), 1);
        const std::string t2_before = saved(t2);
        for (std::size_t len = 0; len < ib.size(); len += 3) REQUIRE_THROWS_AS(load_from(t2, ib.substr(0, len)), semfp::format_error);
        for (std::size_t bit = 0; bit < ib.size() * 8; bit += 5) {
            std::string bad = ib;
            bad[bit / 8] = static_cast<char>(bad[bit / 8] ^ (1 << (bit % 8)));
            REQUIRE_THROWS_AS(load_from(t2, bad), semfp::format_error);
        }
        REQUIRE(saved(t2) == t2_before);
        REQUIRE_THROWS_AS(load_from(t2, bytes), semfp::format_error);  // a clusterer is not an index
    }
    SECTION("offset of a checksum mismatch is the checksum's position") {
        std::string bad = bytes;
        bad[bad.size() - 1] = static_cast<char>(bad[bad.size() - 1] ^ 1);
        try {
            load_from(target, bad);
            FAIL("corruption accepted");
        } catch (const semfp::format_error& e) {
            REQUIRE(e.offset() == bytes.size() - 4);
        }
    }
}

TEST_CASE("Saving to a path is atomic", "[index][serialization]") {
    const auto fps = data64(100, 5);
    semfp::SinglePassClusterer<64> spc;
    spc.add_range(fps);
    const auto path = temp_path("clusterer.bin");
    std::filesystem::remove(path);
    spc.save(path);
    semfp::SinglePassClusterer<64> loaded;
    loaded.load(path);
    REQUIRE(saved(loaded) == saved(spc));
    REQUIRE(temporaries_beside(path) == 0);

    // A save that fails half-way (the writer throws after some bytes) leaves the earlier file
    // intact and removes its temporary.
    REQUIRE_THROWS_AS(semfp::detail::save_file_atomically(path,
                                                          [](std::ostream& os) {
                                                              os << "partial";
                                                              semfp::detail::throw_io_error("disk full");
                                                          }),
                      semfp::io_error);
    REQUIRE(temporaries_beside(path) == 0);
    semfp::SinglePassClusterer<64> again;
    again.load(path);
    REQUIRE(saved(again) == saved(spc));

    // A directory that does not exist: io_error, nothing created.
    semfp::SinglePassClusterer<64> other;
    other.add(semfp::Fingerprint64(3), 3);
    REQUIRE_THROWS_AS(other.save(temp_path("no_such_dir") / "x.bin"), semfp::io_error);

    // Temporaries are unique: two saves in flight at once never share one (the name is created
    // exclusively, so even an existing file of the same pattern is never reused).
    const auto t1 = semfp::detail::create_unique_temporary(path);
    const auto t2 = semfp::detail::create_unique_temporary(path);
    REQUIRE(t1 != t2);
    REQUIRE(t1.parent_path() == path.parent_path());
    REQUIRE(std::filesystem::exists(t1));
    REQUIRE(std::filesystem::exists(t2));
    std::filesystem::remove(t1);
    std::filesystem::remove(t2);

    REQUIRE_THROWS_AS(again.load(temp_path("does_not_exist.bin")), semfp::io_error);
    REQUIRE(saved(again) == saved(spc));

    semfp::HammingIndex<128> wide;
    wide.insert(semfp::Fingerprint128({1, 2}), 9);
    const auto ipath = temp_path("index.bin");
    wide.save(ipath);
    semfp::HammingIndex<128> wide2;
    wide2.load(ipath);
    REQUIRE(wide2.find(9) == semfp::Fingerprint128({1, 2}));
    std::filesystem::remove(path);
    std::filesystem::remove(ipath);
}
