// `semfp compare A B`: Hamming distance, exact shingle Jaccard and the longest shared passages.
#include "commands.hpp"
#include "diagnostics.hpp"
#include "engine.hpp"
#include "linking.hpp"
#include "input.hpp"
#include "output.hpp"

#include <semfp/baseline/shingle.hpp>
#include <semfp/copy/passages.hpp>
#include <semfp/core/signature.hpp>
#include <semfp/core/sketch.hpp>
#include <semfp/index/sketch_band_index.hpp>
#include <semfp/signature/period.hpp>
#include <semfp/text/article.hpp>
#include <semfp/text/html.hpp>
#include <semfp/text/normalize.hpp>
#include <semfp/text/utf8.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace semfp::cli {

namespace {

struct operand {
    std::string label;
    std::string text;
    std::string html_text;  ///< for HTML files, which text was compared: "main", "all", or "all (no article)"
};

void warn(const std::string& where, const std::vector<input_problem>& problems) {
    for (const auto& p : problems) {
        if (p.line != 0)
            std::fprintf(stderr, "semfp: warning: %s:%zu: %s\n", where.c_str(), p.line, p.message.c_str());
        else
            std::fprintf(stderr, "semfp: warning: %s: %s\n", where.c_str(), p.message.c_str());
    }
}

// compare keeps a suffix automaton of each operand (about 134 bytes per input byte) and its
// passage search can take time quadratic in the number of distinct characters, so operands are
// bounded; --max-size raises the bound knowingly.
void check_size(const compare_command& cmd, const std::string& what, std::size_t bytes) {
    if (bytes <= cmd.max_bytes) return;
    throw std::runtime_error(what.substr(0, 200) + " is larger than " + std::to_string(cmd.max_bytes) +
                             " bytes, the largest operand compare takes (it needs ~134 bytes of memory per "
                             "input byte); raise --max-size to compare it anyway");
}

operand load(const compare_command& cmd, const std::string& arg) {
    operand op;
    op.label = arg;
    if (cmd.texts) {
        check_size(cmd, "the text operand", arg.size());
        op.text = arg;
        if (!utf8::is_valid(op.text) || cmd.encoding == input_encoding::gb18030) {
            bool legacy = false;
            std::vector<input_problem> problems;
            op.text = decode_file_bytes(arg, cmd.encoding, false, legacy, problems);
            warn("text operand", problems);
        }
        return op;
    }
    std::ifstream f(arg, std::ios::binary);
    if (!f) throw std::runtime_error("cannot open " + arg + ": " + std::strerror(errno));
    // At most one byte past the limit is read, whatever the file (a device, a FIFO) holds.
    std::string bytes(cmd.max_bytes + 1, '\0');
    f.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    bytes.resize(static_cast<std::size_t>(f.gcount()));
    if (f.bad()) throw std::runtime_error("cannot read " + arg);
    check_size(cmd, arg, bytes.size());
    const input_format format = cmd.format == input_format::detect ? format_of_path(arg) : cmd.format;
    const bool html = format == input_format::html;
    bool legacy = false;
    std::vector<input_problem> problems;
    op.text = decode_file_bytes(bytes, cmd.encoding, html, legacy, problems);
    warn(arg, problems);
    if (html && cmd.html_text == html_text_mode::all) {
        op.text = html_to_text(op.text);
        op.html_text = "all";
    } else if (html) {
        article_text article = extract_article(op.text);
        op.text = std::move(article.text);
        op.html_text = article.found ? "main" : "all (no article)";
    }
    return op;
}

std::size_t count_code_points(std::string_view s) {
    std::size_t n = 0;
    for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
    return n;
}

// One-line display form of a passage: line breaks shown as a return symbol, long passages cut.
std::string display(std::string_view s, std::size_t max_cps) {
    std::string out;
    std::size_t cps = 0, i = 0;
    while (i < s.size()) {
        const utf8::decoded d = utf8::decode(s, i);
        if (cps == max_cps) {
            out += "...";
            break;
        }
        if (d.code_point == U'\n') {
            out += "\xE2\x86\xB5";  // U+21B5
        } else if (d.code_point == U'\t' || d.code_point == U'\r') {
            out += ' ';
        } else {
            out.append(s.substr(i, d.length));
        }
        ++cps;
        i += d.length;
    }
    return out;
}

}  // namespace

