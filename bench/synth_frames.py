#!/usr/bin/env python3
"""Raw 8-bit 4:2:0 frames for benchmarks, written to standard output: a moving ramp and a
moving square, with per-frame noise drawn from a fixed cycle (seeded, the same bytes every run).
For bench/ffmpeg_filters.sh on a machine whose minimal ffmpeg has no source filters.

    synth_frames.py WIDTH HEIGHT FRAMES [SEED [NOISE]] >frames.yuv   (defaults 25, 24)
"""
import sys

import numpy as np


def main():
    w, h, n = (int(a) for a in sys.argv[1:4])
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 25
    amp = int(sys.argv[5]) if len(sys.argv) > 5 else 24
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:h, 0:w]
    base = ((x * 3 + y * 2) & 255).astype(np.uint8)
    noise = [rng.integers(0, amp, size=(h, w), dtype=np.uint8) for _ in range(8)]
    cy, cx = np.mgrid[0:h // 2, 0:w // 2]
    u = (cx & 255).astype(np.uint8)
    v = ((cy * 2) & 255).astype(np.uint8)
    side = min(w, h) // 4
    out = sys.stdout.buffer
    for t in range(n):
        luma = base + np.uint8(t * 5 % 256)  # wraps: a moving ramp
        luma ^= noise[t % len(noise)]
        x0 = t * 7 % max(1, w - side)  # a moving bright square
        luma[h // 3:h // 3 + side, x0:x0 + side] |= 0xC0
        out.write(luma.tobytes())
        out.write((u + np.uint8(2 * t % 256)).tobytes())
        out.write((v + np.uint8(3 * t % 256)).tobytes())


if __name__ == "__main__":
    main()
