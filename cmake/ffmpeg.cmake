# Encoded input (src/io/decode*.c): libavformat, libavcodec, libswscale and libavutil, found
# through pkg-config (Debian: libavformat-dev libavcodec-dev libswscale-dev libavutil-dev).
# EXACTVMAF_FFMPEG: AUTO (built when found), ON (required), OFF (y4m and raw only, as before).
set(EXACTVMAF_FFMPEG AUTO CACHE STRING "Read encoded video with libav*: AUTO, ON or OFF")
set_property(CACHE EXACTVMAF_FFMPEG PROPERTY STRINGS AUTO ON OFF)
set(EV_WITH_FFMPEG OFF)
if(NOT EXACTVMAF_FFMPEG STREQUAL "OFF")
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(LIBAV QUIET IMPORTED_TARGET libavformat libavcodec libswscale libavutil)
  endif()
  if(TARGET PkgConfig::LIBAV)
    set(EV_WITH_FFMPEG ON)
    add_library(ev::libav ALIAS PkgConfig::LIBAV)
    message(STATUS "exactvmaf: encoded input with libavformat ${LIBAV_libavformat_VERSION}")
  elseif(EXACTVMAF_FFMPEG STREQUAL "ON")
    message(FATAL_ERROR "EXACTVMAF_FFMPEG=ON but libavformat/libavcodec/libswscale/libavutil "
                        "were not found: install their -dev packages (scripts/setup.sh does)")
  else()
    message(STATUS "exactvmaf: no libav* found: y4m and raw input only")
  endif()
endif()
