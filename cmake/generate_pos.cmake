# Regenerates include/semfp/dict/embedded_pos_data.hpp (the part-of-speech tags of the bundled
# words) from jieba's dict.txt (Debian: python3-jieba).
#
#   cmake -P cmake/generate_pos.cmake
#   cmake -D SOURCE=/path/to/dict.txt -D VERSION=0.42.1-3 -D OUTPUT=out.hpp -P cmake/generate_pos.cmake
#   cmake -D CHECK=ON -D OUTPUT=tmp.hpp -P cmake/generate_pos.cmake   # regenerate and byte-compare
#
# SOURCE defaults to Debian's path, VERSION to the installed package's version (dpkg-query),
# OUTPUT to the committed header. With CHECK=ON the result is compared with the committed header
# and the script fails when they differ.
cmake_minimum_required(VERSION 3.21)
include("${CMAKE_CURRENT_LIST_DIR}/generator_common.cmake")

semfp_generator_output(include/semfp/dict/embedded_pos_data.hpp)
if(NOT DEFINED SOURCE)
  set(SOURCE "/usr/lib/python3/dist-packages/jieba/dict.txt")
endif()
if(NOT EXISTS "${SOURCE}")
  message(FATAL_ERROR "generate_pos: ${SOURCE} not found (apt-get install python3-jieba, or pass -D SOURCE=...)")
endif()
semfp_package_version(python3-jieba)
semfp_run_generator(generate_pos "${semfp_committed}"
  --source "${SOURCE}")
