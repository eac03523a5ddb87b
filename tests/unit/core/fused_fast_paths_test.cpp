// The fast paths of the fused fingerprint pass against the general ones: the loop over runs of
// common Han characters, the inline table of the bundled stopword list, the stopword prefilter
// read through `StopwordList::prefilter`, the fast "no phrase here" test and the shared
// three-byte UTF-8 formula.
#include "support/catch.hpp"
#include "support/fused_reference.hpp"

#include <semfp/core/fingerprinter.hpp>
#include <semfp/core/fused_fingerprint.hpp>
#include <semfp/core/fused_hash.hpp>
#include <semfp/core/simhash.hpp>
#include <semfp/text/script_fold.hpp>
#include <semfp/detail/utf8_codec.hpp>
#include <semfp/detail/utf8_three.hpp>
#include <semfp/text/stopwords.hpp>
#include <semfp/text/utf8.hpp>

#include <array>
#include <cstddef>
#include <iterator>
#include <cstdint>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace {

std::string utf8_of(char32_t c) {
    std::string s;
    semfp::utf8::append(s, c);
    return s;
}

// Texts made of long runs of three-byte Han characters of every kind the run loop must leave
// to the general steps (Traditional forms, characters and pairs that start Taiwan phrases,
// U+4000..U+4DFF with the Yijing block, a lead byte cut short, a four-byte character next), the
// bundled stopwords, and the units that end a run (ASCII, full-width forms, kana, other scripts).
std::vector<std::string> run_texts(std::size_t count, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<std::string> pool;
    for (char32_t c = 0x4E00; c < 0x9FA6; c += 97) pool.push_back(utf8_of(c));        // common Han
    for (std::size_t k = 0; k < semfp::detail::t2s_table_size; k += 37)                // Traditional forms
        pool.push_back(utf8_of(semfp::detail::t2s_table[k].from));
    for (std::size_t k = 0; k < semfp::detail::tw_phrase_table_size; k += 7) {        // phrases, whole and cut
        std::string p;
        for (const char32_t c : semfp::detail::tw_phrase_table[k].from) p += utf8_of(c);
        pool.push_back(p);
        pool.push_back(utf8_of(semfp::detail::tw_phrase_table[k].from[0]));
    }
    for (std::size_t k = 0; k < std::size(semfp::detail::stopwords_zh); k += 3) pool.emplace_back(semfp::detail::stopwords_zh[k]);
    for (const char32_t c : {U'\x4000', U'\x4DBF', U'\x4DC0', U'\x4DFF', U'\x4DFE', U'\x3400', U'\x9FFF', U'\x9FA5', U'\x4E00'})
        pool.push_back(utf8_of(c));
    const std::vector<std::string> breaks{" ", "a", "Ab9", ".", "\xEF\xBC\x8C", "\xEF\xBC\xA1", "\xE3\x80\x80", "\xE3\x81\x82",
                                          "\xCE\xA9", "\xF0\xA0\x80\x80", "\xE4\xB8", "\xE9", "\xFF", std::string(1, '\0'),
                                          "\xE4\xB8\x80\xE4"};
    std::uniform_int_distribution<std::size_t> pick(0, pool.size() - 1), brk(0, breaks.size() - 1), len(0, 40);
    std::vector<std::string> out;
    for (std::size_t t = 0; t < count; ++t) {
        std::string s;
        const std::size_t runs = 1 + t % 9;
        for (std::size_t r = 0; r < runs; ++r) {
            const std::size_t n = len(rng);
            for (std::size_t k = 0; k < n; ++k) s += pool[pick(rng)];
            if (rng() % 4 != 0) s += breaks[brk(rng)];
        }
        if (t % 5 == 0 && !s.empty()) s.resize(rng() % s.size());  // cut anywhere, even inside a unit
        out.push_back(std::move(s));
    }
    return out;
}

using semfp_test::require_same_as_reference;

}  // namespace

TEST_CASE("Fused fast paths: runs of Han characters give the reference's fingerprints", "[fused]") {
    const auto texts = run_texts(3000, 1117);
    require_same_as_reference(semfp::DefaultFingerprinter<64>{}, texts);
    require_same_as_reference(semfp::DefaultFingerprinter<128>{}, texts);
    semfp::fingerprint_options opt;
    opt.normalize.fold_script = false;
    require_same_as_reference(semfp::DefaultFingerprinter<64>(semfp::default_tokenizer{}, opt), texts);
    opt.normalize.fold_script = true;
    opt.normalize.fold_phrases = true;
    require_same_as_reference(semfp::Fingerprinter<semfp::CharBigramTokenizer, semfp::default_hash, 64>(
                                  semfp::CharBigramTokenizer{}, opt),
                              texts);
}

