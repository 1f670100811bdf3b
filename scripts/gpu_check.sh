#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: build with CUDA, then the checks CI cannot run.
#   scripts/gpu_check.sh [step...]      steps, in this order by default:
#     build     configure and build build-gpu/ (sm_90 unless CUDA_ARCH is set)
#     test      ctest -L gpu (twins against the CPU, noise and VMAF searches), then -L unit
#     gate      the full parity gate: every twin x option set x fixture, and the corpus,
#               one run per extractor (GATE_ONLY: a list of them)
#     search    the VMAF search: SEARCH_FRAMES (default 1000000) random frames
#     twinsearch  the same search for each twin family of TWIN_SEARCHES (default: every
#               twin beyond vif/adm/motion), TWIN_SEARCH_FRAMES (default 1000000) each
#     backends  --backend cuda against --backend cpu, --precision max JSON of every built-in
#               model (MODELS) on every corpus pair, byte for byte (the "backends" object aside)
#     gray      gray (4:0:0) y4m made from the sample pair's luma, 8 and 10 bits: --backend cuda
#               against --backend cpu JSON for the luma-only twins and models
#     ciedelibm the proofs of ciede's device libm against this host's glibc
#               (scripts/libm_check.sh, part CIEDE_LIBM: enum (default), random or all)
#     repeat    REPEATS (100) runs of one pair, then 8 processes at once: identical output
#     bench     bench_vmaf, bench_twins (kernels), bench/cli_feed.sh
#     ffmpeg    FFMPEG (an ffmpeg built by scripts/build_ffmpeg.sh) on this build's
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
steps=${*:-build test gate search twinsearch backends gray repeat bench}
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
  for x in ${GATE_ONLY:-float_moment psnr float_psnr float_ssim float_ms_ssim vif adm motion \
             cambi speed_chroma speed_temporal float_vif float_adm float_motion float_ansnr \
             ciede psnr_hvs model}; do
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

# One search per entry: features|min size|max size|depths (vmaf_search.c --features).
default_twin_searches=(
  "cambi|216x216|1920x1080|8,9,10,11,12,13,14,15,16"
  "cambi:cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:cambi_max_val=17|216x216|3840x2160|8,10"
  "speed_chroma;speed_temporal|32x32|1920x1080|8,9,10,11,12,13,14,15,16"
  "speed_chroma:speed_kernelscale=1.0:speed_weight_var_mode=5|32x32|1920x1080|8,10"
  "float_vif|48x48|1920x1080|8,10,12,16"
  "float_adm|48x48|1920x1080|8,10,12,16"
  "float_motion|48x48|1920x1080|8,10,12,16"
  "float_ansnr|48x48|1920x1080|8,10,12,16"
  "float_vif:vif_kernelscale=1.5:vif_prescale=0.75:debug=true;float_adm:rcp_estimate=1:adm_enhn_gain_limit=1.2:debug=true;float_motion:motion_add_scale1=true:motion_filter_size=3|48x48|1920x1080|8,10,12,16"
  "ciede|16x16|1920x1080|8,10,12,16"
  "psnr_hvs|16x16|1920x1080|8,9,10,11,12"
)
step_twinsearch() {
  local rc=0 k=0 entry feats min max depths
  local searches=("${default_twin_searches[@]}")
  [ -n "${TWIN_SEARCHES:-}" ] && IFS=$'\n' read -r -d '' -a searches <<<"$TWIN_SEARCHES"
  for entry in "${searches[@]}"; do
    IFS='|' read -r feats min max depths <<<"$entry"
    k=$((k + 1))
    "$parity" --vmaf-search "${TWIN_SEARCH_FRAMES:-1000000}" --features "$feats" \
      --min-size "$min" --max-size "$max" --depths "$depths" --threads 16 --twin-threads 16 \
      --verbose --seed "${SEARCH_SEED:-20261201}" >"$logs/twinsearch_$k.txt" 2>&1
    local r=$?
    note "twin search $k ($feats, $min..$max, depths $depths): rc $r: $(tail -1 "$logs/twinsearch_$k.txt")"
    [ $r -eq 0 ] || { rc=1; grep -v '^batch' "$logs/twinsearch_$k.txt" | head -10; }
  done
  return $rc
}

