#pragma once
// Shared by the libFuzzer targets: a failed property aborts with a message (libFuzzer then saves
// the input as a crash), and the one exception type a target allows is checked by `expect_only`.

#include <semfp/error.hpp>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string_view>

namespace semfp_fuzz {

[[noreturn]] inline void fail(const char* what) {
    std::fprintf(stderr, "fuzz property violated: %s\n", what);
    std::abort();
}

inline void check(bool ok, const char* what) {
    if (!ok) fail(what);
}

/// Runs `f`; an exception other than `Allowed` (a semfp::error subclass) is a failure.
template <class Allowed, class F>
bool expect_only(F&& f) {
    try {
        f();
        return true;
    } catch (const Allowed&) {
        return false;
    } catch (const semfp::error&) {
        fail("a semfp::error of another type than documented");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        fail("an exception that is not a semfp::error");
    }
}

}  // namespace semfp_fuzz
