// The baselines on arbitrary text: shingle sets, MinHash signatures and LSH queries. A text is
// always a candidate for itself and its estimated Jaccard similarity with itself is 1.
#include "fuzz_support.hpp"

#include <semfp/baseline/minhash.hpp>
#include <semfp/baseline/shingle.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view s(reinterpret_cast<const char*>(data), size);
    const std::string_view half = s.substr(0, s.size() / 2);
    static const semfp::Shingler<> shingler;
    const semfp::ShingleSet a = shingler(s);
    const semfp::ShingleSet b = shingler(half);
    const double j = semfp::jaccard(a, b);
    semfp_fuzz::check(j >= 0.0 && j <= 1.0, "jaccard in [0, 1]");
    const semfp::MinHash<128> ma(a);
    const semfp::MinHash<128> mb(b);
    if (!a.hashes().empty()) semfp_fuzz::check(semfp::estimate_jaccard(ma, ma) == 1.0, "self similarity");
    static const semfp::lsh_params params = semfp::optimal_lsh_params(0.5, 128);  // an integration: once
    semfp::MinHashLsh<128> lsh(params);
    lsh.insert(ma, 1);
    lsh.insert(mb, 2);
    bool self = false;
    for (const auto id : lsh.candidates(ma)) self = self || id == 1;
    semfp_fuzz::check(self, "a signature is a candidate for itself");
    return 0;
}
