# ssimulacra2 against libjxl 0.11's ssimulacra2 tool, scalar build (docs/SSIMULACRA2.md).
# ssimulacra2_golden: every golden score by its bits, at 1 and 2 threads, and at each dispatch
# level (--cpumask 32, 48, 56 as tests/golden; the extractor has only C kernels today, so these
# check that the levels change nothing). ssimulacra2_reference: the goldens against the reference
# build (label reference; skips without it); `ssimulacra2_reference_test.sh ... --regen`
# rewrites them.
set(EV_SSIMULACRA2_REFERENCE "${PROJECT_BINARY_DIR}/ssimulacra2_reference" CACHE PATH
    "where scripts/ssimulacra2_reference.sh built libjxl's ssimulacra2 (its DEST)")

add_executable(ssimulacra2_golden ${CMAKE_CURRENT_LIST_DIR}/ssimulacra2_golden.c
                                  ${PROJECT_SOURCE_DIR}/tests/golden/golden_io.c)
target_include_directories(ssimulacra2_golden PRIVATE ${PROJECT_SOURCE_DIR}/src
                                                      ${PROJECT_SOURCE_DIR}/tests)
target_link_libraries(ssimulacra2_golden PRIVATE exactvmaf)
target_compile_definitions(ssimulacra2_golden PRIVATE _POSIX_C_SOURCE=200809L
  EV_SHARED_DIR="${EV_SHARED_DIR}" EV_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
ev_exact_flags(ssimulacra2_golden)
ev_warnings(ssimulacra2_golden)

foreach(threads 1 2)
  add_test(NAME golden_ssimulacra2_t${threads} COMMAND ssimulacra2_golden --threads ${threads})
  set_tests_properties(golden_ssimulacra2_t${threads} PROPERTIES LABELS golden
                       SKIP_RETURN_CODE 77 TIMEOUT 600)
endforeach()
foreach(level avx512:32 avx2:48 c:56)
  string(REPLACE ":" ";" lm ${level})
  list(GET lm 0 lname)
  list(GET lm 1 mask)
  add_test(NAME golden_ssimulacra2_${lname}
           COMMAND ssimulacra2_golden --threads 2 --cpumask ${mask})
  set_tests_properties(golden_ssimulacra2_${lname} PROPERTIES LABELS golden
                       SKIP_RETURN_CODE 77 TIMEOUT 600)
endforeach()

add_test(NAME ssimulacra2_reference
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/ssimulacra2_reference_test.sh
                 $<TARGET_FILE:ssimulacra2_golden> ${PROJECT_SOURCE_DIR} ${EV_SSIMULACRA2_REFERENCE})
set_tests_properties(ssimulacra2_reference PROPERTIES LABELS reference SKIP_RETURN_CODE 77
                     TIMEOUT 1200)

ev_add_test(unit_ssimulacra2 SOURCES ${CMAKE_CURRENT_LIST_DIR}/ssimulacra2_unit_test.c LABELS unit)
# every row kernel of every level against C (checkasm's rules), and a planted bit that must fail
ev_add_test(unit_ssimulacra2_kernels SOURCES ${CMAKE_CURRENT_LIST_DIR}/ssimulacra2_kernels_test.c
            LABELS unit)
add_test(NAME unit_ssimulacra2_kernels_planted
         COMMAND bash -c "! \"$0\" --plant >/dev/null" $<TARGET_FILE:unit_ssimulacra2_kernels>)
set_tests_properties(unit_ssimulacra2_kernels_planted PROPERTIES LABELS unit)
# The CUDA twin's steps on the host (ssimulacra2_steps.h, as ssimulacra2.cu runs them) against
# the C, bit for bit: what checks the twin without a GPU.
ev_add_test(unit_ssimulacra2_twin_steps
            SOURCES ${CMAKE_CURRENT_LIST_DIR}/ssimulacra2_twin_steps_test.c LABELS unit)
target_link_libraries(unit_ssimulacra2_twin_steps PRIVATE m)

# The CUDA twin against the same goldens (label gpu: skips without a device).
foreach(threads 1 4)
  add_test(NAME gpu_ssimulacra2_golden_t${threads}
           COMMAND ssimulacra2_golden --cuda --threads ${threads})
  set_tests_properties(gpu_ssimulacra2_golden_t${threads} PROPERTIES LABELS gpu
                       SKIP_RETURN_CODE 77 TIMEOUT 600)
endforeach()
