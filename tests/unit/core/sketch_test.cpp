#include <semfp/core/sketch.hpp>
#include <semfp/detail/utf8_codec.hpp>

#include "support/catch.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace {

semfp::MinHashSketch sketch_of(const std::vector<std::uint64_t>& items) {
    semfp::MinHashSketcher s;
    for (const auto x : items) s.add(std::to_string(x));
    return s.finish();
}

}  // namespace

TEST_CASE("MinHashSketch of equal sets is equal, of the empty set empty", "[core][sketch]") {
    const std::vector<std::uint64_t> a = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    const std::vector<std::uint64_t> repeated = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1};
    REQUIRE(sketch_of(a).values() == sketch_of(repeated).values());
    REQUIRE(sketch_of(repeated).features() == 12);
    REQUIRE(semfp::estimated_jaccard(sketch_of(a), sketch_of(repeated)) == 1.0);
    const semfp::MinHashSketch empty = sketch_of({});
    REQUIRE(empty.empty());
    REQUIRE(semfp::estimated_jaccard(empty, empty) == 1.0);
    REQUIRE(semfp::estimated_jaccard(empty, sketch_of(a)) == 0.0);
    // The sketcher resets after finish.
    semfp::MinHashSketcher s;
    s.add("x");
    (void)s.finish();
    REQUIRE(s.finish().empty());
}

