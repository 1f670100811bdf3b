#!/usr/bin/env bash
# Many encodes against one reference (issue 14): exactvmaf -r REF -d A -d B -d C gives, for each
# distorted, the bytes (version and fps aside) of a separate run of REF against it, with every
# model and every extractor, at --precision max; and refuses outputs that cannot be told apart
# or that would overwrite an input, before reading anything. Each check can fail.
# usage: cli_multi_test.sh EXACTVMAF_BINARY SOURCE_DIR
set -u
bin=$1 src=$2
. "$(dirname "$0")/lib.sh"
same_values() { cmp -s <(values "$1") <(values "$2"); }

# Three encodes of the 3-frame 576x324 sample (43-byte header, FRAME\n + 279936 bytes a frame):
# the distorted itself (in a folder, with a double extension), a mix of reference and
# distorted frames, and a two-frame one (shorter than the reference).
header=43
frame=$((6 + 279936))
cut() { tail -c +$((header + 1 + $2 * frame)) "$1" | head -c $frame; }
mkdir "$tmp/enc" "$tmp/out"
cp "$dis" "$tmp/enc/a.mp4.y4m"
{ head -c $header "$dis"; cut "$ref" 0; cut "$dis" 1; cut "$dis" 2; } >"$tmp/enc/b.y4m"
{ head -c $header "$dis"; cut "$dis" 2; cut "$dis" 1; } >"$tmp/enc/c.y4m"
encs=("$tmp/enc/a.mp4.y4m" "$tmp/enc/b.y4m" "$tmp/enc/c.y4m")
names=(a.mp4 b c)
dargs=(-d "${encs[0]}" -d "${encs[1]}" -d "${encs[2]}")

# Every extractor (the --list_features names) and every built-in model (--list_models).
mapfile -t feats < <("$bin" --list_features | sed -n '3,$p' | grep -v '^ ' | sed 's/ (CUDA twin)$//')
mapfile -t models < <("$bin" --list_models | sed -n '2,$p' | awk '{ print $1 }')
check "some extractors listed (${#feats[@]})" [ "${#feats[@]}" -ge 10 ]
check "some models listed (${#models[@]})" [ "${#models[@]}" -ge 5 ]
all=()
for f in "${feats[@]}"; do all+=(--feature "$f"); done
for i in "${!models[@]}"; do all+=(-m "version=${models[$i]}:name=m$i"); done

# multi_vs_single LABEL FLAGS MULTI_FLAGS: the multi run (FLAGS MULTI_FLAGS, into a folder)
# against a single run (FLAGS) of each distorted
multi_vs_single() {
  local label=$1 flags=$2 mflags=$3
  rm -rf "$tmp/out" && mkdir "$tmp/out"
  # shellcheck disable=SC2086
  "$bin" -r "$ref" "${dargs[@]}" "${all[@]}" $flags $mflags --json --precision max -q \
    -o "$tmp/out/" 2>"$tmp/err"
  local rc=$?
  check "$label: multi run exits 0 (rc $rc: $(head -c 300 "$tmp/err"))" [ $rc -eq 0 ]
  for i in 0 1 2; do
    # shellcheck disable=SC2086
    "$bin" -r "$ref" -d "${encs[$i]}" "${all[@]}" $flags --json --precision max -q \
      -o "$tmp/single_$i.json" 2>/dev/null
    check "$label: ${names[$i]}.json written" [ -s "$tmp/out/${names[$i]}.json" ]
    check "$label: ${names[$i]}.json equals its single run" \
      same_values "$tmp/single_$i.json" "$tmp/out/${names[$i]}.json"
  done
  check "$label: the outputs differ from one another" \
    bash -c "! cmp -s <(grep -v fps '$tmp/out/a.mp4.json') <(grep -v fps '$tmp/out/c.json')"
}

# 1. Values: byte for byte a separate run's, every model and extractor, in every mode that
#    changes which frames are scored or how.
multi_vs_single "default" "" ""
check "the frame counts follow each distorted (c has 2 frames)" \
  [ "$(grep -c '"frameNum"' "$tmp/out/c.json")" -eq 2 ]
check "... and a has 3" [ "$(grep -c '"frameNum"' "$tmp/out/a.mp4.json")" -eq 3 ]
multi_vs_single "threads 2 vs 1" "--threads 1" "--threads 2"
multi_vs_single "subsample 2" "--subsample 2" ""
multi_vs_single "skip ref, frame count" "--frame_skip_ref 1 --frame_cnt 2" ""
multi_vs_single "skip distorted" "--frame_skip_dist 1" ""

# 2. The shorter distorted is named in one warning; -q silences it.
"$bin" -r "$ref" "${dargs[@]}" -n --feature psnr --json -o "$tmp/out/" 2>"$tmp/err" </dev/null
check "shorter distorted: warned ($(cat "$tmp/err"))" \
  grep -q "c.y4m ends after 2 frames; scoring 2 frames" "$tmp/err"
check "shorter distorted: one warning line" [ "$(wc -l <"$tmp/err")" -eq 1 ]

# The shortest first: its frame slot holds the reference the others copy, after it ended.
"$bin" -r "$ref" -d "${encs[2]}" -d "${encs[0]}" "${all[@]}" --json --precision max -q \
  -o "$tmp/out/first_{}.json" 2>"$tmp/err"
