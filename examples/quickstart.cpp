// The README's usage example, compiled and run as a test.
#include <semfp/simhash.hpp>

#include <cstdio>

int main() {
    const auto a = semfp::fingerprint("近年来，大量网页被不同的网站反复转载，搜索引擎需要识别内容几乎相同的文档。");
    const auto b = semfp::fingerprint("近年来，大量网页被不同网站反复转载，搜索引擎需要识别内容几乎相同的文档！");
    const auto c = semfp::fingerprint("今天下午到夜间，本市大部分地区将出现五到六级的偏北风。");
    std::printf("a = %s\nb = %s\nc = %s\n", a.to_hex().c_str(), b.to_hex().c_str(), c.to_hex().c_str());
    std::printf("distance(a, b) = %u, distance(a, c) = %u\n", semfp::hamming_distance(a, b),
                semfp::hamming_distance(a, c));
    // Near-duplicates are close, unrelated texts are far apart.
    return semfp::hamming_distance(a, b) < semfp::hamming_distance(a, c) ? 0 : 1;
}
