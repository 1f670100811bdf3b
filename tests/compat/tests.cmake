# libvmaf.so.3 (compat/libvmaf) through an installed prefix and pkg-config. Not in sanitizer
# builds, for the reason tests/install/tests.cmake gives.
if(NOT CMAKE_C_FLAGS MATCHES "fsanitize")
  add_test(NAME compat_libvmaf
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/compat_test.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR} ${EV_SHARED_DIR})
  set_tests_properties(compat_libvmaf PROPERTIES LABELS unit)
endif()
# The compat headers' struct layouts and enum values against Netflix's own headers (anchors).
add_test(NAME compat_abi COMMAND ${CMAKE_CURRENT_LIST_DIR}/abi_test.sh ${PROJECT_SOURCE_DIR} ${EV_SHARED_DIR})
set_tests_properties(compat_abi PROPERTIES LABELS unit SKIP_RETURN_CODE 77)
