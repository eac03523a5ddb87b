// semfp_article_quality: how well article-text rules recover an article from its web pages.
//
//   semfp_article_quality DOCS.jsonl      (the evaluation kit's docs file: build/eval/dev_pairs.docs.jsonl)
//
// Every page ("format": "html") of kind boilerplate, repost or site_page is the text of its
// base document (kind "original", same "base") inside a site template. Each rule's output is
// compared with that text as a bag of non-space characters: precision (how much of the output
// is article), recall (how much of the article is in the output), F1; means over the pages.
// Rules: all visible text (html_to_text); extract_article (the library's rule, a Readability-
// style container score); and three alternatives computed here from the same blocks:
// boilerpipe-style block classification, the best contiguous run of blocks by a shallow value
// (maximum-sum subarray), and a text-density region (CETD-like). The results and the choice
// are in include/semfp/text/article.hpp and bench/results/web_article.md.
#include <semfp/text/article.hpp>
#include <semfp/text/html.hpp>
#include <semfp/text/utf8.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace {

using semfp::detail::article_block;
using semfp::detail::link_density;

struct page {
    std::string all, title;
    std::vector<article_block> blocks;
    std::vector<semfp::detail::article_container> containers;
};

page parse(std::string_view html) {
    page p;
    semfp::detail::article_block_observer obs(p.all, p.blocks, p.containers);
    semfp::detail::html_extractor ex(p.all, p.title, true, true);
    ex.set_observer(&obs);
    ex.run(html, true);
    obs.finish();
    semfp::detail::measure_article_blocks(p.all, p.blocks);
    return p;
}

std::string join(const page& p, const std::vector<bool>& keep) {
    std::string out;
    for (std::size_t i = 0; i < p.blocks.size(); ++i) {
        if (!keep[i]) continue;
        if (!out.empty()) out += '\n';
        out.append(p.all, p.blocks[i].begin, p.blocks[i].end - p.blocks[i].begin);
    }
    return out;
}

// boilerpipe-style: a block is content when its link density is at most 1/3 and it has at least
// 20 code points, or when it is a shorter non-link block (>= 8) between two content blocks.
std::string boilerpipe_classify(const page& p) {
    const std::size_t n = p.blocks.size();
    std::vector<bool> content(n), keep(n);
    for (std::size_t i = 0; i < n; ++i) content[i] = link_density(p.blocks[i]) <= 1.0 / 3 && p.blocks[i].chars >= 20;
    for (std::size_t i = 0; i < n; ++i) {
        const bool between = i > 0 && content[i - 1] && i + 1 < n && content[i + 1];
        keep[i] = content[i] || (link_density(p.blocks[i]) <= 1.0 / 3 && p.blocks[i].chars >= 8 && between);
    }
    return join(p, keep);
}

// Maximum-sum contiguous run of blocks valued by `value(i)`; link-dense blocks dropped inside.
template <class Value>
std::string best_run(const page& p, Value value) {
    double best = 0, sum = 0;
    std::size_t start = 0, first = 0, last = 0;
    for (std::size_t i = 0; i < p.blocks.size(); ++i) {
        const double v = value(i);
        if (sum <= 0) {
            sum = v;
            start = i;
        } else {
            sum += v;
        }
        if (sum > best) {
            best = sum;
            first = start;
            last = i + 1;
        }
    }
    std::vector<bool> keep(p.blocks.size());
    for (std::size_t i = first; i < last; ++i) keep[i] = link_density(p.blocks[i]) <= 0.5;
    return join(p, keep);
}

// Shallow value: non-link code points (doubled for prose, 0 in nav/aside/footer) minus 24.
std::string shallow_region(const page& p) {
    return best_run(p, [&](std::size_t i) {
        const article_block& b = p.blocks[i];
        double w = b.boilerplate_tag ? 0.0 : b.chars * (1.0 - link_density(b));
        if (b.punct > 0 && b.punct * 40 >= b.chars) w *= 2.0;
        return w - 24.0;
    });
}

// CETD-like: per-block non-link text minus the page's mean per block.
std::string density_region(const page& p) {
    double total = 0;
    for (const auto& b : p.blocks) total += b.chars * (1.0 - link_density(b));
    const double mean = p.blocks.empty() ? 0.0 : total / static_cast<double>(p.blocks.size());
    return best_run(p, [&](std::size_t i) { return p.blocks[i].chars * (1.0 - link_density(p.blocks[i])) - mean; });
}

using bag = std::unordered_map<char32_t, int>;

bag bag_of(std::string_view s) {
    bag b;
    for (std::size_t i = 0; i < s.size();) {
        const auto d = semfp::utf8::decode(s, i);
        i += d.length;
        const char32_t c = d.code_point;
        if (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == 0x3000 || c == 0xA0) continue;
        ++b[c];
    }
    return b;
}

struct score {
    double precision = 0, recall = 0, f1 = 0;
    std::size_t n = 0;
    void add(const bag& truth, const bag& got) {
        long t = 0, g = 0, both = 0;
        for (const auto& [c, k] : truth) t += k;
        for (const auto& [c, k] : got) {
            g += k;
            const auto it = truth.find(c);
            if (it != truth.end()) both += std::min(k, it->second);
        }
        const double p = g ? static_cast<double>(both) / static_cast<double>(g) : 0.0;
        const double r = t ? static_cast<double>(both) / static_cast<double>(t) : 0.0;
        precision += p;
        recall += r;
        f1 += p + r > 0 ? 2 * p * r / (p + r) : 0.0;
        ++n;
    }
};

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: semfp_article_quality DOCS.jsonl\n");
        return 2;
    }
    std::ifstream in(argv[1]);
    if (!in) {
        std::fprintf(stderr, "semfp_article_quality: cannot open %s\n", argv[1]);
        return 2;
    }
    std::unordered_map<std::string, std::string> originals;
    std::vector<std::pair<std::string, std::string>> pages;  // base, html
    std::string line;
    while (std::getline(in, line)) {
        const auto j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded()) continue;
        const std::string kind = j.value("kind", "");
        if (kind == "original") originals[j.value("base", "")] = j.value("text", "");
        if (j.value("format", "") == "html" && (kind == "boilerplate" || kind == "repost" || kind == "site_page"))
            pages.emplace_back(j.value("base", ""), j.value("text", ""));
    }
    const char* names[] = {"all visible text (html_to_text)", "extract_article (container score)",
                           "boilerpipe-style classification", "shallow-value region", "text-density region (CETD-like)"};
    std::map<int, score> scores;
    std::size_t found = 0, used = 0;
    for (const auto& [base, html] : pages) {
        const auto o = originals.find(base);
        if (o == originals.end()) continue;
        ++used;
        const bag truth = bag_of(o->second);
        const page p = parse(html);
        const semfp::article_text a = semfp::extract_article(html);
        found += a.found ? 1 : 0;
        scores[0].add(truth, bag_of(p.all));
        scores[1].add(truth, bag_of(a.text));
        scores[2].add(truth, bag_of(boilerpipe_classify(p)));
        scores[3].add(truth, bag_of(shallow_region(p)));
        scores[4].add(truth, bag_of(density_region(p)));
    }
    std::printf("%zu pages (%zu with an article found by extract_article)\n\n", used, found);
    std::printf("| rule | precision | recall | F1 |\n|---|---:|---:|---:|\n");
    for (const auto& [k, s] : scores) {
        const double n = s.n ? static_cast<double>(s.n) : 1.0;
        std::printf("| %s | %.3f | %.3f | %.3f |\n", names[k], s.precision / n, s.recall / n, s.f1 / n);
    }
    return 0;
}
