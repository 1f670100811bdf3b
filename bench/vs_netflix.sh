#!/usr/bin/env bash
# exactvmaf's CLI against Netflix's vmaf CLI on the same clips, run alternately, one table.
#   NETFLIX_VMAF=/path/to/vmaf bench/vs_netflix.sh [build dir]
# Netflix f85a8536 (its default build: AVX2/AVX-512 kernels at run time) is built by
#   ../shared/anchors/build-netflix.sh DEST   (then NETFLIX_VMAF=DEST/libvmaf/build/tools/vmaf)
# Clips (made once in $CLIPS, default /tmp/ev-clips, from ../shared/corpus): 576x324 (the
# "life" pair), 1920x1080 (the "aitzgorri" pair) and 3840x2160 (it, enlarged 2x); deeper than
# 8 bits, the same samples shifted up (bench_clip). Each row: one model, one size, one depth,
# --threads T for both programs, alternating, the fastest of $RUNS runs (default 3) with its
# fps, the ratio, the peak resident memory of each (the largest of the runs) and whether the
# two JSON outputs hold the same values.
# Environment: MODELS ("vmaf_v0.6.1"; built-in versions, loaded by both from model/*.json),
# SIZES ("576x324 1920x1080 3840x2160"), BITS ("8"; e.g. "8 10"), THREADS ("1 2 <cores>"),
# FRAMES_576 (300), FRAMES_1080 (120), FRAMES_2160 (40), FEATURES ("" = the model only; e.g.
# "--feature psnr"), BEFORE (another exactvmaf CLI, e.g. an earlier build: a third column,
# alternating with the two), EV_ARGS (more exactvmaf arguments, e.g. "--cpumask 48"), NF_ARGS
# (more Netflix arguments: "--cpumask 48" makes both run their AVX2 kernels on an AVX-512 CPU).
# Needs python3 (time and peak memory of each run).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
ev=$build/exactvmaf
nf=${NETFLIX_VMAF:?set NETFLIX_VMAF to Netflix vmaf CLI (see the header of this script)}
before=${BEFORE:-}
corpus=${EV_SHARED_DIR:-$here/../shared}/corpus
clips=${CLIPS:-/tmp/ev-clips}
runs=${RUNS:-3}
models=${MODELS:-vmaf_v0.6.1}
sizes=${SIZES:-576x324 1920x1080 3840x2160}
depths=${BITS:-8}
threads=$(echo ${THREADS:-1 2 $(nproc)} | tr ' ' '\n' | awk '!seen[$0]++' | tr '\n' ' ')
features=${FEATURES:-}
ev_args=${EV_ARGS:-}
nf_args=${NF_ARGS:-}
mkdir -p "$clips"

frames_of() {
  case $1 in 576x324) echo "${FRAMES_576:-300}" ;; 1920x1080) echo "${FRAMES_1080:-120}" ;;
    3840x2160) echo "${FRAMES_2160:-40}" ;; *) echo "unknown size $1" >&2; exit 2 ;; esac
}
make_clip() {  # name src w h scale frames bits
  [ -s "$clips/$1" ] || "$build/bench/bench_clip" "$corpus/$2" "$3" "$4" "$5" "$6" "$clips/$1" "$7"
}
for s in $sizes; do
  n=$(frames_of "$s")
  case $s in
    576x324) src=life_576x324_yuv420p; dis=x264crf23; sw=576; sh=324; k=1 ;;
    1920x1080) src=aitzgorri_1920x1080_yuv420p; dis=x264crf30; sw=1920; sh=1080; k=1 ;;
    3840x2160) src=aitzgorri_1920x1080_yuv420p; dis=x264crf30; sw=1920; sh=1080; k=2 ;;
  esac
  for b in $depths; do
    make_clip "ref_${s}_${n}_${b}.yuv" "${src}_ref.yuv" $sw $sh $k "$n" "$b"
    make_clip "dis_${s}_${n}_${b}.yuv" "${src}_${dis}.yuv" $sw $sh $k "$n" "$b"
  done
done

# run one CLI; prints "seconds peak_kB"
measure() { python3 "$here/bench/measure.py" "$@" | awk '{ print $1, $3 }'; }
# the values of a JSON output, without the fields that differ by design (version, fps)
values() { grep -v -E '"(version|fps)"' "$1"; }

head="| model | size | bits | threads | frames | Netflix fps | exactvmaf fps | exactvmaf / Netflix |"
rule="|---|---|---|---|---|---|---|---|"
[ -n "$before" ] && { head="$head before fps | after / before |"; rule="$rule---|---|"; }
echo "$head Netflix MB | exactvmaf MB | values equal |"
echo "$rule---|---|---|"
for m in $models; do
  model=$here/model/$m.json
  for s in $sizes; do
    w=${s%x*}; h=${s#*x}; n=$(frames_of "$s")
    for b in $depths; do
      ref=$clips/ref_${s}_${n}_${b}.yuv; dis=$clips/dis_${s}_${n}_${b}.yuv
      common=(-r "$ref" -d "$dis" -w "$w" -h "$h" -p 420 -b "$b" -q --model "path=$model" --json)
      for t in $threads; do
        tn=1e9; te=1e9; tb=1e9; mn=0; me=0
        for r in $(seq "$runs"); do
          # shellcheck disable=SC2086
          read -r a ka < <(measure "$nf" "${common[@]}" --threads "$t" $features $nf_args -o "$clips/nf.json")
          # shellcheck disable=SC2086
          read -r e ke < <(measure "$ev" "${common[@]}" --threads "$t" --backend cpu $features $ev_args -o "$clips/ev.json")
          if [ -n "$before" ]; then
            # shellcheck disable=SC2086
            read -r x _ < <(measure "$before" "${common[@]}" --threads "$t" --backend cpu $features $ev_args -o "$clips/before.json")
            tb=$(awk -v a="$x" -v b="$tb" 'BEGIN { print (a < b ? a : b) }')
          fi
          tn=$(awk -v a="$a" -v b="$tn" 'BEGIN { print (a < b ? a : b) }')
          te=$(awk -v a="$e" -v b="$te" 'BEGIN { print (a < b ? a : b) }')
          mn=$(( ka > mn ? ka : mn )); me=$(( ke > me ? ke : me ))
        done
        same=no
        cmp -s <(values "$clips/nf.json") <(values "$clips/ev.json") && same=yes
        awk -v m="$m" -v s="$s" -v bits="$b" -v t="$t" -v n="$n" -v a="$tn" -v e="$te" -v x="$tb" \
          -v hb="${before:+1}" -v mn="$mn" -v me="$me" -v same="$same" 'BEGIN {
            printf "| %s | %s | %s | %s | %s | %.1f | %.1f | %.2fx |", m, s, bits, t, n, n / a, n / e, a / e
            if (hb) printf " %.1f | %.2fx |", n / x, x / e
            printf " %.0f | %.0f | %s |\n", mn / 1024, me / 1024, same }'
      done
    done
  done
done
