#!/usr/bin/env bash
# Build (installing what is missing) and run every test. GPU tests skip without a device.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh "$@"
ctest --test-dir build --output-on-failure -j"$(nproc)"
