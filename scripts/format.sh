#!/usr/bin/env bash
# The tree's C, C++ and CUDA layout (.clang-format). Pinned to clang-format 14 (Debian 12's):
# other versions lay some constructs out differently.
#   scripts/format.sh          rewrite every tracked .c .h .cu .cuh in place
#   scripts/format.sh --check  list the files that differ; exit 1 if any, 77 without clang-format 14
# Generated tables (src/libm/glibc_exp_pow_tables.h) keep their layout through
# "clang-format off" regions.
set -euo pipefail
cd "$(dirname "$0")/.."
cf=${CLANG_FORMAT:-}
for c in clang-format-14 clang-format; do
  [ -n "$cf" ] && break
  command -v "$c" >/dev/null && "$c" --version | grep -q 'version 14\.' && cf=$c
done
if [ -z "$cf" ]; then
  echo "format: no clang-format 14 (scripts/setup.sh installs Debian's clang-format): skipped"
  exit 77
fi
mapfile -t files < <(git ls-files '*.c' '*.h' '*.cu' '*.cuh')
if [ "${1:-}" = --check ]; then
  bad=0
  for f in "${files[@]}"; do
    if ! "$cf" --style=file "$f" | cmp -s - "$f"; then
      echo "format: $f differs from .clang-format (scripts/format.sh rewrites it)"
      bad=$((bad + 1))
    fi
  done
  echo "format: ${#files[@]} files, $bad differ"
  [ $bad -eq 0 ]
else
  "$cf" --style=file -i "${files[@]}"
fi
