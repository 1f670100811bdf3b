#!/usr/bin/env bash
# The reference of the ssimulacra2 extractor (docs/SSIMULACRA2.md): libjxl 0.11's `ssimulacra2`
# tool, built from Debian trixie's jpeg-xl source package for Highway's portable scalar target
# (HWY_COMPILE_ONLY_SCALAR: one lane, no FMA), with one change: its score printed at full
# precision (%.17g and the double's hex, %a) instead of %.8f. Everything lives under DEST
# (outside the repository): apt runs with a private configuration there (trixie deb-src, its own
# lists and cache), so the system's apt sources and lists are not changed, and nothing is
# installed. libjxl's dependencies are trixie's sources too (highway 1.2, lcms2 2.16, brotli
# 1.1), built inside libjxl's tree as its third_party/ submodules would be.
#
#   ssimulacra2_reference.sh DEST
#       fetch, patch and build (once); prints the tool's path on its last line
#   ssimulacra2_reference.sh DEST run ORIG.pfm DIST.pfm
#       score one pair: prints "%.17g %a" of the score
#   ssimulacra2_reference.sh DEST version
#       the Debian version of the jpeg-xl source built
#
# SSIMULACRA2_JXL_VERSION=0.11.2-0.1~deb13u2 takes that revision of trixie's jpeg-xl from the
# pool when the mirror no longer (or not yet) has the one its index lists: its .dsc and Debian
# tarball are checked against each other, its upstream tarball against trixie's signed index.
set -euo pipefail
dest=$(mkdir -p "$1" && cd "$1" && pwd)
shift
src=$dest/libjxl  # DEST/highway beside it
bld=$dest/build
bin=$bld/tools/ssimulacra2
apt=$dest/apt
mirror=http://deb.debian.org/debian

apt_opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=$apt/parts"
          -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
          -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache=" -o "Debug::NoLocking=1")

apt_update() {
  command -v apt-get >/dev/null || { echo "no apt-get: not a Debian-like system" >&2; exit 1; }
  command -v dpkg-source >/dev/null || { echo "dpkg-source (dpkg-dev) is missing" >&2; exit 1; }
  rm -rf "$apt" && mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/parts"
  local key=/usr/share/keyrings/debian-archive-keyring.gpg
  echo "deb-src [signed-by=$key] $mirror trixie main" >"$apt/sources.list"
  apt-get "${apt_opts[@]}" update >"$dest/fetch.log" 2>&1 ||
    { echo "apt-get update failed (see $dest/fetch.log)" >&2; exit 1; }
}

# The sha256 that trixie's (signed) source index gives a file of package $1.
index_sha256() {
  local idx
  idx=$(find "$apt/lists" -name '*_Sources*' | head -1)
  local cat="cat"
  case $idx in *.lz4) cat="lz4cat" ;; *.xz) cat="xzcat" ;; *.gz) cat="zcat" ;; esac
  "$cat" "$idx" | awk -v p="$1" -v f="$2" '
    /^Package: / { inpkg = ($2 == p) }
    inpkg && /^Checksums-Sha256:/ { s = 1; next }
    inpkg && s && /^ / { if ($3 == f) print $1; next }
    { s = 0 }' | head -1
}

# Unpacks source package $1 (optionally =VERSION) into $dest/src/$1; Debian's patches applied.
get_source() {
  local pkg=$1 want=${2:-} dir=$dest/src/$1
  rm -rf "$dir" && mkdir -p "$dir"
  if ! (cd "$dir" && apt-get "${apt_opts[@]}" source -q --download-only \
          "$pkg${want:+=$want}" >>"$dest/fetch.log" 2>&1); then
    if [ "$pkg" != jpeg-xl ] || [ -z "${SSIMULACRA2_JXL_VERSION:-}" ]; then
      echo "apt-get source $pkg failed (see $dest/fetch.log)" >&2
      exit 1
    fi
    pool_source "$pkg" "$SSIMULACRA2_JXL_VERSION" "$dir"
  fi
  local dsc
  dsc=$(find "$dir" -maxdepth 1 -name "${pkg}_*.dsc" | head -1)
  [ -n "$dsc" ] || { echo "no .dsc for $pkg (see $dest/fetch.log)" >&2; exit 1; }
  (cd "$dir" && dpkg-source -x --no-check "$(basename "$dsc")" tree >>"$dest/fetch.log" 2>&1) ||
    { echo "dpkg-source -x $pkg failed (see $dest/fetch.log)" >&2; exit 1; }
  sed -n 's/^Version: //p' "$dsc" >"$dir/tree/.debian_version"
}

