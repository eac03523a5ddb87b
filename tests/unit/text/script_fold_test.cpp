#include "support/catch.hpp"

#include <semfp/text/char_class.hpp>
#include <semfp/text/script_fold.hpp>
#include <semfp/text/utf8.hpp>

#include <cstddef>
#include <string>

namespace {

// The code point of a one-character UTF-8 string.
char32_t cp(const char* s) { return semfp::utf8::decode(s, 0).code_point; }

}  // namespace

TEST_CASE("fold_to_simplified: known characters", "[script_fold]") {
    CHECK(semfp::fold_to_simplified(cp("國")) == cp("国"));
    CHECK(semfp::fold_to_simplified(cp("體")) == cp("体"));
    CHECK(semfp::fold_to_simplified(cp("們")) == cp("们"));
    CHECK(semfp::fold_to_simplified(cp("說")) == cp("说"));
    CHECK(semfp::fold_to_simplified(cp("檔")) == cp("档"));
    CHECK(semfp::fold_to_simplified(cp("龍")) == cp("龙"));
    CHECK(semfp::fold_to_simplified(cp("車")) == cp("车"));
    CHECK(semfp::fold_to_simplified(cp("與")) == cp("与"));
}

TEST_CASE("fold_to_simplified: identity elsewhere", "[script_fold]") {
    for (const char* s : {"中", "国", "人", "体", "说", "的"}) CHECK(semfp::fold_to_simplified(cp(s)) == cp(s));
    for (char32_t c : {U'\0', U'A', U'z', U'\u00E9', U'\u3000', U'\uFFFD', U'\U0001F600', U'\U0010FFFF',
                       static_cast<char32_t>(0x110000), static_cast<char32_t>(0xFFFFFFFF)})
        CHECK(semfp::fold_to_simplified(c) == c);
    STATIC_REQUIRE(semfp::fold_to_simplified(U'A') == U'A');
    STATIC_REQUIRE(semfp::fold_to_simplified(U'\u570B') == U'\u56FD');  // constexpr
    STATIC_REQUIRE(noexcept(semfp::fold_to_simplified(U'A')));
}

TEST_CASE("fold_to_simplified: the table is sorted, Han to Han, and folding is idempotent", "[script_fold]") {
    REQUIRE(semfp::simplified_fold_size > 3000);
    for (std::size_t i = 0; i < semfp::detail::t2s_table_size; ++i) {
        const auto& e = semfp::detail::t2s_table[i];
        if (i > 0) REQUIRE(semfp::detail::t2s_table[i - 1].from < e.from);
        REQUIRE(e.from != e.to);
        REQUIRE(semfp::is_han(e.from));
        REQUIRE(semfp::is_han(e.to));
        REQUIRE(semfp::fold_to_simplified(e.from) == e.to);
        REQUIRE(semfp::fold_to_simplified(e.to) == e.to);
    }
    // Every Han code point folds to a fixed point.
    std::size_t changed = 0;
    for (char32_t c = 0; c < 0x40000; ++c) {
        const char32_t f = semfp::fold_to_simplified(c);
        if (f != c) ++changed;
        REQUIRE(semfp::fold_to_simplified(f) == f);
    }
    CHECK(changed == semfp::simplified_fold_size);
}
