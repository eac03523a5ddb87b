// `semfp compare A B`: Hamming distance, exact shingle Jaccard and the longest shared passages.
#include "commands.hpp"
#include "diagnostics.hpp"
#include "engine.hpp"
#include "input.hpp"
#include "output.hpp"
#include "passages.hpp"

#include <semfp/baseline/shingle.hpp>
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
        std::fprintf(stderr, "semfp: warning: %s%s: %s\n", where.c_str(),
                     p.line != 0 ? (":" + std::to_string(p.line)).c_str() : "", p.message.c_str());
    }
}

operand load(const compare_command& cmd, const std::string& arg) {
    operand op;
    op.label = arg;
    if (cmd.texts) {
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
    const std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
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

std::string collapse_space(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    bool space = true;  // drops leading white space
    for (char c : s) {
        const bool ws = c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
        if (ws) {
            if (!space) out += ' ';
            space = true;
        } else {
            out += c;
            space = false;
        }
    }
    if (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
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

    const fp_value fa = engine->fingerprint(a.text);
    const fp_value fb = engine->fingerprint(b.text);
    const unsigned distance = engine->distance(fa, fb);
    const ShingleSet sa = engine->shingles(a.text);
    const ShingleSet sb = engine->shingles(b.text);
    const double j = jaccard(sa, sb);
    const std::size_t shared = intersection_size(sa, sb);

    // Passages are found in the normalized texts with white space collapsed, so that line
    // breaks and indentation do not cut them.
    const std::string na = collapse_space(normalize(a.text));
    const std::string nb = collapse_space(normalize(b.text));
    const auto passages = shared_passages(na, nb, cmd.passages, cmd.min_passage);

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
        std::snprintf(num, sizeof num, "%.6f", j);
        out += ",\"jaccard\":";
        out += num;
        out += ",\"shingle_width\":" + std::to_string(cmd.pipeline.shingle_width);
        out += ",\"shingles_a\":" + std::to_string(sa.size()) + ",\"shingles_b\":" + std::to_string(sb.size()) +
               ",\"shingles_shared\":" + std::to_string(shared);
        out += ",\"passages\":[";
        for (std::size_t i = 0; i < passages.size(); ++i) {
            if (i != 0) out += ',';
            out += "{\"a\":" + std::to_string(passages[i].a) + ",\"b\":" + std::to_string(passages[i].b) +
                   ",\"length\":" + std::to_string(passages[i].length) + ",\"text\":";
            append_json_string(out, passages[i].text);
            out += '}';
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
                      "jaccard:  %.4f of %zu-token shingles (A %zu, B %zu, shared %zu; A in B %.4f, B in A %.4f)\n",
                      j, cmd.pipeline.shingle_width, sa.size(), sb.size(), shared, containment(sa, sb),
                      containment(sb, sa));
        out += line;
        std::snprintf(line, sizeof line, "longest shared passages (normalized text, white space collapsed, at least %zu characters):\n",
                      cmd.min_passage);
        out += line;
        if (passages.empty()) out += "  none\n";
        for (std::size_t i = 0; i < passages.size(); ++i) {
            std::snprintf(line, sizeof line, "  %zu. %zu chars at A:%zu B:%zu  ", i + 1, passages[i].length,
                          passages[i].a, passages[i].b);
            out += line;
            out += display(passages[i].text, 60);
            out += '\n';
        }
    }
    std::fputs(out.c_str(), stdout);
    if (std::fflush(stdout) != 0) throw output_error("cannot write <stdout>");
    return exit_ok;
}

}  // namespace semfp::cli
