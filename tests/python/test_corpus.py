"""numpy scoring of the shared corpus equals the CLI's JSON bits: every pair (vmaf_v0.6.1 with
psnr), and every built-in model (ev_model_versions) on an 8-bit and a 10-bit pair. Skipped
without the shared corpus (EV_SHARED_DIR)."""
import os

import pytest

import exactvmaf as ev
from conftest import CORPUS, assert_bits, cli_json, corpus_pairs, raw_args, read_yuv

PAIRS = corpus_pairs()
BY_NAME = {p["name"]: p for p in PAIRS}
FRAMES = 3  # few frames keep the test in seconds


def arrays(p, which):
    return read_yuv(os.path.join(CORPUS, p[which]), int(p["width"]), int(p["height"]),
                    p["chroma"], int(p["bitdepth"]), FRAMES)


def numpy_score(p, **kw):
    return ev.score(arrays(p, "ref"), arrays(p, "dis"), bitdepth=int(p["bitdepth"]), threads=1,
                    **kw)


def cli(tmp_path, p, *args):
    return cli_json(tmp_path, os.path.join(CORPUS, p["ref"]), os.path.join(CORPUS, p["dis"]),
                    *raw_args(p), "--frame_cnt", str(FRAMES), *args)


@pytest.mark.skipif(not PAIRS, reason="no shared corpus (EV_SHARED_DIR)")
@pytest.mark.parametrize("name", [p["name"] for p in PAIRS] or ["none"])
def test_pair(tmp_path, name):
    p = BY_NAME[name]
    js = cli(tmp_path, p, "--feature", "psnr")
    assert_bits(numpy_score(p, features=["psnr"]), js, name)


@pytest.mark.skipif(not PAIRS, reason="no shared corpus (EV_SHARED_DIR)")
@pytest.mark.parametrize("model", ev.model_versions())
@pytest.mark.parametrize("name", ["nat576_8bit_x264_crf23", "nat576_10bit_x264_crf30"])
def test_model(tmp_path, model, name):
    p = BY_NAME[name]
    js = cli(tmp_path, p, "--model", f"version={model}")
    assert_bits(numpy_score(p, models=[model]), js, f"{name} {model}")


@pytest.mark.skipif(not PAIRS, reason="no shared corpus (EV_SHARED_DIR)")
def test_raw_path(tmp_path):
    p = BY_NAME["nat576_12bit_x265_crf30"]
    js = cli(tmp_path, p)
    r = ev.score(os.path.join(CORPUS, p["ref"]), os.path.join(CORPUS, p["dis"]),
                 width=int(p["width"]), height=int(p["height"]), pixel_format="yuv420p12le",
                 frame_count=FRAMES)
    assert_bits(r, js, "raw path")
