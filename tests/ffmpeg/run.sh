#!/usr/bin/env bash
# ctest ffmpeg_libvmaf_filter: install this build (with its libvmaf compatibility library) into
# a prefix inside the build folder, build Debian's ffmpeg (the source scripts/setup.sh fetched
# into BUILD_DIR/deps/ffmpeg) against that libvmaf.pc (build_ffmpeg.sh, once per build folder),
# then run ffmpeg_test.sh. Exit 77 (skipped, with a message) when that source is missing. The
# test installs nothing on the system.
# usage: run.sh BUILD_DIR SOURCE_DIR [SHARED_DIR]
set -euo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) shared=${3:-$src/../shared}
ffsrc=$build/deps/ffmpeg
if [ ! -x "$ffsrc/configure" ]; then
  echo "ffmpeg test: skipped: no ffmpeg source in $ffsrc (scripts/setup.sh fetches Debian's;" \
    "see $build/deps-ffmpeg.log)"
  exit 77
fi
work=$build/ffmpeg-test
prefix=$work/prefix
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" >"$work.install.log" 2>&1 ||
  { cat "$work.install.log"; exit 1; }
pc=$(dirname "$(find "$prefix" -name libvmaf.pc | head -1)")
[ -f "$pc/libvmaf.pc" ] || { echo "ffmpeg test: the install has no libvmaf.pc"; exit 1; }
ffmpeg=$(PKG_CONFIG_PATH=$pc "$src/tests/ffmpeg/build_ffmpeg.sh" "$work" "$ffsrc" | tail -1)
# (outputs taken whole first: grep -q quitting early would fail the pipe under pipefail)
filters=$("$ffmpeg" -hide_banner -filters 2>/dev/null)
grep -q ' libvmaf ' <<<"$filters" ||
  { echo "ffmpeg test: $ffmpeg has no libvmaf filter"; exit 1; }
loads=$(ldd "$ffmpeg")
grep -q "libvmaf.so.3 => $prefix" <<<"$loads" ||
  { echo "ffmpeg test: $ffmpeg does not load the installed libvmaf.so.3:"; ldd "$ffmpeg" | grep vmaf; exit 1; }
exec "$src/tests/ffmpeg/ffmpeg_test.sh" "$ffmpeg" "$prefix/bin/exactvmaf" "$src" "$shared"
