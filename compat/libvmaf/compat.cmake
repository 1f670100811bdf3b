# libvmaf.so.3: Netflix libvmaf 3.2.0's public API and ABI (libvmaf/libvmaf.h, model.h,
# feature.h, picture.h) on exactvmaf's public API (include/exactvmaf/exactvmaf.h): it links
# libexactvmaf.so.0 (found beside it: RUNPATH $ORIGIN) and exports only vmaf_*; installed with
# libvmaf.pc (Name libvmaf, Version 3.2.0) so that a program or an
# ffmpeg built with --enable-libvmaf finds it as Netflix's.
set(CV_DIR ${CMAKE_CURRENT_LIST_DIR})
set(CV_VERSION 3.2.0)
add_library(vmaf_compat SHARED
  ${CV_DIR}/src/context.c ${CV_DIR}/src/model.c ${CV_DIR}/src/dict.c ${CV_DIR}/src/picture.c
  ${CV_DIR}/src/log.c ${CV_DIR}/src/cuda.c)
# the public headers only: compat is a user of the library like any other
target_include_directories(vmaf_compat PRIVATE ${CV_DIR}/include ${PROJECT_SOURCE_DIR}/include)
target_compile_definitions(vmaf_compat PRIVATE _POSIX_C_SOURCE=200809L
  CV_EXACTVMAF_VERSION="${PROJECT_VERSION}")
target_link_libraries(vmaf_compat PRIVATE exactvmaf_shared)
ev_exact_flags(vmaf_compat)
ev_warnings(vmaf_compat)
set_target_properties(vmaf_compat PROPERTIES
  OUTPUT_NAME vmaf
  VERSION ${CV_VERSION}
  SOVERSION 3
  LINKER_LANGUAGE C
  INSTALL_RPATH "$ORIGIN"
  LINK_OPTIONS "-Wl,--no-undefined;-Wl,--version-script=${CV_DIR}/libvmaf.map"
  LINK_DEPENDS ${CV_DIR}/libvmaf.map)

configure_file(${CV_DIR}/libvmaf.pc.in ${CMAKE_CURRENT_BINARY_DIR}/libvmaf.pc @ONLY)
install(TARGETS vmaf_compat LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${CV_DIR}/include/libvmaf
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/libvmaf.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
