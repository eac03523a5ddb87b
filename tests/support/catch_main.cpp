// Main for Catch2 v2 installs that do not provide Catch2::Catch2WithMain.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
