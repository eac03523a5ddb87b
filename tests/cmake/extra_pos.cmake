# Drift check of the embedded part-of-speech tags: regenerate into the build tree and
# byte-compare with the committed header. Registered only where the source is installed
# (Debian: python3-jieba).
find_program(SEMFP_PYTHON3 NAMES python3 python)
set(semfp_jieba_pos_dict "/usr/lib/python3/dist-packages/jieba/dict.txt")
if(SEMFP_PYTHON3 AND EXISTS "${semfp_jieba_pos_dict}")
  add_test(NAME semfp.pos_regenerate
    COMMAND "${CMAKE_COMMAND}" -D CHECK=ON -D "PYTHON=${SEMFP_PYTHON3}" -D "SOURCE=${semfp_jieba_pos_dict}"
            -D "OUTPUT=${CMAKE_CURRENT_BINARY_DIR}/embedded_pos_data.regenerated.hpp"
            -P "${PROJECT_SOURCE_DIR}/cmake/generate_pos.cmake")
endif()
