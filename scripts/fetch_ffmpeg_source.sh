#!/usr/bin/env bash
# Fetch Debian's ffmpeg source package (the distribution's own ffmpeg) into DEST/ffmpeg, for the
# ffmpeg filter test (tests/ffmpeg). apt runs with a private configuration under DEST/apt: its
# deb-src entries are made from the system's deb entries and its lists stay there, so the
# system's apt sources and lists are not changed. Called by scripts/setup.sh.
#   fetch_ffmpeg_source.sh DEST      exit 0: DEST/ffmpeg/configure exists; else a message, exit 1
set -euo pipefail
dest=$(mkdir -p "$1" && cd "$1" && pwd)
[ -x "$dest/ffmpeg/configure" ] && exit 0
command -v apt-get >/dev/null || { echo "no apt-get: not a Debian-like system"; exit 1; }
command -v dpkg-source >/dev/null || { echo "dpkg-source (dpkg-dev) is missing"; exit 1; }

apt_dir=$dest/apt
rm -rf "$apt_dir" && mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
# deb-src twins of the system's deb entries (deb822 .sources files and one-line .list files)
for f in /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] && grep -Eq '^Types:(.* )?deb( |$)' "$f" &&
    sed -e 's/^Types: .*/Types: deb-src/' "$f" >"$apt_dir/$(basename "$f")"
done
{ grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list || true; } |
  sed 's/^deb /deb-src /' >"$apt_dir/sources.list"
opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o "Dir::Etc::SourceParts=$apt_dir"
      -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
      -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache=" -o "Debug::NoLocking=1")
log=$dest/fetch.log
apt-get "${opts[@]}" update >"$log" 2>&1 || { echo "apt-get update failed (see $log)"; exit 1; }
rm -rf "$dest/src" && mkdir -p "$dest/src"
(cd "$dest/src" && apt-get "${opts[@]}" source -q ffmpeg >>"$log" 2>&1) ||
  { echo "apt-get source ffmpeg failed (see $log)"; exit 1; }
dir=$(find "$dest/src" -maxdepth 1 -type d -name 'ffmpeg-*' | head -1)
[ -n "$dir" ] || { echo "apt-get source ffmpeg gave no source (see $log)"; exit 1; }
rm -rf "$dest/ffmpeg" && mv "$dir" "$dest/ffmpeg" && rm -rf "$dest/src"
