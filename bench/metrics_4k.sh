#!/usr/bin/env bash
# Issue 28's rates at 4K (3840x2160 4:2:0 8-bit, bench/synth_frames.py noise clips in /tmp),
# whole processes, every row alternating with the others, fastest of RUNS:
#   - xpsnr's reference (ffmpeg 7.1's xpsnr filter, scripts/xpsnr_reference.sh): one process,
#     and THREADS processes at once on the same clip (the filter is single-threaded: that is the
#     reference given THREADS cores), fps summed over the processes;
#   - exactvmaf --feature xpsnr / ssimulacra2 -n on the CPU (--threads THREADS) and on CUDA;
#   - ssimulacra2's reference (libjxl's tool) when its path is given: one 4K pair of PFMs (the
#     tool reads R'G'B' images; without PFM_REF/PFM_DIS, a noise pair is written: its time per
#     frame does not depend on the content), one process, and THREADS processes at once;
#   - vmaf_v0.6.1 + xpsnr + ssimulacra2 in one pass, CPU and CUDA, and (NETFLIX_VMAF=Netflix's
#     vmaf CLI) beside the three references one after the other: Netflix's vmaf_v0.6.1 on
#     THREADS threads, the xpsnr filter (one process, as it is run on one clip), the ssimulacra2
#     tool on THREADS frames at once (its rate of THREADS processes); the sequence's fps is
#     1 / (1/a + 1/b + 1/c) of their rates.
# The CUDA rows' JSON (--precision max) is compared with the CPU rows' (fps line removed).
#   metrics_4k.sh EXACTVMAF XPSNR_FFMPEG [SSIMULACRA2_TOOL [PFM_REF PFM_DIS]] OUTDIR
# FRAMES (60), RUNS (2), THREADS (nproc), WIDTH and HEIGHT (3840x2160).
set -u
ev=$1 xff=$2 s2=${3:-}
shift 3
pfm_r= pfm_d=
if [ $# -ge 3 ]; then pfm_r=$1 pfm_d=$2; shift 2; fi
out=$1
mkdir -p "$out" && rm -f "$out/errors.txt"
here=$(cd "$(dirname "$0")" && pwd)
W=${WIDTH:-3840} H=${HEIGHT:-2160} n=${FRAMES:-60} t=${THREADS:-$(nproc)} runs=${RUNS:-2}
r=/tmp/metrics_ref.yuv d=/tmp/metrics_dis.yuv
python3 "$here/synth_frames.py" $W $H "$n" 25 24 >$r || exit 1
python3 "$here/synth_frames.py" $W $H "$n" 26 64 >$d || exit 1
if [ -n "$s2" ] && [ -z "$pfm_r" ]; then
  pfm_r=/tmp/metrics_ref.pfm pfm_d=/tmp/metrics_dis.pfm
  python3 - $W $H $pfm_r $pfm_d <<'PY' || exit 1
import sys
import numpy as np
w, h = int(sys.argv[1]), int(sys.argv[2])
rng = np.random.default_rng(28)
a = rng.random((h, w, 3), dtype=np.float32)
b = np.clip(a + rng.normal(0, 0.05, a.shape).astype(np.float32), 0, 1)
for img, path in ((a, sys.argv[3]), (b, sys.argv[4])):
    with open(path, "wb") as f:
        f.write(b"PF\n%d %d\n-1.0\n" % (w, h))
        f.write(np.ascontiguousarray(img[::-1], dtype="<f4").tobytes())
PY
fi
raw=(-r $r -d $d -w $W -h $H -p 420 -b 8)
ffraw=(-f rawvideo -pix_fmt yuv420p -s ${W}x$H -r 24)

now() { date +%s.%N; }
# best[row] = the fastest fps seen; frames[row] = frames one run of the row scores
declare -A best frames
run_row() { # row frames command...
  local row=$1 nf=$2
  shift 2
  local t0 t1 fps
  t0=$(now)
  "$@" >/dev/null 2>>"$out/errors.txt" || { echo "FAILED: $row: $*" | tee -a "$out/errors.txt"; return; }
  t1=$(now)
  fps=$(awk -v a="$t0" -v b="$t1" -v f="$nf" 'BEGIN { printf "%.2f", f / (b - a) }')
  frames[$row]=$nf
  if [ -z "${best[$row]:-}" ] || awk -v x="$fps" -v y="${best[$row]}" 'BEGIN { exit !(x > y) }'; then
    best[$row]=$fps
  fi
  echo "$row: $fps fps"
}
many() { # N command...: N copies at once
  local k=$1
  shift
  local pids=() i rc=0
  for ((i = 0; i < k; i++)); do "$@" & pids+=($!); done
  for i in "${pids[@]}"; do wait "$i" || rc=1; done
  return $rc
}
xref() { "$xff" -nostdin -v error "${ffraw[@]}" -i $r "${ffraw[@]}" -i $d \
  -lavfi "[0:v][1:v]xpsnr=stats_file=/dev/null" -f null -; }
s2ref() { "$s2" "$pfm_r" "$pfm_d"; }
cli() { "$ev" "${raw[@]}" --json --precision max -o "$@"; }
nf() { "$NETFLIX_VMAF" "${raw[@]}" --threads "$t" --model version=vmaf_v0.6.1 -q --json -o /dev/null; }

for ((k = 1; k <= runs; k++)); do
  run_row "xpsnr reference, 1 process" "$n" xref
  run_row "xpsnr reference, $t processes" $((n * t)) many "$t" xref
  run_row "xpsnr exactvmaf CPU $t threads" "$n" cli "$out/xpsnr_cpu.json" --threads "$t" --feature xpsnr -n
  run_row "xpsnr exactvmaf CUDA" "$n" cli "$out/xpsnr_cuda.json" --backend cuda --feature xpsnr -n
  if [ -n "$s2" ] && [ -n "$pfm_r" ]; then
    run_row "ssimulacra2 reference, 1 process" 1 s2ref
    run_row "ssimulacra2 reference, $t processes" "$t" many "$t" s2ref
  fi
  run_row "ssimulacra2 exactvmaf CPU $t threads" "$n" cli "$out/s2_cpu.json" --threads "$t" --feature ssimulacra2 -n
  run_row "ssimulacra2 exactvmaf CUDA" "$n" cli "$out/s2_cuda.json" --backend cuda --feature ssimulacra2 -n
  if [ -n "${NETFLIX_VMAF:-}" ]; then
    run_row "vmaf_v0.6.1 Netflix CLI $t threads" "$n" nf
  fi
  run_row "vmaf_v0.6.1+xpsnr+ssimulacra2 exactvmaf CPU $t threads" "$n" cli "$out/all_cpu.json" \
    --threads "$t" --model version=vmaf_v0.6.1 --feature xpsnr --feature ssimulacra2
  run_row "vmaf_v0.6.1+xpsnr+ssimulacra2 exactvmaf CUDA" "$n" cli "$out/all_cuda.json" --backend cuda \
    --model version=vmaf_v0.6.1 --feature xpsnr --feature ssimulacra2
done
for m in xpsnr s2 all; do
  if [ -f "$out/${m}_cpu.json" ] && [ -f "$out/${m}_cuda.json" ] &&
    cmp -s <(grep -v '"fps"' "$out/${m}_cpu.json") <(grep -v '"fps"' "$out/${m}_cuda.json"); then
    echo "$m: CUDA JSON = CPU JSON"
  else
    echo "$m: CUDA JSON DIFFERS from the CPU's (or is missing)"
  fi
done
echo "| row | frames a run | fps (best of $runs) |"
echo "|---|---|---|"
for row in "${!best[@]}"; do echo "| $row | ${frames[$row]} | ${best[$row]} |"; done | sort
a=${best["vmaf_v0.6.1 Netflix CLI $t threads"]:-} b=${best["xpsnr reference, 1 process"]:-}
c=${best["ssimulacra2 reference, $t processes"]:-}
if [ -n "$a" ] && [ -n "$b" ] && [ -n "$c" ]; then
  awk -v a="$a" -v b="$b" -v c="$c" -v p="${best["vmaf_v0.6.1+xpsnr+ssimulacra2 exactvmaf CPU $t threads"]:-0}" \
    -v g="${best["vmaf_v0.6.1+xpsnr+ssimulacra2 exactvmaf CUDA"]:-0}" 'BEGIN {
      seq = 1 / (1 / a + 1 / b + 1 / c)
      printf "the three references one after the other: %.2f fps; one pass: CPU %.2f (%.2fx), CUDA %.2f (%.2fx)\n", seq, p, p / seq, g, g / seq }'
fi
rm -f $r $d /tmp/metrics_ref.pfm /tmp/metrics_dis.pfm
