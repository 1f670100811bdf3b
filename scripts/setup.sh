#!/usr/bin/env bash
# Install what a fresh Debian machine lacks, then configure and build exactvmaf into build/.
# Usage: scripts/setup.sh [extra cmake -D options]
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
for pkg in cmake gcc clang clang-format make pkg-config libjansson-dev dpkg-dev xz-utils python3 \
  python3-numpy chromium libavformat-dev libavcodec-dev libswscale-dev libavutil-dev ffmpeg \
  python3-dev python3-setuptools python3-pytest python3-distributed python3-pandas; do
  # clang: scripts/fuzz.sh; clang-format: scripts/format.sh; dpkg-dev, xz-utils: the ffmpeg
  # source below; python3: scripts/layers.py; python3-numpy: percentile_numpy (--pool against
  # numpy); chromium: report_chromium (the --report page drawn headless); libav*-dev: encoded
  # input (EXACTVMAF_FFMPEG); ffmpeg: the encodes of the encoded_input test; python3-dev,
  # -setuptools, -pytest, -distributed, -pandas: the Python package and its tests (python/)
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if ((${#need[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing ${need[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

# nvcc is often outside PATH on CUDA machines; EXACTVMAF_CUDA=AUTO finds it here too.
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="$PATH:/usr/local/cuda/bin"

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@" >build.log 2>&1 || { cat build.log; exit 1; }
cmake --build build -j"$(nproc)" >>build.log 2>&1 || { tail -50 build.log; exit 1; }
# Debian's ffmpeg source, for the ffmpeg filter test (which skips without it): fetched once,
# with a private apt configuration (the system's sources stay as they are).
# Debian 12's (5.1) and trixie's (7.1, with nv-codec-headers for its CUDA filters).
for release in bookworm trixie; do
  scripts/fetch_ffmpeg_source.sh build/deps "$release" >build/deps-ffmpeg-$release.log 2>&1 ||
    echo "setup: no $release ffmpeg source ($(tail -1 build/deps-ffmpeg-$release.log)); its ffmpeg filter test will skip"
done
echo "setup: built build/exactvmaf ($(build/exactvmaf --version))"
