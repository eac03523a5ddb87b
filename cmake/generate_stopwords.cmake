# Regenerates include/semfp/text/data/stopwords_zh.hpp from the npm package stopwords-zh (MIT).
#   cmake -P cmake/generate_stopwords.cmake
# Needs npm (to fetch the package tarball) and python3. Optional: -DOUTPUT=<path> writes elsewhere
# (the drift check compares that with the committed header).
cmake_minimum_required(VERSION 3.21)
set(version "0.4.0")
get_filename_component(root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
if(NOT OUTPUT)
  set(OUTPUT "${root}/include/semfp/text/data/stopwords_zh.hpp")
endif()
set(work "${CMAKE_CURRENT_BINARY_DIR}/semfp_stopwords_work")
file(REMOVE_RECURSE "${work}")
file(MAKE_DIRECTORY "${work}")
execute_process(COMMAND npm pack "stopwords-zh@${version}" WORKING_DIRECTORY "${work}"
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "npm pack stopwords-zh@${version} failed")
endif()
file(ARCHIVE_EXTRACT INPUT "${work}/stopwords-zh-${version}.tgz" DESTINATION "${work}")
find_program(PYTHON3 python3 REQUIRED)
execute_process(COMMAND "${PYTHON3}" "${CMAKE_CURRENT_LIST_DIR}/generate_stopwords.py"
                        "${work}/package/stopwords-zh.json" "${version}"
                OUTPUT_FILE "${OUTPUT}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "generate_stopwords.py failed")
endif()
file(COPY_FILE "${work}/package/LICENSE" "${root}/include/semfp/text/data/LICENSE.stopwords-zh")
file(REMOVE_RECURSE "${work}")
message(STATUS "wrote ${OUTPUT}")
