// The fingerprint pipelines on arbitrary bytes: the one-call fingerprint<64/128>, and forward,
// reverse and bidirectional maximum matching over a small dictionary (tokens are non-empty,
// ordered views into the text). Any input gives a result; nothing throws.
#include "fuzz_support.hpp"

#include <semfp/simhash.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

const semfp::Dictionary& dictionary() {
    static const semfp::Dictionary dict = [] {
        semfp::Dictionary d;
        for (std::string_view w : {"\xE4\xB8\xAD\xE5\x9B\xBD", "\xE4\xB8\xAD", "\xE5\x9B\xBD\xE4\xBA\xBA",
                                   "\xE4\xBA\xBA\xE6\xB0\x91", "\xE4\xB8\xAD\xE5\x8D\x8E\xE4\xBA\xBA\xE6\xB0\x91",
                                   "\xE5\x85\xB1\xE5\x92\x8C\xE5\x9B\xBD", "ab", "abc"}) {
            d.add(w);
        }
        return d;
    }();
    return dict;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view s(reinterpret_cast<const char*>(data), size);
    const auto a = semfp::fingerprint<64>(s);
    const auto b = semfp::fingerprint<128>(s);
    semfp_fuzz::check(a == semfp::fingerprint<64>(s), "fingerprint<64> is deterministic");
    semfp_fuzz::check(b == semfp::fingerprint<128>(s), "fingerprint<128> is deterministic");
    for (const auto mode :
         {semfp::segment_mode::forward, semfp::segment_mode::reverse, semfp::segment_mode::bidirectional}) {
        const semfp::FmmSegmenter seg(dictionary(), mode);
        const char* last = s.data();
        seg.tokenize(s, [&](std::string_view tok) {
            semfp_fuzz::check(!tok.empty(), "empty token");
            semfp_fuzz::check(tok.data() >= last && tok.data() + tok.size() <= s.data() + s.size(),
                              "token outside the text or out of order");
            last = tok.data() + tok.size();
        });
        const semfp::Fingerprinter fp(seg);
        (void)fp(s);
    }
    return 0;
}
