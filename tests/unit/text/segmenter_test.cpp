#include "support/catch.hpp"

#include <semfp/concepts.hpp>
#include <semfp/core/fingerprinter.hpp>
#include <semfp/text/dictionary.hpp>
#include <semfp/text/segmenter.hpp>
#include <semfp/text/stopwords.hpp>

#include <algorithm>
#include <cstddef>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

using semfp::segment_mode;
using tokens = std::vector<std::string>;

tokens segment(const semfp::FmmSegmenter& seg, std::string_view text) {
    tokens out;
    seg.tokenize(text, [&](std::string_view t) {
        // Every token is a non-empty view into the text.
        REQUIRE(!t.empty());
        REQUIRE(t.data() >= text.data());
        REQUIRE(t.data() + t.size() <= text.data() + text.size());
        out.emplace_back(t);
    });
    return out;
}

tokens segment(const semfp::Dictionary& d, segment_mode mode, std::string_view text) {
    return segment(semfp::FmmSegmenter(d, mode), text);
}

}  // namespace

TEST_CASE("FmmSegmenter models Tokenizer", "[segmenter]") {
    STATIC_REQUIRE(semfp::Tokenizer<semfp::FmmSegmenter>);
    STATIC_REQUIRE(semfp::Tokenizer<semfp::StopwordFilter<semfp::FmmSegmenter>>);
    STATIC_REQUIRE(!semfp::Tokenizer<semfp::Dictionary>);
    const semfp::Dictionary d;
    CHECK(semfp::FmmSegmenter(d).mode() == segment_mode::forward);
    CHECK(&semfp::FmmSegmenter(d).dictionary() == &d);
}

TEST_CASE("FmmSegmenter: forward, reverse and bidirectional on hand-checked sentences", "[segmenter]") {
    SECTION("research the origin of life") {
        const semfp::Dictionary d{"研究", "研究生", "生命", "命", "起源"};
        const std::string s = "研究生命起源";
        CHECK(segment(d, segment_mode::forward, s) == tokens{"研究生", "命", "起源"});
        CHECK(segment(d, segment_mode::reverse, s) == tokens{"研究", "生命", "起源"});
        // Same number of words; the reverse one has fewer single characters.
        CHECK(segment(d, segment_mode::bidirectional, s) == tokens{"研究", "生命", "起源"});
    }
    SECTION("combine into molecules") {
        const semfp::Dictionary d{"结合", "合成", "成分", "分子"};
        const std::string s = "结合成分子";
        CHECK(segment(d, segment_mode::forward, s) == tokens{"结合", "成分", "子"});
        CHECK(segment(d, segment_mode::reverse, s) == tokens{"结", "合成", "分子"});
        // A full tie goes to reverse matching.
        CHECK(segment(d, segment_mode::bidirectional, s) == tokens{"结", "合成", "分子"});
    }
    SECTION("he said it is indeed reasonable") {
        const semfp::Dictionary d{"的确", "确实", "实在", "在理"};
        const std::string s = "他说的确实在理";
        CHECK(segment(d, segment_mode::forward, s) == tokens{"他", "说", "的确", "实在", "理"});
        CHECK(segment(d, segment_mode::reverse, s) == tokens{"他", "说", "的", "确实", "在理"});
        CHECK(segment(d, segment_mode::bidirectional, s) == tokens{"他", "说", "的", "确实", "在理"});
    }
    SECTION("bidirectional prefers fewer words") {
        const semfp::Dictionary d{"中华人", "民共", "人民共"};
        const std::string s = "中华人民共";
        CHECK(segment(d, segment_mode::forward, s) == tokens{"中华人", "民共"});
        CHECK(segment(d, segment_mode::reverse, s) == tokens{"中", "华", "人民共"});
        CHECK(segment(d, segment_mode::bidirectional, s) == tokens{"中华人", "民共"});
    }
    SECTION("bidirectional prefers fewer single characters") {
        const semfp::Dictionary d{"中华", "人民", "华人民"};
        const std::string s = "中华人民";
        CHECK(segment(d, segment_mode::reverse, s) == tokens{"中", "华人民"});
        CHECK(segment(d, segment_mode::bidirectional, s) == tokens{"中华", "人民"});
    }
    SECTION("bidirectional decides region by region") {
        const semfp::Dictionary d{"研究", "研究生", "生命", "命", "起源", "中华人", "民共", "人民共"};
        const std::string s = "研究生命起源中华人民共";
        CHECK(segment(d, segment_mode::bidirectional, s) ==
              tokens{"研究", "生命", "起源", "中华人", "民共"});
    }
}

