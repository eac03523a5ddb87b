# Regenerates include/semfp/detail/tw_phrase_table.hpp (Taiwan-standard -> mainland vocabulary) with
# OpenCC (Debian: opencc, libopencc-data).
#
#   cmake -P cmake/generate_tw_phrases.cmake
#   cmake -D OPENCC_DICT=/path/to/opencc_dict -D DATA_DIR=/usr/share/opencc -D OUTPUT=out.hpp -P cmake/generate_tw_phrases.cmake
#   cmake -D CHECK=ON -D OUTPUT=tmp.hpp -P cmake/generate_tw_phrases.cmake   # regenerate and byte-compare
cmake_minimum_required(VERSION 3.21)
include("${CMAKE_CURRENT_LIST_DIR}/generator_common.cmake")

semfp_generator_output(include/semfp/detail/tw_phrase_table.hpp)
if(NOT DEFINED DATA_DIR)
  set(DATA_DIR "/usr/share/opencc")
endif()
if(NOT DEFINED OPENCC_DICT)
  find_program(OPENCC_DICT opencc_dict)
endif()
if(NOT OPENCC_DICT OR NOT EXISTS "${DATA_DIR}/TWPhrasesRev.ocd2")
  message(FATAL_ERROR "generate_tw_phrases: needs the opencc_dict command and ${DATA_DIR}/TWPhrasesRev.ocd2 (apt-get install opencc)")
endif()
semfp_package_version(libopencc-data)
semfp_run_generator(generate_tw_phrases "${semfp_committed}"
  --opencc-dict "${OPENCC_DICT}" --data-dir "${DATA_DIR}"
  --char-table "${semfp_root}/include/semfp/detail/t2s_table.hpp")
