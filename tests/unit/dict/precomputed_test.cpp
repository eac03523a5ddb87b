// The precomputed tries of the bundled dictionary answer exactly as tries built at run time from
// the same word list (the segmentation must not depend on which one is used).
#include "support/catch.hpp"

#include <semfp/dict/embedded.hpp>
#include <semfp/text/segmenter.hpp>

#include <cstddef>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

const semfp::Dictionary& built_at_run_time() {
    static const semfp::Dictionary d = [] {
        semfp::Dictionary x = semfp::Dictionary::from_lines(semfp::embedded_word_pieces());
        x.prepare_reverse();
        return x;
    }();
    return d;
}

std::vector<std::string_view> all_words() {
    std::vector<std::string_view> words;
    semfp::embedded_dictionary().for_each_word([&](std::string_view w) { words.push_back(w); });
    return words;
}

std::vector<std::string> segment(const semfp::FmmSegmenter& seg, std::string_view text) {
    std::vector<std::string> out;
    seg.tokenize(text, [&](std::string_view t) { out.emplace_back(t); });
    return out;
}

}  // namespace

TEST_CASE("precomputed dictionary: ready without building or allocating", "[embedded][precomputed]") {
    const semfp::Dictionary& d = semfp::embedded_dictionary();
    CHECK(d.memory_bytes() == 0);
    d.prepare_reverse();  // nothing to build
    CHECK(d.memory_bytes() == 0);
    CHECK(d.size() == semfp::detail::dict_data::word_count);
    CHECK(d.size() == built_at_run_time().size());
    CHECK(d.max_word_length() == built_at_run_time().max_word_length());
    CHECK_FALSE(d.empty());
}

TEST_CASE("precomputed dictionary: every word, forwards and backwards, as the built tries", "[embedded][precomputed]") {
    const semfp::Dictionary& pre = semfp::embedded_dictionary();
    const semfp::Dictionary& built = built_at_run_time();
    const std::vector<std::string_view> words = all_words();
    REQUIRE(words.size() == pre.size());
    std::size_t mismatches = 0;
    std::string text;
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string_view w = words[i];
        if (!pre.contains(w) || !built.contains(w)) ++mismatches;
        // A word followed and preceded by others: matches may run past the word.
        text.assign(words[(i * 7919) % words.size()]);
        text += w;
        text += words[(i * 104729 + 1) % words.size()];
        for (std::size_t p = 0; p < text.size(); ++p) {
            if (pre.longest_prefix(text, p) != built.longest_prefix(text, p)) ++mismatches;
            if (pre.longest_suffix(text, p + 1) != built.longest_suffix(text, p + 1)) ++mismatches;
        }
        // A proper prefix of a word is in the list only when the built tries say so.
        const std::string_view head = w.substr(0, w.size() - 3);
        if (!head.empty() && pre.contains(head) != built.contains(head)) ++mismatches;
    }
    CHECK(mismatches == 0);
}

TEST_CASE("precomputed dictionary: arbitrary bytes, as the built tries", "[embedded][precomputed]") {
    const semfp::Dictionary& pre = semfp::embedded_dictionary();
    const semfp::Dictionary& built = built_at_run_time();
    const std::vector<std::string_view> words = all_words();
    std::mt19937 rng(20240611);
    std::size_t mismatches = 0;
    for (int round = 0; round < 3000; ++round) {
        std::string text;
        const int parts = 1 + static_cast<int>(rng() % 6);
        for (int k = 0; k < parts; ++k) {
            switch (rng() % 6) {
            case 0: text += static_cast<char>(rng() % 256); break;  // any byte, often malformed
            case 1: text += "\xE4\xB8"; break;                      // a truncated Han character
            case 2: text += "\xE0\x80\x80\xED\xA0\x80"; break;      // overlong and surrogate forms
            default: text += words[rng() % words.size()]; break;
            }
        }
        for (std::size_t p = 0; p <= text.size(); ++p) {
            if (p < text.size() && pre.longest_prefix(text, p) != built.longest_prefix(text, p)) ++mismatches;
            if (pre.longest_suffix(text, p) != built.longest_suffix(text, p)) ++mismatches;
        }
        if (pre.contains(text) != built.contains(text)) ++mismatches;
    }
    CHECK(mismatches == 0);
    CHECK(pre.longest_prefix("", 0) == 0);
    CHECK(pre.longest_suffix("", 0) == 0);
    CHECK(pre.longest_suffix("\xE4\xB8\xAD", 99) == 3);  // an end past the text is clamped
    CHECK_FALSE(pre.contains(""));
}

TEST_CASE("precomputed dictionary: segmentation identical in every mode", "[embedded][precomputed]") {
    const std::vector<std::string_view> words = all_words();
    std::mt19937 rng(7);
    for (const auto mode : {semfp::segment_mode::forward, semfp::segment_mode::reverse, semfp::segment_mode::bidirectional}) {
        const semfp::FmmSegmenter pre(semfp::embedded_dictionary(), mode);
        const semfp::FmmSegmenter built(built_at_run_time(), mode);
        std::size_t differ = 0;
        for (int round = 0; round < 2000; ++round) {
            std::string text;
            const int parts = 1 + static_cast<int>(rng() % 12);
            for (int k = 0; k < parts; ++k) {
                const std::string_view w = words[rng() % words.size()];
                // Pieces of words as well as whole ones, so matches cross word boundaries.
                const std::size_t chars = w.size() / 3;
                const std::size_t from = 3 * (rng() % chars);
                text += w.substr(from);
                if (rng() % 8 == 0) text += rng() % 2 ? "，" : " abc ";
            }
            if (segment(pre, text) != segment(built, text)) ++differ;
        }
        CHECK(differ == 0);
    }
}

