# Test-only dependencies of the HTML text layer (tests/unit/text/html_test.cpp).
#
# gumbo (Debian: libgumbo-dev), an HTML5 parser, is the reference the extractor is compared
# with. When the Debian package debian-reference-zh-cn is installed too, its pages are compared
# in a separate ctest (html_real_pages); they are not part of the repository.
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(SEMFP_GUMBO QUIET IMPORTED_TARGET gumbo)
endif()

if(SEMFP_GUMBO_FOUND AND TARGET semfp_tests)
  target_link_libraries(semfp_tests PRIVATE PkgConfig::SEMFP_GUMBO)
  target_compile_definitions(semfp_tests PRIVATE SEMFP_TEST_HAVE_GUMBO=1)
  set(SEMFP_HTML_REAL_PAGES_DIR "/usr/share/debian-reference" CACHE PATH
      "Directory of real HTML pages compared with gumbo (html_real_pages test)")
  if(IS_DIRECTORY "${SEMFP_HTML_REAL_PAGES_DIR}")
    target_compile_definitions(semfp_tests PRIVATE SEMFP_HTML_REAL_PAGES_DIR="${SEMFP_HTML_REAL_PAGES_DIR}")
    add_test(NAME html_real_pages COMMAND semfp_tests "[html-real-pages]")
    set_tests_properties(html_real_pages PROPERTIES TIMEOUT 600)
  endif()
else()
  message(STATUS "gumbo not found (Debian: libgumbo-dev): HTML tests run without the HTML5 parser comparison")
endif()

# The generated tables must match their generators.
find_program(SEMFP_PYTHON3 NAMES python3)
if(SEMFP_PYTHON3)
  add_test(NAME html_entities_generated
           COMMAND "${CMAKE_COMMAND}" -DCHECK=ON -DPYTHON3=${SEMFP_PYTHON3}
                   -DOUTPUT=${CMAKE_CURRENT_BINARY_DIR}/html_entities.hpp
                   -P "${PROJECT_SOURCE_DIR}/cmake/generate_html_entities.cmake")
  # The GB18030 table is read off the C library's iconv; other C libraries may differ on the
  # code points that changed between editions of GB 18030, so the check runs on glibc only.
  if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    add_test(NAME gb18030_table_generated
             COMMAND "${CMAKE_COMMAND}" -DCHECK=ON -DPYTHON3=${SEMFP_PYTHON3}
                     -DOUTPUT=${CMAKE_CURRENT_BINARY_DIR}/gb18030_table.hpp
                     -P "${PROJECT_SOURCE_DIR}/cmake/generate_gb18030.cmake")
  endif()
endif()
