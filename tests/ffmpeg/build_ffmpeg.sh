#!/usr/bin/env bash
# Build an ffmpeg with the libvmaf filter against the libvmaf.pc found in PKG_CONFIG_PATH (the
# compat library of an exactvmaf install), from Debian's source package of the distribution's
# ffmpeg, into OUT (a build folder: nothing here is cached beyond it).
#   build_ffmpeg.sh OUT          prints the path of the ffmpeg binary on its last line
# Needs apt with deb.debian.org sources (a deb-src entry is added when missing; root or sudo),
# dpkg-dev, gcc, make, pkg-config. A minimal configure: the libvmaf, format, scale and null
# filters, the rawvideo and yuv4mpegpipe demuxers, the rawvideo decoder, the null muxer and
# the wrapped_avframe encoder, file and pipe protocols; no asm, nothing autodetected.
set -euo pipefail
out=$(mkdir -p "$1" && cd "$1" && pwd)
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
log=$out/build.log
: >"$log"

if [ ! -x "$out/ffmpeg-src/ffmpeg" ]; then
  if ! command -v dpkg-source >/dev/null || ! command -v xz >/dev/null; then
    $sudo apt-get update -qq >>"$log" 2>&1
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq dpkg-dev xz-utils >>"$log" 2>&1
  fi
  if ! apt-get source --print-uris ffmpeg >/dev/null 2>&1; then
    # a deb-src twin of the distribution's deb entries
    src=/etc/apt/sources.list.d/exactvmaf-deb-src.sources
    if [ -f /etc/apt/sources.list.d/debian.sources ]; then
      sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources | $sudo tee "$src" >/dev/null
    else
      grep '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' |
        $sudo tee /etc/apt/sources.list.d/exactvmaf-deb-src.list >/dev/null
    fi
    $sudo apt-get update -qq >>"$log" 2>&1
  fi
  rm -rf "$out/src" && mkdir -p "$out/src"
  (cd "$out/src" && apt-get source -q ffmpeg >>"$log" 2>&1)
  dir=$(find "$out/src" -maxdepth 1 -type d -name 'ffmpeg-*' | head -1)
  [ -n "$dir" ] || { echo "build_ffmpeg: apt-get source ffmpeg gave no source (see $log)" >&2; exit 1; }
  rm -rf "$out/ffmpeg-src" && mv "$dir" "$out/ffmpeg-src"
  cd "$out/ffmpeg-src"
  libdir=$(pkg-config --variable=libdir libvmaf)
  ./configure --disable-everything --disable-autodetect --disable-x86asm --disable-doc \
    --disable-ffplay --disable-ffprobe --disable-network --disable-debug \
    --enable-libvmaf --enable-filter=libvmaf,format,scale,null \
    --enable-demuxer=rawvideo,yuv4mpegpipe --enable-decoder=rawvideo \
    --enable-muxer=null --enable-encoder=wrapped_avframe --enable-protocol=file,pipe \
    --extra-ldflags="-Wl,-rpath,$libdir" >>"$log" 2>&1 ||
    { tail -20 "$log" >&2; tail -30 ffbuild/config.log >&2; exit 1; }
  make -j"$(nproc)" ffmpeg >>"$log" 2>&1 || { tail -30 "$log" >&2; exit 1; }
fi
echo "$out/ffmpeg-src/ffmpeg"
