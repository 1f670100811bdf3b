#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: build with CUDA, then the checks CI cannot run.
#   scripts/gpu_check.sh [step...]      steps, in this order by default:
#     build     configure and build build-gpu/ (sm_90 unless CUDA_ARCH is set)
#     test      ctest -L gpu (twins against the CPU, noise and VMAF searches), then -L unit
#     gate      the full parity gate: every twin x option set x fixture, and the corpus,
#               one run per extractor (GATE_ONLY: a list of them)
#     search    the VMAF search: SEARCH_FRAMES (default 1000000) random frames
#     backends  --backend cuda against --backend cpu, --precision max JSON of every v0.6.x
#               model on every corpus pair, byte for byte (the "backends" object aside)
#     repeat    REPEATS (100) runs of one pair, then 8 processes at once: identical output
#     bench     bench_vmaf, bench_twins (kernels), bench/cli_feed.sh
#     ffmpeg    FFMPEG (an ffmpeg built by tests/ffmpeg/build_ffmpeg.sh) on this build's
#               libvmaf.so.3: vmaf_v0.6.1 of a 1080p clip on CUDA and on the CPU
#               (CUDA_VISIBLE_DEVICES= hides the GPU), the logs' values compared, fps of each
# Logs go to LOG_DIR (default build-gpu/logs), one file per step; the last lines of each
# step's verdict are printed. CORPUS: the corpus directory (default ../shared/corpus).
# JANSSON_DEBS: a directory of libjansson4 / libjansson-dev .deb files, unpacked (not
# installed) when the machine has no jansson.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
build=${BUILD_DIR:-build-gpu}
logs=${LOG_DIR:-$build/logs}
corpus=${CORPUS:-$here/../shared/corpus}
steps=${*:-build test gate search backends repeat bench}
mkdir -p "$logs"
status=0

note() { printf '%s\n' "$*" | tee -a "$logs/summary.txt"; }

