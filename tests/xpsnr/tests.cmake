# xpsnr against ffmpeg 7.1's xpsnr filter (docs/XPSNR.md). xpsnr_golden: every golden value by
# its bits, at 1 and 2 threads with the best kernels, and at each lower dispatch level (--cpumask
# 32, 48, 56 as tests/golden). xpsnr_reference: the goldens against the reference build (label
# reference; skips without it); `xpsnr_reference_test.sh ... --regen` rewrites them.
set(EV_XPSNR_REFERENCE "${PROJECT_BINARY_DIR}/xpsnr_reference" CACHE PATH
    "where scripts/xpsnr_reference.sh built ffmpeg's xpsnr (its DEST)")

add_executable(xpsnr_golden ${CMAKE_CURRENT_LIST_DIR}/xpsnr_golden.c
                            ${PROJECT_SOURCE_DIR}/tests/golden/golden_io.c)
target_include_directories(xpsnr_golden PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests)
target_link_libraries(xpsnr_golden PRIVATE exactvmaf)
target_compile_definitions(xpsnr_golden PRIVATE _POSIX_C_SOURCE=200809L
  EV_SHARED_DIR="${EV_SHARED_DIR}" EV_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
ev_exact_flags(xpsnr_golden)
ev_warnings(xpsnr_golden)

foreach(threads 1 2)
  add_test(NAME golden_xpsnr_t${threads} COMMAND xpsnr_golden --threads ${threads})
  set_tests_properties(golden_xpsnr_t${threads} PROPERTIES LABELS golden SKIP_RETURN_CODE 77)
endforeach()
foreach(level avx512:32 avx2:48 c:56)
  string(REPLACE ":" ";" lm ${level})
  list(GET lm 0 lname)
  list(GET lm 1 mask)
  add_test(NAME golden_xpsnr_${lname} COMMAND xpsnr_golden --threads 2 --cpumask ${mask})
  set_tests_properties(golden_xpsnr_${lname} PROPERTIES LABELS golden SKIP_RETURN_CODE 77)
endforeach()

# The CUDA twin against the same goldens (label gpu: skips without a device).
foreach(threads 1 4)
  add_test(NAME gpu_xpsnr_golden_t${threads} COMMAND xpsnr_golden --cuda --threads ${threads})
  set_tests_properties(gpu_xpsnr_golden_t${threads} PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)
endforeach()

add_test(NAME xpsnr_reference
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/xpsnr_reference_test.sh $<TARGET_FILE:xpsnr_golden>
                 ${PROJECT_SOURCE_DIR} ${EV_XPSNR_REFERENCE})
set_tests_properties(xpsnr_reference PROPERTIES LABELS reference SKIP_RETURN_CODE 77 TIMEOUT 600)

ev_add_test(unit_xpsnr SOURCES ${CMAKE_CURRENT_LIST_DIR}/xpsnr_unit_test.c LABELS unit)
ev_add_test(unit_xpsnr_twin_steps SOURCES ${CMAKE_CURRENT_LIST_DIR}/xpsnr_twin_steps_test.c
            LABELS unit)
