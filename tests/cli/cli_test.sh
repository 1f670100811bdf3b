#!/usr/bin/env bash
# CLI tests: every bad input gets one line on stderr naming the file and the problem, a
# non-zero exit and no output file; good runs agree across threads, pipes and frame controls.
# usage: cli_test.sh EXACTVMAF_BINARY SOURCE_DIR [SHARED_DIR]
set -u
bin=$1 src=$2 shared=${3:-}
. "$(dirname "$0")/lib.sh"

# Raw fixtures cut from the sample (576x324 8-bit 4:2:0: 279936 bytes a frame).
frame=279936
tail -c +$((44 + 1)) "$ref" | head -c $((frame + 6)) | tail -c $frame >"$tmp/one.yuv"
cat "$tmp/one.yuv" "$tmp/one.yuv" >"$tmp/two.yuv"
head -c $((frame + 100)) "$tmp/two.yuv" >"$tmp/ragged.yuv"
head -c 20 "$ref" >"$tmp/short_header.y4m"
printf 'YUV4MPEG2 W576 C420jpeg\n' >"$tmp/no_height.y4m"
{ head -c 44 "$ref"; printf 'FRAMX\n'; head -c $frame "$tmp/one.yuv"; } >"$tmp/bad_marker.y4m"
{ head -c 44 "$ref"; printf 'FRAME\n'; head -c 1000 "$tmp/one.yuv"; } >"$tmp/truncated.y4m"
sed '1s/C420jpeg/C411/' "$ref" >"$tmp/c411.y4m"
sed '1s/W576/W512/' "$ref" >"$tmp/narrow.y4m"
raw=(-w 576 -h 324 -p 420 -b 8)

expect_error missing_file "nope.y4m" -r "$tmp/nope.y4m" -d "$dis" --feature psnr
expect_error ragged_yuv "ragged.yuv 100" -r "$tmp/ragged.yuv" -d "$tmp/two.yuv" "${raw[@]}" --feature psnr
expect_error short_header "short_header.y4m" -r "$tmp/short_header.y4m" -d "$dis" --feature psnr
expect_error no_height "no_height.y4m" -r "$tmp/no_height.y4m" -d "$dis" --feature psnr
expect_error bad_marker "bad_marker.y4m frame" -r "$tmp/bad_marker.y4m" -d "$dis" --feature psnr
expect_error truncated_frame "truncated.y4m" -r "$tmp/truncated.y4m" -d "$dis" --feature psnr
expect_error c411 "c411.y4m 411" -r "$tmp/c411.y4m" -d "$dis" --feature psnr
expect_error geometry "narrow.y4m 512x324 576x324" -r "$tmp/narrow.y4m" -d "$dis" --feature psnr
expect_error depth "one.yuv 10-bit 8-bit" -r "$tmp/one.yuv" -d "$dis" -w 288 -h 324 -p 420 -b 10 --feature psnr
expect_error yuv_not_y4m "one.yuv y4m" -r "$tmp/one.yuv" -d "$dis" --feature psnr
expect_error raw_incomplete "--bitdepth" -r "$tmp/one.yuv" -d "$tmp/one.yuv" -w 576 -h 324 --feature psnr
expect_error bitdepth_range "bit depth 17" -r "$tmp/one.yuv" -d "$tmp/one.yuv" -w 576 -h 324 -p 420 -b 17 --feature psnr
expect_error pixel_format "pixel format 411" -r "$tmp/one.yuv" -d "$tmp/one.yuv" -w 576 -h 324 -p 411 -b 8 --feature psnr
expect_error unknown_extractor "nosuch" -r "$ref" -d "$dis" --feature nosuch
expect_error unknown_option "psnr enable_foo" -r "$ref" -d "$dis" --feature psnr=enable_foo=true
expect_error bad_bool "enable_mse maybe" -r "$ref" -d "$dis" --feature psnr=enable_mse=maybe
expect_error out_of_range "min_sse -1 range" -r "$ref" -d "$dis" --feature psnr=min_sse=-1
expect_error bad_number "min_sse abc" -r "$ref" -d "$dis" --feature psnr=min_sse=abc
expect_error unknown_flag "--nosuch" -r "$ref" -d "$dis" --nosuch
expect_error no_reference "--reference" -d "$dis" --feature psnr
expect_error both_stdin "stdin" -r - -d - --feature psnr

