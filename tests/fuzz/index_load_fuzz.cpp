// Loading saved indexes and clusterers from arbitrary bytes: the only exception is format_error,
// and a failed load leaves the object as it was (strong guarantee). A successful load gives an
// object that saves and loads again to the same bytes.
#include "fuzz_support.hpp"

#include <semfp/detail/crc32c.hpp>
#include <semfp/index/hamming_index.hpp>
#include <semfp/index/single_pass_clusterer.hpp>

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

namespace {

template <std::size_t Bits>
semfp::Fingerprint<Bits> fp_of(std::uint64_t v) {
    typename semfp::Fingerprint<Bits>::storage_type w{};
    for (auto& x : w) x = v;
    return semfp::Fingerprint<Bits>(w);
}

template <std::size_t Bits>
void index_load(const std::string& bytes) {
    semfp::HammingIndex<Bits> idx(3);
    const semfp::Fingerprint<Bits> probe = fp_of<Bits>(0x1234);
    idx.insert(probe, 99);
    std::istringstream in(bytes);
    if (!semfp_fuzz::expect_only<semfp::format_error>([&] { idx.load(in); })) {
        semfp_fuzz::check(idx.size() == 1 && idx.contains(99) && idx.max_k() == 3,
                          "HammingIndex changed by a failed load");
        semfp_fuzz::check(idx.query(probe, 0).size() == 1, "HammingIndex query after a failed load");
        return;
    }
    std::ostringstream a;
    idx.save(a);
    semfp::HammingIndex<Bits> again;
    std::istringstream in2(a.str());
    again.load(in2);
    semfp_fuzz::check(again.size() == idx.size(), "HammingIndex reload size");
}

template <std::size_t Bits>
void clusterer_load(const std::string& bytes) {
    // The clusterer every input is loaded into and its saved bytes, made once and copied.
    static const semfp::SinglePassClusterer<Bits> prototype = [] {
        semfp::SinglePassClusterer<Bits> p;
        (void)p.add(fp_of<Bits>(7), 1);
        (void)p.add(fp_of<Bits>(~std::uint64_t{0}), 2);
        return p;
    }();
    static const std::string before = [] {
        std::ostringstream out;
        prototype.save(out);
        return out.str();
    }();
    semfp::SinglePassClusterer<Bits> c = prototype;
    std::istringstream in(bytes);
    if (!semfp_fuzz::expect_only<semfp::format_error>([&] { c.load(in); })) {
        std::ostringstream after;
        c.save(after);
        semfp_fuzz::check(after.str() == before, "SinglePassClusterer changed by a failed load");
        return;
    }
    std::ostringstream a;
    c.save(a);
    semfp::SinglePassClusterer<Bits> again;
    std::istringstream in2(a.str());
    again.load(in2);
    semfp_fuzz::check(again.size() == c.size(), "SinglePassClusterer reload size");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
    if ((data[0] & 4) != 0 && bytes.size() >= 4) {
        // Repair the trailing CRC-32C so that mutations also reach the code after the checksum.
        const std::size_t body = bytes.size() - 4;
        std::uint32_t crc = semfp::detail::crc32c_update(0, reinterpret_cast<const unsigned char*>(bytes.data()), body);
        for (std::size_t i = 0; i < 4; ++i, crc >>= 8) bytes[body + i] = static_cast<char>(crc & 0xFF);
    }
    switch (data[0] % 4) {
        case 0:
            index_load<64>(bytes);
            break;
        case 1:
            index_load<128>(bytes);
            break;
        case 2:
            clusterer_load<64>(bytes);
            break;
        default:
            clusterer_load<128>(bytes);
            break;
    }
    return 0;
}
