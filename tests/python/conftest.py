"""Shared helpers of the Python package's tests: the sample pair and the corpus as numpy planes,
the built CLI's JSON (--precision max: every double exact), and comparisons by the bits.

Environment (set by ctest, tests/python/tests.cmake): EV_CLI the built CLI, EV_SOURCE_DIR the
source tree, EV_SHARED_DIR the shared corpus (its tests skip without it); EV_PYTEST_SKIP77=1
turns a run whose every test skipped into exit 77 (ctest's "skipped")."""
import csv
import json
import os
import struct
import subprocess

import numpy as np
import pytest

SOURCE = os.environ.get("EV_SOURCE_DIR",
                        os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
SAMPLE_REF = os.path.join(SOURCE, "testdata", "sample_ref.y4m")
SAMPLE_DIS = os.path.join(SOURCE, "testdata", "sample_dis.y4m")
SHARED = os.environ.get("EV_SHARED_DIR", os.path.join(SOURCE, "..", "shared"))
CORPUS = os.path.join(SHARED, "corpus")


def cli():
    path = os.environ.get("EV_CLI")
    if not path or not os.access(path, os.X_OK):
        pytest.skip("no built CLI (EV_CLI)")
    return path


def cli_json(tmp_path, ref, dis, *args):
    """The CLI's JSON of a pair, every double exact (--precision max)."""
    out = tmp_path / f"cli{len(list(tmp_path.iterdir()))}.json"
    subprocess.run([cli(), "-r", str(ref), "-d", str(dis), *args, "--json", "--precision",
                    "max", "-q", "--threads", "1", "-o", str(out)], check=True)
    with open(out) as f:
        return json.load(f)


def hexbits(v):
    return f"{float(v)!r} (%.17g {float(v):.17g}, 0x{struct.unpack('<Q', struct.pack('<d', v))[0]:016x})"


def same(a, b):
    return struct.pack("<d", float(a)) == struct.pack("<d", float(b))


def assert_bits(result, js, what=""):
    """Every per-frame, pooled and aggregate value of a Result equals the CLI JSON's bits."""
    frames = js["frames"]
    assert result.frame_count == len(frames), f"{what}: {result.frame_count} frames, CLI {len(frames)}"
    assert list(result.frames) == list(frames[0]["metrics"]), f"{what}: metric names differ"
    bad = []
    for i, fr in enumerate(frames):
        for name, want in fr["metrics"].items():
            got = result.frames[name][i]
            if not same(got, want):
                bad.append(f"frame {i} {name}: got {hexbits(got)}, CLI {hexbits(want)}")
    for name, stats in js["pooled_metrics"].items():
        for m, want in stats.items():
            got = result.pooled[name][m]
            if not same(got, want):
                bad.append(f"pooled {name} {m}: got {hexbits(got)}, CLI {hexbits(want)}")
    for name, want in js.get("aggregate_metrics", {}).items():
        got = result.aggregate[name]
        if not same(got, want):
            bad.append(f"aggregate {name}: got {hexbits(got)}, CLI {hexbits(want)}")
    assert not bad, f"{what}: {len(bad)} values differ:\n" + "\n".join(bad[:20])


def read_y4m(path):
    """A 4:2:0 8-bit y4m as a list of (Y, U, V) uint8 planes."""
    data = open(path, "rb").read()
    header, rest = data.split(b"\n", 1)
    tags = {t[:1]: t[1:] for t in header.split()[1:]}
    w, h = int(tags[b"W"]), int(tags[b"H"])
    cw, ch = (w + 1) // 2, (h + 1) // 2
    size = w * h + 2 * cw * ch
    frames = []
    while rest:
        marker, rest = rest.split(b"\n", 1)
        assert marker.startswith(b"FRAME")
        buf = np.frombuffer(rest[:size], np.uint8)
        rest = rest[size:]
        frames.append((buf[:w * h].reshape(h, w), buf[w * h:w * h + cw * ch].reshape(ch, cw),
                       buf[w * h + cw * ch:].reshape(ch, cw)))
    return frames


def read_yuv(path, w, h, layout, depth, frames=None):
    """Raw planar YUV as (Y, U, V) arrays of shape (N, h, w): uint8, or uint16 above 8 bits."""
    dt = np.uint8 if depth == 8 else np.dtype("<u2")
    cw = w if layout == "444" else (w + 1) // 2
    ch = (h + 1) // 2 if layout == "420" else h
    per = w * h + 2 * cw * ch
    data = np.fromfile(path, dtype=dt)
    n = len(data) // per if frames is None else min(frames, len(data) // per)
    data = data[:n * per].reshape(n, per)
    return (data[:, :w * h].reshape(n, h, w),
            data[:, w * h:w * h + cw * ch].reshape(n, ch, cw),
            data[:, w * h + cw * ch:].reshape(n, ch, cw))


def corpus_pairs():
    """The shared corpus's pairs (corpus.tsv), [] without it."""
    tsv = os.path.join(CORPUS, "corpus.tsv")
    if not os.path.exists(tsv):
        return []
    with open(tsv) as f:
        return [dict(r) for r in csv.DictReader(f, delimiter="\t")]


def raw_args(p):
    return ["-w", p["width"], "-h", p["height"], "-p", p["chroma"], "-b", p["bitdepth"]]


def pytest_sessionfinish(session, exitstatus):
    if os.environ.get("EV_PYTEST_SKIP77") != "1" or exitstatus != 0:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    stats = reporter.stats if reporter else {}
    if stats.get("skipped") and not stats.get("passed") and not stats.get("failed"):
        session.exitstatus = 77
