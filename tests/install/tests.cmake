# The installed library, used only through what cmake --install puts in a prefix (pkg-config,
# find_package, the static and shared libraries). Not in sanitizer builds: the installed
# library would need the sanitizer's runtime in every program built against it.
if(NOT CMAKE_C_FLAGS MATCHES "fsanitize")
  add_test(NAME install_prefix
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/install_test.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
  set_tests_properties(install_prefix PROPERTIES LABELS unit)
endif()