# Good runs: full-precision JSON of three extractors.
score() { "$bin" -r "$1" -d "$2" -n --feature psnr=enable_mse=true:enable_apsnr=true \
  --feature float_psnr --feature float_moment --json --precision max -q "${@:3}"; }

score "$ref" "$dis" --threads 1 -o "$tmp/t1.json" 2>"$tmp/stderr" && ok || bad "threads 1 run: $(cat "$tmp/stderr")"
score "$ref" "$dis" --threads 2 -o "$tmp/t2.json" 2>/dev/null && ok || bad "threads 2 run"
score "$ref" "$dis" --threads 5 -o "$tmp/t5.json" 2>/dev/null && ok || bad "threads 5 run"
strip_fps() { grep -v '"fps"' "$1"; }
cmp -s <(strip_fps "$tmp/t1.json") <(strip_fps "$tmp/t2.json") && ok || bad "threads 1 and 2 differ"
cmp -s <(strip_fps "$tmp/t1.json") <(strip_fps "$tmp/t5.json") && ok || bad "threads 1 and 5 differ"
# A thread count past the cores is capped with one warning line, and memory stays bounded (the
# count would otherwise ask for a frame slot per thread: 10^6 slots of this pair are 115 GB).
# (AddressSanitizer reserves terabytes of shadow memory: there the bound is not checked)
limit=4000000
grep -qa __asan_init "$bin" && limit=unlimited
(ulimit -v "$limit"; score "$ref" "$dis" --threads 1000000 -o "$tmp/tbig.json" 2>"$tmp/stderr") &&
    ok || bad "threads 1000000 run (ulimit -v $limit): $(cat "$tmp/stderr")"
cmp -s <(strip_fps "$tmp/t1.json") <(strip_fps "$tmp/tbig.json") && ok || bad "threads 1 and 10^6 differ"
for d in "-d $dis" "-d $dis -d $dis"; do # without -q: the warning, once, also for many encodes
    # shellcheck disable=SC2086
    "$bin" -r "$ref" $d --feature psnr -n --threads 1000000 >/dev/null 2>"$tmp/stderr"
    [ "$(grep -c . "$tmp/stderr")" = 1 ] && grep -q "threads: 1000000 asked for" "$tmp/stderr" &&
        ok || bad "threads 1000000 ($d): not one warning line: $(cat "$tmp/stderr")"
done

# A pipe: the reference from stdin gives the same values.
score - "$dis" -o "$tmp/pipe.json" <"$ref" 2>/dev/null && ok || bad "stdin run"
cmp -s <(strip_fps "$tmp/t1.json") <(strip_fps "$tmp/pipe.json") && ok || bad "stdin result differs"

# Raw .yuv of the same frames gives the same values as y4m.
for f in ref dis; do
  src_y4m=$([ $f = ref ] && echo "$ref" || echo "$dis")
  python3 - "$src_y4m" "$tmp/$f.yuv" <<'PY' || bad "y4m to yuv"
import sys
data = open(sys.argv[1], 'rb').read()
header, rest = data.split(b'\n', 1)
out = open(sys.argv[2], 'wb')
while rest:
    line, rest = rest.split(b'\n', 1)
    out.write(rest[:279936])
    rest = rest[279936:]
PY
done
score "$tmp/ref.yuv" "$tmp/dis.yuv" "${raw[@]}" -o "$tmp/raw.json" 2>/dev/null && ok || bad "raw run"
cmp -s <(strip_fps "$tmp/t1.json") <(strip_fps "$tmp/raw.json") && ok || bad "raw result differs"

