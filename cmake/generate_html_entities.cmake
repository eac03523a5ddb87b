# Regenerates include/semfp/detail/html_entities.hpp (see cmake/generate_html_entities.py).
#
#   cmake -P cmake/generate_html_entities.cmake                    rewrite the committed header
#   cmake -DOUTPUT=<file> -P cmake/generate_html_entities.cmake    write elsewhere
#   cmake -DCHECK=ON -DOUTPUT=<file> -P cmake/generate_html_entities.cmake
#                                                         write <file> and fail unless it equals
#                                                         the committed header (a ctest does this)
cmake_minimum_required(VERSION 3.21)

set(committed "${CMAKE_CURRENT_LIST_DIR}/../include/semfp/detail/html_entities.hpp")
if(NOT DEFINED OUTPUT)
  set(OUTPUT "${committed}")
endif()
if(NOT DEFINED PYTHON3)
  find_program(PYTHON3 NAMES python3 python REQUIRED)
endif()

execute_process(
  COMMAND "${PYTHON3}" "${CMAKE_CURRENT_LIST_DIR}/generate_html_entities.py" "${OUTPUT}"
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "generate_html_entities.py failed: ${result}")
endif()

if(CHECK)
  # Comment lines (the banner names the generating tool's version) are not compared.
  file(STRINGS "${OUTPUT}" generated_lines REGEX "^[^/]|^/[^/]|^$")
  file(STRINGS "${committed}" committed_lines REGEX "^[^/]|^/[^/]|^$")
  if(NOT generated_lines STREQUAL committed_lines)
    message(FATAL_ERROR "${committed} differs from a fresh generation (${OUTPUT}); "
                        "run cmake -P ${CMAKE_CURRENT_LIST_FILE}")
  endif()
endif()