step_ciedelibm() {
  scripts/libm_check.sh "$(nproc)" "${CIEDE_LIBM:-enum}" >"$logs/ciede_libm.txt" 2>&1
  local rc=$?
  note "ciede libm: rc $rc: $(tail -1 "$logs/ciede_libm.txt")"
  return $rc
}

# the JSON without the fields that differ by design: version, fps, the backends object
strip_json() {
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
for k in ("version","fps","backends"): d.pop(k, None)
print(json.dumps(d, sort_keys=True))' "$1"
}

# The CLI on both backends (log, output folder, label, then the CLI's input and feature
# arguments), their JSON compared without the fields that name the backend: "same  <label>" or
# "DIFFERENT <label>" in the log; 1 when they differ.
both_backends() {
  local log=$1 out=$2 label=$3
  shift 3
  rm -f "$out/cpu.json" "$out/cuda.json"
  for b in cpu cuda; do
    "$cli" "$@" --backend "$b" --precision max --json -q -o "$out/$b.json" 2>>"$log"
  done
  if cmp -s <(strip_json "$out/cpu.json") <(strip_json "$out/cuda.json") &&
     grep -q '"backends"' "$out/cuda.json"; then
    echo "same  $label" >>"$log"
  else
    echo "DIFFERENT $label" >>"$log"
    return 1
  fi
}

step_backends() {
  local bad=0 runs=0 out=/tmp/ev-backends
  mkdir -p "$out"
  : >"$logs/backends.txt"
  while IFS=$'\t' read -r name ref dis w h chroma bpc frames _; do
    [ "$name" = name ] && continue
    for model in ${MODELS:-$("$cli" --list_models | awk 'NR > 1 { print $1 }')}; do
      runs=$((runs + 1))
      both_backends "$logs/backends.txt" "$out" "$name $model" -r "$corpus/$ref" \
        -d "$corpus/$dis" -w "$w" -h "$h" -p "$chroma" -b "$bpc" --model "version=$model" ||
        bad=$((bad + 1))
    done
  done <"$corpus/corpus.tsv"
  note "backends: $runs pair x model runs, $bad different"
  [ $bad -eq 0 ]
}

step_gray() {
  local out=/tmp/ev-gray bad=0 runs=0
  mkdir -p "$out"
  python3 - "$here/testdata" "$out" <<'PY' || return 1
import sys
src, out = sys.argv[1], sys.argv[2]
w, h = 576, 324
for name in ("ref", "dis"):
    header, body = open(f"{src}/sample_{name}.y4m", "rb").read().split(b"\n", 1)
    frames = body.split(b"FRAME\n")[1:]
    for tag, shift in ((b"mono", 0), (b"mono10", 2)):
        with open(f"{out}/{name}_{tag.decode()}.y4m", "wb") as f:
            f.write(header.replace(b" C420jpeg", b" C" + tag) + b"\n")
            for fr in frames:
                y = fr[:w * h]
                f.write(b"FRAME\n" + (y if not shift else
                        b"".join((v << shift).to_bytes(2, "little") for v in y)))
PY
  local sets=("--model version=vmaf_v0.6.1 --feature psnr --feature float_ssim --feature float_ms_ssim --feature float_psnr --feature float_moment"
              "--model version=vmaf_float_v0.6.1 --feature float_ansnr"
              "--feature cambi --feature speed_temporal")
  for tag in mono mono10; do
    for set in "${sets[@]}"; do
      runs=$((runs + 1))
      # shellcheck disable=SC2086
      both_backends "$logs/gray.txt" "$out" "$tag $set" -r "$out/ref_$tag.y4m" \
        -d "$out/dis_$tag.y4m" $set || bad=$((bad + 1))
    done
  done
  note "gray: $runs runs, $bad different"
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
  "$build/bench/bench_vmaf" --model vmaf_v1.0.16_3d0h 200 4 8 16 >"$logs/bench_v1.txt" 2>&1
  note "bench_vmaf v1: rc $?"; cat "$logs/bench_v1.txt"
  "$build/bench/bench_vmaf" --model other 200 >"$logs/bench_other.txt" 2>&1
  note "bench_vmaf other twins: rc $?"; cat "$logs/bench_other.txt"
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
