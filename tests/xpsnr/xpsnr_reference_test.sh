#!/usr/bin/env bash
# The xpsnr goldens against their reference: for every case of xpsnr_cases.h, write its raw pair
# (xpsnr_golden --write-input), run ffmpeg 7.1's xpsnr filter (scripts/xpsnr_reference.sh) and
# compare its stats file with tests/xpsnr/golden/<id>.txt line for line (or, with --regen,
# write that file). Skips (77) when the reference build or shared/ is absent.
#   xpsnr_reference_test.sh XPSNR_GOLDEN SOURCE_DIR REFERENCE_DEST [--regen] [ID...]
set -euo pipefail
golden_bin=$1 src=$2 ref_dest=$3
shift 3
regen=0
if [ "${1:-}" = --regen ]; then regen=1; shift; fi
script=$src/scripts/xpsnr_reference.sh
if [ ! -x "$ref_dest/build/ffmpeg" ]; then
  echo "xpsnr_reference: no reference build in $ref_dest ($script $ref_dest builds it): skipped"
  exit 77
fi
version=$("$script" "$ref_dest" version)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ $# -eq 0 ]; then mapfile -t ids < <("$golden_bin" --list); else ids=("$@"); fi
bad=0
for id in "${ids[@]}"; do
  rm -f "$tmp"/*
  geometry=$("$golden_bin" --write-input "$id" "$tmp") || {
    rc=$?
    [ $rc -eq 77 ] && exit 77
    echo "xpsnr_reference: $id: no input (shared/ missing?)"
    exit 77
  }
  read -r w h fmt rate <<<"$geometry"
  "$script" "$ref_dest" run "$tmp/ref.yuv" "$tmp/dis.yuv" "$w" "$h" "$fmt" "$rate" "$tmp/stats"
  want=$src/tests/xpsnr/golden/$id.txt
  if [ $regen -eq 1 ]; then
    { echo "# xpsnr of ffmpeg $version (Debian trixie), scripts/xpsnr_reference.sh"
      echo "# case $id: ${w}x$h $fmt, -framerate $rate (tests/xpsnr/xpsnr_cases.h)"
      cat "$tmp/stats"; } >"$want"
    echo "wrote $want"
  elif ! diff <(grep -v '^#' "$want") "$tmp/stats" >"$tmp/diff"; then
    echo "DIFF $id: the reference's stats differ from $want:"
    head -20 "$tmp/diff"
    bad=$((bad + 1))
  fi
done
echo "xpsnr_reference: ${#ids[@]} cases, $bad differ (ffmpeg $version)"
[ $bad -eq 0 ]
