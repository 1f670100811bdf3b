#!/usr/bin/env bash
# --aom_ctc / --nflx_ctc: each preset version gives Netflix's CLI (f85a8536) feature names in
# Netflix's order, a few of its values, its errors for unknown versions, and its order when
# combined with --model/--feature. The names and values were taken from Netflix's scalar vmaf
# build on the same inputs (ctc_names.txt: "PRESET VERSION: frame names | aggregate names").
# usage: cli_ctc_test.sh EXACTVMAF_BINARY SOURCE_DIR [SHARED_DIR]
set -u
bin=$1 src=$2 shared=${3:-}
. "$(dirname "$0")/lib.sh"
expected=$(dirname "$0")/ctc_names.txt

# names XML: the frame-0 attribute names, then "|", then the aggregate names (Netflix's order)
names() {
  local f a
  f=$(grep -m1 '<frame ' "$1" | grep -o ' [A-Za-z0-9_]*="' | tr -d ' ="' | grep -v '^frameNum$' |
      tr '\n' ' ')
  a=$(grep '<aggregate_metrics' "$1" | grep -o ' [A-Za-z0-9_]*="' | tr -d ' ="' | tr '\n' ' ')
  echo "$f| $a"
}
# pooled FILE NAME: the pooled mean of NAME in an XML output
pooled() { grep "<metric name=\"$2\"" "$1" 2>/dev/null | sed -E 's/.* mean="([^"]*)".*/\1/'; }
# aggregate FILE NAME
aggregate() { grep '<aggregate_metrics' "$1" 2>/dev/null | sed -E "s/.* $2=\"([^\"]*)\".*/\1/"; }
expect_value() { # what file name want
  local got
  got=$($1 "$2" "$3")
  [ "$got" = "$4" ] && ok || bad "$2: $3 is \"$got\", Netflix's is $4"
}

# every version: the names, in order
while IFS= read -r line; do
  preset=${line%%:*}
  set -- $preset
  out=$tmp/${1}_$2.xml
  if ! "$bin" -r "$ref" -d "$dis" --"$1" "$2" --xml -o "$out" -q 2>"$tmp/err"; then
    bad "--$1 $2 failed: $(cat "$tmp/err")"
    continue
  fi
  got="$preset: $(names "$out")"
  [ "$got" = "$line" ] && ok ||
    bad "--$1 $2 names differ from Netflix's: $(diff <(echo "$line" | tr ' ' '\n') <(echo "$got" | tr ' ' '\n') | head -6 | tr '\n' ' ')"
done <"$expected"
[ "$pass" -eq 8 ] || bad "want 8 preset versions checked, $pass passed"

# values from Netflix's scalar build on the same pair
a3=$tmp/aom_ctc_v3.0.xml
n1=$tmp/nflx_ctc_v1.0.xml
if [ -f "$a3" ] && [ -f "$n1" ]; then
  expect_value pooled "$a3" vmaf_neg 94.567491
  expect_value pooled "$a3" psnr_hvs 41.583370
  expect_value pooled "$a3" ciede2000 33.957368
  expect_value pooled "$a3" float_ms_ssim 23.643098
  expect_value aggregate "$a3" apsnr_y 33.788895
  expect_value pooled "$n1" vmaf 97.867560
  expect_value pooled "$n1" vmaf_neg 96.439354
fi

# one line naming the problem, exit != 0, no output (lib.sh)
expect_error aom_proposed "--aom_ctc proposed deprecated" -r "$ref" -d "$dis" --aom_ctc proposed
expect_error aom_bad "aom_ctc v8.0 v7.0" -r "$ref" -d "$dis" --aom_ctc v8.0
expect_error aom_empty "aom_ctc" -r "$ref" -d "$dis" --aom_ctc ""
expect_error nflx_bad "nflx_ctc v2.0 v1.0" -r "$ref" -d "$dis" --nflx_ctc v2.0
# two models named vmaf, as Netflix refuses
expect_error twice "vmaf name" -r "$ref" -d "$dis" --aom_ctc v1.0 --nflx_ctc v1.0
expect_error model_vmaf "vmaf name" -r "$ref" -d "$dis" --aom_ctc v1.0 --model version=vmaf_v0.6.1
# v6.0+ lets Netflix's CLI open inputs of different depths (it then misreads and crashes):
# refused here, before scoring
{ head -c 44 "$ref" | sed 's/C420jpeg/C420p10 /'; printf 'FRAME\n'; head -c 466560 /dev/zero; } \
  >"$tmp/d10.y4m"
