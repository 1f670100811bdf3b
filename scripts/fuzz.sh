#!/usr/bin/env bash
# libFuzzer harnesses (tests/fuzz) under AddressSanitizer + UndefinedBehaviorSanitizer: build
# them with clang into build-fuzz/, then fuzz each from its seed corpus for a bounded time.
# Any crash, leak, sanitizer report or broken contract fails (the input is left in
# build-fuzz/artifacts/). Run by CI after scripts/sanitize.sh. The committed corpora are also
# replayed by ctest in every build, without libFuzzer (fuzz_replay_*, tests/fuzz/tests.cmake):
# commit a crash's input to tests/fuzz/corpus/<harness>/ to keep it as a regression test.
# Usage: scripts/fuzz.sh [seconds per harness, default 20] [harness...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-20}"
shift || true
harnesses=("$@")
((${#harnesses[@]})) || harnesses=(y4m raw model_json options decode scale)

cc="${EV_FUZZ_CC:-clang}"
command -v "$cc" >/dev/null || { echo "fuzz: $cc not found (scripts/setup.sh installs clang)"; exit 1; }
CC="$cc" cmake -S . -B build-fuzz -DEV_FUZZ=ON -DEXACTVMAF_CUDA=OFF -DEV_BUILD_TESTS=OFF \
  -DEV_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=Debug >build-fuzz.log 2>&1 || { cat build-fuzz.log; exit 1; }
cmake --build build-fuzz -j"$(nproc)" --target "${harnesses[@]/#/fuzz_}" >>build-fuzz.log 2>&1 ||
  { tail -50 build-fuzz.log; exit 1; }

mkdir -p build-fuzz/artifacts
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
for h in "${harnesses[@]}"; do
  work="build-fuzz/corpus/$h" # new inputs land here; the committed seeds stay as they are
  mkdir -p "$work"
  log="build-fuzz/fuzz_$h.log"
  if ! build-fuzz/tests/fuzz/fuzz_"$h" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="build-fuzz/artifacts/$h-" \
      "$work" "tests/fuzz/corpus/$h" >"$log" 2>&1; then
    tail -40 "$log"
    echo "fuzz: $h FAILED (input in build-fuzz/artifacts/)"
    exit 1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  echo "fuzz: $h: ${runs:-?} runs in ${seconds}s, no crash"
done
