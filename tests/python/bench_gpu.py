"""The GPU path's rate: torch and cupy tensors scored in place (exactvmaf.score, backend='cuda')
against the C library on the same device frames (bench_gpu.c: ev_lend_device_pictures), with
the pooled bits compared, and the host<->device copies counted by torch's profiler (CUPTI).
usage: python3 bench_gpu.py BUILD_DIR [FRAMES] [ROUNDS]   (run by gpu_run.sh on a GPU machine)"""
import os
import subprocess
import sys
import time

import numpy as np

import exactvmaf as ev

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from conftest import SAMPLE_DIS, SAMPLE_REF, read_y4m  # noqa: E402

W, H = 1920, 1080


def frames(path, n):
    """n 1080p 4:2:0 frames: the sample's frames tiled, each shifted by its index."""
    src = read_y4m(path)
    ys, us, vs = [], [], []
    for i in range(n):
        y, u, v = src[i % len(src)]
        ys.append(np.roll(np.tile(y, (4, 4)), i, axis=1)[:H, :W])
        us.append(np.roll(np.tile(u, (4, 4)), i // 2, axis=1)[:H // 2, :W // 2])
        vs.append(np.roll(np.tile(v, (4, 4)), i // 2, axis=1)[:H // 2, :W // 2])
    return tuple(np.ascontiguousarray(np.stack(p)) for p in (ys, us, vs))


def write_raw(planes, path):
    n = planes[0].shape[0]
    with open(path, "wb") as f:
        for i in range(n):
            for p in planes:
                f.write(p[i].tobytes())


def main():
    build = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    ref, dis = frames(SAMPLE_REF, n), frames(SAMPLE_DIS, n)
    write_raw(ref, "/tmp/bench_ref.yuv")
    write_raw(dis, "/tmp/bench_dis.yuv")
    exe = os.path.join(build, "bench_gpu_c")
    out = subprocess.run([exe, "/tmp/bench_ref.yuv", "/tmp/bench_dis.yuv", str(W), str(H),
                          str(n), str(rounds), "0"], check=True, capture_output=True,
                         text=True).stdout.split("\n")
    c_rows = [line.split() for line in out if line.strip()]
    c_open = max(float(r[1]) for r in c_rows)
    c_fps = max(float(r[5]) for r in c_rows)  # ev_open to ev_close, as exactvmaf.score()
    c_mean = c_rows[0][2]
    print(f"C library, device pictures: {n} frames {W}x{H} 8-bit 4:2:0 vmaf_v0.6.1: "
          f"ev_open..ev_close {', '.join(r[5] for r in c_rows)} fps (best {c_fps:.1f}); "
          f"ev_open..ev_flush {', '.join(r[1] for r in c_rows)} fps (best {c_open:.1f}); "
          f"mean {c_mean}, backend {c_rows[0][3]}")
    t = time.perf_counter()
    cpu = ev.score(ref, dis, backend="cpu")
    print(f"numpy on the CPU: {n / (time.perf_counter() - t):.1f} fps, mean "
          f"{cpu.pooled['vmaf']['mean']!r}; equal to C's bits: "
          f"{float.hex(cpu.pooled['vmaf']['mean']) == float.hex(float(c_mean))}")
    for lib in ("torch", "cupy"):
        try:
            mod = __import__(lib)
        except ImportError:
            print(f"{lib}: not installed")
            continue
        if lib == "torch":
            dref = tuple(mod.from_numpy(p).cuda() for p in ref)
            ddis = tuple(mod.from_numpy(p).cuda() for p in dis)
            mod.cuda.synchronize()
        else:
            dref = tuple(mod.asarray(p) for p in ref)
            ddis = tuple(mod.asarray(p) for p in dis)
            mod.cuda.Device().synchronize()
        rates, flushed = [], []
        for _ in range(rounds):
            t = time.perf_counter()
            r = ev.score(dref, ddis, backend="cuda")
            rates.append(n / (time.perf_counter() - t))
        for _ in range(rounds):  # a Scorer: open, pushes, flush timed; its close after
            t = time.perf_counter()
            s = ev.Scorer(backend="cuda")
            for i in range(n):  # one frame at a time, as an encoder or training loop pushes
                s.push(tuple(p[i] for p in dref), tuple(p[i] for p in ddis))
            rs = s.flush()
            flushed.append(n / (time.perf_counter() - t))
            s.close()
        best, best_f = max(rates), max(flushed)
        print(f"{lib} tensors: score() {', '.join(f'{x:.1f}' for x in rates)} fps (best "
              f"{best:.1f}, {best / c_fps * 100:.1f}% of the C library's ev_open..ev_close); "
              f"Scorer open..flush {', '.join(f'{x:.1f}' for x in flushed)} fps (best "
              f"{best_f:.1f}, {best_f / c_open * 100:.1f}% of C's ev_open..ev_flush); "
              f"backend {r.backend}; every value equal to the CPU's bits: {r == cpu and rs == cpu}")
        if lib == "torch":
            copies(mod, dref, ddis)


def copies(torch, dref, ddis):
    """The memcpy activity of one scoring, from CUPTI through torch's profiler."""
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        ev.score(dref, ddis, backend="cuda")
        torch.cuda.synchronize()
    kinds = {}
    for e in prof.events():
        name = e.name.lower()
        if "memcpy" in name or "memset" in name:
            kinds[e.name] = kinds.get(e.name, 0) + 1
    print(f"torch profiler, one scoring: copies and sets seen: {kinds or 'none'}")


if __name__ == "__main__":
    main()
