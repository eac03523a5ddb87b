# Drift check of the embedded IDF table: regenerate into the build tree and byte-compare with the
# committed header. Registered only where the source is installed (Debian: python3-jieba).
find_program(SEMFP_PYTHON3 NAMES python3 python)
set(semfp_jieba_idf "/usr/lib/python3/dist-packages/jieba/analyse/idf.txt")
if(SEMFP_PYTHON3 AND EXISTS "${semfp_jieba_idf}")
  add_test(NAME semfp.idf_regenerate
    COMMAND "${CMAKE_COMMAND}" -D CHECK=ON -D "PYTHON=${SEMFP_PYTHON3}" -D "SOURCE=${semfp_jieba_idf}"
            -D "OUTPUT=${CMAKE_CURRENT_BINARY_DIR}/embedded_idf_data.regenerated.hpp"
            -P "${PROJECT_SOURCE_DIR}/cmake/generate_idf.cmake")
endif()
