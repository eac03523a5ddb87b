// `semfp fingerprint --method keyword|imatch|exact` and `semfp dedup --method
// keyword|imatch|exact`: exact-signature methods (signatures.hpp). Two documents are
// duplicates when a signature at the same position is equal; dedup puts each document in the
// cluster of the first earlier document it matches (for multi-lexicon I-Match, through any of
// its signatures).
#include "commands.hpp"
#include "output.hpp"
#include "overlap.hpp"
#include "signature_args.hpp"
#include "signature_run.hpp"
#include "signatures.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace semfp::cli {

namespace {

const std::map<std::string, signature_method> signature_names{{"simhash", signature_method::simhash},
                                                              {"keyword", signature_method::keyword},
                                                              {"imatch", signature_method::imatch},
                                                              {"exact", signature_method::exact}};

struct band_validator : CLI::Validator {
    band_validator() {
        name_ = "BAND";
        func_ = [](std::string& s) {
            const auto colon = s.find(':');
            if (colon == std::string::npos) return std::string("expected MIN:MAX");
            try {
                std::size_t used = 0;
                const double lo = std::stod(s.substr(0, colon), &used);
                const double hi = std::stod(s.substr(colon + 1));
                if (!(lo <= hi)) return std::string("MIN must be <= MAX");
            } catch (const std::exception&) {
                return std::string("expected two numbers MIN:MAX");
            }
            return std::string();
        };
    }
};

// NOUN[:PROPER[:VERB]], each a factor > 0; PROPER defaults to NOUN, VERB to 1.
bool parse_pos_boost(const std::string& s, double out[3]) {
    out[2] = 1.0;
    std::size_t at = 0;
    for (int i = 0; i < 3; ++i) {
        const std::size_t colon = s.find(':', at);
        std::size_t used = 0;
        const std::string part = s.substr(at, colon == std::string::npos ? std::string::npos : colon - at);
        try {
            out[i] = std::stod(part, &used);
        } catch (const std::exception&) {
            return false;
        }
        if (used != part.size() || !(out[i] > 0.0) || !(out[i] < 1e6)) return false;
        if (i == 0) out[1] = out[0];
        if (colon == std::string::npos) return true;
        at = colon + 1;
    }
    return false;
}

struct pos_boost_validator : CLI::Validator {
    pos_boost_validator() {
        name_ = "POS_BOOST";
        func_ = [](std::string& s) {
            double f[3];
            return parse_pos_boost(s, f) ? std::string() : std::string("expected NOUN[:PROPER[:VERB]], factors > 0");
        };
    }
};

}  // namespace

void add_signature_options(CLI::App& app, signature_options& sig, bool with_method) {
    if (with_method) {
        app.add_option("--method", sig.method,
                       "simhash (default), keyword (digest of the top keywords), imatch (I-Match over an IDF band) "
                       "or exact (digest of the normalized text); the last three print 128-bit signatures")
            ->transform(CLI::CheckedTransformer(signature_names, CLI::ignore_case).description("simhash|keyword|imatch|exact"));
    }
    app.add_option("--keywords", sig.keywords, "keyword: how many keywords are hashed")
        ->check(CLI::Range(1, 4096))
        ->capture_default_str();
    app.add_flag("--frequencies", sig.frequencies, "keyword: hash each keyword with its quantized frequency");
    app.add_option("--idf", sig.idf_path,
                   "keyword (TF-IDF) and imatch: IDF table, 'term idf' lines (e.g. jieba's analyse/idf.txt with "
                   "--tokenizer fmm)");
    app.add_option_function<std::string>(
           "--idf-band",
           [&sig](const std::string& s) {
               const auto colon = s.find(':');
               sig.min_idf = std::stod(s.substr(0, colon));
               sig.max_idf = std::stod(s.substr(colon + 1));
           },
           "imatch: the lexicon is the terms with MIN <= idf <= MAX (default: all)")
        ->type_name("MIN:MAX")
        ->check(band_validator());
    app.add_option("--lexicons", sig.lexicons, "imatch: K random sub-lexicons (match if any signature is equal)")
        ->check(CLI::Range(1, 64))
        ->capture_default_str();
    app.add_option("--keep-fraction", sig.keep_fraction, "imatch with K > 1: share of the lexicon in each sub-lexicon")
        ->check(CLI::Range(0.01, 1.0))
        ->capture_default_str();
    app.add_option("--min-terms", sig.min_terms,
                   "imatch: a signature needs at least this many lexicon terms, else it is the exact signature "
                   "of the text")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    app.add_option_function<std::string>(
           "--pos-boost",
           [&sig](const std::string& s) {
               double f[3];
               (void)parse_pos_boost(s, f);
               sig.noun_boost = f[0];
               sig.proper_boost = f[1];
               sig.verb_boost = f[2];
           },
           "keyword: multiply the weight of nouns, proper nouns (person, place, organisation names) and "
           "verbs by these factors, by jieba's part-of-speech tags of the embedded dictionary's words (suits "
           "--tokenizer fmm); PROPER defaults to NOUN, VERB to 1")
        ->type_name("NOUN[:PROPER[:VERB]]")
        ->check(pos_boost_validator());
}

