# Every header compiles alone (label unit): for each .h of the public trees (include/,
# compat/libvmaf/include/) and the internal ones (src/, compat/libvmaf/src/), globbed at
# configure time, a generated .c that includes only that header, compiled as C11 with the
# project's warnings (ev_warnings) and exactness flags plus -Werror: a header that warns when
# alone warns in every file that includes it first. Public headers are compiled as a user
# sees them: only their include root on the path (no src/), no _POSIX_C_SOURCE, -Wpedantic;
# internal ones with the library's settings (include/, src/, compat/libvmaf/include/,
# _POSIX_C_SOURCE=200809L). Two object libraries outside `all` (ev_headers_public,
# ev_headers_internal) under one target, ev_headers_alone, which the ctest headers_alone
# builds, every failing header reported (the build keeps going); scripts/werror.sh builds it
# with gcc and with clang.
# headers_alone_cxx compiles each public header alone as C++ (-std=c++11 and the compiler's
# default) with -fsyntax-only, when a C++ compiler is found (EV_HEADERS_CXX); else it skips.
# CUDA-only headers are .cuh and outside the glob; src/cuda/*.h are C views and compile alone.

# Not compiled alone, by file name (so that a move between folders keeps the rule). Keep this
# short: each is a template (or a helper) of ISA intrinsics that its includers compile with
# that ISA's target flags (cmake/simd.cmake), a template after defining the macros that select
# the variant; alone, at the baseline ISA, the intrinsics cannot be inlined. A header that merely compiles alone
# does not belong here (float_vif_rows_tmpl.h does, and is checked).
set(EV_HEADERS_NOT_ALONE
  adm_simd_tmpl.h     # AVX2 or AVX-512 by ADM_W, VNNI by ADM_ICL: adm_avx2.c, adm_avx512*.c
  adm_float_avx2.h    # AVX2 only: adm_simd_tmpl.h at ADM_W 256, tests/unit/adm_float_lanes_avx2.c
  motion_simd_tmpl.h  # AVX2 or AVX-512 by MOTION_W: motion_avx2.c, motion_avx512.c
  psnr_simd_tmpl.h    # AVX2 or AVX-512 BW by PSNR_W: psnr_avx2.c, psnr_avx512.c
  speed_simd_tmpl.h   # AVX2 or AVX-512 F by SPEED_W: speed_avx2.c, speed_avx512.c
  ssim_simd_tmpl.h    # AVX2 or AVX-512 by SSIM_W: ssim_avx2.c, ssim_avx512.c
  vif_simd_tmpl.h     # AVX2 or AVX-512 by VIF_W, VNNI by VIF_VNNI: vif_avx2.c, vif_avx512*.c
)

set(ev_hdr_gen ${CMAKE_CURRENT_BINARY_DIR}/headers_alone)
set(ev_hdr_public_roots ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/compat/libvmaf/include)
set(ev_hdr_internal_roots ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/compat/libvmaf/src)

