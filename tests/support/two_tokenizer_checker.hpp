#pragma once
// Runs one per-tokenizer check of a signature option on a text twice, with the stopword filter
// (`default_tokenizer`) and without it (`CharBigramTokenizer`): alone (the short view) and after
// 30 copies of one ASCII word, so that the whole-token view holds an exact set (every added or
// dropped token shows). `Side<Tok>` is callable on a text and returns true when the option
// changed the sketch; `changed` counts those of the two sides' texts it reports.
#include "support/catch.hpp"

#include <semfp/core/fingerprinter.hpp>
#include <semfp/text/tokenizers.hpp>

#include <cstddef>
#include <string>

namespace semfp_test {

template <template <class> class Side>
struct two_tokenizer_checker {
    Side<semfp::default_tokenizer> filtered;
    Side<semfp::CharBigramTokenizer> bigrams;
    std::string filler;
    std::size_t texts = 0, changed = 0;

    two_tokenizer_checker() {
        for (int i = 0; i < 30; ++i) filler += "zq ";
    }
    void operator()(const std::string& t) {
        INFO("text: " << t);
        changed += filtered(t) ? 1 : 0;
        bigrams(t);
        filtered(filler + t);
        changed += bigrams(filler + t) ? 1 : 0;
        texts += 2;
    }
};

}  // namespace semfp_test
