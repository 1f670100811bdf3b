#!/usr/bin/env bash
# A ladder (issue 24): one reference and several encodes, each scaled to the reference's size,
# whole processes, every route alternating with the others, RUNS rounds (default 1), the
# fastest run of each:
#   - the decoders' own aggregate rate: one ffmpeg decoding every stream at once to null, with
#     NVDEC (frames left on the device) and in software (its default threads);
#   - exactvmaf -r REF -d E1 ... -d En in one run: --backend cuda with NVDEC (frames kept and
#     scaled on the device), --backend cuda with software decoding, and the automatic choice;
#     each output's values must equal the software-decoding run's (libswscale on the host);
#   - the path users take today: for each encode, ffmpeg -> y4m pipes (scale=W:H:flags=bicubic)
#     -> Netflix vmaf --threads <cores>, one after the other, when NETFLIX_VMAF is set.
# "scored fps" is encodes x frames / wall; the decoders' row is the same count over their wall
# (the bound that decoding every stream once puts on the ladder).
#   FFMPEG=ffmpeg [NETFLIX_VMAF=.../vmaf] bench/ladder.sh EXACTVMAF FRAMES REF ENC...
# MODEL (default vmaf_v0.6.1); SCORE: exactvmaf's scoring arguments instead of the model's
# (e.g. "-n --feature psnr": the input path's own bound; the Netflix row then keeps MODEL).
# FRAMES: the frames scored of each (--frame_cnt / -frames:v). SPLIT: a --decoder list (cpu or
# nvdec for the reference, then each encode: NVDEC's engines and the CPU together) for two more
# rows, ffmpeg decoding so and exactvmaf --decoder SPLIT.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ev=$1 frames=$2 ref=$3
shift 3
encs=("$@")
ff=${FFMPEG:-ffmpeg}
nf=${NETFLIX_VMAF:-}
runs=${RUNS:-1}
model=${MODEL:-vmaf_v0.6.1}
read -r -a score <<<"${SCORE:---model version=$model}"
cores=$(nproc)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
size=$("$ff" -hide_banner -i "$ref" 2>&1 | grep -m1 -oE ' [0-9]{2,5}x[0-9]{2,5}' | tr -d ' ')
n=${#encs[@]}

. "$here/routes.sh" # route NAME CMD...: the fastest run of each
netflix_one_by_one() { # ENC...: the pipes runs, one after the other
  for e in "$@"; do
    rm -f "$tmp/r.y4m" "$tmp/d.y4m"
    mkfifo "$tmp/r.y4m" "$tmp/d.y4m"
    "$ff" -nostdin -v error -i "$ref" -frames:v "$frames" -strict -1 -f yuv4mpegpipe -y "$tmp/r.y4m" &
    "$ff" -nostdin -v error -i "$e" -frames:v "$frames" -vf "scale=${size/x/:}:flags=bicubic" \
      -strict -1 -f yuv4mpegpipe -y "$tmp/d.y4m" &
    "$nf" -q -r "$tmp/r.y4m" -d "$tmp/d.y4m" --model version=$model --threads "$cores" \
      --json -o "$tmp/nf_$(basename "$e").json" >/dev/null || return 1
    wait
  done
}
export -f netflix_one_by_one
export ff ref frames size nf model cores tmp
dis_args=()
for e in "${encs[@]}"; do dis_args+=(-d "$e"); done
nvdec_in=()
for f in "$ref" "${encs[@]}"; do nvdec_in+=(-hwaccel cuda -hwaccel_output_format cuda -i "$f"); done
sw_in=()
for f in "$ref" "${encs[@]}"; do sw_in+=(-i "$f"); done
split=${SPLIT:-}
split_in=()
if [ -n "$split" ]; then # each stream where SPLIT says (its last word repeating)
  IFS=, read -r -a words <<<"$split"
  k=0
  for f in "$ref" "${encs[@]}"; do
    w=${words[$((k < ${#words[@]} ? k : ${#words[@]} - 1))]}
    [ "$w" = nvdec ] && split_in+=(-hwaccel cuda -hwaccel_output_format cuda)
    split_in+=(-i "$f")
    k=$((k + 1))
  done
fi
maps=()
for ((k = 0; k <= n; k++)); do maps+=(-map "$k:v"); done
for ((k = 0; k < runs; k++)); do
  route "ffmpeg decoding every stream, NVDEC (frames on the device)" "$ff" -nostdin -v error \
    "${nvdec_in[@]}" "${maps[@]}" -frames:v "$frames" -f null -
  route "ffmpeg decoding every stream, software" "$ff" -nostdin -v error "${sw_in[@]}" "${maps[@]}" \
    -frames:v "$frames" -f null -
  [ -n "$split" ] && route "ffmpeg decoding every stream, NVDEC and software ($split)" "$ff" \
    -nostdin -v error "${split_in[@]}" "${maps[@]}" -frames:v "$frames" -f null -
  for r in nvdec cpu ${split:+split}; do
    mkdir -p "$tmp/$r"
    if [ $r = split ]; then
      route "exactvmaf, one run, --backend cuda --decoder $split" "$ev" -q -r "$ref" \
        "${dis_args[@]}" --frame_cnt "$frames" "${score[@]}" --backend cuda --decoder "$split" \
        --json --precision max -o "$tmp/$r/"
      continue
    fi
    route "exactvmaf, one run, --backend cuda --decoder $r" "$ev" -q -r "$ref" "${dis_args[@]}" \
      --frame_cnt "$frames" "${score[@]}" --backend cuda --decoder $r --json \
      --precision max -o "$tmp/$r/"
  done
  mkdir -p "$tmp/auto"
  route "exactvmaf, one run (automatic)" "$ev" -q -r "$ref" "${dis_args[@]}" --frame_cnt "$frames" \
    "${score[@]}" --json --precision max -o "$tmp/auto/"
  [ -n "$nf" ] && route "ffmpeg -> y4m pipes -> Netflix vmaf --threads $cores, $n runs" \
    bash -c 'netflix_one_by_one "$@"' _ "${encs[@]}"
done

values() {
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
for k in ("fps", "version", "backends"): d.pop(k, None)
print(json.dumps(d, sort_keys=True))' "$1" 2>/dev/null
}
# every encode must be scored on FRAMES pairs, or the rates above are not per scored pair
for e in "${encs[@]}"; do
  b=$(basename "$e"); b=${b%.*}
  for d in cpu nvdec auto split; do
    [ -s "$tmp/$d/$b.json" ] || continue
    got=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["frames"]))' "$tmp/$d/$b.json")
    [ "$got" = "$frames" ] || echo "WARNING: $b has $got scored frames, not FRAMES=$frames: the rates below are wrong; give FRAMES <= every input's length"
    break
  done
done
echo "$(basename "$ref") ($size) against ${n} encodes, $frames frames each, ${score[*]}, $cores cores, fastest of $runs"
echo
echo "| route | scored fps | wall s | CPU s | values = software decoding's |"
echo "|---|---|---|---|---|"
for name in "${names[@]}"; do
  [ -n "${best[$name]:-}" ] || { echo "| $name | failed | | | |"; continue; }
  same=""
  case $name in
    *"--decoder nvdec") d=nvdec ;;
    *"--decoder $split") d=split ;;
    *automatic*) d=auto ;;
    *) d="" ;;
  esac
  if [ -n "$d" ]; then
    same=yes
    for e in "${encs[@]}"; do
      b=$(basename "$e"); b=${b%.*}
      cmp -s <(values "$tmp/cpu/$b.json") <(values "$tmp/$d/$b.json") && [ -n "$(values "$tmp/cpu/$b.json")" ] || same=NO
    done
  fi
  python3 -c 'import sys; n,w,c,name,same=sys.argv[1:]; print("| %s | %.1f | %.2f | %.1f | %s |" % (name, int(n)/float(w), float(w), float(c), same))' \
    "$((n * frames))" "${best[$name]}" "${cpu[$name]}" "$name" "$same"
done
