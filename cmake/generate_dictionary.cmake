# Regenerates include/semfp/dict/embedded_data.hpp from jieba's dict.txt (Debian: python3-jieba).
#
#   cmake -P cmake/generate_dictionary.cmake
#   cmake -D SOURCE=/path/to/dict.txt -D VERSION=0.42.1-3 -D OUTPUT=out.hpp -P cmake/generate_dictionary.cmake
#   cmake -D CHECK=ON -D OUTPUT=tmp.hpp -P cmake/generate_dictionary.cmake   # regenerate and byte-compare
#
# SOURCE defaults to Debian's path, VERSION to the installed package's version (dpkg-query),
# OUTPUT to the committed header. With CHECK=ON the result is compared with the committed header
# and the script fails when they differ.
cmake_minimum_required(VERSION 3.21)

get_filename_component(semfp_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(semfp_committed "${semfp_root}/include/semfp/dict/embedded_data.hpp")
if(NOT DEFINED SOURCE)
  set(SOURCE "/usr/lib/python3/dist-packages/jieba/dict.txt")
endif()
if(NOT DEFINED OUTPUT)
  set(OUTPUT "${semfp_committed}")
endif()
if(NOT EXISTS "${SOURCE}")
  message(FATAL_ERROR "generate_dictionary: ${SOURCE} not found (apt-get install python3-jieba, or pass -D SOURCE=...)")
endif()
if(NOT DEFINED VERSION)
  find_program(semfp_dpkg_query dpkg-query)
  if(semfp_dpkg_query)
    execute_process(COMMAND "${semfp_dpkg_query}" -W -f=\${Version} python3-jieba
      OUTPUT_VARIABLE VERSION RESULT_VARIABLE rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT rc EQUAL 0)
      set(VERSION "unknown")
    endif()
  else()
    set(VERSION "unknown")
  endif()
endif()
if(NOT DEFINED PYTHON)
  find_program(PYTHON NAMES python3 python REQUIRED)
endif()

execute_process(
  COMMAND "${PYTHON}" "${CMAKE_CURRENT_LIST_DIR}/generate_dictionary.py"
          --source "${SOURCE}" --version "${VERSION}" --output "${OUTPUT}"
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "generate_dictionary: the generator failed (${rc})")
endif()

if(CHECK)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${OUTPUT}" "${semfp_committed}" RESULT_VARIABLE diff)
  if(NOT diff EQUAL 0)
    message(FATAL_ERROR "generate_dictionary: ${semfp_committed} differs from a fresh generation (${OUTPUT}); "
                        "run cmake -P cmake/generate_dictionary.cmake and commit the result")
  endif()
  message(STATUS "generate_dictionary: the committed header is up to date")
else()
  message(STATUS "generate_dictionary: wrote ${OUTPUT}")
endif()
