# The layering of docs/ARCHITECTURE.md: no include or call cycle between folders or between the
# files of a folder, no import against the layer order (scripts/layers.py reads the sources and
# this build's object files). Skipped without python3.
find_program(EV_PYTHON3 python3)
if(EV_PYTHON3)
  add_test(NAME layers COMMAND ${EV_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/layers.py
           --build ${PROJECT_BINARY_DIR})
else()
  add_test(NAME layers COMMAND ${CMAKE_COMMAND} -E echo "layers: no python3: skipped")
  set_tests_properties(layers PROPERTIES SKIP_REGULAR_EXPRESSION "skipped")
endif()
set_tests_properties(layers PROPERTIES LABELS unit)
