#!/usr/bin/env bash
# Encoded input, whole processes (docs/INPUT.md): one reference/distorted pair of encodes, each
# route alternating with the others, RUNS rounds (default 2), one table of the fastest run of
# each with fps and CPU seconds:
#   - the decoders' own rate for the pair: ffmpeg decoding both to null, software (its default
#     threads) and, where CUDA is there, NVDEC with the frames left on the device, and the two
#     together (NVDEC one stream, the CPU the other: the issue's "both together" bound);
#   - exactvmaf on the encodes: --backend cpu; and with a GPU: --backend cuda with software
#     decoding, --backend cuda with NVDEC, with NVDEC on one stream and the CPU on the other
#     (--decoder nvdec,cpu and cpu,nvdec), and the automatic choice;
#   - the path users take today: ffmpeg -> y4m pipes -> Netflix vmaf --threads <cores>, when
#     NETFLIX_VMAF is set; and the same pipes into exactvmaf.
# Every exactvmaf route's JSON values must equal the first's (checked, "same" column).
#   FFMPEG=ffmpeg [NETFLIX_VMAF=.../vmaf] bench/encoded_input.sh EXACTVMAF REF DIS [FRAMES]
# FRAMES (for fps) defaults to the count exactvmaf scores. MODEL (default vmaf_v0.6.1).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ev=$1 ref=$2 dis=$3
frames=${4:-}
ff=${FFMPEG:-ffmpeg}
nf=${NETFLIX_VMAF:-}
runs=${RUNS:-2}
model=${MODEL:-vmaf_v0.6.1}
cores=$(nproc)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gpu=0
grep -Eq "cuda \([1-9][0-9]* device" <<<"$("$ev" --version)" && gpu=1

. "$here/routes.sh" # route NAME CMD...: the fastest run of each
pipes() { # CMD...: CMD -r R.y4m -d D.y4m, both fed by ffmpeg through named pipes
  rm -f "$tmp/r.y4m" "$tmp/d.y4m"
  mkfifo "$tmp/r.y4m" "$tmp/d.y4m"
  "$ff" -nostdin -v error -i "$ref" -strict -1 -f yuv4mpegpipe -y "$tmp/r.y4m" &
  local a=$!
  "$ff" -nostdin -v error -i "$dis" -strict -1 -f yuv4mpegpipe -y "$tmp/d.y4m" &
  local b=$!
  "$@" -r "$tmp/r.y4m" -d "$tmp/d.y4m"
  local rc=$?
  wait $a $b
  return $rc
}
export -f pipes
export ff ref dis tmp

json=()
for ((k = 0; k < runs; k++)); do
  route "ffmpeg decoding both, software" "$ff" -nostdin -v error -i "$ref" -i "$dis" -map 0:v -map 1:v -f null -
  ((gpu)) && route "ffmpeg decoding both, NVDEC (frames on the device)" "$ff" -nostdin -v error \
    -hwaccel cuda -hwaccel_output_format cuda -i "$ref" -hwaccel cuda -hwaccel_output_format cuda \
    -i "$dis" -map 0:v -map 1:v -f null -
  # both together: NVDEC decodes one stream while the CPU decodes the other
  ((gpu)) && route "ffmpeg decoding both, NVDEC the reference, software the distorted" "$ff" \
    -nostdin -v error -hwaccel cuda -hwaccel_output_format cuda -i "$ref" -i "$dis" \
    -map 0:v -map 1:v -f null -
  ((gpu)) && route "ffmpeg decoding both, software the reference, NVDEC the distorted" "$ff" \
    -nostdin -v error -i "$ref" -hwaccel cuda -hwaccel_output_format cuda -i "$dis" \
    -map 0:v -map 1:v -f null -
  route "exactvmaf --backend cpu" "$ev" -q -r "$ref" -d "$dis" --model version=$model --backend cpu \
    --decoder cpu --json --precision max -o "$tmp/cpu.json"
  if ((gpu)); then
    route "exactvmaf --backend cuda --decoder cpu" "$ev" -q -r "$ref" -d "$dis" --model version=$model \
      --backend cuda --decoder cpu --json --precision max -o "$tmp/cuda_cpu.json"
    route "exactvmaf --backend cuda --decoder nvdec" "$ev" -q -r "$ref" -d "$dis" --model version=$model \
      --backend cuda --decoder nvdec --json --precision max -o "$tmp/cuda_nvdec.json"
    for sides in nvdec,cpu cpu,nvdec; do # both together: one stream each
      route "exactvmaf --backend cuda --decoder $sides" "$ev" -q -r "$ref" -d "$dis" \
        --model version=$model --backend cuda --decoder $sides --json --precision max \
        -o "$tmp/cuda_${sides/,/_}.json"
    done
    route "exactvmaf (automatic)" "$ev" -q -r "$ref" -d "$dis" --model version=$model --json \
      --precision max -o "$tmp/auto.json"
  fi
  route "ffmpeg -> y4m pipes -> exactvmaf" bash -c 'pipes "$@"' _ "$ev" -q --model version=$model \
    --json --precision max -o "$tmp/pipes.json"
  [ -n "$nf" ] && route "ffmpeg -> y4m pipes -> Netflix vmaf --threads $cores" bash -c 'pipes "$@"' _ \
    "$nf" -q --model version=$model --threads "$cores" --json -o "$tmp/netflix.json"
done

values() {
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
for k in ("fps", "version", "backends"): d.pop(k, None)
print(json.dumps(d, sort_keys=True))' "$1" 2>/dev/null
}
[ -n "$frames" ] || frames=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["frames"]))' "$tmp/cpu.json")
echo "$(basename "$ref") / $(basename "$dis"), $frames frames, $model, $cores cores, fastest of $runs"
echo
echo "| route | fps | wall s | CPU s | values = --backend cpu |"
echo "|---|---|---|---|---|"
for name in "${names[@]}"; do
  [ -n "${best[$name]:-}" ] || { echo "| $name | failed | | | |"; continue; }
  same=""
  case $name in
    "exactvmaf --backend cuda --decoder cpu") f=cuda_cpu ;;
    "exactvmaf --backend cuda --decoder nvdec") f=cuda_nvdec ;;
    "exactvmaf --backend cuda --decoder nvdec,cpu") f=cuda_nvdec_cpu ;;
    "exactvmaf --backend cuda --decoder cpu,nvdec") f=cuda_cpu_nvdec ;;
    "exactvmaf (automatic)") f=auto ;;
    "ffmpeg -> y4m pipes -> exactvmaf") f=pipes ;;
    *) f="" ;;
  esac
  if [ -n "$f" ]; then
    cmp -s <(values "$tmp/cpu.json") <(values "$tmp/$f.json") && same=yes || same=NO
  fi
  python3 -c 'import sys; n,w,c,name,same=sys.argv[1:]; print("| %s | %.1f | %.2f | %.1f | %s |" % (name, int(n)/float(w), float(w), float(c), same))' \
    "$frames" "${best[$name]}" "${cpu[$name]}" "$name" "$same"
done
if [ -n "$nf" ] && [ -s "$tmp/netflix.json" ]; then
  python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))["pooled_metrics"]["vmaf"]["mean"]; b=json.load(open(sys.argv[2]))["pooled_metrics"]["vmaf"]["mean"]; print("\nvmaf mean: exactvmaf %.17g, Netflix %.6f" % (a, b))' "$tmp/cpu.json" "$tmp/netflix.json"
fi
