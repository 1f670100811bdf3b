#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer build (CPU only) and its tests: unit (the
# headers compiled alone included), cli, twins (CPU gate), the fuzz corpora replayed through
# their harnesses (fuzz_replay_*, tests/fuzz/tests.cmake) and the golden tests at 2 threads.
# Run by CI after scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
flags="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
cmake -S . -B build-asan -DEXACTVMAF_CUDA=OFF -DEV_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  >build-asan.log 2>&1 || { cat build-asan.log; exit 1; }
cmake --build build-asan -j"$(nproc)" >>build-asan.log 2>&1 || { tail -50 build-asan.log; exit 1; }
ctest --test-dir build-asan --output-on-failure -j"$(nproc)" -E 'golden_.*_t1$'
