# ffmpeg's libvmaf filter on the libvmaf compatibility library (run.sh: install, build Debian's
# ffmpeg against it, test the wrappers' invocations). Not in sanitizer builds (an installed
# sanitized library would need the sanitizer's runtime in ffmpeg).
if(NOT CMAKE_C_FLAGS MATCHES "fsanitize")
  add_test(NAME ffmpeg_libvmaf_filter
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/run.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR}
                   ${EV_SHARED_DIR})
  set_tests_properties(ffmpeg_libvmaf_filter PROPERTIES LABELS ffmpeg SKIP_RETURN_CODE 77
                       TIMEOUT 1200)
endif()
