# semfp_short_text_sketch: the two-stage rule's b-bit MinHash sketch against a bottom-k sketch of
# the same size on short-text pairs (bench/short_text_quality.py writes them). nlohmann-json.
find_package(nlohmann_json 3 CONFIG QUIET)
if(NOT nlohmann_json_FOUND)
  return()
endif()
add_executable(semfp_short_text_sketch "${CMAKE_CURRENT_SOURCE_DIR}/short_text_sketch.cpp")
target_link_libraries(semfp_short_text_sketch PRIVATE semfp::semfp semfp_dev nlohmann_json::nlohmann_json)
target_include_directories(semfp_short_text_sketch PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
