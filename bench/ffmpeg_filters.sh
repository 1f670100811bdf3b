#!/usr/bin/env bash
# ffmpeg's libvmaf and libvmaf_cuda filters on exactvmaf against ffmpeg's own rate for the same
# inputs, beside ffmpeg with Netflix's libvmaf on the CPU (issue 25's table), on a GPU machine.
#
#   bench/ffmpeg_filters.sh FFMPEG EXACTVMAF_PREFIX OUT [FFMPEG_NETFLIX]
#     FFMPEG           an ffmpeg 7.1 from scripts/build_ffmpeg.sh --set encoded with CUDA
#                      (libvmaf, libvmaf_cuda, scale_cuda, hwupload_cuda, NVDEC) and NVENC
#                      (--extra "--enable-nvenc --enable-encoder=hevc_nvenc")
#     EXACTVMAF_PREFIX an exactvmaf install with CUDA (its lib/ is put first on LD_LIBRARY_PATH)
#     FFMPEG_NETFLIX   the same ffmpeg built against Netflix's libvmaf (optional row)
#   SIZES (default "1920x1080 3840x2160"), FRAMES (600), ROUNDS (2), THREADS (16)
#
# Per size: two 8-bit HEVC clips made from bench/synth_frames.py's frames (the reference at QP
# 16, the distorted at QP 34, no B-frames, access unit delimiters; bench/annexb_to_mkv.py wraps
# them in Matroska) by NVENC, or by the x265 CLI where the GPU has no NVENC (X265=path to x265:
# the H100 and H200 have none), decoded once to raw files (in the page cache), then each row
# ROUNDS times, the rows alternating, best wall time (whole processes, start-up included):
#   null raw       ffmpeg reading both raw inputs to null: its own bound for the raw rows
#   libvmaf cuda   the libvmaf filter (vmaf_v0.6.1), exactvmaf on the GPU, n_threads unset
#   libvmaf cpu    the same, the GPU hidden (CUDA_VISIBLE_DEVICES=), n_threads=THREADS
#   netflix cpu    the same with Netflix's libvmaf, n_threads=THREADS
#   hwupload       libvmaf_cuda fed by hwupload_cuda from the raw inputs
#   null nvdec     ffmpeg decoding both encodes with NVDEC (frames left on the device) to null
#   nvdec          libvmaf_cuda fed by NVDEC (scale_cuda=format=yuv420p: NV12 to planar)
# Every log's per-frame values (vmaf and its features, as printed) are compared with the
# exactvmaf CLI's JSON of the same raw frames. OUT gets table.md, the logs and commands.txt.
set -uo pipefail
ff=$1 prefix=$(cd "$2" && pwd) out=$(mkdir -p "$3" && cd "$3" && pwd) nff=${4:-}
sizes=${SIZES:-1920x1080 3840x2160} frames=${FRAMES:-600} rounds=${ROUNDS:-2} threads=${THREADS:-16}
export LD_LIBRARY_PATH=$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
cli=$prefix/bin/exactvmaf
clips=${CLIPS_DIR:-/tmp/ev-ffclips}
mkdir -p "$clips"
: >"$out/commands.txt"

wall() { # log cmd...: run, output to log; prints the wall seconds, or "fail"
  local log=$1 t0 t1; shift
  echo "$*" >>"$out/commands.txt"
  t0=$(date +%s.%N)
  if "$@" >"$log" 2>&1; then
    t1=$(date +%s.%N)
    python3 -c "print(f'{$t1 - $t0:.4f}')"
  else
    echo fail
  fi
}

same_as_cli() { # log.json cli.json: every value of the log equals the CLI's
  python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
bf = {f["frameNum"]: f["metrics"] for f in b["frames"]}
n = bad = 0
for f in a["frames"]:
    for k, v in f["metrics"].items():
        n += 1
        if bf.get(f["frameNum"], {}).get(k) != v:
            bad += 1
print("equal" if n and not bad and len(a["frames"]) == len(b["frames"]) else f"DIFFER ({bad} of {n})")
PY
}

