# What install_test.sh and tests/compat/compat_test.sh both do with an installed prefix, sourced
# after tests/cli/lib.sh (its checks), with build (the build folder) set.
#   install_prefix            cmake --install $build into $tmp/prefix (exit 1 if that fails);
#                             sets prefix and libdir, and PKG_CONFIG_PATH to libdir's pkgconfig
#   expect_installed FILE..   a check each: FILE (a path under the prefix) exists
#   expect_soname LIB SONAME  a check: LIB's DT_SONAME is SONAME
#   expect_api_only LIB PFX   a check: LIB's dynamic table defines no symbol but PFX*; sets
#                             n_api to how many PFX* symbols it defines
#   expect_loads PROGRAM LIB  a check: PROGRAM loads the libdir's LIB, LD_LIBRARY_PATH=libdir
install_prefix() {
  prefix=$tmp/prefix
  cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; exit 1; }
  libdir=$prefix/lib
  [ -d "$prefix/lib64" ] && [ ! -d "$libdir" ] && libdir=$prefix/lib64
  export PKG_CONFIG_PATH=$libdir/pkgconfig
}

expect_installed() {
  local f
  for f; do check "not installed: ${f#"$prefix"/}" [ -e "$f" ]; done
}

expect_soname() {
  local soname
  soname=$(readelf -d "$1" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
  check "soname is '$soname', not $2" [ "$soname" = "$2" ]
}

expect_api_only() {
  local syms leaks
  syms=$(nm -D --defined-only "$1")
  leaks=$(awk -v api="^$2" 'NF == 3 && $3 !~ api {print $3}' <<<"$syms")
  # shellcheck disable=SC2086
  check "${1##*/} exports: $(echo $leaks | head -c 300)" [ -z "$leaks" ]
  n_api=$(grep -c " $2" <<<"$syms")
}

expect_loads() {
  local loads
  loads=$(LD_LIBRARY_PATH=$libdir ldd "$1") # whole first: grep -q quitting early fails the pipe
  check "${1##*/} does not load the installed $2" grep -q "$2 => $libdir" <<<"$loads"
}
