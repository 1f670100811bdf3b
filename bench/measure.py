#!/usr/bin/env python3
"""Run one command, its output discarded; print "WALL_SECONDS CPU_SECONDS PEAK_KB".

CPU seconds are the command's user + system time (all its threads), PEAK_KB its peak resident
memory. Exits non-zero, naming the command, when it fails. For bench/vs_netflix.sh and
bench/stages.sh.
"""
import resource
import subprocess
import sys
import time

t0 = time.perf_counter()
rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
t1 = time.perf_counter()
if rc:
    sys.exit("failed (exit %d): %s" % (rc, " ".join(sys.argv[1:])))
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.6f %.6f %d" % (t1 - t0, u.ru_utime + u.ru_stime, u.ru_maxrss))
