#!/usr/bin/env bash
# libvmaf.so.3, Netflix libvmaf's API on exactvmaf, used only through what cmake --install puts
# in an empty prefix:
#  - the files, the soname libvmaf.so.3, only vmaf_* exported, libvmaf.pc at 3.2.0 (>= 2.0.0 as
#    ffmpeg's configure requires);
#  - score_libvmaf.c, written against Netflix's public API and built with only
#    `pkg-config --cflags --libs libvmaf`, on the bundled sample pair: every value it reads
#    (vmaf_score_at_index, vmaf_feature_score_at_index, vmaf_score_pooled,
#    vmaf_feature_score_pooled) equals the installed exactvmaf CLI's to the last bit, and its
#    vmaf_write_output JSON/XML/CSV/SUB equal the CLI's files (the fps timing masked);
#  - with ../shared present: on every corpus pair, the golden bits of Netflix libvmaf for
#    model_vmaf_v0.6.1, psnr and float_ssim (frames and the four pooled values).
# usage: compat_test.sh BUILD_DIR SOURCE_DIR [SHARED_DIR (default SOURCE_DIR/../shared)]
set -uo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
. "$src/tests/cli/lib.sh"
. "$src/tests/install/prefix.sh"
py="python3 $src/tests/compat/compare.py"

install_prefix
expect_installed "$libdir/libvmaf.so.3.2.0" "$libdir/libvmaf.so.3" "$libdir/libvmaf.so" \
  "$libdir/pkgconfig/libvmaf.pc" "$prefix/include/libvmaf/libvmaf.h" \
  "$prefix/include/libvmaf/model.h" "$prefix/include/libvmaf/feature.h" \
  "$prefix/include/libvmaf/picture.h" "$prefix/include/libvmaf/libvmaf_cuda.h"
expect_soname "$libdir/libvmaf.so.3.2.0" libvmaf.so.3
expect_api_only "$libdir/libvmaf.so" vmaf_
# 29 in libvmaf.h, model.h, feature.h and picture.h, 4 in libvmaf_cuda.h, and
# vmaf_cuda_state_free of later libvmaf_cuda.h releases
check "$n_api vmaf_ functions exported, libvmaf 3.2.0's headers declare 33 (+ vmaf_cuda_state_free)" [ "$n_api" -eq 34 ]

check "libvmaf.pc's version is not 3.2.0" [ "$(pkg-config --modversion libvmaf)" = 3.2.0 ]
check "libvmaf.pc fails ffmpeg's libvmaf >= 2.0.0" pkg-config --atleast-version=2.0.0 libvmaf
cc=${CC:-cc}
# shellcheck disable=SC2046
$cc -std=c11 -Wall -Werror -o "$tmp/score" "$src/tests/compat/score_libvmaf.c" \
  $(pkg-config --cflags --libs libvmaf) 2>"$tmp/cc.log" || { bad "pkg-config build: $(head -5 "$tmp/cc.log")"; exit 1; }
export LD_LIBRARY_PATH=$libdir
expect_loads "$tmp/score" libvmaf.so.3

