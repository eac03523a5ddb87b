# semfp_quality: recall / false-positive rate of Simhash, Shingle/Jaccard and MinHash-LSH on the
# evaluation kit's labelled pairs (see bench/run_quality.sh). Reads JSON Lines with nlohmann-json
# (Debian: nlohmann-json3-dev), a dependency of this program only.
find_package(nlohmann_json 3 CONFIG QUIET)
if(NOT nlohmann_json_FOUND)
  message(STATUS "semfp: nlohmann-json not found (Debian: nlohmann-json3-dev); semfp_quality is not built")
  return()
endif()
add_executable(semfp_quality "${CMAKE_CURRENT_SOURCE_DIR}/quality.cpp")
target_link_libraries(semfp_quality PRIVATE semfp::semfp semfp_dev nlohmann_json::nlohmann_json)
target_include_directories(semfp_quality PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
