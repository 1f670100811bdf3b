#!/usr/bin/env bash
# --pool, --plot, --report and bdrate (issue 27, docs/REPORTS.md) on the bundled sample and
# encodes made from it: Netflix's four pooled values keep their place and bytes in every layout,
# the added statistics and the pooled CSV/SUB part are where the docs say, the SVG parses as XML
# with one line per distorted and the scene cut marked, the report is self-contained, bdrate
# gives the reference calculator's results, and bad arguments get one line and write nothing.
# usage: cli_report_test.sh EXACTVMAF_BINARY SOURCE_DIR
set -u
bin=$1 src=$2
. "$src/tests/cli/lib.sh"
py() { python3 - "$@"; }

header=43
frame=$((6 + 279936))
frame_of() { tail -c +$((header + 1 + $2 * frame)) "$1" | head -c $frame; }
black() { printf 'FRAME\n'; head -c $((576 * 324)) /dev/zero | tr '\0' '\020'; head -c $((576 * 324 / 2)) /dev/zero | tr '\0' '\200'; }
mkdir -p "$tmp/enc" "$tmp/out"
cp "$dis" "$tmp/enc/a.y4m"
{ head -c $header "$dis"; frame_of "$ref" 0; frame_of "$dis" 1; frame_of "$ref" 2; } >"$tmp/enc/b.y4m"
{ head -c $header "$dis"; frame_of "$dis" 2; frame_of "$dis" 1; frame_of "$dis" 0; } >"$tmp/enc/c.y4m"
# a reference with a cut at frame 3 (three frames, then flat ones), and its distorted
{ head -c $header "$ref"; frame_of "$ref" 0; frame_of "$ref" 1; frame_of "$ref" 2; black; black; black; } >"$tmp/cut_ref.y4m"
{ head -c $header "$dis"; frame_of "$dis" 0; frame_of "$dis" 1; frame_of "$dis" 2; black; black; black; } >"$tmp/cut_dis.y4m"

# 1. --pool in each layout: without the added statistics, the bytes of a run without --pool.
pool=p1,p5,p50,p99.5,low1,low50
for fmt in xml json csv sub; do
  "$bin" -r "$ref" -d "$dis" --feature psnr --$fmt -q -o "$tmp/plain.$fmt"
  "$bin" -r "$ref" -d "$dis" --feature psnr --$fmt -q --pool $pool -o "$tmp/pool.$fmt"
  check "$fmt: --pool exits 0" [ -s "$tmp/pool.$fmt" ]
done
strip_xml() { sed -E 's/ (p[0-9.]+|low[0-9.]+)="[^"]*"//g' "$1" | values /dev/stdin; }
check "xml: Netflix's layout once p*/low* are taken out" cmp -s <(strip_xml "$tmp/pool.xml") <(values "$tmp/plain.xml")
check "xml: the added statistics follow harmonic_mean" \
  grep -q 'harmonic_mean="[^"]*" p1="[^"]*" p5="[^"]*" p50="[^"]*" p99.5="[^"]*" low1="[^"]*" low50="[^"]*" />' "$tmp/pool.xml"
