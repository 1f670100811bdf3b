# ffmpeg's libvmaf filter on the libvmaf compatibility library (run.sh: install, build Debian's
# ffmpeg 5.1 and trixie's 7.1 against it, the latter with libvmaf_cuda too, test the wrappers'
# invocations on each). Not in sanitizer builds (an installed sanitized library would need the
# sanitizer's runtime in ffmpeg).
if(NOT CMAKE_C_FLAGS MATCHES "fsanitize")
  add_test(NAME ffmpeg_libvmaf_filter
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/run.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR}
                   ${EV_SHARED_DIR} 5.1)
  add_test(NAME ffmpeg7_libvmaf_filter
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/run.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR}
                   ${EV_SHARED_DIR} 7.1)
  set_tests_properties(ffmpeg_libvmaf_filter ffmpeg7_libvmaf_filter PROPERTIES LABELS ffmpeg
                       SKIP_RETURN_CODE 77 TIMEOUT 1200)
endif()
