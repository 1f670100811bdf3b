"""The numpy path's CPU rate against the C library's on the same frames in memory (bench_cpu.c:
ev_lend_pictures, as score() lends numpy planes), alternating runs, median and best of each.
usage: python3 bench_cpu.py BUILD_DIR [FRAMES] [THREADS] [REPEATS]"""
import os
import re
import shlex
import subprocess
import sys
import time

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import exactvmaf as ev  # noqa: E402
from bench_gpu import H, SAMPLE_DIS, SAMPLE_REF, W, frames, write_raw  # noqa: E402


def build_c(build):
    """bench_cpu.c against the build's static library and the libraries its exactvmaf.pc lists."""
    exe = os.path.join(build, "bench_cpu_c")
    pc = open(os.path.join(build, "exactvmaf.pc")).read()
    libs = shlex.split(re.search(r"^Libs.private:(.*)$", pc, re.M).group(1))
    req = re.search(r"^Requires.private:(.*)$", pc, re.M).group(1).split()
    if req:
        libs += shlex.split(subprocess.run(["pkg-config", "--libs", *req], check=True,
                                           capture_output=True, text=True).stdout)
    if "-lcudart_static" in libs:
        libs.append("-lstdc++")
    src = os.path.join(os.path.dirname(os.path.dirname(here)), "include")
    subprocess.run(["cc", "-O2", "-std=c11", "-D_POSIX_C_SOURCE=200809L", f"-I{src}",
                    os.path.join(here, "bench_cpu.c"), "-o", exe,
                    os.path.join(build, "libexactvmaf.a"), *libs], check=True)
    return exe


def main():
    build = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    threads = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    reps = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    exe = build_c(build)
    ref, dis = frames(SAMPLE_REF, n), frames(SAMPLE_DIS, n)
    write_raw(ref, "/tmp/bench_cpu_ref.yuv")
    write_raw(dis, "/tmp/bench_cpu_dis.yuv")
    cw, cc, pw, pc = [], [], [], []
    for _ in range(reps):
        out = subprocess.run([exe, "/tmp/bench_cpu_ref.yuv", "/tmp/bench_cpu_dis.yuv", str(W),
                              str(H), str(n), str(threads)], check=True, capture_output=True,
                             text=True).stdout.split()
        cw.append(float(out[0]))
        cc.append(float(out[1]))
        t, c0 = time.perf_counter(), time.process_time()
        r = ev.score(ref, dis, threads=threads)
        pw.append(time.perf_counter() - t)
        pc.append(time.process_time() - c0)
        assert float.hex(r.pooled["vmaf"]["mean"]) == float.hex(float(out[2]))
    med = lambda x: sorted(x)[len(x) // 2]  # noqa: E731
    print(f"{n} frames {W}x{H} 8-bit 4:2:0 vmaf_v0.6.1, {threads} thread(s), {reps} runs each: "
          f"C {n / med(cw):.2f} fps median ({n / min(cw):.2f} best, CPU {med(cc):.3f} s), "
          f"numpy {n / med(pw):.2f} fps median ({n / min(pw):.2f} best, CPU {med(pc):.3f} s): "
          f"numpy/C {med(cw) / med(pw) * 100:.1f}% median, {min(cw) / min(pw) * 100:.1f}% "
          f"best, CPU time {med(cc) / med(pc) * 100:.1f}%; the same bits")


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
