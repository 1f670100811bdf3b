#!/usr/bin/env bash
# ffmpeg's libvmaf filter on exactvmaf's libvmaf compatibility library, with the invocations
# the wrappers (ab-av1, Av1an, ffmpeg-quality-metrics, easyVmaf) use:
#   - the bundled sample pair: every value of the filter's log (json, xml, csv, sub) equals
#     the exactvmaf CLI's on the same input and options (the CLI is tied to Netflix's goldens);
#   - the corpus pair of ../shared/golden/cli (when present): every value of the filter's log
#     equals Netflix's own CLI output of it, as printed there (%.6f).
# The filter registers its features before the model's (Netflix's CLI: the model's first), so
# the features of a frame may come in another order: values are compared as sorted lines.
# usage: ffmpeg_test.sh FFMPEG EXACTVMAF_CLI SOURCE_DIR [SHARED_DIR]
set -uo pipefail
ffmpeg=$1 cli=$2 src=$(cd "$3" && pwd) shared=${4:-$src/../shared}
. "$src/tests/cli/lib.sh"

# Values of a log, one "frame feature value" line each (pooled and aggregate rows too), read
# by the same parser whatever the layout, so two logs compare value for value (this replaces
# lib.sh's values, which only drops the version and fps lines).
values() { # file format
  python3 - "$1" "$2" <<'PY'
import csv, json, sys, xml.etree.ElementTree as ET
path, fmt = sys.argv[1], sys.argv[2]
rows = []
if fmt == "json":
    d = json.load(open(path))
    for f in d["frames"]:
        rows += ["%d %s %r" % (f["frameNum"], k, v) for k, v in f["metrics"].items()]
    for k, p in d.get("pooled_metrics", {}).items():
        rows += ["pooled %s %s %r" % (k, m, v) for m, v in p.items()]
    rows += ["aggregate %s %r" % (k, v) for k, v in d.get("aggregate_metrics", {}).items()]
elif fmt == "xml":
    r = ET.parse(path).getroot()
    for f in r.iter("frame"):
        rows += ["%s %s %s" % (f.get("frameNum"), k, v) for k, v in f.attrib.items() if k != "frameNum"]
    for m in r.iter("metric"):
        rows += ["pooled %s %s" % (m.get("name"), " ".join("%s=%s" % kv for kv in m.attrib.items() if kv[0] != "name"))]
    a = r.find("aggregate_metrics")
    if a is not None:
        rows += ["aggregate %s %s" % kv for kv in a.attrib.items()]
elif fmt == "csv":
    for line in csv.DictReader(open(path)):
        rows += ["%s %s %s" % (line["Frame"], k, v) for k, v in line.items() if k not in ("Frame", "")]
else:  # sub: lines as they are
    rows = [l.rstrip("\n") for l in open(path)]
rows = [r for r in rows if not r.startswith("fps")]
print("\n".join(sorted(rows)))
PY
}

run_filter() { # name filter-options...: the filter's log in $tmp/NAME.<fmt>
  local name=$1; shift
  "$ffmpeg" -nostdin -hide_banner -loglevel error -i "$dis" -i "$ref" \
    -lavfi "libvmaf=$*" -f null - >"$tmp/$name.out" 2>&1
}

compare() { # name fmt filter-opts -- cli-args...
  local name=$1 fmt=$2 opts=$3; shift 4
  if ! run_filter "$name" "log_fmt=$fmt:log_path=$tmp/$name.$fmt:$opts"; then
    bad "$name: ffmpeg failed: $(head -3 "$tmp/$name.out")"; return
  fi
  "$cli" -r "$ref" -d "$dis" "--$fmt" -o "$tmp/$name.cli.$fmt" -q "$@" 2>"$tmp/$name.cli.err" ||
    { bad "$name: the CLI failed: $(head -2 "$tmp/$name.cli.err")"; return; }
  values "$tmp/$name.$fmt" "$fmt" >"$tmp/$name.got" 2>/dev/null
  values "$tmp/$name.cli.$fmt" "$fmt" >"$tmp/$name.want"
  if [ ! -s "$tmp/$name.want" ]; then bad "$name: the CLI wrote no values"; return; fi
  if cmp -s "$tmp/$name.want" "$tmp/$name.got"; then
    ok "$name: $(wc -l <"$tmp/$name.want") values equal the CLI's ($fmt)"
  else
    bad "$name: $fmt values differ from the CLI's"; diff "$tmp/$name.want" "$tmp/$name.got" | head -6
  fi
}

# the wrappers' invocations
compare default json "n_threads=2" -- --threads 2
compare model_name json 'model=version=vmaf_v0.6.1\\:name=vmaf:n_threads=2' -- --model version=vmaf_v0.6.1:name=vmaf
compare model_path json "model=path=$src/model/vmaf_v0.6.1.json" -- --model "path=$src/model/vmaf_v0.6.1.json"
compare features json 'feature=name=psnr|name=float_ssim:n_threads=2' -- --feature psnr --feature float_ssim
compare neg_model json 'model=version=vmaf_v0.6.1neg' -- --model version=vmaf_v0.6.1neg
compare subsample json 'n_subsample=2' -- --subsample 2
compare shortest json 'shortest=true' --
for fmt in xml csv sub; do compare "layout_$fmt" "$fmt" 'feature=name=psnr' -- --feature psnr; done

# Netflix's own CLI output of a corpus pair
golden=$shared/golden/cli corpus=$shared/corpus
if [ -f "$golden/nat576_8bit_x264_crf23.json" ] && [ -f "$corpus/life_576x324_yuv420p_ref.yuv" ]; then
  for fmt in json xml csv sub; do
    log=$tmp/golden.$fmt
    "$ffmpeg" -nostdin -hide_banner -loglevel error \
      -f rawvideo -pix_fmt yuv420p -s 576x324 -i "$corpus/life_576x324_yuv420p_x264crf23.yuv" \
      -f rawvideo -pix_fmt yuv420p -s 576x324 -i "$corpus/life_576x324_yuv420p_ref.yuv" \
      -lavfi "libvmaf=model=version=vmaf_v0.6.1:feature=name=psnr\\\\:enable_apsnr=true|name=float_ssim:log_fmt=$fmt:log_path=$log" \
      -f null - >"$tmp/golden.out" 2>&1 || { bad "golden $fmt: ffmpeg failed: $(head -3 "$tmp/golden.out")"; continue; }
    values "$golden/nat576_8bit_x264_crf23.$fmt" "$fmt" >"$tmp/golden.want"
    values "$log" "$fmt" >"$tmp/golden.got" 2>/dev/null
    if [ -s "$tmp/golden.want" ] && cmp -s "$tmp/golden.want" "$tmp/golden.got"; then
      ok "golden $fmt: $(wc -l <"$tmp/golden.want") values equal Netflix's CLI output"
    else
      bad "golden $fmt: differs from Netflix's CLI output"
      diff "$tmp/golden.want" "$tmp/golden.got" | head -6
    fi
  done
else
  echo "note: $golden absent: the comparison with Netflix's CLI output is skipped"
fi

finish ffmpeg
