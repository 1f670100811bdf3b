# Warnings and the exactness flags, from one place.

# EV_WERROR: every warning is an error in the project's own targets (those that call
# ev_warnings: the library, the CLI, the parity tool, the libvmaf compat library, the tests,
# the benchmarks, the fuzz harnesses), C only (nvcc's warnings stay warnings). Off by default,
# so that a newer compiler's new warning does not break a user's build; scripts/werror.sh
# builds with it, with gcc and with clang, in CI.
option(EV_WERROR "Warnings are errors in the project's own C targets (scripts/werror.sh)" OFF)

# The project's C warnings (tests/headers compiles every header alone with these too).
set(EV_WARNING_FLAGS -Wall -Wextra -Wshadow -Wstrict-prototypes -Wno-unused-parameter)

function(ev_warnings target)
  if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
    set(flags ${EV_WARNING_FLAGS})
    if(EV_WERROR)
      list(APPEND flags -Werror)
    endif()
    target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:C>:${flags}>")
  endif()
endfunction()

# Bit-exactness: no FP contraction, no fast math; SSE2 math on x86-64 (the default there).
function(ev_exact_flags target)
  if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:C>:-ffp-contract=off -fno-fast-math>)
  endif()
endfunction()
