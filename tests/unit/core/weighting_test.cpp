#include "support/catch.hpp"
#include "support/edits.hpp"
#include "support/sample_text.hpp"

#include <semfp/core/fingerprinter.hpp>
#include <semfp/core/weighting.hpp>
#include <semfp/text/stopwords.hpp>

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

TEST_CASE("IdfTable loads idf.txt-style lists", "[weighting]") {
    semfp::IdfTable t(2.0);
    std::istringstream ok("\xEF\xBB\xBF# comment\r\nterm 1.5\r\n\n\xe4\xb8\xad\xe6\x96\x87\t3\n");
    t.load(ok);
    CHECK(t.size() == 2);
    CHECK(t.idf("term") == 1.5);
    CHECK(t.idf("\xe4\xb8\xad\xe6\x96\x87") == 3.0);
    CHECK(t.idf("unknown") == 2.0);
    std::istringstream bad("a 1\nb x\n");
    try {
        t.load(bad);
        FAIL("expected parse_error");
    } catch (const semfp::parse_error& e) {
        CHECK(e.line() == 2);
    }
    CHECK(t.size() == 2);  // unchanged
    CHECK(t.idf("a") == 2.0);
    std::istringstream no_number("a 1\nterm   \n");
    REQUIRE_THROWS_AS(t.load(no_number), semfp::parse_error);
    std::istringstream negative("a -1\n");
    REQUIRE_THROWS_AS(t.load(negative), semfp::parse_error);
    REQUIRE_THROWS_AS(t.set("x", -1.0), semfp::invalid_argument_error);
    t.set_from_document_frequency("rare", 1, 999);
    CHECK(t.idf("rare") > t.idf("term"));
}
