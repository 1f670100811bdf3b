#!/usr/bin/env bash
# The proof behind libm/glibc_log2.h on this host: its host function against this glibc's log2
# on all 2^32 float arguments and on N (default 10^9) weight arguments and random doubles;
# then, with a CUDA build (BUILD_DIR, default build-gpu) and a device, the device function on
# the same sets. Run on every host whose glibc the CPU reference runs on (CI's, the GPU host's).
#   scripts/glibc_log2_check.sh [N [threads]]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-1000000000}
threads=${2:-$(nproc)}
tool=$(mktemp /tmp/glibc_log2_exhaustive.XXXXXX)
trap 'rm -f "$tool"' EXIT
cc -std=c11 -O2 -pthread -ffp-contract=off -I"$here/src" -I"$here/tests" \
   "$here/tests/unit/glibc_log2_exhaustive.c" -lm -o "$tool"
ldd --version | head -1
"$tool" "$threads"
"$tool" --weights "$n" 20261201 "$threads"
"$tool" --doubles "$n" 20261201 "$threads"
device="$here/${BUILD_DIR:-build-gpu}/tests/gpu_glibc_log2_device"
if [ -x "$device" ]; then
  "$device" "$n" 20261201 "$threads"
else
  echo "no $device: device check skipped"
fi
