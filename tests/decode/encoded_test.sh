#!/usr/bin/env bash
# Encoded input against the ffmpeg-pipe route (docs/INPUT.md). The system's ffmpeg makes the
# encodes now (x264, x265 10-bit, libaom AV1, libvpx VP9), then for each case
#   exactvmaf -r REF -d ENC                       (decoded and converted in-process)
#   ffmpeg -i ENC -vf scale=W:H:flags=bicubic,format=F -f yuv4mpegpipe - | exactvmaf -r REF.y4m -d -
# must give the same JSON (every value at %.17g, every built-in model), and pair_frames checks
# the frames of ev_video_open_pair() against the piped ones sample for sample. Then many
# encodes against one reference, and bad input (one message naming the file, no crash).
#   encoded_test.sh EXACTVMAF PAIR_FRAMES SOURCE_DIR
set -uo pipefail
bin=$1
pair=$2
src=$3
. "$src/tests/cli/lib.sh"

command -v ffmpeg >/dev/null || { echo "skip: no ffmpeg (scripts/setup.sh installs it)"; exit 77; }
grep -q "encoded video" <<<"$("$bin" --version)" ||
  { echo "skip: this build decodes no encoded video (no libav* when it was configured)"; exit 77; }
ff() { ffmpeg -nostdin -hide_banner -loglevel error -y "$@"; }
encoders=$(ffmpeg -hide_banner -encoders 2>/dev/null)
have_encoder() { grep -q " $1 " <<<"$encoders"; }
for e in libx264 libx265 libaom-av1 libvpx-vp9 ffv1; do
  have_encoder "$e" || { echo "skip: this ffmpeg has no $e encoder"; exit 77; }
done

frames=8
noise="noise=alls=14:allf=t"
mk_ref() { # NAME SIZE PIXFMT: a lossless reference (FFV1 in Matroska), any size (odd too)
  ff -f lavfi -i "testsrc2=size=1920x1080:rate=24,scale=${2/x/:},$noise,format=$3" -frames:v $frames \
    -c:v ffv1 "$tmp/$1"
  local got
  got=$(ffprobe -v error -select_streams v -show_entries stream=width,height -of csv=p=0:s=x "$tmp/$1")
  [ "$got" = "$2" ] || bad "$1 is $got, not $2"
}
mk_ref ref8.mkv 1920x1080 yuv420p
mk_ref ref10.mkv 1920x1080 yuv420p10le
mk_ref refodd.mkv 575x323 yuv420p
mk_ref ref444.mkv 640x360 yuv444p
x265q=(-preset ultrafast -x265-params log-level=error)
ff -i "$tmp/ref8.mkv" -vf scale=960:540 -c:v libx264 -preset veryfast -crf 32 "$tmp/h264_540.mp4"
ff -i "$tmp/ref8.mkv" -c:v libx265 -pix_fmt yuv420p10le -crf 30 "${x265q[@]}" "$tmp/hevc10_1080.mp4"
ff -i "$tmp/ref10.mkv" -vf scale=960:540 -c:v libx265 -pix_fmt yuv420p10le -crf 30 "${x265q[@]}" \
  "$tmp/hevc10_540.mp4"
ff -i "$tmp/ref8.mkv" -vf scale=1280:720 -c:v libvpx-vp9 -b:v 400k -deadline realtime -cpu-used 8 \
  "$tmp/vp9_720.webm"
ff -i "$tmp/ref8.mkv" -vf scale=640:360 -c:v libaom-av1 -crf 45 -cpu-used 8 -row-mt 1 \
  "$tmp/av1_360.ivf"
ff -i "$tmp/refodd.mkv" -vf scale=288:162 -c:v libx264 -preset veryfast -crf 30 "$tmp/h264_odd.mkv"
ff -i "$tmp/ref444.mkv" -c:v libx264 -pix_fmt yuv420p -preset veryfast -crf 30 "$tmp/h264_420.ts"
for f in ref8.mkv ref10.mkv refodd.mkv ref444.mkv h264_540.mp4 hevc10_1080.mp4 hevc10_540.mp4 \
  vp9_720.webm av1_360.ivf h264_odd.mkv h264_420.ts; do
  [ -s "$tmp/$f" ] || { bad "ffmpeg made no $f"; finish encoded_input; exit 1; }
