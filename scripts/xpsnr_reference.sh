#!/usr/bin/env bash
# The reference of the xpsnr extractor (docs/XPSNR.md): ffmpeg 7.1's xpsnr filter, built from
# Debian trixie's ffmpeg source package with one change, its stats file printing every value
# at full precision (%.17g and the double's hex, %a) instead of %3.4f. Everything lives under
# DEST (outside the repository): apt runs with a private configuration there (trixie deb-src,
# its own lists and cache), so the system's apt sources and lists are not changed.
#
#   xpsnr_reference.sh DEST
#       fetch, patch and build (once); prints the ffmpeg binary's path on its last line
#   xpsnr_reference.sh DEST run REF DIS WIDTH HEIGHT PIX_FMT FRAME_RATE STATS
#       run the filter on a raw pair (ffmpeg's input 0 = REF, the "main" input whose activity
#       weights the errors; input 1 = DIS) and write the stats file STATS
#   xpsnr_reference.sh DEST version
#       the Debian version of the source built
#
# The build: a minimal configure (the xpsnr filter; the psnr filter too, whose vf_psnr.asm holds
# the SSE2 sse_line that xpsnr's x86 init takes, so ffmpeg links only with it; the rawvideo and
# yuv4mpegpipe demuxers, the rawvideo decoder, the null muxer, the wrapped_avframe encoder, file
# and pipe protocols), with x86 assembly as Debian builds it (the filter's sse_line is then
# ffmpeg's SSE2 kernel, which the extractor reproduces), nothing autodetected, `nice -n 19 make
# -j2`.
# XPSNR_FFMPEG_VERSION=7:7.1.5-0+deb13u1 pins the source version (default: trixie's current).
set -euo pipefail
dest=$(mkdir -p "$1" && cd "$1" && pwd)
shift
src=$dest/ffmpeg
bld=$dest/build
bin=$bld/ffmpeg

fetch() {
  [ -x "$src/configure" ] && return 0
  command -v apt-get >/dev/null || { echo "no apt-get: not a Debian-like system" >&2; exit 1; }
  command -v dpkg-source >/dev/null || { echo "dpkg-source (dpkg-dev) is missing" >&2; exit 1; }
  local apt=$dest/apt log=$dest/fetch.log
  rm -rf "$apt" && mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/parts"
  local key=/usr/share/keyrings/debian-archive-keyring.gpg
  echo "deb-src [signed-by=$key] http://deb.debian.org/debian trixie main" >"$apt/sources.list"
  local opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=$apt/parts"
              -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
              -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache=" -o "Debug::NoLocking=1")
  apt-get "${opts[@]}" update >"$log" 2>&1 || { echo "apt-get update failed (see $log)" >&2; exit 1; }
  local pkg=ffmpeg
  [ -n "${XPSNR_FFMPEG_VERSION:-}" ] && pkg="ffmpeg=$XPSNR_FFMPEG_VERSION"
  rm -rf "$dest/src" && mkdir -p "$dest/src"
  (cd "$dest/src" && apt-get "${opts[@]}" source -q --download-only "$pkg" >>"$log" 2>&1) ||
    { echo "apt-get source $pkg failed (see $log)" >&2; exit 1; }
  local dsc
  dsc=$(find "$dest/src" -maxdepth 1 -name 'ffmpeg_*.dsc' | head -1)
  [ -n "$dsc" ] || { echo "apt-get source gave no .dsc (see $log)" >&2; exit 1; }
  local version
  version=$(sed -n 's/^Version: //p' "$dsc")
  case $version in
    7:7.1.*) ;;
    *) echo "trixie's ffmpeg is $version, not 7.1 (set XPSNR_FFMPEG_VERSION)" >&2; exit 1 ;;
  esac
  (cd "$dest/src" && dpkg-source -x --no-check "$(basename "$dsc")" ffmpeg >>"$log" 2>&1) ||
    { echo "dpkg-source -x failed (see $log)" >&2; exit 1; }
  patch_printing "$dest/src/ffmpeg"
  echo "$version" >"$dest/src/ffmpeg/.xpsnr_version"
  rm -rf "$src" && mv "$dest/src/ffmpeg" "$src" && rm -rf "$dest/src"
}

