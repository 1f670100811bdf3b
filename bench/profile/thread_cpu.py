#!/usr/bin/env python3
"""Run a command and report, per thread of its process, the CPU seconds it used (sampled from
/proc every 20 ms; the last sample before exit), with the thread names (ffmpeg 7.1 names its
demuxer, decoder, filtergraph and muxer threads). Shows which thread is the bound: one at the
whole wall time is.
    thread_cpu.py CMD ARGS...   (the report goes to stderr)"""
import os
import subprocess
import sys
import time

tick = os.sysconf("SC_CLK_TCK")
p = subprocess.Popen(sys.argv[1:])
t0, seen = time.monotonic(), {}
while p.poll() is None:
    try:
        for tid in os.listdir(f"/proc/{p.pid}/task"):
            try:
                with open(f"/proc/{p.pid}/task/{tid}/stat") as f:
                    s = f.read()
                with open(f"/proc/{p.pid}/task/{tid}/comm") as f:
                    name = f.read().strip()
            except OSError:
                continue
            fields = s[s.rindex(")") + 2:].split()
            seen[tid] = (name, (int(fields[11]) + int(fields[12])) / tick)
    except OSError:
        pass
    time.sleep(0.02)
wall = time.monotonic() - t0
rows = sorted(seen.values(), key=lambda r: -r[1])
print(f"thread cpu: wall {wall:.2f} s; " + ", ".join(f"{n} {c:.2f}" for n, c in rows[:12]),
      file=sys.stderr)
sys.exit(p.returncode)
