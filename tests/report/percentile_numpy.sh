#!/usr/bin/env bash
# --pool's percentiles equal numpy.percentile's (its default, linear) to the last bit, and the
# lows the mean of the worst values, on every per-frame value of the shared corpus: every pair,
# the default model plus psnr, float_ssim, ciede and psnr_hvs (infinities on the identical pair),
# and once with --subsample 2. Skips (77) without numpy or without the corpus; installs nothing
# (scripts/setup.sh installs Debian's python3-numpy).
# usage: percentile_numpy.sh EXACTVMAF_BINARY SOURCE_DIR SHARED_DIR
set -u
bin=$1 src=$2 shared=$3
. "$src/tests/cli/lib.sh"
py=""
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null && "$p" -c 'import numpy' 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || { echo "percentile_numpy: skipped: no python3 with numpy (scripts/setup.sh installs python3-numpy)"; exit 77; }
corpus=$shared/corpus
[ -f "$corpus/corpus.tsv" ] || { echo "percentile_numpy: skipped: no corpus in $corpus"; exit 77; }

pool=p0,p1,p2.5,p5,p10,p25,p33.3,p50,p66.7,p75,p90,p95,p99,p99.9,p100,low1,low5,low10,low50,low100
compare() {  # CSV: numpy's percentile and the lows of every column's frames against the pooled rows
  "$py" - "$1" <<'PY'
import csv, math, struct, sys
import numpy as np
np.seterr(invalid="ignore")  # two equal infinities interpolate to NaN, as intended
rows = list(csv.reader(open(sys.argv[1])))
names = rows[0][1:-1]
frames = [r for r in rows[1:] if r[0].isdigit()]
pooled = {r[0]: r[1:-1] for r in rows[1:] if not r[0].isdigit()}
assert all(len(r) == len(rows[0]) for r in frames), "a frame lacks a value"
bits = lambda x: struct.pack("<d", x)
bad = checked = 0
for j, name in enumerate(names):
    v = [float(r[j + 1]) for r in frames]
    for stat, cells in pooled.items():
        got = float(cells[j])
        if stat.startswith("p"):
            want = float(np.percentile(np.array(v, dtype=np.float64), float(stat[1:])))
        elif stat.startswith("low"):
            s = sorted(v, key=lambda x: (math.isnan(x), x))
            k = min(len(s), max(1, math.ceil(len(s) * float(stat[3:]) / 100.0)))
            acc = 0.0
            for x in s[:k]:
                acc += x
            want = acc / k
        else:
            continue
        checked += 1
        same = bits(got) == bits(want) or (math.isnan(got) and math.isnan(want))
        if not same:
            bad += 1
            print(f"FAIL: {sys.argv[1]}: {name} {stat}: {got!r}, numpy {want!r}")
print(f"{sys.argv[1]}: {checked} statistics, {len(frames)} frames, {bad} differ")
sys.exit(1 if bad or not checked else 0)
PY
}

run_pair() {  # NAME REF DIS W H CHROMA DEPTH [FLAGS]
  local name=$1 r=$2 d=$3 w=$4 h=$5 c=$6 b=$7
  shift 7
  local hvs=(--feature psnr_hvs)
  [ "$b" -le 12 ] || hvs=() # psnr_hvs: at most 12 bits (refused above, as Netflix)
  "$bin" -r "$corpus/$r" -d "$corpus/$d" -w "$w" -h "$h" -p "$c" -b "$b" --feature psnr \
    --feature float_ssim --feature ciede "${hvs[@]}" --pool $pool --csv --precision max \
    -q "$@" -o "$tmp/$name.csv" 2>"$tmp/err"
  check "$name: scored ($(head -c 300 "$tmp/err"))" [ -s "$tmp/$name.csv" ]
  counted compare "$tmp/$name.csv"
}
pairs=0
while IFS=$'\t' read -r name r d w h c b _; do
  [ "$name" = name ] && continue
  run_pair "$name" "$r" "$d" "$w" "$h" "$c" "$b"
  pairs=$((pairs + 1))
done <"$corpus/corpus.tsv"
run_pair life_subsample2 life_576x324_yuv420p_ref.yuv life_576x324_yuv420p_x264crf38.yuv 576 324 420 8 --subsample 2
check "every corpus pair compared ($pairs)" [ "$pairs" -ge 11 ]
finish percentile_numpy
