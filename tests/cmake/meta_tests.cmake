# Tests of the package itself: every public header compiles on its own, the concepts give
# readable diagnostics, versions agree, and the installed package works for consumers.

# --- every public header compiles on its own (one generated translation unit per header) ---
file(GLOB_RECURSE semfp_public_headers CONFIGURE_DEPENDS RELATIVE "${PROJECT_SOURCE_DIR}/include"
     "${PROJECT_SOURCE_DIR}/include/semfp/*.hpp")
set(semfp_header_tus "")
foreach(header IN LISTS semfp_public_headers)
  string(MAKE_C_IDENTIFIER "${header}" tu_name)
  set(tu "${CMAKE_CURRENT_BINARY_DIR}/headers/${tu_name}.cpp")
  file(CONFIGURE OUTPUT "${tu}" CONTENT "#include <${header}>\n#include <${header}>\n")
  list(APPEND semfp_header_tus "${tu}")
endforeach()
# Part of the default build unless SEMFP_HEADER_CHECK is OFF (the sanitizer presets: a header that
# compiles alone does so whatever the instrumentation); the target stays available either way.
option(SEMFP_HEADER_CHECK "Compile every public header on its own as part of the default build" ON)
if(SEMFP_HEADER_CHECK)
  add_library(semfp_header_check OBJECT ${semfp_header_tus})
else()
  add_library(semfp_header_check OBJECT EXCLUDE_FROM_ALL ${semfp_header_tus})
endif()
target_link_libraries(semfp_header_check PRIVATE semfp::semfp semfp_dev)

# --- versions agree: project(), version.hpp, vcpkg port ---
add_test(NAME semfp.versions_agree
         COMMAND "${CMAKE_COMMAND}" -DROOT=${PROJECT_SOURCE_DIR} -DVERSION=${PROJECT_VERSION}
                 -P "${CMAKE_CURRENT_SOURCE_DIR}/cmake/check_versions.cmake")

# --- a misuse of a concept fails to compile, and the diagnostic names the concept ---
file(GLOB semfp_compile_fail_sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/compile_fail/*.cpp")
foreach(src IN LISTS semfp_compile_fail_sources)
  get_filename_component(name "${src}" NAME_WE)
  add_executable(semfp_compile_fail_${name} EXCLUDE_FROM_ALL "${src}")
  target_link_libraries(semfp_compile_fail_${name} PRIVATE semfp::semfp)
  file(STRINGS "${src}" expected REGEX "^// expect: ")
  string(REPLACE "// expect: " "" expected "${expected}")
  add_test(NAME semfp.compile_fail.${name}
           COMMAND "${CMAKE_COMMAND}" --build "${CMAKE_BINARY_DIR}" --target semfp_compile_fail_${name})
  # COST: each compile takes seconds; ctest -j starts the costliest tests first.
  set_tests_properties(semfp.compile_fail.${name} PROPERTIES PASS_REGULAR_EXPRESSION "${expected}" TIMEOUT 300 COST 20)
endforeach()

# --- consumers: installed package via find_package, and add_subdirectory ---
if(SEMFP_INSTALL)
  set(semfp_prefix "${CMAKE_CURRENT_BINARY_DIR}/install-prefix")
  add_test(NAME semfp.install
           COMMAND "${CMAKE_COMMAND}" --install "${CMAKE_BINARY_DIR}" --prefix "${semfp_prefix}")
  set_tests_properties(semfp.install PROPERTIES FIXTURES_SETUP semfp_installed)

  add_test(NAME semfp.find_package
           COMMAND "${CMAKE_CTEST_COMMAND}" --build-and-test "${CMAKE_CURRENT_SOURCE_DIR}/consumer"
                   "${CMAKE_CURRENT_BINARY_DIR}/consumer" --build-generator "${CMAKE_GENERATOR}"
                   --build-options "-DCMAKE_PREFIX_PATH=${semfp_prefix}" "-DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}"
                   --test-command "${CMAKE_CTEST_COMMAND}" --output-on-failure)
  set_tests_properties(semfp.find_package PROPERTIES FIXTURES_REQUIRED semfp_installed TIMEOUT 600 COST 20)

  add_test(NAME semfp.find_package_refuses_newer
           COMMAND "${CMAKE_CTEST_COMMAND}" --build-and-test "${CMAKE_CURRENT_SOURCE_DIR}/consumer"
                   "${CMAKE_CURRENT_BINARY_DIR}/consumer-newer" --build-generator "${CMAKE_GENERATOR}"
                   --build-options "-DCMAKE_PREFIX_PATH=${semfp_prefix}" "-DSEMFP_REQUIRED_VERSION=99.0")
  set_tests_properties(semfp.find_package_refuses_newer PROPERTIES FIXTURES_REQUIRED semfp_installed WILL_FAIL TRUE)
endif()

add_test(NAME semfp.add_subdirectory
         COMMAND "${CMAKE_CTEST_COMMAND}" --build-and-test "${CMAKE_CURRENT_SOURCE_DIR}/consumer_subdir"
                 "${CMAKE_CURRENT_BINARY_DIR}/consumer_subdir" --build-generator "${CMAKE_GENERATOR}"
                 --build-options "-DSEMFP_SOURCE_DIR=${PROJECT_SOURCE_DIR}" "-DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}"
                 --test-command "${CMAKE_CTEST_COMMAND}" --output-on-failure)
set_tests_properties(semfp.add_subdirectory PROPERTIES TIMEOUT 600 COST 20)

# --- property on real text (only when the shared corpus is beside the repository) ---
set(SEMFP_CORPUS_DIR "${PROJECT_SOURCE_DIR}/../shared/corpus" CACHE PATH "Shared corpus used by corpus tests")
add_executable(semfp_corpus_property "${CMAKE_CURRENT_SOURCE_DIR}/corpus/edit_property.cpp")
target_link_libraries(semfp_corpus_property PRIVATE semfp::semfp semfp_dev)
if(EXISTS "${SEMFP_CORPUS_DIR}/manpages_zh_cn.jsonl")
  add_test(NAME semfp.corpus.edit_distance_grows COMMAND semfp_corpus_property "${SEMFP_CORPUS_DIR}")
  set_tests_properties(semfp.corpus.edit_distance_grows PROPERTIES TIMEOUT 600)
else()
  message(STATUS "semfp: ${SEMFP_CORPUS_DIR} not found; the corpus property test is not registered")
endif()