strip_json() { grep -vE '^      "(p[0-9.]+|low[0-9.]+)": ' "$1" | sed -E 's/,$//' | values /dev/stdin; }
check "json: Netflix's layout once p*/low* are taken out" cmp -s <(strip_json "$tmp/pool.json") <(sed -E 's/,$//' "$tmp/plain.json" | values /dev/stdin)
check "json: valid, every pooled metric has the 10 statistics in order" py "$tmp/pool.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want = ["min", "max", "mean", "harmonic_mean", "p1", "p5", "p50", "p99.5", "low1", "low50"]
sys.exit(0 if all(list(v) == want for v in d["pooled_metrics"].values()) else 1)
PY
check "json: low50 of vmaf is the mean of its 2 lowest of 3 frames, p50 the middle one" py "$tmp/pool.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
v = sorted(f["metrics"]["vmaf"] for f in d["frames"])
p = d["pooled_metrics"]["vmaf"]
ok = abs(p["low50"] - (v[0] + v[1]) / 2) < 2e-6 and abs(p["p50"] - v[1]) < 1e-12 and p["low1"] == v[0]
sys.exit(0 if ok else 1)
PY
n_feat=$(head -1 "$tmp/plain.csv" | tr -cd , | wc -c)
check "csv: the frames as without --pool" cmp -s <(head -4 "$tmp/pool.csv") "$tmp/plain.csv"
check "csv: then the four and the six, one row each" \
  [ "$(tail -n +5 "$tmp/pool.csv" | cut -d, -f1 | tr '\n' ' ')" = "min max mean harmonic_mean p1 p5 p50 p99.5 low1 low50 " ]
check "csv: every pooled row has the header's columns" \
  [ "$(tail -n +5 "$tmp/pool.csv" | awk -F, '{ print NF - 1 }' | sort -u)" = "$n_feat" ]
check "csv: the mean row holds the JSON's pooled means" py "$tmp/pool.csv" "$tmp/pool.json" <<'PY'
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1])))
d = json.load(open(sys.argv[2]))["pooled_metrics"]
mean = [r for r in rows if r[0] == "mean"][0]
sys.exit(0 if all(float(mean[i]) == round(d[n]["mean"], 6) for i, n in enumerate(rows[0][1:-1], 1)) else 1)
PY
check "sub: the frames as without --pool" cmp -s <(head -3 "$tmp/pool.sub") "$tmp/plain.sub"
check "sub: a pooled line per statistic at frame 3" \
  [ "$(tail -n +4 "$tmp/pool.sub" | grep -c '^{3}{4}pooled: ')" -eq 10 ]
check "sub: the p50 line names vmaf" grep -q '^{3}{4}pooled: p50|.*|vmaf: [0-9.]*|$' "$tmp/pool.sub"
"$bin" -r "$ref" -d "$dis" --pool p5,low1 >"$tmp/stdout" 2>"$tmp/err"
check "terminal: the mean, then the statistics ($(cat "$tmp/stdout"))" \
  grep -qE '^vmaf_v0.6.1: p5 [0-9.]+, low1 [0-9.]+$' "$tmp/stdout"

# 2. --plot and --report for three encodes of one reference.
"$bin" -r "$ref" -d "$tmp/enc/a.y4m" -d "$tmp/enc/b.y4m" -d "$tmp/enc/c.y4m" --bitrate 800 \
  --bitrate 1200 --bitrate 2500 --pool p5,low1 -q --json -o "$tmp/out/" --plot "$tmp/p.svg" \
  --report "$tmp/r.html" 2>"$tmp/err"
check "multi: exit 0 and both pages ($(cat "$tmp/err"))" [ -s "$tmp/p.svg" ] && [ -s "$tmp/r.html" ]
check "svg: parses as XML, one line per distorted, the legend names them" py "$tmp/p.svg" <<'PY'
import sys, xml.dom.minidom as m
doc = m.parse(sys.argv[1])
g = [e.getAttribute("class") for e in doc.getElementsByTagName("g")]
lines = [c for c in g if c.startswith("line-")]
texts = [t.firstChild.data for t in doc.getElementsByTagName("text") if t.firstChild]
sys.exit(0 if lines == ["line-0", "line-1", "line-2"] and {"a", "b", "c"} <= set(texts)
         and "cut" not in g else 1)
