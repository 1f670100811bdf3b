# Golden tests: every value bit for bit against Netflix libvmaf (shared/golden), 1 and 2 threads
# with the best kernels the CPU has, and at 2 threads with each lower dispatch level (--cpumask
# 32: AVX-512 without the Ice Lake additions, 48: AVX2, 56: the C reference). A level the CPU
# lacks runs the best one below it.
set(EV_GOLDEN_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/golden_test.c
  ${CMAKE_CURRENT_LIST_DIR}/golden_io.c
  ${CMAKE_CURRENT_LIST_DIR}/golden_run.c)

# ev_add_golden(NAME pattern...): one ctest per thread count and per lower dispatch level.
function(ev_add_golden name)
  foreach(threads 1 2)
    add_test(NAME golden_${name}_t${threads}
             COMMAND golden_test --threads ${threads} ${ARGN})
    set_tests_properties(golden_${name}_t${threads} PROPERTIES LABELS golden SKIP_RETURN_CODE 77)
  endforeach()
  foreach(level avx512:32 avx2:48 c:56)
    string(REPLACE ":" ";" lm ${level})
    list(GET lm 0 lname)
    list(GET lm 1 mask)
    add_test(NAME golden_${name}_${lname}
             COMMAND golden_test --threads 2 --cpumask ${mask} ${ARGN})
    set_tests_properties(golden_${name}_${lname} PROPERTIES LABELS golden SKIP_RETURN_CODE 77)
  endforeach()
endfunction()

add_executable(golden_test ${EV_GOLDEN_SOURCES})
target_include_directories(golden_test PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests)
target_link_libraries(golden_test PRIVATE exactvmaf)
target_compile_definitions(golden_test PRIVATE _POSIX_C_SOURCE=200809L EV_SHARED_DIR="${EV_SHARED_DIR}")
ev_exact_flags(golden_test)
ev_warnings(golden_test)

ev_add_golden(moment_psnr float_moment "psnr*" float_psnr)
ev_add_golden(ssim "float_ssim*" "float_ms_ssim*")
ev_add_golden(vif "vif*" "float_vif*")
ev_add_golden(motion "motion*" float_motion float_ansnr)
ev_add_golden(models "model_vmaf_v0.6.1*" "model_vmaf_4k*" "model_vmaf_float*" "model_vmaf_b*")
ev_add_golden(adm "adm*" "float_adm*")
ev_add_golden(speed speed_chroma speed_temporal)
ev_add_golden(cambi cambi)
ev_add_golden(models_v1 "model_vmaf_v1*")
ev_add_golden(ciede_hvs ciede xiph_psnr_hvs)
