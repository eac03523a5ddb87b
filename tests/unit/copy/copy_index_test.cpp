#include <semfp/copy/copy_index.hpp>
#include <semfp/text/utf8.hpp>

#include "support/catch.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string random_han(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::string s;
    for (std::size_t i = 0; i < n; ++i) semfp::utf8::append(s, static_cast<char32_t>(0x4E00 + rng() % 3000));
    return s;
}

// A small collection with copied passages between documents and one common phrase everywhere.
std::vector<std::string> collection(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::string> passages;
    for (int i = 0; i < 8; ++i) passages.push_back(random_han(20 + rng() % 60, seed * 100 + static_cast<std::uint64_t>(i)));
    const std::string common = random_han(40, seed + 999);
    std::vector<std::string> docs;
    for (std::size_t d = 0; d < n; ++d) {
        std::string s = random_han(50 + rng() % 200, seed * 1000 + d);
        if (rng() % 2) s += passages[rng() % passages.size()];
        s += random_han(30, seed * 2000 + d);
        if (rng() % 3 == 0) s += common;
        if (rng() % 2) s += passages[rng() % passages.size()];
        docs.push_back(s);
    }
    return docs;
}

std::string saved(const semfp::CopyIndex& index) {
    std::ostringstream os(std::ios::binary);
    index.save(os);
    return os.str();
}

struct expected {
    std::uint64_t id;
    std::size_t shared, source;
    friend bool operator==(const expected&, const expected&) = default;
};

// Pairwise scan: the documented result computed from fingerprint sets alone.
std::vector<expected> brute_force(const semfp::CopyIndex& index, const std::vector<std::string>& docs, std::string_view query,
                                  std::size_t max_df) {
    std::vector<std::vector<std::uint64_t>> sets;
    for (const auto& d : docs) sets.push_back(index.fingerprints(d));
    const auto q = index.fingerprints(query);
    std::vector<expected> out;
    for (std::size_t d = 0; d < docs.size(); ++d) {
        std::size_t shared = 0;
        for (const auto h : q) {
            if (!std::binary_search(sets[d].begin(), sets[d].end(), h)) continue;
            std::size_t df = 0;
            for (const auto& s : sets) df += std::binary_search(s.begin(), s.end(), h) ? 1 : 0;
            if (max_df == 0 || df <= max_df) ++shared;
        }
        if (shared != 0) out.push_back({d + 100, shared, sets[d].size()});
    }
    std::sort(out.begin(), out.end(), [](const expected& x, const expected& y) { return x.id < y.id; });
    return out;
}

std::vector<expected> got(const std::vector<semfp::copy_candidate>& cs) {
    std::vector<expected> out;
    for (const auto& c : cs) out.push_back({c.id, c.shared, c.source_fingerprints});
    std::sort(out.begin(), out.end(), [](const expected& x, const expected& y) { return x.id < y.id; });
    return out;
}

}  // namespace

TEST_CASE("copy index: results equal a brute-force pairwise scan", "[copy][copy_index]") {
    const std::size_t max_df = GENERATE(std::size_t{0}, std::size_t{3});
    semfp::copy_index_options opt;
    opt.winnowing = {5, 15, false};
    opt.max_document_frequency = max_df;
    semfp::CopyIndex index(opt);
    const auto docs = collection(60, 3);
    for (std::size_t d = 0; d < docs.size(); ++d) index.add(d + 100, docs[d]);
    REQUIRE(index.size() == docs.size());
    const auto queries = collection(15, 4);
    for (const auto& q : queries) CHECK(got(index.query(q)) == brute_force(index, docs, q, max_df));
    for (std::size_t d = 0; d < 10; ++d) {
        const auto r = index.query(docs[d]);
        CHECK(got(r) == brute_force(index, docs, docs[d], max_df));
        // A document finds itself first, wholly contained both ways.
        REQUIRE(!r.empty());
        if (max_df == 0) {
            CHECK(r[0].id == d + 100);
            CHECK(r[0].query_containment == 1.0);
            CHECK(r[0].source_containment == 1.0);
        }
    }
}

