#!/usr/bin/env bash
# The CLI as video engineers use it (issue 14): safe outputs, the inputs ffmpeg writes, warnings,
# progress, discoverability. Each check names what it wants; each can fail.
# usage: cli_user_test.sh EXACTVMAF_BINARY SOURCE_DIR
set -u
bin=$1 src=$2
. "$(dirname "$0")/lib.sh"
chmod 755 "$tmp"
psnr_json() { "$bin" -n --feature psnr --json --precision max -q "$@"; }

# 1. An output that names an input is refused before anything is read; the input is unchanged.
cp "$dis" "$tmp/dis.y4m"
cp "$ref" "$tmp/ref.y4m"
"$bin" -r "$tmp/ref.y4m" -d "$tmp/dis.y4m" -o "$tmp/dis.y4m" 2>"$tmp/err"
rc=$?
check "-o dis.y4m: refused (rc $rc: $(cat "$tmp/err"))" [ $rc -ne 0 ]
check "-o dis.y4m: the message names it as the distorted input" grep -q "dis.y4m: the output is the distorted input" "$tmp/err"
check "-o dis.y4m: the distorted file is unchanged" cmp -s "$dis" "$tmp/dis.y4m"
ln -s "$tmp/ref.y4m" "$tmp/link.y4m"
"$bin" -r "$tmp/ref.y4m" -d "$tmp/dis.y4m" -o "$tmp/link.y4m" 2>"$tmp/err"
check "-o a link to the reference: refused ($(cat "$tmp/err"))" grep -q "the output is the reference input" "$tmp/err"
"$bin" -r - -d "$tmp/dis.y4m" -o "$tmp/ref.y4m" <"$tmp/ref.y4m" 2>"$tmp/err"
check "-o the file stdin reads: refused ($(cat "$tmp/err"))" grep -q "the output is the reference input" "$tmp/err"
check "the reference file is unchanged" cmp -s "$ref" "$tmp/ref.y4m"

# 2. The output folder is checked before the inputs are read (a bad input is not reached), and
#    the error names the user's path, never a temporary.
"$bin" -r "$tmp/nope.y4m" -d "$dis" -o "$tmp/nodir/x.json" 2>"$tmp/err"
check "missing folder: reported first ($(cat "$tmp/err"))" grep -q "nodir/x.json: cannot write: folder" "$tmp/err"
check "missing folder: one line" [ "$(wc -l <"$tmp/err")" -eq 1 ]
check "missing folder: no .partial named" [ -z "$(grep partial "$tmp/err")" ]
touch "$tmp/afile"
"$bin" -r "$ref" -d "$dis" -o "$tmp/afile/x.json" 2>"$tmp/err"
check "folder is a file: refused ($(cat "$tmp/err"))" grep -q "afile/x.json: cannot write" "$tmp/err"
mkdir "$tmp/adir"
"$bin" -r "$ref" -d "$dis" -o "$tmp/adir" 2>"$tmp/err"
check "output is a folder: refused ($(cat "$tmp/err"))" grep -q "adir: cannot write: Is a directory" "$tmp/err"

# 3. An existing output keeps its mode when replaced; a read-only one is refused as fopen would
#    refuse it (for a user without root's override).
printf old >"$tmp/kept.json"
chmod 640 "$tmp/kept.json"
"$bin" -r "$ref" -d "$dis" -n --feature psnr --json -q -o "$tmp/kept.json" 2>/dev/null
check "replaced output keeps mode 640 (now $(stat -c %a "$tmp/kept.json"))" [ "$(stat -c %a "$tmp/kept.json")" = 640 ]
check "replaced output has the results" grep -q psnr_y "$tmp/kept.json"
ro_run() { "$bin" -r "$ref" -d "$dis" -n --feature psnr --json -q -o "$1"; }
printf old >"$tmp/ro.json"
chmod 444 "$tmp/ro.json"
if [ "$(id -u)" -ne 0 ]; then
  ro_run "$tmp/ro.json" 2>"$tmp/err"; rc=$?
elif command -v setpriv >/dev/null; then
  chmod 777 "$tmp"
  setpriv --reuid=65534 --regid=65534 --clear-groups "$bin" -r "$ref" -d "$dis" -n --feature psnr \
    --json -q -o "$tmp/ro.json" 2>"$tmp/err"; rc=$?
  chmod 755 "$tmp"
else
  rc=skip
fi
if [ "$rc" != skip ]; then
  check "read-only output: refused (rc $rc)" [ "$rc" -ne 0 ]
  check "read-only output: as fopen ($(cat "$tmp/err"))" grep -q "ro.json: cannot write: Permission denied" "$tmp/err"
  check "read-only output: unchanged" [ "$(cat "$tmp/ro.json")" = old ]
