#pragma once
// Options of the semfp tool's subcommands, filled in by args.cpp.

#include <cstddef>
#include <string>
#include <vector>

namespace semfp::cli {

/// How an input is read.
enum class input_format { detect, jsonl, lines, html, text };

/// Which text of an HTML document is fingerprinted: the article (semfp::extract_main_text,
/// which falls back to all visible text on pages without a clear article) or all visible text.
enum class html_text_mode { main, all };

/// Which character encoding inputs are decoded from.
enum class input_encoding { detect, utf8, gb18030 };

/// The tokenizer of the fingerprint pipeline: the library's `default_tokenizer`, character
/// bigrams, or dictionary words.
enum class tokenizer_kind { library_default, bigram, fmm };

/// The hash policy of the fingerprint pipeline: the library's `default_hash`, or one of the
/// bundled policies (mixed with a finalizer unless `raw_hash`).
enum class hash_kind { library_default, murmur, fnv, sdbm };

/// The near-duplicate criterion of `dedup` (keyword, imatch, exact: equal signatures, see
/// signatures.hpp).
enum class dedup_method { simhash, shingle, minhash, keyword, imatch, exact, period };

/// How `dedup` and `cluster` turn within-radius pairs into clusters: Single-Pass (the paper's
/// clusterer, in input order) or connected components of the within-radius graph.
enum class link_kind { single_pass, components };

/// The second stage of simhash near-duplicates: none (Hamming distance alone) or a MinHash
/// sketch of the same tokens (semfp::two_stage_rule).
enum class verify_kind { none, sketch };

/// What `fingerprint` prints and `seen` stores: a Simhash fingerprint or an exact signature.
enum class signature_method { simhash, keyword, imatch, exact };

/// Parameters of the exact-signature methods (signatures.hpp).
struct signature_options {
    signature_method method = signature_method::simhash;
    std::size_t keywords = 8;     ///< keyword: n
    bool frequencies = false;     ///< keyword: hash quantized frequencies too
    std::string idf_path;         ///< keyword (TF-IDF) and imatch: `term idf` lines
    double min_idf = 0.0;         ///< imatch: lexicon band
    double max_idf = 1e300;
    std::size_t lexicons = 1;     ///< imatch: K sub-lexicons
    double keep_fraction = 0.7;   ///< imatch: share of the lexicon in each sub-lexicon (K > 1)
    std::size_t min_terms = 1;    ///< imatch: fewest kept terms a sub-lexicon signature needs
    double noun_boost = 1.0;      ///< keyword: part-of-speech boost (embedded jieba tags)
    double proper_boost = 1.0;
    double verb_boost = 1.0;
};

struct input_options {
    std::vector<std::string> paths;  ///< files, directories, or "-" for standard input
    input_format format = input_format::detect;
    input_encoding encoding = input_encoding::detect;
    std::string id_field = "id";
    std::string text_field = "text";
    bool strict = false;
    html_text_mode html_text = html_text_mode::main;
    /// Longest line (JSON Lines, lines) or file (text, HTML) read as one document; longer ones
    /// are bad input, so hostile input cannot exhaust memory.
    std::size_t max_document_bytes = std::size_t{256} << 20;
};

struct pipeline_options {
    unsigned bits = 64;
    tokenizer_kind tokenizer = tokenizer_kind::library_default;  // semfp::default_tokenizer
    hash_kind hash = hash_kind::library_default;        // semfp::default_hash
    bool raw_hash = false;
    std::size_t shingle_width = 3;
};

struct run_options {
    unsigned threads = 0;  ///< 0: one per hardware thread
    bool quiet = false;
};

struct fingerprint_command {
    input_options input;
    pipeline_options pipeline;
    run_options run;
    signature_options signature;
    std::string out = "-";
    bool binary = false;            ///< --out-format bin (fp_file.hpp) instead of id<TAB>hex
    unsigned shard_index = 0;       ///< --shard I/N: records whose ordinal mod N == I
    unsigned shard_count = 1;
    verify_kind verify = verify_kind::none;  ///< sketch: also compute the MinHash sketch (args.cpp: the simhash default)
};

struct dedup_command {
    input_options input;
    pipeline_options pipeline;
    run_options run;
    dedup_method method = dedup_method::simhash;
    signature_options signature;  ///< keyword/imatch/exact parameters (method set from `method`)
    int hd = -1;               ///< Hamming radius; -1: semfp::recommended_distance
    bool match_members = false;  ///< simhash: compare with every member, not only centres
    double threshold = 0.95;   ///< Jaccard threshold of shingle/minhash
    std::string out = "-";     ///< one line per document
    bool tsv = false;          ///< write id<TAB>cluster instead of JSON Lines
    std::string keep;          ///< the kept documents (cluster centres), empty: not written
    std::string state;         ///< simhash: the saved clustering state (loaded when present, then saved)
    link_kind link = link_kind::single_pass;
    verify_kind verify = verify_kind::none;  ///< args.cpp: sketch for simhash unless --verify none
};

/// `semfp cluster FP_FILES...`: clusters the shards written by `fingerprint --out-format bin`.
struct cluster_command {
    std::vector<std::string> files;
    std::string out = "-";
    bool tsv = false;
    int hd = -1;               ///< -1: semfp::recommended_distance of the files' width
    bool match_members = false;
    link_kind link = link_kind::single_pass;
    verify_kind verify = verify_kind::none;
    bool verify_from_files = false;  ///< --verify not given: sketch when the files carry sketches
    bool quiet = false;
};

struct compare_command {
    std::vector<std::string> operands;  ///< two files, or two texts with --text
    bool texts = false;
    input_format format = input_format::detect;
    input_encoding encoding = input_encoding::detect;
    html_text_mode html_text = html_text_mode::main;
    pipeline_options pipeline;
    std::size_t passages = 5;
    std::size_t min_passage = 8;
    bool json = false;
    /// Largest operand compared (bytes): the passage search holds ~134 bytes per input byte and
    /// its time can grow with the square of the number of distinct characters.
    std::size_t max_bytes = std::size_t{1} << 20;
};

/// `semfp seen`: which documents were seen before, against a persistent store.
struct seen_command {
    input_options input;
    pipeline_options pipeline;
    run_options run;
    signature_options signature;  ///< method exact (default) or keyword
    std::string store;            ///< the store file (created when absent)
    double bloom = 0.0;           ///< > 0: a new store is a Bloom filter with this false-positive rate
    std::size_t capacity = 1000000;  ///< Bloom filter: documents it is sized for
    std::string out = "-";
};

}  // namespace semfp::cli
