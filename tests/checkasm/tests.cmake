# checkasm: every SIMD kernel against its C reference (label unit), and the checker's own test:
# with one output bit of a kernel flipped it must fail.
file(GLOB EV_CHECKASM_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.c)
add_executable(checkasm ${EV_CHECKASM_SOURCES})
target_include_directories(checkasm PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests)
target_link_libraries(checkasm PRIVATE exactvmaf)
target_compile_definitions(checkasm PRIVATE _POSIX_C_SOURCE=200809L)
ev_exact_flags(checkasm)
ev_warnings(checkasm)
add_test(NAME checkasm COMMAND checkasm)
add_test(NAME checkasm_planted_bit
         COMMAND bash -c "\"$0\" --plant vif_stat_row_u8 --function vif_stat_row_u8 >\"$1\" 2>&1; rc=$?; cat \"$1\"; [ $rc -eq 1 ] && grep -q 'FAIL vif_stat_row_u8' \"$1\""
                 $<TARGET_FILE:checkasm> ${CMAKE_CURRENT_BINARY_DIR}/planted_bit.txt)
set_tests_properties(checkasm checkasm_planted_bit PROPERTIES LABELS unit)
