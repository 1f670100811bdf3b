#!/usr/bin/env bash
# Many encodes against one reference: one run of exactvmaf -r REF -d E1 -d E2 -d E3 -d E4
# against four separate runs (one per encode), alternately, and whether each output of the one
# run equals its separate run (JSON, --precision max, version and fps aside). Wall time and CPU
# time (user + system of the processes: steadier on a shared machine), the least of the runs.
#   bench/multi_encodes.sh [build dir]
# Clips (made once in $CLIPS, default /tmp/ev-clips, from ../shared/corpus with bench_clip):
# the 1920x1080 "aitzgorri" reference (its 2 frames in a cycle) and four "encodes" of it, each
# as many frames: its x264crf30 encode (frames 0, 1, 0, 1...), that encode's frame 0 only, its
# frame 1 only, and the reference's frames in the other order (1, 0, 1, 0...).
# Environment: FRAMES (120), THREADS ("2": each a row; --threads T for every run), RUNS (3: the
# fastest of them), FEATURES ("" = the default model vmaf_v0.6.1; e.g. "-n --feature psnr").
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
ev=$build/exactvmaf
corpus=${EV_SHARED_DIR:-$here/../shared}/corpus
clips=${CLIPS:-/tmp/ev-clips}
frames=${FRAMES:-120}
runs=${RUNS:-3}
threads=${THREADS:-2}
features=${FEATURES:-}
mkdir -p "$clips"
src=aitzgorri_1920x1080_yuv420p
fsize=$((1920 * 1080 * 3 / 2))

make_clip() {  # name source.yuv
  [ -s "$clips/$1" ] || "$build/bench/bench_clip" "$2" 1920 1080 1 "$frames" "$clips/$1"
}
tmpsrc=$(mktemp -d)
trap 'rm -rf "$tmpsrc"' EXIT
head -c $fsize "$corpus/${src}_x264crf30.yuv" >"$tmpsrc/enc_f0.yuv"
tail -c +$((fsize + 1)) "$corpus/${src}_x264crf30.yuv" >"$tmpsrc/enc_f1.yuv"
{ tail -c +$((fsize + 1)) "$corpus/${src}_ref.yuv"; head -c $fsize "$corpus/${src}_ref.yuv"; } \
  >"$tmpsrc/ref_swapped.yuv"
make_clip "multi_ref_$frames.yuv" "$corpus/${src}_ref.yuv"
make_clip "multi_e1_$frames.yuv" "$corpus/${src}_x264crf30.yuv"
make_clip "multi_e2_$frames.yuv" "$tmpsrc/enc_f0.yuv"
make_clip "multi_e3_$frames.yuv" "$tmpsrc/enc_f1.yuv"
make_clip "multi_e4_$frames.yuv" "$tmpsrc/ref_swapped.yuv"
ref=$clips/multi_ref_$frames.yuv
encs=(e1 e2 e3 e4)
raw=(-w 1920 -h 1080 -p 420 -b 8)
out=$clips/multi_out
mkdir -p "$out"

min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a < b ? a : b) }'; }
values() { grep -v -E '"(version|fps)"' "$1"; }
# timed COMMAND...: "wall cpu" seconds of the command (cpu = user + system of its processes)
timed() {
  local TIMEFORMAT='%R %U %S'
  { time "$@" >/dev/null 2>&1; } 2>&1 | awk '{ printf "%s %.3f\n", $1, $2 + $3 }'
}
separate() {  # threads
  for e in "${encs[@]}"; do
    # shellcheck disable=SC2086
    "$ev" -r "$ref" -d "$clips/multi_${e}_$frames.yuv" "${raw[@]}" --threads "$1" -q \
      --backend cpu $features --json --precision max -o "$out/single_multi_${e}_$frames.json"
  done
}
together() {  # threads
  local dargs=()
  for e in "${encs[@]}"; do dargs+=(-d "$clips/multi_${e}_$frames.yuv"); done
  # shellcheck disable=SC2086
  "$ev" -r "$ref" "${dargs[@]}" "${raw[@]}" --threads "$1" -q --backend cpu $features \
    --json --precision max -o "$out/"
}

echo "| threads | frames | 4 separate runs (s) | one run, 4 encodes (s) | saving | CPU s, 4 runs | CPU s, one run | CPU saving | outputs equal |"
echo "|---|---|---|---|---|---|---|---|---|"
for t in $threads; do
  best_sep=1e9; best_multi=1e9; cpu_sep=1e9; cpu_multi=1e9
  for r in $(seq "$runs"); do
    read -r wall used < <(timed separate "$t")
    best_sep=$(min "$wall" "$best_sep"); cpu_sep=$(min "$used" "$cpu_sep")
    read -r wall used < <(timed together "$t")
    best_multi=$(min "$wall" "$best_multi"); cpu_multi=$(min "$used" "$cpu_multi")
  done
  same=yes
  for e in "${encs[@]}"; do
    cmp -s <(values "$out/single_multi_${e}_$frames.json") <(values "$out/multi_${e}_$frames.json") ||
      same=no
  done
  awk -v t="$t" -v n="$frames" -v a="$best_sep" -v b="$best_multi" -v same="$same" \
    -v ca="$cpu_sep" -v cb="$cpu_multi" 'BEGIN { printf "| %s | %s | %.2f | %.2f | %.1f%% | %.2f | %.2f | %.1f%% | %s |\n",
      t, n, a, b, 100 * (a - b) / a, ca, cb, 100 * (ca - cb) / ca, same }'
done
