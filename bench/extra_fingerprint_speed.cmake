# Fingerprinting speed as a ratio to UTF-8 decoding (bench/fingerprint_speed.cpp).
add_executable(semfp_fingerprint_speed "${CMAKE_CURRENT_SOURCE_DIR}/fingerprint_speed.cpp")
target_link_libraries(semfp_fingerprint_speed PRIVATE semfp::semfp semfp_dev)
target_include_directories(semfp_fingerprint_speed PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
target_compile_definitions(semfp_fingerprint_speed PRIVATE SEMFP_DEFAULT_CORPUS="${SEMFP_DEFAULT_CORPUS}")
