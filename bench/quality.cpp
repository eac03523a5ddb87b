// semfp_quality: recall and false-positive rate of Simhash, Shingle/Jaccard and MinHash-LSH on
// the labelled pairs of the evaluation kit (../shared/eval: make_pairs.py writes them, score.py
// is the reference scorer; this program reproduces its numbers in-process so that many
// pipelines can be compared in one run).
//
//   semfp_quality PAIRS.jsonl [--docs DOCS.jsonl] [--out REPORT.md] [--fig2 FIG2.dat]
//                 [--explore] [--threads N] [--html-text main|all]
//   semfp_quality PAIRS.jsonl --tsv OUT.tsv --method SPEC     (id<TAB>hex for score.py --tsv)
//
// A method SPEC is `simhash:tok=bigram-stop,hash=mixed-murmur3,bits=64,fold=1,tf=raw` (any subset;
// these are the defaults), `shingle:tok=fmm-stop,w=3` or `minhash:tok=fmm-stop,w=3`.
// Tokenizers: unigram, bigram, trigram, fmm (maximum matching over the embedded dictionary),
// each optionally with `-stop` (bundled stopword list). Hashes: sdbm, mixed-sdbm, fnv1a,
// mixed-fnv1a, murmur3, mixed-murmur3. Documents with "format": "html" go through
// semfp::extract_main_text first (their article text), or semfp::html_to_text (all visible
// text) with --html-text all.
#include <semfp/baseline/minhash.hpp>
#include <semfp/baseline/shingle.hpp>
#include <semfp/dict/embedded.hpp>
#include <semfp/simhash.hpp>
#include <semfp/text/article.hpp>
#include <semfp/text/html.hpp>
#include <semfp/text/segmenter.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

namespace {

using clock_type = std::chrono::steady_clock;

[[noreturn]] void die(const std::string& msg) {
    std::fprintf(stderr, "semfp_quality: %s\n", msg.c_str());
    std::exit(2);
}

double seconds_since(clock_type::time_point t0) {
    return std::chrono::duration<double>(clock_type::now() - t0).count();
}

// ------------------------------------------------------------------------------------ data

struct labelled_pair {
    std::uint32_t a = 0, b = 0;
    std::string kind;
    int rate_pct = 0;  // add / delete / subst only
    int label = 0;
};

struct dataset {
    std::vector<std::string> ids;
    std::vector<std::string> texts;  // HTML already converted to text
    std::size_t html_docs = 0;
    std::vector<labelled_pair> pairs;
};

const std::vector<std::string> rate_kinds = {"add", "delete", "subst"};
const std::vector<int> rates = {1, 2, 5, 10, 15, 20};
const std::vector<std::string> other_kinds = {"reorder", "s2t", "s2twp", "boilerplate", "twin_tw", "natural"};

bool g_html_all = false;  // --html-text all: HTML documents give all visible text, not the article

dataset load(const std::string& pairs_path, const std::string& docs_path) {
    dataset d;
    std::unordered_map<std::string, std::uint32_t> index;
    {
        std::ifstream in(docs_path);
        if (!in) die("cannot open docs file " + docs_path + " (run make_pairs.py first; see bench/run_quality.sh)");
        std::string line;
        while (std::getline(in, line)) {
            if (line.empty()) continue;
            const auto j = nlohmann::json::parse(line);
            std::string text = j.at("text").get<std::string>();
            if (j.contains("format") && j["format"] == "html") {
                text = g_html_all ? semfp::html_to_text(text) : semfp::extract_main_text(text);
                ++d.html_docs;
            }
            index.emplace(j.at("id").get<std::string>(), static_cast<std::uint32_t>(d.ids.size()));
            d.ids.push_back(j.at("id").get<std::string>());
            d.texts.push_back(std::move(text));
        }
    }
    std::ifstream in(pairs_path);
    if (!in) die("cannot open pairs file " + pairs_path);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        const auto j = nlohmann::json::parse(line);
        labelled_pair p;
        const auto ia = index.find(j.at("a").get<std::string>());
        const auto ib = index.find(j.at("b").get<std::string>());
        if (ia == index.end() || ib == index.end()) die("pair refers to a missing doc: " + line.substr(0, 80));
        p.a = ia->second;
        p.b = ib->second;
        p.kind = j.at("kind").get<std::string>();
        p.label = j.at("label").get<int>();
        if (j.contains("rate") && j["rate"].is_number())
            p.rate_pct = static_cast<int>(j["rate"].get<double>() * 100.0 + 0.5);
        d.pairs.push_back(std::move(p));
    }
    return d;
}

