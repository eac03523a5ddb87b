// Engines over dictionary-free tokenizers: character bigrams and the library's default.
#include "engine_impl.hpp"

#include <semfp/core/fingerprinter.hpp>
#include <semfp/text/tokenizers.hpp>

namespace semfp::cli {

std::unique_ptr<Engine> make_bigram_engine(const pipeline_options& opt) {
    // The library's default tokenizer is character bigrams without stopwords; plain bigrams are
    // the other dictionary-free choice.
    if (opt.tokenizer == tokenizer_kind::library_default) return detail::make_with_tokenizer(opt, default_tokenizer{});
    return detail::make_with_tokenizer(opt, CharBigramTokenizer{});
}

}  // namespace semfp::cli
