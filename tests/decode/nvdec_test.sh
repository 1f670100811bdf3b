#!/usr/bin/env bash
# NVDEC (label gpu; skips, 77, without a device): for each encode in CLIPS (default: the ones
# ffmpeg makes here, when it can: H.264 8-bit, HEVC 10-bit, AV1, VP9),
#   1. NVDEC's frames equal the software decoder's, hash for hash (tests/decode/frame_hashes.c);
#   2. frames kept on the device (the device unpack, the scaler's twin: DEVICE_FRAMES, i.e.
#      tests/decode/device_frames.c) equal the host route's, frame by frame, for pairs scaled on
#      the device (8-bit with libswscale's default, lanczos and accurate_rnd; 10-bit), passed
#      through, and for conversions the device does not do (a depth change, spline: host);
#   3. --backend cuda with NVDEC gives the JSON of --backend cpu with software decoding, for
#      pairs whose distorted is scaled on the device and on the host (vmaf_v0.6.1 and psnr,
#      every value at %.17g);
#   4. a stream decoded in segments by three NVDEC sessions (--decode_sessions 3) gives the
#      software decoder's frames too, and its JSON (hevc_gop.mkv and h264_gop.mp4: 150 frames,
#      a random-access point every 30, open GOPs in the HEVC one, cut into 5 segments;
#      hevc_gop_small.mkv, 320x180, scaled to hevc_gop.mkv's size on the device).
#   nvdec_test.sh EXACTVMAF FRAME_HASHES SOURCE_DIR DEVICE_FRAMES|- [CLIPS_DIR]
# CLIPS_DIR holds h264.mp4 and hevc10.mp4 (1280x720), h264_small.mp4 and hevc10_small.mp4
# (640x360), av1.mkv and vp9.webm (1280x720), h264_444.mp4 (640x360 4:4:4, a stream that
# libavcodec's NVDEC path refuses: --decoder auto opens it again on the CPU), and hevc_gop.mkv
# and h264_gop.mp4 (640x360, 150 frames) and hevc_gop_small.mkv (320x180), as made below.
set -uo pipefail
bin=$1
hashes=$2
src=$3
device_frames=${4:--}
clips=${5:-${EV_NVDEC_CLIPS:-}}
. "$src/tests/cli/lib.sh"

v=$("$bin" --version)
grep -q "encoded video" <<<"$v" || { echo "skip: this build decodes no encoded video"; exit 77; }
grep -Eq "cuda \([1-9][0-9]* device" <<<"$v" || { echo "skip: no CUDA device"; exit 77; }
if [ -z "$clips" ]; then
  command -v ffmpeg >/dev/null || { echo "skip: no clips given and no ffmpeg to make them"; exit 77; }
  clips=$tmp/clips
  mkdir -p "$clips"
  ff() { ffmpeg -nostdin -hide_banner -loglevel error -y "$@"; }
  s="testsrc2=size=1280x720:rate=24,noise=alls=6:allf=t"
  ff -f lavfi -i "$s" -frames:v 24 -c:v libx264 -crf 26 "$clips/h264.mp4"
  ff -f lavfi -i "$s" -frames:v 24 -vf scale=640:360 -c:v libx264 -crf 30 "$clips/h264_small.mp4"
  ff -f lavfi -i "$s" -frames:v 24 -c:v libx265 -pix_fmt yuv420p10le -x265-params log-level=error "$clips/hevc10.mp4"
  ff -f lavfi -i "$s" -frames:v 24 -vf scale=640:360 -c:v libx265 -pix_fmt yuv420p10le \
    -x265-params log-level=error "$clips/hevc10_small.mp4"
  ff -f lavfi -i "$s" -frames:v 24 -c:v libaom-av1 -cpu-used 8 "$clips/av1.mkv"
  ff -f lavfi -i "$s" -frames:v 24 -c:v libvpx-vp9 -deadline realtime "$clips/vp9.webm"
  ff -f lavfi -i "$s" -frames:v 24 -vf scale=640:360 -c:v libx264 -pix_fmt yuv444p -crf 28 \
    "$clips/h264_444.mp4"
  ff -f lavfi -i "$s" -frames:v 150 -vf scale=640:360 -c:v libx265 \
    -x265-params log-level=error:keyint=30:min-keyint=30:bframes=4 "$clips/hevc_gop.mkv"
  ff -f lavfi -i "$s" -frames:v 150 -vf scale=640:360 -c:v libx264 -g 30 -sc_threshold 0 \
    -crf 30 "$clips/h264_gop.mp4"
  ff -f lavfi -i "$s" -frames:v 150 -vf scale=320:180 -c:v libx265 \
    -x265-params log-level=error:keyint=30:min-keyint=30:bframes=4 "$clips/hevc_gop_small.mkv"