// Pair indices by (kind, rate) as score.py groups them.
struct groups {
    std::map<std::string, std::vector<std::size_t>> by_key;
    static std::string key(const std::string& kind, int rate) {
        return std::find(rate_kinds.begin(), rate_kinds.end(), kind) != rate_kinds.end()
                   ? kind + "@" + std::to_string(rate)
                   : kind;
    }
    explicit groups(const dataset& d) {
        for (std::size_t i = 0; i < d.pairs.size(); ++i) by_key[key(d.pairs[i].kind, d.pairs[i].rate_pct)].push_back(i);
    }
    const std::vector<std::size_t>& get(const std::string& k) const {
        static const std::vector<std::size_t> none;
        const auto it = by_key.find(k);
        return it == by_key.end() ? none : it->second;
    }
};

// Per-pair score of a method: a distance (similar iff <= k) or a similarity (iff >= t).
struct scores {
    std::string name;
    bool distance = true;
    unsigned bits = 64;
    std::vector<double> v;
    [[nodiscard]] bool similar(std::size_t i, double thr) const { return distance ? v[i] <= thr : v[i] >= thr; }
};

struct hits {
    std::size_t h = 0, n = 0;
    [[nodiscard]] double pct() const { return n ? 100.0 * static_cast<double>(h) / static_cast<double>(n) : 0.0; }
};

hits count(const scores& s, const std::vector<std::size_t>& idx, double thr) {
    hits r;
    r.n = idx.size();
    for (const std::size_t i : idx) r.h += s.similar(i, thr) ? 1u : 0u;
    return r;
}

// ------------------------------------------------------------------------------- pipelines

using Uni = semfp::CharNgramTokenizer<1>;
using Bi = semfp::CharNgramTokenizer<2>;
using Tri = semfp::CharNgramTokenizer<3>;
using tokenizer_variant =
    std::variant<Uni, Bi, Tri, semfp::StopwordFilter<Uni>, semfp::StopwordFilter<Bi>, semfp::StopwordFilter<Tri>,
                 semfp::FmmSegmenter, semfp::StopwordFilter<semfp::FmmSegmenter>>;

tokenizer_variant make_tokenizer(const std::string& name) {
    const semfp::FmmSegmenter fmm(semfp::embedded_dictionary());
    if (name == "unigram") return Uni{};
    if (name == "bigram") return Bi{};
    if (name == "trigram") return Tri{};
    if (name == "unigram-stop") return semfp::StopwordFilter<Uni>{};
    if (name == "bigram-stop") return semfp::StopwordFilter<Bi>{};
    if (name == "trigram-stop") return semfp::StopwordFilter<Tri>{};
    if (name == "fmm") return fmm;
    if (name == "fmm-stop") return semfp::StopwordFilter<semfp::FmmSegmenter>(fmm);
    die("unknown tokenizer " + name);
}

struct spec {
    std::string method = "simhash";
    std::map<std::string, std::string> opt{{"tok", "bigram-stop"}, {"hash", "mixed-murmur3"}, {"bits", "64"},
                                           {"fold", "1"},     {"tf", "raw"},             {"w", "3"},
                                           {"phrases", "auto"}};
    std::string text;
};

spec parse_spec(const std::string& s) {
    spec r;
    r.text = s;
    const auto colon = s.find(':');
    r.method = s.substr(0, colon);
    if (r.method == "shingle" || r.method == "minhash") r.opt["tok"] = "fmm-stop";
    if (colon != std::string::npos) {
        std::stringstream ss(s.substr(colon + 1));
        std::string kv;
        while (std::getline(ss, kv, ',')) {
            const auto eq = kv.find('=');
            if (eq == std::string::npos) die("bad method option " + kv);
            r.opt[kv.substr(0, eq)] = kv.substr(eq + 1);
        }
    }
    return r;
}

