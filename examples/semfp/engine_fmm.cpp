// Engines over the dictionary segmenter. The only translation unit that compiles the embedded
// dictionary.
#include "engine_impl.hpp"

#include <semfp/dict/embedded.hpp>
#include <semfp/text/segmenter.hpp>

namespace semfp::cli {

std::unique_ptr<Engine> make_fmm_engine(const pipeline_options& opt) {
    return detail::make_with_tokenizer(opt, FmmSegmenter(embedded_dictionary()));
}

}  // namespace semfp::cli