fi

n=0
for f in "$clips"/*.mp4 "$clips"/*.mkv "$clips"/*.webm "$clips"/*.ivf; do
  [ -f "$f" ] || continue
  case $(basename "$f") in ref*) continue ;; esac
  n=$((n + 1))
  name=$(basename "$f")
  "$hashes" "$f" cpu >"$tmp/cpu.txt" 2>"$tmp/cpu.err"
  "$hashes" "$f" nvdec >"$tmp/gpu.txt" 2>"$tmp/gpu.err"
  frames=$(tail -1 "$tmp/cpu.txt")
  "$hashes" "$f" auto >"$tmp/auto.txt" 2>"$tmp/auto.err"
  if cmp -s "$tmp/cpu.txt" "$tmp/auto.txt"; then
    ok "$name: --decoder auto gives the software frames ($(head -1 "$tmp/auto.err"))"
  else
    bad "$name: --decoder auto: $(grep '^error' "$tmp/auto.txt")"
  fi
  if grep -q "NVDEC cannot decode this stream" "$tmp/gpu.txt"; then
    echo "not checked: $name: this GPU's NVDEC cannot decode it ($(grep '^error' "$tmp/gpu.txt"))"
  elif grep -q "^error" "$tmp/gpu.txt"; then
    bad "$name: NVDEC: $(grep '^error' "$tmp/gpu.txt")"
  elif ! grep -q "decoded by NVDEC" "$tmp/gpu.err"; then
    bad "$name: not decoded by NVDEC: $(cat "$tmp/gpu.err")"
  elif cmp -s "$tmp/cpu.txt" "$tmp/gpu.txt" && ! grep -q "^error" "$tmp/cpu.txt"; then
    ok "$name: NVDEC's frames equal the software decoder's ($frames, $(head -1 "$tmp/cpu.txt" | cut -d' ' -f2-4); $(head -1 "$tmp/gpu.err"))"
    # in segments by three NVDEC sessions
    "$hashes" "$f" nvdec 3 >"$tmp/seg.txt" 2>"$tmp/seg.err"
    cut=$(sed -n 's/.*(\([0-9]*\) cut so far).*/\1/p' "$tmp/seg.err" | tail -1)
    case $name in *_gop*) least=5 ;; *) least=0 ;; esac
    if ! cmp -s "$tmp/cpu.txt" "$tmp/seg.txt"; then
      bad "$name: in segments by 3 NVDEC sessions, frames differ from the software decoder's"
      diff "$tmp/cpu.txt" "$tmp/seg.txt" | head -4
    elif [ "${cut:-0}" -lt "$least" ]; then
      bad "$name: ${cut:-no} segments with 3 NVDEC sessions, want $least ($(tail -1 "$tmp/seg.err"))"
    else
      ok "$name: in segments by 3 NVDEC sessions, the software decoder's frames (${cut:-not} cut)"
    fi
  else
    bad "$name: NVDEC's frames differ from the software decoder's"
    diff "$tmp/cpu.txt" "$tmp/gpu.txt" | head -4
  fi