TEST_CASE("precomputed dictionary: forward runs segment as word-by-word lookups", "[embedded][precomputed]") {
    // Forward mode over the precomputed tries segments runs of U+4E00..U+9FFF in windows of
    // decoded ids (seg_static_dict::forward_run); over built tries it looks each token up with
    // longest_prefix. Both must cut every input alike: runs longer than the window, runs cut
    // by malformed or truncated bytes, other ideograph blocks, other scripts and the text's end.
    const std::vector<std::string_view> words = all_words();
    const semfp::FmmSegmenter pre(semfp::embedded_dictionary(), semfp::segment_mode::forward);
    const semfp::FmmSegmenter built(built_at_run_time(), semfp::segment_mode::forward);
    const char* const others[] = {
        "\xE4\xB8",                     // truncated Han character
        "\xE4",                         // lone lead byte
        "\x80\xBF",                     // stray continuation bytes
        "\xFF",                         // never valid
        "\xE0\x80\x80",                 // overlong
        "\xED\xA0\x80",                 // surrogate
        "\xF0\xA0\x80\x80",             // U+20000, Han outside the BMP
        "\xE3\x90\x80",                 // U+3400, Extension A
        "\xEF\xA4\x80",                 // U+F900, compatibility ideograph
        "\xE3\x80\x87",                 // U+3007, ideographic zero
        "\xE4\xB8\x80",                 // U+4E00, first of the block
        "\xE9\xBF\xBF",                 // U+9FFF, last of the block (no word uses it)
        "\xE3\x81\x82\xE3\x81\x84",     // Hiragana
        "\xEA\xB0\x80",                 // Hangul
        "caf\xC3\xA9",                  // Latin
        "\xEF\xBC\x8C",                 // full-width comma
        "\xE3\x80\x82",                 // ideographic full stop
        " ", "\n", "iPhone15", "3.14", "-",
    };
    std::mt19937 rng(17);
    std::size_t differ = 0, long_runs = 0;
    for (int round = 0; round < 4000; ++round) {
        std::string text;
        // Some texts hold one long Han run (more characters than the window) between others.
        const bool long_run = round % 10 == 0;
        const int parts = long_run ? 400 : 1 + static_cast<int>(rng() % 24);
        for (int k = 0; k < parts; ++k) {
            if (!long_run && rng() % 3 == 0) {
                text += others[rng() % (sizeof others / sizeof others[0])];
                continue;
            }
            const std::string_view w = words[rng() % words.size()];
            const std::size_t chars = w.size() / 3;
            text += w.substr(3 * (rng() % chars));
        }
        if (long_run) ++long_runs;
        // Sometimes cut the text anywhere, even inside a character.
        if (rng() % 4 == 0 && !text.empty()) text.resize(rng() % text.size());
        if (segment(pre, text) != segment(built, text)) ++differ;
    }
    CHECK(long_runs == 400);
    CHECK(differ == 0);
    // A run that ends exactly at the end of the text, and one of a single character.
    CHECK(segment(pre, "\xE4\xB8\xAD\xE5\x9B\xBD") == segment(built, "\xE4\xB8\xAD\xE5\x9B\xBD"));
    CHECK(segment(pre, "\xE4\xB8\xAD") == std::vector<std::string>{"\xE4\xB8\xAD"});
}

TEST_CASE("precomputed dictionary: a modified copy gets tries of its own", "[embedded][precomputed]") {
    const semfp::Dictionary& embedded = semfp::embedded_dictionary();
    const std::string novel = "\xE9\xBE\x98\xE9\xBE\x98\xE9\xBE\x98\xE9\xBE\x98";  // not a jieba word
    REQUIRE_FALSE(embedded.contains(novel));

    semfp::Dictionary copy = embedded;
    CHECK(copy.memory_bytes() == 0);  // still the static tries
    CHECK(copy.add(novel));
    CHECK(copy.memory_bytes() > 0);
    CHECK(copy.size() == embedded.size() + 1);
    CHECK(copy.contains(novel));
    CHECK(copy.contains("中国"));
    CHECK(copy.longest_suffix("我们" + novel, 6 + novel.size()) == novel.size());
    CHECK_FALSE(embedded.contains(novel));
    CHECK(embedded.size() == semfp::detail::dict_data::word_count);

    const semfp::FmmSegmenter seg(copy, semfp::segment_mode::bidirectional);
    CHECK(segment(seg, "中华人民共和国" + novel) == std::vector<std::string>{"中华人民共和国", novel});

    // An invalid word leaves the copy as it was (still the static tries).
    semfp::Dictionary other = embedded;
    CHECK_THROWS_AS(other.add("\xFF"), semfp::invalid_argument_error);
    CHECK(other.memory_bytes() == 0);
    CHECK_FALSE(other.add("中国"));  // already there: nothing is built
    CHECK(other.memory_bytes() == 0);

    std::istringstream in("\xE9\xBE\x98\xE9\xBE\x98 3 n\n");
    other.load(in);
    CHECK(other.size() == embedded.size() + 1);
    CHECK(other.contains("\xE9\xBE\x98\xE9\xBE\x98"));

    semfp::Dictionary moved = std::move(other);
    CHECK(moved.size() == embedded.size() + 1);
    semfp::Dictionary assigned;
    assigned = embedded;
    CHECK(assigned.size() == embedded.size());
    CHECK(assigned.contains("研究生"));
}
