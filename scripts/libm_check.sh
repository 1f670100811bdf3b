#!/usr/bin/env bash
# The long proofs of the ciede twin's device libm (src/libm/glibc_exp_pow.h) against
# this host's glibc: every input ciede can give where enumerable, >= 10^9 random ones where
# not. CI runs only the seeded sample (ctest unit_libm). Run on every host whose glibc
# the twin is used with (each glibc build may fuse differently): exit status 0 when every
# call of every run matched, bit for bit.
#
#   scripts/libm_check.sh [threads [part]]   threads: default all cores; part: enum
#       (every float, every 8- and 10-bit triple: ~2 minutes on 16 cores), random (10^9
#       random arguments of each call: ~7 minutes on 16 cores) or all (default)
set -euo pipefail
cd "$(dirname "$0")/.."
threads=${1:-$(nproc)}
part=${2:-all}
bin=$(mktemp -d)/libm_check
cc -std=c11 -O2 -pthread -ffp-contract=off -D_POSIX_C_SOURCE=200809L -Isrc \
   tests/unit/libm_check.c src/libm/glibc_ibm_tables.c -lm -o "$bin"
echo "glibc $(ldd --version | head -1 | awk '{print $NF}'), $(uname -m), $threads threads"
fail=0
run() { echo "== $*"; "$bin" "$@" || fail=1; }
run                                  # the CI sample
if [ "$part" != random ]; then
run pow7 "$threads"                  # powf(c, 7) and pow(c, 7): all 2^31 - 2^23 floats >= 0
run lab 8 "$threads"                 # pow(x, 2.4), pow(t, 1/3): all 2^24 8-bit triples
run lab 10 "$threads"                # ... all 2^30 10-bit triples
fi
if [ "$part" != enum ]; then
run lab 12 "$threads" 1000000000     # ... 10^9 random 12-bit triples
run lab 16 "$threads" 1000000000     # ... 10^9 random 16-bit triples
run de 8 300000000 "$threads"        # every call of ciede2000 (pow, powf, exp, sin, cos,
run de 10 300000000 "$threads"       # atan2) on random pairs of colours: 10^9 pairs in all
run de 12 200000000 "$threads"
run de 16 200000000 "$threads"
run sincos 1000000000 "$threads"     # sin, cos: 10^9 random |x| < 32 (every path)
run atan2 1000000000 "$threads"      # atan2: 10^9 random pairs of floats (every path)
fi
echo "libm_check: $([ $fail = 0 ] && echo 'all equal' || echo 'MISMATCHES (see above)')"
exit $fail
