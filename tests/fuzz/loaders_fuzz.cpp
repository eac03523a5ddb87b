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

// The dictionary every input is loaded into, built once (with and without the reverse trie) and
// copied per input: building even a two-word dictionary costs more than most inputs' load.
const semfp::Dictionary& base_dictionary(bool with_reverse) {
    static const semfp::Dictionary plain = [] {
        semfp::Dictionary d;
        d.add("\xE4\xB8\xAD\xE5\x9B\xBD");
        d.add("ab");
        return d;
    }();
    static const semfp::Dictionary reverse = [] {
        semfp::Dictionary d = plain;
        d.prepare_reverse();
        return d;
    }();
    return with_reverse ? reverse : plain;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    switch (data[0] % 3) {
        case 0: {
            semfp::Dictionary dict = base_dictionary((data[0] & 4) != 0);
            static const auto before = words_of(base_dictionary(false));
            std::istringstream in(text);
            if (!semfp_fuzz::expect_only<semfp::parse_error>([&] { dict.load(in); })) {
                semfp_fuzz::check(words_of(dict) == before, "Dictionary changed by a failed load");
                semfp_fuzz::check(dict.longest_suffix("\xE4\xB8\xAD\xE5\x9B\xBD", 6) == 6,
                                  "Dictionary lookups after a failed load");
            } else {
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
