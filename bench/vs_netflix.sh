#!/usr/bin/env bash
# exactvmaf's CLI against Netflix's vmaf CLI on the same clips, run alternately, one table.
#   NETFLIX_VMAF=/path/to/vmaf bench/vs_netflix.sh [build dir]
# Netflix f85a8536 (its default build: AVX2/AVX-512 kernels at run time) is built by
#   ../shared/anchors/build-netflix.sh DEST   (then NETFLIX_VMAF=DEST/libvmaf/build/tools/vmaf)
# Clips (made once in $CLIPS, default /tmp/ev-clips, from ../shared/corpus): 576x324 (the
# "life" pair), 1920x1080 (the "aitzgorri" pair) and 3840x2160 (it, enlarged 2x). Each row:
# the default model vmaf_v0.6.1, --threads T for both, the fastest of $RUNS runs (default 3),
# fps of both, their ratio, and whether the two JSON outputs hold the same values.
# Environment: SIZES ("576x324 1920x1080 3840x2160"), THREADS ("1 2 <cores>"), FRAMES_576
# (300), FRAMES_1080 (120), FRAMES_2160 (40), FEATURES ("" = the model; e.g. "--feature psnr -n").
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
ev=$build/exactvmaf
nf=${NETFLIX_VMAF:?set NETFLIX_VMAF to Netflix vmaf CLI (see the header of this script)}
corpus=${EV_SHARED_DIR:-$here/../shared}/corpus
clips=${CLIPS:-/tmp/ev-clips}
runs=${RUNS:-3}
sizes=${SIZES:-576x324 1920x1080 3840x2160}
threads=$(echo ${THREADS:-1 2 $(nproc)} | tr ' ' '\n' | awk '!seen[$0]++' | tr '\n' ' ')
features=${FEATURES:-}
mkdir -p "$clips"

make_clip() {  # name src w h scale frames
  [ -s "$clips/$1" ] || "$build/bench/bench_clip" "$corpus/$2" "$3" "$4" "$5" "$6" "$clips/$1"
}
for s in $sizes; do
  case $s in
    576x324) n=${FRAMES_576:-300}; src=life_576x324_yuv420p; dis=x264crf23; sw=576; sh=324; k=1 ;;
    1920x1080) n=${FRAMES_1080:-120}; src=aitzgorri_1920x1080_yuv420p; dis=x264crf30; sw=1920; sh=1080; k=1 ;;
    3840x2160) n=${FRAMES_2160:-40}; src=aitzgorri_1920x1080_yuv420p; dis=x264crf30; sw=1920; sh=1080; k=2 ;;
    *) echo "unknown size $s" >&2; exit 2 ;;
  esac
  make_clip "ref_${s}_${n}.yuv" "${src}_ref.yuv" $sw $sh $k "$n"
  make_clip "dis_${s}_${n}.yuv" "${src}_${dis}.yuv" $sw $sh $k "$n"
done

now() { date +%s.%N; }
# run one CLI; prints seconds
timed() {
  local t0 t1
  t0=$(now)
  "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
  t1=$(now)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }'
}
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a < b ? a : b) }'; }
# the values of a JSON output, without the fields that differ by design (version, fps)
values() { grep -v -E '"(version|fps)"' "$1"; }

echo "| size | threads | frames | Netflix fps | exactvmaf fps | exactvmaf / Netflix | values equal |"
echo "|---|---|---|---|---|---|---|"
for s in $sizes; do
  w=${s%x*}; h=${s#*x}
  case $s in 576x324) n=${FRAMES_576:-300};; 1920x1080) n=${FRAMES_1080:-120};; *) n=${FRAMES_2160:-40};; esac
  ref=$clips/ref_${s}_${n}.yuv; dis=$clips/dis_${s}_${n}.yuv
  for t in $threads; do
    best_nf=1e9; best_ev=1e9
    for r in $(seq "$runs"); do
      # shellcheck disable=SC2086
      a=$(timed "$nf" -r "$ref" -d "$dis" -w "$w" -h "$h" -p 420 -b 8 --threads "$t" -q $features --json -o "$clips/nf.json")
      # shellcheck disable=SC2086
      b=$(timed "$ev" -r "$ref" -d "$dis" -w "$w" -h "$h" -p 420 -b 8 --threads "$t" -q --backend cpu $features --json -o "$clips/ev.json")
      best_nf=$(min "$a" "$best_nf")
      best_ev=$(min "$b" "$best_ev")
    done
    same=no
    cmp -s <(values "$clips/nf.json") <(values "$clips/ev.json") && same=yes
    awk -v s="$s" -v t="$t" -v n="$n" -v a="$best_nf" -v b="$best_ev" -v same="$same" \
      'BEGIN { printf "| %s | %s | %s | %.1f | %.1f | %.2fx | %s |\n", s, t, n, n / a, n / b, a / b, same }'
  done
done
