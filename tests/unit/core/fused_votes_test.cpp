#include "support/catch.hpp"

#include <semfp/core/fingerprinter.hpp>
#include <semfp/core/fused_fingerprint.hpp>
#include <semfp/core/simhash.hpp>
#include <semfp/text/normalize.hpp>
#include <semfp/text/script_fold.hpp>
#include <semfp/text/utf8.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

// Random feature hashes whose bits are set with probability near 1/2 (so that many lanes end
// near the majority threshold, ties included) or strongly biased.
template <std::size_t Bits>
std::vector<typename semfp::Fingerprint<Bits>::storage_type> random_hashes(std::mt19937_64& rng, std::size_t n) {
    std::vector<typename semfp::Fingerprint<Bits>::storage_type> out(n);
    const int bias = static_cast<int>(rng() % 3);
    for (auto& h : out)
        for (auto& w : h) {
            w = rng();
            if (bias == 1) w |= rng();  // mostly ones
            if (bias == 2) w &= rng();  // mostly zeros
        }
    // A few repeated hashes (repeated tokens), and sometimes an exact tie on every bit.
    if (n >= 2 && rng() % 4 == 0)
        for (std::size_t k = 0; k + 1 < n; k += 2)
            for (std::size_t w = 0; w < Bits / 64; ++w) out[k + 1][w] = ~out[k][w];
    return out;
}

template <std::size_t Bits>
void check_votes(std::mt19937_64& rng, std::size_t n) {
    const auto hashes = random_hashes<Bits>(rng, n);
    semfp::Simhash<Bits> reference;
    for (const auto& h : hashes) reference.add_hashed(h, 1);
    // Blocks of sixteen and single features in random order, as the batches of the pass give.
    semfp::detail::fused_votes<Bits> votes;
    std::size_t k = 0;
    while (k < n) {
        if (n - k >= 16 && rng() % 3 != 0) {
            votes.add16(hashes.data() + k);
            k += 16;
        } else {
            votes.add(hashes[k]);
            ++k;
        }
    }
    INFO(n << " features, " << Bits << " bits");
    REQUIRE(votes.finish() == reference.finish());
}

// UTF-8 of a code point.
std::string utf8_of(char32_t c) {
    std::string s;
    semfp::utf8::append(s, c);
    return s;
}

// Texts dense in Taiwan phrases and their prefixes: phrases of the table (with some characters
// replaced by a Traditional form that folds to them), cut short, joined with separators,
// four-byte characters, malformed bytes and the end of the text at random places.
std::vector<std::string> phrase_texts() {
    std::vector<std::pair<char32_t, char32_t>> sources;  // (folded, traditional source)
    for (const auto& p : semfp::detail::t2s_table) sources.emplace_back(p.to, p.from);
    std::sort(sources.begin(), sources.end());
    std::mt19937 rng(4711);
    const std::size_t count = semfp::detail::tw_phrase_table_size;
    std::vector<std::string> out;
    for (int t = 0; t < 3000; ++t) {
        std::string s;
        const std::size_t pieces = 1 + rng() % 6;
        for (std::size_t q = 0; q < pieces; ++q) {
            const auto& phrase = semfp::detail::tw_phrase_table[rng() % count];
            std::size_t take = phrase.from.size();
            if (rng() % 3 == 0) take = 1 + rng() % take;  // a prefix only
            for (std::size_t c = 0; c < take; ++c) {
                char32_t ch = phrase.from[c];
                if (rng() % 4 == 0) {
                    // A Traditional form of the character, when it has one.
                    const auto lo = std::lower_bound(sources.begin(), sources.end(), std::make_pair(ch, char32_t{0}));
                    auto hi = lo;
                    while (hi != sources.end() && hi->first == ch) ++hi;
                    if (hi != lo) ch = (lo + static_cast<std::ptrdiff_t>(rng() % static_cast<std::size_t>(hi - lo)))->second;
                }
                s += utf8_of(ch);
            }
            switch (rng() % 8) {
            case 0: s += " "; break;
            case 1: s += "\xF0\xA0\x80\x80"; break;  // a four-byte Han character
            case 2: s += "\xE4\xB8"; break;          // truncated
            case 3: s += "ab"; break;
            case 4: s += "\xC3\xA9"; break;          // two bytes
            default: break;
            }
        }
        out.push_back(s);
    }
    return out;
}

}  // namespace

