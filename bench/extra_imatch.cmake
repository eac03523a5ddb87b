# semfp_imatch_tuning: the I-Match lexicon band tuned on one half of the evaluation kit's pairs
# (split by base document) and confirmed on the other. Reads JSON Lines with nlohmann-json.
find_package(nlohmann_json 3 CONFIG QUIET)
if(NOT nlohmann_json_FOUND)
  return()
endif()
add_executable(semfp_imatch_tuning "${CMAKE_CURRENT_SOURCE_DIR}/imatch_tuning.cpp")
target_link_libraries(semfp_imatch_tuning PRIVATE semfp::semfp semfp_dev nlohmann_json::nlohmann_json)
target_include_directories(semfp_imatch_tuning PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
