#pragma once
// The fused fingerprint pass against the reference path, text by text (tests of the fused pass).
#include "support/catch.hpp"

#include <semfp/core/fingerprinter.hpp>

#include <string>
#include <vector>

namespace semfp_test {

/// Requires `fp(t) == fp.reference(t)` for every text (the fused pass and the step-by-step path).
template <class FP>
void require_same_as_reference(const FP& fp, const std::vector<std::string>& texts) {
    semfp::fingerprint_scratch a, b;
    for (const std::string& t : texts) {
        INFO("text of " << t.size() << " bytes");
        REQUIRE(fp(t, a) == fp.reference(t, b));
    }
}

}  // namespace semfp_test
