#include <semfp/simhash.hpp>

#include <cstdio>
#include <string>

int main() {
    const std::string text = "Semantic fingerprints find near-duplicate documents in large collections quickly";
    const auto a = semfp::fingerprint(text);
    const auto b = semfp::fingerprint("  " + text + "!!");  // same tokens: distance 0
    const auto c = semfp::fingerprint("a completely different sentence about tomorrow's weather forecast");
    const auto w = semfp::fingerprint<128>(text);
    std::printf("%s %s %s\n", a.to_hex().c_str(), c.to_hex().c_str(), w.to_hex().c_str());
    const bool ok = semfp::hamming_distance(a, b) == 0 && semfp::hamming_distance(a, c) > 3 &&
                    semfp::Fingerprint<128>::from_hex(w.to_hex()) == w;
    return ok ? 0 : 1;
}
