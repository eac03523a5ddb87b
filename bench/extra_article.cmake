# semfp_article_quality: article-text rules measured on the evaluation kit's web pages against
# their source texts (see the program's comment). Reads JSON Lines with nlohmann-json (Debian:
# nlohmann-json3-dev), a dependency of this program only.
find_package(nlohmann_json 3 CONFIG QUIET)
if(NOT nlohmann_json_FOUND)
  return()
endif()
add_executable(semfp_article_quality "${CMAKE_CURRENT_SOURCE_DIR}/article_quality.cpp")
target_link_libraries(semfp_article_quality PRIVATE semfp::semfp semfp_dev nlohmann_json::nlohmann_json)
target_include_directories(semfp_article_quality PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
