# The fuzz corpora replayed in the normal build (label fuzz): each harness of tests/fuzz
# (fuzz_<name>.c, the libFuzzer entry LLVMFuzzerTestOneInput) linked with replay.c's main
# instead of libFuzzer, and run on every file of corpus/<name>/ (seeds and committed
# regressions). One ctest per harness, fuzz_replay_<name>: it passes when every input runs
# without a crash or a broken contract. With any compiler, no libFuzzer needed; in
# scripts/sanitize.sh's build they run under ASan + UBSan. The libFuzzer builds themselves are
# tests/fuzz/CMakeLists.txt (EV_FUZZ=ON, scripts/fuzz.sh). A harness without a corpus fails.
file(GLOB ev_fuzz_harnesses CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/fuzz_*.c)
list(REMOVE_ITEM ev_fuzz_harnesses ${CMAKE_CURRENT_LIST_DIR}/fuzz_common.c)
foreach(src ${ev_fuzz_harnesses})
  get_filename_component(harness ${src} NAME_WE)
  string(REGEX REPLACE "^fuzz_" "" harness ${harness})
  ev_add_test(fuzz_replay_${harness}
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/replay.c ${src} ${CMAKE_CURRENT_LIST_DIR}/fuzz_common.c
    LABELS fuzz
    ARGS ${CMAKE_CURRENT_LIST_DIR}/corpus/${harness})
  set_tests_properties(fuzz_replay_${harness} PROPERTIES TIMEOUT 600)
endforeach()
