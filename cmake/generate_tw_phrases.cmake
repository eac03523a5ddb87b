# Regenerates include/semfp/detail/tw_phrase_table.hpp (Taiwan-standard -> mainland vocabulary) with
# OpenCC (Debian: opencc, libopencc-data).
#
#   cmake -P cmake/generate_tw_phrases.cmake
#   cmake -D OPENCC_DICT=/path/to/opencc_dict -D DATA_DIR=/usr/share/opencc -D OUTPUT=out.hpp -P cmake/generate_tw_phrases.cmake
#   cmake -D CHECK=ON -D OUTPUT=tmp.hpp -P cmake/generate_tw_phrases.cmake   # regenerate and byte-compare
cmake_minimum_required(VERSION 3.21)

get_filename_component(semfp_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(semfp_committed "${semfp_root}/include/semfp/detail/tw_phrase_table.hpp")
if(NOT DEFINED OUTPUT)
  set(OUTPUT "${semfp_committed}")
endif()
if(NOT DEFINED DATA_DIR)
  set(DATA_DIR "/usr/share/opencc")
endif()
if(NOT DEFINED OPENCC_DICT)
  find_program(OPENCC_DICT opencc_dict)
endif()
if(NOT OPENCC_DICT OR NOT EXISTS "${DATA_DIR}/TWPhrasesRev.ocd2")
  message(FATAL_ERROR "generate_tw_phrases: needs the opencc_dict command and ${DATA_DIR}/TWPhrasesRev.ocd2 (apt-get install opencc)")
endif()
if(NOT DEFINED VERSION)
  find_program(semfp_dpkg_query dpkg-query)
  set(VERSION "unknown")
  if(semfp_dpkg_query)
    execute_process(COMMAND "${semfp_dpkg_query}" -W -f=\${Version} libopencc-data
      OUTPUT_VARIABLE semfp_v RESULT_VARIABLE rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(rc EQUAL 0)
      set(VERSION "${semfp_v}")
    endif()
  endif()
endif()
if(NOT DEFINED PYTHON)
  find_program(PYTHON NAMES python3 python REQUIRED)
endif()

execute_process(
  COMMAND "${PYTHON}" "${CMAKE_CURRENT_LIST_DIR}/generate_tw_phrases.py"
          --opencc-dict "${OPENCC_DICT}" --data-dir "${DATA_DIR}"
          --char-table "${semfp_root}/include/semfp/detail/t2s_table.hpp" --version "${VERSION}" --output "${OUTPUT}"
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "generate_tw_phrases: the generator failed (${rc})")
endif()

if(CHECK)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${OUTPUT}" "${semfp_committed}" RESULT_VARIABLE diff)
  if(NOT diff EQUAL 0)
    message(FATAL_ERROR "generate_tw_phrases: ${semfp_committed} differs from a fresh generation (${OUTPUT}); "
                        "run cmake -P cmake/generate_tw_phrases.cmake and commit the result")
  endif()
  message(STATUS "generate_tw_phrases: the committed header is up to date")
else()
  message(STATUS "generate_tw_phrases: wrote ${OUTPUT}")
endif()
