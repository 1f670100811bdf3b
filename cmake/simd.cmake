# Per-ISA kernel files (src/features/<f>/<f>_avx2.c, _avx512.c, _avx512icl.c) get their ISA's
# target flags and nothing else; kernels are chosen at run time (base/cpu.h), so the rest of the
# library stays baseline x86-64. No -mfma: a kernel never fuses a multiply-add the reference
# doesn't (and -ffp-contract=off forbids the compiler to). Off x86-64 the files are left out.
set(EV_FLAGS_AVX2 -mavx2 -mbmi -mbmi2 -mlzcnt -mpopcnt)
set(EV_FLAGS_AVX512 ${EV_FLAGS_AVX2} -mavx512f -mavx512cd -mavx512bw -mavx512dq -mavx512vl)
set(EV_FLAGS_AVX512ICL ${EV_FLAGS_AVX512} -mavx512vnni -mavx512ifma -mavx512vbmi -mavx512vbmi2
    -mavx512bitalg -mavx512vpopcntdq -mgfni -mvaes -mvpclmulqdq)

# ev_simd_sources(LIST): set the flags of the ISA files in LIST (or drop them off x86-64).
function(ev_simd_sources list_var)
  set(sources ${${list_var}})
  if(NOT CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64")
    list(FILTER sources EXCLUDE REGEX "_(avx2|avx512|avx512icl)\\.c$")
    set(${list_var} ${sources} PARENT_SCOPE)
    return()
  endif()
  foreach(src ${sources})
    if(src MATCHES "_avx512icl\\.c$")
      set_source_files_properties(${src} PROPERTIES COMPILE_OPTIONS "${EV_FLAGS_AVX512ICL}")
    elseif(src MATCHES "_avx512\\.c$")
      set_source_files_properties(${src} PROPERTIES COMPILE_OPTIONS "${EV_FLAGS_AVX512}")
    elseif(src MATCHES "_avx2\\.c$")
      set_source_files_properties(${src} PROPERTIES COMPILE_OPTIONS "${EV_FLAGS_AVX2}")
    endif()
  endforeach()
endfunction()
