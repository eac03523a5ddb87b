# Shared steps of the data generators run with `cmake -P` (generate_dictionary, generate_t2s,
# generate_tw_phrases): the source package's version, the Python helper, and the drift check.
# Variables the caller may pass with -D: OUTPUT (default: the committed header), VERSION
# (default: the installed Debian package's version), PYTHON, CHECK.

# Sets semfp_root, semfp_committed (the header at `committed_path` below the project root) and,
# unless it is defined, OUTPUT (the committed header).
macro(semfp_generator_output committed_path)
  get_filename_component(semfp_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
  set(semfp_committed "${semfp_root}/${committed_path}")
  if(NOT DEFINED OUTPUT)
    set(OUTPUT "${semfp_committed}")
  endif()
endmacro()

# Sets VERSION to the installed version of Debian package `package` unless it is defined.
function(semfp_package_version package)
  if(DEFINED VERSION)
    return()
  endif()
  set(version "unknown")
  find_program(semfp_dpkg_query dpkg-query)
  if(semfp_dpkg_query)
    execute_process(COMMAND "${semfp_dpkg_query}" -W -f=\${Version} "${package}"
      OUTPUT_VARIABLE v RESULT_VARIABLE rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(rc EQUAL 0)
      set(version "${v}")
    endif()
  endif()
  set(VERSION "${version}" PARENT_SCOPE)
endfunction()

# Runs cmake/<name>.py with the arguments after `committed` plus `--version VERSION --output
# OUTPUT`, then, with CHECK=ON, fails unless OUTPUT equals the committed header byte for byte.
function(semfp_run_generator name committed)
  if(NOT DEFINED PYTHON)
    find_program(PYTHON NAMES python3 python REQUIRED)
  endif()
  execute_process(
    COMMAND "${PYTHON}" "${CMAKE_CURRENT_LIST_DIR}/${name}.py" ${ARGN} --version "${VERSION}" --output "${OUTPUT}"
    RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name}: the generator failed (${rc})")
  endif()
  if(CHECK)
    execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${OUTPUT}" "${committed}" RESULT_VARIABLE diff)
    if(NOT diff EQUAL 0)
      message(FATAL_ERROR "${name}: ${committed} differs from a fresh generation (${OUTPUT}); "
                          "run cmake -P cmake/${name}.cmake and commit the result")
    endif()
    message(STATUS "${name}: the committed header is up to date")
  else()
    message(STATUS "${name}: wrote ${OUTPUT}")
  endif()
endfunction()
