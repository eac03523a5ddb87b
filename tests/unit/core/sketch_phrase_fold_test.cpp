// The Taiwan vocabulary fold in the sketch only (`signature_options::sketch_fold_phrases`): the
// one-pass signature against the reference, whose sketch is the
// sketch of the phrase-folded text computed step by step (`normalize_into` with `fold_phrases`,
// the tokenizer, `MinHashSketcher`) and whose fingerprint is `fingerprint<64>`'s, unfolded. Texts
// are made of the phrases themselves (every phrase in its Traditional renderings, between each
// kind of neighbour, cut short, overlapping, adjacent, all in one text), random mixtures with
// malformed UTF-8, and the sample articles; each is checked alone (the short view) and after 30
// copies of one ASCII word, so that the whole-token view holds an exact set (every added or
// dropped token shows) with the stopword filter and without it.
#include "support/catch.hpp"
#include "support/phrase_texts.hpp"
#include "support/sample_text.hpp"
#include "support/scale.hpp"
#include "support/two_tokenizer_checker.hpp"

#include <semfp/core/fingerprinter.hpp>
#include <semfp/core/signature.hpp>
#include <semfp/text/normalize.hpp>
#include <semfp/text/script_fold.hpp>
#include <semfp/text/tokenizers.hpp>
#include <semfp/text/utf8.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace {

using semfp_test::rendering;

template <class Tok>
semfp::SignatureFingerprinter<Tok, semfp::default_hash, 64> folded_reference() {
    semfp::fingerprint_options fo = semfp::default_fingerprint_options<64>();
    fo.normalize.fold_phrases = true;
    return semfp::SignatureFingerprinter<Tok, semfp::default_hash, 64>(
        semfp::Fingerprinter<Tok, semfp::default_hash, 64>(Tok{}, fo));
}

}  // namespace

// Named, not anonymous: the header template `two_tokenizer_checker` holds it as a member.
namespace phrase_fold_sides {

// One tokenizer's check: the one-pass signature equals its reference path, its fingerprint
// is the unfolded fingerprint, its sketch the sketch of the phrase-folded text.
template <class Tok>
struct sketch_side {
    semfp::SignatureFingerprinter<Tok, semfp::default_hash, 64> one{
        semfp::Fingerprinter<Tok, semfp::default_hash, 64>{}, semfp::signature_options{true}};
    semfp::SignatureFingerprinter<Tok, semfp::default_hash, 64> folded = folded_reference<Tok>();
    semfp::Fingerprinter<Tok, semfp::default_hash, 64> plain{};
    semfp::fingerprint_scratch a, b, c;

    // True if the phrase fold changed the sketch.
    bool operator()(const std::string& t) {
        const semfp::Signature<64> got = one(t, a);
        const semfp::Signature<64> ref = one.reference(t, b);
        const semfp::MinHashSketch want = folded.reference(t, c).sketch;
        REQUIRE(got.fingerprint == plain.reference(t, c));
        REQUIRE(ref.fingerprint == got.fingerprint);
        REQUIRE(got.sketch == want);
        REQUIRE(ref.sketch == want);
        return want != semfp::SignatureFingerprinter<Tok, semfp::default_hash, 64>(plain).reference(t, c).sketch;
    }
};

}  // namespace phrase_fold_sides

namespace {

using phrase_fold_sides::sketch_side;

using sketch_checker = semfp_test::two_tokenizer_checker<sketch_side>;

}  // namespace

