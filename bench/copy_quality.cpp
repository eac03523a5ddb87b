// semfp_copy_quality: copy detection with positions, measured.
//
// 1. Planted copies: passages of g/2, g, 2g and 5g code points (g = 50, the winnowing guarantee
//    t in tokens and the tool's default --min-passage) copied from one corpus document into
//    another, unchanged, in full-width forms, or in Traditional characters. Both explainers run
//    on every pair in the same run: the suffix automaton (`shared_passages`, exact) and
//    winnowing (`copied_passages`). Passage recall (a reported passage covers >= 90 % of the
//    planted bytes), precision (reported passages that overlap a planted one), offset accuracy
//    (both ends exact in both texts), and the time per pair (median of interleaved rounds, with
//    the winnowing/automaton ratio).
// 2. Index: 100,000 documents of 300 code points drawn from the corpus's character bigram
//    model; bytes per document (arrays and saved file), query time (median over queries that
//    carry a 2g passage of an indexed document) against a linear scan of the same fingerprint
//    sets in the same run, and the source's rank.
// 3. DEV pairs of the evaluation kit (build/eval/dev_pairs.jsonl, or argv[2]): containment
//    max(|A∩B|/|A|, |A∩B|/|B|) of winnowing fingerprint sets; the threshold is the smallest
//    value above every negative (plain and same-site), and recall per kind is reported there.
//
// Usage: semfp_copy_quality [CORPUS_DIR] [DEV_PAIRS.jsonl]  (prints Markdown tables)

#include "support/corpus.hpp"

#include <semfp/copy/copy_index.hpp>
#include <semfp/copy/passages.hpp>
#include <semfp/copy/winnowing.hpp>
#include <semfp/text/article.hpp>
#include <semfp/text/script_fold.hpp>
#include <semfp/text/utf8.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

using clk = std::chrono::steady_clock;
constexpr std::size_t g = 50;

double seconds_since(clk::time_point t) { return std::chrono::duration<double>(clk::now() - t).count(); }

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

// Byte offset of every code point of s, plus the end.
std::vector<std::size_t> cp_offsets(std::string_view s) {
    std::vector<std::size_t> off;
    for (std::size_t i = 0; i < s.size(); i += semfp::utf8::decode(s, i).length) off.push_back(i);
    off.push_back(s.size());
    return off;
}

// Simplified -> one Traditional form, from the library's folding table read backwards.
std::unordered_map<char32_t, char32_t> simplified_to_traditional() {
    std::unordered_map<char32_t, char32_t> m;
    for (char32_t c = 0x3400; c <= 0x9FFF; ++c) {
        const char32_t s = semfp::fold_to_simplified(c);
        if (s != c) m.emplace(s, c);
    }
    return m;
}

enum class variant { plain, width, script };
const char* variant_name(variant v) { return v == variant::plain ? "plain" : v == variant::width ? "full-width" : "Traditional"; }

std::string convert(std::string_view s, variant v, const std::unordered_map<char32_t, char32_t>& s2t) {
    if (v == variant::plain) return std::string(s);
    std::string out;
    for (std::size_t i = 0; i < s.size();) {
        const auto d = semfp::utf8::decode(s, i);
        char32_t c = d.code_point;
        if (v == variant::width && d.valid && c >= 0x21 && c <= 0x7E) c += 0xFEE0;
        else if (v == variant::width && c == U' ') c = 0x3000;
        else if (v == variant::script && d.valid) {
            const auto it = s2t.find(c);
            if (it != s2t.end()) c = it->second;
        }
        if (d.valid) semfp::utf8::append(out, c);
        else out.append(s.substr(i, d.length));
        i += d.length;
    }
    return out;
}

struct planted {
    std::string target;  // T with the passage inserted
    const std::string* source;
    std::size_t t_begin, t_end;  // planted span in target
    std::size_t s_begin, s_end;  // copied span in source
};

struct tally {
    std::size_t pairs = 0, found = 0, exact = 0, reported = 0, on_planted = 0;
    double seconds = 0;
};

void score(const planted& p, const std::vector<semfp::shared_passage>& ps, tally& t) {
    ++t.pairs;
    bool found = false, exact = false;
    for (const auto& q : ps) {
        ++t.reported;
        const std::size_t lo = std::max(q.a_begin, p.t_begin), hi = std::min(q.a_end, p.t_end);
        if (hi <= lo) continue;
        ++t.on_planted;
        if ((hi - lo) * 10 >= (p.t_end - p.t_begin) * 9) {
            found = true;
            if (q.a_begin == p.t_begin && q.a_end == p.t_end && q.b_begin == p.s_begin && q.b_end == p.s_end) exact = true;
        }
    }
    t.found += found ? 1 : 0;
    t.exact += exact ? 1 : 0;
}

