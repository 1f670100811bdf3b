#!/usr/bin/env bash
# A stream decoded in segments by several decoders (EvVideoOptions.decode_sessions, io/segments.h)
# gives one decoder's frames, hash for hash (tests/decode/frame_hashes.c), on the CPU's decoders:
# the cutting, the leading frames of open GOPs and the order are the same code NVDEC's decoders
# run through. The system's ffmpeg makes the encodes now:
#   HEVC with open GOPs (CRA, B-frames: leading frames that refer to the GOP before), in mkv and
#   mp4; HEVC 10-bit with closed GOPs whose IDRs have decodable leading frames (RADL); HEVC
#   all-intra (a point every frame: segments of at least 24 packets); H.264 with IDRs and
#   B-pyramids (keyframes and scene cuts); H.264 with open GOPs (no IDR after the first: one
#   segment); VP9 and standard input (not cut).
# Each is decoded with 1, 2, 3 and 5 decoders (one thread each; 2 with libavcodec's threads);
# a stream that can be cut must be (the description counts the segments), so that the check
# compares something. Then damaged streams (cut short, bytes changed) end as one decoder ends
# them, and the CLI's JSON with --decode_sessions 3 equals the one decoder's.
# Run by scripts/test.sh and under ThreadSanitizer (scripts/sanitize.sh, which sets TSAN_OPTIONS:
# then only with one libavcodec thread a decoder, since TSan cannot see the atomics of
# libavcodec's frame threads, and without the CLI, whose decoders have them).
#   segments_test.sh FRAME_HASHES SOURCE_DIR [EXACTVMAF]
set -uo pipefail
hashes=$1
src=$2
bin=${3:-}
. "$src/tests/cli/lib.sh"

command -v ffmpeg >/dev/null || { echo "skip: no ffmpeg (scripts/setup.sh installs it)"; exit 77; }
ff() { ffmpeg -nostdin -hide_banner -loglevel error -y "$@"; }
encoders=$(ffmpeg -hide_banner -encoders 2>/dev/null)
for e in libx264 libx265 libvpx-vp9; do
  grep -q " $e " <<<"$encoders" || { echo "skip: this ffmpeg has no $e encoder"; exit 77; }
done
"$hashes" /dev/null cpu >/dev/null 2>&1
[ $? = 77 ] && { echo "skip: this build reads no encoded video"; exit 77; }
configs="2 1|3 1|5 1|2 0"
if [ -n "${TSAN_OPTIONS:-}" ]; then
  configs="2 1|3 1|5 1"
  bin=""
  echo "under ThreadSanitizer: one libavcodec thread a decoder, no CLI run"
fi

s="testsrc2=size=320x240:rate=24,noise=alls=8:allf=t"
x265="-c:v libx265 -preset ultrafast"
ff -f lavfi -i "$s" -frames:v 150 $x265 -x265-params log-level=error:keyint=30:min-keyint=30:bframes=4 "$tmp/hevc_open.mkv"
ff -i "$tmp/hevc_open.mkv" -c copy "$tmp/hevc_open.mp4"
ff -f lavfi -i "$s" -frames:v 120 -pix_fmt yuv420p10le $x265 \
  -x265-params log-level=error:keyint=25:min-keyint=25:no-open-gop=1:radl=2:bframes=3 "$tmp/hevc10_radl.mp4"
ff -f lavfi -i "$s" -frames:v 80 $x265 -x265-params log-level=error:keyint=1 "$tmp/hevc_intra.mkv"
# scene cuts: the source switches patterns every 37 frames
ff -f lavfi -i "testsrc2=size=320x240:rate=24" -f lavfi -i "smptebars=size=320x240:rate=24" \
  -filter_complex "[0][1]overlay=enable='lt(mod(n,74),37)',noise=alls=8:allf=t" -frames:v 160 \
  -c:v libx264 -g 50 -bf 3 -b_strategy 2 "$tmp/h264_cuts.mp4"
ff -i "$tmp/h264_cuts.mp4" -c copy "$tmp/h264_cuts.mkv"
ff -f lavfi -i "$s" -frames:v 100 -c:v libx264 -g 25 -x264-params open-gop=1 "$tmp/h264_open.mp4"
ff -f lavfi -i "$s" -frames:v 40 -c:v libvpx-vp9 -deadline realtime -g 10 "$tmp/vp9.webm"

