# The start every shell test shares (tests/cli/*_test.sh, tests/compat/compat_test.sh,
# tests/install/install_test.sh, tests/ffmpeg/ffmpeg_test.sh), sourced once its arguments are
# read: src (the source tree) must be set; bin (the exactvmaf binary) for expect_error.
#   $tmp              a new folder, removed when the script exits
#   $ref, $dis        the bundled sample pair (576x324, 8-bit 4:2:0, 3 frames, y4m)
#   ok [WHAT]         a check passed; WHAT, when given, is printed as "ok: WHAT"
#   bad WHAT          a check failed: "FAIL: WHAT"
#   check WHAT CMD..  a check that CMD succeeds ("FAIL: WHAT" if not)
#   counted CMD..     a check by CMD, which prints its own ok/FAIL line; CMD's status
#   finish NAME       "NAME: P passed, F failed"; its status (the script's last) is 0 if none failed
#   expect_error NAME "WORD..." ARGS..  $bin ARGS -o FILE exits != 0 with exactly one stderr line
#                     holding every word (case-insensitive) and leaves no FILE (one check)
#   values FILE       FILE without the lines of the version and of the fps (a timing)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ref=$src/testdata/sample_ref.y4m
dis=$src/testdata/sample_dis.y4m
pass=0
failed=0

ok() {
  pass=$((pass + 1))
  [ $# -eq 0 ] || echo "ok: $*"
}
bad() {
  failed=$((failed + 1))
  echo "FAIL: $*"
}
check() {
  local name=$1
  shift
  if "$@"; then ok; else bad "$name"; fi
}
counted() {
  if "$@"; then pass=$((pass + 1)); else failed=$((failed + 1)); return 1; fi
}
finish() {
  echo "$1: $pass passed, $failed failed"
  [ "$failed" -eq 0 ]
}

expect_error() {
  local name=$1 words=$2
  shift 2
  rm -f "$tmp/out.xml" "$tmp/out.xml.partial"
  "$bin" "$@" -o "$tmp/out.xml" >"$tmp/stdout" 2>"$tmp/stderr.all" </dev/null
  local rc=$?
  # a CUDA build without a device says once that it falls back to the CPU: not an error line
  grep -v "using the CPU backend" "$tmp/stderr.all" >"$tmp/stderr"
  local lines
  lines=$(wc -l <"$tmp/stderr")
  if [ $rc -eq 0 ]; then
    bad "$name: exit 0 (stderr: $(cat "$tmp/stderr"))"
    return
  fi
  if [ "$lines" -ne 1 ]; then
    bad "$name: $lines stderr lines, want 1: $(cat "$tmp/stderr")"
    return
  fi
  for w in $words; do
    if ! grep -qiF -- "$w" "$tmp/stderr"; then
      bad "$name: stderr lacks \"$w\": $(cat "$tmp/stderr")"
      return
    fi
  done
  if [ -e "$tmp/out.xml" ] || [ -e "$tmp/out.xml.partial" ]; then
    bad "$name: an output file was left"
    return
  fi
  ok
}

values() { grep -v '"fps"\|"version"\|fps=\|version=' "$1"; }
