# The include layers of the library point one way: detail/ includes only detail/ (and the
# top-level error.hpp), text/ includes no core/ and nothing above it, core/ nothing above it.
# cmake -DINCLUDE_DIR=<include/semfp> -P check_layers.cmake
cmake_minimum_required(VERSION 3.21)
# <directory> <areas it must not include>
set(rules
  "detail|text core index baseline signature copy image dict"
  "text|core index baseline signature copy image"
  "core|index baseline signature copy image")
set(problems "")
foreach(rule IN LISTS rules)
  string(REPLACE "|" ";" parts "${rule}")
  list(GET parts 0 dir)
  list(GET parts 1 banned)
  string(REPLACE " " "|" banned "${banned}")
  file(GLOB headers "${INCLUDE_DIR}/${dir}/*.hpp")
  if(NOT headers)
    message(FATAL_ERROR "no headers under ${INCLUDE_DIR}/${dir}")
  endif()
  foreach(h IN LISTS headers)
    file(STRINGS "${h}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*<semfp/(${banned})/")
    foreach(line IN LISTS lines)
      get_filename_component(name "${h}" NAME)
      string(APPEND problems "  ${dir}/${name}: ${line}\n")
    endforeach()
  endforeach()
endforeach()
if(problems)
  message(FATAL_ERROR "include layers broken:\n${problems}")
endif()