# hashes FILE SESSIONS THREADS -> $tmp/h.txt, the description's end line in $tmp/h.err
run() {
  "$hashes" "$1" cpu "$2" "$3" >"$tmp/h.txt" 2>"$tmp/h.err"
}
# clip, the fewest segments it must be cut into (1: not cut)
for c in "hevc_open.mkv 5" "hevc_open.mp4 5" "hevc10_radl.mp4 4" "hevc_intra.mkv 3" \
  "h264_cuts.mp4 3" "h264_cuts.mkv 3" "h264_open.mp4 1" "vp9.webm 0"; do
  read -r name least <<<"$c"
  f=$tmp/$name
  run "$f" 1 1
  cp "$tmp/h.txt" "$tmp/one.txt"
  frames=$(tail -1 "$tmp/one.txt")
  grep -q '^error' "$tmp/one.txt" && { bad "$name: one decoder: $(grep '^error' "$tmp/one.txt")"; continue; }
  IFS='|' read -r -a cfgs <<<"$configs"
  for cfg in "${cfgs[@]}"; do
    read -r n t <<<"$cfg"
    run "$f" "$n" "$t"
    at_end=$(grep 'at the end' "$tmp/h.err")
    cut=$(sed -n 's/.*(\([0-9]*\) cut so far).*/\1/p' <<<"$at_end")
    if ! cmp -s "$tmp/one.txt" "$tmp/h.txt"; then
      bad "$name, $n decoders, $t threads: frames differ from one decoder's ($frames):"
      diff "$tmp/one.txt" "$tmp/h.txt" | head -5
    elif [ "$least" = 0 ] && [ -n "$cut" ]; then
      bad "$name, $n decoders: cut, but it cannot be ($at_end)"
    elif [ "$least" != 0 ] && [ "${cut:-0}" -lt "$least" ]; then
      bad "$name, $n decoders: ${cut:-no} segments, want $least or more ($at_end)"
    else
      ok "$name, $n decoders, $t threads: $frames, the same hashes (${cut:-not} cut)"
    fi
  done
done

# standard input is not cut (the demuxer reads it once)
"$hashes" - cpu 3 1 <"$tmp/hevc_open.mkv" >"$tmp/h.txt" 2>"$tmp/h.err"
run "$tmp/hevc_open.mkv" 1 1
if cmp -s "$tmp/h.txt" <("$hashes" "$tmp/hevc_open.mkv" cpu 1 1 2>/dev/null) &&
  ! grep -q 'segments' "$tmp/h.err"; then
  ok "standard input: one decoder, the same hashes"
else
  bad "standard input with 3 decoders: $(tail -1 "$tmp/h.err")"
fi

# damaged streams: never a hang (timeout) or a crash, and several decoders end as one does: both
# read to the end, or both stop at an error. Their frames may differ: a damaged stream has no
# bits to keep. libavcodec leaves what it cannot decode of a frame as its buffer held it, a
# buffer of an earlier frame (here, one decoder given 1 and then 2 threads gives other frames
# for corrupt.mkv too, with no error).
size=$(stat -c %s "$tmp/hevc_open.mkv")
head -c $((size * 3 / 5)) "$tmp/hevc_open.mkv" >"$tmp/cut.mkv"
# bytes changed at random (fixed seeds) in the mp4's second part (its frames and its index, at
# the end: timestamps and sizes) and in the middle of the mkv (frames only)
python3 - "$tmp" <<'EOF'
import random, sys
for src, dst, lo, hi, seed in (('hevc_open.mp4', 'corrupt.mp4', 1 / 3, 1.0, 24),
                               ('hevc_open.mkv', 'corrupt.mkv', 0.2, 0.8, 7)):
    data = bytearray(open(f'{sys.argv[1]}/{src}', 'rb').read())
    rnd = random.Random(seed)
    for _ in range(40):
        i = rnd.randrange(int(len(data) * lo), int(len(data) * hi) - 64)
        data[i] = rnd.randrange(256)
    open(f'{sys.argv[1]}/{dst}', 'wb').write(data)
EOF
for name in cut.mkv corrupt.mp4 corrupt.mkv; do
  timeout 120 "$hashes" "$tmp/$name" cpu 1 1 >"$tmp/one.txt" 2>/dev/null
  rc1=$?
  timeout 120 "$hashes" "$tmp/$name" cpu 3 1 >"$tmp/h.txt" 2>/dev/null
  rc3=$?
  if [ $rc3 -gt 1 ] || [ $rc1 -gt 1 ]; then
    bad "$name: exit $rc1 (one decoder) and $rc3 (three): a crash or a hang"
  elif [ $rc1 != $rc3 ]; then
    bad "$name: one decoder exits $rc1, three exit $rc3: $(grep -m1 '^error' "$tmp/h.txt" "$tmp/one.txt")"
  else
    ok "$name: three decoders end as one does (exit $rc3, $(tail -1 "$tmp/one.txt") / $(tail -1 "$tmp/h.txt")$(grep -m1 '^error' "$tmp/h.txt" | cut -c1-90 | sed 's/^/; /'))"
  fi
done

# the CLI: --decode_sessions 3 scores as one decoder does, JSON value for value
if [ -n "$bin" ]; then
  ff -f lavfi -i "$s" -frames:v 150 $x265 -x265-params log-level=error:keyint=30:crf=40 "$tmp/dis.mp4"
  "$bin" -r "$tmp/hevc_open.mkv" -d "$tmp/dis.mp4" --decode_sessions 1 --json -o "$tmp/one.json" -q
  "$bin" -r "$tmp/hevc_open.mkv" -d "$tmp/dis.mp4" --decode_sessions 3 --json -o "$tmp/three.json" -q
  if [ -s "$tmp/one.json" ] && cmp -s <(values "$tmp/one.json") <(values "$tmp/three.json"); then
    ok "the CLI with --decode_sessions 3: the JSON of one decoder ($(grep -c '"frameNum"' "$tmp/one.json") frames)"
  else
    bad "the CLI with --decode_sessions 3: JSON differs from one decoder's"
  fi
fi
finish decode_segments