int run_signature_fingerprint(const fingerprint_command& cmd) {
    Diagnostics diag(cmd.input.strict);
    const auto engine = make_signature_engine(cmd.signature, cmd.pipeline);
    check_no_overlap(cmd.input.paths, {{"--out", cmd.out}});
    AtomicOutput out(cmd.out);
    const auto stats = run_signatures(cmd.input, cmd.run, *engine, diag,
                                      [&](const Document& d, std::span<const Fingerprint<128>> sigs) {
                                          std::string& buf = out.buffer();
                                          append_tsv_field(buf, d.id);
                                          buf += '\t';
                                          for (std::size_t i = 0; i < sigs.size(); ++i) {
                                              if (i != 0) buf += ',';
                                              buf += sigs[i].to_hex();
                                          }
                                          buf += '\n';
                                          out.commit();
                                      });
    out.close();
    if (!cmd.run.quiet) print_signature_summary("fingerprint", stats, *engine, diag.count());
    return exit_ok;
}

int run_signature_dedup(const dedup_command& cmd) {
    signature_options sig = cmd.signature;
    sig.method = cmd.method == dedup_method::keyword  ? signature_method::keyword
                 : cmd.method == dedup_method::imatch ? signature_method::imatch
                                                      : signature_method::exact;
    Diagnostics diag(cmd.input.strict);
    const auto engine = make_signature_engine(sig, cmd.pipeline);
    check_no_overlap(cmd.input.paths, {{"--out", cmd.out}, {"--keep", cmd.keep}});
    if (!cmd.keep.empty()) detail::throw_invalid_argument("--keep is not supported with --method " + std::string(method_name(sig.method)));
    AtomicOutput out(cmd.out);

    // (signature position, signature) -> cluster number; the first document of a cluster is its
    // centre. Fingerprints are digests: their first word is a good hash.
    struct key_hash {
        std::size_t operator()(const std::pair<std::size_t, Fingerprint<128>>& k) const noexcept {
            return static_cast<std::size_t>(k.second.word(0) ^ (k.first * 0x9e3779b97f4a7c15ull));
        }
    };
    std::unordered_map<std::pair<std::size_t, Fingerprint<128>>, std::size_t, key_hash> cluster_of;
    std::vector<std::string> centre_ids;
    const auto stats =
        run_signatures(cmd.input, cmd.run, *engine, diag, [&](const Document& d, std::span<const Fingerprint<128>> sigs) {
            std::size_t number = centre_ids.size();
            for (std::size_t i = 0; i < sigs.size() && number == centre_ids.size(); ++i)
                if (const auto it = cluster_of.find({i, sigs[i]}); it != cluster_of.end()) number = it->second;
            const bool is_new = number == centre_ids.size();
            if (is_new) centre_ids.push_back(d.id);
            for (std::size_t i = 0; i < sigs.size(); ++i) cluster_of.try_emplace({i, sigs[i]}, number);
            std::string& ob = out.buffer();
            if (cmd.tsv) {
                append_tsv_field(ob, d.id);
                ob += '\t';
                ob += std::to_string(number);
            } else {
                ob += "{\"id\":";
                append_json_string(ob, d.id);
                ob += ",\"cluster\":";
                ob += std::to_string(number);
                ob += ",\"centre\":";
                append_json_string(ob, centre_ids[number]);
                ob += ",\"distance\":0";
                ob += '}';
            }
            ob += '\n';
            out.commit();
        });
    out.close();
    if (!cmd.run.quiet) {
        print_signature_summary("dedup", stats, *engine, diag.count());
        std::fprintf(stderr, "  %s clusters, %s duplicates removed\n", with_commas(centre_ids.size()).c_str(),
                     with_commas(stats.docs - centre_ids.size()).c_str());
    }
    return exit_ok;
}

}  // namespace semfp::cli
