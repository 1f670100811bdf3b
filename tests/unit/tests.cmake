# Unit tests (label unit): one ev_add_test line per test.
ev_add_test(unit_output SOURCES ${CMAKE_CURRENT_LIST_DIR}/output_test.c ${PROJECT_SOURCE_DIR}/tests/golden/golden_io.c LABELS unit)
ev_add_test(unit_io SOURCES ${CMAKE_CURRENT_LIST_DIR}/io_test.c LABELS unit)
ev_add_test(unit_core SOURCES ${CMAKE_CURRENT_LIST_DIR}/core_test.c LABELS unit)
ev_add_test(unit_psnr_math SOURCES ${CMAKE_CURRENT_LIST_DIR}/psnr_math_test.c LABELS unit)
ev_add_test(unit_moment SOURCES ${CMAKE_CURRENT_LIST_DIR}/moment_test.c LABELS unit)
