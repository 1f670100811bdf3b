#!/usr/bin/env bash
# The encodes issue 24's rates are measured on (bench/encoded_input.sh, bench/ladder.sh), made
# with Debian's ffmpeg (x265, ultrafast) from testsrc2 with light temporal noise, FRAMES each
# (default 600), at 24 fps, into OUT:
#   ref_1080.mkv, dis_1080.mp4      HEVC 8-bit 1920x1080, CRF 30 / 36
#   ref_2160.mkv, dis_2160.mp4      HEVC 10-bit 3840x2160, CRF 32 / 38 (the ladder's reference)
#   ladder_{2160,1440,1080}_{hi,lo}.mp4   HEVC 10-bit at three sizes, CRF 34 / 40 each (the
#                                   4K ladder: one reference, six encodes, scaled back to 4K),
#                                   LADDER_FRAMES each (default FRAMES)
#   bench/encoded_clips.sh OUT
set -euo pipefail
out=$(mkdir -p "$1" && cd "$1" && pwd)
frames=${FRAMES:-600}
ladder_frames=${LADDER_FRAMES:-$frames}
ff() { ffmpeg -nostdin -hide_banner -loglevel error -y "$@"; }
src() { echo "testsrc2=size=$1:rate=24,noise=alls=2:allf=t"; }
x265=(-c:v libx265 -preset ultrafast -x265-params log-level=error)
enc() { # OUT SIZE SCALE PIXFMT CRF [FRAMES]
  [ -s "$out/$1" ] || ff -f lavfi -i "$(src "$2")" -frames:v "${6:-$frames}" ${3:+-vf "$3"} \
    -pix_fmt "$4" "${x265[@]}" -crf "$5" "$out/$1"
}
enc ref_1080.mkv 1920x1080 "" yuv420p 30
enc dis_1080.mp4 1920x1080 "" yuv420p 36
enc ref_2160.mkv 3840x2160 "" yuv420p10le 32
enc dis_2160.mp4 3840x2160 "" yuv420p10le 38
for size in 3840x2160 2560x1440 1920x1080; do
  h=${size#*x}
  enc "ladder_${h}_hi.mp4" 3840x2160 "scale=${size/x/:}:flags=lanczos" yuv420p10le 34 "$ladder_frames"
  enc "ladder_${h}_lo.mp4" 3840x2160 "scale=${size/x/:}:flags=lanczos" yuv420p10le 40 "$ladder_frames"
done
ls -l "$out"
