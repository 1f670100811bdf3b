#!/usr/bin/env bash
# Build an ffmpeg whose libvmaf filter (and, with CUDA, libvmaf_cuda filter) runs on exactvmaf:
# Debian trixie's ffmpeg 7.1 (default) or bookworm's 5.1, configured against the libvmaf.pc of
# an exactvmaf install (its libvmaf.so.3 compatibility library), out of tree, into OUT. Nothing
# is installed or changed outside OUT: the sources are fetched with a private apt configuration
# (scripts/fetch_ffmpeg_source.sh), nv-codec-headers are installed into OUT.
#
#   scripts/build_ffmpeg.sh [options] OUT        the ffmpeg binary's path on the last line
#     --exactvmaf PREFIX   the exactvmaf install (default: the one pkg-config finds as libvmaf)
#     --ffmpeg 7.1|5.1     which ffmpeg (default 7.1; libvmaf_cuda exists from 6.1 on)
#     --source DIR         an ffmpeg source tree to build instead of fetching one
#     --nv-codec-headers DIR   nv-codec-headers source (default: trixie's, fetched)
#     --cuda auto|on|off   the CUDA parts: libvmaf_cuda, NVDEC decoding (-hwaccel cuda),
#                          hwupload_cuda, and scale_cuda when clang can build its kernels
#                          (--enable-cuda-llvm: no nonfree build, no CUDA SDK). auto (default):
#                          on when the exactvmaf install has CUDA and the ffmpeg is 7.1
#     --set full|encoded|test   full (default): every native component, as a usual build;
#                          encoded: the filters with the demuxers and decoders of encodes
#                          (mp4, mkv, webm, ivf, y4m; H.264, HEVC, VP9, AV1) and the null/y4m
#                          outputs; test: the filters with y4m and raw inputs only (CI)
#     --extra "FLAGS"      more configure flags (e.g. "--enable-nvenc --enable-encoder=hevc_nvenc")
#     -j N                 make's jobs (default: the cores)
#
# Then, for example:
#   OUT/ffmpeg-7.1/ffmpeg -i dis.mp4 -i ref.mkv -lavfi libvmaf=log_path=vmaf.json:log_fmt=json -f null -
#   OUT/ffmpeg-7.1/ffmpeg -hwaccel cuda -hwaccel_output_format cuda -i dis.mp4 \
#       -hwaccel cuda -hwaccel_output_format cuda -i ref.mkv \
#       -lavfi "[0:v]scale_cuda=format=yuv420p[d];[1:v]scale_cuda=format=yuv420p[r];[d][r]libvmaf_cuda" -f null -
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
version=7.1 source= nvsrc= cuda=auto set=full jobs=$(nproc) ev_prefix= extra=
while [ $# -gt 1 ]; do
  case $1 in
    --exactvmaf) ev_prefix=$2; shift 2 ;;
    --ffmpeg) version=$2; shift 2 ;;
    --source) source=$2; shift 2 ;;
    --nv-codec-headers) nvsrc=$2; shift 2 ;;
    --cuda) cuda=$2; shift 2 ;;
    --set) set=$2; shift 2 ;;
    --extra) extra=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    -j*) jobs=${1#-j}; shift ;;
    *) echo "build_ffmpeg.sh: unknown option '$1'" >&2; exit 1 ;;
  esac
done
[ $# -eq 1 ] || { sed -n '2,/^set -euo/p' "$0" | sed '$d' >&2; exit 1; }
out=$(mkdir -p "$1" && cd "$1" && pwd)
case $version in 7.1 | 5.1) ;; *) echo "build_ffmpeg.sh: --ffmpeg must be 7.1 or 5.1" >&2; exit 1 ;; esac
case $set in full | encoded | test) ;; *) echo "build_ffmpeg.sh: --set must be full, encoded or test" >&2; exit 1 ;; esac
case $cuda in auto | on | off) ;; *) echo "build_ffmpeg.sh: --cuda must be auto, on or off" >&2; exit 1 ;; esac

if [ -n "$ev_prefix" ]; then
  pc=$(dirname "$(find "$ev_prefix" -name libvmaf.pc -path '*pkgconfig*' | head -1)")
  [ -f "$pc/libvmaf.pc" ] || { echo "build_ffmpeg.sh: no libvmaf.pc under $ev_prefix" >&2; exit 1; }
  export PKG_CONFIG_PATH=$pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
fi
pkg-config --exists libvmaf ||
  { echo "build_ffmpeg.sh: pkg-config finds no libvmaf (give --exactvmaf PREFIX)" >&2; exit 1; }
# exactvmaf's libvmaf.pc says so in its description (EV_ANY_LIBVMAF=1: another libvmaf, such as
# Netflix's own, for side-by-side runs)
if [ -z "${EV_ANY_LIBVMAF:-}" ] &&
  ! grep -q exactvmaf "$(pkg-config --variable=pcfiledir libvmaf)/libvmaf.pc"; then
  echo "build_ffmpeg.sh: the libvmaf pkg-config finds is not exactvmaf's" >&2
  exit 1
