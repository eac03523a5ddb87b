#pragma once
/// \file
/// semfp: near-duplicate detection for Chinese text with semantic fingerprints.
/// The umbrella header: every public component except the embedded dictionary
/// (include <semfp/dict/embedded.hpp> for that, in one translation unit).

#include <semfp/concepts.hpp>
#include <semfp/error.hpp>
#include <semfp/version.hpp>

#include <semfp/core/any_fingerprint.hpp>
#include <semfp/core/classic_hash.hpp>
#include <semfp/core/digest.hpp>
#include <semfp/core/fingerprint.hpp>
#include <semfp/core/fingerprinter.hpp>
#include <semfp/core/hash.hpp>
#include <semfp/core/signature.hpp>
#include <semfp/core/simhash.hpp>
#include <semfp/core/sketch.hpp>
#include <semfp/core/weighting.hpp>

#include <semfp/text/article.hpp>
#include <semfp/text/char_class.hpp>
#include <semfp/text/dictionary.hpp>
#include <semfp/text/encoding.hpp>
#include <semfp/text/html.hpp>
#include <semfp/text/normalize.hpp>
#include <semfp/text/script_fold.hpp>
#include <semfp/text/segmenter.hpp>
#include <semfp/text/sentences.hpp>
#include <semfp/text/stopwords.hpp>
#include <semfp/text/synonyms.hpp>
#include <semfp/text/tokenizers.hpp>
#include <semfp/text/utf8.hpp>

#include <semfp/index/bloom_filter.hpp>
#include <semfp/index/fingerprint_set.hpp>
#include <semfp/index/hamming_index.hpp>
#include <semfp/index/posting_index.hpp>
#include <semfp/index/serialization.hpp>
#include <semfp/index/single_pass_clusterer.hpp>
#include <semfp/index/union_find.hpp>

#include <semfp/copy/copy_index.hpp>
#include <semfp/copy/passages.hpp>
#include <semfp/copy/winnowing.hpp>

#include <semfp/image/colour_layout.hpp>

#include <semfp/signature/imatch.hpp>
#include <semfp/signature/keyword.hpp>
#include <semfp/signature/period.hpp>
#include <semfp/signature/sentence.hpp>

#include <semfp/baseline/jaccard_clusterer.hpp>
#include <semfp/baseline/minhash.hpp>
#include <semfp/baseline/shingle.hpp>
