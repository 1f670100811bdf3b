#!/usr/bin/env bash
# One encoded pair decoded in segments (--decode_sessions, docs/INPUT.md), whole processes: the
# decoders' own rate for the pair (ffmpeg to null: software, and NVDEC with the frames left on
# the device) beside exactvmaf's automatic route (NVDEC, the CUDA backend) with 1 to 4 decoders a
# stream, and the CUDA backend fed by libavcodec's threads. RUNS rounds (default 2), the order
# reversed every other round; every run's rate is printed. Every exactvmaf row's JSON values
# must equal those of one decoder a stream ("same" column).
#   FFMPEG=ffmpeg bench/segments.sh EXACTVMAF REF DIS
# SESSIONS (default "1 2 3 4"), MODEL (default vmaf_v0.6.1).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ev=$1 ref=$2 dis=$3
ff=${FFMPEG:-ffmpeg}
runs=${RUNS:-2}
model=${MODEL:-vmaf_v0.6.1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rows=("ffmpeg decoding both, software" "ffmpeg decoding both, NVDEC")
for n in ${SESSIONS:-1 2 3 4}; do rows+=("exactvmaf, NVDEC, $n decoders a stream"); done
rows+=("exactvmaf (automatic)" "exactvmaf --decoder cpu")
declare -A rate
run_row() { # NAME: one run, its fps appended to rate[NAME]
  local name=$1 json=""
  local cmd=()
  case $name in
    "ffmpeg decoding both, software")
      cmd=("$ff" -nostdin -v error -i "$ref" -i "$dis" -map 0:v -map 1:v -f null -) ;;
    "ffmpeg decoding both, NVDEC")
      cmd=("$ff" -nostdin -v error -hwaccel cuda -hwaccel_output_format cuda -i "$ref"
        -hwaccel cuda -hwaccel_output_format cuda -i "$dis" -map 0:v -map 1:v -f null -) ;;
    "exactvmaf, NVDEC, "*)
      local n=${name#exactvmaf, NVDEC, }
      n=${n%% *}
      json=$tmp/s$n.json
      cmd=("$ev" -q -r "$ref" -d "$dis" --model version=$model --backend cuda --decoder nvdec
        --decode_sessions "$n" --json --precision max -o "$json") ;;
    "exactvmaf (automatic)")
      json=$tmp/auto.json
      cmd=("$ev" -q -r "$ref" -d "$dis" --model version=$model --json --precision max -o "$json") ;;
    "exactvmaf --decoder cpu")
      json=$tmp/cpu.json
      cmd=("$ev" -q -r "$ref" -d "$dis" --model version=$model --backend cuda --decoder cpu --json
        --precision max -o "$json") ;;
  esac
  local m
  if ! m=$(python3 "$here/measure.py" "${cmd[@]}"); then
    echo "$name: $m" >&2
    rate[$name]+="failed "
    return
  fi
  read -r wall _ <<<"$m"
  rate[$name]+="$(python3 -c "print('%.1f' % ($frames / $wall))") "
}
values() {
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
for k in ("fps", "version", "backends"): d.pop(k, None)
print(json.dumps(d, sort_keys=True))' "$1" 2>/dev/null
}
"$ev" -q -r "$ref" -d "$dis" --model version=$model --backend cuda --decoder nvdec \
  --decode_sessions 1 --json --precision max -o "$tmp/one.json" || exit 1
frames=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["frames"]))' "$tmp/one.json")
for ((k = 0; k < runs; k++)); do
  order=("${rows[@]}")
  if ((k % 2)); then
    order=()
    for ((i = ${#rows[@]} - 1; i >= 0; i--)); do order+=("${rows[$i]}"); done
  fi
  for name in "${order[@]}"; do run_row "$name"; done
done
echo "$(basename "$ref") / $(basename "$dis"), $frames frames, $model, $(nproc) cores, $runs rounds"
echo
echo "| route | fps, each round | values = one decoder's |"
echo "|---|---|---|"
for name in "${rows[@]}"; do
  f=""
  case $name in
    "exactvmaf, NVDEC, "*) f=${name#exactvmaf, NVDEC, }; f=$tmp/s${f%% *}.json ;;
    "exactvmaf (automatic)") f=$tmp/auto.json ;;
    "exactvmaf --decoder cpu") f=$tmp/cpu.json ;;
  esac
  same=""
  [ -n "$f" ] && { cmp -s <(values "$tmp/one.json") <(values "$f") && same=yes || same=NO; }
  echo "| $name | ${rate[$name]% } | $same |"
done
python3 -c 'import json,sys; print("\nvmaf mean: %.17g" % json.load(open(sys.argv[1]))["pooled_metrics"]["vmaf"]["mean"])' "$tmp/one.json"
