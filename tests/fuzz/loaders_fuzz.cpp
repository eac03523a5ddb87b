// Word-list loaders (dictionary, stopwords, IDF table): a malformed list throws parse_error (or
// io_error) and leaves the object exactly as it was; nothing else escapes.
#include "fuzz_support.hpp"

#include <semfp/core/weighting.hpp>
#include <semfp/text/dictionary.hpp>
#include <semfp/text/stopwords.hpp>

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

std::vector<std::string> words_of(const semfp::Dictionary& d) {
    std::vector<std::string> out;
    d.for_each_word([&](std::string_view w) { out.emplace_back(w); });
    return out;
}

// The dictionary inputs are loaded into (with or without the reverse trie), and what a failed
// load must leave unchanged. The working copy is made once and copied again from the prototype
// only after an input changed it (a successful load); after a failed load it is checked equal
// to the prototype (its words, size, longest word, memory and lookups), so every input starts
// from the prototype's state without paying for a copy.
struct dictionary_slot {
    semfp::Dictionary prototype;
    semfp::Dictionary work;
    std::vector<std::string> words;
    std::size_t memory = 0;
    bool dirty = false;

    explicit dictionary_slot(bool with_reverse) {
        prototype.add("\xE4\xB8\xAD\xE5\x9B\xBD");
        prototype.add("ab");
        if (with_reverse) prototype.prepare_reverse();
        work = prototype;
        words = words_of(prototype);
        memory = work.memory_bytes();  // of a copy (capacities), as `fresh` makes
    }

    semfp::Dictionary& fresh() {
        if (dirty) work = prototype;
        dirty = false;
        return work;
    }

    [[nodiscard]] bool unchanged() const {
        return work.size() == prototype.size() && work.max_word_length() == prototype.max_word_length() &&
               work.memory_bytes() == memory && words_of(work) == words;
    }
};

dictionary_slot& slot(bool with_reverse) {
    static dictionary_slot plain(false);
    static dictionary_slot reverse(true);
    return with_reverse ? reverse : plain;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    switch (data[0] % 3) {
        case 0: {
            dictionary_slot& s = slot((data[0] & 4) != 0);
            semfp::Dictionary& dict = s.fresh();
            std::istringstream in(text);
            if (!semfp_fuzz::expect_only<semfp::parse_error>([&] { dict.load(in); })) {
                semfp_fuzz::check(s.unchanged(), "Dictionary changed by a failed load");
                semfp_fuzz::check(dict.longest_suffix("\xE4\xB8\xAD\xE5\x9B\xBD", 6) == 6 &&
                                      dict.longest_prefix("\xE4\xB8\xAD\xE5\x9B\xBD", 0) == 6,
                                  "Dictionary lookups after a failed load");
            } else {
                // Copied again before the next input unless it still equals the prototype
                // (a list of comments, say).
                s.dirty = !s.unchanged();
                for (const std::string& w : words_of(dict)) semfp_fuzz::check(dict.contains(w), "loaded word missing");
            }
            break;
        }
        case 1: {
            semfp::StopwordList list;
            list.add("the");
            std::istringstream in(text);
            if (!semfp_fuzz::expect_only<semfp::parse_error>([&] { list.load(in); })) {
                semfp_fuzz::check(list.contains("the") && list.size() == 1, "StopwordList changed by a failed load");
            }
            break;
        }
        default: {
            semfp::IdfTable idf(1.5);
            idf.set("x", 2.5);
            std::istringstream in(text);
            if (!semfp_fuzz::expect_only<semfp::parse_error>([&] { idf.load(in); })) {
                semfp_fuzz::check(idf.idf("x") == 2.5 && idf.idf("y") == 1.5, "IdfTable changed by a failed load");
            }
            break;
        }
    }
    return 0;
}
