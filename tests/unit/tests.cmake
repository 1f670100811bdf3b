# Unit tests (label unit): unit_NAME runs NAME_test.c; output and model also read the golden
# tables (tests/golden/golden_io.c), and unit_libm is libm_check.c.
foreach(name io core psnr_math moment motion_math ansnr_math ssim_math vif_math adm_math adm_rcp
        ssim_exact_sum twin_steps speed_math cambi_math cambi_twin ciede_math psnr_hvs_math multi
        glibc_log2 speed_twin float_twin_steps over_depth lend window)
  ev_add_test(unit_${name} SOURCES ${CMAKE_CURRENT_LIST_DIR}/${name}_test.c LABELS unit)
endforeach()
foreach(name output model)
  ev_add_test(unit_${name} SOURCES ${CMAKE_CURRENT_LIST_DIR}/${name}_test.c
              ${PROJECT_SOURCE_DIR}/tests/golden/golden_io.c LABELS unit)
endforeach()
ev_add_test(unit_libm SOURCES ${CMAKE_CURRENT_LIST_DIR}/libm_check.c LABELS unit)

# ADM's AVX2 int64 -> float (adm_float_avx2.h): the lanes file alone gets AVX2's flags.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64")
  set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/adm_float_lanes_avx2.c PROPERTIES
                              COMPILE_OPTIONS "${EV_FLAGS_AVX2}")
  ev_add_test(unit_adm_float_avx2 SOURCES ${CMAKE_CURRENT_LIST_DIR}/adm_float_avx2_test.c
              ${CMAKE_CURRENT_LIST_DIR}/adm_float_lanes_avx2.c LABELS unit)
endif()
