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
  expect_match("${content}" "^a\t[0-9a-f]+[^\n]*\nb\t" "replaced")
  execute_process(COMMAND stat -c %a "${WORK}/out.tsv" OUTPUT_VARIABLE mode OUTPUT_STRIP_TRAILING_WHITESPACE)
  expect_equal("${mode}" "640" "mode of a replaced file")
  file(WRITE "${WORK}/real.tsv" "${precious}")
  file(CREATE_LINK "real.tsv" "${WORK}/link.tsv" SYMBOLIC)
  run(0 fingerprint "${INPUTS}/good.jsonl" --out "${WORK}/link.tsv" --quiet)
  if(NOT IS_SYMLINK "${WORK}/link.tsv")
    message(FATAL_ERROR "the symbolic link was replaced by a file")
  endif()
  file(READ "${WORK}/real.tsv" content)
  expect_match("${content}" "^a\t[0-9a-f]+[^\n]*\n" "the link's target replaced")
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

elseif(CASE STREQUAL "safety_hostile_json")
  # Numbers that overflow, a 100,000-digit id and a NUL byte: each one bad line, reported with
  # file:line and skipped (fatal only under --strict); no message echoes the input.
  string(REPEAT "9" 100000 digits)
  file(WRITE "${WORK}/h.jsonl"
       "{\"id\":\"a\",\"text\":\"ok\",\"meta\":{\"score\":1e999}}\n{\"id\":${digits},\"text\":\"x\"}\n")
  # A NUL byte inside a line (CMake strings cannot hold one: written by the shell).
  execute_process(COMMAND /bin/sh -c "printf '{\"id\":\"e\",\"text\":\"ok\"}\\000 garbage\\n' >> '${WORK}/h.jsonl'")
  file(APPEND "${WORK}/h.jsonl" "{\"id\":\"g\",\"text\":\"good\"}\n")
  run(0 dedup "${WORK}/h.jsonl" --tsv --keep "${WORK}/kept.jsonl")
  expect_match("${ERR}" "h.jsonl:1: malformed JSON: [^\n]*number overflow" "1e999")
  expect_match("${ERR}" "h.jsonl:2: malformed JSON: [^\n]*\\.\\.\\. \\([0-9]+ bytes\\)" "long number cut")
  expect_match("${ERR}" "h.jsonl:3: NUL byte at byte 23" "NUL byte")
  expect_match("${ERR}" "3 bad input" "counted")
  string(LENGTH "${ERR}" err_len)
  if(err_len GREATER 4000)
    message(FATAL_ERROR "messages echo the input (${err_len} bytes on stderr)")
  endif()
  expect_equal("${OUT}" "g\t0\n" "only the good line")
  expect_file("${WORK}/kept.jsonl" "{\"id\":\"g\",\"text\":\"good\"}\n" "--keep holds the good line only")
  run(1 dedup "${WORK}/h.jsonl" --strict --quiet)
  expect_match("${ERR}" "h.jsonl:1: malformed JSON" "fatal under --strict")
  file(WRITE "${WORK}/nul.jsonl" "")
  execute_process(COMMAND /bin/sh -c "printf '{\"id\":\"e\",\"text\":\"ok\"}\\000 x\\n' > '${WORK}/nul.jsonl'")
  run(1 fingerprint "${WORK}/nul.jsonl" --strict)
  expect_match("${ERR}" "nul.jsonl:1: NUL byte" "NUL byte fatal under --strict")

elseif(CASE STREQUAL "safety_max_size")
  # Lines and files over --max-document-size are bad input with file:line; the rest is read.
  string(REPEAT "x" 2000 long)
  file(WRITE "${WORK}/l.txt" "short one\n${long}\nshort two\n")
  run(0 fingerprint "${WORK}/l.txt" --max-document-size 1k)
  expect_match("${ERR}" "l.txt:2: line longer than the maximum document size \\(1024 bytes" "long line")
  expect_match("${OUT}" "l.txt:1\t[0-9a-f]+[^\n]*\n[^\n]*l.txt:3\t" "the other lines")
  run(1 fingerprint "${WORK}/l.txt" --max-document-size 1024 --strict)
  run(0 fingerprint "${WORK}/l.txt" --quiet)
  count_lines(n "${OUT}")
  expect_equal(${n} 3 "default bound (256 MiB)")
  file(MAKE_DIRECTORY "${WORK}/dir")
  file(WRITE "${WORK}/dir/big.txt" "${long}")
  file(WRITE "${WORK}/dir/small.txt" "short")
  run(0 fingerprint "${WORK}/dir" --max-document-size 1K)
  expect_match("${ERR}" "big.txt: file larger than the maximum document size" "big file")
  expect_match("${OUT}" "^small.txt\t" "small file read")
  run(2 fingerprint "${WORK}/l.txt" --max-document-size lots)