# A revision of $1 taken from the pool (the mirror lacks the indexed one's files).
pool_source() {
  local pkg=$1 version=$2 dir=$3 up=${2#*:}
  up=${up%-*}
  local base=$mirror/pool/main/${pkg:0:1}/$pkg
  local dsc=${pkg}_${version}.dsc
  local enc=${dsc//\~/%7e}
  curl -fsS -o "$dir/$dsc" "$base/$enc" || { echo "no $dsc in the pool" >&2; exit 1; }
  local orig=${pkg}_${up}.orig.tar.gz
  [ -f "$dir/$orig" ] || curl -fsS -o "$dir/$orig" "$base/$orig"
  local want
  want=$(index_sha256 "$pkg" "$orig")
  if [ -z "$want" ] || [ "$(sha256sum <"$dir/$orig" | cut -d' ' -f1)" != "$want" ]; then
    echo "$orig does not match trixie's index" >&2
    exit 1
  fi
  local f sum
  while read -r sum _ f; do
    [ "$f" = "$orig" ] && continue
    curl -fsS -o "$dir/$f" "$base/${f//\~/%7e}" || { echo "no $f in the pool" >&2; exit 1; }
    [ "$(sha256sum <"$dir/$f" | cut -d' ' -f1)" = "$sum" ] ||
      { echo "$f does not match $dsc" >&2; exit 1; }
  done < <(sed -n '/^Checksums-Sha256:/,/^[A-Z]/p' "$dir/$dsc" | grep '^ ')
}

fetch() {
  [ -f "$src/.ssimulacra2_version" ] && return 0
  apt_update
  get_source jpeg-xl
  get_source highway
  get_source lcms2
  # brotli only (de)compresses libjxl's metadata boxes, none of the score's arithmetic: trixie's
  # source when the mirror has it, else the system's libbrotli-dev (JPEGXL_FORCE_SYSTEM_BROTLI)
  (get_source brotli) 2>/dev/null || rm -rf "$dest/src/brotli"
  local t=$dest/src/jpeg-xl/tree version
  version=$(cat "$t/.debian_version")
  case $version in
    0.11.*) ;;
    *) echo "trixie's jpeg-xl is $version, not 0.11 (set SSIMULACRA2_JXL_VERSION)" >&2; exit 1 ;;
  esac
  # libjxl's third_party/ as its git submodules would fill it (lcms2.cmake wants a .git)
  # (Debian's hwy.patch has libjxl find an installed highway: it is built into DEST/prefix)
  rm -rf "$t/third_party/highway" "$t/third_party/lcms" "$t/third_party/brotli" "$dest/highway"
  mv "$dest/src/highway/tree" "$dest/highway"
  mv "$dest/src/lcms2/tree" "$t/third_party/lcms" && touch "$t/third_party/lcms/.git"
  if [ -d "$dest/src/brotli/tree" ]; then
    mv "$dest/src/brotli/tree" "$t/third_party/brotli"
  fi
  patch_printing "$t"
  {
    echo "jpeg-xl $version"
    echo "highway $(cat "$dest/highway/.debian_version")"
    echo "lcms2 $(cat "$t/third_party/lcms/.debian_version")"
    if [ -f "$t/third_party/brotli/.debian_version" ]; then
      echo "brotli $(cat "$t/third_party/brotli/.debian_version")"
    else
      echo "brotli system $(pkg-config --modversion libbrotlidec 2>/dev/null || echo '?')"
    fi
  } >"$t/.ssimulacra2_version"
  rm -rf "$src" && mv "$t" "$src" && rm -rf "$dest/src"
}

# The only change to libjxl: the score at full precision.
patch_printing() {
  local f=$1/tools/ssimulacra2_main.cc
  grep -c 'printf("%.8f\\n"' "$f" | grep -qx 2 ||
    { echo "$f: the two score printf lines are not where expected" >&2; exit 1; }
  sed -i 's/printf("%.8f\\n", \(.*\));$/{ const double s_ = \1; printf("%.17g %a\\n", s_, s_); }/' "$f"
  grep -c 'printf("%.17g %a\\n", s_, s_)' "$f" | grep -qx 2 ||
    { echo "$f: patching the printing failed" >&2; exit 1; }
}

