# Regenerates include/semfp/dict/embedded_idf_data.hpp from jieba's analyse/idf.txt (Debian:
# python3-jieba).
#
#   cmake -P cmake/generate_idf.cmake
#   cmake -D SOURCE=/path/to/idf.txt -D VERSION=0.42.1-3 -D OUTPUT=out.hpp -P cmake/generate_idf.cmake
#   cmake -D CHECK=ON -D OUTPUT=tmp.hpp -P cmake/generate_idf.cmake   # regenerate and byte-compare
#
# SOURCE defaults to Debian's path, VERSION to the installed package's version (dpkg-query),
# OUTPUT to the committed header. With CHECK=ON the result is compared with the committed header
# and the script fails when they differ.
cmake_minimum_required(VERSION 3.21)
include("${CMAKE_CURRENT_LIST_DIR}/generator_common.cmake")

semfp_generator_output(include/semfp/dict/embedded_idf_data.hpp)
if(NOT DEFINED SOURCE)
  set(SOURCE "/usr/lib/python3/dist-packages/jieba/analyse/idf.txt")
endif()
if(NOT EXISTS "${SOURCE}")
  message(FATAL_ERROR "generate_idf: ${SOURCE} not found (apt-get install python3-jieba, or pass -D SOURCE=...)")
endif()
semfp_package_version(python3-jieba)
semfp_run_generator(generate_idf "${semfp_committed}"
  --source "${SOURCE}")