# Frame controls.
score "$ref" "$dis" --frame_cnt 2 -o "$tmp/cnt.json" 2>/dev/null && ok || bad "frame_cnt run"
[ "$(grep -c '"frameNum"' "$tmp/cnt.json")" -eq 2 ] && ok || bad "frame_cnt 2 did not give 2 frames"
score "$ref" "$dis" --frame_skip_ref 1 --frame_skip_dist 1 -o "$tmp/skip.json" 2>/dev/null && ok || bad "skip run"
want=$(grep -A3 '"frameNum": 1,' "$tmp/t1.json" | grep psnr_y)
got=$(grep -A3 '"frameNum": 0,' "$tmp/skip.json" | grep psnr_y)
[ -n "$want" ] && [ "$want" = "$got" ] && ok || bad "frame_skip: frame 0 after skipping is not frame 1 ($want / $got)"
score "$ref" "$dis" --subsample 2 -o "$tmp/sub.json" 2>/dev/null && ok || bad "subsample run"
[ "$(grep -c '"frameNum"' "$tmp/sub.json")" -eq 2 ] && ok || bad "subsample 2 of 3 frames did not print frames 0 and 2"

# Models: the default is vmaf_v0.6.1 (Netflix's frame 0 score of this pair is 92.417663);
# with -n a --model brings its features but no score; bad models are one-line errors.
"$bin" -r "$ref" -d "$dis" -q --csv -o "$tmp/vmaf.csv" 2>/dev/null && ok || bad "default model run"
head -1 "$tmp/vmaf.csv" | grep -q ',vmaf,$' && ok || bad "default model: no vmaf column"
[ "$(sed -n 2p "$tmp/vmaf.csv" | awk -F, '{print $(NF-1)}')" = 92.417663 ] && ok ||
  bad "default model: frame 0 is not 92.417663: $(sed -n 2p "$tmp/vmaf.csv")"
"$bin" -r "$ref" -d "$dis" -q -n --model version=vmaf_v0.6.1 --csv -o "$tmp/nopred.csv" 2>/dev/null && ok || bad "-n --model run"
head -1 "$tmp/nopred.csv" | grep -q 'integer_adm2' && ! head -1 "$tmp/nopred.csv" | grep -q 'vmaf,$' && ok ||
  bad "-n --model: want the model's features and no score: $(head -1 "$tmp/nopred.csv")"
"$bin" -r "$ref" -d "$dis" -q --csv --precision max --model version=vmaf_v0.6.1:enable_clip=false -o "$tmp/ec.csv" 2>/dev/null &&
  "$bin" -r "$ref" -d "$dis" -q --csv --precision max --model version=vmaf_v0.6.1:disable_clip -o "$tmp/dc.csv" 2>/dev/null &&
  cmp -s "$tmp/ec.csv" "$tmp/dc.csv" && ok || bad "enable_clip=false is not disable_clip"
printf '{"model_dict": {"model_type": "LIBSVMNUSVR",\n  "norm_type": }' >"$tmp/broken.json"
expect_error model_version "nosuch vmaf_v0.6.1" -r "$ref" -d "$dis" --model version=nosuch
expect_error model_missing "nope.json" -r "$ref" -d "$dis" --model path="$tmp/nope.json"
expect_error model_malformed "broken.json line 2" -r "$ref" -d "$dis" --model path="$tmp/broken.json"
expect_error model_overload "adm nosuch_option" -r "$ref" -d "$dis" --model version=vmaf_v0.6.1:adm.nosuch_option=1

# A missing output directory is an error (found before scoring: cli_user_test.sh), no partial file.
"$bin" -r "$ref" -d "$dis" --feature psnr -o "$tmp/nodir/x.xml" 2>"$tmp/stderr"
rc=$?
[ $rc -ne 0 ] && grep -q "nodir/x.xml" "$tmp/stderr" && [ ! -e "$tmp/nodir" ] && ok ||
  bad "missing output directory: rc $rc, $(cat "$tmp/stderr")"

