#!/usr/bin/env bash
# Where scaling stops: each stage of a model alone, at each thread count, through the CLI.
#   bench/stages.sh [build dir]       (clips from bench/vs_netflix.sh, in $CLIPS)
# Each row: one stage (an extractor alone with -n, or the whole model), --threads T, fps (the
# fastest of $RUNS, default 2) and the CPU use: user + system seconds over wall seconds, so
# "15.2 of 16" means the threads were busy and "4.1 of 16" that they waited (for the reader,
# an ordered stage, a lock). A stage whose fps stays flat as T grows is a serial bound.
# Environment: SIZE (1920x1080), FRAMES (120), BITS (8), THREADS ("1 4 8 12 16"), STAGES
# ("psnr motion vif adm cambi speed_chroma model:vmaf_v0.6.1 model:vmaf_v1.0.16_3d0h").
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
clips=${CLIPS:-/tmp/ev-clips}
size=${SIZE:-1920x1080}; w=${size%x*}; h=${size#*x}
frames=${FRAMES:-120}; bits=${BITS:-8}; runs=${RUNS:-2}
ref=$clips/ref_${size}_${frames}_${bits}.yuv; dis=$clips/dis_${size}_${frames}_${bits}.yuv
[ -s "$ref" ] || { echo "no clip $ref: make it with bench/vs_netflix.sh first" >&2; exit 2; }

# "seconds cpu_seconds" of one run
measure() { python3 "$here/bench/measure.py" "$@" | awk '{ print $1, $2 }'; }

echo "| stage | size | threads | fps | CPU busy (of threads) |"
echo "|---|---|---|---|---|"
for st in ${STAGES:-psnr motion vif adm cambi speed_chroma model:vmaf_v0.6.1 model:vmaf_v1.0.16_3d0h}; do
  case $st in
    model:*) what=(--model "path=$here/model/${st#model:}.json") ;;
    *) what=(--feature "$st" -n) ;;
  esac
  for t in ${THREADS:-1 4 8 12 16}; do
    best=1e9; cpu=0
    for r in $(seq "$runs"); do
      read -r s c < <(measure "$build/exactvmaf" -r "$ref" -d "$dis" -w "$w" -h "$h" -p 420 \
        -b "$bits" -q --backend cpu --threads "$t" "${what[@]}" --json -o /dev/null)
      if awk -v a="$s" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$s; cpu=$c; fi
    done
    awk -v st="$st" -v sz="$size" -v t="$t" -v n="$frames" -v s="$best" -v c="$cpu" \
      'BEGIN { printf "| %s | %s | %s | %.1f | %.1f of %s |\n", st, sz, t, n / s, c / s, t }'
  done
done
