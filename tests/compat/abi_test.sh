#!/usr/bin/env bash
# The compat headers' ABI against Netflix libvmaf 3.2.0's own headers, libvmaf_cuda.h included
# (from the anchors tarball of ../shared): abi_layout.c built against each must print the same
# struct sizes, offsets and enum values (and libvmaf_cuda.h's prototypes compile). Skipped (77) without ../shared/anchors.
# usage: abi_test.sh SOURCE_DIR SHARED_DIR
set -uo pipefail
src=$(cd "$1" && pwd) shared=$2
tarball=$(ls "$shared"/anchors/netflix-libvmaf-*.tgz 2>/dev/null | head -1)
if [ -z "$tarball" ]; then
  echo "abi: no $shared/anchors/netflix-libvmaf-*.tgz: Netflix's headers are not here; skipped"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar xzf "$tarball" -C "$tmp" libvmaf/include || { echo "abi: cannot unpack $tarball"; exit 1; }
cc=${CC:-cc}
$cc -std=c11 -I"$tmp/libvmaf/include" -o "$tmp/netflix" "$src/tests/compat/abi_layout.c" || exit 1
$cc -std=c11 -I"$src/compat/libvmaf/include" -o "$tmp/compat" "$src/tests/compat/abi_layout.c" || exit 1
"$tmp/netflix" >"$tmp/netflix.txt" && "$tmp/compat" >"$tmp/compat.txt" || exit 1
if cmp -s "$tmp/netflix.txt" "$tmp/compat.txt"; then
  echo "abi: $(wc -l <"$tmp/netflix.txt") sizes, offsets and enum values equal Netflix's headers"
else
  echo "abi: the compat headers differ from Netflix's:"; diff "$tmp/netflix.txt" "$tmp/compat.txt"
  exit 1
fi
