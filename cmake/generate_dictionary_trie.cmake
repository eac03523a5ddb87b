# Regenerates include/semfp/dict/embedded_trie_data.hpp (the bundled word list as precomputed
# double-array tries) from jieba's dict.txt (Debian: python3-jieba).
#
#   cmake -P cmake/generate_dictionary_trie.cmake
#   cmake -D SOURCE=/path/to/dict.txt -D VERSION=0.42.1-3 -D OUTPUT=out.hpp -P cmake/generate_dictionary_trie.cmake
#   cmake -D CHECK=ON -D OUTPUT=tmp.hpp -P cmake/generate_dictionary_trie.cmake   # regenerate and byte-compare
#
# Same defaults as cmake/generate_dictionary.cmake; run both after a change of the source.
cmake_minimum_required(VERSION 3.21)
include("${CMAKE_CURRENT_LIST_DIR}/generator_common.cmake")

semfp_generator_output(include/semfp/dict/embedded_trie_data.hpp)
if(NOT DEFINED SOURCE)
  set(SOURCE "/usr/lib/python3/dist-packages/jieba/dict.txt")
endif()
if(NOT EXISTS "${SOURCE}")
  message(FATAL_ERROR "generate_dictionary_trie: ${SOURCE} not found (apt-get install python3-jieba, or pass -D SOURCE=...)")
endif()
semfp_package_version(python3-jieba)
semfp_run_generator(generate_dictionary_trie "${semfp_committed}"
  --source "${SOURCE}")
