# Private settings for semfp's own tests, examples and benchmarks. Never installed and never
# attached to the public semfp target.
add_library(semfp_dev INTERFACE)
if(MSVC)
  target_compile_options(semfp_dev INTERFACE /W4 /permissive- /utf-8 /bigobj)
  if(SEMFP_DEVELOPER_MODE)
    target_compile_options(semfp_dev INTERFACE /WX)
  endif()
else()
  target_compile_options(semfp_dev INTERFACE -Wall -Wextra -Wpedantic -Wconversion -Wshadow)
  if(SEMFP_DEVELOPER_MODE)
    target_compile_options(semfp_dev INTERFACE -Werror)
  endif()
endif()
if(SEMFP_SANITIZE)
  target_compile_options(semfp_dev INTERFACE -fsanitize=${SEMFP_SANITIZE} -fno-omit-frame-pointer
                                             -fno-sanitize-recover=all)
  target_link_options(semfp_dev INTERFACE -fsanitize=${SEMFP_SANITIZE})
  # Lets the largest randomized tests run fewer cases under the sanitizers (tests/support/scale.hpp).
  target_compile_definitions(semfp_dev INTERFACE SEMFP_SANITIZED_BUILD=1)
  # UBSan's check sites and ASan's descriptors of globals each hold pointers, and a position-
  # independent executable relocates every one of them at each start: 2.2 million relocations
  # (53 MB) in the ASan+UBSan test executable, 0.35 s of CPU per process, and ctest starts one
  # process per test case. Sanitized executables are never shipped: they link at a fixed address.
  if(SEMFP_SANITIZE MATCHES "address|undefined" AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang" AND NOT APPLE)
    target_link_options(semfp_dev INTERFACE $<$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>:-no-pie>)
  endif()
endif()
