#!/usr/bin/env bash
# Every corpus pair through ffmpeg's filters on exactvmaf, each log against the exactvmaf CLI's
# values (issue 25: "every log equals the CLI's values on every corpus pair"), on a GPU machine:
#   libvmaf       the libvmaf filter with the GPU visible (exactvmaf picks CUDA), host frames
#   libvmaf_cpu   the same with the GPU hidden (CUDA_VISIBLE_DEVICES=)
#   libvmaf_cuda  hwupload_cuda into the libvmaf_cuda filter, for the pixel formats that
#                 ffmpeg 7.1's filter takes (yuv420p, yuv444p16le); its chroma values are not
#                 compared: that filter copies only the luma plane into the pictures
#                 (copy_picture_data_cuda stops after plane 0), so psnr_cb/psnr_cr there are
#                 those of blank chroma, with any libvmaf_cuda
# each with vmaf_v0.6.1 and psnr; the CLI runs on the CPU. Prints a table (also OUT/table.md).
#   bench/ffmpeg_corpus_logs.sh FFMPEG EXACTVMAF_PREFIX CORPUS_DIR OUT
set -uo pipefail
ff=$1 prefix=$(cd "$2" && pwd) corpus=$(cd "$3" && pwd) out=$(mkdir -p "$4" && cd "$4" && pwd)
export LD_LIBRARY_PATH=$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
cli=$prefix/bin/exactvmaf

same() { # log.json cli.json [metric...]: "equal (N values)" when every value of the log is
  # the CLI's, the metrics named left out
  python3 - "$@" <<'PY'
import json, sys
try:
    a, b = (json.load(open(p)) for p in sys.argv[1:3])
except Exception as e:
    print(f"NO LOG ({e.__class__.__name__})"); sys.exit()
bf = {f["frameNum"]: f["metrics"] for f in b["frames"]}
n = bad = 0
for f in a["frames"]:
    for k, v in f["metrics"].items():
        if k in sys.argv[3:]:
            continue
        n += 1
        bad += bf.get(f["frameNum"], {}).get(k) != v
ok = n and not bad and len(a["frames"]) == len(b["frames"])
print(f"equal ({n} values)" if ok else f"DIFFER ({bad} of {n})")
PY
}

{
  echo "| pair | format | libvmaf (CUDA) | libvmaf (CPU) | libvmaf_cuda (hwupload; luma values) |"
  echo "|---|---|---|---|---|"
} >"$out/table.md"
: >"$out/commands.txt"
sed 1d "$corpus/corpus.tsv" | while IFS=$'\t' read -r name ref dis w h chroma depth _ pixfmt _; do
  raw=(-f rawvideo -pix_fmt "$pixfmt" -s "${w}x$h" -r 24)
  cj=$out/${name}_cli.json
  "$cli" -q -r "$corpus/$ref" -d "$corpus/$dis" --width "$w" --height "$h" --pixel_format "$chroma" \
    --bitdepth "$depth" --model version=vmaf_v0.6.1 --feature psnr --backend cpu --json -o "$cj" \
    >"$out/${name}_cli.txt" 2>&1
  cells=()
  for row in libvmaf libvmaf_cpu libvmaf_cuda; do
    log=$out/${name}_$row.json
    rm -f "$log"
    case $row in
      libvmaf) cmd=("$ff" -nostdin -v error "${raw[@]}" -i "$corpus/$dis" "${raw[@]}" -i "$corpus/$ref"
                    -lavfi "[0:v][1:v]libvmaf=log_fmt=json:log_path=$log:feature=name=psnr" -f null -) ;;
      libvmaf_cpu) cmd=(env CUDA_VISIBLE_DEVICES= "$ff" -nostdin -v error "${raw[@]}" -i "$corpus/$dis"
                    "${raw[@]}" -i "$corpus/$ref"
                    -lavfi "[0:v][1:v]libvmaf=log_fmt=json:log_path=$log:feature=name=psnr" -f null -) ;;
      libvmaf_cuda)
        case $pixfmt in yuv420p | yuv444p16le) ;; *) cells+=("(format not taken)"); continue ;; esac
        cmd=("$ff" -nostdin -v error -init_hw_device cuda=cu -filter_hw_device cu "${raw[@]}"
             -i "$corpus/$dis" "${raw[@]}" -i "$corpus/$ref"
             -lavfi "[0:v]hwupload_cuda[d];[1:v]hwupload_cuda[r];[d][r]libvmaf_cuda=log_fmt=json:log_path=$log:feature=name=psnr"
             -f null -) ;;
    esac
    echo "${cmd[*]}" >>"$out/commands.txt"
    "${cmd[@]}" >"$out/${name}_$row.txt" 2>&1 || true
    skip=()
    [ $row = libvmaf_cuda ] && skip=(psnr_cb psnr_cr)
    cells+=("$(same "$log" "$cj" "${skip[@]}")")
  done
  echo "| $name | $pixfmt | ${cells[0]} | ${cells[1]} | ${cells[2]} |" >>"$out/table.md"
done
cat "$out/table.md"
