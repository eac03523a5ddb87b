# `semfp dedup` over several blocks (more than one batch of 2,048 documents) gives the same
# clusters, the same kept documents and the same warnings, in the same order, with 1, 2 and 3
# threads: the clusterer consumes the blocks in input order while the workers fingerprint ahead,
# and every warning, the reader's own (an over-long line) and the parser's alike, comes out in
# line order although the reader is blocks ahead.
# cmake -DTOOL=<semfp> -DWORK=<dir> -P pipeline_order.cmake
cmake_minimum_required(VERSION 3.21)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

set(texts
  "近年来，大量网页被不同的网站反复转载，搜索引擎需要识别内容几乎相同的文档。"
  "今天下午到夜间，本市大部分地区将出现五到六级的偏北风。"
  "近年來，大量網頁被不同的網站反覆轉載，搜尋引擎需要識別內容幾乎相同的文件。"
  "股市今日小幅上涨，成交量较昨日有所放大，科技板块领涨。")
set(input "")
set(long_text "")
foreach(i RANGE 300)
  string(APPEND long_text "很长的一行")
endforeach()
foreach(i RANGE 1 5200)
  math(EXPR k "${i} % 4")
  list(GET texts ${k} t)
  math(EXPR variant "${i} % 97")
  if(i EQUAL 100 OR i EQUAL 2100 OR i EQUAL 4090 OR i EQUAL 5150)
    string(APPEND input "{\"id\": \"bad-${i}\", \"text\": \"unterminated\n")
  elseif(i EQUAL 2500 OR i EQUAL 4500)
    string(APPEND input "{\"id\": \"long-${i}\", \"text\": \"${long_text}\"}\n")
  elseif(i EQUAL 3000)
    string(APPEND input "{\"id\": \"no-text-${i}\"}\n")
  elseif(k EQUAL 3 AND variant LESS 10)
    string(APPEND input "{\"id\": \"p${i}\", \"format\": \"html\", \"text\": \"<p>${t}第${variant}段</p>\"}\n")
  else()
    string(APPEND input "{\"id\": \"d${i}\", \"text\": \"${t}（${variant}）\"}\n")
  endif()
endforeach()
file(WRITE "${WORK}/in.jsonl" "${input}")

set(first_out "")
foreach(threads 1 2 3)
  execute_process(COMMAND "${TOOL}" dedup "${WORK}/in.jsonl" --threads ${threads} --quiet --max-document-size 1000
                          --out "${WORK}/out${threads}.jsonl" --keep "${WORK}/keep${threads}.jsonl"
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "--threads ${threads}: exit status ${rc}\n${err}")
  endif()
  file(READ "${WORK}/out${threads}.jsonl" out)
  file(READ "${WORK}/keep${threads}.jsonl" keep)
  if(threads EQUAL 1)
    set(first_out "${out}")
    set(first_keep "${keep}")
    set(first_err "${err}")
    string(REGEX MATCHALL "in.jsonl:[0-9]+" places "${err}")
    string(REPLACE ";" " " places "${places}")
    set(expected "in.jsonl:100 in.jsonl:2100 in.jsonl:2500 in.jsonl:3000 in.jsonl:4090 in.jsonl:4500 in.jsonl:5150")
    if(NOT places STREQUAL expected)
      message(FATAL_ERROR "warnings: ${places}\nexpected: ${expected}\n${err}")
    endif()
    string(REGEX MATCHALL "\n" lines "${out}")
    list(LENGTH lines n)
    if(NOT n EQUAL 5193)
      message(FATAL_ERROR "expected 5193 clustered documents, got ${n}")
    endif()
  else()
    foreach(what out keep err)
      if(NOT "${${what}}" STREQUAL "${first_${what}}")
        message(FATAL_ERROR "--threads ${threads}: ${what} differs from --threads 1")
      endif()
    endforeach()
  endif()
endforeach()