TEST_CASE("FmmSegmenter: unknown Han characters are single tokens", "[segmenter]") {
    const semfp::Dictionary empty;
    for (const auto mode : {segment_mode::forward, segment_mode::reverse, segment_mode::bidirectional}) {
        CHECK(segment(empty, mode, "中文分词") == tokens{"中", "文", "分", "词"});
        CHECK(segment(empty, mode, "\xF0\xA0\x80\x80\xE4\xB8\xAD") == tokens{"\xF0\xA0\x80\x80", "中"});
    }
    const semfp::Dictionary d{"分词"};
    CHECK(segment(d, segment_mode::forward, "中文分词器") == tokens{"中", "文", "分词", "器"});
}

TEST_CASE("FmmSegmenter: mixed text, punctuation and other scripts", "[segmenter]") {
    const semfp::Dictionary d{"拍照", "价格", "编码", "中国", "人民"};
    for (const auto mode : {segment_mode::forward, segment_mode::reverse, segment_mode::bidirectional}) {
        const semfp::FmmSegmenter seg(d, mode);
        CHECK(segment(seg, "我用iPhone15拍照，价格3.14元。UTF-8编码") ==
              tokens{"我", "用", "iPhone15", "拍照", "价格", "3.14", "元", "UTF-8", "编码"});
        // ASCII, CJK and full-width punctuation and spaces (U+3000 included) are separators.
        CHECK(segment(seg, "中国、人民！“中国”（人民）…… 中国\xE3\x80\x80人民 ,.;:!? [a] {b}") ==
              tokens{"中国", "人民", "中国", "人民", "中国", "人民", "a", "b"});
        CHECK(segment(seg, "\xEF\xBC\x81\xEF\xBC\x9F\xEF\xBC\x8C").empty());  // full-width ! ? ,
        CHECK(segment(seg, "   \t\r\n").empty());
        CHECK(segment(seg, "").empty());
        // Inner '.', '-', '_' only between alphanumerics.
        CHECK(segment(seg, "a.b-c_d. -x- 1..2") == tokens{"a.b-c_d", "x", "1", "2"});
        // Letters of other scripts continue a word; kana and hangul runs are one token each.
        CHECK(segment(seg, "caf\xC3\xA9 na\xC3\xAFve \xD0\x9C\xD0\xBE\xD1\x81\xD0\xBA\xD0\xB2\xD0\xB0") ==
              tokens{"caf\xC3\xA9", "na\xC3\xAFve", "\xD0\x9C\xD0\xBE\xD1\x81\xD0\xBA\xD0\xB2\xD0\xB0"});
        CHECK(segment(seg, "\xE3\x82\xAB\xE3\x82\xBF\xE3\x82\xAB\xE3\x83\x8A\xE4\xB8\xAD\xE5\x9B\xBD"
                           "\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4") ==
              tokens{"\xE3\x82\xAB\xE3\x82\xBF\xE3\x82\xAB\xE3\x83\x8A", "中国", "\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4"});
        // Full-width letters count as letters of a word.
        CHECK(segment(seg, "\xEF\xBC\xA1\xEF\xBC\xA2\xEF\xBC\x91中国") == tokens{"\xEF\xBC\xA1\xEF\xBC\xA2\xEF\xBC\x91", "中国"});
        // Emoji and symbols are separators.
        CHECK(segment(seg, "中国\xF0\x9F\x98\x80人民\xE2\x82\xAC") == tokens{"中国", "人民"});
    }
}

TEST_CASE("FmmSegmenter: invalid UTF-8 bytes are separators", "[segmenter]") {
    const semfp::Dictionary d{"中国", "人民"};
    for (const auto mode : {segment_mode::forward, segment_mode::reverse, segment_mode::bidirectional}) {
        const semfp::FmmSegmenter seg(d, mode);
        CHECK(segment(seg, "\xFF中国\xC0\x80人民\xE4\xB8") == tokens{"中国", "人民"});
        CHECK(segment(seg, "中\xE5\x9B人民") == tokens{"中", "人民"});  // truncated 国
        CHECK(segment(seg, "ab\x80" "cd\xED\xA0\x80" "ef") == tokens{"ab", "cd", "ef"});  // lone continuation, surrogate
        CHECK(segment(seg, "\xF0\x9F\x98") .empty());
        CHECK(segment(seg, "\xE4\xB8\xAD\xE5\x9B\xBD\xE4").back() == "中国");
        // All 256 single bytes and some pairs never crash and never produce empty tokens.
        for (int b = 0; b < 256; ++b) {
            const std::string one(1, static_cast<char>(b));
            (void)segment(seg, one);
            (void)segment(seg, "中" + one + "国");
            (void)segment(seg, one + "\xE4\xB8");
        }
    }
}