jansson_flags=()
if ! pkg-config --exists jansson 2>/dev/null && [ -n "${JANSSON_DEBS:-}" ]; then
  root=/tmp/ev-jansson
  mkdir -p "$root"
  for deb in "$JANSSON_DEBS"/*.deb; do dpkg -x "$deb" "$root"; done
  lib=$(dirname "$(find "$root" -name 'libjansson.so*' | head -1)")
  jansson_flags=(-DJANSSON_INCLUDE_DIR="$root/usr/include" -DJANSSON_LIBRARY="$lib/libjansson.so")
  export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi

parity=$build/exactvmaf-parity
cli=$build/exactvmaf

step_build() {
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DEXACTVMAF_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-90}" -DEV_SHARED_DIR="$(dirname "$corpus")" \
    "${jansson_flags[@]}" >"$logs/build.txt" 2>&1 &&
    cmake --build "$build" -j"$(nproc)" >>"$logs/build.txt" 2>&1
  local rc=$?
  note "build: rc $rc"; [ $rc -eq 0 ] || tail -30 "$logs/build.txt"
  return $rc
}

step_test() {
  (cd "$build" && ctest -L gpu --output-on-failure >"$logs/test_gpu.txt" 2>&1)
  local rc=$?
  note "ctest -L gpu: rc $rc: $(grep -E 'tests passed|tests failed' "$logs/test_gpu.txt")"
  [ $rc -eq 0 ] || grep -E 'Failed|DIFFERENT|differ' "$logs/test_gpu.txt" | head -20
  (cd "$build" && ctest -L unit -j"$(nproc)" >"$logs/test_unit.txt" 2>&1)
  note "ctest -L unit: rc $?: $(grep -E 'tests passed|tests failed' "$logs/test_unit.txt")"
  return $rc
}

step_gate() {
  # one run per extractor (GATE_ONLY, default all of them), each with its own log
  local rc=0 x
  for x in ${GATE_ONLY:-float_moment psnr float_psnr float_ssim float_ms_ssim vif adm motion cambi model}; do
    "$parity" --corpus "$corpus" --threads "${GATE_THREADS:-16}" --only "$x" >"$logs/gate_$x.txt" 2>&1
    local r=$?
    note "gate $x: rc $r: $(tail -1 "$logs/gate_$x.txt")"
    grep -E 'DIFFERENT|REFUSED BY ONE' "$logs/gate_$x.txt" | head -20
    [ $r -eq 0 ] || rc=1
  done
  return $rc
}

step_search() {
  "$parity" --vmaf-search "${SEARCH_FRAMES:-1000000}" --threads 16 --twin-threads 16 --verbose \
    --seed "${SEARCH_SEED:-20261201}" >"$logs/search.txt" 2>&1
  local rc=$?
  note "vmaf search: rc $rc: $(tail -1 "$logs/search.txt")"
  [ $rc -eq 0 ] || head -20 "$logs/search.txt"
  return $rc
}

# the JSON without the fields that differ by design: version, fps, the backends object
strip_json() {
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
for k in ("version","fps","backends"): d.pop(k, None)
print(json.dumps(d, sort_keys=True))' "$1"
}

step_backends() {
  local bad=0 runs=0 out=/tmp/ev-backends
  mkdir -p "$out"
  : >"$logs/backends.txt"
  while IFS=$'\t' read -r name ref dis w h chroma bpc frames _; do
    [ "$name" = name ] && continue
    for model in vmaf_v0.6.1 vmaf_v0.6.1neg vmaf_4k_v0.6.1 vmaf_4k_v0.6.1neg vmaf_b_v0.6.3; do
      for b in cpu cuda; do
        "$cli" -r "$corpus/$ref" -d "$corpus/$dis" -w "$w" -h "$h" -p "$chroma" -b "$bpc" \
          --model "version=$model" --backend "$b" --precision max --json -q \
          -o "$out/$b.json" 2>>"$logs/backends.txt"
      done
      runs=$((runs + 1))
      if cmp -s <(strip_json "$out/cpu.json") <(strip_json "$out/cuda.json") &&
         grep -q '"backends"' "$out/cuda.json"; then
        echo "same  $name $model" >>"$logs/backends.txt"
      else
        echo "DIFFERENT $name $model" >>"$logs/backends.txt"; bad=$((bad + 1))
      fi
    done
  done <"$corpus/corpus.tsv"
  note "backends: $runs pair x model runs, $bad different"
  [ $bad -eq 0 ]
}

step_repeat() {
  local n=${REPEATS:-100} out=/tmp/ev-repeat bad=0
  mkdir -p "$out"
  local args=(-r "$corpus/aitzgorri_1920x1080_yuv420p_ref.yuv"
              -d "$corpus/aitzgorri_1920x1080_yuv420p_x264crf30.yuv" -w 1920 -h 1080 -p 420
              -b 8 --backend cuda --precision max --json -q)
  "$cli" "${args[@]}" -o "$out/first.json" && strip_json "$out/first.json" >"$out/first.txt"
  for i in $(seq "$n"); do
    "$cli" "${args[@]}" -o "$out/r.json" && strip_json "$out/r.json" >"$out/r.txt"
    cmp -s "$out/first.txt" "$out/r.txt" || bad=$((bad + 1))
  done
  for i in $(seq 8); do "$cli" "${args[@]}" -o "$out/c$i.json" & done
  wait
  for i in $(seq 8); do
    strip_json "$out/c$i.json" >"$out/c.txt"; cmp -s "$out/first.txt" "$out/c.txt" || bad=$((bad + 1))
  done
  note "repeat: $n sequential runs and 8 concurrent processes, $bad differing from the first"
  [ $bad -eq 0 ]
}

step_bench() {
  "$build/bench/bench_vmaf" 300 4 8 16 >"$logs/bench_vmaf.txt" 2>&1
  note "bench_vmaf: rc $?"; cat "$logs/bench_vmaf.txt"
  bench/cli_feed.sh "$build" >"$logs/cli_feed.txt" 2>&1
  note "cli_feed: rc $?"; cat "$logs/cli_feed.txt"
}

step_ffmpeg() {
  local prefix=/tmp/ev-prefix clip=/tmp/ev-ffclip frames=${FF_FRAMES:-600} bad=0
  rm -rf "$prefix"
  cmake --install "$build" --prefix "$prefix" >"$logs/ffmpeg_install.txt" 2>&1 || return 1
  mkdir -p "$clip"
  for f in ref x264crf30; do
    [ -s "$clip/$f.yuv" ] || "$build/bench/bench_clip" \
      "$corpus/aitzgorri_1920x1080_yuv420p_$f.yuv" 1920 1080 1 "$frames" "$clip/$f.yuv"
  done
  for mode in cuda cpu; do
    local hide=()
    [ $mode = cpu ] && hide=(env CUDA_VISIBLE_DEVICES=)
    local t0 t1
    t0=$(date +%s.%N)
    LD_LIBRARY_PATH=$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "${hide[@]}" "$FFMPEG" \
      -nostdin -hide_banner -f rawvideo -pix_fmt yuv420p -s 1920x1080 -i "$clip/x264crf30.yuv" \
      -f rawvideo -pix_fmt yuv420p -s 1920x1080 -i "$clip/ref.yuv" \
      -lavfi "libvmaf=log_fmt=json:log_path=$logs/ffmpeg_$mode.json:n_threads=16" -f null - \
      >"$logs/ffmpeg_$mode.txt" 2>&1 || bad=1
    t1=$(date +%s.%N)
    note "ffmpeg $mode: $(grep -o 'exactvmaf: .*' "$logs/ffmpeg_$mode.txt"), $(grep -o 'VMAF score: .*' "$logs/ffmpeg_$mode.txt"), $(awk -v n="$frames" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", n / (b - a) }') fps (whole run)"
  done
  if cmp -s <(strip_json "$logs/ffmpeg_cpu.json") <(strip_json "$logs/ffmpeg_cuda.json"); then
    note "ffmpeg: the CUDA and CPU logs hold the same values ($frames frames)"
  else
    note "ffmpeg: the CUDA and CPU logs DIFFER"; bad=1
  fi
  [ $bad -eq 0 ]
}

for s in $steps; do
  "step_$s" || status=1
done
exit $status