for i in 0 2; do
  "$bin" -r "$ref" -d "${encs[$i]}" "${all[@]}" --json --precision max -q \
    -o "$tmp/alone_$i.json" 2>/dev/null
done
check "shortest first: c equals its single run ($(cat "$tmp/err"))" \
  same_values "$tmp/alone_2.json" "$tmp/out/first_c.json"
check "shortest first: a equals its single run" \
  same_values "$tmp/alone_0.json" "$tmp/out/first_a.mp4.json"

# 3. A pattern with {}, raw input and the reference from standard input; XML by default.
raw() {  # the frames of a y4m without its header and FRAME lines
  local n k
  n=$((($(stat -c %s "$1") - header) / frame))
  for k in $(seq 0 $((n - 1))); do cut "$1" "$k" | tail -c +7; done
}
raw "$ref" >"$tmp/ref.yuv"
raw "${encs[0]}" >"$tmp/enc/a.yuv"
raw "${encs[1]}" >"$tmp/enc/b.yuv"
rflags=(-w 576 -h 324 -p 420 -b 8)
"$bin" -r - -d "$tmp/enc/a.yuv" -d "$tmp/enc/b.yuv" "${rflags[@]}" --precision max -q \
  -o "$tmp/out/{}_vmaf.xml" <"$tmp/ref.yuv" 2>"$tmp/err"
check "pattern, raw, stdin: exit 0 ($(cat "$tmp/err"))" [ -s "$tmp/out/b_vmaf.xml" ]
for n in a b; do
  "$bin" -r "$tmp/ref.yuv" -d "$tmp/enc/$n.yuv" "${rflags[@]}" --precision max -q \
    -o "$tmp/single_$n.xml" 2>/dev/null
  check "pattern, raw, stdin: ${n}_vmaf.xml equals its single run" \
    same_values "$tmp/single_$n.xml" "$tmp/out/${n}_vmaf.xml"
done

# A pattern is one also for a single distorted.
"$bin" -r "$ref" -d "${encs[1]}" -n --feature psnr --json -q -o "$tmp/out/one_{}.json" 2>/dev/null
check "a pattern with one distorted: one_b.json written" [ -s "$tmp/out/one_b.json" ]

# 4. Refusals, before any input is read (a missing reference is not reached), nothing written.
refused() {  # NAME "WORDS" ARGS...: exit != 0, one stderr line with the words, out/ untouched
  local name=$1 words=$2
  shift 2
  rm -rf "$tmp/out" && mkdir "$tmp/out"
  "$bin" "$@" 2>"$tmp/err" </dev/null
  local rc=$?
  check "$name: refused (rc $rc)" [ $rc -ne 0 ]
  check "$name: one line ($(cat "$tmp/err"))" [ "$(wc -l <"$tmp/err")" -eq 1 ]
  check "$name: says \"$words\" ($(cat "$tmp/err"))" grep -qF -- "$words" "$tmp/err"
  check "$name: nothing written" [ -z "$(ls -A "$tmp/out")" ]
}
mkdir -p "$tmp/x" "$tmp/y"
cp "$dis" "$tmp/x/same.y4m"
cp "$dis" "$tmp/y/same.y4m"
refused "two distorted with one name into a folder" "would both be written to $tmp/out/same.json" \
  -r "$tmp/nope.y4m" -d "$tmp/x/same.y4m" -d "$tmp/y/same.y4m" --json -o "$tmp/out"
refused "one distorted given twice" "would both be written" \
  -r "$tmp/nope.y4m" -d "$dis" -d "$dis" -o "$tmp/out/{}.xml"
refused "a plain file for several distorted" "give -o a folder or a pattern with {}" \
  -r "$tmp/nope.y4m" "${dargs[@]}" -o "$tmp/out/all.json"
refused "standard output for several distorted" "give -o a folder or a pattern with {}" \
  -r "$tmp/nope.y4m" "${dargs[@]}" -o -
cp "$dis" "$tmp/enc/keep.y4m"
refused "an output naming a distorted input" "enc/keep.y4m: the output is the distorted input" \
  -r "$ref" -d "$tmp/enc/keep.y4m" -d "${encs[1]}" -o "$tmp/enc/{}.y4m"
check "... which is unchanged" cmp -s "$dis" "$tmp/enc/keep.y4m"
cp "$ref" "$tmp/enc/r.y4m"
refused "an output naming the reference" "the output is the reference input" \
  -r "$tmp/enc/r.y4m" -d "$tmp/enc/r.y4m" -d "${encs[0]}" -o "$tmp/enc/{}.y4m"
check "... which is unchanged" cmp -s "$ref" "$tmp/enc/r.y4m"
refused "a missing output folder" "nodir/a.mp4.json: cannot write: folder" \
  -r "$tmp/nope.y4m" "${dargs[@]}" --json -o "$tmp/nodir/{}.json"
refused "two inputs from standard input" "only one of --reference and --distorted" \
  -r "$ref" -d - -d - -o "$tmp/out"
head -c $header "$dis" | sed 's/W576/W320/' >"$tmp/enc/small.y4m"
printf 'FRAME\n' >>"$tmp/enc/small.y4m"
head -c $((320 * 324 * 3 / 2)) /dev/zero >>"$tmp/enc/small.y4m"
refused "a distorted of another size" "small.y4m is 320x324" \
  -r "$ref" -d "${encs[0]}" -d "$tmp/enc/small.y4m" -o "$tmp/out"

finish cli_multi