TEST_CASE("FmmSegmenter: huge input and long Han runs", "[segmenter]") {
    const semfp::Dictionary d{"研究", "研究生", "生命", "命", "起源", "中华人", "民共", "人民共"};
    SECTION("a long text with separators") {
        std::string text;
        while (text.size() < (4u << 20)) text += "研究生命起源，iPhone15 中华人民共。";
        for (const auto mode : {segment_mode::forward, segment_mode::reverse, segment_mode::bidirectional}) {
            const semfp::FmmSegmenter seg(d, mode);
            std::size_t count = 0;
            std::size_t bytes = 0;
            seg.tokenize(text, [&](std::string_view t) {
                ++count;
                bytes += t.size();
            });
            const std::size_t reps = text.size() / std::string("研究生命起源，iPhone15 中华人民共。").size();
            const std::size_t per = mode == segment_mode::reverse ? 7 : (mode == segment_mode::forward ? 6 : 6);
            CHECK(count == reps * per);
            CHECK(bytes > 0);
        }
    }
    SECTION("a Han run far longer than the window") {
        std::string text;
        while (text.size() < 200000) text += "研究生命起源中华人民共";
        for (const auto mode : {segment_mode::forward, segment_mode::reverse, segment_mode::bidirectional}) {
            const semfp::FmmSegmenter seg(d, mode);
            // Tokens tile the run exactly, and each is a word or a single character.
            std::size_t at = 0;
            bool tiles = true;
            bool words = true;
            seg.tokenize(text, [&](std::string_view t) {
                tiles = tiles && t.data() == text.data() + at;
                at += t.size();
                words = words && (d.contains(t) || semfp::utf8::decode(t, 0).length == t.size());
            });
            CHECK(tiles);
            CHECK(words);
            CHECK(at == text.size());
        }
    }
    SECTION("malformed input of every kind in bulk") {
        std::string junk;
        for (int i = 0; i < 200000; ++i) junk.push_back(static_cast<char>((i * 7919) & 0xFF));
        for (const auto mode : {segment_mode::forward, segment_mode::reverse, segment_mode::bidirectional}) {
            const semfp::FmmSegmenter seg(d, mode);
            std::size_t bytes = 0;
            seg.tokenize(junk, [&](std::string_view t) { bytes += t.size(); });
            CHECK(bytes <= junk.size());
        }
    }
}

TEST_CASE("FmmSegmenter: user words added at run time take effect", "[segmenter]") {
    semfp::Dictionary d{"区块"};
    const semfp::FmmSegmenter fwd(d);
    const semfp::FmmSegmenter bi(d, segment_mode::bidirectional);
    CHECK(segment(fwd, "区块链技术") == tokens{"区块", "链", "技", "术"});
    d.add("区块链");
    d.add("技术");
    CHECK(segment(fwd, "区块链技术") == tokens{"区块链", "技术"});
    CHECK(segment(bi, "区块链技术") == tokens{"区块链", "技术"});
}

TEST_CASE("FmmSegmenter: const and shared across threads", "[segmenter]") {
    const semfp::Dictionary d{"研究", "研究生", "生命", "命", "起源"};
    const semfp::FmmSegmenter seg(d, segment_mode::bidirectional);
    std::string text;
    for (int i = 0; i < 2000; ++i) text += "研究生命起源。";
    const tokens expected = segment(seg, text);
    std::vector<std::thread> threads;
    std::vector<int> ok(4, 0);
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            tokens got;
            seg.tokenize(text, [&](std::string_view tok) { got.emplace_back(tok); });
            ok[static_cast<std::size_t>(t)] = got == expected ? 1 : 0;
        });
    for (auto& th : threads) th.join();
    CHECK(ok == std::vector<int>{1, 1, 1, 1});
}

TEST_CASE("FmmSegmenter composes with StopwordFilter and Fingerprinter", "[segmenter]") {
    const semfp::Dictionary d{"研究", "生命", "起源", "我们"};
    const semfp::FmmSegmenter seg(d);
    const semfp::StopwordFilter<semfp::FmmSegmenter> filtered(seg);
    tokens got;
    filtered.tokenize("我们的研究", [&](std::string_view t) { got.emplace_back(t); });
    CHECK(std::find(got.begin(), got.end(), "的") == got.end());
    CHECK(std::find(got.begin(), got.end(), "研究") != got.end());

    const semfp::Fingerprinter<semfp::FmmSegmenter> fp(seg);
    CHECK(fp("研究生命起源") == fp("研究生命起源"));
    CHECK(fp("研究生命起源") != fp("完全不同的内容"));
}

