# The Python package's tests (label python): pytest over tests/python/test_*.py, importing the
# package from the build tree (cmake/python.cmake lays it out in <build>/python). Without the
# package (no python3-dev or numpy, EXACTVMAF_PYTHON=OFF) each test skips (exit 77), and so it
# does without pytest. python_gpu: torch and cupy tensors on the GPU (label gpu too; skips
# without a device, torch or cupy).
foreach(t score corpus dask gpu)
  set(labels python)
  if(t STREQUAL "gpu")
    list(APPEND labels gpu)
  endif()
  if(EV_WITH_PYTHON)
    add_test(NAME python_${t}
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/run.py test_${t}.py)
    set_tests_properties(python_${t} PROPERTIES ENVIRONMENT
      "PYTHONPATH=${PROJECT_BINARY_DIR}/python;EV_CLI=$<TARGET_FILE:exactvmaf_cli>;EV_SOURCE_DIR=${PROJECT_SOURCE_DIR};EV_SHARED_DIR=${EV_SHARED_DIR}")
  else()
    add_test(NAME python_${t} COMMAND sh -c "echo 'python tests: skipped: $1'; exit 77" sh
      "${EV_PYTHON_WHY}")
  endif()
  set_tests_properties(python_${t} PROPERTIES LABELS "${labels}" SKIP_RETURN_CODE 77)
endforeach()
if(EV_WITH_PYTHON)
  set_tests_properties(python_dask PROPERTIES TIMEOUT 300)
endif()
