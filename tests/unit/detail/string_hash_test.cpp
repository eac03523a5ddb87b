#include <semfp/core/hash.hpp>
#include <semfp/detail/string_hash.hpp>

#include "support/catch.hpp"

#include <string>

TEST_CASE("set_hash64 equals Mixed<Fnv1a>::hash64 without depending on core/", "[detail][hash]") {
    STATIC_REQUIRE(semfp::detail::set_hash64("") == semfp::Mixed<semfp::Fnv1a>::hash64(""));
    STATIC_REQUIRE(semfp::detail::set_hash64("abc") == semfp::Mixed<semfp::Fnv1a>::hash64("abc"));
    std::string s;
    for (int i = 0; i < 300; ++i) {
        s.push_back(static_cast<char>(i * 37));
        CHECK(semfp::detail::set_hash64(s) == semfp::Mixed<semfp::Fnv1a>::hash64(s));
    }
}
