#pragma once
// The evaluation kit's labelled pairs for the tuning programs (bench/two_stage_quality.cpp,
// bench/imatch_tuning.cpp, bench/short_text_sketch.cpp): the documents file (JSON Lines
// {"id", "text", "format"?}) and the pairs file ({"a", "b", "kind", "rate"?, "label", "base"?}),
// and the split of the pairs into a tuning half and a confirmation half by base document.
// Bench-only code (nlohmann-json).
//
// The split. A pair belongs to half 0 (tuning) or 1 (confirmation) by the top bit of a 64-bit
// hash of its base document: the "base" field without its "#site..." suffix, so that every
// pair made from one document, its same-site negatives included, lands in the same half. The
// hash is FNV-1a 64 of the base, xor 0x5EED5EED5EED5EED, through the MurmurHash3 64-bit
// finalizer; bench/short_text_quality.py computes the same function (dev_half) for its snippets.
// It is written out here, not borrowed from a library hash, so the split never moves when the
// library's hashes change.
#include <semfp/text/article.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace semfp::bench {

/// Prints "PROGRAM: message" to stderr and exits with status 2.
[[noreturn]] inline void die(std::string_view program, const std::string& message) {
    std::fprintf(stderr, "%.*s: %s\n", static_cast<int>(program.size()), program.data(), message.c_str());
    std::exit(2);
}

/// 0 (tuning) or 1 (confirmation) for the base document `base` ("#site..." suffix ignored).
[[nodiscard]] inline int dev_half(std::string_view base) noexcept {
    if (const auto p = base.find('#'); p != std::string_view::npos) base = base.substr(0, p);
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (const char ch : base) {
        h ^= static_cast<unsigned char>(ch);
        h *= 0x100000001b3ull;
    }
    h ^= 0x5EED5EED5EED5EEDull;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return static_cast<int>(h >> 63);
}

/// The documents of a kit documents file, in file order; HTML documents ("format": "html")
/// are replaced by semfp::extract_main_text of them.
struct dev_docs {
    std::vector<std::string> texts;
    std::unordered_map<std::string, std::uint32_t> index;  // id -> position in texts
};

[[nodiscard]] inline dev_docs read_dev_docs(std::string_view program, const std::string& path) {
    dev_docs docs;
    std::ifstream in(path);
    if (!in) die(program, "cannot open " + path);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        const auto j = nlohmann::json::parse(line);
        std::string text = j.at("text").get<std::string>();
        if (j.contains("format") && j["format"] == "html") text = semfp::extract_main_text(text);
        docs.index.emplace(j.at("id").get<std::string>(), static_cast<std::uint32_t>(docs.texts.size()));
        docs.texts.push_back(std::move(text));
    }
    return docs;
}

/// One labelled pair: document positions, the kind (the rate kinds add, delete and subst as
/// "kind@percent" when the pair has a "rate"), the label and the half (-1 without a "base").
struct dev_pair {
    std::uint32_t a;
    std::uint32_t b;
    std::string kind;
    bool positive;
    int half;
};

[[nodiscard]] inline std::vector<dev_pair> read_dev_pairs(std::string_view program, const std::string& path,
                                                          const dev_docs& docs) {
    std::vector<dev_pair> pairs;
    std::ifstream in(path);
    if (!in) die(program, "cannot open " + path);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        const auto j = nlohmann::json::parse(line);
        const auto ia = docs.index.find(j.at("a").get<std::string>());
        const auto ib = docs.index.find(j.at("b").get<std::string>());
        if (ia == docs.index.end() || ib == docs.index.end()) die(program, "pair refers to a missing doc");
        std::string kind = j.at("kind").get<std::string>();
        if ((kind == "add" || kind == "delete" || kind == "subst") && j.contains("rate")) {
            const int pct = static_cast<int>(j.at("rate").get<double>() * 100 + 0.5);
            kind.push_back('@');
            kind.append(std::to_string(pct));
        }
        const int half = j.contains("base") ? dev_half(j.at("base").get<std::string>()) : -1;
        pairs.push_back({ia->second, ib->second, std::move(kind), j.at("label").get<int>() == 1, half});
    }
    return pairs;
}

}  // namespace semfp::bench