echo "| size | row | fps | vs its bound | log vs CLI |" >"$out/table.md"
echo "|---|---|---|---|---|" >>"$out/table.md"
for size in $sizes; do
  w=${size%x*} h=${size#*x} tag=${size#*x}p
  ref=$clips/ref$tag.mkv dis=$clips/dis$tag.mkv
  # frames from bench/synth_frames.py, NVENC without B-frames (decode order = display order),
  # access unit delimiters on, through the rawvideo muxer; annexb_to_mkv.py puts them in
  # Matroska (a minimal ffmpeg has neither source filters nor muxers)
  rows="null_raw libvmaf_cuda libvmaf_cpu netflix_cpu hwupload null_nvdec nvdec"
  if [ -n "${NO_ENCODER:-}" ]; then # a GPU without NVENC (H100, H200): raw rows only
    rows="null_raw libvmaf_cuda libvmaf_cpu netflix_cpu hwupload"
    [ -s "$clips/ref$tag.yuv" ] || python3 "$(dirname "$0")/synth_frames.py" "$w" "$h" "$frames" 25 24 >"$clips/ref$tag.yuv"
    [ -s "$clips/dis$tag.yuv" ] || python3 "$(dirname "$0")/synth_frames.py" "$w" "$h" "$frames" 26 64 >"$clips/dis$tag.yuv"
  fi
  for k in ref:16 dis:34; do
    f=$clips/${k%:*}$tag
    [ -s "$f.mkv" ] || [ -n "${NO_ENCODER:-}" ] && continue
    [ -s "$clips/src$tag.yuv" ] ||
      python3 "$(dirname "$0")/synth_frames.py" "$w" "$h" "$frames" 25 "${CLIP_NOISE:-4}" >"$clips/src$tag.yuv"
    if [ -n "${X265:-}" ]; then
      "$X265" --input "$clips/src$tag.yuv" --input-res "$size" --fps 24 --frames "$frames" \
        --preset ultrafast --qp "${k#*:}" --bframes 0 --aud --log-level error --no-progress -o "$f.hevc"
    else
      "$ff" -v error -y -f rawvideo -pix_fmt yuv420p -s "$size" -r 24 -i "$clips/src$tag.yuv" -c:v hevc_nvenc \
        -rc constqp -qp "${k#*:}" -bf 0 -aud 1 -f rawvideo "$f.hevc"
    fi && python3 "$(dirname "$0")/annexb_to_mkv.py" "$f.hevc" "$f.mkv" hevc "$w" "$h" 24 >/dev/null ||
      { echo "cannot make $f.mkv"; exit 1; }
    echo "$f.mkv: $(stat -c %s "$f.mkv") bytes"
    rm -f "$f.hevc"
  done
  rm -f "$clips/src$tag.yuv"
  for k in "$ref" "$dis"; do
    [ -s "${k%.*}.yuv" ] || [ -n "${NO_ENCODER:-}" ] || "$ff" -nostdin -v error -y -i "$k" -f rawvideo -pix_fmt yuv420p \
      "${k%.*}.yuv"
  done
  raw=(-f rawvideo -pix_fmt yuv420p -s "$size" -r 24)
  ryuv=$clips/ref$tag.yuv dyuv=$clips/dis$tag.yuv
  "$cli" -r "$ryuv" -d "$dyuv" --width "$w" --height "$h" --pixel_format 420 --bitdepth 8 \
    --model version=vmaf_v0.6.1 --backend cuda --json -o "$out/cli_$tag.json" -q \
    >"$out/cli_$tag.txt" 2>&1 || echo "the CLI failed on $tag (see $out/cli_$tag.txt)"
  nv=(-hwaccel cuda -hwaccel_output_format cuda)
  declare -A best=()
  for r in $(seq "$rounds"); do
    for row in $rows; do
      log=$out/${tag}_$row.txt json=$out/${tag}_$row.json
      case $row in
        null_raw) t=$(wall "$log" "$ff" -nostdin "${raw[@]}" -i "$dyuv" "${raw[@]}" -i "$ryuv" \
                    -map 0:v -map 1:v -f null -) ;;
        libvmaf_cuda) t=$(wall "$log" "$ff" -nostdin "${raw[@]}" -i "$dyuv" "${raw[@]}" -i "$ryuv" \
                    -lavfi "[0:v][1:v]libvmaf=log_fmt=json:log_path=$json" -f null -) ;;
        libvmaf_cpu) t=$(wall "$log" env CUDA_VISIBLE_DEVICES= "$ff" -nostdin "${raw[@]}" -i "$dyuv" \
                    "${raw[@]}" -i "$ryuv" \
                    -lavfi "[0:v][1:v]libvmaf=log_fmt=json:log_path=$json:n_threads=$threads" -f null -) ;;
        netflix_cpu) [ -n "$nff" ] || continue
                  t=$(wall "$log" "$nff" -nostdin "${raw[@]}" -i "$dyuv" "${raw[@]}" -i "$ryuv" \
                    -lavfi "[0:v][1:v]libvmaf=log_fmt=json:log_path=$json:n_threads=$threads" -f null -) ;;
        hwupload) t=$(wall "$log" "$ff" -nostdin -init_hw_device cuda=cu -filter_hw_device cu \
                    "${raw[@]}" -i "$dyuv" "${raw[@]}" -i "$ryuv" \
                    -lavfi "[0:v]hwupload_cuda[d];[1:v]hwupload_cuda[r];[d][r]libvmaf_cuda=log_fmt=json:log_path=$json" \
                    -f null -) ;;
        null_nvdec) t=$(wall "$log" "$ff" -nostdin "${nv[@]}" -i "$dis" "${nv[@]}" -i "$ref" \
                    -map 0:v -map 1:v -f null -) ;;
        nvdec) t=$(wall "$log" "$ff" -nostdin "${nv[@]}" -i "$dis" "${nv[@]}" -i "$ref" \
                    -lavfi "[0:v]scale_cuda=format=yuv420p[d];[1:v]scale_cuda=format=yuv420p[r];[d][r]libvmaf_cuda=log_fmt=json:log_path=$json" \
                    -f null -) ;;
      esac
      if [ "$t" != fail ] && { [ -z "${best[$row]:-}" ] ||
        python3 -c "import sys; sys.exit(0 if $t < ${best[$row]} else 1)"; }; then
        best[$row]=$t
      fi
      [ "$t" = fail ] && best[$row]=${best[$row]:-fail}
    done
  done
  for row in $rows; do
    t=${best[$row]:-}
    [ -n "$t" ] || continue
    fps=fail ratio= check=
    if [ "$t" != fail ]; then
      fps=$(python3 -c "print(f'{$frames / $t:.1f}')")
      case $row in
        null_raw | null_nvdec) ;;
        nvdec) b=${best[null_nvdec]:-fail} ;;
        *) b=${best[null_raw]:-fail} ;;
      esac
      case $row in null_*) ;; *)
        [ "$b" != fail ] && ratio=$(python3 -c "print(f'{100 * $b / $t:.0f}%')")
        check=$(same_as_cli "$out/${tag}_$row.json" "$out/cli_$tag.json" 2>&1 | tail -1) ;;
      esac
    fi
    echo "| $size | $row | $fps | $ratio | $check |" >>"$out/table.md"
  done
  unset best
done
cat "$out/table.md"