TEST_CASE("Fused votes: carry-save blocks give Simhash's fingerprint", "[fused]") {
    std::mt19937_64 rng(20261124);
    // Around the block size, the batch size and the 4,095 features the planes hold.
    for (const std::size_t n : std::initializer_list<std::size_t>{0, 1, 2, 15, 16, 17, 31, 32, 127, 128, 129, 255, 256, 4079, 4080, 4094, 4095, 4096,
                                4097, 4111, 8190, 8191, 12000}) {
        check_votes<64>(rng, n);
        check_votes<128>(rng, n);
    }
    for (int round = 0; round < 200; ++round) {
        const std::size_t n = rng() % 600;
        check_votes<64>(rng, n);
        check_votes<128>(rng, n);
    }
}

TEST_CASE("Fused pass: long texts (many vote blocks and flushes) match the reference path", "[fused]") {
    std::mt19937 rng(99);
    const char* pieces[] = {"\xE8\xBD\xAF\xE4\xBB\xB6", "\xE7\xA8\x8B\xE5\xBC\x8F", "\xE7\x9A\x84", " word ", "x1 ",
                            "\xEF\xBC\x8C", "\xE6\x96\x87\xE4\xBB\xB6", "\xE9\xAB\x94", "\xE4\xBD\xBF\xE7\x94\xA8", "\n"};
    semfp::fingerprint_scratch a, b;
    const semfp::DefaultFingerprinter<64> fp64{};
    const semfp::DefaultFingerprinter<128> fp128{};
    for (const std::size_t units : std::initializer_list<std::size_t>{3000, 9000, 30000}) {
        std::string s;
        for (std::size_t k = 0; k < units; ++k) s += pieces[rng() % std::size(pieces)];
        INFO(s.size() << " bytes");
        REQUIRE(fp64(s, a) == fp64.reference(s, b));
        REQUIRE(fp128(s, a) == fp128.reference(s, b));
    }
}

TEST_CASE("Fused pass: texts dense in Taiwan phrases match the reference path", "[fused]") {
    const auto texts = phrase_texts();
    std::string buf;
    semfp::normalize_options opt;
    opt.fold_phrases = true;
    for (const std::string& t : texts) {
        const std::size_t n = semfp::detail::fused_normalize(t, buf, opt);
        REQUIRE(std::string_view(buf.data(), n) == semfp::normalize(t, opt));
    }
    semfp::fingerprint_scratch a, b;
    const semfp::DefaultFingerprinter<128> fp128{};
    const semfp::DefaultFingerprinter<64> fp64{};
    for (const std::string& t : texts) {
        REQUIRE(fp128(t, a) == fp128.reference(t, b));
        REQUIRE(fp64(t, a) == fp64.reference(t, b));
    }
}

TEST_CASE("Fused pass: the raw phrase-prefix test never rejects a phrase start", "[fused]") {
    // Wherever the reference matcher finds a phrase in a text, the prefilter must say "maybe".
    for (const std::string& t : phrase_texts()) {
        std::size_t i = 0;
        while (i < t.size()) {
            const semfp::utf8::decoded d = semfp::utf8::decode(t, i);
            if (d.valid && d.length == 3) {
                const char32_t folded = semfp::fold_to_simplified(d.code_point);
                std::size_t ends[semfp::detail::tw_phrase_max_length]{};
                ends[0] = i + 3;
                const auto m = semfp::detail::match_tw_phrase(folded, [&](std::size_t j) -> char32_t {
                    const std::size_t at = ends[j - 1];
                    if (at >= t.size() || static_cast<unsigned char>(t[at]) < 0x80) return U'\0';
                    const semfp::utf8::decoded next = semfp::utf8::decode(t, at);
                    if (!next.valid) return U'\0';
                    ends[j] = at + next.length;
                    return semfp::fold_to_simplified(next.code_point);
                });
                if (m.chars != 0) REQUIRE(semfp::detail::fused_may_start_phrase(t, i, 3, folded));
            }
            i += d.length;
        }
    }
}
