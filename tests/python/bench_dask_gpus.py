"""score_many over one GPU worker against two (or more): the same pairs, the same bits, and the
speed-up. usage: python3 bench_dask_gpus.py [PAIRS] [FRAMES]   (on a machine with 2+ GPUs)"""
import os
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)

import exactvmaf as ev  # noqa: E402
from exactvmaf.dask import score_many  # noqa: E402
from bench_gpu import SAMPLE_DIS, SAMPLE_REF, frames, write_raw, W, H  # noqa: E402


def main():
    n_pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    gpus = ev.gpu_count()
    if gpus < 2:
        print(f"bench_dask_gpus: {gpus} GPU(s): needs 2 or more")
        return
    write_raw(frames(SAMPLE_REF, n), "/tmp/dask_ref.yuv")
    write_raw(frames(SAMPLE_DIS, n), "/tmp/dask_dis.yuv")
    fmt = {"width": W, "height": H, "pixel_format": "420", "bitdepth": 8}
    pairs = [{"ref": "/tmp/dask_ref.yuv", "dis": "/tmp/dask_dis.yuv", **fmt}] * n_pairs
    times = {}
    results = {}
    for k in (1, gpus):
        from distributed import Client

        from exactvmaf.dask import local_cluster

        with local_cluster(gpus=list(range(k))) as cluster, Client(cluster) as client:
            score_many(pairs[:k], client=client, backend="cuda", frame_count=10)  # warm-up
            t = time.perf_counter()
            results[k] = score_many(pairs, client=client, backend="cuda")
            times[k] = time.perf_counter() - t
        print(f"{k} GPU worker(s): {n_pairs} pairs x {n} frames {W}x{H}: {times[k]:.2f} s, "
              f"{n_pairs * n / times[k]:.1f} fps in all", flush=True)
    same = all(a == b for a, b in zip(results[1], results[gpus]))
    print(f"speed-up {times[1] / times[gpus]:.2f}x with {gpus} GPUs; the same bits: {same}")


if __name__ == "__main__":
    main()