PY
check "report: one pooled row per distorted, the bitrates, p5 and low1 columns" py "$tmp/r.html" <<'PY'
import sys, html.parser
class P(html.parser.HTMLParser):
    def __init__(s):
        super().__init__(); s.table = None; s.rows = {}; s.heads = {}; s.cell = None; s.svg = 0
    def handle_starttag(s, tag, a):
        a = dict(a)
        if tag == "table": s.table = a.get("id"); s.rows[s.table] = []; s.heads[s.table] = []
        if tag == "tr" and s.table: s.rows[s.table].append([])
        if tag in ("td", "th"): s.cell = tag; s.text = ""
        if tag == "svg": s.svg += 1
    def handle_data(s, d):
        if s.cell: s.text += d
    def handle_endtag(s, tag):
        if tag in ("td", "th") and s.cell:
            (s.heads[s.table] if s.cell == "th" else s.rows[s.table][-1]).append(s.text.strip()); s.cell = None
        if tag == "table": s.table = None
p = P(); p.feed(open(sys.argv[1]).read())
body = [r for r in p.rows["pooled"] if r]
ok = [r[0] for r in body] == ["a", "b", "c"] and [r[1] for r in body] == ["800", "1200", "2500"]
ok = ok and p.heads["pooled"][:8] == ["distorted", "bitrate (kbit/s)", "mean", "harmonic_mean", "min", "max", "p5", "low1"]
ok = ok and len([r for r in p.rows["lows"] if r]) == 3 and p.svg == 2
sys.exit(0 if ok else 1)
PY
check "report: fetches nothing (no src, href, link, import or url())" \
  bash -c "! grep -qiE 'src=|href=|<link|@import|url\\(' '$tmp/r.html'"
check "report: its pooled means are the JSON outputs' (%.6f)" py "$tmp/r.html" "$tmp/out" <<'PY'
import json, re, sys
page = open(sys.argv[1]).read()
for n in "abc":
    mean = json.load(open(f"{sys.argv[2]}/{n}.json"))["pooled_metrics"]["vmaf"]["mean"]
    if f'data-value="{mean!r}"' not in page and f"{mean:.6f}" not in page:
        sys.exit(1)
PY
"$bin" -r "$tmp/cut_ref.y4m" -d "$tmp/cut_dis.y4m" -q --plot "$tmp/cut.svg" >/dev/null 2>"$tmp/err"
check "scene cut: the one at frame 3 is marked, and only it ($(cat "$tmp/err"))" py "$tmp/cut.svg" <<'PY'
import sys, xml.dom.minidom as m
doc = m.parse(sys.argv[1])
cuts = [g for g in doc.getElementsByTagName("g") if g.getAttribute("class") == "cut"]
sys.exit(0 if len(cuts) == 1 and cuts[0].getElementsByTagName("text")[0].firstChild.data == "cut 3" else 1)
PY
"$bin" -r "$ref" -d "$dis" -q --plot "$tmp/one.svg" >/dev/null
check "one distorted: a plot of one line" [ "$(grep -c 'class="line-' "$tmp/one.svg")" -eq 1 ]

# 3. Refusals: one line, nothing written.
expect_error "a bad --pool statistic" "--pool p101" -r "$ref" -d "$dis" --pool p5,p101
expect_error "low0" "--pool low0" -r "$ref" -d "$dis" --pool low0
expect_error "a --pool name we do not know" "--pool median" -r "$ref" -d "$dis" --pool median
expect_error "--bitrate count" "--bitrate --distorted" -r "$ref" -d "$dis" --bitrate 100 --bitrate 200
expect_error "--bitrate not a rate" "--bitrate" -r "$ref" -d "$dis" --bitrate fast
expect_error "--plot to stdout" "--plot" -r "$ref" -d "$dis" --plot -
expect_error "--plot in a missing folder" "nope/p.svg folder" -r "$ref" -d "$dis" --plot "$tmp/nope/p.svg"
expect_error "--report over the distorted" "the output is the distorted input" -r "$ref" -d "$tmp/enc/a.y4m" --report "$tmp/enc/a.y4m"
expect_error "--plot and -o one file" "given to two" -r "$ref" -d "$dis" --plot "$tmp/out.xml"
check "... the distorted is unchanged" cmp -s "$dis" "$tmp/enc/a.y4m"

# 4. bdrate: the reference calculator's results (ladders/expected.tsv) to 1e-6 in percent.
lad=$src/tests/report/ladders
while IFS=$'\t' read -r a b want; do
  case $a in '#'*) continue ;; esac
  got=$("$bin" bdrate "$lad/$a" "$lad/$b" | sed -n 's/^BD-rate: \(.*\)%$/\1/p')
  check "bdrate $a $b: $got%, the reference $want (x 100)" \
    awk -v g="$got" -v w="$want" 'BEGIN { d = g - 100 * w; exit !(g != "" && d < 1e-6 && d > -1e-6) }'
