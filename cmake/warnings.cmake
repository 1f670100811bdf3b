# Warnings and the exactness flags, from one place.
function(ev_warnings target)
  if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wshadow -Wstrict-prototypes -Wno-unused-parameter>)
  endif()
endfunction()

# Bit-exactness: no FP contraction, no fast math; SSE2 math on x86-64 (the default there).
function(ev_exact_flags target)
  if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:C>:-ffp-contract=off -fno-fast-math>)
  endif()
endfunction()
