// `semfp copies QUERY... --against CORPUS...`: copy detection with positions.
//
// The corpus is read whole (its texts are needed to locate passages) and indexed in a
// semfp::CopyIndex whose winnowing guarantee t is half of --min-passage, so any passage of
// --min-passage code points, of which at least half are tokens (Han characters or words),
// brings its source up as a candidate; the passages of each candidate are then found exactly
// with semfp::shared_passages (suffix automaton) and only those of at least --min-passage code
// points are reported. Offsets are bytes of the texts as read, after decoding to UTF-8 (for
// HTML documents: of the extracted text).
#include "commands.hpp"
#include "copies.hpp"
#include "diagnostics.hpp"
#include "input.hpp"
#include "output.hpp"

#include <semfp/copy/copy_index.hpp>
#include <semfp/copy/passages.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace semfp::cli {

namespace {

struct text_doc {
    std::string id;
    std::string text;
};

std::vector<text_doc> read_all(const input_options& opt, Diagnostics& diag) {
    std::vector<text_doc> out;
    DocumentReader reader(opt, diag, false);
    Document d;
    while (reader.next(d)) {
        finish_document(d, opt, false);
        if (!report_problems(d, diag)) continue;
        out.push_back({d.id, d.html ? html_text(d.text, opt.html_text) : d.text});
    }
    return out;
}

void append_double(std::string& out, double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", v);
    out += buf;
}

// One-line preview of a passage: line breaks and tabs as spaces, cut after `max_cps` code points.
std::string preview(std::string_view s, std::size_t max_cps) {
    std::string out;
    std::size_t cps = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto b = static_cast<unsigned char>(s[i]);
        if ((b & 0xC0) != 0x80) {
            if (cps == max_cps) {
                out += "...";
                break;
            }
            ++cps;
        }
        out += b < 0x20 ? ' ' : s[i];
    }
    return out;
}

}  // namespace

CLI::App* add_copies_command(CLI::App& app, copies_command& cmd) {
    auto* sub = app.add_subcommand("copies", "Find the passages each query document shares with a corpus");
    sub->add_option("queries", cmd.input.paths, "Query files, directories or - (read as for dedup)")->required();
    sub->add_option("--against", cmd.against, "Corpus files, directories or - (read as for dedup)")
        ->required()
        ->expected(1, -1);
    sub->add_option("--min-passage", cmd.min_passage, "Shortest shared passage reported, in characters")
        ->check(CLI::Range(std::size_t{8}, std::size_t{1000000}))
        ->capture_default_str();
    sub->add_option("--max-sources", cmd.max_sources, "Most corpus documents examined per query (most shared first)")
        ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 30))
        ->capture_default_str();
    sub->add_flag("--json", cmd.json,
                  "One JSON line per (query, source): {query, source, share, passages: [{query_begin, query_end, "
                  "source_begin, source_end, chars}]}, byte offsets of the texts as read (UTF-8)");
    sub->add_option("--format", cmd.input.format, "Input format of both sides: jsonl, lines, html or text")
        ->transform(CLI::CheckedTransformer(std::map<std::string, input_format>{{"jsonl", input_format::jsonl},
                                                                                {"lines", input_format::lines},
                                                                                {"html", input_format::html},
                                                                                {"text", input_format::text}},
                                            CLI::ignore_case));
    sub->add_option("--encoding", cmd.input.encoding, "Input encoding: auto, utf-8, gb18030")
        ->transform(CLI::CheckedTransformer(std::map<std::string, input_encoding>{{"auto", input_encoding::detect},
                                                                                  {"utf-8", input_encoding::utf8},
                                                                                  {"utf8", input_encoding::utf8},
                                                                                  {"gb18030", input_encoding::gb18030},
                                                                                  {"gbk", input_encoding::gb18030}},
                                            CLI::ignore_case));
    sub->add_option("--id-field", cmd.input.id_field, "JSON field holding the document id")->capture_default_str();
    sub->add_option("--text-field", cmd.input.text_field, "JSON field holding the document text")->capture_default_str();
    sub->add_option("--html-text", cmd.input.html_text, "Text of HTML documents: main or all (default: main)")
        ->transform(CLI::CheckedTransformer(
            std::map<std::string, html_text_mode>{{"main", html_text_mode::main}, {"all", html_text_mode::all}},
            CLI::ignore_case));
    sub->add_flag("--strict", cmd.input.strict, "Stop with exit status 1 at the first bad input");
    sub->add_flag("--quiet,-q", cmd.quiet, "No summary");
    sub->add_option("--out,-o", cmd.out, "Output file (- for standard output)")->capture_default_str();
    return sub;
}

