# The layout of every tracked C, C++ and CUDA file is .clang-format's (scripts/format.sh --check;
# skipped without clang-format 14 or outside a git checkout).
find_program(EV_GIT git)
if(EV_GIT AND EXISTS ${PROJECT_SOURCE_DIR}/.git)
  add_test(NAME format COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/format.sh --check)
  set_tests_properties(format PROPERTIES LABELS unit SKIP_RETURN_CODE 77)
endif()
