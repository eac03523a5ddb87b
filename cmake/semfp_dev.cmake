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
endif()