expect_error mixed_depth "8-bit 10-bit common depth" -r "$ref" -d "$tmp/d10.y4m" --aom_ctc v6.0
expect_error mixed_depth_v1 "8-bit 10-bit" -r "$ref" -d "$tmp/d10.y4m" --aom_ctc v1.0

# with --model/--feature: presets append where they stand; v7.0 sets float_ssim's options in
# place, keeping the position of an earlier --feature float_ssim (Netflix's order; this header
# is Netflix's CSV header for the same command)
"$bin" -r "$ref" -d "$dis" --model version=vmaf_b_v0.6.3:name=b --feature float_ssim \
  --aom_ctc v7.0 --feature motion --csv -o "$tmp/mix.csv" -q 2>"$tmp/err" || bad "mix: $(cat "$tmp/err")"
want="Frame,integer_adm2,integer_aim,integer_adm3,integer_adm_scale0,integer_adm_scale1,integer_adm_scale2,integer_adm_scale3,VMAF_integer_feature_motion_sad_score,integer_vif_scale0,integer_vif_scale1,integer_vif_scale2,integer_vif_scale3,integer_adm2_egl_1,integer_aim_egl_1,integer_adm3_egl_1,integer_adm_scale0_egl_1,integer_adm_scale1_egl_1,integer_adm_scale2_egl_1,integer_adm_scale3_egl_1,integer_vif_scale0_egl_1,integer_vif_scale1_egl_1,integer_vif_scale2_egl_1,integer_vif_scale3_egl_1,float_ssim,psnr_y,psnr_cb,psnr_cr,ciede2000,float_ms_ssim,psnr_hvs_y,psnr_hvs_cb,psnr_hvs_cr,psnr_hvs,cambi,integer_motion2,integer_motion3,b,vmaf,vmaf_neg,b_0001,b_0002,b_0003,b_0004,b_0005,b_0006,b_0007,b_0008,b_0009,b_0010,b_0011,b_0012,b_0013,b_0014,b_0015,b_0016,b_0017,b_0018,b_0019,b_0020,b_bagging,b_stddev,b_ci_p95_lo,b_ci_p95_hi,"
[ "$(head -1 "$tmp/mix.csv")" = "$want" ] && ok || bad "mix: header $(head -1 "$tmp/mix.csv")"

"$bin" --help | grep -q -- "--aom_ctc" && "$bin" --help | grep -q -- "--nflx_ctc" && ok ||
  bad "--help does not list --aom_ctc and --nflx_ctc"

# the corpus: v7.0's float_ssim scale=1 at 1080p, reduced_hbd_peak at 10 bits (Netflix's values)
if [ -n "$shared" ] && [ -d "$shared/corpus" ]; then
  c=$shared/corpus
  for v in v6.0 v7.0; do
    "$bin" -r "$c/aitzgorri_1920x1080_yuv420p_ref.yuv" -d "$c/aitzgorri_1920x1080_yuv420p_x264crf30.yuv" \
      -w 1920 -h 1080 -p 420 -b 8 --aom_ctc $v --xml -o "$tmp/hd_$v.xml" -q || bad "1080p $v"
  done
  expect_value pooled "$tmp/hd_v6.0.xml" float_ssim 14.750157
  expect_value pooled "$tmp/hd_v7.0.xml" float_ssim 7.844874
  for p in "aom_ctc v1.0 36.311477" "nflx_ctc v1.0 36.336986"; do
    set -- $p
    "$bin" -r "$c/sunset_576x324_yuv420p10le_ref.yuv" -d "$c/sunset_576x324_yuv420p10le_x264crf30.yuv" \
      -w 576 -h 324 -p 420 -b 10 --"$1" "$2" --xml -o "$tmp/ten_$1.xml" -q || bad "10-bit $1"
    expect_value pooled "$tmp/ten_$1.xml" psnr_y "$3"
  done
  expect_value aggregate "$tmp/ten_aom_ctc.xml" apsnr_y 36.299232
fi

finish cli_ctc