# lib_vs_cli LABEL REF DIS CHROMA SPEC: score_libvmaf on the 8-bit y4m pair with SPEC (model=V or
# feature=F) gives every value the installed CLI gives at --precision max (a check). Sets cli
# (the CLI's command for SPEC) and out (score_libvmaf wrote $out.lib.<fmt>); 1 if a program failed.
lib_vs_cli() {
  local label=$1 r=$2 d=$3 chroma=$4 c=$5 tag=${5#*=} args names
  out=$tmp/${label// /_}_$tag
  if [ "${c%%=*}" = model ]; then args=(--model "version=$tag"); else args=(--no_prediction --feature "$tag"); fi
  cli=("$prefix/bin/exactvmaf" -r "$r" -d "$d" "${args[@]}" --threads 2 -q)
  "${cli[@]}" --precision max --json -o "$out.max.json" 2>"$tmp/cli.err" ||
    { bad "the CLI failed on $label $tag: $(head -3 "$tmp/cli.err")"; return 1; }
  read -r -a names <<<"$($py cli-names "$out.max.json")"
  $py cli-expect "$out.max.json" "${names[@]}" >"$out.want"
  if ! "$tmp/score" "$r" "$d" 0 0 "$chroma" 8 "$c" "$out.lib" "${names[@]}" >"$out.got" 2>"$out.err"; then
    bad "score_libvmaf on the $label, $tag: $(head -3 "$out.err")"; return 1
  fi
  counted $py diff "$out.want" "$out.got" "$label $tag (${#names[@]} features) vs the CLI"
  return 0
}

# The sample pair against the installed CLI: values at full precision, then the writers.
for c in model=vmaf_v0.6.1 feature=psnr feature=float_ssim; do
  lib_vs_cli sample "$ref" "$dis" 420 "$c" || continue
  tag=${c#*=}
  for fmt in json xml csv sub; do
    "${cli[@]}" "--$fmt" -o "$out.cli.$fmt" 2>/dev/null || { bad "CLI --$fmt on $tag"; continue; }
    if cmp -s <($py mask-fps "$out.cli.$fmt") <($py mask-fps "$out.lib.$fmt"); then
      ok "sample $tag: vmaf_write_output $fmt equals the CLI's ($(wc -l <"$out.cli.$fmt") lines)"
    else
      bad "sample $tag: vmaf_write_output $fmt differs from the CLI's:"
      diff <($py mask-fps "$out.cli.$fmt") <($py mask-fps "$out.lib.$fmt") | head -6
    fi
  done
done

# Gray: the sample's luma as 8-bit mono y4m, read as yuv400p through the library (its chroma
# planes 0 x 0 and NULL, as Netflix's vmaf_picture_alloc makes them) against the CLI.
for k in ref dis; do
  python3 - "$src/testdata/sample_$k.y4m" "$tmp/gray_$k.y4m" <<'PY' || bad "gray fixture $k"
import sys
data = open(sys.argv[1], "rb").read()
header, body = data.split(b"\n", 1)
luma = 576 * 324
with open(sys.argv[2], "wb") as f:
    f.write(header.replace(b" C420jpeg", b" Cmono") + b"\n")
    for fr in body.split(b"FRAME\n")[1:]:
        f.write(b"FRAME\n" + fr[:luma])
PY
done
for c in model=vmaf_v0.6.1 feature=psnr; do
  lib_vs_cli "gray sample" "$tmp/gray_ref.y4m" "$tmp/gray_dis.y4m" 400 "$c"
done

# The corpus against Netflix's golden bits.
shared=${3:-$src/../shared}
if [ ! -f "$shared/golden/README.md" ] || [ ! -f "$shared/corpus/corpus.tsv" ]; then
  echo "skip: $shared absent: the corpus against Netflix's golden bits is not run"
else
  total=0
  while IFS=$'\t' read -r name r d w h chroma depth _; do
    [ "$name" = name ] && continue
    for c in model_vmaf_v0.6.1:model=vmaf_v0.6.1 psnr:feature=psnr float_ssim:feature=float_ssim; do
      case_id=${c%%:*} spec=${c#*:}
      $py golden "$shared/golden/$name.tsv" "$case_id" >"$tmp/g.want"; rc=$?
      [ $rc -eq 3 ] && { echo "skip: $name $case_id: refused by libvmaf"; continue; }
      read -r -a names <<<"$($py golden-names "$shared/golden/$name.tsv" "$case_id")"
      if ! "$tmp/score" "$shared/corpus/$r" "$shared/corpus/$d" "$w" "$h" "$chroma" "$depth" \
           "$spec" "$tmp/g.lib" "${names[@]}" >"$tmp/g.got" 2>"$tmp/g.err"; then
        bad "score_libvmaf on $name, $case_id: $(head -3 "$tmp/g.err")"; continue
      fi
      counted $py diff "$tmp/g.want" "$tmp/g.got" "golden $name $case_id" &&
        total=$((total + $(grep -c . "$tmp/g.want")))
    done
  done <"$shared/corpus/corpus.tsv"
  echo "golden: $total values equal to Netflix's bits"
fi

finish compat
