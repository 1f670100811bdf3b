#!/usr/bin/env bash
# Build an ffmpeg with the libvmaf filter against the libvmaf.pc found in PKG_CONFIG_PATH (the
# compat library of an exactvmaf install), from the ffmpeg source in SRC (Debian's source
# package, fetched by scripts/fetch_ffmpeg_source.sh), out of tree into OUT (nothing is
# installed or changed outside OUT).
#   build_ffmpeg.sh OUT SRC      prints the path of the ffmpeg binary on its last line
# A minimal configure: the libvmaf, format, scale and null filters, the rawvideo and
# yuv4mpegpipe demuxers, the rawvideo decoder, the null muxer and the wrapped_avframe encoder,
# file and pipe protocols; no asm, nothing autodetected.
set -euo pipefail
out=$(mkdir -p "$1" && cd "$1" && pwd)
src=$(cd "$2" && pwd)
log=$out/build.log
: >"$log"
bin=$out/ffmpeg-build/ffmpeg
if [ ! -x "$bin" ] || [ "$(cat "$out/ffmpeg-build/.source" 2>/dev/null)" != "$src" ]; then
  rm -rf "$out/ffmpeg-build" && mkdir -p "$out/ffmpeg-build"
  cd "$out/ffmpeg-build"
  libdir=$(pkg-config --variable=libdir libvmaf)
  "$src/configure" --disable-everything --disable-autodetect --disable-x86asm --disable-doc \
    --disable-ffplay --disable-ffprobe --disable-network --disable-debug \
    --enable-libvmaf --enable-filter=libvmaf,format,scale,null \
    --enable-demuxer=rawvideo,yuv4mpegpipe --enable-decoder=rawvideo \
    --enable-muxer=null --enable-encoder=wrapped_avframe --enable-protocol=file,pipe \
    --extra-ldflags="-Wl,-rpath,$libdir" >>"$log" 2>&1 ||
    { tail -20 "$log" >&2; tail -30 ffbuild/config.log >&2; exit 1; }
  make -j"$(nproc)" ffmpeg >>"$log" 2>&1 || { tail -30 "$log" >&2; exit 1; }
  echo "$src" >.source
fi
echo "$bin"
