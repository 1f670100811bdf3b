#!/usr/bin/env bash
# The uploaded route of encoded input without a GPU (tests/decode/upload_frames.c: its own
# gpu_mem.h over host memory): the system's ffmpeg makes two small pairs now, an 8-bit one
# longer than a reader's ring (for the close while the read-ahead waits) and a 10-bit one, and
# upload_frames checks each. Run by scripts/test.sh and under the sanitizers (scripts/sanitize.sh:
# ASan+UBSan, and TSan for the read-ahead thread).
#   upload_test.sh UPLOAD_FRAMES SOURCE_DIR
set -uo pipefail
upload=$1
src=$2
. "$src/tests/cli/lib.sh"

command -v ffmpeg >/dev/null || { echo "skip: no ffmpeg (scripts/setup.sh installs it)"; exit 77; }
ff() { ffmpeg -nostdin -hide_banner -loglevel error -y "$@"; }
encoders=$(ffmpeg -hide_banner -encoders 2>/dev/null)
for e in libx264 libx265 ffv1; do
  grep -q " $e " <<<"$encoders" || { echo "skip: this ffmpeg has no $e encoder"; exit 77; }
done
noise="noise=alls=14:allf=t"
ff -f lavfi -i "testsrc2=size=640x360:rate=24,$noise" -frames:v 16 -c:v ffv1 "$tmp/ref8.mkv"
ff -i "$tmp/ref8.mkv" -vf scale=320:180 -c:v libx264 -preset veryfast -crf 30 "$tmp/h264.mp4"
ff -f lavfi -i "testsrc2=size=640x360:rate=24,$noise,format=yuv420p10le" -frames:v 12 -c:v ffv1 \
  "$tmp/ref10.mkv"
ff -i "$tmp/ref10.mkv" -vf scale=480:270 -c:v libx265 -preset ultrafast -x265-params log-level=error \
  -crf 30 "$tmp/hevc10.mp4"

for c in "ref8.mkv h264.mp4 bicubic" "ref10.mkv hevc10.mp4 lanczos"; do
  read -r r e s <<<"$c"
  "$upload" "$tmp/$r" "$tmp/$e" "$s" >"$tmp/upload.txt" 2>&1
  rc=$?
  [ $rc = 77 ] && { cat "$tmp/upload.txt"; exit 77; }
  if [ $rc = 0 ]; then
    ok "$e against $r ($s): $(grep -m1 '^same frames' "$tmp/upload.txt"); $(grep -m1 '^close' "$tmp/upload.txt")"
  else
    bad "$e against $r ($s): $(grep -m1 -E 'FAIL|ERROR|Sanitizer' "$tmp/upload.txt")"
    head -20 "$tmp/upload.txt"
  fi
done
finish decode_upload