elseif(CASE STREQUAL "safety_report_order")
  # The reader's own reports (an over-long line, a file it cannot open) and the parser's (bad
  # JSON) come out in input order, whatever the command, the thread count and the block size;
  # under --strict the first problem in input order is the one that stops the run.
  string(REPEAT "y" 300 long)
  set(good "{\"id\": \"g\", \"text\": \"fine\"}")
  file(WRITE "${WORK}/in.jsonl"
       "{\"id\": \"a\", \"text\": \"unterminated\n${long}\n${good}\n{\"id\": 1e999}\n${long}\n${good}\n{oops\n${long}\n")
  set(order "in.jsonl:1: [^\n]*\n[^\n]*in.jsonl:2: line longer[^\n]*\n[^\n]*in.jsonl:4: [^\n]*\n[^\n]*in.jsonl:5: line longer[^\n]*\n[^\n]*in.jsonl:7: [^\n]*\n[^\n]*in.jsonl:8: line longer")
  foreach(threads 1 2)
    run(0 dedup "${WORK}/in.jsonl" --max-document-size 200 --threads ${threads} --out "${WORK}/out.jsonl")
    expect_match("${ERR}" "${order}" "dedup --threads ${threads}: reports in line order")
    run(0 fingerprint "${WORK}/in.jsonl" --max-document-size 200 --threads ${threads})
    expect_match("${ERR}" "${order}" "fingerprint --threads ${threads}: reports in line order")
  endforeach()
  run(0 dedup "${WORK}/in.jsonl" --max-document-size 200 --method minhash --out "${WORK}/out.jsonl")
  expect_match("${ERR}" "${order}" "dedup --method minhash: reports in line order")
  # An unopenable file between two readable ones is reported between their problems.
  file(WRITE "${WORK}/b.jsonl" "{bad\n${good}\n")
  run(0 fingerprint "${WORK}/in.jsonl" "${WORK}/missing.jsonl" "${WORK}/b.jsonl" --max-document-size 200)
  expect_match("${ERR}" "in.jsonl:8: line longer[^\n]*\n[^\n]*missing.jsonl: cannot open[^\n]*\n[^\n]*b.jsonl:1: "
               "a missing file in input order")
  # --strict: the first problem by line wins, reader's or parser's.
  foreach(cmd dedup fingerprint)
    run(1 ${cmd} "${WORK}/in.jsonl" --max-document-size 200 --strict)
    expect_match("${ERR}" "in.jsonl:1: " "${cmd} --strict: line 1 first")
    expect_no_match("${ERR}" "in.jsonl:2" "${cmd} --strict: nothing after line 1")
  endforeach()
  file(WRITE "${WORK}/first_long.jsonl" "${long}\n{oops\n")
  run(1 dedup "${WORK}/first_long.jsonl" --max-document-size 200 --strict)
  expect_match("${ERR}" "first_long.jsonl:1: line longer" "--strict: an over-long line 1 first")
  expect_no_match("${ERR}" "first_long.jsonl:2" "--strict: nothing after the over-long line")

