// UTF-8 decoding and normalization with every fold on and off: valid input gives valid output,
// decoding always advances, the validator finds the decoder's first malformed byte, and normalizing with offsets gives the same text.
#include "fuzz_support.hpp"

#include <semfp/text/normalize.hpp>
#include <semfp/text/utf8.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::uint8_t flags = data[0];
    const std::string_view s(reinterpret_cast<const char*>(data) + 1, size - 1);
    std::size_t count = 0;
    for (std::size_t i = 0; i < s.size();) {
        const semfp::utf8::decoded d = semfp::utf8::decode(s, i);
        semfp_fuzz::check(d.length >= 1 && d.length <= 4 && i + d.length <= s.size(), "decode length");
        char buf[4];
        if (d.valid) {
            const std::size_t n = semfp::utf8::encode(d.code_point, buf);
            semfp_fuzz::check(std::string_view(buf, n) == s.substr(i, d.length), "encode(decode) round trip");
        }
        i += d.length;
        ++count;
    }
    semfp_fuzz::check(count == semfp::utf8::length(s), "length");
    // The word-at-a-time validator agrees with the decoder on where the first malformed byte is.
    std::size_t first_bad = s.size();
    for (std::size_t i = 0; i < s.size();) {
        const semfp::utf8::decoded d = semfp::utf8::decode(s, i);
        if (!d.valid) {
            first_bad = i;
            break;
        }
        i += d.length;
    }
    semfp_fuzz::check(semfp::utf8::valid_prefix(s) == first_bad, "valid_prefix");
    semfp_fuzz::check(semfp::utf8::is_valid(s) == (first_bad == s.size()), "is_valid");
    semfp::normalize_options opt;
    opt.fold_width = (flags & 1) != 0;
    opt.fold_case = (flags & 2) != 0;
    opt.fold_script = (flags & 4) != 0;
    opt.fold_phrases = (flags & 8) != 0;
    const std::string out = semfp::normalize(s, opt);
    // Malformed bytes are copied unchanged (documented), so only valid input must give valid output.
    semfp_fuzz::check(!semfp::utf8::is_valid(s) || semfp::utf8::is_valid(out), "normalize output is UTF-8");
    const semfp::normalized_text with = semfp::normalize_with_offsets(s, opt);
    semfp_fuzz::check(with.text == out, "normalize_with_offsets text");
    semfp_fuzz::check(with.offsets.size() == out.size() + 1 && with.offsets.back() == s.size(), "offsets");
    return 0;
}