TEST_CASE("MinHashSketch estimates Jaccard within its stated error", "[core][sketch]") {
    // Sets of 400 elements with a chosen overlap; the estimate's standard deviation is at most
    // 0.045, so 0.15 is more than three of them.
    std::mt19937_64 rng(5);
    for (const double j : {0.0, 0.2, 0.5, 0.8, 0.95}) {
        CAPTURE(j);
        double worst = 0;
        for (int trial = 0; trial < 20; ++trial) {
            const std::size_t n = 400;
            // |A and B| = c, |A or B| = 2n - c, J = c / (2n - c).
            const auto c = static_cast<std::size_t>(std::lround(2.0 * n * j / (1 + j)));
            std::vector<std::uint64_t> a;
            std::vector<std::uint64_t> b;
            const std::uint64_t base = rng();
            for (std::size_t i = 0; i < c; ++i) {
                a.push_back(base + i);
                b.push_back(base + i);
            }
            for (std::size_t i = c; i < n; ++i) {
                a.push_back(base + 10'000 + i);
                b.push_back(base + 20'000 + i);
            }
            const double exact = static_cast<double>(c) / static_cast<double>(2 * n - c);
            worst = std::max(worst, std::abs(semfp::estimated_jaccard(sketch_of(a), sketch_of(b)) - exact));
        }
        CHECK(worst < 0.15);
    }
}

TEST_CASE("MinHashSketch of tiny sets: densified bins stay consistent", "[core][sketch]") {
    // One feature: every bin borrows from the same bin, so equal singletons agree everywhere
    // and different singletons almost nowhere.
    REQUIRE(semfp::estimated_jaccard(sketch_of({7}), sketch_of({7})) == 1.0);
    CHECK(semfp::estimated_jaccard(sketch_of({7}), sketch_of({8})) < 0.2);
    CHECK(semfp::estimated_jaccard(sketch_of({1, 2, 3}), sketch_of({1, 2, 4})) > 0.2);
}

TEST_CASE("MinHashSketch known answer (identical on every platform)", "[core][sketch]") {
    // A token hashes to the high word of its MurmurHash3 x64_128 digest, and so does a bigram of
    // the short view (its two characters' bytes joined, across white space too): one hash for
    // both views.
    STATIC_REQUIRE(semfp::MinHashSketcher::token_hash("ab") == semfp::Murmur3::hash128("ab").hi);
    constexpr auto first_bigram = [](std::string_view text) {
        std::uint64_t first = 0;
        bool seen = false;
        semfp::MinHashSketcher::for_each_text_bigram(text, [&](std::uint64_t h) {
            if (!seen) first = h;
            seen = true;
        });
        return first;
    };
    STATIC_REQUIRE(first_bigram("ab") == semfp::MinHashSketcher::token_hash("ab"));
    STATIC_REQUIRE(first_bigram(" a \n b") == semfp::MinHashSketcher::token_hash("ab"));
    STATIC_REQUIRE(first_bigram("\u4e2d \u6587") == semfp::Murmur3::hash128("\u4e2d\u6587").hi);
    const auto s = sketch_of({1, 2, 3});
    const auto again = sketch_of({3, 2, 1});
    REQUIRE(s == again);
    unsigned distinct = 0;
    for (std::size_t i = 1; i < s.values().size(); ++i) distinct += s.values()[i] != s.values()[0];
    CHECK(distinct > 0);
}

namespace {

// Exact Jaccard of the sketch's view of two sets (32-bit hashes, as the sketch keeps them).
double jaccard32(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) {
    auto set = [](const std::vector<std::uint64_t>& v) {
        std::vector<std::uint32_t> s;
        for (const auto x : v)
            s.push_back(static_cast<std::uint32_t>(semfp::MinHashSketcher::token_hash(std::to_string(x)) >> 32));
        std::sort(s.begin(), s.end());
        s.erase(std::unique(s.begin(), s.end()), s.end());
        return s;
    };
    const auto x = set(a);
    const auto y = set(b);
    std::vector<std::uint32_t> common;
    std::set_intersection(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(common));
    return static_cast<double>(common.size()) / static_cast<double>(x.size() + y.size() - common.size());
}

std::vector<std::uint64_t> range(std::uint64_t from, std::size_t n) {
    std::vector<std::uint64_t> v;
    for (std::size_t i = 0; i < n; ++i) v.push_back(from + i);
    return v;
}

}  // namespace

TEST_CASE("MinHashSketch keeps sets of at most 32 distinct features exactly", "[core][sketch]") {
    REQUIRE(sketch_of(range(0, 32)).is_exact());
    REQUIRE(sketch_of(range(0, 32)).set_size() == 32);
    REQUIRE_FALSE(sketch_of(range(0, 33)).is_exact());
    REQUIRE_FALSE(sketch_of({}).is_exact());
    // Repeats count as occurrences, not as set members.
    auto rep = range(0, 32);
    for (int i = 0; i < 5; ++i) rep.push_back(7);
    REQUIRE(sketch_of(rep).is_exact());
    REQUIRE(sketch_of(rep).features() == 37);
    // Between two exact sketches the similarity is the Jaccard similarity of the sets.
    std::mt19937_64 rng(11);
    for (int trial = 0; trial < 200; ++trial) {
        std::vector<std::uint64_t> a;
        std::vector<std::uint64_t> b;
        const std::size_t na = 1 + rng() % 32;
        const std::size_t nb = 1 + rng() % 32;
        for (std::size_t i = 0; i < na; ++i) a.push_back(rng() % 48);
        for (std::size_t i = 0; i < nb; ++i) b.push_back(rng() % 48);
        const auto sa = sketch_of(a);
        const auto sb = sketch_of(b);
        REQUIRE(sa.is_exact());
        REQUIRE(sb.is_exact());
        REQUIRE(semfp::estimated_jaccard(sa, sb) == jaccard32(a, b));
    }
}

TEST_CASE("MinHashSketch: exact and MinHash sketches are comparable", "[core][sketch]") {
    // 33 features (MinHash) against 32 of them (exact): J = 32 / 33. The bins of the exact
    // sketch are computed from its set as the sketcher computes them, so nearly all agree.
    const auto big = sketch_of(range(1000, 33));
    const auto small = sketch_of(range(1000, 32));
    REQUIRE_FALSE(big.is_exact());
    REQUIRE(small.is_exact());
    CHECK(semfp::estimated_jaccard(big, small) > 0.85);
    // Mixed sizes with a chosen overlap: within the b-bit estimate's stated error.
    std::mt19937_64 rng(3);
    double worst = 0;
    for (int trial = 0; trial < 100; ++trial) {
        const std::uint64_t base = rng() % 1'000'000 * 1000;
        const std::size_t shared = 5 + rng() % 25;
        std::vector<std::uint64_t> a = range(base, shared);
        std::vector<std::uint64_t> b = range(base, shared);
        for (std::size_t i = shared; i < 32; ++i) a.push_back(base + 500 + i);
        const std::size_t nb = 40 + rng() % 200;
        for (std::size_t i = shared; i < nb; ++i) b.push_back(base + 800 + i);
        REQUIRE(sketch_of(a).is_exact());
        REQUIRE_FALSE(sketch_of(b).is_exact());
        worst = std::max(worst, std::abs(semfp::estimated_jaccard(sketch_of(a), sketch_of(b)) - jaccard32(a, b)));
    }
    CHECK(worst < 0.15);
}

TEST_CASE("MinHashSketch saved form: round trip and invalid parts", "[core][sketch]") {
    for (const auto& s : {sketch_of({}), sketch_of(range(5, 3)), sketch_of(range(5, 32)), sketch_of(range(5, 300))}) {
        semfp::MinHashSketch back;
        REQUIRE(semfp::MinHashSketch::from_saved(s.payload(), s.state(), back));
        REQUIRE(back == s);
        REQUIRE(back.values() == s.values());
    }
    const auto s = sketch_of(range(5, 4));
    semfp::MinHashSketch out;
    // Set larger than 32, no occurrence, fewer occurrences than members at 30 or more (whole
    // tokens), unsorted hashes, bytes after the set.
    REQUIRE_FALSE(semfp::MinHashSketch::from_saved(s.payload(), (std::uint32_t{33} << 26) | 40u, out));
    REQUIRE_FALSE(semfp::MinHashSketch::from_saved(s.payload(), (std::uint32_t{4} << 26) | 0u, out));
    auto big = sketch_of(range(5, 32)).payload();
    REQUIRE_FALSE(semfp::MinHashSketch::from_saved(big, (std::uint32_t{32} << 26) | 31u, out));
    // Below 30 occurrences a set may outnumber them (the bigrams of a short text's ASCII words).
    semfp::MinHashSketch few;
    REQUIRE(semfp::MinHashSketch::from_saved(s.payload(), (std::uint32_t{4} << 26) | 3u, few));
    REQUIRE(few.set_size() == 4);
    auto swapped = s.payload();
    for (std::size_t b = 0; b < 4; ++b) std::swap(swapped[b], swapped[4 + b]);
    REQUIRE_FALSE(semfp::MinHashSketch::from_saved(swapped, s.state(), out));
    auto padded = s.payload();
    padded[100] = 1;
    REQUIRE_FALSE(semfp::MinHashSketch::from_saved(padded, s.state(), out));
    REQUIRE(out == semfp::MinHashSketch{});  // untouched by the refusals
    // Occurrence counts saturate.
    REQUIRE(semfp::MinHashSketch(s.values(), ~std::uint32_t{0}).features() == semfp::MinHashSketch::max_features);
}

TEST_CASE("MinHashSketcher::for_each_text_bigram: character bigrams of the text, white space removed", "[core][sketch]") {
    std::vector<std::uint64_t> hs;
    auto collect = [&hs](std::string_view t) {
        hs.clear();
        semfp::MinHashSketcher::for_each_text_bigram(t, [&hs](std::uint64_t h) { hs.push_back(h); });
        return hs;
    };
    using H = std::vector<std::uint64_t>;
    auto fh = [](std::string_view f) { return semfp::MinHashSketcher::token_hash(f); };
    // n characters give n - 1 bigrams, in order, repeats included, each by `token_hash` of its
    // bytes (the whole-token view's hash: a bigram and an equal token are one feature).
    REQUIRE(collect("tk_m") == H{fh("tk"), fh("k_"), fh("_m")});
    REQUIRE(collect("aaa") == H{fh("aa"), fh("aa")});
    REQUIRE(collect("\u4e2d\u6587\u672c") == H{fh("\u4e2d\u6587"), fh("\u6587\u672c")});
    REQUIRE(collect("a\u00e9b") == H{fh("a\u00e9"), fh("\u00e9b")});
    // White space is removed: the characters on both sides form a bigram.
    REQUIRE(collect(" a \t\n b  ") == H{fh("ab")});
    REQUIRE(collect("ab cd") == collect("abcd"));
    // One character: its own feature; nothing at all: no feature.
    REQUIRE(collect("  \u4e2d ") == H{fh("\u4e2d")});
    REQUIRE(collect("").empty());
    REQUIRE(collect(" \r\n").empty());
    // Stray bytes count one character each and never read past the end (a cut sequence).
    REQUIRE(collect(std::string_view("\xe4\xb8", 2)) == H{fh(std::string_view("\xe4\xb8", 2))});
    REQUIRE(collect(std::string_view("a\x80\xff", 3)) == H{fh("a\x80"), fh("\x80\xff")});
    REQUIRE(collect(std::string_view("\0\0", 2)) == H{fh(std::string_view("\0\0", 2))});
}

TEST_CASE("MinHashSketcher::finish(normalized): short texts in the bigram view, long ones in whole tokens", "[core][sketch]") {
    // add_token counts tokens; below short_tokens the set is the text's bigrams.
    semfp::MinHashSketcher by_token;
    by_token.add_token("tk_messagebox");
    by_token.add_token("\u5f39\u51fa");
    by_token.add_token("tk_messagebox");
    REQUIRE(by_token.is_short());
    const semfp::MinHashSketch s = by_token.finish("tk_messagebox \u5f39\u51fa");
    REQUIRE(s.features() == 3);
    REQUIRE(s.is_exact());
    REQUIRE(s.set_size() == 14);  // 15 characters without the space
    REQUIRE(by_token.is_short());  // reset
    REQUIRE(by_token.finish() == semfp::MinHashSketch{});
    semfp::MinHashSketcher by_hash;
    semfp::MinHashSketcher::for_each_text_bigram("tk_messagebox\u5f39\u51fa", [&by_hash](std::uint64_t h) { by_hash.add_hash(h); });
    REQUIRE(by_hash.finish().values() == s.values());
    // One substituted letter changes two bigrams, not the whole word.
    semfp::MinHashSketcher edited;
    edited.add_token("tk_messagebux");
    edited.add_token("\u5f39\u51fa");
    const double j = semfp::estimated_jaccard(s, edited.finish("tk_messagebux \u5f39\u51fa"));
    REQUIRE(j == 12.0 / 16.0);  // 12 shared of 14 + 2 new
    // No token: the empty sketch, whatever the text.
    semfp::MinHashSketcher none;
    REQUIRE(none.finish("...") == semfp::MinHashSketch{});

    constexpr std::uint32_t n = semfp::MinHashSketcher::short_tokens;
    auto words = [](std::uint32_t count, std::string& text) {
        semfp::MinHashSketcher sk;
        text.clear();
        for (std::uint32_t i = 0; i < count; ++i) {
            const std::string w = "word" + std::to_string(i);
            sk.add_token(w);
            text += w + " ";
        }
        return sk.finish(text);
    };
    std::string text;
    const semfp::MinHashSketch below = words(n - 1, text);
    REQUIRE(below.features() == n - 1);
    REQUIRE_FALSE(below.is_exact());  // far more than 32 bigrams
    semfp::MinHashSketcher bigrams;
    semfp::MinHashSketcher::for_each_text_bigram(text, [&bigrams](std::uint64_t h) { bigrams.add_hash(h); });
    REQUIRE(below.values() == bigrams.finish().values());
    // At short_tokens: whole words, 30 distinct hashes, an exact sketch of them; the text is not
    // looked at.
    const semfp::MinHashSketch at = words(n, text);
    REQUIRE(at.features() == n);
    REQUIRE(at.is_exact());
    REQUIRE(at.set_size() == n);
    semfp::MinHashSketcher whole;
    for (std::uint32_t i = 0; i < n; ++i) whole.add("word" + std::to_string(i));
    REQUIRE(whole.finish() == at);

    // The two views hash alike: the same Chinese bigrams as a short text's bigram view and as
    // whole tokens are the same features (a short text can match its long variant).
    semfp::MinHashSketcher cjk_short;
    semfp::MinHashSketcher cjk_plain;
    std::vector<std::uint32_t> token_set;
    for (const char* t : {"\u4e2d\u6587", "\u6587\u672c", "\u672c\u5730"}) {
        cjk_short.add_token(t);
        cjk_plain.add(t);
        token_set.push_back(static_cast<std::uint32_t>(semfp::MinHashSketcher::token_hash(t) >> 32));
    }
    std::sort(token_set.begin(), token_set.end());
    const semfp::MinHashSketch in_short_view = cjk_short.finish("\u4e2d \u6587\u672c\u5730");
    const semfp::MinHashSketch in_token_view = cjk_plain.finish();
    REQUIRE(in_token_view == semfp::MinHashSketch::exact(token_set.data(), token_set.size(), 3));
    REQUIRE(in_short_view == in_token_view);
    REQUIRE(semfp::estimated_jaccard(in_short_view, in_token_view) == 1.0);
}

TEST_CASE("MinHashSketcher::add_token on long ASCII input and odd bytes stays defined", "[core][sketch]") {
    // A long text of words overflows the exact set and keeps a MinHash sketch; NUL and 0x7F are
    // ordinary ASCII bytes.
    semfp::MinHashSketcher s;
    std::string word;
    for (int i = 0; i < 500; ++i) {
        word = "w" + std::to_string(i * 7919);
        s.add_token(word);
    }
    s.add_token(std::string_view("\0\x7f", 2));
    const semfp::MinHashSketch m = s.finish();
    REQUIRE_FALSE(m.is_exact());
    REQUIRE(m.features() == 501);
    REQUIRE(semfp::estimated_jaccard(m, m) == 1.0);
}


namespace {

// The character split of for_each_text_bigram before it used the shared decoder: the lead
// byte's length, one byte when a continuation byte is missing. Kept here to show that valid
// UTF-8 is split exactly as before.
std::vector<std::uint64_t> lead_byte_bigrams(std::string_view text) {
    std::vector<std::uint64_t> out;
    std::string_view prev;
    std::size_t chars = 0;
    for (std::size_t i = 0; i < text.size();) {
        const auto u = static_cast<unsigned char>(text[i]);
        if (u == ' ' || (u >= 0x09 && u <= 0x0D)) {
            ++i;
            continue;
        }
        std::size_t n = u < 0xC0 ? 1 : u < 0xE0 ? 2 : u < 0xF0 ? 3 : u < 0xF8 ? 4 : 1;
        for (std::size_t k = 1; k < n; ++k)
            if (i + k >= text.size() || (static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) n = 1;
        const std::string_view cur = text.substr(i, n);
        if (chars != 0) out.push_back(semfp::MinHashSketcher::token_hash(std::string(prev) + std::string(cur)));
        prev = cur;
        ++chars;
        i += n;
    }
    if (chars == 1) out.push_back(semfp::MinHashSketcher::token_hash(prev));
    return out;
}

std::vector<std::uint64_t> text_bigrams(std::string_view text) {
    std::vector<std::uint64_t> hs;
    semfp::MinHashSketcher::for_each_text_bigram(text, [&hs](std::uint64_t h) { hs.push_back(h); });
    return hs;
}

void append_utf8(std::string& s, char32_t cp) {
    char buf[4];
    s.append(buf, semfp::detail::utf8_encode(cp, buf));
}

}  // namespace

TEST_CASE("MinHashSketcher::for_each_text_bigram: valid UTF-8 split as before the shared decoder", "[core][sketch]") {
    std::mt19937_64 rng(20261124);
    for (int round = 0; round < 3000; ++round) {
        std::string text;
        const auto len = rng() % 24;
        for (std::uint64_t i = 0; i < len; ++i) {
            switch (rng() % 6) {
                case 0: text += static_cast<char>(0x20 + rng() % 0x5F); break;  // printable ASCII
                case 1: text += " \t\n\r\v\f"[rng() % 6]; break;
                case 2: append_utf8(text, static_cast<char32_t>(0x80 + rng() % (0x800 - 0x80))); break;
                case 3: append_utf8(text, static_cast<char32_t>(0x4E00 + rng() % 0x5200)); break;  // CJK
                case 4: {
                    char32_t cp = static_cast<char32_t>(0x800 + rng() % (0x10000 - 0x800));
                    if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
                    append_utf8(text, cp);
                    break;
                }
                default: append_utf8(text, static_cast<char32_t>(0x10000 + rng() % (0x110000 - 0x10000))); break;
            }
        }
        INFO(text);
        REQUIRE(text_bigrams(text) == lead_byte_bigrams(text));
    }
}

TEST_CASE("MinHashSketcher::for_each_text_bigram: malformed bytes are one-byte characters", "[core][sketch]") {
    auto fh = [](std::string_view f) { return semfp::MinHashSketcher::token_hash(f); };
    using H = std::vector<std::uint64_t>;
    using namespace std::string_view_literals;
    // Sequences the lead-byte rule took whole but utf8_decode rejects: each byte is a character,
    // hashed as that raw byte (not as U+FFFD).
    REQUIRE(text_bigrams("\xc0\xaf"sv) == H{fh("\xc0\xaf"sv)});                            // overlong '/'
    REQUIRE(text_bigrams("a\xc0\xaf"sv) == H{fh("a\xc0"sv), fh("\xc0\xaf"sv)});
    REQUIRE(text_bigrams("\xed\xa0\x80"sv) == H{fh("\xed\xa0"sv), fh("\xa0\x80"sv)});       // surrogate
    REQUIRE(text_bigrams("\xe0\x80\xaf"sv) == H{fh("\xe0\x80"sv), fh("\x80\xaf"sv)});       // overlong
    REQUIRE(text_bigrams("\xf4\x90\x80\x80"sv).size() == 3);                                 // above U+10FFFF
    REQUIRE(text_bigrams("\xf5\x80\x80\x80"sv).size() == 3);                                 // F5 lead
    REQUIRE(text_bigrams("\xf0\x80\x80\xaf"sv).size() == 3);                                 // overlong
    // A malformed byte next to a valid character: the character stays whole.
    REQUIRE(text_bigrams("\xff\xe4\xb8\xad"sv) == H{fh("\xff\xe4\xb8\xad"sv)});
    REQUIRE(text_bigrams("\xe4\xb8\xad\xc1"sv) == H{fh("\xe4\xb8\xad\xc1"sv)});
    // A sequence cut by the end: one character per byte, nothing read past the end.
    REQUIRE(text_bigrams("\xe4\xb8"sv) == H{fh("\xe4\xb8"sv)});
    REQUIRE(text_bigrams("\xf0\x9f\x98"sv) == H{fh("\xf0\x9f"sv), fh("\x9f\x98"sv)});
    // Random bytes: one bigram per pair of neighbouring characters as utf8_decode splits them
    // (white space removed), every byte of the text covered.
    std::mt19937_64 rng(7);
    for (int round = 0; round < 3000; ++round) {
        std::string text(rng() % 16, '\0');
        for (auto& c : text) c = static_cast<char>(rng() % 4 == 0 ? 0x80 + rng() % 0x80 : rng() % 256);
        std::size_t chars = 0;
        for (std::size_t i = 0; i < text.size();) {
            const auto u = static_cast<unsigned char>(text[i]);
            const bool space = u == ' ' || (u >= 0x09 && u <= 0x0D);
            const std::size_t n = semfp::detail::utf8_decode(text, i).length;
            REQUIRE((n >= 1 && i + n <= text.size()));
            chars += space ? 0 : 1;
            i += space ? 1 : n;
        }
        REQUIRE(text_bigrams(text).size() == (chars <= 1 ? chars : chars - 1));
    }
}