// Runs f(i) for every document index on `threads` threads.
template <class F>
void parallel_docs(std::size_t n, unsigned threads, F f) {
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            for (std::size_t i = t; i < n; i += threads) f(i);
        });
    for (auto& th : pool) th.join();
}

unsigned g_threads = 2;

template <class Hash, std::size_t Bits, class Tok>
std::vector<semfp::Fingerprint<Bits>> fingerprints_with(const Tok& tok, const dataset& d, const spec& sp) {
    semfp::fingerprint_options o;
    o.normalize.fold_script = sp.opt.at("fold") == "1";
    o.normalize.fold_phrases = sp.opt.at("phrases") == "auto" ? semfp::default_fingerprint_options<Bits>().normalize.fold_phrases
                                                              : sp.opt.at("phrases") == "1";
    o.tf = sp.opt.at("tf") == "sublinear" ? semfp::tf_scaling::sublinear : semfp::tf_scaling::raw;
    const semfp::Fingerprinter<Tok, Hash, Bits> fp(tok, o);
    std::vector<semfp::Fingerprint<Bits>> out(d.texts.size());
    parallel_docs(d.texts.size(), g_threads, [&](std::size_t i) { out[i] = fp(d.texts[i]); });
    return out;
}

template <std::size_t Bits, class Tok>
std::vector<semfp::Fingerprint<Bits>> fingerprints_hash(const Tok& tok, const dataset& d, const spec& sp) {
    const std::string& h = sp.opt.at("hash");
    if (h == "sdbm") return fingerprints_with<semfp::Sdbm, Bits>(tok, d, sp);
    if (h == "mixed-sdbm") return fingerprints_with<semfp::Mixed<semfp::Sdbm>, Bits>(tok, d, sp);
    if (h == "fnv1a") return fingerprints_with<semfp::Fnv1a, Bits>(tok, d, sp);
    if (h == "mixed-fnv1a") return fingerprints_with<semfp::Mixed<semfp::Fnv1a>, Bits>(tok, d, sp);
    if (h == "murmur3") return fingerprints_with<semfp::Murmur3, Bits>(tok, d, sp);
    if (h == "mixed-murmur3") return fingerprints_with<semfp::Mixed<semfp::Murmur3>, Bits>(tok, d, sp);
    die("unknown hash " + h);
}

template <std::size_t Bits>
std::vector<semfp::Fingerprint<Bits>> fingerprints(const dataset& d, const spec& sp) {
    const tokenizer_variant tok = make_tokenizer(sp.opt.at("tok"));
    return std::visit([&](const auto& t) { return fingerprints_hash<Bits>(t, d, sp); }, tok);
}

std::vector<semfp::ShingleSet> shingle_sets(const dataset& d, const spec& sp) {
    const tokenizer_variant tok = make_tokenizer(sp.opt.at("tok"));
    const std::size_t w = std::stoul(sp.opt.at("w"));
    semfp::normalize_options n;
    n.fold_script = sp.opt.at("fold") == "1";
    std::vector<semfp::ShingleSet> out(d.texts.size());
    std::visit(
        [&](const auto& t) {
            const semfp::Shingler<std::decay_t<decltype(t)>> sh(t, w, n);
            parallel_docs(d.texts.size(), g_threads, [&](std::size_t i) { out[i] = sh(d.texts[i]); });
        },
        tok);
    return out;
}

std::string describe(const spec& sp) {
    const auto& o = sp.opt;
    if (sp.method == "simhash")
        return "Simhash-" + o.at("bits") + " (" + o.at("tok") + ", " + o.at("hash") + ", tf " + o.at("tf") +
               (o.at("fold") == "1" ? (o.at("phrases") == "1" || (o.at("phrases") == "auto" && o.at("bits") == "128")
                                        ? ", script and phrase folding"
                                        : ", script folding")
                                    : ", no script folding") +
               ")";
    return std::string(sp.method == "shingle" ? "Shingle" : "MinHash-128") + " (" + o.at("tok") + ", w = " + o.at("w") +
           ")";
}

