#!/usr/bin/env bash
# How fast the CLI is fed: frames per second of `exactvmaf` on raw files already in the page
# cache, against the rate at which `cat` reads the same two files, for psnr and for the
# default model, on BACKEND (default cuda).
#   bench/cli_feed.sh [build dir]
# Clips (made in $CLIPS, default /dev/shm/ev-feed, else /tmp/ev-feed, from the corpus's
# "aitzgorri" pair repeated; 3840x2160 is it enlarged 2x): 1920x1080 x FRAMES_1080 (1200) and
# 3840x2160 x FRAMES_2160 (300), 8-bit 4:2:0. Each figure is the best of RUNS (3) wall-clock
# runs of the whole program; THREADS (default: the CLI's default) for exactvmaf.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
corpus=${CORPUS:-${EV_SHARED_DIR:-$here/../shared}/corpus}
backend=${BACKEND:-cuda}
runs=${RUNS:-3}
if [ -z "${CLIPS:-}" ]; then
  CLIPS=/tmp/ev-feed
  [ -d /dev/shm ] && [ -w /dev/shm ] && CLIPS=/dev/shm/ev-feed
fi
mkdir -p "$CLIPS"
threads=()
[ -n "${THREADS:-}" ] && threads=(--threads "$THREADS")

now() { date +%s.%N; }
best_of() {  # command...: the fastest wall time of $runs runs
  local best=1e9 t0 t1
  for _ in $(seq "$runs"); do
    t0=$(now); "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; return 1; }; t1=$(now)
    best=$(awk -v a="$t0" -v b="$t1" -v m="$best" 'BEGIN { d = b - a; print (d < m ? d : m) }')
  done
  echo "$best"
}

echo "| size | frames | cat fps (both files) | psnr fps ($backend) | vmaf_v0.6.1 fps ($backend) | psnr / cat | vmaf / cat |"
echo "|---|---|---|---|---|---|---|"
for s in 1920x1080 3840x2160; do
  w=${s%x*}; h=${s#*x}
  case $s in 1920x1080) n=${FRAMES_1080:-1200}; k=1 ;; *) n=${FRAMES_2160:-300}; k=2 ;; esac
  ref=$CLIPS/ref_${s}_$n.yuv; dis=$CLIPS/dis_${s}_$n.yuv
  [ -s "$ref" ] || "$build/bench/bench_clip" "$corpus/aitzgorri_1920x1080_yuv420p_ref.yuv" 1920 1080 $k "$n" "$ref"
  [ -s "$dis" ] || "$build/bench/bench_clip" "$corpus/aitzgorri_1920x1080_yuv420p_x264crf30.yuv" 1920 1080 $k "$n" "$dis"
  cat "$ref" "$dis" >/dev/null   # into the page cache
  t_cat=$(best_of cat "$ref" "$dis")
  args=(-r "$ref" -d "$dis" -w "$w" -h "$h" -p 420 -b 8 --backend "$backend" "${threads[@]}" -q --json -o /dev/null)
  t_psnr=$(best_of "$build/exactvmaf" "${args[@]}" --feature psnr -n)
  t_vmaf=$(best_of "$build/exactvmaf" "${args[@]}")
  awk -v s="$s" -v n="$n" -v c="$t_cat" -v p="$t_psnr" -v v="$t_vmaf" 'BEGIN {
    printf "| %s | %d | %.1f | %.1f | %.1f | %.0f%% | %.0f%% |\n", s, n, n / c, n / p, n / v,
           100 * c / p, 100 * c / v }'
done