done

all_models=()
while read -r m _; do
  all_models+=(--model "version=$m:name=$m")
done < <("$bin" --list_models | sed 1d)
[ ${#all_models[@]} -ge 34 ] && ok || bad "--list_models lists ${#all_models[@]} / 2 models"

# SCALER REF ENC PIXFMT WxH [models...]: the two routes agree (JSON) and so do the frames
same_as_pipe() {
  local scaler=$1 r=$2 e=$3 pf=$4 size=$5
  shift 5
  local name
  name="$(basename "$e") against $(basename "$r") ($scaler)"
  ff -i "$r" -strict -1 -f yuv4mpegpipe "$tmp/ref.y4m"
  ff -i "$e" -vf "scale=${size/x/:}:flags=$scaler,format=$pf" -strict -1 -f yuv4mpegpipe "$tmp/piped.y4m"
  local sc=()
  [ "$scaler" = bicubic ] || sc=(--scaler "$scaler")
  if ! "$bin" -q -r "$r" -d "$e" "${sc[@]}" "$@" --json --precision max -o "$tmp/direct.json"; then
    bad "$name: the direct route failed"
    return
  fi
  ffmpeg -nostdin -hide_banner -loglevel error -i "$e" -vf "scale=${size/x/:}:flags=$scaler,format=$pf" \
    -strict -1 -f yuv4mpegpipe - |
    "$bin" -q -r "$tmp/ref.y4m" -d - "$@" --json --precision max -o "$tmp/piped.json"
  if cmp -s <(values "$tmp/direct.json") <(values "$tmp/piped.json"); then
    ok "$name: JSON equals the ffmpeg-pipe route's ($(grep -c '"frameNum"' "$tmp/direct.json") frames)"
  else
    bad "$name: JSON differs from the ffmpeg-pipe route's"
    diff <(values "$tmp/direct.json") <(values "$tmp/piped.json") | head -6
  fi
  if "$pair" "$r" "$e" "$tmp/piped.y4m" "$scaler"; then ok; else bad "$name: frames"; fi
}

same_as_pipe bicubic "$tmp/ref8.mkv" "$tmp/h264_540.mp4" yuv420p 1920x1080 "${all_models[@]}"
same_as_pipe bicubic "$tmp/ref10.mkv" "$tmp/hevc10_540.mp4" yuv420p10le 1920x1080 "${all_models[@]}"
same_as_pipe bicubic "$tmp/ref8.mkv" "$tmp/hevc10_1080.mp4" yuv420p 1920x1080 --feature psnr
same_as_pipe bicubic "$tmp/ref8.mkv" "$tmp/vp9_720.webm" yuv420p 1920x1080 --feature psnr
same_as_pipe bicubic "$tmp/ref8.mkv" "$tmp/av1_360.ivf" yuv420p 1920x1080 --feature psnr
same_as_pipe bicubic "$tmp/refodd.mkv" "$tmp/h264_odd.mkv" yuv420p 575x323 --feature psnr
same_as_pipe bicubic "$tmp/ref444.mkv" "$tmp/h264_420.ts" yuv444p 640x360 --feature psnr
same_as_pipe lanczos "$tmp/ref8.mkv" "$tmp/h264_540.mp4" yuv420p 1920x1080 --feature psnr
same_as_pipe bicubic+accurate_rnd "$tmp/ref8.mkv" "$tmp/vp9_720.webm" yuv420p 1920x1080

# an encode on standard input equals the same file
"$bin" -q -r "$tmp/ref8.mkv" -d "$tmp/h264_540.mp4" --json --precision max -o "$tmp/file.json"
"$bin" -q -r "$tmp/ref8.mkv" -d - --json --precision max -o "$tmp/stdin.json" <"$tmp/vp9_720.webm"
"$bin" -q -r "$tmp/ref8.mkv" -d "$tmp/vp9_720.webm" --json --precision max -o "$tmp/file2.json"
check "an encode on standard input" cmp -s <(values "$tmp/stdin.json") <(values "$tmp/file2.json")

# a decoder for each side (--decoder REF,DIS), the CPU backend: the same values
"$bin" -q -r "$tmp/ref8.mkv" -d "$tmp/h264_540.mp4" --backend cpu --decoder cpu,auto --json \
  --precision max -o "$tmp/sides.json"
check "--decoder cpu,auto" cmp -s <(values "$tmp/sides.json") <(values "$tmp/file.json")

# many encodes against one reference: each output equals its own run's
mkdir -p "$tmp/multi"
# (a decoder word for each input, the CPU backend: the same values)
if "$bin" -q -r "$tmp/ref8.mkv" -d "$tmp/h264_540.mp4" -d "$tmp/vp9_720.webm" -d "$tmp/av1_360.ivf" \
  --feature psnr --json --precision max --backend cpu --decoder cpu,auto,cpu -o "$tmp/multi/"; then
  for e in h264_540.mp4 vp9_720.webm av1_360.ivf; do
    "$bin" -q -r "$tmp/ref8.mkv" -d "$tmp/$e" --feature psnr --json --precision max -o "$tmp/one.json"
    check "many encodes: ${e%.*} as alone" cmp -s <(values "$tmp/multi/${e%.*}.json") <(values "$tmp/one.json")
  done
else
  bad "many encodes against one reference failed"
fi

# a distorted shorter than the reference: scored on the common frames, with one warning
ff -i "$tmp/h264_540.mp4" -frames:v 5 -c copy "$tmp/short.mp4"
"$bin" -r "$tmp/ref8.mkv" -d "$tmp/short.mp4" --feature psnr --json -o "$tmp/short.json" 2>"$tmp/short.err"
check "a shorter encode: 5 frames scored" test "$(grep -c '"frameNum"' "$tmp/short.json")" = 5
check "a shorter encode: one warning" grep -q "ends after 5 frames" "$tmp/short.err"

# bad input: one line naming the file, a non-zero exit, no output file
head -c $(($(stat -c %s "$tmp/h264_540.mp4") * 2 / 3)) "$tmp/h264_540.mp4" >"$tmp/cut.mp4"
expect_error truncated_mp4 "cut.mp4" -r "$tmp/ref8.mkv" -d "$tmp/cut.mp4"
# cut inside the container's headers: named as the container, not "not a video"
ff -i "$tmp/h264_540.mp4" -c copy -movflags +faststart "$tmp/faststart.mp4"
head -c 200 "$tmp/faststart.mp4" >"$tmp/cut_head.mp4"
expect_error mp4_cut_in_its_headers "cut_head.mp4 QuickTime cut short" -r "$tmp/ref8.mkv" \
  -d "$tmp/cut_head.mp4"
ff -f lavfi -i testsrc2=size=320x240 -frames:v 0 -c:v libx264 "$tmp/no_frames.mkv"
expect_error mkv_of_headers_only "no_frames.mkv Matroska cut short" -r "$tmp/ref8.mkv" \
  -d "$tmp/no_frames.mkv"
# an mkv cut inside its frames is refused as cut (its demuxer says it ends early): where its
# B-frames lost their references the frames that come out skip timestamps, which is named a cut
# file too, never "variable frame rate"; elsewhere the stream ends early
ff -f lavfi -i testsrc2=size=320x180:rate=24 -frames:v 96 -c:v libx264 "$tmp/gop96.mkv"
ff -f lavfi -i testsrc2=size=320x180:rate=24 -frames:v 96 -c:v ffv1 "$tmp/ref96.mkv"
named_cut=0 said_vfr=0
for tenth in 3 4 5 6 7 8 9; do
  head -c $(($(stat -c %s "$tmp/gop96.mkv") * tenth / 10)) "$tmp/gop96.mkv" >"$tmp/cut$tenth.mkv"
  if ! "$bin" -r "$tmp/ref96.mkv" -d "$tmp/cut$tenth.mkv" --feature psnr -q -o /dev/null \
    2>"$tmp/cut$tenth.err" &&
    grep -q "cut$tenth.mkv: cut short or damaged: the file ends early" "$tmp/cut$tenth.err"; then
    named_cut=$((named_cut + 1))
  fi
  grep -q "variable frame rate" "$tmp/cut$tenth.err" && said_vfr=$((said_vfr + 1))
done
check "an mkv cut in its frames: named cut short ($named_cut of 7 cut points), never variable frame rate" \
  test "$named_cut" = 7 -a "$said_vfr" = 0
: >"$tmp/empty.mp4"
expect_error empty_file "empty.mp4 empty 0 bytes" -r "$tmp/ref8.mkv" -d "$tmp/empty.mp4"
ff -f lavfi -i "sine=frequency=440:duration=1" -c:a aac "$tmp/audio.m4a"
expect_error audio_only "audio.m4a no video stream" -r "$tmp/ref8.mkv" -d "$tmp/audio.m4a"
ff -i "$tmp/ref8.mkv" -vf scale=960:540 -c:v libx264 -preset veryfast -flags +ildct+ilme -x264-params tff=1 \
  "$tmp/interlaced.mkv"
expect_error interlaced "interlaced.mkv interlaced" -r "$tmp/ref8.mkv" -d "$tmp/interlaced.mkv"
ff -i "$tmp/ref8.mkv" -vf "setpts='(N+3*gte(N,4))/(24*TB)'" -fps_mode vfr -c:v libx264 -preset veryfast \
  "$tmp/vfr.mkv"
expect_error variable_frame_rate "vfr.mkv variable frame rate" -r "$tmp/ref8.mkv" -d "$tmp/vfr.mkv"
expect_error unknown_scaler "h264_540.mp4 scaler nosuch" -r "$tmp/ref8.mkv" -d "$tmp/h264_540.mp4" --scaler nosuch
expect_error bad_decoder_pair "invalid decoder nvdec,gpu" -r "$tmp/ref8.mkv" -d "$tmp/h264_540.mp4" \
  --decoder nvdec,gpu
expect_error too_many_decoders "decoder 3 decoders 2 inputs" -r "$tmp/ref8.mkv" \
  -d "$tmp/h264_540.mp4" --decoder cpu,cpu,cpu
printf 'not a video at all\n' >"$tmp/notes.txt"
expect_error not_video "notes.txt not a y4m" -r "$tmp/ref8.mkv" -d "$tmp/notes.txt"
# a stream whose middle is overwritten: refused, or scored only if the decoder saw no error
cp "$tmp/h264_540.mp4" "$tmp/corrupt.mp4"
size=$(stat -c %s "$tmp/corrupt.mp4")
# the same bytes every run (a fixed seed), so that a failure repeats
python3 -c 'import random,sys; random.seed(24); sys.stdout.buffer.write(random.randbytes(int(sys.argv[1])))' \
  $((size / 4)) >"$tmp/noise.bin"
dd if="$tmp/noise.bin" of="$tmp/corrupt.mp4" bs=1 seek=$((size / 3)) conv=notrunc status=none
"$bin" -q -r "$tmp/ref8.mkv" -d "$tmp/corrupt.mp4" --feature psnr -o "$tmp/corrupt.xml" 2>"$tmp/corrupt.err"
rc=$?
if [ $rc -ge 128 ]; then
  bad "corrupt stream: crashed (status $rc)"
elif [ $rc -ne 0 ] && [ "$(wc -l <"$tmp/corrupt.err")" -eq 1 ] && grep -q corrupt.mp4 "$tmp/corrupt.err"; then
  ok "corrupt stream refused: $(cat "$tmp/corrupt.err")"
elif [ $rc -eq 0 ] && [ -z "$(ffmpeg -nostdin -v error -xerror -i "$tmp/corrupt.mp4" -f null - 2>&1)" ]; then
  ok "corrupt stream scored: ffmpeg's own decoders see no error in it either"
else
  bad "corrupt stream: status $rc, $(head -c 300 "$tmp/corrupt.err")"
fi

finish encoded_input
