// Fingerprint::from_hex: parse_error or a value that prints back to the same digits.
#include "fuzz_support.hpp"

#include <semfp/core/fingerprint.hpp>

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

template <std::size_t Bits>
void round_trip(std::string_view s) {
    semfp::Fingerprint<Bits> fp;
    if (!semfp_fuzz::expect_only<semfp::parse_error>([&] { fp = semfp::Fingerprint<Bits>::from_hex(s); })) return;
    std::string digits(s.substr(s.size() >= 2 && s[0] == '0' && (s[1] | 0x20) == 'x' ? 2 : 0));
    for (char& c : digits) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    semfp_fuzz::check(fp.to_hex() == digits, "to_hex(from_hex(s)) == s");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view s(reinterpret_cast<const char*>(data), size);
    round_trip<64>(s);
    round_trip<128>(s);
    return 0;
}