fi
if [ "$(id -u)" -eq 0 ]; then # root's fopen writes a read-only file: so do we, keeping 444
  ro_run "$tmp/ro.json" 2>/dev/null
  check "root: read-only output written, mode kept ($(stat -c %a "$tmp/ro.json"))" [ "$(stat -c %a "$tmp/ro.json")" = 444 ]
fi

# 4. Odd-size raw .yuv in ffmpeg's layout (chroma rounded up) equals the y4m of the same bytes;
#    the floor layout is refused with the expected frame size.
python3 - "$tmp" <<'PY'
import os, random, sys
d = sys.argv[1]; w, h = 33, 17; cw, ch = (w + 1) // 2, (h + 1) // 2
rnd = random.Random(14)
for name in ("oref", "odis"):
    frames = [bytes(rnd.randrange(256) for _ in range(w * h + 2 * cw * ch)) for _ in range(2)]
    open(f"{d}/{name}.yuv", "wb").write(b"".join(frames))
    with open(f"{d}/{name}.y4m", "wb") as f:
        f.write(b"YUV4MPEG2 W33 H17 F25:1 Ip C420jpeg\n")
        for fr in frames:
            f.write(b"FRAME\n" + fr)
    floor = b"".join(fr[:w * h + 2 * (w // 2) * (h // 2)] for fr in frames)
    open(f"{d}/{name}_floor.yuv", "wb").write(floor)
PY
oraw=(-w 33 -h 17 -p 420 -b 8)
psnr_json -r "$tmp/oref.yuv" -d "$tmp/odis.yuv" "${oraw[@]}" -o "$tmp/oraw.json" 2>"$tmp/err"
check "odd raw 33x17 accepted ($(cat "$tmp/err"))" [ -s "$tmp/oraw.json" ]
psnr_json -r "$tmp/oref.y4m" -d "$tmp/odis.y4m" -o "$tmp/oy4m.json" 2>/dev/null
check "odd raw equals its y4m" cmp -s <(values "$tmp/oraw.json") <(values "$tmp/oy4m.json")
"$bin" -r "$tmp/oref_floor.yuv" -d "$tmp/odis.yuv" "${oraw[@]}" --feature psnr -n -o "$tmp/x.json" 2>"$tmp/err"
check "floor-layout raw refused naming the frame size ($(cat "$tmp/err"))" grep -q "oref_floor.yuv: size 1634 bytes is not a whole number of 867-byte frames (33x17 8-bit 4:2:0, chroma planes 17x9" "$tmp/err"

# 5. The YUV4MPEG2 magic decides, not the name: y4m named .yuv with the raw flags is y4m; a raw
#    file named .y4m with the raw flags is raw.
cp "$tmp/oref.y4m" "$tmp/y4m_named.yuv"
cp "$tmp/odis.yuv" "$tmp/raw_named.y4m"
psnr_json -r "$tmp/y4m_named.yuv" -d "$tmp/raw_named.y4m" "${oraw[@]}" -o "$tmp/named.json" 2>"$tmp/err"
check "y4m named .yuv and raw named .y4m ($(cat "$tmp/err"))" cmp -s <(values "$tmp/named.json") <(values "$tmp/oy4m.json")
psnr_json -r - -d "$tmp/odis.yuv" "${oraw[@]}" -o "$tmp/pipe.json" <"$tmp/oref.y4m" 2>/dev/null
check "y4m on stdin beside raw flags" cmp -s <(values "$tmp/pipe.json") <(values "$tmp/oy4m.json")
psnr_json -r - -d "$tmp/odis.yuv" "${oraw[@]}" -o "$tmp/pipe2.json" < <(cat "$tmp/oref.yuv") 2>/dev/null
check "raw through a pipe (the magic bytes given back)" cmp -s <(values "$tmp/pipe2.json") <(values "$tmp/oy4m.json")

# 6. Frame-rate and interlacing mismatches: one warning line each; -q silences them.
sed '1s/F25:1/F30000:1001/; 1s/ Ip / It /' "$tmp/odis.y4m" >"$tmp/odis_30i.y4m"
"$bin" -r "$tmp/oref.y4m" -d "$tmp/odis_30i.y4m" -n --feature psnr -o "$tmp/x.json" 2>"$tmp/err"
check "fps warning ($(cat "$tmp/err"))" grep -q "warning: .*oref.y4m is 25:1 fps but .*odis_30i.y4m is 30000:1001 fps" "$tmp/err"
check "interlace warning" grep -q "warning: .*oref.y4m is progressive but .*odis_30i.y4m is interlaced" "$tmp/err"
check "two warning lines only" [ "$(wc -l <"$tmp/err")" -eq 2 ]
"$bin" -r "$tmp/oref.y4m" -d "$tmp/odis_30i.y4m" -n --feature psnr -q -o "$tmp/x.json" 2>"$tmp/err"
check "-q: no warnings ($(cat "$tmp/err"))" [ ! -s "$tmp/err" ]
head -c $(($(head -1 "$dis" | wc -c) + 2 * (6 + 279936))) "$dis" >"$tmp/dis2.y4m"
"$bin" -r "$ref" -d "$tmp/dis2.y4m" -n --feature psnr -q -o "$tmp/x.json" 2>"$tmp/err"
check "-q: no short-stream warning ($(cat "$tmp/err"))" [ ! -s "$tmp/err" ]
"$bin" -r "$ref" -d "$tmp/dis2.y4m" -n --feature psnr -o "$tmp/x.json" 2>"$tmp/err"
check "short-stream warning without -q" grep -q "warning: .*dis2.y4m ends after 2 frames" "$tmp/err"
# the shorter reference, as raw files too (regular files are read in place on the CPU backend)
"$bin" -r "$tmp/dis2.y4m" -d "$ref" -n --feature psnr -o "$tmp/x.json" 2>"$tmp/err"
check "short reference warning ($(cat "$tmp/err"))" grep -q "warning: .*dis2.y4m ends after 2 frames" "$tmp/err"
tail -c $((2 * 279936)) "$tmp/dis2.y4m" >"$tmp/ref2.yuv"
cat "$tmp/ref2.yuv" "$tmp/ref2.yuv" >"$tmp/dis4.yuv"
for t in 1 2; do
  "$bin" -r "$tmp/ref2.yuv" -d "$tmp/dis4.yuv" -w 576 -h 324 -p 420 -b 8 -n --feature psnr \
    --threads $t -o "$tmp/x.json" 2>"$tmp/err"
  check "short raw reference warning, $t threads ($(cat "$tmp/err"))" \
    grep -q "warning: .*ref2.yuv ends after 2 frames; scoring 2 frames" "$tmp/err"
done

# 7. Model names that would break a layout are refused; a safe one is kept.
for n in 'a"b' 'a<b' 'a,b' 'a b' '9lives'; do
  "$bin" -r "$ref" -d "$dis" --model "version=vmaf_v0.6.1:name=$n" -o "$tmp/m.xml" 2>"$tmp/err"
  check "model name '$n' refused ($(cat "$tmp/err"))" grep -q "would break the XML, JSON or CSV output" "$tmp/err"
done
"$bin" -r "$ref" -d "$dis" --model "version=vmaf_v0.6.1:name=my_vmaf-2.0" --csv -q -o "$tmp/m.csv" 2>/dev/null
check "model name my_vmaf-2.0 kept" grep -q ",my_vmaf-2.0,$" <(head -1 "$tmp/m.csv")

# 8. Progress on a terminal: done/total, percent, fps and ETA when the total is known; frames and
#    fps from a pipe; nothing with -q.
tty_run() { script -qec "$1" /dev/null 2>/dev/null | tr '\r' '\n'; }
if command -v script >/dev/null; then
  tty_run "'$bin' -r '$ref' -d '$dis' -n --feature psnr -o '$tmp/p.json'" >"$tmp/tty"
  check "progress: 3/3 frames (100.0%), fps, ETA ($(cat "$tmp/tty"))" grep -Eq "^3/3 frames \(100\.0%\), [0-9.]+ fps, ETA 0:00" "$tmp/tty"
  tty_run "'$bin' -r '$ref' -d '$dis' --frame_cnt 2 -n --feature psnr -o '$tmp/p.json'" >"$tmp/tty"
  check "progress: the total follows --frame_cnt ($(cat "$tmp/tty"))" grep -Eq "^2/2 frames \(100\.0%\)" "$tmp/tty"
  tty_run "cat '$ref' | '$bin' -r - -d '$dis' -n --feature psnr -o '$tmp/p.json'" >"$tmp/tty"
  check "progress from a pipe: frames and fps ($(cat "$tmp/tty"))" grep -Eq "^3 frames, [0-9.]+ fps" "$tmp/tty"
  tty_run "'$bin' -r '$ref' -d '$dis' -n --feature psnr -q -o '$tmp/p.json'" >"$tmp/tty"
  check "progress: -q silences it ($(cat "$tmp/tty"))" [ -z "$(grep -v '^$' "$tmp/tty")" ]
else
  echo "note: no script(1): progress checks skipped"
fi

# 9. Discoverability: --list_features lists every extractor (the registry's list, as the
#    unknown-extractor error gives it) with its options; --list_models every built-in model;
#    --help and --version say what they must.
names=$("$bin" -r "$ref" -d "$dis" --feature nosuch 2>&1 | sed -n 's/.*(extractors: \(.*\)).*/\1/p' | tr -d ',')
"$bin" --list_features >"$tmp/features"
check "extractor names known ($names)" [ -n "$names" ]
for n in $names; do check "--list_features lists $n" grep -q "^$n\( (CUDA twin)\)\?$" "$tmp/features"; done
check "--list_features: psnr's min_sse with default and range" grep -q "^    min_sse (double, default 0, 0..max): " "$tmp/features"
check "--list_features: float_adm's rcp_estimate" grep -q "^    rcp_estimate (int, default 0, 0..1): " "$tmp/features"
check "--list_features: a suffix alias" grep -q "adm_enhn_gain_limit (double, default 100, 1..100; names get _egl)" "$tmp/features"
models=$("$bin" -r "$ref" -d "$dis" --model version=nosuch 2>&1 | sed -n 's/.*(built-in: \(.*\)).*/\1/p' | tr -d ',')
"$bin" --list_models >"$tmp/models"
check "model names known ($models)" [ -n "$models" ]
for m in $models; do check "--list_models lists $m" grep -q "^$m\( (default)\)\?$" "$tmp/models"; done
"$bin" --help >"$tmp/help"
for w in "- = standard output" "0 (default) = one per core" "--list_models" "--list_features" \
         "--precision" "--backend" "--cpumask" "--frame_skip_dist" "--subsample" "--quiet/-q" \
         "YUV4MPEG2" "ffmpeg's"; do
  check "--help says '$w'" grep -qF -- "$w" "$tmp/help"
done
"$bin" --version >"$tmp/version"
check "--version names Netflix's release and commit" grep -q "Netflix libvmaf 3.2.0, commit f85a853692a8c730d0270cd733c8bb30b5b93b7c" "$tmp/version"
check "--version names the backends" grep -q "^backends: cpu" "$tmp/version"
check "--version names the SIMD levels" grep -q "^SIMD kernels built .*avx2" "$tmp/version"

# 10. A build with CUDA on a machine without a device says nothing unless asked for cuda.
"$bin" -r "$ref" -d "$dis" -o "$tmp/v.xml" 2>"$tmp/err"
if grep -q "cuda (0 devices found)\|no CUDA" "$tmp/version"; then
  check "no device: a default run is silent ($(cat "$tmp/err"))" [ ! -s "$tmp/err" ]
  "$bin" -r "$ref" -d "$dis" --backend cuda -o "$tmp/v.xml" 2>"$tmp/err"
  check "no device: --backend cuda is an error naming it ($(cat "$tmp/err"))" grep -q "backend cuda: " "$tmp/err"
  check "no device: no 'insufficient driver' without a driver" [ -z "$(grep -i insufficient "$tmp/err")" ]
elif grep -q "this build has no CUDA" "$tmp/version"; then
  check "CPU build: a default run is silent ($(cat "$tmp/err"))" [ ! -s "$tmp/err" ]
fi

# 11. Without -o the pooled score goes to stdout whatever stdout is (here a file), as
#     `exactvmaf -r a -d b > score.txt` expects; with -o it does not; -n prints none.
"$bin" -r "$ref" -d "$dis" -q >"$tmp/score.txt" 2>"$tmp/err"
check "no -o: the score is in the redirected stdout ($(cat "$tmp/score.txt"))" \
  grep -Eq '^vmaf_v0\.6\.1: [0-9]+\.[0-9]{6}$' "$tmp/score.txt"
"$bin" -r "$ref" -d "$dis" -q --json -o "$tmp/s.json" >"$tmp/score2.txt" 2>/dev/null
want=$(tr -d '\n ' <"$tmp/s.json" | grep -o '"vmaf":{"min":[0-9.]*,"max":[0-9.]*,"mean":[0-9.]*' |
  grep -o '[0-9.]*$')
check "no -o: the printed mean is the JSON's pooled mean ($want)" \
  grep -q "^vmaf_v0.6.1: $want$" "$tmp/score.txt"
check "-o: nothing on a redirected stdout" [ ! -s "$tmp/score2.txt" ]
"$bin" -r "$ref" -d "$dis" -n --feature psnr -q >"$tmp/score3.txt" 2>/dev/null
check "-n: no score printed" [ ! -s "$tmp/score3.txt" ]

finish cli_user
