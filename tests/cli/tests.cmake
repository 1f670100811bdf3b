# CLI tests: bad inputs, threads, pipes, raw vs y4m, frame controls (label cli).
add_test(NAME cli_behaviour
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cli_test.sh $<TARGET_FILE:exactvmaf_cli> ${PROJECT_SOURCE_DIR}
                 ${EV_SHARED_DIR})
set_tests_properties(cli_behaviour PROPERTIES LABELS cli)
add_test(NAME cli_user
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cli_user_test.sh $<TARGET_FILE:exactvmaf_cli> ${PROJECT_SOURCE_DIR})
set_tests_properties(cli_user PROPERTIES LABELS cli)
add_test(NAME cli_multi
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cli_multi_test.sh $<TARGET_FILE:exactvmaf_cli> ${PROJECT_SOURCE_DIR})
set_tests_properties(cli_multi PROPERTIES LABELS cli)
add_test(NAME cli_gray
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cli_gray_test.sh $<TARGET_FILE:exactvmaf_cli> ${PROJECT_SOURCE_DIR})
set_tests_properties(cli_gray PROPERTIES LABELS cli)
add_test(NAME cli_ctc
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cli_ctc_test.sh $<TARGET_FILE:exactvmaf_cli> ${PROJECT_SOURCE_DIR}
                 ${EV_SHARED_DIR})
set_tests_properties(cli_ctc PROPERTIES LABELS cli)

# The CLI's SIGBUS guard for inputs read in place (tools/cli_guard.c): a file truncated while
# mapped gives one line naming it and exit 1.
add_executable(cli_guard_test ${CMAKE_CURRENT_LIST_DIR}/guard_test.c ${PROJECT_SOURCE_DIR}/tools/cli_guard.c)
target_include_directories(cli_guard_test PRIVATE ${PROJECT_SOURCE_DIR}/tools)
target_compile_definitions(cli_guard_test PRIVATE _POSIX_C_SOURCE=200809L)
ev_exact_flags(cli_guard_test)
ev_warnings(cli_guard_test)
add_test(NAME cli_guard COMMAND cli_guard_test)
set_tests_properties(cli_guard PROPERTIES LABELS "cli")