# Netflix's own CLI output (shared/golden/cli): the same command gives the same bytes in every
# layout, but for the version and fps fields.
cli=$shared/golden/cli
if [ -n "$shared" ] && [ -d "$cli" ]; then
  nref=$shared/corpus/life_576x324_yuv420p_ref.yuv
  ndis=$shared/corpus/life_576x324_yuv420p_x264crf23.yuv
  norm() { sed -E 's/(version=?"?:? ?)"?[0-9a-z.]+"?/\1V/; s/(fps=?"?:? ?)"?[0-9.]+"?/\1F/' "$1"; }
  for fmt in xml json csv sub; do
    "$bin" -r "$nref" -d "$ndis" -w 576 -h 324 -p 420 -b 8 --feature psnr=enable_apsnr=true \
      --feature float_ssim --model version=vmaf_v0.6.1 --$fmt -o "$tmp/netflix.$fmt" -q 2>/dev/null
    cmp -s <(norm "$tmp/netflix.$fmt") <(norm "$cli/nat576_8bit_x264_crf23.$fmt") && ok ||
      bad "$fmt output differs from Netflix's CLI: $(diff <(norm "$tmp/netflix.$fmt") <(norm "$cli/nat576_8bit_x264_crf23.$fmt") | head -4)"
  done
fi

# cambi refuses a 10-bit luma sample above the depth, naming the first in raster order (found
# row by row: a row's largest sample first, then its position)
{ head -c $((576 * 100 * 2 + 74)) /dev/zero; printf '\xdc\x05'; head -c $((576 * 324 * 2 - 576 * 100 * 2 - 76 + 576 * 162 * 2)) /dev/zero; } >"$tmp/over10.yuv"
"$bin" -r "$tmp/over10.yuv" -d "$tmp/over10.yuv" -w 576 -h 324 -p 420 -b 10 --feature cambi -n \
  -o "$tmp/over10.json" 2>"$tmp/over10.err"
rc=$?
[ $rc -ne 0 ] && [ "$(cat "$tmp/over10.err")" = "exactvmaf: $tmp/over10.yuv: cambi: frame 0: distorted luma sample 1500 at (37, 100) exceeds the 10-bit maximum 1023" ] &&
  ok || bad "cambi's refusal of a sample above the depth (one line, naming the file): rc $rc, $(head -3 "$tmp/over10.err")"
# ... of the reference's with full_ref, and of one distorted among many: the file that has it
head -c $((576 * 324 * 3)) /dev/zero >"$tmp/zero10.yuv"
"$bin" -r "$tmp/over10.yuv" -d "$tmp/zero10.yuv" -w 576 -h 324 -p 420 -b 10 --feature cambi=full_ref=true -n \
  -o "$tmp/over10.json" 2>"$tmp/over10.err"
rc=$?
[ $rc -ne 0 ] && [ "$(cat "$tmp/over10.err")" = "exactvmaf: $tmp/over10.yuv: cambi: frame 0: reference luma sample 1500 at (37, 100) exceeds the 10-bit maximum 1023" ] &&
  ok || bad "cambi full_ref's refusal of the reference's sample: rc $rc, $(head -3 "$tmp/over10.err")"
"$bin" -r "$tmp/zero10.yuv" -d "$tmp/zero10.yuv" -d "$tmp/over10.yuv" -w 576 -h 324 -p 420 -b 10 --feature cambi -n \
  -o "$tmp/over10_{}.json" 2>"$tmp/over10.err"
rc=$?
[ $rc -ne 0 ] && [ "$(cat "$tmp/over10.err")" = "exactvmaf: $tmp/over10.yuv: cambi: frame 0: distorted luma sample 1500 at (37, 100) exceeds the 10-bit maximum 1023" ] &&
  ok || bad "cambi's refusal with many encodes names the encode: rc $rc, $(head -3 "$tmp/over10.err")"

finish cli_behaviour