# ev_headers_sources(OUT roots public): write one .c per header under roots; OUT gets the .c
# files. Public headers are included as users include them (<exactvmaf/video.h>), internal
# ones by absolute path (their own "" includes resolve as in the library).
function(ev_headers_sources out roots public)
  set(sources)
  foreach(root ${roots})
    file(GLOB_RECURSE headers CONFIGURE_DEPENDS ${root}/*.h)
    foreach(h ${headers})
      get_filename_component(name ${h} NAME)
      if(name IN_LIST EV_HEADERS_NOT_ALONE)
        set_property(GLOBAL APPEND PROPERTY EV_HEADERS_EXCLUDED ${name})
        continue()
      endif()
      file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${h})
      string(MAKE_C_IDENTIFIER ${rel} id)
      if(public)
        file(RELATIVE_PATH inc ${root} ${h})
        set(line "#include <${inc}>")
      else()
        set(line "#include \"${h}\"")
      endif()
      set(c ${ev_hdr_gen}/${id}.c)
      file(CONFIGURE OUTPUT ${c}
           CONTENT "/* ${rel} alone (tests/headers/tests.cmake) */\n${line}\n" @ONLY)
      list(APPEND sources ${c})
    endforeach()
  endforeach()
  set(${out} ${sources} PARENT_SCOPE)
endfunction()

ev_headers_sources(ev_hdr_public_c "${ev_hdr_public_roots}" TRUE)
ev_headers_sources(ev_hdr_internal_c "${ev_hdr_internal_roots}" FALSE)
# An entry of EV_HEADERS_NOT_ALONE that names no header is stale: say so.
get_property(ev_hdr_excluded GLOBAL PROPERTY EV_HEADERS_EXCLUDED)
foreach(name ${EV_HEADERS_NOT_ALONE})
  if(NOT name IN_LIST ev_hdr_excluded)
    message(WARNING "tests/headers: EV_HEADERS_NOT_ALONE names ${name}, which no header is")
  endif()
endforeach()
# Generated files of headers that moved or went away.
file(GLOB ev_hdr_old ${ev_hdr_gen}/*.c)
foreach(c ${ev_hdr_old})
  if(NOT c IN_LIST ev_hdr_public_c AND NOT c IN_LIST ev_hdr_internal_c)
    file(REMOVE ${c})
  endif()
endforeach()

add_library(ev_headers_public OBJECT EXCLUDE_FROM_ALL ${ev_hdr_public_c})
target_include_directories(ev_headers_public PRIVATE ${ev_hdr_public_roots})
add_library(ev_headers_internal OBJECT EXCLUDE_FROM_ALL ${ev_hdr_internal_c})
target_include_directories(ev_headers_internal PRIVATE ${PROJECT_SOURCE_DIR}/include
  ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/compat/libvmaf/include)
target_compile_definitions(ev_headers_internal PRIVATE _POSIX_C_SOURCE=200809L)
foreach(t ev_headers_public ev_headers_internal)
  ev_exact_flags(${t})
  ev_warnings(${t})
  if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${t} PRIVATE $<$<COMPILE_LANGUAGE:C>:-Werror>)
  endif()
endforeach()
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(ev_headers_public PRIVATE $<$<COMPILE_LANGUAGE:C>:-Wpedantic>)
endif()
add_custom_target(ev_headers_alone)
add_dependencies(ev_headers_alone ev_headers_public ev_headers_internal)

if(CMAKE_GENERATOR MATCHES "Ninja")
  set(ev_hdr_keep_going -k 0)
elseif(CMAKE_GENERATOR MATCHES "Makefiles")
  set(ev_hdr_keep_going -k)
else()
  set(ev_hdr_keep_going)
endif()
add_test(NAME headers_alone
         COMMAND ${CMAKE_COMMAND} --build ${PROJECT_BINARY_DIR} --config $<CONFIG>
                 --target ev_headers_alone -- ${ev_hdr_keep_going})
set_tests_properties(headers_alone PROPERTIES LABELS unit TIMEOUT 900)

# The public headers as C++, with a C++ compiler found apart from the project's languages
# (the project is C; CXX is not enabled). EV_HEADERS_CXX= (empty) skips the check.
if(NOT DEFINED EV_HEADERS_CXX OR EV_HEADERS_CXX MATCHES "-NOTFOUND$")
  set(ev_cxx_names c++ g++ clang++)
  if(CMAKE_C_COMPILER_ID MATCHES "Clang")
    set(ev_cxx_names clang++ c++ g++)
  endif()
  if(DEFINED ENV{CXX} AND NOT "$ENV{CXX}" STREQUAL "")
    list(PREPEND ev_cxx_names $ENV{CXX})
  endif()
  find_program(EV_HEADERS_CXX NAMES ${ev_cxx_names}
               DOC "C++ compiler for the public headers' C++ check (tests/headers); empty skips it")
endif()
set(ev_hdr_cxx_flags ${EV_WARNING_FLAGS})
list(REMOVE_ITEM ev_hdr_cxx_flags -Wstrict-prototypes) # C only
list(APPEND ev_hdr_cxx_flags -Wpedantic -Werror)
set(ev_hdr_cxx_sources)
foreach(root ${ev_hdr_public_roots})
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS ${root}/*.h)
  foreach(h ${headers})
    file(RELATIVE_PATH inc ${root} ${h})
    file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${h})
    string(MAKE_C_IDENTIFIER ${rel} id)
    set(cpp ${ev_hdr_gen}/cxx/${id}.cpp)
    file(CONFIGURE OUTPUT ${cpp}
         CONTENT "// ${rel} alone as C++ (tests/headers/tests.cmake)\n#include <${inc}>\n" @ONLY)
    list(APPEND ev_hdr_cxx_sources ${cpp})
  endforeach()
endforeach()
file(GLOB ev_hdr_old ${ev_hdr_gen}/cxx/*.cpp)
foreach(cpp ${ev_hdr_old})
  if(NOT cpp IN_LIST ev_hdr_cxx_sources)
    file(REMOVE ${cpp})
  endif()
endforeach()
file(CONFIGURE OUTPUT ${ev_hdr_gen}/cxx_check_config.cmake CONTENT
"set(CXX \"${EV_HEADERS_CXX}\")
set(FLAGS \"${ev_hdr_cxx_flags}\")
set(INCLUDES \"${ev_hdr_public_roots}\")
set(SOURCES \"${ev_hdr_cxx_sources}\")
" @ONLY)
add_test(NAME headers_alone_cxx
         COMMAND ${CMAKE_COMMAND} -DCONFIG=${ev_hdr_gen}/cxx_check_config.cmake
                 -P ${CMAKE_CURRENT_LIST_DIR}/cxx_check.cmake)
# After headers_alone, whose build re-runs the configure step when a header came or went.
set_tests_properties(headers_alone_cxx PROPERTIES LABELS unit DEPENDS headers_alone
                     SKIP_REGULAR_EXPRESSION "headers_alone_cxx: no C\\+\\+ compiler")
