// A hash without a noexcept hash128 used as a HashPolicy must be rejected, and the diagnostic
// must name the concept.
// expect: HashPolicy
#include <semfp/simhash.hpp>

#include <cstdint>
#include <string_view>

struct only_64_bits {
    static std::uint64_t hash64(std::string_view) noexcept { return 0; }
};

int main() {
    semfp::Simhash<64, only_64_bits> acc;
    acc.add("x");
    return static_cast<int>(acc.finish().value() & 1u);
}
