# semfp_two_stage_quality: calibration of the two-stage rule (Simhash radius + sketch threshold)
# on the evaluation kit's pairs, tuned on one half of the base documents and confirmed on the
# other (see the program's comment). Reads JSON Lines with nlohmann-json (Debian:
# nlohmann-json3-dev), a dependency of this program only.
find_package(nlohmann_json 3 CONFIG QUIET)
if(NOT nlohmann_json_FOUND)
  return()
endif()
add_executable(semfp_two_stage_quality "${CMAKE_CURRENT_SOURCE_DIR}/two_stage_quality.cpp")
target_link_libraries(semfp_two_stage_quality PRIVATE semfp::semfp semfp_dev nlohmann_json::nlohmann_json)
target_include_directories(semfp_two_stage_quality PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
