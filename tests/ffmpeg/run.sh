#!/usr/bin/env bash
# ctests ffmpeg_libvmaf_filter (Debian 12's ffmpeg 5.1) and ffmpeg7_libvmaf_filter (Debian
# trixie's 7.1, its libvmaf_cuda filter compiled too when this build has CUDA): install this
# build (with its libvmaf compatibility library) into a prefix inside the build folder, build
# that ffmpeg (the source scripts/setup.sh fetched into BUILD_DIR/deps) against that libvmaf.pc
# (scripts/build_ffmpeg.sh --set test, once per build folder), then run ffmpeg_test.sh. Exit 77
# (skipped, with a message) when that source is missing. The test installs nothing on the
# system.
# usage: run.sh BUILD_DIR SOURCE_DIR SHARED_DIR [5.1|7.1]
set -euo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) shared=${3:-$src/../shared} version=${4:-5.1}
if [ "$version" = 7.1 ]; then
  ffsrc=$build/deps/ffmpeg-7.1 nv=(--nv-codec-headers "$build/deps/nv-codec-headers")
else
  ffsrc=$build/deps/ffmpeg nv=()
fi
if [ ! -x "$ffsrc/configure" ]; then
  echo "ffmpeg test: skipped: no ffmpeg $version source in $ffsrc (scripts/setup.sh fetches" \
    "Debian's; see $build/deps-ffmpeg-*.log)"
  exit 77
fi
work=$build/ffmpeg-test-$version
prefix=$work/prefix
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" >"$work.install.log" 2>&1 ||
  { cat "$work.install.log"; exit 1; }
pc=$(dirname "$(find "$prefix" -name libvmaf.pc | head -1)")
[ -f "$pc/libvmaf.pc" ] || { echo "ffmpeg test: the install has no libvmaf.pc"; exit 1; }
ffmpeg=$(PKG_CONFIG_PATH=$pc "$src/scripts/build_ffmpeg.sh" --ffmpeg "$version" --source "$ffsrc" \
  "${nv[@]}" --set test "$work" | tail -1)
# (outputs taken whole first: grep -q quitting early would fail the pipe under pipefail)
filters=$("$ffmpeg" -hide_banner -filters 2>/dev/null)
grep -q ' libvmaf ' <<<"$filters" ||
  { echo "ffmpeg test: $ffmpeg has no libvmaf filter"; exit 1; }
if [ "$version" = 7.1 ] && "$prefix/bin/exactvmaf" --version | grep -q '^backends:.*cuda'; then
  grep -q ' libvmaf_cuda ' <<<"$filters" ||
    { echo "ffmpeg test: $ffmpeg has no libvmaf_cuda filter"; exit 1; }
  echo "ffmpeg test: $ffmpeg has the libvmaf_cuda filter (built against libvmaf_cuda.h)"
fi
loads=$(ldd "$ffmpeg")
grep -q "libvmaf.so.3 => $prefix" <<<"$loads" ||
  { echo "ffmpeg test: $ffmpeg does not load the installed libvmaf.so.3:"; ldd "$ffmpeg" | grep vmaf; exit 1; }
exec "$src/tests/ffmpeg/ffmpeg_test.sh" "$ffmpeg" "$prefix/bin/exactvmaf" "$src" "$shared"
