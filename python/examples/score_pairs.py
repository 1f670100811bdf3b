#!/usr/bin/env python3
"""Score encodes against their references, from files or numpy arrays, locally or on Dask.

    score_pairs.py REF DIS [DIS ...]                  # y4m (or encodes), scored in this process
    score_pairs.py --yuv 576x324:420:8 REF DIS        # raw .yuv: WIDTHxHEIGHT:LAYOUT:BITDEPTH
    score_pairs.py --dask 2 REF DIS [DIS ...]         # one Dask task per pair, 2 local workers
    score_pairs.py --numpy                            # the bundled sample, as numpy planes

Prints each pair's pooled VMAF (mean, harmonic mean, min) and, with --csv FILE, writes every
per-frame value (pandas).
"""
import argparse
import os
import sys

import numpy as np

import exactvmaf

SAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "testdata")


def y4m_planes(path):
    """A 4:2:0 8-bit y4m as (Y, U, V) arrays of shape (N, h, w): what a decoder would hand over."""
    with open(path, "rb") as f:
        data = f.read()
    header, rest = data.split(b"\n", 1)
    tags = {t[:1]: t[1:] for t in header.split()[1:]}
    w, h = int(tags[b"W"]), int(tags[b"H"])
    cw, ch = (w + 1) // 2, (h + 1) // 2
    size = w * h + 2 * cw * ch
    ys, us, vs = [], [], []
    while rest:
        _, rest = rest.split(b"\n", 1)  # FRAME
        buf = np.frombuffer(rest[:size], np.uint8)
        rest = rest[size:]
        ys.append(buf[:w * h].reshape(h, w))
        us.append(buf[w * h:w * h + cw * ch].reshape(ch, cw))
        vs.append(buf[w * h + cw * ch:].reshape(ch, cw))
    return np.stack(ys), np.stack(us), np.stack(vs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ref", nargs="?")
    ap.add_argument("dis", nargs="*")
    ap.add_argument("--yuv", help="raw input: WIDTHxHEIGHT:LAYOUT:BITDEPTH, e.g. 1920x1080:420:10")
    ap.add_argument("--model", action="append", help="built-in model (default vmaf_v0.6.1)")
    ap.add_argument("--feature", action="append", default=[], help="extractor, e.g. psnr")
    ap.add_argument("--backend", default="cpu", choices=["cpu", "cuda", "auto"])
    ap.add_argument("--dask", type=int, metavar="N", help="score on N local Dask workers")
    ap.add_argument("--numpy", action="store_true", help="score the bundled sample from numpy")
    ap.add_argument("--csv", help="write the per-frame values of every pair here (pandas)")
    args = ap.parse_args()

    kw = dict(models=args.model or ["vmaf_v0.6.1"], features=args.feature, backend=args.backend)
    if args.yuv:
        size, layout, depth = args.yuv.split(":")
        w, h = size.split("x")
        kw.update(width=int(w), height=int(h), pixel_format=layout, bitdepth=int(depth))
    if args.numpy:
        ref = y4m_planes(os.path.join(SAMPLE, "sample_ref.y4m"))
        pairs = [(ref, y4m_planes(os.path.join(SAMPLE, "sample_dis.y4m")))]
        names = ["sample (numpy)"]
    elif args.ref and args.dis:
        pairs = [(args.ref, d) for d in args.dis]
        names = list(args.dis)
    else:
        ap.error("give REF and DIS files, or --numpy")

    try:
        if args.dask:
            from exactvmaf.dask import score_many

            results = score_many(pairs, n_workers=args.dask, **kw)
        else:
            results = [exactvmaf.score(r, d, **kw) for r, d in pairs]
    except exactvmaf.Error as e:  # the library's message: the file, the frame, the option...
        sys.exit(f"score_pairs: {e}")

    name = "vmaf" if len(kw["models"]) == 1 else kw["models"][0]
    for n, r in zip(names, results):
        p = r.pooled[name]
        print(f"{n}: {name} mean {p['mean']:.6f}, harmonic mean {p['harmonic_mean']:.6f}, "
              f"min {p['min']:.6f} ({r.frame_count} frames, {r.backend})")
    if args.csv:
        import pandas as pd

        frames = [r.to_pandas().assign(pair=n) for n, r in zip(names, results)]
        pd.concat(frames).to_csv(args.csv)


if __name__ == "__main__":  # needed: Dask's worker processes import this module again
    main()
