#!/usr/bin/env bash
# Fetch a Debian ffmpeg source package into DEST: the system's own release's (bookworm: ffmpeg
# 5.1, into DEST/ffmpeg) or trixie's (ffmpeg 7.1, into DEST/ffmpeg-7.1, with trixie's
# nv-codec-headers 12 into DEST/nv-codec-headers: the headers ffmpeg's CUDA code is built with).
# apt runs with a private configuration under DEST/apt-RELEASE: its deb-src entries are made
# from the system's deb entries (bookworm) or name trixie, and its lists stay there, so the
# system's apt sources and lists are not changed. Called by scripts/setup.sh and
# scripts/build_ffmpeg.sh.
#   fetch_ffmpeg_source.sh DEST [bookworm|trixie]
#       exit 0: the source's configure exists (its path on the last line); else a message, 1
set -euo pipefail
dest=$(mkdir -p "$1" && cd "$1" && pwd)
release=${2:-bookworm}
case $release in
  bookworm) out=$dest/ffmpeg ;;
  trixie) out=$dest/ffmpeg-7.1 ;;
  *) echo "fetch_ffmpeg_source.sh: release must be bookworm or trixie, not '$release'"; exit 1 ;;
esac
if [ -x "$out/configure" ] && { [ "$release" = bookworm ] || [ -f "$dest/nv-codec-headers/Makefile" ]; }; then
  echo "$out"
  exit 0
fi
command -v apt-get >/dev/null || { echo "no apt-get: not a Debian-like system"; exit 1; }
command -v dpkg-source >/dev/null || { echo "dpkg-source (dpkg-dev) is missing"; exit 1; }

apt_dir=$dest/apt-$release
rm -rf "$apt_dir" && mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/parts"
if [ "$release" = trixie ]; then
  key=/usr/share/keyrings/debian-archive-keyring.gpg
  echo "deb-src [signed-by=$key] http://deb.debian.org/debian trixie main" >"$apt_dir/sources.list"
  parts=$apt_dir/parts
else
  # deb-src twins of the system's deb entries (deb822 .sources files and one-line .list files)
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && grep -Eq '^Types:(.* )?deb( |$)' "$f" &&
      sed -e 's/^Types: .*/Types: deb-src/' "$f" >"$apt_dir/$(basename "$f")"
  done
  { grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list || true; } |
    sed 's/^deb /deb-src /' >"$apt_dir/sources.list"
  parts=$apt_dir
fi
opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o "Dir::Etc::SourceParts=$parts"
      -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
      -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache=" -o "Debug::NoLocking=1")
log=$dest/fetch-$release.log
apt-get "${opts[@]}" update >"$log" 2>&1 || { echo "apt-get update failed (see $log)"; exit 1; }
src=$dest/src-$release
rm -rf "$src" && mkdir -p "$src"
(cd "$src" && apt-get "${opts[@]}" source -q --download-only ffmpeg >>"$log" 2>&1) ||
  { echo "apt-get source ffmpeg failed (see $log)"; exit 1; }
dsc=$(find "$src" -maxdepth 1 -name 'ffmpeg_*.dsc' | head -1)
[ -n "$dsc" ] || { echo "apt-get source gave no ffmpeg .dsc (see $log)"; exit 1; }
(cd "$src" && dpkg-source -x --no-check "$(basename "$dsc")" ffmpeg >>"$log" 2>&1) ||
  { echo "dpkg-source -x ffmpeg failed (see $log)"; exit 1; }
if [ "$release" = trixie ]; then
  # only the upstream tarball is needed (headers and a Makefile); a missing Debian part of the
  # package on a mirror does not matter
  (cd "$src" && apt-get "${opts[@]}" source -q --download-only nv-codec-headers >>"$log" 2>&1) || true
  nv=$(find "$src" -maxdepth 1 -name 'nv-codec-headers_*.orig.tar.*' | head -1)
  [ -n "$nv" ] || { echo "apt-get source nv-codec-headers gave no tarball (see $log)"; exit 1; }
  rm -rf "$dest/nv-codec-headers" && mkdir -p "$dest/nv-codec-headers"
  tar xf "$nv" -C "$dest/nv-codec-headers" --strip-components=1 ||
    { echo "cannot unpack $nv"; exit 1; }
fi
rm -rf "$out" && mv "$src/ffmpeg" "$out" && rm -rf "$src"
echo "$out"
