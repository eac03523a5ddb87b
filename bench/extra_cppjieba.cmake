# Optional in-process cppjieba baseline for semfp_segmenter_bench (never needed by the library,
# the tests or CI). cppjieba (MIT, with its limonp dependency, MIT) is not a Debian package; the
# npm package `nodejieba` bundles its headers and dictionary under submodules/cppjieba.
#   -DSEMFP_CPPJIEBA_DIR=DIR     a cppjieba source tree (DIR/include/cppjieba/MPSegment.hpp,
#                                DIR/deps/limonp/include, DIR/dict/jieba.dict.utf8)
#   -DSEMFP_FETCH_CPPJIEBA=ON    at configure time, `npm pack nodejieba@VERSION` into the build
#                                folder and use the cppjieba inside it (nothing is committed)
# Without either, the bench prints that the comparison is skipped.
set(SEMFP_CPPJIEBA_DIR "" CACHE PATH "cppjieba source tree for the segmenter bench's in-process baseline (optional)")
option(SEMFP_FETCH_CPPJIEBA "Fetch cppjieba (inside the npm package nodejieba) into the build folder at configure time" OFF)
set(SEMFP_NODEJIEBA_VERSION "3.5.8" CACHE STRING "nodejieba version fetched by SEMFP_FETCH_CPPJIEBA")

if(NOT SEMFP_CPPJIEBA_DIR AND SEMFP_FETCH_CPPJIEBA)
  set(_semfp_nj "${CMAKE_BINARY_DIR}/_deps/nodejieba-${SEMFP_NODEJIEBA_VERSION}")
  if(NOT EXISTS "${_semfp_nj}/package/submodules/cppjieba/include/cppjieba/MPSegment.hpp")
    find_program(SEMFP_NPM npm)
    if(NOT SEMFP_NPM)
      message(WARNING "semfp: SEMFP_FETCH_CPPJIEBA needs npm; the cppjieba comparison is skipped")
    else()
      file(MAKE_DIRECTORY "${_semfp_nj}")
      execute_process(COMMAND "${SEMFP_NPM}" pack "nodejieba@${SEMFP_NODEJIEBA_VERSION}" --silent
                      WORKING_DIRECTORY "${_semfp_nj}" RESULT_VARIABLE _semfp_rc OUTPUT_VARIABLE _semfp_tgz
                      OUTPUT_STRIP_TRAILING_WHITESPACE)
      if(_semfp_rc EQUAL 0 AND EXISTS "${_semfp_nj}/${_semfp_tgz}")
        file(ARCHIVE_EXTRACT INPUT "${_semfp_nj}/${_semfp_tgz}" DESTINATION "${_semfp_nj}")
      else()
        message(WARNING "semfp: npm pack nodejieba failed (${_semfp_rc}); the cppjieba comparison is skipped")
      endif()
    endif()
  endif()
  if(EXISTS "${_semfp_nj}/package/submodules/cppjieba/include/cppjieba/MPSegment.hpp")
    set(SEMFP_CPPJIEBA_DIR "${_semfp_nj}/package/submodules/cppjieba" CACHE PATH "" FORCE)
  endif()
endif()

if(TARGET semfp_segmenter_bench AND SEMFP_CPPJIEBA_DIR)
  if(EXISTS "${SEMFP_CPPJIEBA_DIR}/include/cppjieba/MPSegment.hpp" AND
     EXISTS "${SEMFP_CPPJIEBA_DIR}/dict/jieba.dict.utf8")
    message(STATUS "semfp: segmenter bench compares with cppjieba in ${SEMFP_CPPJIEBA_DIR}")
    # SYSTEM: the third-party headers are not held to the project's warning flags.
    target_include_directories(semfp_segmenter_bench SYSTEM PRIVATE "${SEMFP_CPPJIEBA_DIR}/include"
                               "${SEMFP_CPPJIEBA_DIR}/deps/limonp/include")
    target_compile_definitions(semfp_segmenter_bench PRIVATE SEMFP_HAVE_CPPJIEBA=1
                               SEMFP_CPPJIEBA_DICT="${SEMFP_CPPJIEBA_DIR}/dict/jieba.dict.utf8")
  else()
    message(WARNING "semfp: SEMFP_CPPJIEBA_DIR=${SEMFP_CPPJIEBA_DIR} has no include/cppjieba/MPSegment.hpp or "
                    "dict/jieba.dict.utf8; the cppjieba comparison is skipped")
  endif()
endif()
