# `semfp dedup` over documents of very different sizes (120 bytes to 370 KB, about 14 MB in all)
# gives the same output and kept documents with 1, 2 and 4 threads. The blocks end at a byte
# budget here (not at a document count, as in pipeline_order.cmake), there are more of them than
# the ring holds at 4 threads, and the reader's reused buffers are grown and given back as long
# and short lines follow each other. Checked for the default two-stage run and --verify none:
# every document comes out once, in input order, and identical texts share a cluster.
# cmake -DTOOL=<semfp> -DWORK=<dir> [-DTHREADS=1,4] -P pipeline_blocks.cmake
# (THREADS: the thread counts compared, comma-separated, 1 first; default 1,2,4.)
cmake_minimum_required(VERSION 3.21)
if(NOT DEFINED THREADS)
  set(THREADS 1,2,4)
endif()
string(REPLACE "," ";" THREADS "${THREADS}")
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

# Twelve unrelated "sentences" of 40 characters, each drawn from a pool of 40 in its own order,
# so that the documents fall into many clusters.
set(pool 天 地 玄 黄 宇 宙 洪 荒 日 月 盈 昃 辰 宿 列 张 寒 来 暑 往 秋 收 冬 藏 闰 余 成 岁 律 吕 调 阳 云 腾 致 雨 露 结 为 霜)
set(sentences)
foreach(k RANGE 11)
  set(s "")
  foreach(j RANGE 39)
    math(EXPR at "(${j} * ${j} * (${k} + 3) + ${j} * (2 * ${k} + 1) + ${k} * 11) % 40")
    list(GET pool ${at} c)
    string(APPEND s "${c}")
  endforeach()
  list(APPEND sentences "${s}。")
endforeach()
# Repetitions of a sentence (123 bytes each): from one line of 120 bytes to 370 KB.
set(sizes 1 25 170 750 3000)
set(docs 150)
set(input "")
set(expected_ids "")
math(EXPR last "${docs} - 1")
foreach(i RANGE ${last})
  # A scrambled size order (120 bytes, 90 KB, 3 KB, 370 KB, 20 KB, ...), so each reused
  # document buffer sees longer and shorter lines.
  math(EXPR size_class "(${i} * 3) % 5")
  math(EXPR k "${i} % 12")
  math(EXPR variant "${i} % 2")
  list(GET sizes ${size_class} n)
  list(GET sentences ${k} s)
  string(REPEAT "${s}" ${n} body)
  # Documents with the same (size, sentence, variant) have the same text.
  string(APPEND input "{\"id\": \"d${i}-${size_class}${k}${variant}\", \"text\": \"${body}第${variant}号。\"}\n")
  string(APPEND expected_ids "d${i}-${size_class}${k}${variant}\n")
endforeach()
file(WRITE "${WORK}/in.jsonl" "${input}")
file(SIZE "${WORK}/in.jsonl" bytes)
if(bytes LESS 10000000)
  message(FATAL_ERROR "input of ${bytes} bytes: too small to fill more blocks than the ring holds")
endif()

foreach(mode default plain)
  set(opts)
  if(mode STREQUAL "plain")
    set(opts --verify none)
  endif()
  foreach(threads IN LISTS THREADS)
    execute_process(COMMAND "${TOOL}" dedup "${WORK}/in.jsonl" --threads ${threads} --quiet --tsv ${opts}
                            --out "${WORK}/${mode}${threads}.tsv" --keep "${WORK}/${mode}_keep${threads}.jsonl"
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
      message(FATAL_ERROR "${mode} --threads ${threads}: exit status ${rc}\n${err}")
    endif()
    file(READ "${WORK}/${mode}${threads}.tsv" out)
    file(READ "${WORK}/${mode}_keep${threads}.jsonl" keep)
    if(threads EQUAL 1)
      # Every document once, in input order.
      string(REGEX REPLACE "\t[0-9]+\n" "\n" ids "${out}")
      if(NOT ids STREQUAL expected_ids)
        message(FATAL_ERROR "${mode}: the output does not list the ${docs} documents in input order")
      endif()
      # Identical texts share a cluster: d{i} and d{i+60} have the same size class, sentence and
      # variant (60 is a multiple of 12 and 5).
      foreach(i 0 7 13 29 41 58 64 88)
        math(EXPR j "${i} + 60")
        string(REGEX MATCH "\nd${i}-[0-9]+\t([0-9]+)\n" m "\n${out}")
        set(ci "${CMAKE_MATCH_1}")
        string(REGEX MATCH "\nd${j}-[0-9]+\t([0-9]+)\n" m "\n${out}")
        if(ci STREQUAL "" OR NOT ci STREQUAL CMAKE_MATCH_1)
          message(FATAL_ERROR "${mode}: d${i} (cluster '${ci}') and d${j} (cluster '${CMAKE_MATCH_1}') have the same text")
        endif()
      endforeach()
      set(first_out "${out}")
      set(first_keep "${keep}")
    else()
      if(NOT out STREQUAL first_out)
        message(FATAL_ERROR "${mode} --threads ${threads}: output differs from --threads 1")
      endif()
      if(NOT keep STREQUAL first_keep)
        message(FATAL_ERROR "${mode} --threads ${threads}: kept documents differ from --threads 1")
      endif()
    endif()
  endforeach()
endforeach()