template <std::size_t Bits>
scores simhash_scores_bits(const dataset& d, const spec& sp, std::vector<semfp::Fingerprint<Bits>>* keep) {
    auto fps = fingerprints<Bits>(d, sp);
    scores s;
    s.name = describe(sp);
    s.bits = Bits;
    s.v.resize(d.pairs.size());
    for (std::size_t i = 0; i < d.pairs.size(); ++i)
        s.v[i] = semfp::hamming_distance(fps[d.pairs[i].a], fps[d.pairs[i].b]);
    if (keep) *keep = std::move(fps);
    return s;
}

scores simhash_scores(const dataset& d, const spec& sp) {
    return sp.opt.at("bits") == "128" ? simhash_scores_bits<128>(d, sp, nullptr)
                                      : simhash_scores_bits<64>(d, sp, nullptr);
}

scores jaccard_scores(const dataset& d, const std::vector<semfp::ShingleSet>& sets, const std::string& name) {
    scores s;
    s.name = name;
    s.distance = false;
    s.v.resize(d.pairs.size());
    parallel_docs(d.pairs.size(), g_threads,
                  [&](std::size_t i) { s.v[i] = semfp::jaccard(sets[d.pairs[i].a], sets[d.pairs[i].b]); });
    return s;
}

// MinHash-LSH at threshold t: a pair is similar when the index reports it as a candidate pair
// (it shares a band) and its signature estimate is >= t; other pairs score -1.
scores lsh_scores(const dataset& d, const std::vector<semfp::MinHash<128>>& sigs, double t, const std::string& name,
                  semfp::lsh_params* shape) {
    semfp::MinHashLsh<128, std::uint32_t> lsh(t);
    if (shape) *shape = lsh.params();
    for (std::uint32_t i = 0; i < sigs.size(); ++i) lsh.insert(sigs[i], i);
    const auto cand = lsh.candidate_pairs();
    std::unordered_set<std::uint64_t> is_candidate;
    is_candidate.reserve(cand.size() * 2);
    for (const auto& [x, y] : cand) is_candidate.insert((std::uint64_t{x} << 32) | y);
    scores s;
    s.name = name;
    s.distance = false;
    s.v.resize(d.pairs.size());
    for (std::size_t i = 0; i < d.pairs.size(); ++i) {
        const std::uint32_t a = std::min(d.pairs[i].a, d.pairs[i].b), b = std::max(d.pairs[i].a, d.pairs[i].b);
        const bool c = a == b || is_candidate.contains((std::uint64_t{a} << 32) | b);
        s.v[i] = c ? semfp::estimate_jaccard(sigs[a], sigs[b]) : -1.0;
    }
    return s;
}

scores estimate_scores(const dataset& d, const std::vector<semfp::MinHash<128>>& sigs, const std::string& name) {
    scores s;
    s.name = name;
    s.distance = false;
    s.v.resize(d.pairs.size());
    for (std::size_t i = 0; i < d.pairs.size(); ++i) s.v[i] = semfp::estimate_jaccard(sigs[d.pairs[i].a], sigs[d.pairs[i].b]);
    return s;
}

// ---------------------------------------------------------------------------------- report

std::string fmt(double x, int digits = 1) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, x);
    return buf;
}

std::string thr_text(const scores& s, double thr) {
    return s.distance ? "Hamming <= " + fmt(thr, 0) + " of " + std::to_string(s.bits) + " bits"
                      : "Jaccard >= " + fmt(thr, 2);
}