elseif(CASE STREQUAL "safety_threads")
  # Thread creation failing must not hang or crash: the pool runs on the threads it got. The
  # SEMFP_THREAD_LIMIT hook makes std::thread creation fail (root ignores ulimit -u).
  run(0 dedup "${DATA}/pg_messages_zh.jsonl" --tsv --threads 1 --quiet)
  set(one "${OUT}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env SEMFP_THREAD_LIMIT=2 "${TOOL}" dedup
                          "${DATA}/pg_messages_zh.jsonl" --tsv --threads 64 --quiet
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
  expect_equal("${rc}" 0 "exit status with 2 of 64 threads")
  expect_match("${err}" "could start only 2 of 64 threads" "fallback reported")
  expect_equal("${out}" "${one}" "same output on fewer threads")
  execute_process(COMMAND id -u OUTPUT_VARIABLE uid OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT uid STREQUAL "0")
    # The real limit: no new process or thread for this user.
    run_sh(0 "ulimit -u 1 && exec '${TOOL}' dedup '${DATA}/pg_messages_zh.jsonl' --tsv --threads 8 --quiet")
    expect_equal("${OUT}" "${one}" "same output under ulimit -u 1")
  else()
    message(STATUS "running as root: ulimit -u does not apply; thread failure tested through SEMFP_THREAD_LIMIT")
  endif()

elseif(CASE STREQUAL "safety_unreadable_dir")
  # Unreadable directories and entries are bad input (reported; fatal under --strict).
  file(MAKE_DIRECTORY "${WORK}/in/sub")
  file(WRITE "${WORK}/in/a.txt" "近年来，大量网页被不同的网站反复转载。")
  file(WRITE "${WORK}/in/sub/b.txt" "今天下午到夜间，本市大部分地区将出现五到六级的偏北风。")
  # A link whose target is gone, named like a document.
  file(CREATE_LINK "${WORK}/missing.txt" "${WORK}/in/gone.txt" SYMBOLIC)
  run(0 dedup "${WORK}/in" --tsv)
  expect_match("${ERR}" "gone.txt: cannot read" "dangling link reported")
  expect_match("${OUT}" "a.txt\t0\nsub/b.txt\t1\n" "the rest is read")
  run(1 dedup "${WORK}/in" --tsv --strict)
  file(REMOVE "${WORK}/in/gone.txt")
  execute_process(COMMAND id -u OUTPUT_VARIABLE uid OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT uid STREQUAL "0")
    file(CHMOD "${WORK}/in/sub" PERMISSIONS OWNER_WRITE)
    run(0 dedup "${WORK}/in" --tsv)
    file(CHMOD "${WORK}/in/sub" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
    expect_match("${ERR}" "in/sub: cannot read directory" "unreadable directory reported")
    expect_equal("${OUT}" "a.txt\t0\n" "the readable part")
  else()
    message(STATUS "running as root: permissions do not block reads; a directory that cannot be opened "
                   "is made from a path longer than PATH_MAX instead")
  endif()
  # A directory that cannot be opened for any user: its path is longer than PATH_MAX (built with
  # relative mkdir/cd steps, which have no such limit).
  set(deep "${WORK}_deep")
  execute_process(COMMAND rm -rf "${deep}")
  file(MAKE_DIRECTORY "${deep}")
  file(WRITE "${deep}/top.txt" "近年来，大量网页被不同的网站反复转载。")
  execute_process(COMMAND /bin/sh -c
    "cd '${deep}' && for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25; do d=$(printf '%0200d' $i); mkdir $d && cd -P $d || exit 1; done; echo 深 > deep.txt"
    RESULT_VARIABLE rc)
  expect_equal("${rc}" 0 "building the deep tree")
  run(0 dedup "${deep}" --tsv)
  expect_match("${ERR}" "cannot read[^\n]*: File name too long" "directory that cannot be opened reported")
  expect_match("${OUT}" "^top.txt\t0\n$" "the readable part")
  run(1 dedup "${deep}" --tsv --strict)
  expect_match("${ERR}" "cannot read" "fatal under --strict")
  execute_process(COMMAND rm -rf "${deep}")

elseif(CASE STREQUAL "safety_compare_limit")
  # compare bounds its operands (memory ~134 bytes per byte, time up to quadratic).
  string(REPEAT "近年来，大量网页被不同的网站反复转载。" 100 big)
  run(1 compare --text "${big}" "近年来" --max-size 1k)
  expect_match("${ERR}" "the text operand is larger than 1024 bytes[^\n]*--max-size" "text operand")
  file(WRITE "${WORK}/a.txt" "${big}")
  run(1 compare "${WORK}/a.txt" "${WORK}/a.txt" --max-size 1000)
  expect_match("${ERR}" "a.txt is larger than 1000 bytes" "file operand")
  run(0 compare "${WORK}/a.txt" "${WORK}/a.txt")
  expect_match("${OUT}" "Hamming distance 0 " "default bound takes it")

else()
  message(FATAL_ERROR "unknown CASE ${CASE}")
endif()