int run_copies(const copies_command& cmd) {
    Diagnostics diag(cmd.input.strict);
    input_options corpus_opt = cmd.input;
    corpus_opt.paths = cmd.against;
    const std::vector<text_doc> corpus = read_all(corpus_opt, diag);

    copy_index_options iopt;
    iopt.winnowing.k = 8;
    iopt.winnowing.t = std::max<std::size_t>(iopt.winnowing.k, cmd.min_passage / 2);
    CopyIndex index(iopt);
    for (std::size_t i = 0; i < corpus.size(); ++i) index.add(i, corpus[i].text);

    const std::vector<text_doc> queries = read_all(cmd.input, diag);
    AtomicOutput out(cmd.out);
    passage_options popt;
    popt.min_length = cmd.min_passage;
    std::size_t pairs = 0, copied = 0;
    for (const text_doc& q : queries) {
        const auto candidates = index.query(q.text);
        const std::size_t q_chars = compared_length(q.text, popt);
        bool any = false;
        std::size_t examined = 0;
        for (const copy_candidate& c : candidates) {
            if (examined == cmd.max_sources) break;
            const text_doc& s = corpus[static_cast<std::size_t>(c.id)];
            if (s.id == q.id && s.text == q.text) continue;  // the query itself, also in the corpus
            ++examined;
            auto passages = shared_passages(q.text, s.text, popt);
            if (passages.empty()) continue;
            std::sort(passages.begin(), passages.end(),
                      [](const shared_passage& x, const shared_passage& y) { return x.a_begin < y.a_begin; });
            std::size_t covered = 0;
            for (const auto& p : passages) covered += p.length;
            const double share = q_chars == 0 ? 0.0 : static_cast<double>(covered) / static_cast<double>(q_chars);
            ++pairs;
            any = true;
            std::string& ob = out.buffer();
            if (cmd.json) {
                ob += "{\"query\":";
                append_json_string(ob, q.id);
                ob += ",\"source\":";
                append_json_string(ob, s.id);
                ob += ",\"share\":";
                append_double(ob, share);
                ob += ",\"passages\":[";
                for (std::size_t i = 0; i < passages.size(); ++i) {
                    const auto& p = passages[i];
                    if (i != 0) ob += ',';
                    ob += "{\"query_begin\":" + std::to_string(p.a_begin) + ",\"query_end\":" + std::to_string(p.a_end) +
                          ",\"source_begin\":" + std::to_string(p.b_begin) + ",\"source_end\":" +
                          std::to_string(p.b_end) + ",\"chars\":" + std::to_string(p.length) + '}';
                }
                ob += "]}\n";
            } else {
                ob += "query ";
                ob += q.id;
                ob += " <- source ";
                ob += s.id;
                ob += ": share ";
                append_double(ob, share);
                ob += ", " + std::to_string(passages.size()) + " passage(s)\n";
                for (const auto& p : passages) {
                    ob += "  " + std::to_string(p.length) + " chars at query bytes " + std::to_string(p.a_begin) + "-" +
                          std::to_string(p.a_end) + ", source bytes " + std::to_string(p.b_begin) + "-" +
                          std::to_string(p.b_end) + "  ";
                    ob += preview(std::string_view(q.text).substr(p.a_begin, p.a_end - p.a_begin), 40);
                    ob += '\n';
                }
            }
            out.commit();
        }
        copied += any ? 1 : 0;
    }
    out.close();
    if (!cmd.quiet) {
        std::fprintf(stderr,
                     "semfp copies: %zu query document(s) against %zu corpus document(s): %zu with copies, %zu "
                     "(query, source) pair(s), %zu bad input(s)\n",
                     queries.size(), corpus.size(), copied, pairs, diag.count());
    }
    return exit_ok;
}

}  // namespace semfp::cli
