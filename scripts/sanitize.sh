#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer build (CPU only) and its tests: unit (the
# headers compiled alone included), cli, checkasm, the twins' random searches, the fuzz corpora
# replayed through their harnesses (fuzz_replay_*, tests/fuzz/tests.cmake) and the golden tests
# at 2 threads (what is left out, and why, is listed below).
# Then a ThreadSanitizer build of the engine's threaded unit tests (below). Run by CI after
# scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
flags="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
cmake -S . -B build-asan -DEXACTVMAF_CUDA=OFF -DEV_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  >build-asan.log 2>&1 || { cat build-asan.log; exit 1; }
cmake --build build-asan -j"$(nproc)" >>build-asan.log 2>&1 || { tail -50 build-asan.log; exit 1; }
# What runs here is chosen for what the sanitizers can find that scripts/test.sh cannot, in a
# few minutes (CI's whole run stays under 45): memory and UB in the engine's threaded paths, the
# readers, the CLI and the kernels. Left to scripts/test.sh (same code, already run there):
#   golden_*_t1, _avx512, _avx2, _c   the goldens run once, at 2 threads with the best kernels;
#                                      every kernel at every dispatch level is in checkasm here
#   twins_gate_self                    the CPU twin gate (35 min under ASan); its random searches
#                                      (twins_*_search_self) and twins_gate_planted_ulp run here
#   encoded_input                      libav's decoders under ASan for 14 min; our decode wrapper
#                                      is fuzzed (fuzz_replay_decode here, scripts/fuzz.sh decode)
#   labels python, ffmpeg              Python and ffmpeg loading the library (ASan's runtime
#                                      would have to be preloaded; ffmpeg built again, minutes)
#   label report                       numpy's and Chromium's checks of the CLI's output; the
#                                      same CLI paths (--pool, --plot, --report) are in cli_report
skip='golden_.*_(t1|avx512|avx2|c)$|^twins_gate_self$|^encoded_input$'
ctest --test-dir build-asan --output-on-failure -j"$(nproc)" -E "$skip" -LE 'python|ffmpeg|report'

# ThreadSanitizer (CPU only): the engine's scheduling under its threads, through the unit tests
# that drive it hardest (the windowed references held across frames, lent pairs released once,
# many-encodes groups, the scheduler's refusals), an encoded reader's read-ahead thread
# (decode_upload: its ring, its queue, its close while it waits; skipped without ffmpeg) and a
# stream decoded in segments (decode_segments: the demuxer's, the decoders' and the reader's
# threads). A race report fails the test (exit 66).
cmake -S . -B build-tsan -DEXACTVMAF_CUDA=OFF -DEV_BUILD_BENCH=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS="-fsanitize=thread" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" >build-tsan.log 2>&1 || { cat build-tsan.log; exit 1; }
tsan_tests='unit_window|unit_lend|unit_multi|unit_core|decode_upload|decode_segments'
cmake --build build-tsan -j"$(nproc)" --target unit_window unit_lend unit_multi unit_core \
  decode_upload_frames decode_frame_hashes exactvmaf_cli >>build-tsan.log 2>&1 ||
  { tail -50 build-tsan.log; exit 1; }
TSAN_OPTIONS="halt_on_error=1" ctest --test-dir build-tsan --output-on-failure -R "^($tsan_tests)\$"