build() {
  if [ -x "$bin" ] && cmp -s "$bld/.source" "$src/.ssimulacra2_version"; then
    return 0
  fi
  rm -rf "$bld" "$dest/prefix" "$dest/build-hwy" && mkdir -p "$bld"
  local log=$dest/build.log
  # Highway's scalar target only (HWY_SCALAR, one lane), and no contraction: the portable
  # definition, the same on every x86-64 (and other) machine.
  local flags="-DHWY_COMPILE_ONLY_SCALAR -ffp-contract=off" brotli=ON
  [ -d "$src/third_party/brotli/c" ] && brotli=OFF
  (cmake -S "$dest/highway" -B "$dest/build-hwy" -DCMAKE_BUILD_TYPE=Release \
     -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_INSTALL_PREFIX="$dest/prefix" \
     -DCMAKE_INSTALL_LIBDIR=lib -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
     -DBUILD_TESTING=OFF -DHWY_ENABLE_TESTS=OFF -DHWY_ENABLE_EXAMPLES=OFF \
     -DHWY_ENABLE_CONTRIB=OFF && nice -n 19 make -C "$dest/build-hwy" -j2 install) \
     >"$log" 2>&1 || { tail -20 "$log" >&2; exit 1; }
  (cd "$bld" && PKG_CONFIG_PATH="$dest/prefix/lib/pkgconfig" cmake -S "$src" -B . \
     -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$dest/prefix" -DJPEGXL_FORCE_SYSTEM_HWY=ON \
     -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
     -DBUILD_TESTING=OFF -DJPEGXL_ENABLE_DEVTOOLS=ON -DJPEGXL_ENABLE_TOOLS=ON \
     -DJPEGXL_ENABLE_SKCMS=OFF -DJPEGXL_ENABLE_JPEGLI=OFF -DJPEGXL_ENABLE_OPENEXR=OFF \
     -DJPEGXL_ENABLE_SJPEG=OFF -DJPEGXL_ENABLE_BENCHMARK=OFF -DJPEGXL_ENABLE_EXAMPLES=OFF \
     -DJPEGXL_ENABLE_MANPAGES=OFF -DJPEGXL_ENABLE_DOXYGEN=OFF -DJPEGXL_ENABLE_JNI=OFF \
     -DJPEGXL_ENABLE_PLUGINS=OFF -DJPEGXL_ENABLE_TCMALLOC=OFF -DJPEGXL_ENABLE_VIEWERS=OFF \
     -DJPEGXL_ENABLE_TRANSCODE_JPEG=OFF -DJPEGXL_BUNDLE_LIBPNG=OFF -DJPEGXL_STATIC=OFF \
     -DCMAKE_DISABLE_FIND_PACKAGE_GIF=ON -DCMAKE_DISABLE_FIND_PACKAGE_JPEG=ON \
     -DCMAKE_DISABLE_FIND_PACKAGE_PNG=ON -DCMAKE_DISABLE_FIND_PACKAGE_OpenEXR=ON \
     -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON \
     -DJPEGXL_FORCE_SYSTEM_BROTLI=$brotli \
     >>"$log" 2>&1) || { tail -20 "$log" >&2; exit 1; }
  (cd "$bld" && nice -n 19 make -j2 ssimulacra2 >>"$log" 2>&1) || { tail -30 "$log" >&2; exit 1; }
  cp "$src/.ssimulacra2_version" "$bld/.source"
}

case ${1:-} in
  "")
    fetch
    build
    echo "$bin"
    ;;
  version)
    cat "$src/.ssimulacra2_version"
    ;;
  run)
    [ $# -eq 3 ] || { echo "usage: $0 DEST run ORIG.pfm DIST.pfm" >&2; exit 2; }
    [ -x "$bin" ] || { echo "no reference build in $dest (run $0 $dest first)" >&2; exit 1; }
    "$bin" "$2" "$3"
    ;;
  *)
    echo "usage: $0 DEST [run ORIG DIST|version]" >&2
    exit 2
    ;;
esac