namespace {

// Reference maximum matching over one Han run given as code points (brute force).
using cps = std::vector<char32_t>;

std::vector<std::size_t> ref_forward(const cps& run, const std::set<cps>& words) {
    std::vector<std::size_t> ends;
    std::size_t i = 0;
    while (i < run.size()) {
        std::size_t len = 1;
        for (std::size_t l = run.size() - i; l > 1; --l)
            if (words.count(cps(run.begin() + static_cast<std::ptrdiff_t>(i), run.begin() + static_cast<std::ptrdiff_t>(i + l)))) {
                len = l;
                break;
            }
        i += len;
        ends.push_back(i);
    }
    return ends;
}

std::vector<std::size_t> ref_reverse(const cps& run, const std::set<cps>& words) {
    std::vector<std::size_t> ends;
    std::size_t e = run.size();
    while (e > 0) {
        std::size_t len = 1;
        for (std::size_t l = e; l > 1; --l)
            if (words.count(cps(run.begin() + static_cast<std::ptrdiff_t>(e - l), run.begin() + static_cast<std::ptrdiff_t>(e)))) {
                len = l;
                break;
            }
        ends.insert(ends.begin(), e);
        e -= len;
    }
    return ends;
}

std::vector<std::size_t> ref_bidirectional(const cps& run, const std::set<cps>& words) {
    const auto f = ref_forward(run, words);
    const auto r = ref_reverse(run, words);
    std::vector<std::size_t> out;
    std::size_t fi = 0, ri = 0, start = 0;
    while (fi < f.size()) {
        std::size_t fe = fi, re = ri;
        while (f[fe] != r[re]) {
            if (f[fe] < r[re]) ++fe;
            else ++re;
        }
        auto count_singles = [](const std::vector<std::size_t>& ends, std::size_t b, std::size_t from, std::size_t to) {
            std::size_t n = 0;
            for (std::size_t t = from; t <= to; ++t) {
                if (ends[t] - b == 1) ++n;
                b = ends[t];
            }
            return n;
        };
        const std::size_t nf = fe - fi + 1, nr = re - ri + 1;
        bool use_f = nf < nr;
        if (nf == nr) use_f = count_singles(f, start, fi, fe) < count_singles(r, start, ri, re);
        if (use_f) out.insert(out.end(), f.begin() + static_cast<std::ptrdiff_t>(fi), f.begin() + static_cast<std::ptrdiff_t>(fe + 1));
        else out.insert(out.end(), r.begin() + static_cast<std::ptrdiff_t>(ri), r.begin() + static_cast<std::ptrdiff_t>(re + 1));
        start = f[fe];
        fi = fe + 1;
        ri = re + 1;
    }
    return out;
}

}  // namespace

TEST_CASE("FmmSegmenter agrees with brute-force maximum matching", "[segmenter]") {
    std::mt19937 rng(42);
    // A small alphabet (one character outside the BMP) so that words overlap a lot.
    const cps alphabet{0x4E00, 0x4E8C, 0x4E09, 0x56DB, 0x4E94, 0x516D, 0x20001};
    std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
    std::uniform_int_distribution<int> word_len(2, 5);
    std::set<cps> words;
    std::vector<std::string> utf8_words;
    for (int i = 0; i < 120; ++i) {
        cps w;
        const int n = word_len(rng);
        for (int k = 0; k < n; ++k) w.push_back(alphabet[pick(rng)]);
        if (!words.insert(w).second) continue;
        std::string u;
        for (const char32_t c : w) semfp::utf8::append(u, c);
        utf8_words.push_back(u);
    }
    const semfp::Dictionary d(utf8_words);
    for (const auto mode : {segment_mode::forward, segment_mode::reverse, segment_mode::bidirectional}) {
        const semfp::FmmSegmenter seg(d, mode);
        std::uniform_int_distribution<int> run_len(1, 40);
        for (int trial = 0; trial < 300; ++trial) {
            // A few Han runs separated by punctuation and ASCII.
            std::string text;
            std::vector<std::string> expected;
            for (int r = 0; r < 3; ++r) {
                cps run;
                const int n = run_len(rng);
                for (int k = 0; k < n; ++k) run.push_back(alphabet[pick(rng)]);
                const auto ends = mode == segment_mode::forward   ? ref_forward(run, words)
                                  : mode == segment_mode::reverse ? ref_reverse(run, words)
                                                                  : ref_bidirectional(run, words);
                std::size_t b = 0;
                for (const std::size_t e : ends) {
                    std::string tok;
                    for (std::size_t k = b; k < e; ++k) semfp::utf8::append(tok, run[k]);
                    expected.push_back(tok);
                    b = e;
                }
                for (const char32_t c : run) semfp::utf8::append(text, c);
                text += r == 0 ? "\xEF\xBC\x8C" : " x1 ";
                if (r != 0) expected.emplace_back("x1");
            }
            REQUIRE(segment(seg, text) == expected);
        }
    }
}
