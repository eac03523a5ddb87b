// Loading saved indexes and clusterers from arbitrary bytes: the only exception is format_error,
// and a failed load leaves the object as it was (strong guarantee). A successful load gives an
// object whose saved bytes load again and save back unchanged.
#include "fuzz_support.hpp"

#include <semfp/detail/crc32c.hpp>
#include <semfp/index/hamming_index.hpp>
#include <semfp/index/single_pass_clusterer.hpp>

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>

namespace {

template <std::size_t Bits>
semfp::Fingerprint<Bits> fp_of(std::uint64_t v) {
    typename semfp::Fingerprint<Bits>::storage_type w{};
    for (auto& x : w) x = v;
    return semfp::Fingerprint<Bits>(w);
}

template <class T>
std::string saved_bytes(const T& object) {
    std::ostringstream out;
    object.save(out);
    return out.str();
}

// The object every input is loaded into, its saved bytes, and a second object that reloads what
// a successful load saves. Building an index or a clusterer (query plans, bucket tables) costs
// far more than most inputs' load, so the working object is made once and copied again from
// the prototype only after an input changed it (a successful load). A failed load must leave it
// saving the prototype's bytes, which is checked, so every input starts from the prototype's
// state without paying for a copy. `again` needs no reset: `load` replaces all of it, and what
// it reloads must save the very bytes it was loaded from.
template <class T>
struct load_slot {
    T prototype;
    T work;
    T again;
    std::string before;
    bool dirty = false;

    explicit load_slot(T p) : prototype(std::move(p)), work(prototype), before(saved_bytes(prototype)) {}

    T& fresh() {
        if (dirty) work = prototype;
        dirty = false;
        return work;
    }

    // After a successful load: `work` saves, `again` loads those bytes and saves them back.
    void check_reload(const char* what) {
        const std::string a = saved_bytes(work);
        std::istringstream in(a);
        again.load(in);
        semfp_fuzz::check(saved_bytes(again) == a, what);
        dirty = a != before;
    }
};

template <std::size_t Bits>
void index_load(const std::string& bytes) {
    const semfp::Fingerprint<Bits> probe = fp_of<Bits>(0x1234);
    static load_slot<semfp::HammingIndex<Bits>> slot([&] {
        semfp::HammingIndex<Bits> p(3);
        p.insert(probe, 99);
        return p;
    }());
    semfp::HammingIndex<Bits>& idx = slot.fresh();
    std::istringstream in(bytes);
    if (!semfp_fuzz::expect_only<semfp::format_error>([&] { idx.load(in); })) {
        semfp_fuzz::check(idx.size() == 1 && idx.contains(99) && idx.max_k() == 3,
                          "HammingIndex changed by a failed load");
        semfp_fuzz::check(idx.query(probe, 0).size() == 1, "HammingIndex query after a failed load");
        semfp_fuzz::check(saved_bytes(idx) == slot.before, "HammingIndex changed by a failed load (saved bytes)");
        return;
    }
    slot.check_reload("HammingIndex reload saves other bytes");
}

template <std::size_t Bits>
void clusterer_load(const std::string& bytes) {
    static load_slot<semfp::SinglePassClusterer<Bits>> slot([] {
        semfp::SinglePassClusterer<Bits> p;
        (void)p.add(fp_of<Bits>(7), 1);
        (void)p.add(fp_of<Bits>(~std::uint64_t{0}), 2);
        return p;
    }());
    semfp::SinglePassClusterer<Bits>& c = slot.fresh();
    std::istringstream in(bytes);
    if (!semfp_fuzz::expect_only<semfp::format_error>([&] { c.load(in); })) {
        semfp_fuzz::check(saved_bytes(c) == slot.before, "SinglePassClusterer changed by a failed load");
        return;
    }
    slot.check_reload("SinglePassClusterer reload saves other bytes");
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
