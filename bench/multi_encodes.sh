#!/usr/bin/env bash
# Many encodes against one reference: one run of exactvmaf -r REF -d E1 -d E2 -d E3 -d E4
# against four separate runs (one per encode), alternately, and whether each output of the one
# run equals its separate run (JSON, --precision max, version and fps aside).
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

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.6f", b - a }'; }
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a < b ? a : b) }'; }
values() { grep -v -E '"(version|fps)"' "$1"; }

echo "| threads | frames | 4 separate runs (s) | one run, 4 encodes (s) | saving | outputs equal |"
echo "|---|---|---|---|---|---|"
for t in $threads; do
  best_sep=1e9; best_multi=1e9
  for r in $(seq "$runs"); do
    t0=$(now)
    for e in "${encs[@]}"; do
      # shellcheck disable=SC2086
      "$ev" -r "$ref" -d "$clips/multi_${e}_$frames.yuv" "${raw[@]}" --threads "$t" -q \
        --backend cpu $features --json --precision max -o "$out/single_multi_${e}_$frames.json"
    done
    best_sep=$(min "$(since "$t0")" "$best_sep")
    dargs=()
    for e in "${encs[@]}"; do dargs+=(-d "$clips/multi_${e}_$frames.yuv"); done
    t0=$(now)
    # shellcheck disable=SC2086
    "$ev" -r "$ref" "${dargs[@]}" "${raw[@]}" --threads "$t" -q --backend cpu $features \
      --json --precision max -o "$out/"
    best_multi=$(min "$(since "$t0")" "$best_multi")
  done
  same=yes
  for e in "${encs[@]}"; do
    cmp -s <(values "$out/single_multi_${e}_$frames.json") <(values "$out/multi_${e}_$frames.json") ||
      same=no
  done
  awk -v t="$t" -v n="$frames" -v a="$best_sep" -v b="$best_multi" -v same="$same" \
    'BEGIN { printf "| %s | %s | %.2f | %.2f | %.1f%% | %s |\n", t, n, a, b, 100 * (a - b) / a, same }'
done
