#!/usr/bin/env bash
# The report of the corpus (three encodes of one reference: x264 crf 23 and 38 and the reference
# itself) drawn by headless Chromium: a screenshot that is not blank and shows the pooled table
# and every curve (png_check.py), the DOM after the page's script with the table's rows and both
# charts, and the --plot SVG parsing as XML. Skips (77) without chromium or the corpus; installs
# nothing (scripts/setup.sh installs Debian's chromium).
# usage: report_chromium.sh EXACTVMAF_BINARY SOURCE_DIR SHARED_DIR
set -u
bin=$1 src=$2 shared=$3
. "$src/tests/cli/lib.sh"
browser=""
for b in chromium chromium-browser; do command -v "$b" >/dev/null && { browser=$b; break; }; done
[ -n "$browser" ] || { echo "report_chromium: skipped: no chromium (scripts/setup.sh installs it)"; exit 77; }
corpus=$shared/corpus
[ -f "$corpus/life_576x324_yuv420p_ref.yuv" ] || { echo "report_chromium: skipped: no corpus in $corpus"; exit 77; }

c=$corpus/life_576x324_yuv420p
"$bin" -r "${c}_ref.yuv" -d "${c}_x264crf23.yuv" -d "${c}_x264crf38.yuv" -d "${c}_ref.yuv" \
  -w 576 -h 324 -p 420 -b 8 --bitrate 1450 --bitrate 310 --bitrate 9000 --pool p1,p5,low1 -q \
  --report "$tmp/report.html" --plot "$tmp/plot.svg" >/dev/null 2>"$tmp/err"
check "the corpus report and plot written ($(cat "$tmp/err"))" [ -s "$tmp/report.html" ] && [ -s "$tmp/plot.svg" ]
check "the plot parses as XML, three lines" python3 - "$tmp/plot.svg" <<'PY'
import sys, xml.dom.minidom as m
g = [e.getAttribute("class") for e in m.parse(sys.argv[1]).getElementsByTagName("g")]
sys.exit(0 if [x for x in g if x.startswith("line-")] == ["line-0", "line-1", "line-2"] else 1)
PY
headless=("$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run
  --user-data-dir="$tmp/profile" --window-size=1200,1800)
timeout 120 "${headless[@]}" --screenshot="$tmp/shot.png" "file://$tmp/report.html" >"$tmp/log" 2>&1
check "chromium took a screenshot ($(tail -2 "$tmp/log"))" [ -s "$tmp/shot.png" ]
counted python3 "$src/tests/report/png_check.py" "$tmp/shot.png" 3
timeout 120 "${headless[@]}" --dump-dom "file://$tmp/report.html" >"$tmp/dom.html" 2>"$tmp/log"
check "the DOM: the pooled table with three rows, both charts" python3 - "$tmp/dom.html" <<'PY'
import re, sys
dom = open(sys.argv[1]).read()
table = re.search(r'<table id="pooled".*?</table>', dom, re.S)
ok = table and len(re.findall(r"<tr>", table.group(0))) == 4
ok = ok and len(re.findall(r"<svg", dom)) == 2 and len(re.findall(r'class="line-\d"', dom)) == 3
sys.exit(0 if ok else 1)
PY
finish report_chromium
