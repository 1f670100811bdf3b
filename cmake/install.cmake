# What `cmake --install` puts under the prefix:
#   lib/libexactvmaf.so.<version> (soname libexactvmaf.so.<major>) and libexactvmaf.so
#   lib/libexactvmaf.a            the same objects as one relocatable object in which every
#                                 symbol but the public API (EV_API, all "ev_") is local
#   include/exactvmaf/*.h         the public headers
#   bin/exactvmaf                 the CLI
#   lib/pkgconfig/exactvmaf.pc    (Libs.private: jansson, libm, threads, and CUDA's static
#                                 runtime with what it needs when built with CUDA)
#   lib/cmake/exactvmaf/          find_package(exactvmaf): exactvmaf::exactvmaf (shared),
#                                 exactvmaf::exactvmaf_static
# The build's own libexactvmaf.a (build/) keeps its internal symbols: the tests call them.
include(GNUInstallDirs)

# The library's objects, compiled once: position independent (for the shared library) and
# with hidden visibility (only EV_API functions are exported).
set_target_properties(exactvmaf PROPERTIES
  POSITION_INDEPENDENT_CODE ON
  C_VISIBILITY_PRESET hidden
  CUDA_VISIBILITY_PRESET hidden
  VISIBILITY_INLINES_HIDDEN ON)

# libexactvmaf.so: the whole internal archive, linked into one shared object.
add_library(exactvmaf_shared SHARED $<TARGET_OBJECTS:exactvmaf>)
target_link_libraries(exactvmaf_shared PRIVATE Threads::Threads m ev::jansson)
if(EV_WITH_FFMPEG) # libav* is loaded at run time (src/io/libav.c)
  target_link_libraries(exactvmaf_shared PRIVATE ${CMAKE_DL_LIBS})
endif()
target_include_directories(exactvmaf_shared
  PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
         $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
set_target_properties(exactvmaf_shared PROPERTIES
  OUTPUT_NAME exactvmaf
  VERSION ${PROJECT_VERSION}
  SOVERSION ${PROJECT_VERSION_MAJOR}
  C_VISIBILITY_PRESET hidden
  LINKER_LANGUAGE C
  LINK_OPTIONS "-Wl,--no-undefined;-Wl,--version-script=${PROJECT_SOURCE_DIR}/cmake/exactvmaf.map"
  LINK_DEPENDS ${PROJECT_SOURCE_DIR}/cmake/exactvmaf.map)
if(EV_WITH_CUDA)
  # CUDA's static runtime goes inside, its symbols not exported; the host code is C++
  find_package(CUDAToolkit REQUIRED)
  target_link_libraries(exactvmaf_shared PRIVATE CUDA::cudart_static stdc++)
  target_link_options(exactvmaf_shared PRIVATE "-Wl,--exclude-libs,libcudart_static.a")
endif()

# The installed static library: ld -r of every member, then every symbol but ev_* made local
# (hidden ones and the C++ template instances of the CUDA host code alike), so that a program
# linking it sees only the API. Kept too: DW.ref.__gxx_personality_v0, the hidden weak symbol
# the compiler emits for C++ exception tables, which a static libstdc++ links against.
set(EV_PUBLIC_ARCHIVE ${CMAKE_CURRENT_BINARY_DIR}/public/libexactvmaf.a)
add_custom_command(
  OUTPUT ${EV_PUBLIC_ARCHIVE}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/public
  COMMAND ${CMAKE_COMMAND} -E rm -f ${EV_PUBLIC_ARCHIVE}
  COMMAND ${CMAKE_LINKER} -r --whole-archive $<TARGET_FILE:exactvmaf>
          -o ${CMAKE_CURRENT_BINARY_DIR}/public/exactvmaf.o
  COMMAND ${CMAKE_OBJCOPY} -w --keep-global-symbol=ev_* --keep-global-symbol=DW.ref.*
          ${CMAKE_CURRENT_BINARY_DIR}/public/exactvmaf.o
  COMMAND ${CMAKE_AR} rcs ${EV_PUBLIC_ARCHIVE} ${CMAKE_CURRENT_BINARY_DIR}/public/exactvmaf.o
  DEPENDS exactvmaf
  COMMENT "The installable static library: only the public API global"
  VERBATIM)
add_custom_target(exactvmaf_public_archive ALL DEPENDS ${EV_PUBLIC_ARCHIVE})

# pkg-config and the CMake package
set(EV_PC_PRIVATE_LIBS "-lm -lpthread")
set(EV_PC_PRIVATE_REQUIRES "")
# jansson as this build found it: through pkg-config, or a library path given to the build (a
# machine without jansson installed); the CMake package links the same file
if(TARGET PkgConfig::JANSSON)
  set(EV_PC_PRIVATE_REQUIRES "jansson")
  set(EV_CMAKE_JANSSON "${JANSSON_LINK_LIBRARIES}")
else()
  string(APPEND EV_PC_PRIVATE_LIBS " ${JANSSON_LIBRARY}")
  set(EV_CMAKE_JANSSON "${JANSSON_LIBRARY}")
endif()
if(EV_WITH_FFMPEG) # the static library's encoded input: libav* is loaded at run time
  string(APPEND EV_PC_PRIVATE_LIBS " -ldl")
  string(APPEND EV_CMAKE_JANSSON ";dl")
endif()
set(EV_CMAKE_CUDA_LIBS "")
if(EV_WITH_CUDA)
  get_filename_component(EV_CUDART_DIR "${CUDA_cudart_static_LIBRARY}" DIRECTORY)
  string(APPEND EV_PC_PRIVATE_LIBS " -L${EV_CUDART_DIR} -lcudart_static -lstdc++ -ldl -lrt")
  set(EV_CMAKE_CUDA_LIBS "${CUDA_cudart_static_LIBRARY};stdc++;dl;rt")
endif()
# Both files find the prefix from where they lie, so `cmake --install --prefix P` works for any P.
file(RELATIVE_PATH EV_PC_TO_PREFIX "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
file(RELATIVE_PATH EV_CMAKE_TO_PREFIX "/p/${CMAKE_INSTALL_LIBDIR}/cmake/exactvmaf" "/p")
configure_file(${PROJECT_SOURCE_DIR}/cmake/exactvmaf.pc.in
               ${CMAKE_CURRENT_BINARY_DIR}/exactvmaf.pc @ONLY)
configure_file(${PROJECT_SOURCE_DIR}/cmake/exactvmafConfig.cmake.in
               ${CMAKE_CURRENT_BINARY_DIR}/exactvmafConfig.cmake @ONLY)
include(CMakePackageConfigHelpers)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/exactvmafConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)

install(TARGETS exactvmaf_shared
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${EV_PUBLIC_ARCHIVE} DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/exactvmaf
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(TARGETS exactvmaf_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/exactvmaf.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/exactvmafConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/exactvmafConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/exactvmaf)
