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

# Unity ("jumbo") builds of the targets compiled in every preset: the test executables and the
# tool. Their sources include the same library templates, Catch2, CLI11 and nlohmann/json, and
# compiled in batches of several files each template is instantiated and compiled once per batch
# instead of once per file (ASan objects: 8 test files 45.9 s CPU apart, 18.5 s as one batch;
# developer flags, -O2: two batches of 8 files 121.1 s apart, 63.0 s as batches). Off by default,
# so a plain configure compiles every source file on its own (which is what shows a source that
# misses an #include a batch-mate provides); every preset turns it on. Files named after the batch
# size stay out of the batches and compile on their own: their file-local helpers clash with
# another file's (same name and signature in an anonymous namespace, or a global that another
# file's local shadows). All other files of a target must compile as one translation unit, so
# that any batching works; a new test file that clashes joins that list.
option(SEMFP_UNITY_BUILD "Compile semfp's test executables and tool in unity batches" OFF)
function(semfp_unity_build target batch_size)
  if(NOT SEMFP_UNITY_BUILD)
    return()
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${batch_size})
  get_target_property(sources ${target} SOURCES)
  foreach(source IN LISTS sources)
    get_filename_component(name "${source}" NAME)
    if(name IN_LIST ARGN)
      set_source_files_properties("${source}" PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
    endif()
  endforeach()
endfunction()
