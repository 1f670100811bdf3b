#!/usr/bin/env bash
# The CPU figures of the README: ms per frame and fps of every extractor and of the default VMAF
# model, through the public API on synthetic 8-bit 4:2:0 frames, 1 and 2 threads.
# usage: bench/cpu_figures.sh [build dir]   (prints Markdown tables)
set -euo pipefail
bench=${1:-build}/bench/bench_features
frames() { case $1 in 576x324) echo "$2";; 1920x1080) echo $(( $2 / 2 ));; *) echo $(( $2 / 4 ));; esac; }

# one row: label, spec args, sizes, base frame count
row() {
  local label=$1 args=$2 sizes=$3 n=$4
  printf '| %s |' "$label"
  for s in $sizes; do
    for t in 1 2; do
      # shellcheck disable=SC2086
      out=$("$bench" $args --size "$s" --threads "$t" --frames "$(frames "$s" "$n")")
      printf ' %s |' "$(echo "$out" | sed -E 's/.* ([0-9.]+) fps +([0-9.]+) ms.*/\2 ms (\1 fps)/')"
    done
  done
  echo
}

echo "| extractor | 576x324 1 thread | 576x324 2 threads | 1920x1080 1 thread | 1920x1080 2 threads |"
echo "|---|---|---|---|---|"
for f in float_moment psnr float_psnr float_ansnr motion float_motion vif float_vif adm float_adm; do
  row "$f" "--feature $f" "576x324 1920x1080" 40
done
echo
echo "| extractor | 576x324 1 | 576x324 2 | 1920x1080 1 | 1920x1080 2 | 3840x2160 1 | 3840x2160 2 |"
echo "|---|---|---|---|---|---|---|"
for f in float_ssim float_ssim=scale=1 float_ssim=enable_lcs=true:scale=1 float_ms_ssim; do
  row "$f" "--feature $f" "576x324 1920x1080 3840x2160" 40
done
row "vmaf_v0.6.1 (default model)" "--model version=vmaf_v0.6.1" "576x324 1920x1080 3840x2160" 20
