// The variant-side skip of the sketch (`signature_options::sketch_skip_variants`): the one-pass
// signature against `reference` and against the definition computed here independently (V built
// from the phrase table with std::set, occurrences found on the normalized text, tokens from the
// tokenizer, the kept ones fed to a `MinHashSketcher`), on every phrase between every kind of
// neighbour, adjacent phrases, random mixtures with malformed UTF-8, the sample articles, and
// texts made mostly of variant words (the paths where the text keeps its default sketch). Each
// text is checked alone and after 30 copies of one ASCII word (an exact set: every kept or
// dropped token shows), with the stopword filter and without it.
#include "support/catch.hpp"
#include "support/phrase_texts.hpp"
#include "support/sample_text.hpp"
#include "support/scale.hpp"
#include "support/two_tokenizer_checker.hpp"

#include <semfp/core/fingerprinter.hpp>
#include <semfp/core/signature.hpp>
#include <semfp/detail/tw_phrase_table.hpp>
#include <semfp/text/normalize.hpp>
#include <semfp/text/tokenizers.hpp>
#include <semfp/text/utf8.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace {

std::vector<std::string> vs_chars(std::string_view s) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = semfp::utf8::decode(s, i).length;
        out.emplace_back(s.substr(i, n));
        i += n;
    }
    return out;
}

// V, by the definition: bigrams of the `from` sides less those of any representative.
std::set<std::string> vs_variant_bigrams() {
    std::set<std::string> from, to;
    auto pairs = [](const std::vector<std::string>& c, std::set<std::string>& into) {
        for (std::size_t i = 0; i + 1 < c.size(); ++i)
            if (c[i].size() == 3 && c[i + 1].size() == 3) into.insert(c[i] + c[i + 1]);
    };
    for (const auto& p : semfp::detail::tw_phrase_table) {
        pairs(vs_chars(semfp_test::utf8_of(p.from)), from);
        pairs(vs_chars(p.to), to);
    }
    std::set<std::string> v;
    for (const std::string& b : from)
        if (to.count(b) == 0) v.insert(b);
    return v;
}

const std::set<std::string>& vs_variants() {
    static const std::set<std::string> v = vs_variant_bigrams();
    return v;
}

// The sketch the definition gives for `text` under tokenizer `Tok`.
template <class Tok>
semfp::MinHashSketch vs_defined_sketch(std::string_view text) {
    const std::string norm = semfp::normalize(text);
    std::vector<bool> covered(norm.size(), false);
    const std::vector<std::string> c = vs_chars(norm);
    for (std::size_t i = 0, at = 0; i + 1 < c.size(); at += c[i].size(), ++i)
        if (vs_variants().count(c[i] + c[i + 1]) != 0)
            for (std::size_t k = at; k < at + 6; ++k) covered[k] = true;
    std::vector<std::string_view> all, kept;
    Tok{}.tokenize(std::string_view(norm), [&](std::string_view t) { all.push_back(t); });
    for (const std::string_view t : all) {
        const auto b = static_cast<std::size_t>(t.data() - norm.data());
        bool out = false;
        for (std::size_t k = b; k < b + t.size(); ++k) out = out || covered[k];
        if (!out) kept.push_back(t);
    }
    semfp::MinHashSketcher s;
    for (const std::string_view t : kept.size() < semfp::MinHashSketcher::short_tokens ? all : kept) s.add_token(t);
    return s.finish(norm);
}

semfp::signature_options vs_skip_on() {
    semfp::signature_options o;
    o.sketch_skip_variants = true;
    return o;
}

}  // namespace

// Named, not anonymous: the header template `two_tokenizer_checker` holds it as a member.
namespace variant_skip_sides {

template <class Tok>
struct skip_side {
    semfp::SignatureFingerprinter<Tok, semfp::default_hash, 64> one{semfp::Fingerprinter<Tok, semfp::default_hash, 64>{},
                                                                    vs_skip_on()};
    semfp::SignatureFingerprinter<Tok, semfp::default_hash, 64> plain{};
    semfp::fingerprint_scratch a, b, c;

    // True if the skip changed the sketch.
    bool operator()(const std::string& t) {
        const semfp::Signature<64> got = one(t, a);
        const semfp::Signature<64> ref = one.reference(t, b);
        const semfp::MinHashSketch want = vs_defined_sketch<Tok>(t);
        const semfp::Signature<64> def = plain.reference(t, c);
        REQUIRE(got.fingerprint == def.fingerprint);
        REQUIRE(ref.fingerprint == def.fingerprint);
        REQUIRE(got.sketch == want);
        REQUIRE(ref.sketch == want);
        return want != def.sketch;
    }
};

}  // namespace variant_skip_sides

namespace {

using variant_skip_sides::skip_side;

using skip_checker = semfp_test::two_tokenizer_checker<skip_side>;

}  // namespace

TEST_CASE("Sketch variant skip: V is the variant side's bigrams less the representatives'", "[signature][sketch][skip]") {
    const semfp::detail::sketch_variant_table& t = semfp::detail::sketch_variants();
    std::set<std::string> got;
    for (const std::uint64_t k : t.keys) {
        std::string b;
        for (std::size_t i = 0; i < 6; ++i) b += static_cast<char>((k >> (8 * i)) & 0xFFu);
        got.insert(b);
        REQUIRE(t.contains(k));
        REQUIRE(t.contains(k ^ 0x010000u) == (vs_variants().count(std::string(b).replace(2, 1, 1, static_cast<char>(b[2] ^ 1))) != 0));
    }
    REQUIRE(got == vs_variants());
    REQUIRE(got.size() > 300);
    REQUIRE(!t.contains(0xAF81E6A1BFE4ull));  // 信息, a representative
}