TEST_CASE("Fused fast paths: the bundled list's table answers as StopwordList::contains", "[fused]") {
    const semfp::StopwordList& list = *semfp::bundled_stopwords();
    const auto& table = semfp::detail::fused_bundled_stopword_table();
    auto same = [&](std::string_view w) {
        if (w.empty() || w.size() > semfp::detail::fused_bundled_stopwords::max_length) return;
        const std::string padded = std::string(w) + std::string(semfp::detail::fused_padding, '\0');
        INFO("word of " << w.size() << " bytes");
        REQUIRE(table.contains(padded.data(), w.size(), semfp::detail::stopword_key(w)) == list.contains(w));
    };
    std::size_t listed = 0;
    for (const std::string_view w : semfp::detail::stopwords_zh) {
        same(w);
        if (!w.empty() && w.size() <= semfp::detail::fused_bundled_stopwords::max_length) {
            const std::string padded = std::string(w) + std::string(semfp::detail::fused_padding, '\0');
            REQUIRE(table.contains(padded.data(), w.size(), semfp::detail::stopword_key(w)));
            ++listed;
        }
        // Near misses: one byte changed (first, middle, last), cut short, one byte longer.
        for (const std::size_t at : {std::size_t{0}, w.size() / 2, w.size() - 1}) {
            if (w.empty()) break;
            std::string x(w);
            x[at] = static_cast<char>(x[at] ^ 0x01);
            same(x);
        }
        same(w.substr(0, w.size() - (w.empty() ? 0 : 1)));
        same(std::string(w) + "a");
    }
    REQUIRE(listed > 700);
    // Words over eight bytes that differ from a listed one only in their last two bytes and land
    // in the same slot chain (same top key bits): only the comparison of the last eight bytes
    // tells them apart.
    std::size_t crafted = 0;
    for (const std::string_view w : semfp::detail::stopwords_zh) {
        if (w.size() <= 8 || w.size() > semfp::detail::fused_bundled_stopwords::max_length) continue;
        const std::uint64_t home = semfp::detail::stopword_key(w) >> 53;
        std::string x(w);
        for (unsigned v = 0; v < 0x10000; ++v) {
            x[x.size() - 2] = static_cast<char>(v & 0xFF);
            x[x.size() - 1] = static_cast<char>(v >> 8);
            if (x == w || (semfp::detail::stopword_key(x) >> 53) != home) continue;
            same(x);
            ++crafted;
        }
    }
    REQUIRE(crafted > 100);
    std::mt19937 rng(5);
    for (int k = 0; k < 20000; ++k) {
        std::string x;
        const std::size_t n = 1 + rng() % 16;
        for (std::size_t i = 0; i < n; ++i) x.push_back(static_cast<char>(rng() & 0xFF));
        same(x);
    }
}

TEST_CASE("Fused fast paths: a copy of the bundled list gives the same fingerprints", "[fused]") {
    // The copy is another object, so the fused pass asks StopwordList::contains instead of the table.
    const auto copy = std::make_shared<const semfp::StopwordList>(*semfp::bundled_stopwords());
    const semfp::default_tokenizer tok(semfp::CharBigramTokenizer{}, copy);
    const semfp::DefaultFingerprinter<64> bundled64{}, copied64(tok);
    const semfp::DefaultFingerprinter<128> bundled128{}, copied128(tok);
    semfp::fingerprint_scratch a, b;
    for (const std::string& t : run_texts(1500, 4242)) {
        REQUIRE(bundled64(t, a) == copied64(t, b));
        REQUIRE(bundled128(t, a) == copied128(t, b));
    }
}

TEST_CASE("Fused fast paths: StopwordList::prefilter is the table may_contain_key reads", "[fused]") {
    const semfp::StopwordList& list = *semfp::bundled_stopwords();
    const std::span<const std::uint64_t> bits = list.prefilter();
    constexpr unsigned n = semfp::StopwordList::prefilter_bits;
    REQUIRE(bits.size() == (std::size_t{1} << (n - 6)));
    std::mt19937_64 rng(99);
    for (int k = 0; k < 100000; ++k) {
        const std::uint64_t key = rng();
        REQUIRE((((bits[key >> (64 - n + 6)] >> ((key >> (64 - n)) & 63)) & 1u) != 0) == list.may_contain_key(key));
    }
    REQUIRE(semfp::StopwordList{}.prefilter().empty());
}

