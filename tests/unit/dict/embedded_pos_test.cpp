#include "support/catch.hpp"

#include <semfp/dict/embedded.hpp>
#include <semfp/dict/embedded_pos.hpp>
#include <semfp/signature/keyword.hpp>
#include <semfp/text/segmenter.hpp>

#include <cstddef>
#include <string_view>

TEST_CASE("the embedded part-of-speech table holds jieba's tags", "[dict][pos]") {
    const semfp::PosTable& t = semfp::embedded_pos_table();
    CHECK(&t == &semfp::embedded_pos_table());
    CHECK(t.size() == semfp::detail::dict_data::word_count);
    CHECK(t.tag_count() == std::size(semfp::detail::pos_data::tag_names) - 1);
    // dict.txt: "北京 34488 ns", "中国 ... ns", "电脑 ... n", "学习 ... v", "毛泽东 ... nr".
    CHECK(t.tag_name(t.tag_of("\xe5\x8c\x97\xe4\xba\xac")) == "ns");
    CHECK(t.tag_name(t.tag_of("\xe7\x94\xb5\xe8\x84\x91")) == "n");
    CHECK(t.tag_name(t.tag_of("\xe5\xad\xa6\xe4\xb9\xa0")) == "v");
    CHECK(t.tag_name(t.tag_of("\xe6\xaf\x9b\xe6\xb3\xbd\xe4\xb8\x9c")) == "nr");
    CHECK(t.tag_of("not a word") == 0);
    CHECK(semfp::embedded_pos_version() == semfp::embedded_dictionary_version());
}

TEST_CASE("the embedded tag pieces give one tag byte per embedded word", "[dict][pos]") {
    std::size_t bytes = 0;
    for (const std::string_view p : semfp::embedded_pos_pieces()) {
        for (const char c : p) {
            REQUIRE(c > semfp::detail::pos_data::tag_base);
            REQUIRE(static_cast<std::size_t>(c - semfp::detail::pos_data::tag_base) <= semfp::embedded_pos_table().tag_count());
        }
        bytes += p.size();
    }
    std::size_t words = 0;
    for (const std::string_view p : semfp::embedded_word_pieces())
        for (const char c : p) words += c == '\n' ? 1u : 0u;
    CHECK(bytes == words);
}

TEST_CASE("keyword fingerprints with the embedded tags boost place names", "[dict][pos][keyword]") {
    semfp::keyword_options o;
    o.count = 1;
    o.pos = &semfp::embedded_pos_table();
    const semfp::KeywordFingerprinter<semfp::FmmSegmenter> plain(semfp::FmmSegmenter(semfp::embedded_dictionary()), o);
    o.boost.proper_noun = 3.0;
    const semfp::KeywordFingerprinter<semfp::FmmSegmenter> boosted(semfp::FmmSegmenter(semfp::embedded_dictionary()), o);
    // 学习 (v) twice, 北京 (ns) once: TF keeps 学习, a proper-noun boost of 3 keeps 北京.
    const std::string_view text = "\xe5\xad\xa6\xe4\xb9\xa0\xef\xbc\x8c\xe5\x8c\x97\xe4\xba\xac\xef\xbc\x8c\xe5\xad\xa6\xe4\xb9\xa0";
    REQUIRE(plain.keywords(text).size() == 1);
    CHECK(plain.keywords(text)[0].term == "\xe5\xad\xa6\xe4\xb9\xa0");
    CHECK(boosted.keywords(text)[0].term == "\xe5\x8c\x97\xe4\xba\xac");
}
