#pragma once
// One include for Catch2 v2 (Debian 12) and v3 (vcpkg, Conan). SEMFP_CATCH2_MAJOR comes from
// CMake (the found package's major version), never from __has_include, so the headers always
// match the library that is linked. Tests use only the subset common to both majors.
#if defined(SEMFP_CATCH2_MAJOR) && SEMFP_CATCH2_MAJOR >= 3
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/matchers/catch_matchers_floating_point.hpp>
#else
#include <catch2/catch.hpp>
#endif
