#!/usr/bin/env bash
# ffmpeg 5.1's shared libraries and its ffmpeg program for the device machine (which has no
# ffmpeg): Debian 12's source (scripts/fetch_ffmpeg_source.sh) built here with NVDEC and cuvid
# (nv-codec-headers: loaded at run time, no CUDA SDK), x86 assembly on (nasm: libswscale's SIMD
# paths, as Debian's), only the demuxers, decoders and filters issue 24's device runs use,
# installed into /tmp/libav and packed as OUT (default .device/nv/libav.tgz); its libraries
# need only libc and libm. bench/device_ffmpeg_run.sh unpacks it before the build, so that
# exactvmaf is built against it (pkg-config) and its encoded input runs on it.
#   bench/device_libav.sh [OUT]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$here/.device/nv/libav.tgz}
deps=$here/build/deps
src=$("$here/scripts/fetch_ffmpeg_source.sh" "$deps" bookworm | tail -1)
"$here/scripts/fetch_ffmpeg_source.sh" "$deps" trixie >/dev/null # nv-codec-headers
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
make -C "$deps/nv-codec-headers" PREFIX="$work/nv" install >/dev/null
rm -rf /tmp/libav
cd "$work"
PKG_CONFIG_PATH=$work/nv/lib/pkgconfig "$src/configure" --prefix=/tmp/libav \
  --enable-shared --disable-static --disable-doc --disable-debug --disable-everything \
  --disable-autodetect --enable-ffnvcodec --enable-nvdec --enable-cuvid \
  --enable-protocol=file,pipe --enable-demuxer=mov,matroska,ivf,mpegts,yuv4mpegpipe,rawvideo \
  --enable-decoder=h264,hevc,vp9,av1,h264_cuvid,hevc_cuvid,vp9_cuvid,av1_cuvid,rawvideo,wrapped_avframe \
  --enable-parser=h264,hevc,vp9,av1 \
  --enable-bsf=h264_mp4toannexb,hevc_mp4toannexb,vp9_superframe_split,av1_frame_split \
  --enable-hwaccel=h264_nvdec,hevc_nvdec,vp9_nvdec,av1_nvdec \
  --enable-muxer=null,yuv4mpegpipe,rawvideo --enable-encoder=wrapped_avframe,rawvideo \
  --enable-filter=scale,format,null,hwdownload,fps,setpts,copy \
  --disable-avdevice --disable-swresample --disable-ffprobe --disable-ffplay >configure.log
grep -q 'x86 assembler *nasm' configure.log || { echo "no nasm: libswscale would lack its SIMD paths"; exit 1; }
make -j"$(nproc)" >make.log 2>&1
make install >install.log 2>&1
mkdir -p "$(dirname "$out")"
tar czf "$out" -C /tmp libav
echo "$out"