TEST_CASE("Sketch variant skip: an option, off by default, without effect where the fingerprint folds",
          "[signature][sketch][skip]") {
    STATIC_REQUIRE(!semfp::default_signature_options<64>().sketch_skip_variants);
    STATIC_REQUIRE(!semfp::default_signature_options<128>().sketch_skip_variants);
    REQUIRE(!semfp::SignatureFingerprinter<>{}.sketch_skips());
    const semfp::SignatureFingerprinter<> on(semfp::DefaultFingerprinter<64>{}, vs_skip_on());
    REQUIRE(on.sketch_skips());
    semfp::signature_options both = vs_skip_on();
    both.sketch_fold_phrases = true;
    const semfp::SignatureFingerprinter<> fold_too(semfp::DefaultFingerprinter<64>{}, both);
    REQUIRE(!fold_too.sketch_skips());
    const semfp::SignatureFingerprinter<semfp::default_tokenizer, semfp::default_hash, 128> wide(
        semfp::DefaultFingerprinter<128>{}, vs_skip_on());
    REQUIRE(!wide.sketch_skips());
    const std::string t = std::string(semfp_test::article_a);
    REQUIRE(wide(t) == semfp::signature<128>(t));
    REQUIRE(fold_too(t) ==
            semfp::SignatureFingerprinter<>(semfp::DefaultFingerprinter<64>{}, semfp::signature_options{true})(t));
}

TEST_CASE("Sketch variant skip: a Taiwan-phrased copy comes closer, the mainland text keeps its words",
          "[signature][sketch][skip]") {
    // Information, user, server, software, program, file, default: mainland and Taiwan words.
    const std::string cn_words[] = {"\xE4\xBF\xA1\xE6\x81\xAF", "\xE7\x94\xA8\xE6\x88\xB7",
                                    "\xE6\x9C\x8D\xE5\x8A\xA1\xE5\x99\xA8", "\xE8\xBD\xAF\xE4\xBB\xB6"};
    const std::string tw_words[] = {"\xE8\xB3\x87\xE8\xA8\x8A", "\xE4\xBD\xBF\xE7\x94\xA8\xE8\x80\x85",
                                    "\xE4\xBC\xBA\xE6\x9C\x8D\xE5\x99\xA8", "\xE8\xBB\x9F\xE9\xAB\x94"};
    std::string cn, tw;
    for (int i = 0; i < 30; ++i) {
        cn += "w" + std::to_string(i % 10) + " ";
        tw += "w" + std::to_string(i % 10) + " ";
    }
    for (std::size_t i = 0; i < 4; ++i) {
        cn += "\xE6\x88\x91" + cn_words[i] + "\xE5\xA5\xBD ";
        tw += "\xE6\x88\x91" + tw_words[i] + "\xE5\xA5\xBD ";
    }
    const semfp::SignatureFingerprinter<> on(semfp::DefaultFingerprinter<64>{}, vs_skip_on());
    const semfp::Signature<64> a = on(cn), b = on(tw);
    REQUIRE(a.sketch.is_exact());
    REQUIRE(b.sketch.is_exact());
    // The mainland text keeps every token; the Taiwan words and their neighbours go.
    REQUIRE(a.sketch == semfp::signature<64>(cn).sketch);
    REQUIRE(b.sketch != semfp::signature<64>(tw).sketch);
    const double with = semfp::estimated_jaccard(a.sketch, b.sketch);
    const double without = semfp::estimated_jaccard(semfp::signature<64>(cn).sketch, semfp::signature<64>(tw).sketch);
    REQUIRE(with > without);
    REQUIRE(on.exact_jaccard(cn, tw) == Approx(with));
}

TEST_CASE("Sketch variant skip: every phrase between every kind of neighbour, adjacent phrases",
          "[signature][sketch][skip]") {
    skip_checker check;
    semfp_test::for_each_phrase_between_neighbours(1, check);
    REQUIRE(check.texts > 16 * semfp::detail::tw_phrase_table_size);
    REQUIRE(check.changed > check.texts / 8);
    semfp_test::for_each_adjacent_phrase_pair(semfp_test::sanitized_build ? 7 : 2,
                                              [&](const std::string& x, const std::string& y) { check(x + y); });
    for (std::size_t k = 0; k < 2; ++k) {
        check(semfp_test::all_phrases(k, false));
        check(semfp_test::all_phrases(k, true));
    }
}

TEST_CASE("Sketch variant skip: random mixtures with malformed UTF-8, texts of variant words, the sample articles",
          "[signature][sketch][skip]") {
    skip_checker check;
    semfp_test::check_sample_articles(check);
    std::mt19937_64 rng(20261125);
    const std::vector<std::string>& other = semfp_test::mixture_pieces();
    const std::size_t n = semfp_test::cases(3000, 20);
    for (std::size_t r = 0; r < n; ++r) {
        std::string t;
        // Mostly variant words in some texts (fewer than 30 tokens kept: the default sketch,
        // from the tokens the sink holds or, past them, from a second pass).
        const std::size_t share = r % 4 == 0 ? 10 : 3;
        const std::size_t pieces = 1 + rng() % (r % 4 == 0 ? 120 : 60);
        for (std::size_t k = 0; k < pieces; ++k) {
            if (rng() % share != 0) {
                const auto& p = semfp::detail::tw_phrase_table[rng() % semfp::detail::tw_phrase_table_size];
                t += rng() % 2 == 0 ? semfp_test::rendering(p.from, rng() % 3) : std::string(p.to);
            } else {
                t += other[rng() % other.size()];
            }
        }
        check(t);
    }
    REQUIRE(check.changed > check.texts / 4);
}