done
[ "$n" -gt 0 ] && ok || bad "no clips in $clips"

# frames read on the device against the host route: REF DIS SCALER device|host|uploaded|always
device_pair() {
  [ -f "$clips/$1" ] && [ -f "$clips/$2" ] || { echo "not checked: $1 / $2: no such clips"; return; }
  if "$device_frames" "$clips/$1" "$clips/$2" "$3" "$4" >"$tmp/dev.txt" 2>&1; then
    ok "$2 against $1 ($3, $4): $(tail -1 "$tmp/dev.txt") [$(sed -n 2p "$tmp/dev.txt")]"
  else
    bad "$2 against $1 ($3, $4): $(grep -m1 FAIL "$tmp/dev.txt")"
    cat "$tmp/dev.txt" | head -5
  fi
}
if [ "$device_frames" != - ]; then
  device_pair h264.mp4 h264_small.mp4 bicubic device
  device_pair h264.mp4 h264_small.mp4 lanczos device
  device_pair h264.mp4 h264_small.mp4 bilinear+accurate_rnd device
  device_pair hevc10.mp4 hevc10_small.mp4 bicubic device
  device_pair h264.mp4 vp9.webm bicubic device
  device_pair h264.mp4 hevc10.mp4 bicubic host
  device_pair h264.mp4 h264_small.mp4 spline host
  device_pair h264.mp4 h264_small.mp4 bicubic uploaded   # EV_KEEP_ALL_FRAMES, the CPU decoding
  device_pair hevc10.mp4 hevc10_small.mp4 lanczos uploaded
  device_pair h264.mp4 h264_small.mp4 spline always      # NVDEC and uploads in one pair
fi

# the whole route: NVDEC + CUDA twins against software decoding + CPU, scaled distorted
# every value, parsed (%.17g: the doubles exactly), without the timing, the version and the
# "backends" object that only a CUDA run writes
values() {
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
for k in ("fps", "version", "backends"): d.pop(k, None)
print(json.dumps(d, sort_keys=True, indent=1))' "$1"
}
json_pair() { # REF DIS [DECODER [SESSIONS]]: --backend cuda --decoder DECODER (default nvdec)
  local ref=$clips/$1 dis=$clips/$2 decoder=${3:-nvdec} sessions=${4:-1}
  [ -f "$ref" ] && [ -f "$dis" ] || { echo "not checked: $1 / $2: no such clips"; return; }
  "$bin" -q -r "$ref" -d "$dis" --feature psnr --backend cpu --decoder cpu --json --precision max \
    -o "$tmp/cpu.json"
  rm -f "$tmp/gpu.json"
  "$bin" -q -r "$ref" -d "$dis" --feature psnr --backend cuda --decoder "$decoder" --json \
    --decode_sessions "$sessions" --precision max -o "$tmp/gpu.json"
  local how="--backend cuda --decoder $decoder --decode_sessions $sessions"
  if [ -s "$tmp/cpu.json" ] && cmp -s <(values "$tmp/cpu.json") <(values "$tmp/gpu.json"); then
    ok "$2 against $1: $how JSON equals --backend cpu --decoder cpu"
  else
    bad "$2 against $1: $how JSON differs from the CPU's"
    diff <(values "$tmp/cpu.json") <(values "$tmp/gpu.json") | head -6
  fi
}
json_pair h264.mp4 h264_small.mp4
json_pair hevc10.mp4 hevc10_small.mp4
json_pair h264.mp4 hevc10.mp4
json_pair h264.mp4 h264_small.mp4 nvdec,cpu # one stream each, the CPU's uploaded
json_pair hevc10.mp4 hevc10_small.mp4 cpu,nvdec
json_pair hevc_gop.mkv h264_gop.mp4 nvdec 3 # both in segments, three sessions each
# ... with the distorted scaled on the device
json_pair hevc_gop.mkv hevc_gop_small.mkv nvdec 3
finish nvdec
