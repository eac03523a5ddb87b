# Fuzz targets (tests/fuzz), off by default: the `fuzz` preset turns them on with clang.
option(SEMFP_BUILD_FUZZERS "Build the libFuzzer targets in tests/fuzz (needs clang)" OFF)
if(SEMFP_BUILD_FUZZERS)
  add_subdirectory("${CMAKE_CURRENT_SOURCE_DIR}/fuzz" "${CMAKE_CURRENT_BINARY_DIR}/fuzz")
endif()
