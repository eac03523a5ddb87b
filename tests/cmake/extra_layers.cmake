# The include layers (detail <- text <- core <- the rest) are checked by a script.
add_test(NAME semfp.include_layers
         COMMAND "${CMAKE_COMMAND}" -DINCLUDE_DIR=${PROJECT_SOURCE_DIR}/include/semfp
                 -P "${CMAKE_CURRENT_SOURCE_DIR}/cmake/check_layers.cmake")
