#include "support/catch.hpp"

#include <semfp/concepts.hpp>
#include <semfp/core/digest.hpp>
#include <semfp/core/fingerprint.hpp>

#include <string>
#include <string_view>

using namespace std::string_view_literals;

static_assert(semfp::HashPolicy<semfp::Md5>);
// RFC 1321, appendix A.5, usable at compile time.
static_assert(semfp::Md5::hash128("abc") == semfp::hash128_t{0xd6963f7d28e17f72ull, 0x900150983cd24fb0ull});

namespace {
std::string md5_hex(std::string_view s) {
    const auto h = semfp::Md5::hash128(s);
    return semfp::Fingerprint<128>({h.hi, h.lo}).to_hex();
}
}  // namespace

TEST_CASE("MD5 matches the RFC 1321 test suite", "[hash][md5]") {
    CHECK(md5_hex("") == "d41d8cd98f00b204e9800998ecf8427e");
    CHECK(md5_hex("a") == "0cc175b9c0f1b6a831c399e269772661");
    CHECK(md5_hex("abc") == "900150983cd24fb0d6963f7d28e17f72");
    CHECK(md5_hex("message digest") == "f96b697d7cb7938d525a2f31aaf161d0");
    CHECK(md5_hex("abcdefghijklmnopqrstuvwxyz") == "c3fcd3d76192e4007dfb496cca67e13b");
    CHECK(md5_hex("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") ==
          "d174ab98d277d9f5a5611c2c9f419d9f");
    CHECK(md5_hex("12345678901234567890123456789012345678901234567890123456789012345678901234567890") ==
          "57edf4a22be3c955ac49da2e2107b67a");
}

TEST_CASE("MD5 pads correctly around the 56- and 64-byte block boundaries", "[hash][md5]") {
    // Values from md5sum for strings of 'a' of length 55, 56, 63, 64 and 65.
    CHECK(md5_hex(std::string(55, 'a')) == "ef1772b6dff9a122358552954ad0df65");
    CHECK(md5_hex(std::string(56, 'a')) == "3b0c8ac703f828b04c6c197006d17218");
    CHECK(md5_hex(std::string(63, 'a')) == "b06521f39153d618550606be297466d5");
    CHECK(md5_hex(std::string(64, 'a')) == "014842d480b571495a4a0363793f7367");
    CHECK(md5_hex(std::string(65, 'a')) == "c743a45e0d2e6a95cb859adae0248435");
}

TEST_CASE("MD5 hash64 is the first half of the digest and bytes are not sign-extended", "[hash][md5]") {
    CHECK(semfp::Md5::hash64("abc") == 0x900150983cd24fb0ull);
    // "中文" in UTF-8 (md5sum)
    CHECK(md5_hex("\xe4\xb8\xad\xe6\x96\x87") == "a7bac2239fcdcb3a067903d8077c4a07");
    std::string with_nul("a\0b", 3);
    CHECK(md5_hex(with_nul) != md5_hex("ab"));
}
