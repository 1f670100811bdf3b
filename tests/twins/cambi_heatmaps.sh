#!/bin/bash
# cambi's heatmaps and JSON (every value, %.17g) from the CUDA twin equal the CPU's, on corpus
# pairs with the default and the v1 models' options. Exit 77 without a device or CUDA build.
# usage: cambi_heatmaps.sh EXACTVMAF CORPUS_DIR WORK_DIR
set -u
cli=$1 corpus=$2 work=$3
command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 || { echo "no CUDA device: skipped"; exit 77; }
"$cli" --list_features 2>/dev/null | grep -q '^cambi (CUDA twin)' || { echo "no CUDA build: skipped"; exit 77; }
[ -f "$corpus/corpus.tsv" ] || { echo "no corpus: skipped"; exit 77; }
rm -rf "$work" && mkdir -p "$work"
bad=0 runs=0
run() { # name ref dis w h chroma bpc options
  local name=$1 opts=$8
  for be in cpu cuda; do
    mkdir -p "$work/$name/$be"
    "$cli" -r "$corpus/$2" -d "$corpus/$3" -w "$4" -h "$5" -p "$6" -b "$7" --backend "$be" \
      --feature "cambi=${opts}heatmaps_path=$work/$name/$be/maps" --precision max --json \
      -o "$work/$name/$be/out.json" >/dev/null 2>"$work/$name/$be/err.txt" || { cat "$work/$name/$be/err.txt"; bad=1; }
  done
  runs=$((runs + 1))
  python3 - "$work/$name/cpu/out.json" "$work/$name/cuda/out.json" <<'PY' || { echo "$name: JSON differs"; bad=1; }
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    for k in ("version", "fps", "backends"):
        d.pop(k, None)
sys.exit(0 if a == b else 1)
PY
  diff -r "$work/$name/cpu/maps" "$work/$name/cuda/maps" >/dev/null || { echo "$name: heatmaps differ"; bad=1; }
}
while IFS=$'\t' read -r name ref dis w h chroma bpc frames _; do
  [ "$name" = name ] && continue
  run "$name" "$ref" "$dis" "$w" "$h" "$chroma" "$bpc" ""
  run "${name}_v1" "$ref" "$dis" "$w" "$h" "$chroma" "$bpc" \
    "cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:cambi_max_val=17:"
done <"$corpus/corpus.tsv"
echo "$runs runs, cpu against cuda: $([ $bad -eq 0 ] && echo identical || echo DIFFERENT)"
exit $bad
