#include "support/catch.hpp"

#include <semfp/dict/embedded_idf.hpp>

#include <cstddef>
#include <string_view>

TEST_CASE("the embedded IDF table holds jieba's values", "[dict][idf]") {
    const semfp::IdfTable& t = semfp::embedded_idf_table();
    CHECK(t.size() == semfp::detail::idf_data::term_count);
    CHECK(t.size() > 250'000);
    // idf.txt: "劳动防护 13.900677652"; a very common word has a low IDF.
    REQUIRE_THAT(t.idf("\xe5\x8a\xb3\xe5\x8a\xa8\xe9\x98\xb2\xe6\x8a\xa4"), Catch::Matchers::WithinAbs(13.9007, 1e-9));
    CHECK(t.idf("\xe4\xb8\xad\xe5\x9b\xbd") < 5.0);  // 中国
    CHECK(t.idf("not a term") == semfp::embedded_idf_default());
    CHECK(semfp::embedded_idf_default() > 10.0);
    CHECK(&t == &semfp::embedded_idf_table());
}

TEST_CASE("the embedded IDF pieces are whole, sorted lines", "[dict][idf]") {
    std::string_view prev;
    std::size_t lines = 0;
    for (const std::string_view piece : semfp::embedded_idf_pieces()) {
        REQUIRE(piece.size() <= 4000);
        REQUIRE(piece.back() == '\n');
        std::size_t pos = 0;
        while (pos < piece.size()) {
            const std::size_t end = piece.find('\n', pos);
            const std::string_view line = piece.substr(pos, end - pos);
            const std::string_view term = line.substr(0, line.find('\t'));
            REQUIRE(term.size() < line.size());
            REQUIRE(prev < term);
            prev = term;
            pos = end + 1;
            ++lines;
        }
    }
    CHECK(lines == semfp::detail::idf_data::term_count);
    CHECK(semfp::embedded_idf_version().size() > 0);
}

TEST_CASE("the embedded IDF table follows the median rule for unknown terms", "[dict][idf]") {
    const semfp::IdfTable& t = semfp::embedded_idf_table();
    CHECK(t.median_idf() == semfp::embedded_idf_default());
    CHECK(t.default_idf() == t.median_idf());
}
