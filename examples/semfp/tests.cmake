# ctest tests of the semfp tool: each runs the tool through tests/check.cmake, which checks exit
# status, outputs and messages. Fast (well under a second each).
set(semfp_tool_check "${CMAKE_CURRENT_SOURCE_DIR}/semfp/tests/check.cmake")
set(semfp_tool_cases
  sample_dedup sample_methods deterministic fingerprint_stdin fingerprint_lines bad_input strict
  missing_field unreadable usage directory compare output_failure
  safety_same_file safety_directory safety_atomic safety_hostile_json safety_max_size safety_threads
  safety_unreadable_dir safety_compare_limit safety_report_order html_text signatures seen period copies)
# dedup --state / --link / --verify, fingerprint --shard, semfp cluster (tests/linked.cmake).
list(APPEND semfp_tool_cases state_resume state_refused shard_cluster link_components verify_sketch)
foreach(case IN LISTS semfp_tool_cases)
  add_test(NAME semfp.tool.${case}
    COMMAND "${CMAKE_COMMAND}"
      -DCASE=${case}
      "-DTOOL=$<TARGET_FILE:semfp_tool>"
      "-DDATA=${CMAKE_CURRENT_SOURCE_DIR}/data"
      "-DINPUTS=${CMAKE_CURRENT_SOURCE_DIR}/semfp/tests"
      "-DWORK=${CMAKE_CURRENT_BINARY_DIR}/semfp_test_${case}"
      -P "${semfp_tool_check}")
  set_tests_properties(semfp.tool.${case} PROPERTIES TIMEOUT 120)
endforeach()
# ctest -j starts the costliest tests first (COST); these two take seconds, more under the
# sanitizers.
set_tests_properties(semfp.tool.shard_cluster semfp.tool.state_resume PROPERTIES COST 30)

# The tool's sample outputs quoted in the READMEs must be what it prints today; regenerate them
# with cmake -DTOOL=<semfp> -DMODE=update -P cmake/readme_samples.cmake.
add_test(NAME semfp.tool.readme_samples
  COMMAND "${CMAKE_COMMAND}" "-DTOOL=$<TARGET_FILE:semfp_tool>" -DMODE=check
    -P "${PROJECT_SOURCE_DIR}/cmake/readme_samples.cmake")

# --link components against the Python package's semfp.dask (when the package is built; the
# python/ directory is configured after this file, hence the deferred call).
function(_semfp_tool_python_tests)
  if(TARGET semfp_python_module)
    add_test(NAME semfp.tool.components_python
      COMMAND "${CMAKE_COMMAND}" -E env "PYTHONPATH=${CMAKE_CURRENT_BINARY_DIR}/python"
        "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_SOURCE_DIR}/semfp/tests/components_dask.py"
        "$<TARGET_FILE:semfp_tool>" "${CMAKE_CURRENT_BINARY_DIR}/semfp_test_components_python"
        "${CMAKE_CURRENT_SOURCE_DIR}/data/pg_messages_zh.jsonl")
    set_tests_properties(semfp.tool.components_python PROPERTIES TIMEOUT 300)
  endif()
endfunction()
cmake_language(DEFER DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" CALL _semfp_tool_python_tests)
# The tool's JSON Lines parsers (simdjson when built in, nlohmann/json) agree line by line.
add_executable(semfp_json_line_agreement semfp/tests/json_line_agreement.cpp)
target_link_libraries(semfp_json_line_agreement PRIVATE semfp_engine semfp_dev)
add_test(NAME semfp.tool.json_line_agreement
  COMMAND semfp_json_line_agreement "${CMAKE_CURRENT_SOURCE_DIR}/semfp/tests/bad_input.jsonl"
    "${CMAKE_CURRENT_SOURCE_DIR}/semfp/tests/good.jsonl")
# Under the sanitizers (each run about 10 times slower) 1 and 3 threads only.
if(SEMFP_SANITIZE)
  set(semfp_pipeline_threads "1,3")
else()
  set(semfp_pipeline_threads "1,2,3")
endif()
add_test(NAME semfp.tool.pipeline_order
  COMMAND "${CMAKE_COMMAND}" "-DTOOL=$<TARGET_FILE:semfp_tool>"
    "-DWORK=${CMAKE_CURRENT_BINARY_DIR}/semfp_test_pipeline_order" "-DTHREADS=${semfp_pipeline_threads}"
    -P "${CMAKE_CURRENT_SOURCE_DIR}/semfp/tests/pipeline_order.cmake")
set_tests_properties(semfp.tool.pipeline_order PROPERTIES TIMEOUT 300 COST 60)
# Blocks cut at their byte budget, more of them than the ring holds, documents of 120 B to 370 KB.
if(SEMFP_SANITIZE)
  set(semfp_blocks_threads "1,4")
else()
  set(semfp_blocks_threads "1,2,4")
endif()
add_test(NAME semfp.tool.pipeline_blocks
  COMMAND "${CMAKE_COMMAND}" "-DTOOL=$<TARGET_FILE:semfp_tool>"
    "-DWORK=${CMAKE_CURRENT_BINARY_DIR}/semfp_test_pipeline_blocks" "-DTHREADS=${semfp_blocks_threads}"
    -P "${CMAKE_CURRENT_SOURCE_DIR}/semfp/tests/pipeline_blocks.cmake")
set_tests_properties(semfp.tool.pipeline_blocks PROPERTIES TIMEOUT 300 COST 40)
# The tool's one JSON string escaper in both modes: outputs (UTF-8 through) and option digests
# (ASCII, as Python's json.dumps).
add_executable(semfp_json_escape semfp/tests/json_escape.cpp semfp/digest.cpp)
target_link_libraries(semfp_json_escape PRIVATE semfp_engine semfp_dev)
add_test(NAME semfp.tool.json_escape COMMAND semfp_json_escape)
