# Cases of the semfp tool about never losing the user's data and surviving hostile input.
# Included by check.cmake (which defines run(), expect_match() and friends) for CASE safety_*.

# expect_file(<path> <expected content> <what>): the file exists with exactly that content.
function(expect_file path expected what)
  if(NOT EXISTS "${path}")
    message(FATAL_ERROR "${what}: ${path} is gone")
  endif()
  file(READ "${path}" content)
  expect_equal("${content}" "${expected}" "${what}")
endfunction()

# expect_no_temporaries(<dir>): no temporary of an output is left behind in dir.
function(expect_no_temporaries dir)
  file(GLOB left LIST_DIRECTORIES false "${dir}/.*.semfp-*")
  if(left)
    message(FATAL_ERROR "temporary files left behind: ${left}")
  endif()
endfunction()

# run_sh(<expected exit status> <shell command>): runs a command line through /bin/sh (for
# ulimit and trap); sets OUT and ERR.
function(run_sh expected command)
  execute_process(COMMAND /bin/sh -c "${command}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "${expected}")
    message(FATAL_ERROR "sh -c '${command}': exit status ${rc}, expected ${expected}\nstdout:\n${out}\nstderr:\n${err}")
  endif()
  set(OUT "${out}" PARENT_SCOPE)
  set(ERR "${err}" PARENT_SCOPE)
endfunction()

set(precious "{\"id\": \"p\", \"text\": \"precious data that must survive\"}\n")

if(CASE STREQUAL "safety_same_file")
  # An output that is an input, by any spelling, is refused before anything is opened.
  file(WRITE "${WORK}/x.jsonl" "${precious}")
  file(MAKE_DIRECTORY "${WORK}/sub")
  file(CREATE_LINK "${WORK}/x.jsonl" "${WORK}/link.jsonl" SYMBOLIC)
  file(CREATE_LINK "${WORK}/x.jsonl" "${WORK}/hard.jsonl")
  foreach(spelling "${WORK}/x.jsonl" "${WORK}/./x.jsonl" "${WORK}/sub/../x.jsonl" "${WORK}/link.jsonl"
                   "${WORK}/hard.jsonl")
    run(2 dedup "${WORK}/x.jsonl" --out "${spelling}")
    expect_match("${ERR}" "refusing to write --out [^\n]*: it is the same file as input [^\n]*x.jsonl" "${spelling}")
    expect_file("${WORK}/x.jsonl" "${precious}" "input intact after --out ${spelling}")
    run(2 dedup "${WORK}/x.jsonl" --keep "${spelling}" --tsv)
    expect_file("${WORK}/x.jsonl" "${precious}" "input intact after --keep ${spelling}")
    run(2 fingerprint "${WORK}/x.jsonl" --out "${spelling}")
    expect_file("${WORK}/x.jsonl" "${precious}" "input intact after fingerprint --out ${spelling}")
  endforeach()
  # A relative ./ spelling, from the input's directory.
  execute_process(COMMAND "${TOOL}" dedup x.jsonl --out ./x.jsonl WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE rc
                  ERROR_VARIABLE err)
  expect_equal("${rc}" 2 "./x.jsonl from the input's directory")
  expect_match("${err}" "same file as input x.jsonl" "message names both")
  # Standard input redirected from the output.
  run(2 dedup - --out "${WORK}/x.jsonl" < "${WORK}/x.jsonl")
  expect_match("${ERR}" "standard input" "stdin redirected from the output")
  expect_file("${WORK}/x.jsonl" "${precious}" "input intact after stdin redirect")
  # Two outputs naming one file, one of them not existing yet.
  run(2 dedup "${WORK}/x.jsonl" --out "${WORK}/new.jsonl" --keep "${WORK}/sub/../new.jsonl")
  expect_match("${ERR}" "--keep [^\n]*: it is the same file as --out" "output vs output")
  if(EXISTS "${WORK}/new.jsonl")
    message(FATAL_ERROR "refused run created its output")
  endif()
  expect_no_temporaries("${WORK}")

elseif(CASE STREQUAL "safety_directory")
  # An output inside a directory being scanned (at any depth) is refused.
  file(MAKE_DIRECTORY "${WORK}/in/deep")
  file(WRITE "${WORK}/in/a.txt" "近年来，大量网页被不同的网站反复转载。\n")
  run(2 dedup "${WORK}/in" --out "${WORK}/in/out.jsonl")
  expect_match("${ERR}" "lies inside input directory [^\n]*in" "output in the directory")
  run(2 dedup "${WORK}/in" --keep "${WORK}/in/deep/../deep/kept.jsonl" --tsv)
  run(2 fingerprint "${WORK}/./in/" --out "${WORK}/in/deep/fp.tsv")
  run(0 dedup "${WORK}/in" --out "${WORK}/out.jsonl" --quiet)
  expect_no_temporaries("${WORK}/in")

elseif(CASE STREQUAL "safety_atomic")
  # A successful run replaces the file (mode kept, symbolic link kept and followed) and leaves
  # no temporary behind.
  file(WRITE "${WORK}/out.tsv" "${precious}")
  file(CHMOD "${WORK}/out.tsv" PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ)
  run(0 fingerprint "${INPUTS}/good.jsonl" --out "${WORK}/out.tsv" --quiet)
  file(READ "${WORK}/out.tsv" content)
  expect_match("${content}" "^a\t[0-9a-f]+\nb\t" "replaced")
  execute_process(COMMAND stat -c %a "${WORK}/out.tsv" OUTPUT_VARIABLE mode OUTPUT_STRIP_TRAILING_WHITESPACE)
  expect_equal("${mode}" "640" "mode of a replaced file")
  file(WRITE "${WORK}/real.tsv" "${precious}")
  file(CREATE_LINK "real.tsv" "${WORK}/link.tsv" SYMBOLIC)
  run(0 fingerprint "${INPUTS}/good.jsonl" --out "${WORK}/link.tsv" --quiet)
  if(NOT IS_SYMLINK "${WORK}/link.tsv")
    message(FATAL_ERROR "the symbolic link was replaced by a file")
  endif()
  file(READ "${WORK}/real.tsv" content)
  expect_match("${content}" "^a\t[0-9a-f]+\n" "the link's target replaced")
  # Non-regular targets stream in place.
  run(0 fingerprint "${INPUTS}/good.jsonl" --out /dev/null --quiet)
  expect_no_temporaries("${WORK}")
  expect_no_temporaries("/dev")

  # --strict stops half-way: the previous outputs stay as they were.
  file(WRITE "${WORK}/clusters.jsonl" "${precious}")
  file(WRITE "${WORK}/kept.jsonl" "${precious}")
  run(1 dedup --strict "${INPUTS}/bad_input.jsonl" --out "${WORK}/clusters.jsonl" --keep "${WORK}/kept.jsonl")
  expect_match("${ERR}" "bad_input.jsonl:2: malformed JSON" "strict stop")
  expect_file("${WORK}/clusters.jsonl" "${precious}" "--out after a --strict stop")
  expect_file("${WORK}/kept.jsonl" "${precious}" "--keep after a --strict stop")
  expect_no_temporaries("${WORK}")

  # A write that fails half-way (file size limit: EFBIG, SIGXFSZ ignored) leaves the old file.
  run_sh(1 "trap '' XFSZ; ulimit -f 8 && exec '${TOOL}' dedup '${DATA}/pg_messages_zh.jsonl' --quiet --out '${WORK}/clusters.jsonl'")
  expect_match("${ERR}" "cannot write [^\n]*clusters.jsonl" "write failure reported")
  expect_file("${WORK}/clusters.jsonl" "${precious}" "--out after a failed write")
  expect_no_temporaries("${WORK}")
  run_sh(1 "trap '' XFSZ; ulimit -f 8 && exec '${TOOL}' dedup '${DATA}/pg_messages_zh.jsonl' --quiet --tsv --keep '${WORK}/kept.jsonl'")
  expect_file("${WORK}/kept.jsonl" "${precious}" "--keep after a failed write")
  expect_no_temporaries("${WORK}")
  # A directory that cannot take the temporary: refused, nothing created.
  file(MAKE_DIRECTORY "${WORK}/adir")
  run(1 fingerprint "${INPUTS}/good.jsonl" --out "${WORK}/adir")
  expect_match("${ERR}" "is a directory" "a directory as output")

else()
  message(FATAL_ERROR "unknown CASE ${CASE}")
endif()