int run_compare(const compare_command& cmd) {
    // Unreadable operands are fatal here: there is nothing to compare without them.
    const operand a = load(cmd, cmd.operands[0]);
    const operand b = load(cmd, cmd.operands[1]);
    const auto engine = make_engine(cmd.pipeline);

    // Fingerprint and sketch from one pass over each text (what dedup --verify sketch computes).
    const signature_value siga = engine->signature(a.text);
    const signature_value sigb = engine->signature(b.text);
    const fp_value fa = siga.fingerprint;
    const fp_value fb = sigb.fingerprint;
    const unsigned distance = engine->distance(fa, fb);
    const ShingleSet sa = engine->shingles(a.text);
    const ShingleSet sb = engine->shingles(b.text);
    const double j = jaccard(sa, sb);
    const std::size_t shared = intersection_size(sa, sb);
    // The two-stage rule with the recommended settings (what dedup --verify sketch applies).
    const MinHashSketch& ka = siga.sketch;
    const MinHashSketch& kb = sigb.sketch;
    const two_stage_rule rule =
        engine->bits() == 128 ? two_stage_rule::recommended<128>() : two_stage_rule::recommended<64>();
    const double sketch_similarity = estimated_jaccard(ka, kb);
    const bool is_short = ka.features() < rule.short_features || kb.features() < rule.short_features;
    const bool two_stage = rule.accepts(distance, ka, kb);
    const char* verdict = two_stage ? (distance <= rule.accept_distance && !is_short ? "near-duplicate (distance)"
                                                                                     : "near-duplicate (sketch)")
                          : distance > rule.radius && !is_short ? "not a near-duplicate (beyond the rule's radius)"
                                                   : "not a near-duplicate (sketch similarity too low)";
    // The rule is applied to this pair directly (no search). dedup --verify sketch considers a
    // pair only if it is a candidate of semfp::TwoStageClusterer: within the accept distance
    // (exact search) or sharing a band of the sketch (default layout); empty sketches match
    // only each other.
    const bool band = !ka.empty() && !kb.empty() && share_band(ka, kb, sketch_band_layout{});
    const bool candidate = distance <= rule.accept_distance || band || (ka.empty() && kb.empty());
    const char* stage_one = distance <= rule.accept_distance ? "candidate (within the accept distance)"
                            : candidate                      ? "candidate (shares a sketch band)"
                                                             : "not a candidate (no shared sketch band)";

    // Passages are found by the library's explainer in the normalized texts with white space
    // collapsed, so that line breaks and indentation do not cut them; their offsets are bytes of
    // the texts as read, and their text is B's as read.
    passage_options popt;
    popt.count = cmd.passages;
    popt.min_length = cmd.min_passage;
    const auto passages = semfp::shared_passages(a.text, b.text, popt);
    const auto period = semfp::shared_period_strings(a.text, b.text);
    auto text_of = [&](const shared_passage& p) {
        return std::string_view(b.text).substr(p.b_begin, p.b_end - p.b_begin);
    };

    std::string out;
    if (cmd.json) {
        out += "{\"a\":";
        append_json_string(out, a.label);
        out += ",\"b\":";
        append_json_string(out, b.label);
        for (const operand* o : {&a, &b}) {
            out += o == &a ? ",\"html_text_a\":" : ",\"html_text_b\":";
            if (o->html_text.empty()) {
                out += "null";
            } else {
                append_json_string(out, o->html_text);
            }
        }
        out += ",\"bits\":" + std::to_string(engine->bits());
        out += ",\"fingerprint_a\":\"" + engine->to_hex(fa) + "\",\"fingerprint_b\":\"" + engine->to_hex(fb) + "\"";
        out += ",\"distance\":" + std::to_string(distance);
        char num[64];
        std::snprintf(num, sizeof num, "%.4f", sketch_similarity);
        out += ",\"sketch_similarity\":";
        out += num;
        out += ",\"sketch_features_a\":" + std::to_string(ka.features()) +
               ",\"sketch_features_b\":" + std::to_string(kb.features());
        out += ",\"two_stage_radius\":" + std::to_string(rule.radius) +
               ",\"two_stage_accept_distance\":" + std::to_string(rule.accept_distance);
        out += std::string(",\"two_stage_candidate\":") + (candidate ? "true" : "false");
        out += std::string(",\"two_stage\":") + (two_stage ? "true" : "false") + ",\"verdict\":";
        append_json_string(out, verdict);
        std::snprintf(num, sizeof num, "%.6f", j);
        out += ",\"jaccard\":";
        out += num;
        out += ",\"shingle_width\":" + std::to_string(cmd.pipeline.shingle_width);
        out += ",\"shingles_a\":" + std::to_string(sa.size()) + ",\"shingles_b\":" + std::to_string(sb.size()) +
               ",\"shingles_shared\":" + std::to_string(shared);
        out += ",\"passages\":[";
        for (std::size_t i = 0; i < passages.size(); ++i) {
            if (i != 0) out += ',';
            const shared_passage& p = passages[i];
            out += "{\"a\":" + std::to_string(p.a_char) + ",\"b\":" + std::to_string(p.b_char) +
                   ",\"length\":" + std::to_string(p.length) + ",\"text\":";
            append_json_string(out, text_of(p));
            out += ",\"a_begin\":" + std::to_string(p.a_begin) + ",\"a_end\":" + std::to_string(p.a_end) +
                   ",\"b_begin\":" + std::to_string(p.b_begin) + ",\"b_end\":" + std::to_string(p.b_end);
            out += '}';
        }
        out += "],\"period_strings\":[";
        for (std::size_t i = 0; i < period.size(); ++i) {
            if (i != 0) out += ',';
            append_json_string(out, period[i]);
        }
        out += "]}\n";
    } else {
        char line[512];
        for (const operand* o : {&a, &b}) {
            const std::string html_note = o->html_text.empty() ? std::string()
                                          : o->html_text == "main" ? "; HTML: article text"
                                          : o->html_text == "all"  ? "; HTML: all visible text"
                                                                   : "; HTML: no clear article, all visible text";
            std::snprintf(line, sizeof line, "%s: %s (%zu characters%s)\n", o == &a ? "A" : "B",
                          cmd.texts ? (o == &a ? "text 1" : "text 2") : o->label.c_str(), count_code_points(o->text),
                          html_note.c_str());
            out += line;
        }
        std::snprintf(line, sizeof line, "simhash:  %s vs %s, Hamming distance %u of %u bits (%s)\n",
                      engine->to_hex(fa).c_str(), engine->to_hex(fb).c_str(), distance, engine->bits(),
                      engine->describe().c_str());
        out += line;
        std::snprintf(line, sizeof line,
                      "two-stage: distance %u (accepted <= %u, with the sketch <= %u), sketch similarity %.4f "
                      "(needed %.3g, %.3g when a text has < %u tokens; tokens A %u, B %u): %s; "
                      "dedup --verify sketch: %s\n",
                      distance, rule.accept_distance, rule.radius, sketch_similarity, rule.min_similarity,
                      rule.short_similarity, static_cast<unsigned>(rule.short_features),
                      static_cast<unsigned>(ka.features()), static_cast<unsigned>(kb.features()), verdict, stage_one);
        out += line;
        std::snprintf(line, sizeof line,
                      "jaccard:  %.4f of %zu-token shingles (A %zu, B %zu, shared %zu; A in B %.4f, B in A %.4f)\n",
                      j, cmd.pipeline.shingle_width, sa.size(), sb.size(), shared, containment(sa, sb),
                      containment(sb, sa));
        out += line;
        std::snprintf(line, sizeof line, "longest shared passages (compared after normalization, white space collapsed; at least %zu characters, shown as in B):\n",
                      cmd.min_passage);
        out += line;
        if (passages.empty()) out += "  none\n";
        for (std::size_t i = 0; i < passages.size(); ++i) {
            std::snprintf(line, sizeof line, "  %zu. %zu chars at A:%zu B:%zu  ", i + 1, passages[i].length,
                          passages[i].a_char, passages[i].b_char);
            out += line;
            out += display(text_of(passages[i]), 60);
            out += '\n';
        }
        std::snprintf(line, sizeof line, "shared period strings (CN102945244A, %zu characters before each full stop): %zu\n",
                      semfp::period_options{}.length, period.size());
        out += line;
        for (std::size_t i = 0; i < period.size() && i < 20; ++i) {
            out += "  ";
            out += display(period[i], 60);
            out += '\n';
        }
        if (period.size() > 20) out += "  ...\n";
    }
    std::fputs(out.c_str(), stdout);
    if (std::fflush(stdout) != 0) throw output_error("cannot write <stdout>");
    return exit_ok;
}

}  // namespace semfp::cli