// (a) recall by kind x rate, recall of the other kinds, (b) FPR.
std::string recall_tables(const scores& s, const groups& g, double thr) {
    std::string out = "#### " + s.name + ": similar iff " + thr_text(s, thr) + "\n\n";
    out += "| kind |";
    for (const int r : rates) {
        out += ' ';
        out += std::to_string(r);
        out += " % |";
    }
    out += "\n|---|";
    for (std::size_t i = 0; i < rates.size(); ++i) out += "---:|";
    out += "\n";
    for (const auto& k : rate_kinds) {
        out += "| " + k + " |";
        for (const int r : rates) {
            out += ' ';
            out += fmt(count(s, g.get(groups::key(k, r)), thr).pct());
            out += " |";
        }
        out += "\n";
    }
    out += "\n| kind | recall % | n |\n|---|---:|---:|\n";
    for (const auto& k : other_kinds) {
        const hits h = count(s, g.get(k), thr);
        if (h.n) out += "| " + k + (k == "natural" ? " *" : "") + " | " + fmt(h.pct()) + " | " + std::to_string(h.n) + " |\n";
    }
    const hits neg = count(s, g.get("negative"), thr);
    out += "\nFalse positives on distinct pairs: " + std::to_string(neg.h) + " / " + std::to_string(neg.n) + " = " +
           fmt(neg.pct(), 4) + " %\n\n";
    return out;
}

struct curve_row {
    double thr;
    double add5, delete5, subst5, edit5;
    std::map<std::string, double> other;
    std::size_t fp;
    double fpr;
};

curve_row curve_at(const scores& s, const groups& g, double thr) {
    curve_row r{};
    r.thr = thr;
    hits tot;
    double* cells[] = {&r.add5, &r.delete5, &r.subst5};
    for (std::size_t k = 0; k < rate_kinds.size(); ++k) {
        const hits h = count(s, g.get(groups::key(rate_kinds[k], 5)), thr);
        *cells[k] = h.pct();
        tot.h += h.h;
        tot.n += h.n;
    }
    r.edit5 = tot.pct();
    for (const auto& k : other_kinds) r.other[k] = count(s, g.get(k), thr).pct();
    const hits neg = count(s, g.get("negative"), thr);
    r.fp = neg.h;
    r.fpr = neg.pct();
    return r;
}

const char* curve_header =
    "| add 5 % | delete 5 % | subst 5 % | edit 5 % | reorder | s2t | s2twp | boilerplate | twin_tw | natural | FP | FPR % |";
const char* curve_rule = "---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|";

std::string curve_cells(const curve_row& r) {
    std::string out = " " + fmt(r.add5) + " | " + fmt(r.delete5) + " | " + fmt(r.subst5) + " | " + fmt(r.edit5) + " |";
    for (const auto& k : other_kinds) out += " " + fmt(r.other.at(k)) + " |";
    out += " " + std::to_string(r.fp) + " | " + fmt(r.fpr, 4) + " |";
    return out;
}

std::string curve_table(const scores& s, const groups& g, const std::vector<double>& thrs) {
    std::string out = "#### " + s.name + ": operating curve (recall % at 5 % edits and per kind vs false positives)\n\n";
    out += std::string("| ") + (s.distance ? "k" : "t") + " " + curve_header + "\n|---:|" + curve_rule + "\n";
    for (const double t : thrs) out += "| " + (s.distance ? fmt(t, 0) : fmt(t, 2)) + " |" + curve_cells(curve_at(s, g, t)) + "\n";
    return out + "\n";
}

std::vector<double> k_range(unsigned kmax) {
    std::vector<double> v;
    for (unsigned k = 0; k <= kmax; ++k) v.push_back(k);
    return v;
}

// Largest k in 0..kmax with at most `max_fp` false positives (-1 when even k = 0 has more).
int largest_k(const scores& s, const groups& g, unsigned kmax, std::size_t max_fp) {
    int best = -1;
    for (unsigned k = 0; k <= kmax; ++k)
        if (count(s, g.get("negative"), k).h <= max_fp) best = static_cast<int>(k);
    return best;
}

void write_tsv(const dataset& d, const spec& sp, const std::string& path) {
    std::ofstream out(path);
    if (!out) die("cannot write " + path);
    auto emit = [&](const auto& fps) {
        for (std::size_t i = 0; i < fps.size(); ++i) out << d.ids[i] << '\t' << fps[i].to_hex() << '\n';
    };
    if (sp.opt.at("bits") == "128") emit(fingerprints<128>(d, sp));
    else emit(fingerprints<64>(d, sp));
}

}  // namespace