TEST_CASE("Fused fast paths: no phrase is missed by the quick phrase test", "[fused]") {
    // Wherever fused_no_phrase_at says "none", fused_may_start_phrase says so too, and the
    // reference matcher finds no phrase.
    const auto& raw = semfp::detail::tw_raw_prefix_tables();
    std::size_t checked = 0, cleared = 0, found = 0;
    for (const std::string& t : run_texts(800, 77)) {
        const auto* s = reinterpret_cast<const unsigned char*>(t.data());
        for (std::size_t i = 0; i + 3 <= t.size(); ++i) {
            const char32_t c = semfp::detail::fused_decode3(s + i);
            if (c < 0x4E00 || c > 0x9FFF || semfp::fold_to_simplified(c) != c) continue;
            ++checked;
            semfp::detail::tw_phrase_reader next{t};
            next.ends[0] = i + 3;
            const bool phrase = semfp::detail::match_tw_phrase(c, next).chars != 0;
            found += phrase ? 1 : 0;
            if (!semfp::detail::fused_no_phrase_at(t, i, c, raw)) continue;
            ++cleared;
            REQUIRE_FALSE(phrase);
            REQUIRE_FALSE(semfp::detail::fused_may_start_phrase(t, i, 3, c, raw));
        }
    }
    REQUIRE(checked > 10000);
    REQUIRE(found > 100);
    REQUIRE(cleared > checked / 4);
}

TEST_CASE("Fused fast paths: the quick phrase test never rules out a phrase start", "[fused]") {
    // Every phrase of the table, written with its own characters and with every Traditional
    // form that folds to its first two, then followed by each kind of unit: the quick test
    // (on the folded first character, as the general steps call it) must answer "maybe".
    const auto& raw = semfp::detail::tw_raw_prefix_tables();
    std::vector<std::vector<char32_t>> sources(0x10000);  // code point -> forms that fold to it
    for (std::size_t k = 0; k < semfp::detail::t2s_table_size; ++k) {
        const char32_t to = semfp::fold_to_simplified(semfp::detail::t2s_table[k].from);
        if (to < 0x10000) sources[to].push_back(semfp::detail::t2s_table[k].from);
    }
    const std::vector<std::string> tails{"", "\xE4\xB8\x80\xE4\xB8\x80\xE4\xB8\x80", "\xF0\xA0\x80\x80" "abcdefgh", "abcdefghij"};
    std::size_t tested = 0;
    for (std::size_t e = 0; e < semfp::detail::tw_phrase_table_size; ++e) {
        const std::u32string_view from = semfp::detail::tw_phrase_table[e].from;
        std::vector<char32_t> firsts{from[0]}, seconds;
        if (from[0] < 0x10000) firsts.insert(firsts.end(), sources[from[0]].begin(), sources[from[0]].end());
        if (from.size() > 1) {
            seconds.push_back(from[1]);
            if (from[1] < 0x10000) seconds.insert(seconds.end(), sources[from[1]].begin(), sources[from[1]].end());
        } else {
            seconds.push_back(U'\0');
        }
        std::string rest;
        for (std::size_t k = 2; k < from.size(); ++k) rest += utf8_of(from[k]);
        for (const char32_t a : firsts) {
            if (a < 0x800 || a >= 0x10000) continue;  // the test reads three-byte characters only
            const char32_t folded = semfp::fold_to_simplified(a);
            if (folded >= 0x10000) continue;
            for (const char32_t b : seconds)
                for (const std::string& tail : tails) {
                    const std::string t = utf8_of(a) + (b == U'\0' ? std::string() : utf8_of(b)) + rest + tail;
                    semfp::detail::tw_phrase_reader next{t};
                    next.ends[0] = 3;
                    if (semfp::detail::match_tw_phrase(folded, next).chars == 0) continue;  // cut by the tail
                    ++tested;
                    INFO("phrase " << e);
                    REQUIRE_FALSE(semfp::detail::fused_no_phrase_at(t, 0, static_cast<std::uint32_t>(folded), raw));
                }
        }
    }
    REQUIRE(tested > semfp::detail::tw_phrase_table_size);

    // Random text, at every three-byte unit with its folded code point: "none" from the quick
    // test means none from fused_may_start_phrase and from the reference matcher.
    std::size_t checked = 0, cleared = 0, folds = 0;
    for (const std::string& t : run_texts(800, 91)) {
        const auto* s = reinterpret_cast<const unsigned char*>(t.data());
        for (std::size_t i = 0; i + 3 <= t.size(); ++i) {
            const char32_t c = semfp::detail::fused_decode3(s + i);
            if (c == 0) continue;
            const char32_t folded = semfp::fold_to_simplified(c);
            if (folded >= 0x10000) continue;
            ++checked;
            if (!semfp::detail::fused_no_phrase_at(t, i, static_cast<std::uint32_t>(folded), raw)) continue;
            ++cleared;
            folds += folded != c ? 1 : 0;
            semfp::detail::tw_phrase_reader next{t};
            next.ends[0] = i + 3;
            REQUIRE(semfp::detail::match_tw_phrase(folded, next).chars == 0);
            REQUIRE_FALSE(semfp::detail::fused_may_start_phrase(t, i, 3, folded, raw));
        }
    }
    REQUIRE(checked > 10000);
    REQUIRE(cleared > checked / 4);
    REQUIRE(folds > 100);
}

