#pragma once
// Loads the shared corpus (JSON Lines {"id", "source", "text"}) for benchmarks. Bench-only code:
// a minimal JSON string decoder sufficient for the corpus files.

#include <semfp/text/utf8.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace semfp::bench {

struct document {
    std::string id;
    std::string text;
};

// Decodes the JSON string starting at s[pos] == '"'; returns the position after it.
inline std::size_t parse_json_string(std::string_view s, std::size_t pos, std::string& out) {
    out.clear();
    ++pos;
    while (pos < s.size() && s[pos] != '"') {
        if (s[pos] != '\\') {
            out.push_back(s[pos++]);
            continue;
        }
        if (++pos >= s.size()) break;
        const char e = s[pos++];
        switch (e) {
        case 'n': out.push_back('\n'); break;
        case 't': out.push_back('\t'); break;
        case 'r': out.push_back('\r'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'u': {
            auto hex4 = [&](std::size_t p) { return static_cast<char32_t>(std::strtoul(std::string(s.substr(p, 4)).c_str(), nullptr, 16)); };
            char32_t cp = hex4(pos);
            pos += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF && s.substr(pos, 2) == "\\u") {
                const char32_t lo = hex4(pos + 2);
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                pos += 6;
            }
            semfp::utf8::append(out, cp);
            break;
        }
        default: out.push_back(e);
        }
    }
    return pos + 1;
}

// Extracts the string value of "key" from one JSON object line.
inline bool json_field(std::string_view line, std::string_view key, std::string& out) {
    std::string needle;
    needle.reserve(key.size() + 2);
    needle.push_back('"');
    needle.append(key);
    needle.push_back('"');
    std::size_t p = line.find(needle);
    if (p == std::string_view::npos) return false;
    p = line.find('"', line.find(':', p + needle.size()));
    if (p == std::string_view::npos) return false;
    parse_json_string(line, p, out);
    return true;
}

// The corpus folder: argv's first non-flag argument, else $SEMFP_CORPUS, else the default.
inline std::filesystem::path corpus_dir(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (std::string_view(argv[i]).substr(0, 2) != "--") return argv[i];
    if (const char* env = std::getenv("SEMFP_CORPUS")) return env;
#ifdef SEMFP_DEFAULT_CORPUS
    return SEMFP_DEFAULT_CORPUS;
#else
    return "../shared/corpus";
#endif
}

// Loads one JSON Lines file of the corpus; exits with a clear message when it is missing.
inline std::vector<document> load_corpus(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        std::fprintf(stderr,
                     "semfp bench: corpus file not found: %s\n"
                     "  pass the corpus folder as the first argument or set SEMFP_CORPUS "
                     "(e.g. ../shared/corpus with manpages_zh_cn.jsonl)\n",
                     file.string().c_str());
        std::exit(2);
    }
    std::vector<document> docs;
    std::string line;
    while (std::getline(in, line)) {
        document d;
        if (json_field(line, "id", d.id) && json_field(line, "text", d.text)) docs.push_back(std::move(d));
    }
    return docs;
}

}  // namespace semfp::bench
