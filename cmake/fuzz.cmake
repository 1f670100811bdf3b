# EV_FUZZ: every target (the library included) is built with libFuzzer's coverage and
# AddressSanitizer + UndefinedBehaviorSanitizer, and tests/fuzz adds the harnesses, linked
# with libFuzzer's main. Off by default: scripts/fuzz.sh configures such a build (clang).
if(EV_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "EV_FUZZ needs clang (libFuzzer): configure with CC=clang")
  endif()
  if(NOT EXACTVMAF_CUDA STREQUAL "OFF")
    message(FATAL_ERROR "EV_FUZZ builds the CPU library only: add -DEXACTVMAF_CUDA=OFF")
  endif()
  set(EV_FUZZ_SANITIZERS "address,undefined")
  add_compile_options(-g -O1 -fno-omit-frame-pointer
    -fsanitize=fuzzer-no-link,${EV_FUZZ_SANITIZERS} -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${EV_FUZZ_SANITIZERS})
endif()
