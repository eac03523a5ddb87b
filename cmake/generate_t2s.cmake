# Regenerates include/semfp/detail/t2s_table.hpp (Traditional -> Simplified characters) with
# OpenCC (Debian: opencc, libopencc-data).
#
#   cmake -P cmake/generate_t2s.cmake
#   cmake -D OPENCC=/path/to/opencc -D DATA_DIR=/usr/share/opencc -D OUTPUT=out.hpp -P cmake/generate_t2s.cmake
#   cmake -D CHECK=ON -D OUTPUT=tmp.hpp -P cmake/generate_t2s.cmake   # regenerate and byte-compare
cmake_minimum_required(VERSION 3.21)
include("${CMAKE_CURRENT_LIST_DIR}/generator_common.cmake")

semfp_generator_output(include/semfp/detail/t2s_table.hpp)
if(NOT DEFINED DATA_DIR)
  set(DATA_DIR "/usr/share/opencc")
endif()
if(NOT DEFINED OPENCC)
  find_program(OPENCC opencc)
endif()
if(NOT OPENCC OR NOT EXISTS "${DATA_DIR}/t2s.json")
  message(FATAL_ERROR "generate_t2s: needs the opencc command and ${DATA_DIR}/t2s.json (apt-get install opencc)")
endif()
semfp_package_version(libopencc-data)
semfp_run_generator(generate_t2s "${semfp_committed}"
  --opencc "${OPENCC}" --data-dir "${DATA_DIR}")
