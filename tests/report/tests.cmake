# Reports and pooling (issue 27; docs/REPORTS.md): the statistics' unit test (label unit), the
# CLI's --pool, --plot, --report and bdrate (label cli), percentiles against numpy and the report
# drawn by headless Chromium (label report; both skip, exit 77, without numpy, chromium or the
# shared corpus).
ev_add_test(unit_stats SOURCES ${CMAKE_CURRENT_LIST_DIR}/stats_test.c LABELS unit)
add_test(NAME cli_report
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cli_report_test.sh $<TARGET_FILE:exactvmaf_cli> ${PROJECT_SOURCE_DIR})
set_tests_properties(cli_report PROPERTIES LABELS cli)
foreach(name percentile_numpy report_chromium)
  add_test(NAME ${name}
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/${name}.sh $<TARGET_FILE:exactvmaf_cli> ${PROJECT_SOURCE_DIR}
                   ${EV_SHARED_DIR})
  set_tests_properties(${name} PROPERTIES LABELS report SKIP_RETURN_CODE 77)
endforeach()
