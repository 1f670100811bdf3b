#!/usr/bin/env bash
# -Werror builds (cmake/warnings.cmake: EV_WERROR) with gcc and with clang: every target of the
# normal build (library, CLI, parity tool, libvmaf compat library, tests, benchmarks) and the
# headers compiled alone (tests/headers), built but not run, into build-werror-gcc/ and
# build-werror-clang/. CPU only (-DEXACTVMAF_CUDA=OFF): CI has nvcc, but EV_WERROR covers C
# only (nvcc's warnings are not gcc's or clang's) and building the CUDA backend twice more
# would add many minutes to CI; scripts/test.sh builds it with its own warnings. Run by CI.
# A warning fails the build; every warning of the build is listed (the build keeps going).
# Usage: scripts/werror.sh [compiler...]   (default: gcc clang)
set -euo pipefail
cd "$(dirname "$0")/.."
compilers=("$@")
((${#compilers[@]})) || compilers=(gcc clang)

for cc in "${compilers[@]}"; do
  command -v "$cc" >/dev/null ||
    { echo "werror: $cc not found (scripts/setup.sh installs gcc and clang)"; exit 1; }
  dir="build-werror-$(basename "$cc")"
  log="$dir/werror.log"
  start=$SECONDS
  mkdir -p "$dir"
  CC="$cc" cmake -S . -B "$dir" -DEV_WERROR=ON -DEXACTVMAF_CUDA=OFF -DCMAKE_BUILD_TYPE=Release \
    >"$log" 2>&1 || { cat "$log"; echo "werror: $cc: configure FAILED"; exit 1; }
  keep_going=(-k) # make; ninja wants a count
  [ -f "$dir/build.ninja" ] && keep_going=(-k 0)
  if ! cmake --build "$dir" -j"$(nproc)" --target all ev_headers_alone -- "${keep_going[@]}" \
      >>"$log" 2>&1; then
    echo "werror: $cc: build FAILED ($log); its warnings and errors:"
    grep -E '(warning|error):|undefined reference|multiple definition' "$log" | sort -u ||
      tail -50 "$log"
    exit 1
  fi
  echo "werror: $cc: built in $((SECONDS - start)) s without a warning"
done
