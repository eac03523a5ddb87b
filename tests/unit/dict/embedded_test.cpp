#include "support/catch.hpp"

#include <semfp/dict/embedded.hpp>
#include <semfp/text/segmenter.hpp>

#include <atomic>
#include <cstddef>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

using tokens = std::vector<std::string>;

tokens segment(const semfp::FmmSegmenter& seg, std::string_view text) {
    tokens out;
    seg.tokenize(text, [&](std::string_view t) { out.emplace_back(t); });
    return out;
}

}  // namespace

TEST_CASE("embedded dictionary: built once, shared by threads", "[embedded]") {
    std::vector<const semfp::Dictionary*> seen(4, nullptr);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < seen.size(); ++t)
        threads.emplace_back([&seen, t] { seen[t] = &semfp::embedded_dictionary(); });
    for (auto& th : threads) th.join();
    for (const auto* p : seen) CHECK(p == &semfp::embedded_dictionary());

    const semfp::Dictionary& d = semfp::embedded_dictionary();
    CHECK(d.size() == semfp::detail::dict_data::word_count);
    CHECK(d.size() > 300000);
    CHECK(d.max_word_length() >= 10);
    CHECK(d.contains("中国"));
    CHECK(d.contains("研究生"));
    CHECK(semfp::embedded_dictionary_version().size() > 0);
}

TEST_CASE("embedded dictionary: the pieces are sorted lines within the MSVC limit", "[embedded]") {
    std::string previous;
    std::size_t words = 0;
    for (const std::string_view piece : semfp::embedded_word_pieces()) {
        CHECK(piece.size() <= 4000);
        REQUIRE(!piece.empty());
        REQUIRE(piece.back() == '\n');
        std::size_t pos = 0;
        while (pos < piece.size()) {
            const std::size_t eol = piece.find('\n', pos);
            const std::string word(piece.substr(pos, eol - pos));
            REQUIRE(previous < word);
            previous = word;
            ++words;
            pos = eol + 1;
        }
    }
    CHECK(words == semfp::detail::dict_data::word_count);
}

TEST_CASE("embedded dictionary: every word segments to itself", "[embedded]") {
    const semfp::Dictionary& d = semfp::embedded_dictionary();
    const semfp::FmmSegmenter fwd(d, semfp::segment_mode::forward);
    const semfp::FmmSegmenter rev(d, semfp::segment_mode::reverse);
    const semfp::FmmSegmenter bi(d, semfp::segment_mode::bidirectional);
    std::size_t words = 0, failures = 0;
    std::vector<std::string> failed;
    for (const std::string_view piece : semfp::embedded_word_pieces()) {
        std::size_t pos = 0;
        while (pos < piece.size()) {
            const std::size_t eol = piece.find('\n', pos);
            const std::string_view word = piece.substr(pos, eol - pos);
            pos = eol + 1;
            ++words;
            for (const auto* seg : {&fwd, &rev, &bi}) {
                std::size_t count = 0;
                bool same = false;
                seg->tokenize(word, [&](std::string_view t) {
                    ++count;
                    same = t.data() == word.data() && t.size() == word.size();
                });
                if (count != 1 || !same) {
                    ++failures;
                    if (failed.size() < 10) failed.emplace_back(word);
                }
            }
        }
    }
    CHECK(words == d.size());
    CHECK(failed.empty());
    CHECK(failures == 0);
}

TEST_CASE("embedded dictionary: sentences", "[embedded]") {
    const semfp::Dictionary& d = semfp::embedded_dictionary();
    const semfp::FmmSegmenter fwd(d);
    CHECK(segment(fwd, "我们在野生动物园玩") == tokens{"我们", "在野", "生动", "物", "园", "玩"});
    const semfp::FmmSegmenter bi(d, semfp::segment_mode::bidirectional);
    CHECK(segment(bi, "我们在野生动物园玩") == tokens{"我们", "在", "野生", "动物园", "玩"});
    CHECK(segment(fwd, "中华人民共和国成立了") == tokens{"中华人民共和国", "成立", "了"});
    CHECK(segment(fwd, "使用UTF-8编码的文本文件") == tokens{"使用", "UTF-8", "编码", "的", "文本文件"});
}
