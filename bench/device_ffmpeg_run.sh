#!/bin/bash
# The H200 run of issue 25, as one device call (the device tool copies the tree; carry .device):
#   .device/head.tar          git archive HEAD (the tree built there)
#   .device/debs/*.deb        libjansson4, libjansson-dev, pkg-config, pkgconf, pkgconf-bin,
#                             libpkgconf3 (apt-get download; unpacked with dpkg -x)
#   .device/ffmpeg            scripts/build_ffmpeg.sh --exactvmaf PREFIX --set encoded
#                             --extra "--enable-nvenc --enable-encoder=hevc_nvenc" OUT (a CUDA build's
#                             install; its ffmpeg-7.1/ffmpeg)
#   .device/ffmpeg-netflix    EV_ANY_LIBVMAF=1 PKG_CONFIG_PATH=<Netflix libvmaf.a + .pc>
#                             scripts/build_ffmpeg.sh --cuda off --set test OUT
#   BUDGET=570 bash bench/device_ffmpeg_run.sh   (from the tree's root on the device)
# It builds exactvmaf with CUDA (sm_90), runs gpu_device_pictures, bench/ffmpeg_filters.sh,
# ctest -L gpu (a subset, time-guarded) and the Python GPU tests; logs into $OUT/logs.tgz.
set -u
t_start=$(date +%s)
left() { echo $(( ${BUDGET:-560} - ($(date +%s) - t_start) )); }
root=$(pwd)
L=/tmp/logs; rm -rf $L; mkdir -p $L
for d in .device/debs/*.deb; do dpkg -x $d /; done; ldconfig
export LD_LIBRARY_PATH=/usr/local/nvidia/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi -L; nproc; grep -m1 'model name' /proc/cpuinfo
rm -rf /tmp/head && mkdir -p /tmp/head && tar xf .device/head.tar -C /tmp/head && cd /tmp/head
echo "== build ($(left) s left)"
JANSSON_DEBS=$root/.device/debs LOG_DIR=$L/gpu BUILD_DIR=/tmp/head/build-gpu scripts/gpu_check.sh build
cmake --install build-gpu --prefix /tmp/ev >$L/install.txt 2>&1 || echo "install failed"
# (jansson unpacked by gpu_check.sh)
j=$(find /tmp/ev-jansson -name "libjansson.so*" 2>/dev/null | head -1); [ -n "$j" ] && export LD_LIBRARY_PATH=$(dirname "$j"):$LD_LIBRARY_PATH
echo "== device pictures ($(left) s left)"
timeout 150 build-gpu/tests/gpu_device_pictures >$L/device_pictures.txt 2>&1; echo "rc $?"
grep -E 'DIFFERENT|failed|passed' $L/device_pictures.txt | tail -8
echo "== ffmpeg filters ($(left) s left)"
chmod +x $root/.device/ffmpeg $root/.device/ffmpeg-netflix
timeout $(( $(left) - 150 )) bench/ffmpeg_filters.sh $root/.device/ffmpeg /tmp/ev $L/ffmpeg $root/.device/ffmpeg-netflix >$L/ffmpeg_bench.txt 2>&1
echo "rc $?"; cat $L/ffmpeg/table.md 2>/dev/null || tail -20 $L/ffmpeg_bench.txt
echo "== ctest -L gpu ($(left) s left)"
(cd build-gpu && timeout $(( $(left) > 175 ? 150 : $(left) - 25 )) ctest -L gpu -E 'heatmaps|float_search|psnr_hvs_search|cambi_search|speed_v1|ssim_noise|python' --output-on-failure >$L/ctest_gpu.txt 2>&1); echo "rc $?"
grep -E 'Test +#|tests passed|tests failed' $L/ctest_gpu.txt | tail -40
if [ "$(left)" -gt 120 ]; then
  echo "== python gpu ($(left) s left)"
  (cd /tmp/head && OUT=$L/python BENCH_FRAMES=100 timeout $(( $(left) - 15 )) tests/python/gpu_run.sh $root/.device/debs >$L/python_gpu.txt 2>&1)
  echo "rc $?"; grep -E '^==|passed|failed|skipped|rc |fps|copies|equal|differ|Error' $L/python_gpu.txt | head -30
fi
rm -f $L/ffmpeg/*.yuv
tar czf $OUT/logs.tgz -C /tmp logs
echo "done ($(left) s left)"
