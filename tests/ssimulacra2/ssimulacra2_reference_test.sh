#!/usr/bin/env bash
# The ssimulacra2 goldens against their reference: for every case of ssimulacra2_cases.h, write
# its frames' R'G'B' as PFMs (ssimulacra2_golden --write-input: the extractor's conversion), run
# libjxl 0.11's ssimulacra2 tool on each pair (scripts/ssimulacra2_reference.sh) and compare its
# scores with tests/ssimulacra2/golden/<id>.txt line for line (or, with --regen, write that
# file). Skips (77) when the reference build or shared/ is absent.
#   ssimulacra2_reference_test.sh SSIMULACRA2_GOLDEN SOURCE_DIR REFERENCE_DEST [--regen] [ID...]
set -euo pipefail
golden_bin=$1 src=$2 ref_dest=$3
shift 3
regen=0
if [ "${1:-}" = --regen ]; then regen=1; shift; fi
script=$src/scripts/ssimulacra2_reference.sh
if [ ! -x "$ref_dest/build/tools/ssimulacra2" ]; then
  echo "ssimulacra2_reference: no reference build in $ref_dest ($script $ref_dest builds it): skipped"
  exit 77
fi
version=$("$script" "$ref_dest" version | head -1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ $# -eq 0 ]; then mapfile -t ids < <("$golden_bin" --list); else ids=("$@"); fi
bad=0
for id in "${ids[@]}"; do
  rm -f "$tmp"/*.pfm "$tmp/scores"
  n=$("$golden_bin" --write-input "$id" "$tmp") || {
    rc=$?
    [ $rc -eq 77 ] && exit 77
    echo "ssimulacra2_reference: $id: no input"
    exit 1
  }
  for ((i = 0; i < n; i++)); do
    f=$(printf %03d "$i")
    echo "$i $("$script" "$ref_dest" run "$tmp/ref_$f.pfm" "$tmp/dis_$f.pfm")" >>"$tmp/scores"
  done
  want=$src/tests/ssimulacra2/golden/$id.txt
  if [ $regen -eq 1 ]; then
    { echo "# ssimulacra2 of $version (Debian trixie; Highway scalar), scripts/ssimulacra2_reference.sh"
      echo "# case $id (tests/ssimulacra2/ssimulacra2_cases.h): frame, score %.17g, %a"
      cat "$tmp/scores"; } >"$want"
    echo "wrote $want"
  elif ! diff <(grep -v '^#' "$want") "$tmp/scores" >"$tmp/diff"; then
    echo "DIFF $id: the reference's scores differ from $want:"
    head -20 "$tmp/diff"
    bad=$((bad + 1))
  fi
done
echo "ssimulacra2_reference: ${#ids[@]} cases, $bad differ ($version)"
[ $bad -eq 0 ]
