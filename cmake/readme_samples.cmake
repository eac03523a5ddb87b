# Regenerates (MODE=update) or checks (MODE=check, the default) the sample outputs of the semfp
# tool quoted in the READMEs, so that they cannot drift from what the tool prints.
#
#   cmake -DTOOL=build/dev/examples/semfp -DMODE=update -P cmake/readme_samples.cmake
#
# A sample is a line `<!-- sample: ARGS -->` followed by a fenced code block: the block holds
# what `semfp ARGS` prints (standard output and error, merged), run from the source directory so
# that paths read as in the repository. When the block starts with a `$ ` line, that line is kept
# as the prompt and regenerated as `$ semfp ARGS`. Times and rates vary from run to run: in check
# mode the numbers on the summary's `time` and `throughput` lines are not compared.
cmake_minimum_required(VERSION 3.21)
if(NOT DEFINED TOOL)
  message(FATAL_ERROR "usage: cmake -DTOOL=<path of semfp> [-DMODE=update|check] -P readme_samples.cmake")
endif()
if(NOT DEFINED MODE)
  set(MODE check)
endif()
get_filename_component(source_dir "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
get_filename_component(TOOL "${TOOL}" ABSOLUTE BASE_DIR "${source_dir}")
set(readmes "${source_dir}/README.md" "${source_dir}/examples/semfp/README.md")

# Numbers on timing lines become N (for comparison only).
function(mask_timing var text)
  string(REGEX REPLACE "\n(  time|  throughput)[^\n]*" "\n\\1 (timing)" text "\n${text}")
  string(SUBSTRING "${text}" 1 -1 text)
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

set(drift "")
set(samples 0)
foreach(readme IN LISTS readmes)
  file(READ "${readme}" content)
  set(out "")
  set(rest "${content}")
  while(TRUE)
    string(FIND "${rest}" "<!-- sample: " at)
    if(at EQUAL -1)
      string(APPEND out "${rest}")
      break()
    endif()
    string(SUBSTRING "${rest}" 0 ${at} before)
    string(APPEND out "${before}")
    string(SUBSTRING "${rest}" ${at} -1 rest)
    # The marker line, then the opening fence line.
    string(REGEX MATCH "^<!-- sample: ([^\n]*) -->\n```[^\n]*\n" head "${rest}")
    if(NOT head)
      message(FATAL_ERROR "${readme}: a sample marker must be followed by a fenced block")
    endif()
    set(args_text "${CMAKE_MATCH_1}")
    string(LENGTH "${head}" head_len)
    string(SUBSTRING "${rest}" ${head_len} -1 rest)
    string(FIND "${rest}" "```" end)
    if(end EQUAL -1)
      message(FATAL_ERROR "${readme}: unterminated sample block for '${args_text}'")
    endif()
    string(SUBSTRING "${rest}" 0 ${end} old_block)
    string(SUBSTRING "${rest}" ${end} -1 rest)

    separate_arguments(args UNIX_COMMAND "${args_text}")
    execute_process(COMMAND "${TOOL}" ${args} WORKING_DIRECTORY "${source_dir}"
                    RESULT_VARIABLE rc OUTPUT_VARIABLE output ERROR_VARIABLE output)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "semfp ${args_text}: exit status ${rc}\n${output}")
    endif()
    set(new_block "${output}")
    if(old_block MATCHES "^\\$ ")
      set(new_block "$ semfp ${args_text}\n${output}")
    endif()
    math(EXPR samples "${samples} + 1")
    mask_timing(old_masked "${old_block}")
    mask_timing(new_masked "${new_block}")
    if(NOT old_masked STREQUAL new_masked)
      string(APPEND drift "\n--- ${readme}: semfp ${args_text}\nREADME:\n${old_block}\nthe tool now:\n${new_block}")
    endif()
    string(APPEND out "${head}${new_block}")
  endwhile()
  if(MODE STREQUAL "update" AND NOT out STREQUAL content)
    file(WRITE "${readme}" "${out}")
    message(STATUS "updated ${readme}")
  endif()
endforeach()

if(samples EQUAL 0)
  message(FATAL_ERROR "no sample markers found in ${readmes}")
endif()
if(drift AND NOT MODE STREQUAL "update")
  message(FATAL_ERROR "README samples differ from the tool's output; regenerate them with\n"
                      "  cmake -DTOOL=<path of semfp> -DMODE=update -P cmake/readme_samples.cmake\n${drift}")
endif()
message(STATUS "${samples} README sample(s) ${MODE}: ok")
