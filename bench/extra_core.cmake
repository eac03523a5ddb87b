add_executable(semfp_hash_quality "${CMAKE_CURRENT_SOURCE_DIR}/hash_quality.cpp")
target_link_libraries(semfp_hash_quality PRIVATE semfp::semfp semfp_dev)
target_include_directories(semfp_hash_quality PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
target_compile_definitions(semfp_hash_quality PRIVATE SEMFP_DEFAULT_CORPUS="${SEMFP_DEFAULT_CORPUS}")
