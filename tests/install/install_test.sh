#!/usr/bin/env bash
# cmake --install into an empty prefix, then use only what it installed:
#  - the files, the soname, and that nothing but the API (ev_*) is global in either library;
#  - a program built with `pkg-config --cflags --libs exactvmaf` (shared) and one linked with
#    the static library (`pkg-config --static`), and the same program through
#    find_package(exactvmaf) (both targets): each must print the installed CLI's scores of the
#    sample pair, every frame and the pooled mean, to the last bit (%.17g).
# usage: install_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
. "$src/tests/cli/lib.sh"
. "$src/tests/install/prefix.sh"

install_prefix
expect_installed "$libdir/libexactvmaf.so.0.1.0" "$libdir/libexactvmaf.so.0" \
  "$libdir/libexactvmaf.so" "$libdir/libexactvmaf.a" "$prefix/include/exactvmaf/exactvmaf.h" \
  "$prefix/include/exactvmaf/video.h" "$prefix/bin/exactvmaf" "$libdir/pkgconfig/exactvmaf.pc" \
  "$libdir/cmake/exactvmaf/exactvmafConfig.cmake" \
  "$libdir/cmake/exactvmaf/exactvmafConfigVersion.cmake"
expect_soname "$libdir/libexactvmaf.so.0.1.0" libexactvmaf.so.0

# Global symbols other than the API: none in the shared library's dynamic table, none in the
# static library (nm: defined symbols, global or weak).
expect_api_only "$libdir/libexactvmaf.so" ev_
check "only $n_api API functions exported" [ "$n_api" -gt 20 ]
# (DW.ref.*: the compiler's hidden weak references for C++ exception tables, never exported)
leaks=$(nm -g --defined-only "$libdir/libexactvmaf.a" |
        awk 'NF == 3 && $3 !~ /^ev_/ && $3 !~ /^DW\.ref\./ {print $3}')
# shellcheck disable=SC2086
check "libexactvmaf.a has global: $(echo $leaks | head -c 300)" [ -z "$leaks" ]

# What the installed CLI says of the sample pair (model vmaf_v0.6.1), at full precision.
"$prefix/bin/exactvmaf" -r "$ref" -d "$dis" --model version=vmaf_v0.6.1 --threads 2 \
  --precision max --json -q -o "$tmp/cli.json" 2>/dev/null || bad "the installed CLI failed"
python3 - "$tmp/cli.json" >"$tmp/want.txt" <<'PY' || bad "reading the CLI's JSON"
import json, sys
d = json.load(open(sys.argv[1]))
for f in d["frames"]:
    print("frame %d vmaf %s" % (f["frameNum"], repr(f["metrics"]["vmaf"])))
print("mean vmaf %s" % repr(d["pooled_metrics"]["vmaf"]["mean"]))
PY
# repr() is the shortest round trip; print the program's %.17g the same way
canon() { python3 -c 'import sys
for l in sys.stdin:
    a = l.split(); a[-1] = repr(float(a[-1])); print(" ".join(a))'; }

check_run() { # name binary
  if ! "$2" "$ref" "$dis" vmaf_v0.6.1 >"$tmp/$1.raw" 2>"$tmp/$1.err"; then
    bad "$1: the program failed: $(head -3 "$tmp/$1.err")"; return
  fi
  canon <"$tmp/$1.raw" >"$tmp/$1.txt"
  if cmp -s "$tmp/want.txt" "$tmp/$1.txt"; then
    ok "$1 gives the CLI's $(wc -l <"$tmp/want.txt") values"
  else
    bad "$1 differs from the CLI:"; diff "$tmp/want.txt" "$tmp/$1.txt" | head -5
  fi
}

cc=${CC:-cc}
if ! pkg-config --exists exactvmaf; then
  bad "pkg-config does not find exactvmaf.pc"
else
  # shared: exactly what pkg-config says, nothing else
  # shellcheck disable=SC2046
  $cc -std=c11 -o "$tmp/score_pc" "$src/tests/install/score_pair.c" \
    $(pkg-config --cflags --libs exactvmaf) 2>"$tmp/cc.log" || bad "pkg-config build: $(head -5 "$tmp/cc.log")"
  if [ -x "$tmp/score_pc" ]; then
    expect_loads "$tmp/score_pc" libexactvmaf.so.0
    LD_LIBRARY_PATH=$libdir check_run pkg-config-shared "$tmp/score_pc"
  fi
  # static: the archive, plus pkg-config --static's private libraries
  static_libs=$(pkg-config --static --libs exactvmaf | sed 's/-lexactvmaf\b/-l:libexactvmaf.a/')
  # shellcheck disable=SC2086
  $cc -std=c11 -o "$tmp/score_pc_static" "$src/tests/install/score_pair.c" \
    $(pkg-config --cflags exactvmaf) $static_libs 2>"$tmp/cc2.log" ||
    bad "pkg-config --static build: $(head -5 "$tmp/cc2.log")"
  if [ -x "$tmp/score_pc_static" ]; then
    loads=$(ldd "$tmp/score_pc_static")
    if grep -q libexactvmaf <<<"$loads"; then bad "the static build loads libexactvmaf.so"; else ok; fi
    check_run pkg-config-static "$tmp/score_pc_static"
  fi
fi

# find_package(exactvmaf): both imported targets
mkdir -p "$tmp/consumer"
cp "$src/tests/install/consumer.cmake" "$tmp/consumer/CMakeLists.txt"
cp "$src/tests/install/score_pair.c" "$tmp/consumer/"
if cmake -S "$tmp/consumer" -B "$tmp/consumer/build" -DCMAKE_PREFIX_PATH="$prefix" \
     >"$tmp/consumer.log" 2>&1 && cmake --build "$tmp/consumer/build" >>"$tmp/consumer.log" 2>&1; then
  LD_LIBRARY_PATH=$libdir check_run find_package-shared "$tmp/consumer/build/score_shared"
  check_run find_package-static "$tmp/consumer/build/score_static"
else
  bad "find_package consumer: $(tail -5 "$tmp/consumer.log")"
fi

if "$prefix/bin/exactvmaf" --version >/dev/null 2>&1; then ok; else bad "the installed CLI's --version fails"; fi
finish install