# The only change to ffmpeg: the stats file's values at full precision.
patch_printing() {
  (cd "$1" && patch -p1 --no-backup-if-mismatch -s) <<'EOF'
--- a/libavfilter/vf_xpsnr.c
+++ b/libavfilter/vf_xpsnr.c
@@ -512,3 +512,3 @@
         for (c = 0; c < s->num_comps; c++)
-            fprintf(s->stats_file, "  XPSNR %c: %3.4f", s->comps[c], cur_xpsnr[c]);
+            fprintf(s->stats_file, "  XPSNR %c: %.17g %a", s->comps[c], cur_xpsnr[c], cur_xpsnr[c]);
         fprintf(s->stats_file, "\n");
@@ -676,3 +676,3 @@
             fprintf(s->stats_file, "\nXPSNR average, %"PRId64" frames", s->num_frames_64);
-            fprintf(s->stats_file, "  %c: %3.4f", s->comps[0], xpsnr_luma);
+            fprintf(s->stats_file, "  %c: %.17g %a", s->comps[0], xpsnr_luma, xpsnr_luma);
         }
@@ -688,3 +688,3 @@
             if (s->stats_file && s->stats_file != stdout)
-                fprintf(s->stats_file, "  %c: %3.4f", s->comps[c], xpsnr_chroma);
+                fprintf(s->stats_file, "  %c: %.17g %a", s->comps[c], xpsnr_chroma, xpsnr_chroma);
         }
@@ -694,3 +694,3 @@
             if (s->stats_file && s->stats_file != stdout)
-                fprintf(s->stats_file, "  (minimum: %3.4f)\n", xpsnr_min);
+                fprintf(s->stats_file, "  (minimum: %.17g %a)\n", xpsnr_min, xpsnr_min);
         } else {
EOF
}

build() {
  if [ -x "$bin" ] && [ "$(cat "$bld/.source" 2>/dev/null)" = "$(cat "$src/.xpsnr_version")" ]; then
    return 0
  fi
  command -v nasm >/dev/null || { echo "nasm is missing (ffmpeg's x86 assembly)" >&2; exit 1; }
  rm -rf "$bld" && mkdir -p "$bld"
  local log=$dest/build.log
  (cd "$bld" && "$src/configure" --disable-everything --disable-autodetect --disable-doc \
     --disable-ffplay --disable-ffprobe --disable-network --disable-debug \
     --enable-filter=xpsnr,psnr --enable-demuxer=rawvideo,yuv4mpegpipe --enable-decoder=rawvideo \
     --enable-muxer=null --enable-encoder=wrapped_avframe --enable-protocol=file,pipe \
     >"$log" 2>&1) || { tail -20 "$log" >&2; exit 1; }
  (cd "$bld" && nice -n 19 make -j2 ffmpeg >>"$log" 2>&1) || { tail -30 "$log" >&2; exit 1; }
  cat "$src/.xpsnr_version" >"$bld/.source"
}

case ${1:-} in
  "")
    fetch
    build
    echo "$bin"
    ;;
  version)
    cat "$src/.xpsnr_version"
    ;;
  run)
    [ $# -eq 8 ] || { echo "usage: $0 DEST run REF DIS WIDTH HEIGHT PIX_FMT FRAME_RATE STATS" >&2; exit 2; }
    [ -x "$bin" ] || { echo "no reference build in $dest (run $0 $dest first)" >&2; exit 1; }
    raw=(-f rawvideo -video_size "$4x$5" -pixel_format "$6" -framerate "$7")
    # -nostdin: no key reading; the filter's log line (%3.4f) goes to the log file
    "$bin" -nostdin -hide_banner -loglevel info "${raw[@]}" -i "$2" "${raw[@]}" -i "$3" \
      -lavfi "xpsnr=stats_file=$8" -f null - >"$8.log" 2>&1 ||
      { tail -5 "$8.log" >&2; exit 1; }
    ;;
  *)
    echo "usage: $0 DEST [run ...|version]" >&2
    exit 2
    ;;
esac