TEST_CASE("copy index: ranking, containment and min_shared", "[copy][copy_index]") {
    semfp::CopyIndex index(semfp::copy_index_options{{5, 15, false}, 0, true, {}});
    const std::string passage = random_han(300, 1);
    index.add(1, random_han(100, 2) + passage.substr(0, 150 * 3) + random_han(100, 3));
    index.add(2, passage);
    index.add(3, random_han(400, 4));
    const auto r = index.query(passage);
    REQUIRE(r.size() >= 2);
    CHECK(r[0].id == 2);
    CHECK(r[1].id == 1);
    CHECK(r[0].shared > r[1].shared);
    CHECK(r[1].query_containment < 0.7);
    CHECK(r[1].query_containment > 0.3);
    CHECK(index.query(passage, r[1].shared + 1).size() == 1);
    CHECK_THROWS_AS(index.add(2, "x"), semfp::invalid_argument_error);
    CHECK(index.size() == 3);
}

TEST_CASE("copy index: templates and common fingerprints are ignored", "[copy][copy_index]") {
    const std::string boilerplate = random_han(200, 50);
    const std::string own1 = random_han(200, 51), own2 = random_han(200, 52);
    semfp::CopyIndex plain(semfp::copy_index_options{{5, 15, false}, 0, true, {}});
    plain.add(1, boilerplate + own1);
    CHECK(!plain.query(boilerplate + own2).empty());

    semfp::CopyIndex with_template(semfp::copy_index_options{{5, 15, false}, 0, true, {}});
    with_template.add_template(boilerplate);
    with_template.add(1, boilerplate + own1);
    CHECK(with_template.query(boilerplate + own2).empty());
    CHECK(!with_template.query(own1).empty());

    semfp::CopyIndex frequent(semfp::copy_index_options{{5, 15, false}, 2, true, {}});
    for (std::uint64_t d = 0; d < 3; ++d) frequent.add(d, boilerplate + random_han(100, 60 + d));
    CHECK(frequent.query(boilerplate).empty());
}

TEST_CASE("copy index: save and load round trip, corrupt data leaves the index unchanged", "[copy][copy_index]") {
    semfp::copy_index_options opt;
    opt.winnowing = {4, 12, true};
    opt.max_document_frequency = 7;
    opt.normalization.fold_phrases = true;
    semfp::CopyIndex index(opt);
    index.add_template(random_han(50, 90));
    const auto docs = collection(30, 8);
    for (std::size_t d = 0; d < docs.size(); ++d) index.add(d + 100, docs[d]);
    const std::string bytes = saved(index);

    semfp::CopyIndex loaded;
    std::istringstream is(bytes);
    loaded.load(is);
    CHECK(saved(loaded) == bytes);
    CHECK(loaded.size() == index.size());
    CHECK(loaded.options().winnowing.k == 4);
    CHECK(loaded.options().winnowing.robust);
    CHECK(loaded.options().max_document_frequency == 7);
    CHECK(loaded.options().normalization.fold_phrases);
    for (std::size_t d = 0; d < 5; ++d) CHECK(got(loaded.query(docs[d])) == got(index.query(docs[d])));

    const auto path = std::filesystem::temp_directory_path() / "semfp_copy_index_test.bin";
    index.save(path);
    semfp::CopyIndex from_file;
    from_file.load(path);
    CHECK(saved(from_file) == bytes);
    std::filesystem::remove(path);

    // Flipped bytes, truncation and a foreign magic: format_error, target unchanged.
    for (std::size_t at : {std::size_t{0}, std::size_t{20}, bytes.size() / 2, bytes.size() - 1}) {
        std::string bad = bytes;
        bad[at] = static_cast<char>(bad[at] ^ 0x41);
        std::istringstream bis(bad);
        REQUIRE_THROWS_AS(loaded.load(bis), semfp::format_error);
        CHECK(saved(loaded) == bytes);
    }
    std::istringstream cut(bytes.substr(0, bytes.size() - 9));
    REQUIRE_THROWS_AS(loaded.load(cut), semfp::format_error);
    CHECK(saved(loaded) == bytes);
    std::istringstream empty_stream("");
    REQUIRE_THROWS_AS(loaded.load(empty_stream), semfp::format_error);
    CHECK(saved(loaded) == bytes);
}

TEST_CASE("copy index: empty and bad input", "[copy][copy_index]") {
    semfp::CopyIndex index;
    CHECK(index.query("").empty());
    index.add(1, "");
    index.add(2, std::string("\0\xFF\xFE", 3));
    CHECK(index.size() == 2);
    CHECK(index.posting_count() == 0);
    CHECK(index.query("anything at all").empty());
    REQUIRE_THROWS_AS(semfp::CopyIndex(semfp::copy_index_options{{0, 3, false}, 0, true, {}}), semfp::invalid_argument_error);
}
