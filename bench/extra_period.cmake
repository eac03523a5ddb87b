# semfp_period_quality: the period-feature-string detector on the evaluation kit's pairs (recall
# per kind, false positives on plain and same-site negatives, parameter sweeps) and its
# throughput on synthetic web pages. Reads JSON Lines with nlohmann-json, a dependency of this
# program only.
find_package(nlohmann_json 3 CONFIG QUIET)
if(NOT nlohmann_json_FOUND)
  return()
endif()
add_executable(semfp_period_quality "${CMAKE_CURRENT_SOURCE_DIR}/period_quality.cpp")
target_link_libraries(semfp_period_quality PRIVATE semfp::semfp semfp_dev nlohmann_json::nlohmann_json)
target_include_directories(semfp_period_quality PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