TEST_CASE("Sketch phrase fold: an option, off by default, without effect where the fingerprint folds",
          "[signature][sketch][phrases]") {
    STATIC_REQUIRE(!semfp::default_signature_options<64>().sketch_fold_phrases);
    STATIC_REQUIRE(!semfp::default_signature_options<128>().sketch_fold_phrases);
    REQUIRE(!semfp::SignatureFingerprinter<>{}.sketch_folds());
    const semfp::SignatureFingerprinter<> on(semfp::DefaultFingerprinter<64>{}, semfp::signature_options{true});
    REQUIRE(on.sketch_folds());
    REQUIRE(on.options().sketch_fold_phrases);
    REQUIRE(!semfp::SignatureFingerprinter<semfp::default_tokenizer, semfp::default_hash, 128>(
                 semfp::DefaultFingerprinter<128>{}, semfp::signature_options{true})
                 .sketch_folds());
    // "Software" written the Taiwan way and the mainland way, after 60 ASCII words: one sketch,
    // two fingerprints (each `fingerprint<64>`); without the option, two sketches.
    std::string words;
    for (int i = 0; i < 60; ++i) words += "w" + std::to_string(i) + " ";
    const std::string tw = words + "\xE8\xBB\x9F\xE9\xAB\x94";
    const std::string cn = words + "\xE8\xBD\xAF\xE4\xBB\xB6";
    REQUIRE(on(tw).sketch == on(cn).sketch);
    REQUIRE(on(tw).fingerprint == semfp::fingerprint<64>(tw));
    REQUIRE(on(cn).fingerprint == semfp::fingerprint<64>(cn));
    REQUIRE(on(tw).fingerprint != on(cn).fingerprint);
    REQUIRE(semfp::signature<64>(tw).sketch != semfp::signature<64>(cn).sketch);
    REQUIRE(semfp::signature<64>(tw) ==
            semfp::SignatureFingerprinter<>{}.reference(tw, *std::make_unique<semfp::fingerprint_scratch>()));
    // The exact Jaccard similarity follows the sketch's view.
    REQUIRE(on.exact_jaccard(tw, cn) == 1.0);
    REQUIRE(semfp::SignatureFingerprinter<>{}.exact_jaccard(tw, cn) < 1.0);
}

TEST_CASE("Sketch phrase fold: every phrase, in its renderings and between every kind of neighbour",
          "[signature][sketch][phrases]") {
    sketch_checker check;
    semfp_test::for_each_phrase_between_neighbours(semfp_test::sanitized_build ? 1 : 2, check);
    REQUIRE(check.texts > (semfp_test::sanitized_build ? 16 : 120) * semfp::detail::tw_phrase_table_size);
    REQUIRE(check.changed > check.texts / 4);
}

TEST_CASE("Sketch phrase fold: overlapping and adjacent phrases, all phrases in one text",
          "[signature][sketch][phrases]") {
    sketch_checker check;
    const std::string run(semfp_test::han_run);
    const std::size_t overlaps =
        semfp_test::for_each_overlapping_phrase_pair([&](const std::string& t) { check(run + t + run); });
    REQUIRE(overlaps > 50);
    semfp_test::for_each_adjacent_phrase_pair(semfp_test::sanitized_build ? 7 : 1,
                                              [&](const std::string& x, const std::string& y) {
                                                  check(x + y);
                                                  check(run + y + x + run);
                                              });
    for (std::size_t k = 0; k < 2; ++k) {
        check(semfp_test::all_phrases(k, false));
        check(semfp_test::all_phrases(k, true));
    }
}

TEST_CASE("Sketch phrase fold: random mixtures with malformed UTF-8, and the sample articles",
          "[signature][sketch][phrases]") {
    sketch_checker check;
    semfp_test::check_sample_articles(check);
    std::mt19937_64 rng(20261125);
    // Pieces: phrases (Traditional and folded), and the others of `mixture_pieces`.
    const std::vector<std::string>& other = semfp_test::mixture_pieces();
    const std::size_t n = semfp_test::cases(3000, 20);
    for (std::size_t r = 0; r < n; ++r) {
        std::string t;
        const std::size_t pieces = 1 + rng() % 60;
        for (std::size_t k = 0; k < pieces; ++k) {
            if (rng() % 3 == 0) {
                const auto& p = semfp::detail::tw_phrase_table[rng() % semfp::detail::tw_phrase_table_size];
                t += rng() % 2 == 0 ? rendering(p.from, rng() % 3) : std::string(p.to);
            } else {
                t += other[rng() % other.size()];
            }
        }
        check(t);
    }
}
