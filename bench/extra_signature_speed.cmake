# Signature (fingerprint + sketch) speed as a ratio to the fingerprint alone
# (bench/signature_speed.cpp). A program of its own: placed in semfp_fingerprint_speed, its code
# moved that program's other rows.
add_executable(semfp_signature_speed "${CMAKE_CURRENT_SOURCE_DIR}/signature_speed.cpp")
target_link_libraries(semfp_signature_speed PRIVATE semfp::semfp semfp_dev)
target_include_directories(semfp_signature_speed PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
target_compile_definitions(semfp_signature_speed PRIVATE SEMFP_DEFAULT_CORPUS="${SEMFP_DEFAULT_CORPUS}")