done <"$lad/expected.tsv"
# JSON outputs as points: four encodes ordered by their score, the test ladder at 0.9 x the rates
for e in a b c; do "$bin" -r "$ref" -d "$tmp/enc/$e.y4m" -q --json -o "$tmp/$e.json"; done
"$bin" -r "$ref" -d "$ref" -q --json -o "$tmp/same.json"
mapfile -t byscore < <(for e in a b c same; do
  printf '%s %s\n' "$(py "$tmp/$e.json" <<<'import json,sys; print(repr(json.load(open(sys.argv[1]))["pooled_metrics"]["vmaf"]["mean"]))')" "$e"
done | sort -g | awk '{ print $2 }')
: >"$tmp/anchor.txt"
: >"$tmp/test.txt"
rate=1000
for e in "${byscore[@]}"; do
  echo "$rate $e.json" >>"$tmp/anchor.txt"
  echo "$(awk -v r=$rate 'BEGIN { print r * 0.9 }') $tmp/$e.json  # absolute" >>"$tmp/test.txt"
  rate=$((rate * 2))
done
out=$("$bin" bdrate "$tmp/anchor.txt" "$tmp/test.txt" 2>&1)
check "bdrate on JSON outputs: 0.9 x the rates is -10% ($out)" \
  awk -v g="$(sed -n 's/^BD-rate: \(.*\)%$/\1/p' <<<"$out")" 'BEGIN { d = g + 10; exit !(g != "" && d < 1e-9 && d > -1e-9) }'
check "bdrate: a BD-score line" grep -qE '^BD-score: [-0-9.e]+$' <<<"$out"
bd_refused() {  # NAME "WORDS" ARGS: exit 1, one stderr line with WORDS
  local name=$1 words=$2
  shift 2
  "$bin" bdrate "$@" >"$tmp/stdout" 2>"$tmp/err"
  local rc=$?
  check "bdrate $name: exit 1, one line saying \"$words\" ($(cat "$tmp/err"))" \
    bash -c "[ $rc -eq 1 ] && [ \$(wc -l <'$tmp/err') -eq 1 ] && grep -qF -- '$words' '$tmp/err' && [ ! -s '$tmp/stdout' ]"
}
head -4 "$tmp/anchor.txt" | sed '3s/^[0-9]*/99999999/' >"$tmp/bent.txt"
bd_refused "a ladder whose score falls" "at least 4 distinct points whose scores rise" "$tmp/bent.txt" "$tmp/test.txt"
head -3 "$tmp/anchor.txt" >"$tmp/three.txt"
bd_refused "three points" "at least 4 distinct points" "$tmp/three.txt" "$tmp/test.txt"
echo "100 missing.json" >"$tmp/missing.txt"
bd_refused "a missing JSON output" "missing.json" "$tmp/missing.txt" "$tmp/test.txt"
echo "fast 90" >"$tmp/word.txt"
bd_refused "a rate that is no number" "word.txt:1" "$tmp/word.txt" "$tmp/test.txt"
bd_refused "no second ladder" "usage" "$tmp/anchor.txt"
bd_refused "a metric the outputs lack" "no pooled mean of psnr_y" "$tmp/anchor.txt" "$tmp/test.txt" --metric psnr_y
finish cli_report
