# semfp_copy_quality: planted-copy passages (suffix automaton vs. winnowing), the copy index
# against a linear scan on 100,000 documents, and containment on the evaluation kit's DEV pairs.
add_executable(semfp_copy_quality "${CMAKE_CURRENT_SOURCE_DIR}/copy_quality.cpp")
target_link_libraries(semfp_copy_quality PRIVATE semfp::semfp semfp_dev)
target_include_directories(semfp_copy_quality PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
target_compile_definitions(semfp_copy_quality PRIVATE SEMFP_DEFAULT_CORPUS="${SEMFP_DEFAULT_CORPUS}")