int main(int argc, char** argv) {
    std::string pairs_path, docs_path, out_path, fig2_path, tsv_path, method;
    bool explore = false;
    std::vector<std::string> extra_methods;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) die("missing value after " + a);
            return argv[++i];
        };
        if (a == "--docs") docs_path = next();
        else if (a == "--out") out_path = next();
        else if (a == "--fig2") fig2_path = next();
        else if (a == "--tsv") tsv_path = next();
        else if (a == "--method") method = next();
        else if (a == "--also") extra_methods.push_back(next());
        else if (a == "--explore") explore = true;
        else if (a == "--threads") g_threads = static_cast<unsigned>(std::stoul(next()));
        else if (a == "--html-text") {
            const std::string v = next();
            if (v != "main" && v != "all") die("--html-text takes main or all");
            g_html_all = v == "all";
        } else if (a == "--help" || a == "-h") {
            std::puts("usage: semfp_quality PAIRS.jsonl [--docs DOCS.jsonl] [--out REPORT.md] [--fig2 FIG2.dat]\n"
                      "                     [--explore] [--also SPEC]... [--threads N] [--html-text main|all]\n"
                      "       semfp_quality PAIRS.jsonl --tsv OUT.tsv --method SPEC");
            return 0;
        } else if (!a.empty() && a[0] == '-') die("unknown option " + a);
        else pairs_path = a;
    }
    if (pairs_path.empty()) die("usage: semfp_quality PAIRS.jsonl [options] (see --help)");
    if (docs_path.empty()) {
        docs_path = pairs_path;
        const auto dot = docs_path.rfind(".jsonl");
        if (dot == std::string::npos) die("cannot derive the docs path; pass --docs");
        docs_path.replace(dot, 6, ".docs.jsonl");
    }
    if (g_threads == 0) g_threads = 1;

    auto t0 = clock_type::now();
    const dataset d = load(pairs_path, docs_path);
    std::fprintf(stderr, "[quality] %zu docs (%zu HTML), %zu pairs loaded in %.1f s\n", d.texts.size(), d.html_docs,
                 d.pairs.size(), seconds_since(t0));

    if (!tsv_path.empty()) {
        write_tsv(d, parse_spec(method.empty() ? "simhash" : method), tsv_path);
        return 0;
    }

    const groups g(d);
    std::string md;
    md += "# Near-duplicate quality on the DEV pairs\n\n";
    md += "Produced by `bench/run_quality.sh` (program `bench/quality.cpp`) on `" +
          std::filesystem::path(pairs_path).filename().string() + "`: " +
          std::to_string(d.texts.size()) + " documents, " + std::to_string(d.pairs.size()) + " pairs (" +
          std::to_string(g.get("negative").size()) +
          " distinct pairs as negatives). Recall in %; `natural *` = real near-duplicate man pages "
          "(character 5-gram Jaccard >= 0.5), scored apart from the negatives.\n\n";

    // --- the paper's methods ---------------------------------------------------------------
    const spec s64 = parse_spec("simhash");
    const spec s128 = parse_spec("simhash:bits=128");
    t0 = clock_type::now();
    const scores sim64 = simhash_scores(d, s64);
    const scores sim128 = simhash_scores(d, s128);
    std::fprintf(stderr, "[quality] simhash 64 + 128 in %.1f s\n", seconds_since(t0));
    const int k64 = largest_k(sim64, g, 12, 0), k128 = largest_k(sim128, g, 32, 0);

    const spec sh_spec = parse_spec("shingle:tok=fmm-stop,w=3");
    t0 = clock_type::now();
    const auto sets = shingle_sets(d, sh_spec);
    const scores shingle = jaccard_scores(d, sets, describe(sh_spec));
    std::vector<semfp::MinHash<128>> sigs(sets.size());
    parallel_docs(sets.size(), g_threads, [&](std::size_t i) { sigs[i] = semfp::MinHash<128>(sets[i]); });
    const scores estimate = estimate_scores(d, sigs, "MinHash-128 estimate (fmm-stop, w = 3)");
    std::fprintf(stderr, "[quality] shingles + minhash in %.1f s\n", seconds_since(t0));

    const spec bi_spec = parse_spec("shingle:tok=bigram,w=3");
    const scores shingle_bi = jaccard_scores(d, shingle_sets(d, bi_spec), describe(bi_spec));

    md += "## Summary\n\nRecall at 5 % edits and per kind, and false positives on the distinct pairs, at each "
          "method's threshold. The Simhash pipeline is `semfp::fingerprint` (character bigrams "
          "without stopwords, Mixed<Murmur3>, raw TF, normalization), at the paper's distance 3 and at the "
          "largest distance without a false positive (semfp::recommended_distance); Shingle uses maximum-matching words over the embedded "
          "dictionary with stopwords removed and 3-word shingles (as the paper: segmented words), or "
          "character bigrams; MinHash-LSH uses 128-value signatures of the same word shingles, an LSH index "
          "shaped for the threshold (equal-weight S-curve optimum) and the signature estimate for "
          "verification.\n\n";
    md += std::string("| method | threshold ") + curve_header + "\n|---|---|" + curve_rule + "\n";
    auto summary = [&](const scores& s, double thr) {
        md += "| " + s.name + " | " + thr_text(s, thr) + " |" + curve_cells(curve_at(s, g, thr)) + "\n";
    };
    summary(sim64, 3);
    if (k64 != 3) summary(sim64, k64);
    summary(sim128, 3);
    summary(sim128, k128);
    for (const double t : {0.95, 0.8, 0.5}) summary(shingle, t);
    for (const double t : {0.95, 0.8, 0.5}) summary(shingle_bi, t);
    std::vector<scores> lsh;
    std::vector<semfp::lsh_params> shapes;
    for (const double t : {0.95, 0.8, 0.5}) {
        semfp::lsh_params p;
        lsh.push_back(lsh_scores(d, sigs, t, "", &p));
        lsh.back().name = "MinHash-LSH (fmm-stop, w = 3, b = " + std::to_string(p.bands) + ", r = " + std::to_string(p.rows) + ")";
        shapes.push_back(p);
        summary(lsh.back(), t);
    }
    for (const double t : {0.95, 0.8, 0.5}) summary(estimate, t);

    std::vector<scores> extras;
    for (const auto& m : extra_methods) {
        const spec sp = parse_spec(m);
        if (sp.method != "simhash") die("--also takes simhash specs");
        extras.push_back(simhash_scores(d, sp));
        const unsigned kmax = sp.opt.at("bits") == "128" ? 32 : 12;
        summary(extras.back(), largest_k(extras.back(), g, kmax, 0));
    }
    md += "\nThe largest Hamming distance without a false positive on the " + std::to_string(g.get("negative").size()) +
          " distinct pairs: k = " + std::to_string(k64) + " of 64 bits, k = " + std::to_string(k128) + " of 128 bits.\n\n";

    md += "## Recall by kind and size of edit\n\n";
    md += recall_tables(sim64, g, 3);
    if (k64 != 3) md += recall_tables(sim64, g, k64);
    md += recall_tables(sim128, g, k128);
    for (const double t : {0.95, 0.8, 0.5}) md += recall_tables(shingle, g, t);
    for (std::size_t i = 0; i < lsh.size(); ++i) md += recall_tables(lsh[i], g, std::vector<double>{0.95, 0.8, 0.5}[i]);
    for (const auto& e : extras) md += recall_tables(e, g, largest_k(e, g, e.bits == 128 ? 32 : 12, 0));

    md += "## Operating curves\n\n";
    md += curve_table(sim64, g, k_range(12));
    md += curve_table(sim128, g, k_range(32));
    md += curve_table(shingle, g, {1.0, 0.95, 0.9, 0.85, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2});
    md += curve_table(estimate, g, {1.0, 0.95, 0.9, 0.85, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2});
    for (const auto& e : extras) md += curve_table(e, g, k_range(e.bits == 128 ? 32 : 12));

    // --- pipeline exploration ----------------------------------------------------------------
    if (explore) {
        md += "## Simhash pipelines compared at equal false-positive rate\n\n";
        md += "For each pipeline: k0 = the largest Hamming distance with no false positive on the distinct "
              "pairs, recall there; then k1 = the largest with FPR <= 0.01 % (<= 17 of 179,646) and its "
              "edit-5 % recall. Unless its spec says otherwise a pipeline uses the default hash "
              "(mixed-murmur3) and script folding (characters, and at 128 bits the Taiwan vocabulary fold; "
              "`phrases=0/1` sets the latter).\n\n";
        md += std::string("| pipeline | k0 ") + curve_header + " k1 | edit 5 % at k1 | s2t at k1 | FP at k1 |\n|---|---:|" +
              curve_rule + "---:|---:|---:|---:|\n";
        // Tokenizer x weighting x width with the default hash, then hashes, then no script folding.
        std::vector<std::string> specs;
        for (const char* bits : {"64", "128"}) {
            const std::string b = std::string("simhash:bits=") + bits;
            for (const char* tok : {"bigram", "unigram", "trigram", "bigram-stop", "unigram-stop", "fmm", "fmm-stop"})
                for (const char* tf : {"raw", "sublinear"}) specs.push_back(b + ",tok=" + tok + ",tf=" + tf);
            for (const char* hash : {"mixed-sdbm", "sdbm", "mixed-fnv1a", "fnv1a", "murmur3"})
                specs.push_back(b + ",hash=" + hash);
            specs.push_back(b + ",fold=0");
            for (const char* tf : {"raw", "sublinear"})
                for (const char* ph : {"0", "1"}) specs.push_back(b + ",tf=" + tf + ",phrases=" + ph);
        }
        for (const auto& m : specs) {
            t0 = clock_type::now();
            const spec sp = parse_spec(m);
            const scores s = simhash_scores(d, sp);
            const unsigned kmax = sp.opt.at("bits") == "128" ? 32 : 12;
            const int k0 = largest_k(s, g, kmax, 0);
            const int k1 = largest_k(s, g, kmax, 17);
            const curve_row r1 = curve_at(s, g, std::max(k1, 0));
            md += "| `" + m + "` | " + std::to_string(k0) + " |" + curve_cells(curve_at(s, g, std::max(k0, 0))) + " " +
                  std::to_string(k1) + " | " + fmt(r1.edit5) + " | " + fmt(r1.other.at("s2t")) + " | " +
                  std::to_string(r1.fp) + " |\n";
            std::fprintf(stderr, "[quality] %-45s k0=%d k1=%d (%.1f s)\n", m.c_str(), k0, k1, seconds_since(t0));
        }
        md += "\n";
    }

    if (!fig2_path.empty()) {
        // Figure 2 of the paper: recall vs edit size, per method and kind.
        std::ofstream f(fig2_path);
        if (!f) die("cannot write " + fig2_path);
        struct column {
            const scores* s;
            double thr;
            std::string label;
        };
        std::vector<column> cols = {{&sim64, 3.0, "Simhash-64 default, k <= 3 (paper)"},
                                    {&sim128, static_cast<double>(k128),
                                     "Simhash-128 default, k <= " + std::to_string(k128)}};
        for (std::size_t i = 0; i < extras.size(); ++i) {
            const auto k = largest_k(extras[i], g, extras[i].bits == 128 ? 32 : 12, 0);
            cols.push_back({&extras[i], static_cast<double>(k),
                            "Simhash-" + std::to_string(extras[i].bits) + " " +
                                extra_methods[i].substr(extra_methods[i].find(':') + 1) + ", k <= " + std::to_string(k)});
        }
        cols.push_back({&shingle, 0.95, "Shingle, J >= 0.95"});
        cols.push_back({&shingle, 0.8, "Shingle, J >= 0.8"});
        cols.push_back({&lsh[1], 0.8, "MinHash-LSH, J >= 0.8"});
        f << "rate";
        for (const auto& k : rate_kinds)
            for (const auto& c : cols) f << "\t" << k << ": " << c.label;
        f << "\n";
        for (const int r : rates) {
            f << r;
            for (const auto& k : rate_kinds)
                for (const auto& c : cols) f << "\t" << fmt(count(*c.s, g.get(groups::key(k, r)), c.thr).pct());
            f << "\n";
        }
    }

    if (out_path.empty()) {
        std::fputs(md.c_str(), stdout);
    } else {
        std::ofstream out(out_path);
        if (!out) die("cannot write " + out_path);
        out << md;
    }
    return 0;
}
