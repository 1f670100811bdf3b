"""exactvmaf.dask.score_many on a LocalCluster of 2 worker processes: the CLI's bits for the
corpus pairs (the sample pair without the shared corpus), in the pairs' order; a failure names
its pair."""
import os

import pytest

distributed = pytest.importorskip("distributed")

import exactvmaf as ev  # noqa: E402
from exactvmaf.dask import PairError, score_many  # noqa: E402
from conftest import (CORPUS, SAMPLE_DIS, SAMPLE_REF, assert_bits, cli_json,  # noqa: E402
                      corpus_pairs, raw_args)

FRAMES = 3


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=50)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def pairs():
    """(score_many pair dict, CLI arguments) for 4 corpus pairs of different formats."""
    out = []
    want = ["nat576_8bit_x264_crf38", "nat576_10bit_x264_crf30", "nat576_444_8bit_x264_crf32",
            "nat576_422_10bit_x264_crf34"]
    for p in corpus_pairs():
        if p["name"] in want:
            ref, dis = os.path.join(CORPUS, p["ref"]), os.path.join(CORPUS, p["dis"])
            fmt = {"width": int(p["width"]), "height": int(p["height"]),
                   "pixel_format": p["chroma"], "bitdepth": int(p["bitdepth"])}
            out.append(({"ref": ref, "dis": dis, **fmt}, [*raw_args(p)]))
    if not out:
        out = [({"ref": SAMPLE_REF, "dis": SAMPLE_DIS}, []),
               ({"ref": SAMPLE_DIS, "dis": SAMPLE_REF}, [])]
    return out


def test_two_workers_give_the_cli_bits(client, tmp_path):
    assert len(client.scheduler_info()["workers"]) == 2
    ps = pairs()
    results = score_many([p for p, _ in ps], client=client, features=["psnr"],
                         frame_count=FRAMES)
    assert len(results) == len(ps)
    for (p, args), r in zip(ps, results):
        js = cli_json(tmp_path, p["ref"], p["dis"], *args, "--feature", "psnr", "--frame_cnt",
                      str(FRAMES))
        assert_bits(r, js, os.path.basename(p["dis"]))


def test_failures_name_the_pair(client):
    bad = [(SAMPLE_REF, SAMPLE_DIS), (SAMPLE_REF, "/nonexistent/dis.y4m")]
    with pytest.raises(PairError, match=r"pair 1 \(.*sample_ref.y4m, /nonexistent/dis.y4m\)"):
        score_many(bad, client=client)
    out = score_many(bad, client=client, errors="return")
    assert isinstance(out[0], ev.Result) and isinstance(out[1], PairError)
    assert "No such file" in str(out[1]) and isinstance(out[1], ev.Error)


def test_arrays_travel_to_workers(client):
    from conftest import read_y4m

    a, b = read_y4m(SAMPLE_REF), read_y4m(SAMPLE_DIS)
    r = score_many([(a, b), (b, a)], client=client)
    assert r[0] == ev.score(a, b) and r[1] == ev.score(b, a)