fi
libdir=$(pkg-config --variable=libdir libvmaf)

if [ -z "$source" ]; then
  release=trixie; [ "$version" = 5.1 ] && release=bookworm
  source=$("$here/fetch_ffmpeg_source.sh" "$out/sources" "$release" | tail -1) ||
    { echo "build_ffmpeg.sh: $source" >&2; exit 1; }
  [ "$release" = trixie ] && [ -z "$nvsrc" ] && nvsrc=$out/sources/nv-codec-headers
fi
source=$(cd "$source" && pwd)
[ -x "$source/configure" ] || { echo "build_ffmpeg.sh: no configure in $source" >&2; exit 1; }

# CUDA: the install must have it (its exactvmaf --version says so), and ffmpeg 7.1
has_cuda=0
if [ "$cuda" != off ] && [ "$version" = 7.1 ]; then
  ev_cli=$(pkg-config --variable=prefix libvmaf)/bin/exactvmaf
  if [ "$cuda" = on ] || { [ -x "$ev_cli" ] && "$ev_cli" --version 2>/dev/null | grep -q '^backends:.*cuda'; }; then
    has_cuda=1
  fi
fi
[ "$cuda" = on ] && [ "$has_cuda" = 0 ] && { echo "build_ffmpeg.sh: --cuda on needs ffmpeg 7.1" >&2; exit 1; }

flags=(--disable-doc --disable-ffplay --disable-network --disable-debug --enable-libvmaf
       --extra-ldflags="-Wl,-rpath,$libdir")
filters=libvmaf,format,scale,null,split,setpts,fps
case $set in
  test)
    flags+=(--disable-everything --disable-autodetect --disable-x86asm --disable-ffprobe
            --enable-demuxer=rawvideo,yuv4mpegpipe --enable-decoder=rawvideo --enable-muxer=null
            --enable-encoder=wrapped_avframe --enable-protocol=file,pipe) ;;
  encoded)
    flags+=(--disable-everything --disable-autodetect --disable-ffprobe
            --enable-demuxer=rawvideo,yuv4mpegpipe,mov,matroska,ivf,mpegts
            --enable-parser=h264,hevc,vp9,av1 --enable-decoder=rawvideo,h264,hevc,vp9,av1
            --enable-muxer=null,yuv4mpegpipe,rawvideo --enable-encoder=wrapped_avframe,rawvideo
            --enable-protocol=file,pipe)
    command -v nasm >/dev/null || flags+=(--disable-x86asm) ;;
  full)
    command -v nasm >/dev/null || flags+=(--disable-x86asm) ;;
esac
if [ "$has_cuda" = 1 ]; then
  [ -f "$nvsrc/Makefile" ] || { echo "build_ffmpeg.sh: no nv-codec-headers (--nv-codec-headers)" >&2; exit 1; }
  make -C "$nvsrc" PREFIX="$out/nv-codec-headers" install >"$out/nv-codec-headers.log" 2>&1 ||
    { echo "build_ffmpeg.sh: nv-codec-headers install failed (see $out/nv-codec-headers.log)" >&2; exit 1; }
  export PKG_CONFIG_PATH=$out/nv-codec-headers/lib/pkgconfig:$PKG_CONFIG_PATH
  # (libvmaf_cuda needs no switch: configure finds libvmaf_cuda.h through libvmaf.pc)
  flags+=(--enable-ffnvcodec --enable-cuda --enable-nvdec)
  filters+=,libvmaf_cuda,hwupload_cuda,hwdownload
  if command -v clang >/dev/null; then
    flags+=(--enable-cuda-llvm)
    filters+=,scale_cuda
  fi
  [ "$set" = encoded ] && flags+=(--enable-hwaccel=h264_nvdec,hevc_nvdec,vp9_nvdec,av1_nvdec)
fi
[ "$set" != full ] && flags+=(--enable-filter=$filters)
# shellcheck disable=SC2206
[ -n "$extra" ] && flags+=($extra)

bld=$out/ffmpeg-$version
log=$out/ffmpeg-$version.log
stamp="$source ${flags[*]}"
if [ ! -x "$bld/ffmpeg" ] || [ "$(cat "$bld/.configured" 2>/dev/null)" != "$stamp" ]; then
  rm -rf "$bld" && mkdir -p "$bld"
  (cd "$bld" && "$source/configure" "${flags[@]}") >"$log" 2>&1 ||
    { tail -20 "$log" >&2; tail -30 "$bld/ffbuild/config.log" >&2; exit 1; }
  make -C "$bld" -j"$jobs" ffmpeg >>"$log" 2>&1 || { tail -30 "$log" >&2; exit 1; }
  echo "$stamp" >"$bld/.configured"
fi
if [ "$has_cuda" = 1 ]; then
  "$bld/ffmpeg" -hide_banner -filters 2>/dev/null | grep -q ' libvmaf_cuda ' ||
    { echo "build_ffmpeg.sh: $bld/ffmpeg has no libvmaf_cuda filter (see $log)" >&2; exit 1; }
fi
echo "$bld/ffmpeg"
