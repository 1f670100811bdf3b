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
