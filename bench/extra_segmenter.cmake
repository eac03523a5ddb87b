# Agreement of FmmSegmenter with jieba (token F1); not a Google Benchmark program.
#   semfp_segmenter_agreement ../shared/corpus/manpages_zh_cn.jsonl
add_executable(semfp_segmenter_agreement "${CMAKE_CURRENT_SOURCE_DIR}/segmenter_agreement.cpp")
target_link_libraries(semfp_segmenter_agreement PRIVATE semfp::semfp semfp_dev)
