// Signature methods of the tool; see signatures.hpp. Compiles the embedded dictionary once more
// (for --tokenizer fmm); the dictionary itself is built once per process (an inline function's
// static).
#include "signatures.hpp"

#include <semfp/core/fingerprinter.hpp>
#include <semfp/core/weighting.hpp>
#include <semfp/dict/embedded.hpp>
#include <semfp/dict/embedded_pos.hpp>
#include <semfp/error.hpp>
#include <semfp/core/digest.hpp>
#include <semfp/signature/imatch.hpp>
#include <semfp/signature/keyword.hpp>
#include <semfp/text/segmenter.hpp>
#include <semfp/text/tokenizers.hpp>

#include <fstream>
#include <sstream>
#include <memory>
#include <string>
#include <utility>

namespace semfp::cli {

namespace {

std::string tokenizer_label(tokenizer_kind k) {
    switch (k) {
        case tokenizer_kind::bigram: return "bigram";
        case tokenizer_kind::fmm: return "fmm";
        default: return "default";
    }
}

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

// An IDF table read from a file, with the MD5 of the file's bytes: the signatures depend on the
// table, so a `seen` store records the digest and refuses a run with another table.
struct loaded_idf {
    std::shared_ptr<const IdfTable> table;
    std::string md5;  // hex; empty without a table
};

loaded_idf load_idf(const std::string& path) {
    if (path.empty()) return {};
    std::ifstream in(path, std::ios::binary);
    if (!in) throw io_error("cannot open IDF table '" + path + "'");
    std::ostringstream bytes;
    bytes << in.rdbuf();
    if (in.bad()) throw io_error("cannot read IDF table '" + path + "'");
    const std::string data = std::move(bytes).str();
    // Unknown terms get the median IDF of the file, as with the embedded table (weighting.hpp).
    std::istringstream parse(data);
    auto table = std::make_shared<IdfTable>(IdfTable::from_list(parse));
    return {std::move(table), digest_fingerprint<Md5>(data).to_hex()};
}

std::string idf_suffix(const loaded_idf& idf) {
    return idf.md5.empty() ? std::string() : std::string(idf_identity_marker) + idf.md5;
}

class ExactEngine final : public SignatureEngine {
public:
    [[nodiscard]] std::size_t size() const noexcept override { return 1; }
    void sign(std::string_view text, std::span<Fingerprint<128>> out) const override { out[0] = exact_signature(text); }
    [[nodiscard]] std::string describe() const override { return "exact signature (MD5 of the normalized text)"; }
    [[nodiscard]] std::string identity() const override { return "exact"; }
};

template <class Tok>
class KeywordEngine final : public SignatureEngine {
public:
    KeywordEngine(Tok tok, keyword_options opt, loaded_idf idf, std::string label)
        : m_idf(std::move(idf.table)),
          m_fp(std::move(tok), with_idf(opt, m_idf.get())),
          m_label(std::move(label)),
          m_idf_suffix(idf_suffix(idf)) {}
    [[nodiscard]] std::size_t size() const noexcept override { return 1; }
    void sign(std::string_view text, std::span<Fingerprint<128>> out) const override { out[0] = m_fp(text); }
    [[nodiscard]] std::string describe() const override { return "keyword fingerprint: " + m_label; }
    [[nodiscard]] std::string identity() const override { return "keyword " + m_label + m_idf_suffix; }

private:
    static keyword_options with_idf(keyword_options o, const IdfTable* idf) {
        o.idf = idf;
        return o;
    }
    std::shared_ptr<const IdfTable> m_idf;
    KeywordFingerprinter<Tok> m_fp;
    std::string m_label;
    std::string m_idf_suffix;
};

template <class Tok>
class IMatchEngine final : public SignatureEngine {
public:
    IMatchEngine(Tok tok, imatch_options opt, loaded_idf idf, std::string label)
        : m_idf(std::move(idf.table)),
          m_im(*m_idf, std::move(tok), opt),
          m_label(std::move(label)),
          m_idf_suffix(idf_suffix(idf)) {}
    [[nodiscard]] std::size_t size() const noexcept override { return m_im.size(); }
    void sign(std::string_view text, std::span<Fingerprint<128>> out) const override { m_im.signatures_into(text, out); }
    [[nodiscard]] std::string describe() const override { return "I-Match: " + m_label; }
    [[nodiscard]] std::string identity() const override { return "imatch " + m_label + m_idf_suffix; }

private:
    std::shared_ptr<const IdfTable> m_idf;
    IMatch<Tok> m_im;
    std::string m_label;
    std::string m_idf_suffix;
};

template <class Tok>
std::unique_ptr<SignatureEngine> make_with(const signature_options& sig, const pipeline_options& pipe, Tok tok) {
    auto idf = load_idf(sig.idf_path);
    const std::string tok_label = tokenizer_label(pipe.tokenizer) + " tokenizer";
    if (sig.method == signature_method::keyword) {
        keyword_options o;
        o.count = sig.keywords;
        o.with_frequencies = sig.frequencies;
        o.boost = {sig.noun_boost, sig.proper_boost, sig.verb_boost};
        std::string pos_label;
        if (!o.boost.neutral()) {
            o.pos = &embedded_pos_table();
            pos_label = ", POS boost noun " + number(sig.noun_boost) + " proper " + number(sig.proper_boost) +
                        " verb " + number(sig.verb_boost) + " (jieba tags " + std::string(embedded_pos_version()) + ")";
        }
        const std::string label = std::to_string(sig.keywords) + " keywords" +
                                  (sig.frequencies ? " with frequencies" : "") + ", " + tok_label + ", " +
                                  (idf.table ? "TF-IDF, unknown terms at the median IDF" : "TF") + pos_label;
        return std::make_unique<KeywordEngine<Tok>>(std::move(tok), o, std::move(idf), label);
    }
    if (!idf.table) detail::throw_invalid_argument("--method imatch needs --idf FILE (term idf lines)");
    imatch_options o;
    o.min_idf = sig.min_idf;
    o.max_idf = sig.max_idf;
    o.lexicons = sig.lexicons;
    o.keep_fraction = sig.keep_fraction;
    o.min_terms = sig.min_terms;
    const std::string label = "idf in [" + number(sig.min_idf) + ", " + number(sig.max_idf) +
                              "] (unknown terms at the median IDF), " + std::to_string(sig.lexicons) + " lexicon(s)" +
                              (sig.lexicons > 1 ? " keeping " + number(sig.keep_fraction) : std::string()) +
                              (sig.min_terms > 1 ? ", at least " + std::to_string(sig.min_terms) + " terms" : std::string()) +
                              ", " + tok_label;
    return std::make_unique<IMatchEngine<Tok>>(std::move(tok), o, std::move(idf), label);
}

}  // namespace

const char* method_name(signature_method m) noexcept {
    switch (m) {
        case signature_method::keyword: return "keyword";
        case signature_method::imatch: return "imatch";
        case signature_method::exact: return "exact";
        default: return "simhash";
    }
}

std::unique_ptr<SignatureEngine> make_signature_engine(const signature_options& sig, const pipeline_options& pipe) {
    switch (sig.method) {
        case signature_method::exact: return std::make_unique<ExactEngine>();
        case signature_method::keyword:
        case signature_method::imatch: break;
        default: detail::throw_invalid_argument("not a signature method: simhash");
    }
    switch (pipe.tokenizer) {
        case tokenizer_kind::bigram: return make_with(sig, pipe, CharBigramTokenizer{});
        case tokenizer_kind::fmm: return make_with(sig, pipe, FmmSegmenter(embedded_dictionary()));
        default: return make_with(sig, pipe, default_tokenizer{});
    }
}

}  // namespace semfp::cli
