# Drift checks of the generated data: regenerate into the build tree and byte-compare with the
# committed headers. Registered only where the sources are installed (Debian: python3-jieba,
# opencc), so a plain clone elsewhere still passes.
find_program(SEMFP_PYTHON3 NAMES python3 python)
set(semfp_jieba_dict "/usr/lib/python3/dist-packages/jieba/dict.txt")
if(SEMFP_PYTHON3 AND EXISTS "${semfp_jieba_dict}")
  add_test(NAME semfp.dict_regenerate
    COMMAND "${CMAKE_COMMAND}" -D CHECK=ON -D "PYTHON=${SEMFP_PYTHON3}" -D "SOURCE=${semfp_jieba_dict}"
            -D "OUTPUT=${CMAKE_CURRENT_BINARY_DIR}/embedded_data.regenerated.hpp"
            -P "${PROJECT_SOURCE_DIR}/cmake/generate_dictionary.cmake")
  add_test(NAME semfp.dict_trie_regenerate
    COMMAND "${CMAKE_COMMAND}" -D CHECK=ON -D "PYTHON=${SEMFP_PYTHON3}" -D "SOURCE=${semfp_jieba_dict}"
            -D "OUTPUT=${CMAKE_CURRENT_BINARY_DIR}/embedded_trie_data.regenerated.hpp"
            -P "${PROJECT_SOURCE_DIR}/cmake/generate_dictionary_trie.cmake")
  # About 20 s of Python: ctest -j starts it early (COST) so it does not run alone at the end.
  set_tests_properties(semfp.dict_trie_regenerate PROPERTIES COST 50)
endif()
find_program(SEMFP_OPENCC opencc)
if(SEMFP_PYTHON3 AND SEMFP_OPENCC AND EXISTS "/usr/share/opencc/t2s.json")
  add_test(NAME semfp.t2s_regenerate
    COMMAND "${CMAKE_COMMAND}" -D CHECK=ON -D "PYTHON=${SEMFP_PYTHON3}" -D "OPENCC=${SEMFP_OPENCC}"
            -D "OUTPUT=${CMAKE_CURRENT_BINARY_DIR}/t2s_table.regenerated.hpp"
            -P "${PROJECT_SOURCE_DIR}/cmake/generate_t2s.cmake")
endif()
find_program(SEMFP_OPENCC_DICT opencc_dict)
if(SEMFP_PYTHON3 AND SEMFP_OPENCC_DICT AND EXISTS "/usr/share/opencc/TWPhrasesRev.ocd2")
  add_test(NAME semfp.tw_phrases_regenerate
    COMMAND "${CMAKE_COMMAND}" -D CHECK=ON -D "PYTHON=${SEMFP_PYTHON3}" -D "OPENCC_DICT=${SEMFP_OPENCC_DICT}"
            -D "OUTPUT=${CMAKE_CURRENT_BINARY_DIR}/tw_phrase_table.regenerated.hpp"
            -P "${PROJECT_SOURCE_DIR}/cmake/generate_tw_phrases.cmake")
endif()