// Trims a random cut so that it starts and ends on non-space code points (a passage boundary
// next to white space is not comparable: the explainers trim white space).
void planted_copies(const std::vector<semfp::bench::document>& docs) {
    const auto s2t = simplified_to_traditional();
    std::mt19937_64 rng(42);
    const semfp::Winnower<> winnower({8, g, false});
    semfp::passage_options opt;
    opt.min_length = 20;
    std::printf("## Planted copies (g = %zu; winnowing k = 8, t = g; passages of >= 20 code points reported)\n\n", g);
    std::printf("| passage | variant | pairs | SAM recall | SAM exact offsets | SAM precision | winnowing recall | winnowing exact offsets | winnowing precision |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|\n");
    std::vector<double> sam_rounds, win_rounds;
    std::vector<planted> all;
    for (const std::size_t len : {g / 2, g, 2 * g, 5 * g}) {
        for (const variant v : {variant::plain, variant::width, variant::script}) {
            std::vector<planted> set;
            while (set.size() < 200) {
                const auto& s = docs[rng() % docs.size()];
                const auto& t = docs[rng() % docs.size()];
                if (&s == &t) continue;
                const auto so = cp_offsets(s.text);
                const auto to = cp_offsets(t.text);
                if (so.size() < len + 2 || to.size() < 2) continue;
                const std::size_t start = rng() % (so.size() - 1 - len);
                const std::size_t b = so[start], e = so[start + len];
                const std::string_view piece = std::string_view(s.text).substr(b, e - b);
                auto is_space = [](char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; };
                if (is_space(piece.front()) || is_space(piece.back())) continue;
                const std::size_t at = to[rng() % to.size()];
                planted p;
                const std::string copy = convert(piece, v, s2t);
                // Separate the copy from its neighbours so chance extensions stay rare.
                p.target = t.text.substr(0, at) + "\n" + copy + "\n" + t.text.substr(at);
                p.source = &s.text;
                p.t_begin = at + 1;
                p.t_end = at + 1 + copy.size();
                p.s_begin = b;
                p.s_end = e;
                set.push_back(std::move(p));
            }
            tally sam, win;
            for (const auto& p : set) {
                score(p, semfp::shared_passages(p.target, *p.source, opt), sam);
                score(p, semfp::copied_passages(p.target, *p.source, opt, winnower), win);
            }
            auto pct = [](std::size_t a, std::size_t b) { return b == 0 ? 0.0 : 100.0 * static_cast<double>(a) / static_cast<double>(b); };
            std::printf("| %zu | %s | %zu | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.1f %% |\n", len, variant_name(v), sam.pairs,
                        pct(sam.found, sam.pairs), pct(sam.exact, sam.found), pct(sam.on_planted, sam.reported),
                        pct(win.found, win.pairs), pct(win.exact, win.found), pct(win.on_planted, win.reported));
            for (auto& p : set) all.push_back(std::move(p));
        }
    }
    // Time per pair, interleaved rounds over every planted pair.
    for (int round = 0; round < 5; ++round) {
        std::size_t sink = 0;
        auto t0 = clk::now();
        for (const auto& p : all) sink += semfp::shared_passages(p.target, *p.source, opt).size();
        sam_rounds.push_back(seconds_since(t0) / static_cast<double>(all.size()));
        t0 = clk::now();
        for (const auto& p : all) sink += semfp::copied_passages(p.target, *p.source, opt, winnower).size();
        win_rounds.push_back(seconds_since(t0) / static_cast<double>(all.size()));
        if (sink == 0) std::printf("(no passages)\n");
    }
    double bytes = 0;
    for (const auto& p : all) bytes += static_cast<double>(p.target.size() + p.source->size());
    bytes /= static_cast<double>(all.size());
    std::printf("\nTime per pair (%zu pairs, mean %.0f bytes per pair, warm, wall, median of 5 interleaved rounds): "
                "suffix automaton %.1f us, winnowing %.1f us, ratio winnowing/automaton %.2f\n\n",
                all.size(), bytes, median(sam_rounds) * 1e6, median(win_rounds) * 1e6, median(win_rounds) / median(sam_rounds));
    // Automaton memory on the longest corpus document.
    const auto longest = std::max_element(docs.begin(), docs.end(), [](const auto& a, const auto& b) { return a.text.size() < b.text.size(); });
    std::vector<char32_t> cps;
    for (std::size_t i = 0; i < longest->text.size();) {
        const auto d = semfp::utf8::decode(longest->text, i);
        cps.push_back(d.code_point);
        i += d.length;
    }
    const semfp::detail::suffix_automaton sam(cps);
    std::printf("Suffix automaton of the longest corpus document (%zu bytes, %zu code points): %zu states, %zu edges, "
                "%.1f bytes per code point, %.1f per input byte\n\n",
                longest->text.size(), cps.size(), sam.state_count(), sam.edge_count(),
                static_cast<double>(sam.memory_bytes()) / static_cast<double>(cps.size()),
                static_cast<double>(sam.memory_bytes()) / static_cast<double>(longest->text.size()));
}

