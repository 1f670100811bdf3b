# The Python package (python/): the extension exactvmaf._exactvmaf, built on the library, and the
# package's Python files, laid out in <build>/python/exactvmaf so that the tests import it from
# the build tree (PYTHONPATH=<build>/python) without installing anything.
#
# EXACTVMAF_PYTHON: AUTO (built when Python 3's development files are found and its interpreter
# imports numpy), ON (required), OFF. The interpreter: Python3_EXECUTABLE when given, else
# Debian's /usr/bin/python3 where it exists (the one python3-numpy, python3-pytest and
# python3-distributed install into), else the first python3 found.
set(EXACTVMAF_PYTHON AUTO CACHE STRING "Build the Python package: AUTO, ON or OFF")
set_property(CACHE EXACTVMAF_PYTHON PROPERTY STRINGS AUTO ON OFF)

set(EV_WITH_PYTHON OFF)
set(EV_PYTHON_WHY "")
# A sanitizer build's objects need the sanitizer's runtime loaded first, which an interpreter
# that was not built with it lacks: AUTO leaves the package out of such builds
# (scripts/sanitize.sh, EV_FUZZ).
string(FIND "${CMAKE_C_FLAGS} ${CMAKE_C_FLAGS_${CMAKE_BUILD_TYPE}}" "-fsanitize" ev_sanitized)
if(EXACTVMAF_PYTHON STREQUAL "AUTO" AND (EV_FUZZ OR NOT ev_sanitized EQUAL -1))
  set(EV_PYTHON_WHY "a sanitizer build (the interpreter lacks the sanitizer's runtime)")
  message(STATUS "exactvmaf: no Python package: ${EV_PYTHON_WHY}")
elseif(EXACTVMAF_PYTHON STREQUAL "ON" OR EXACTVMAF_PYTHON STREQUAL "AUTO")
  if(NOT Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python3_EXECUTABLE /usr/bin/python3)
  endif()
  find_package(Python3 COMPONENTS Interpreter Development.Module)
  if(NOT Python3_FOUND)
    set(EV_PYTHON_WHY "no Python 3 development files (python3-dev)")
  else()
    execute_process(COMMAND ${Python3_EXECUTABLE} -c "import numpy; print(numpy.__version__)"
      RESULT_VARIABLE ev_numpy_rc OUTPUT_VARIABLE ev_numpy_version ERROR_QUIET
      OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(ev_numpy_rc EQUAL 0)
      set(EV_WITH_PYTHON ON)
    else()
      set(EV_PYTHON_WHY "${Python3_EXECUTABLE} has no numpy (python3-numpy)")
    endif()
  endif()
  if(NOT EV_WITH_PYTHON AND EXACTVMAF_PYTHON STREQUAL "ON")
    message(FATAL_ERROR "EXACTVMAF_PYTHON=ON but ${EV_PYTHON_WHY}")
  elseif(NOT EV_WITH_PYTHON)
    message(STATUS "exactvmaf: no Python package: ${EV_PYTHON_WHY}")
  endif()
elseif(NOT EXACTVMAF_PYTHON STREQUAL "OFF")
  message(FATAL_ERROR "EXACTVMAF_PYTHON must be AUTO, ON or OFF, not '${EXACTVMAF_PYTHON}'")
else()
  set(EV_PYTHON_WHY "EXACTVMAF_PYTHON=OFF")
endif()

if(EV_WITH_PYTHON)
  message(STATUS "exactvmaf: Python package on (${Python3_EXECUTABLE} ${Python3_VERSION}, "
    "numpy ${ev_numpy_version})")
  set(EV_PYTHON_DIR ${CMAKE_CURRENT_BINARY_DIR}/python/exactvmaf)
  Python3_add_library(exactvmaf_python MODULE WITH_SOABI python/exactvmaf/_exactvmaf.c)
  target_link_libraries(exactvmaf_python PRIVATE exactvmaf)
  if(EV_WITH_CUDA) # the CUDA host code is C++
    target_link_libraries(exactvmaf_python PRIVATE stdc++)
  endif()
  target_compile_definitions(exactvmaf_python PRIVATE _POSIX_C_SOURCE=200809L)
  set_target_properties(exactvmaf_python PROPERTIES
    OUTPUT_NAME _exactvmaf
    LIBRARY_OUTPUT_DIRECTORY ${EV_PYTHON_DIR}
    C_VISIBILITY_PRESET hidden)
  ev_exact_flags(exactvmaf_python)
  ev_warnings(exactvmaf_python)
  # the package's Python files beside the extension, copied again whenever one changes
  file(GLOB EV_PYTHON_FILES CONFIGURE_DEPENDS
    ${PROJECT_SOURCE_DIR}/python/exactvmaf/*.py ${PROJECT_SOURCE_DIR}/python/exactvmaf/*.pyi
    ${PROJECT_SOURCE_DIR}/python/exactvmaf/py.typed)
  set(ev_python_copies "")
  foreach(f ${EV_PYTHON_FILES})
    get_filename_component(name ${f} NAME)
    add_custom_command(OUTPUT ${EV_PYTHON_DIR}/${name}
      COMMAND ${CMAKE_COMMAND} -E copy_if_different ${f} ${EV_PYTHON_DIR}/${name}
      DEPENDS ${f} VERBATIM)
    list(APPEND ev_python_copies ${EV_PYTHON_DIR}/${name})
  endforeach()
  add_custom_target(exactvmaf_python_files ALL DEPENDS ${ev_python_copies})
  add_dependencies(exactvmaf_python exactvmaf_python_files)
endif()
