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
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
py="python3 $src/tests/compat/compare.py"
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; exit 1; }
libdir=$prefix/lib
[ -d "$prefix/lib64" ] && [ ! -d "$libdir" ] && libdir=$prefix/lib64
for f in "$libdir/libvmaf.so.3.2.0" "$libdir/libvmaf.so.3" "$libdir/libvmaf.so" \
         "$libdir/pkgconfig/libvmaf.pc" "$prefix/include/libvmaf/libvmaf.h" \
         "$prefix/include/libvmaf/model.h" "$prefix/include/libvmaf/feature.h" \
         "$prefix/include/libvmaf/picture.h"; do
  [ -e "$f" ] || bad "not installed: ${f#"$prefix"/}"
done
soname=$(readelf -d "$libdir/libvmaf.so.3.2.0" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
[ "$soname" = libvmaf.so.3 ] || bad "soname is '$soname', not libvmaf.so.3"
leaks=$(nm -D --defined-only "$libdir/libvmaf.so" | awk 'NF == 3 && $3 !~ /^vmaf_/ {print $3}')
[ -z "$leaks" ] || bad "libvmaf.so exports: $(echo $leaks | head -c 300)"
n_api=$(nm -D --defined-only "$libdir/libvmaf.so" | grep -c ' vmaf_')
[ "$n_api" -eq 29 ] || bad "$n_api vmaf_ functions exported, libvmaf 3.2.0's headers declare 29"

export PKG_CONFIG_PATH=$libdir/pkgconfig
[ "$(pkg-config --modversion libvmaf)" = 3.2.0 ] || bad "libvmaf.pc's version is not 3.2.0"
pkg-config --atleast-version=2.0.0 libvmaf || bad "libvmaf.pc fails ffmpeg's libvmaf >= 2.0.0"
cc=${CC:-cc}
# shellcheck disable=SC2046
$cc -std=c11 -Wall -Werror -o "$tmp/score" "$src/tests/compat/score_libvmaf.c" \
  $(pkg-config --cflags --libs libvmaf) 2>"$tmp/cc.log" || { bad "pkg-config build: $(head -5 "$tmp/cc.log")"; exit 1; }
export LD_LIBRARY_PATH=$libdir
loads=$(LD_LIBRARY_PATH=$libdir ldd "$tmp/score") # whole first: grep -q would cut the pipe
grep -q "libvmaf.so.3 => $libdir" <<<"$loads" ||
  bad "the program does not load the installed libvmaf.so.3"

# The sample pair against the installed CLI: values at full precision, then the writers.
ref=$src/testdata/sample_ref.y4m dis=$src/testdata/sample_dis.y4m
for c in model=vmaf_v0.6.1 feature=psnr feature=float_ssim; do
  tag=${c#*=}
  if [ "${c%%=*}" = model ]; then args=(--model "version=$tag"); else args=(--no_prediction --feature "$tag"); fi
  cli=("$prefix/bin/exactvmaf" -r "$ref" -d "$dis" "${args[@]}" --threads 2 -q)
  "${cli[@]}" --precision max --json -o "$tmp/$tag.max.json" 2>"$tmp/cli.err" ||
    { bad "the CLI failed on $tag: $(head -3 "$tmp/cli.err")"; continue; }
  read -r -a names <<<"$($py cli-names "$tmp/$tag.max.json")"
  $py cli-expect "$tmp/$tag.max.json" "${names[@]}" >"$tmp/$tag.want"
  if ! "$tmp/score" "$ref" "$dis" 0 0 420 8 "$c" "$tmp/$tag.lib" "${names[@]}" \
       >"$tmp/$tag.got" 2>"$tmp/$tag.err"; then
    bad "score_libvmaf on the sample, $tag: $(head -3 "$tmp/$tag.err")"; continue
  fi
  $py diff "$tmp/$tag.want" "$tmp/$tag.got" "sample $tag (${#names[@]} features) vs the CLI" || fails=$((fails + 1))
  for fmt in json xml csv sub; do
    "${cli[@]}" "--$fmt" -o "$tmp/$tag.cli.$fmt" 2>/dev/null || { bad "CLI --$fmt on $tag"; continue; }
    if cmp -s <($py mask-fps "$tmp/$tag.cli.$fmt") <($py mask-fps "$tmp/$tag.lib.$fmt"); then
      echo "ok: sample $tag: vmaf_write_output $fmt equals the CLI's ($(wc -l <"$tmp/$tag.cli.$fmt") lines)"
    else
      bad "sample $tag: vmaf_write_output $fmt differs from the CLI's:"
      diff <($py mask-fps "$tmp/$tag.cli.$fmt") <($py mask-fps "$tmp/$tag.lib.$fmt") | head -6
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
  tag=${c#*=}
  if [ "${c%%=*}" = model ]; then args=(--model "version=$tag"); else args=(--no_prediction --feature "$tag"); fi
  "$prefix/bin/exactvmaf" -r "$tmp/gray_ref.y4m" -d "$tmp/gray_dis.y4m" "${args[@]}" --threads 2 -q \
    --precision max --json -o "$tmp/gray_$tag.json" 2>"$tmp/cli.err" ||
    { bad "the CLI failed on gray $tag: $(head -3 "$tmp/cli.err")"; continue; }
  read -r -a names <<<"$($py cli-names "$tmp/gray_$tag.json")"
  $py cli-expect "$tmp/gray_$tag.json" "${names[@]}" >"$tmp/gray_$tag.want"
  if ! "$tmp/score" "$tmp/gray_ref.y4m" "$tmp/gray_dis.y4m" 0 0 400 8 "$c" "$tmp/gray_$tag.lib" \
       "${names[@]}" >"$tmp/gray_$tag.got" 2>"$tmp/gray_$tag.err"; then
    bad "score_libvmaf on the gray sample, $tag: $(head -3 "$tmp/gray_$tag.err")"; continue
  fi
  $py diff "$tmp/gray_$tag.want" "$tmp/gray_$tag.got" "gray sample $tag (${#names[@]} features) vs the CLI" ||
    fails=$((fails + 1))
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
      if $py diff "$tmp/g.want" "$tmp/g.got" "golden $name $case_id"; then
        total=$((total + $(grep -c . "$tmp/g.want")))
      else
        fails=$((fails + 1))
      fi
    done
  done <"$shared/corpus/corpus.tsv"
  echo "golden: $total values equal to Netflix's bits"
fi

[ $fails -eq 0 ] && echo "compat: all checks passed" || echo "compat: $fails failed"
[ $fails -eq 0 ]