// Order-1 character model of the corpus: documents with its character and bigram statistics.
class bigram_model {
public:
    explicit bigram_model(const std::vector<semfp::bench::document>& docs) {
        std::map<char32_t, std::vector<char32_t>> next;
        for (const auto& d : docs) {
            char32_t prev = U' ';
            for (std::size_t i = 0; i < d.text.size();) {
                const auto c = semfp::utf8::decode(d.text, i);
                i += c.length;
                if (!c.valid) continue;
                next[prev].push_back(c.code_point);
                prev = c.code_point;
            }
        }
        for (auto& [c, v] : next) m_next.emplace(c, std::move(v));
    }
    std::string generate(std::size_t n, std::uint64_t seed) const {
        std::mt19937_64 rng(seed);
        std::string s;
        char32_t c = U' ';
        for (std::size_t i = 0; i < n; ++i) {
            const auto& v = m_next.at(c);
            c = v[rng() % v.size()];
            if (m_next.find(c) == m_next.end()) c = U' ';
            semfp::utf8::append(s, c);
        }
        return s;
    }

private:
    std::unordered_map<char32_t, std::vector<char32_t>> m_next;
};

void index_bench(const std::vector<semfp::bench::document>& docs) {
    constexpr std::size_t n = 100000, len = 300, queries = 200;
    const bigram_model model(docs);
    semfp::copy_index_options opt;
    opt.winnowing = {8, g, false};
    semfp::CopyIndex index(opt);
    std::vector<std::vector<std::uint64_t>> sets;  // the same fingerprints, for the linear scan
    sets.reserve(n);
    auto t0 = clk::now();
    for (std::size_t i = 0; i < n; ++i) {
        const std::string text = model.generate(len, i);
        index.add(i, text);
        sets.push_back(index.fingerprints(text));
    }
    const double build = seconds_since(t0);
    std::ostringstream saved(std::ios::binary);
    index.save(saved);

    std::mt19937_64 rng(7);
    std::vector<std::string> qs;
    std::vector<std::size_t> truth;
    for (std::size_t q = 0; q < queries; ++q) {
        const std::size_t src = rng() % n;
        const std::string s = model.generate(len, src);
        const auto off = cp_offsets(s);
        const std::size_t start = rng() % (off.size() - 1 - 2 * g);
        qs.push_back(model.generate(200, 1000000 + q) + s.substr(off[start], off[start + 2 * g] - off[start]) +
                     model.generate(200, 2000000 + q));
        truth.push_back(src);
    }
    std::vector<double> t_index, t_scan;
    std::size_t top1 = 0, listed = 0;
    for (std::size_t q = 0; q < queries; ++q) {
        t0 = clk::now();
        const auto r = index.query(qs[q]);
        t_index.push_back(seconds_since(t0));
        if (!r.empty() && r[0].id == truth[q]) ++top1;
        for (const auto& c : r) listed += c.id == truth[q] ? 1 : 0;
        t0 = clk::now();
        const auto f = index.fingerprints(qs[q]);
        std::size_t best = 0, best_doc = 0;
        for (std::size_t d = 0; d < n; ++d) {
            std::size_t shared = 0;
            for (std::size_t i = 0, j = 0; i < f.size() && j < sets[d].size();) {
                if (f[i] < sets[d][j]) ++i;
                else if (sets[d][j] < f[i]) ++j;
                else {
                    ++shared;
                    ++i;
                    ++j;
                }
            }
            if (shared > best) {
                best = shared;
                best_doc = d;
            }
        }
        t_scan.push_back(seconds_since(t0));
        if (best_doc == n + 1) std::printf("unreachable\n");
    }
    std::printf("## Copy index (100,000 documents of %zu code points from the corpus's bigram model; k = 8, t = %zu)\n\n", len, g);
    std::printf("| documents | postings | array bytes/doc | saved bytes/doc | build s | query median (index) | query median (linear scan, same run) | scan/index | source ranked first | source listed |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
    std::printf("| %zu | %zu | %.1f | %.1f | %.2f | %.1f us | %.1f us | %.0fx | %zu/%zu | %zu/%zu |\n\n", n, index.posting_count(),
                static_cast<double>(index.memory_bytes()) / n, static_cast<double>(saved.str().size()) / n, build,
                median(t_index) * 1e6, median(t_scan) * 1e6, median(t_scan) / median(t_index), top1, queries, listed, queries);
}

void dev_pairs(const std::string& pairs_path) {
    const std::string docs_path = pairs_path.substr(0, pairs_path.size() - 6) + ".docs.jsonl";
    std::ifstream din(docs_path, std::ios::binary), pin(pairs_path, std::ios::binary);
    if (!din || !pin) {
        std::printf("(DEV pairs not found at %s: skipped)\n", pairs_path.c_str());
        return;
    }
    std::unordered_map<std::string, std::string> texts;
    std::string line, id, text, format;
    while (std::getline(din, line)) {
        if (!semfp::bench::json_field(line, "id", id) || !semfp::bench::json_field(line, "text", text)) continue;
        const bool html = line.find("\"format\": \"html\"") != std::string::npos || line.find("\"format\":\"html\"") != std::string::npos;
        texts[id] = html ? semfp::extract_main_text(text) : text;
    }
    struct pair {
        std::string a, b, kind;
    };
    std::vector<pair> pairs;
    while (std::getline(pin, line)) {
        pair p;
        if (semfp::bench::json_field(line, "a", p.a) && semfp::bench::json_field(line, "b", p.b) &&
            semfp::bench::json_field(line, "kind", p.kind))
            pairs.push_back(std::move(p));
    }
    std::printf("## DEV pairs: containment of winnowing fingerprint sets at zero false positives (%zu pairs, %zu docs)\n\n",
                pairs.size(), texts.size());
    std::printf("| k | t | threshold (> max negative) | excerpt | add | delete | boilerplate | repost | s2t | twin_tw | natural | FP plain | FP same-site |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (const auto& [k, t] : std::vector<std::pair<std::size_t, std::size_t>>{{5, 15}, {8, 25}, {8, 50}}) {
        semfp::copy_index_options opt;
        opt.winnowing = {k, t, false};
        const semfp::CopyIndex fp(opt);  // used for its fingerprints() only
        std::unordered_map<std::string, std::vector<std::uint64_t>> sets;
        for (const auto& [i, s] : texts) sets.emplace(i, fp.fingerprints(s));
        std::vector<double> c(pairs.size());
        double max_neg = 0;
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            const auto& x = sets[pairs[i].a];
            const auto& y = sets[pairs[i].b];
            std::size_t shared = 0;
            for (std::size_t u = 0, v = 0; u < x.size() && v < y.size();) {
                if (x[u] < y[v]) ++u;
                else if (y[v] < x[u]) ++v;
                else {
                    ++shared;
                    ++u;
                    ++v;
                }
            }
            const std::size_t small = std::min(x.size(), y.size());
            c[i] = small == 0 ? 0.0 : static_cast<double>(shared) / static_cast<double>(small);
            if (pairs[i].kind == "negative" || pairs[i].kind == "site_negative") max_neg = std::max(max_neg, c[i]);
        }
        std::map<std::string, std::pair<std::size_t, std::size_t>> per;  // kind -> (hits, n)
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            auto& e = per[pairs[i].kind];
            ++e.second;
            e.first += c[i] > max_neg ? 1 : 0;
        }
        auto r = [&](const char* kind) {
            const auto& e = per[kind];
            return e.second == 0 ? 0.0 : 100.0 * static_cast<double>(e.first) / static_cast<double>(e.second);
        };
        std::printf("| %zu | %zu | %.4f | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %zu | %zu |\n", k, t,
                    max_neg, r("excerpt"), r("add"), r("delete"), r("boilerplate"), r("repost"), r("s2t"), r("twin_tw"),
                    r("natural"), per["negative"].first, per["site_negative"].first);
    }
    std::printf("\n(add/delete columns: all rates 1-20 %%; the threshold admits no negative by construction.)\n\n");
}

}  // namespace

int main(int argc, char** argv) {
    const auto dir = semfp::bench::corpus_dir(argc, argv);
    const auto docs = semfp::bench::load_corpus(dir / "manpages_zh_cn.jsonl");
    std::string pairs = "build/eval/dev_pairs.jsonl";
    int positional = 0;
    for (int i = 1; i < argc; ++i)
        if (std::string_view(argv[i]).substr(0, 2) != "--" && ++positional == 2) pairs = argv[i];
    planted_copies(docs);
    index_bench(docs);
    dev_pairs(pairs);
    return 0;
}