TEST_CASE("Fused fast paths: the run loop's tables and pair test answer as the general tests", "[fused]") {
    // The Han-block bitmaps equal the BMP ones they are cut from.
    for (std::uint32_t c = 0x4E00; c <= 0x9FFF; ++c) {
        const std::uint32_t w = (c >> 6) - static_cast<std::uint32_t>(semfp::detail::fused_han_first_word);
        const bool fold = ((semfp::detail::fused_han_fold_bitmap[w] >> (c & 63)) & 1u) != 0;
        const bool stop = ((semfp::detail::fused_han_stop_bitmap[w] >> (c & 63)) & 1u) != 0;
        const bool t2s = ((semfp::detail::t2s_bmp_bitmap[c >> 6] >> (c & 63)) & 1u) != 0;
        const bool single = semfp::detail::fused_test_bit(semfp::detail::tw_single_bitmap, c);
        REQUIRE(fold == t2s);
        REQUIRE(stop == (t2s || single));
    }
    // At every common Han character that neither folds nor is a one-character phrase, with nine
    // bytes left: the pair test of the run loop answers as fused_no_phrase_at, including before
    // a four-byte unit and a lead byte cut short.
    const auto& raw = semfp::detail::tw_raw_prefix_tables();
    std::vector<std::string> texts = run_texts(800, 4242);
    const std::vector<std::string> four{"\xF0\xA0\x80\x80", "\xF0\x9F\x98\x80", "\xF8\x80\x80", "\xFF\xFF\xFF"};
    for (std::size_t k = 0; k < semfp::detail::tw_phrase_table_size; k += 5) {
        const std::u32string_view from = semfp::detail::tw_phrase_table[k].from;
        if (from.size() < 2) continue;
        for (const std::string& f : four) {
            texts.push_back(utf8_of(from[0]) + f + "abcdefgh");
            texts.push_back(utf8_of(from[0]) + utf8_of(from[1]) + f + "abcdefgh");
        }
    }
    std::size_t checked = 0, cleared = 0, before_four = 0;
    for (const std::string& t : texts) {
        const auto* s = reinterpret_cast<const unsigned char*>(t.data());
        for (std::size_t i = 0; i + 9 <= t.size(); ++i) {
            const char32_t c = semfp::detail::fused_decode3(s + i);
            if (c < 0x4E00 || c > 0x9FFF) continue;
            const std::uint32_t w = (c >> 6) - static_cast<std::uint32_t>(semfp::detail::fused_han_first_word);
            if (((semfp::detail::fused_han_stop_bitmap[w] >> (c & 63)) & 1u) != 0) continue;
            ++checked;
            before_four += s[i + 3] >= 0xF0 ? 1 : 0;
            const bool quick = semfp::detail::fused_no_pair_phrase_at(t.data() + i, raw);
            REQUIRE(quick == semfp::detail::fused_no_phrase_at(t, i, static_cast<std::uint32_t>(c), raw));
            cleared += quick ? 1 : 0;
        }
    }
    REQUIRE(checked > 10000);
    REQUIRE(cleared > checked / 4);
    REQUIRE(before_four > 100);
}

