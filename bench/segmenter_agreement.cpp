// Agreement of FmmSegmenter (embedded dictionary) with jieba's default segmentation
// (`jieba.cut(s, HMM=False)`), as token-level precision / recall / F1 over byte spans.
//
//   semfp_segmenter_agreement CORPUS.jsonl [--sentences N] [--reference FILE] [--python PATH]
//
// The reference comes from bench/jieba_reference.py (run through PATH, default $SEMFP_PYTHON,
// else /usr/bin/python3, else python3; needs python3-jieba) or from FILE, a saved output of it.
// Two scores per mode: "han" counts only tokens that contain a Han character (what the
// dictionary decides); "all" counts every token except jieba's white-space and punctuation
// tokens (semfp never emits those).
#include <semfp/dict/embedded.hpp>
#include <semfp/text/char_class.hpp>
#include <semfp/text/segmenter.hpp>
#include <semfp/text/utf8.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using span = std::pair<std::size_t, std::size_t>;

struct sample {
    std::string text;
    std::vector<span> reference;  // byte spans of jieba's tokens
};

bool has_han(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const auto d = semfp::utf8::decode(s, i);
        if (semfp::is_han(d.code_point)) return true;
        i += d.length;
    }
    return false;
}

bool all_separators(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const auto d = semfp::utf8::decode(s, i);
        if (!semfp::is_separator(d.code_point)) return false;
        i += d.length;
    }
    return true;
}

[[noreturn]] void fail(const std::string& msg) {
    std::fprintf(stderr, "semfp_segmenter_agreement: %s\n", msg.c_str());
    std::exit(2);
}

std::vector<sample> parse_reference(std::istream& in) {
    std::vector<sample> out;
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("S\t", 0) == 0) {
            out.push_back({line.substr(2), {}});
        } else if (line.rfind("T\t", 0) == 0 && !out.empty()) {
            sample& s = out.back();
            std::istringstream lens(line.substr(2));
            std::size_t cps = 0, pos = 0;
            while (lens >> cps) {
                const std::size_t begin = pos;
                for (std::size_t k = 0; k < cps && pos < s.text.size(); ++k) pos += semfp::utf8::decode(s.text, pos).length;
                s.reference.emplace_back(begin, pos);
            }
            if (pos != s.text.size()) fail("reference tokens do not cover the line: " + s.text);
        }
    }
    return out;
}

std::string read_command(const std::string& cmd) {
    std::FILE* p = popen(cmd.c_str(), "r");
    if (p == nullptr) fail("cannot run: " + cmd);
    std::string out;
    char buf[65536];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    if (pclose(p) != 0) fail("the reference command failed: " + cmd);
    return out;
}

struct score {
    std::size_t tp = 0, candidates = 0, references = 0;
    void add(std::vector<span> cand, std::vector<span> ref) {
        std::sort(cand.begin(), cand.end());
        std::sort(ref.begin(), ref.end());
        std::vector<span> both;
        std::set_intersection(cand.begin(), cand.end(), ref.begin(), ref.end(), std::back_inserter(both));
        tp += both.size();
        candidates += cand.size();
        references += ref.size();
    }
    [[nodiscard]] double precision() const { return candidates ? static_cast<double>(tp) / static_cast<double>(candidates) : 0; }
    [[nodiscard]] double recall() const { return references ? static_cast<double>(tp) / static_cast<double>(references) : 0; }
    [[nodiscard]] double f1() const {
        const double p = precision(), r = recall();
        return p + r > 0 ? 2 * p * r / (p + r) : 0;
    }
};

}  // namespace

int main(int argc, char** argv) {
    std::string corpus, reference_file, python, sentences = "3000";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) fail("missing value after " + a);
            return argv[++i];
        };
        if (a == "--reference") reference_file = value();
        else if (a == "--python") python = value();
        else if (a == "--sentences") sentences = value();
        else if (a.rfind("--", 0) == 0) fail("unknown option " + a);
        else corpus = a;
    }
    if (corpus.empty()) fail("usage: semfp_segmenter_agreement CORPUS.jsonl [--sentences N] [--reference FILE] [--python PATH]");
    if (!std::filesystem::is_regular_file(corpus)) fail("corpus file not found: " + corpus + " (e.g. ../shared/corpus/manpages_zh_cn.jsonl)");

    std::vector<sample> samples;
    if (!reference_file.empty()) {
        std::ifstream in(reference_file);
        if (!in) fail("cannot open the reference file " + reference_file);
        samples = parse_reference(in);
    } else {
        if (python.empty()) {
            if (const char* env = std::getenv("SEMFP_PYTHON")) python = env;
            else if (std::filesystem::exists("/usr/bin/python3")) python = "/usr/bin/python3";
            else python = "python3";
        }
        const auto script = std::filesystem::path(__FILE__).parent_path() / "jieba_reference.py";
        if (!std::filesystem::is_regular_file(script)) fail("cannot find " + script.string() + "; pass --reference FILE");
        std::istringstream in(read_command("'" + python + "' '" + script.string() + "' '" + corpus + "' --sentences " + sentences));
        samples = parse_reference(in);
    }
    if (samples.empty()) fail("no reference sentences");

    const semfp::Dictionary& dict = semfp::embedded_dictionary();
    std::size_t bytes = 0;
    for (const auto& s : samples) bytes += s.text.size();
    std::printf("jieba %s (HMM=False) vs semfp FmmSegmenter, embedded dictionary (%zu words)\n",
                std::string(semfp::embedded_dictionary_version()).c_str(), dict.size());
    std::printf("%zu sentences, %zu bytes, from %s\n\n", samples.size(), bytes, corpus.c_str());
    std::printf("| mode          | han P  | han R  | han F1 | all P  | all R  | all F1 |\n");
    std::printf("|---------------|--------|--------|--------|--------|--------|--------|\n");
    const std::pair<const char*, semfp::segment_mode> modes[] = {{"forward", semfp::segment_mode::forward},
                                                                 {"reverse", semfp::segment_mode::reverse},
                                                                 {"bidirectional", semfp::segment_mode::bidirectional}};
    for (const auto& [name, mode] : modes) {
        const semfp::FmmSegmenter seg(dict, mode);
        score han, all;
        for (const auto& s : samples) {
            const std::string_view text = s.text;
            std::vector<span> cand_han, cand_all, ref_han, ref_all;
            seg.tokenize(text, [&](std::string_view t) {
                const span sp{static_cast<std::size_t>(t.data() - text.data()),
                              static_cast<std::size_t>(t.data() - text.data()) + t.size()};
                cand_all.push_back(sp);
                if (has_han(t)) cand_han.push_back(sp);
            });
            for (const span& sp : s.reference) {
                const std::string_view t = text.substr(sp.first, sp.second - sp.first);
                if (all_separators(t)) continue;
                ref_all.push_back(sp);
                if (has_han(t)) ref_han.push_back(sp);
            }
            han.add(cand_han, ref_han);
            all.add(cand_all, ref_all);
        }
        std::printf("| %-13s | %.4f | %.4f | %.4f | %.4f | %.4f | %.4f |\n", name, han.precision(), han.recall(), han.f1(),
                    all.precision(), all.recall(), all.f1());
    }
    return 0;
}
