#!/usr/bin/env bash
# On a GPU machine (the device call): build exactvmaf with CUDA and the Python package for this
# machine's python3, run the Python tests (the GPU ones included), then the GPU benchmark.
#   tests/python/gpu_run.sh [JANSSON_DEBS_DIR]
# Logs go to $OUT (or /tmp/gpu_run) as build.txt and tests.txt.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/gpu_run}; mkdir -p "$out"
build=/tmp/build-gpu-py
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="$PATH:/usr/local/cuda/bin"
py=$(command -v python3)
jflags=()
if ! pkg-config --exists jansson 2>/dev/null && [ -n "${1:-}" ]; then
  root=/tmp/ev-jansson; mkdir -p $root
  for deb in "$1"/*.deb; do dpkg -x "$deb" $root; done
  lib=$(dirname "$(find $root -name 'libjansson.so*' | head -1)")
  jflags=(-DJANSSON_INCLUDE_DIR=$root/usr/include -DJANSSON_LIBRARY=$lib/libjansson.so)
  export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
nvidia-smi -L; $py -c 'import sys, numpy, torch, cupy; print(sys.version.split()[0], numpy.__version__, torch.__version__, cupy.__version__, torch.cuda.device_count())'
t=$(date +%s)
cmake -S . -B $build -DCMAKE_BUILD_TYPE=Release -DEXACTVMAF_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DEXACTVMAF_PYTHON=ON -DPython3_EXECUTABLE="$py" -DEV_BUILD_BENCH=OFF "${jflags[@]}" \
  >"$out/build.txt" 2>&1 &&
  cmake --build $build -j"$(nproc)" --target exactvmaf_cli exactvmaf_python exactvmaf_python_files \
  >>"$out/build.txt" 2>&1
rc=$?; echo "build rc $rc ($(( $(date +%s) - t )) s)"; grep -i 'warning' "$out/build.txt" | grep -i python | head
[ $rc -eq 0 ] || { tail -30 "$out/build.txt"; exit 1; }
cuda=$(dirname "$(dirname "$(command -v nvcc)")")
gcc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude -I"$cuda/include" tests/python/bench_gpu.c \
  -o $build/bench_gpu_c $build/libexactvmaf.a -L"$cuda/lib64" -lcudart_static -lstdc++ -ldl -lrt \
  -lpthread -lm $(pkg-config --libs jansson 2>/dev/null || echo "-L${lib:-.} -ljansson") \
  -Wl,-rpath,${lib:-/usr/lib} || echo "bench_gpu.c: build failed"
export PYTHONPATH=$build/python EV_CLI=$build/exactvmaf EV_SOURCE_DIR=$(pwd)
for t in gpu score; do
  echo "== test_$t"; $py tests/python/run.py test_$t.py -rs 2>&1 | tail -15 | tee -a "$out/tests.txt"
done
echo "== bench"; timeout 240 $py tests/python/bench_gpu.py $build ${BENCH_FRAMES:-300} 3 2>&1 | tail -20
echo "== bench cpu"; timeout 120 $py tests/python/bench_cpu.py $build 100 "$(nproc)" 3 2>&1 | tail -3
echo "== dask over the GPUs"; timeout 200 $py tests/python/bench_dask_gpus.py 8 300 2>&1 | grep -v "distributed\\." | tail -5