TEST_CASE("Fused fast paths: the two-loop 128-bit hash gives fused_feature_bits", "[fused]") {
    std::mt19937 rng(5);
    std::string buf(64 + semfp::detail::fused_padding, '\0');
    for (int round = 0; round < 20000; ++round) {
        const std::size_t n = rng() % 40;
        for (std::size_t k = 0; k < n; ++k) buf[k] = static_cast<char>(rng());
        for (std::size_t k = n; k < n + semfp::detail::fused_padding; ++k) buf[k] = '\0';
        auto h = semfp::detail::fused_murmur3_words(buf.data(), n);
        semfp::detail::fused_mix_murmur3(h);
        const auto want = semfp::detail::fused_feature_bits<128, semfp::Mixed<semfp::Murmur3>>(buf.data(), n);
        REQUIRE(h == want);
        REQUIRE(want == semfp::detail::feature_bits<128, semfp::Mixed<semfp::Murmur3>>(std::string_view(buf.data(), n)));
    }
    STATIC_REQUIRE(semfp::detail::fused_split_mix<128, semfp::Mixed<semfp::Murmur3>>);
    STATIC_REQUIRE(!semfp::detail::fused_split_mix<64, semfp::Mixed<semfp::Murmur3>>);
}

TEST_CASE("Fused fast paths: the batch mix of the 128-bit hash gives fused_mix_murmur3 on every path", "[fused]") {
    // Batches of every length up to 40 (whole vector steps and every remainder), random words
    // and the edge words; each path must give what fused_mix_murmur3 gives hash by hash.
    std::mt19937_64 rng(17);
    const std::uint64_t edges[] = {0, 1, ~std::uint64_t{0}, std::uint64_t{1} << 63, 0x8000000080000000ull};
    for (int round = 0; round < 400; ++round) {
        const std::size_t m = static_cast<std::size_t>(round) % 41;
        std::vector<std::array<std::uint64_t, 2>> in(m + 1);
        for (std::size_t k = 0; k < in.size(); ++k) {
            in[k] = {rng(), rng()};
            if (round % 5 == 0) in[k][k % 2] = edges[(k + static_cast<std::size_t>(round)) % std::size(edges)];
        }
        std::vector<std::array<std::uint64_t, 2>> want = in;
        for (std::size_t k = 0; k < m; ++k) semfp::detail::fused_mix_murmur3(want[k]);
        // The element after the batch must stay as it was.
        std::vector<std::array<std::uint64_t, 2>> got = in;
        semfp::detail::fused_mix_murmur3_batch(got.data(), m);
        REQUIRE(got == want);
        got = in;
        semfp::detail::fused_mix_murmur3_scalar(got.data(), m);
        REQUIRE(got == want);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
        if (semfp::detail::fused_has_avx512dq()) {
            got = in;
            semfp::detail::fused_mix_murmur3_avx512(got.data(), m);
            REQUIRE(got == want);
        }
#endif
    }
    // The words of one hash, mixed, are the 128-bit Mixed<Murmur3> of its bytes.
    std::string buf(32 + semfp::detail::fused_padding, '\0');
    std::vector<std::array<std::uint64_t, 2>> hashes, want;
    for (int t = 0; t < 37; ++t) {
        const std::size_t n = 1 + static_cast<std::size_t>(t) % 20;
        for (std::size_t k = 0; k < n; ++k) buf[k] = static_cast<char>(rng());
        for (std::size_t k = n; k < n + semfp::detail::fused_padding; ++k) buf[k] = '\0';
        hashes.push_back(semfp::detail::fused_murmur3_words(buf.data(), n));
        want.push_back(semfp::detail::feature_bits<128, semfp::Mixed<semfp::Murmur3>>(std::string_view(buf.data(), n)));
    }
    semfp::detail::fused_mix_murmur3_batch(hashes.data(), hashes.size());
    REQUIRE(hashes == want);
}

TEST_CASE("Fused fast paths: the shared three-byte formula decodes as utf8_decode", "[fused]") {
    for (unsigned b0 = 0xE0; b0 <= 0xEF; ++b0)
        for (unsigned b1 = 0x80; b1 <= 0xBF; ++b1)
            for (unsigned b2 = 0x80; b2 <= 0xBF; b2 += 7) {
                const char bytes[3] = {static_cast<char>(b0), static_cast<char>(b1), static_cast<char>(b2)};
                const auto d = semfp::detail::utf8_decode(std::string_view(bytes, 3), 0);
                if (!d.valid) continue;
                REQUIRE(semfp::detail::utf8_three_byte_value(b0, b1, b2) == static_cast<std::uint32_t>(d.code_point));
                REQUIRE(semfp::detail::fused_decode3(reinterpret_cast<const unsigned char*>(bytes)) == d.code_point);
            }
}
