"""exactvmaf.score, Scorer and MultiScorer on the bundled sample (testdata/), against the CLI's
bits; the documented exceptions for bad input."""
import threading
import time

import numpy as np
import pytest

import exactvmaf as ev
from conftest import SAMPLE_DIS, SAMPLE_REF, assert_bits, cli_json, read_y4m, same

REF = read_y4m(SAMPLE_REF)
DIS = read_y4m(SAMPLE_DIS)


def stacked(frames):
    return tuple(np.stack([f[p] for f in frames]) for p in range(3))


def test_paths_equal_cli(tmp_path):
    js = cli_json(tmp_path, SAMPLE_REF, SAMPLE_DIS, "--feature", "psnr=enable_apsnr=true")
    r = ev.score(SAMPLE_REF, SAMPLE_DIS, features=["psnr=enable_apsnr=true"], threads=2)
    assert_bits(r, js, "paths")
    assert r.aggregate and r.backend == "cpu"


@pytest.mark.parametrize("shape", ["list", "stacked", "dict", "one_frame_list"])
def test_numpy_equal_cli(tmp_path, shape):
    js = cli_json(tmp_path, SAMPLE_REF, SAMPLE_DIS, "--feature", "psnr", "--feature",
                  "float_ssim")
    if shape == "list":
        a, b = REF, DIS
    elif shape == "stacked":
        a, b = stacked(REF), stacked(DIS)
    elif shape == "dict":
        a, b = [dict(zip("yuv", f)) for f in REF], [dict(zip("YUV", f)) for f in DIS]
    else:
        a, b = list(REF), list(DIS)
    r = ev.score(a, b, features=["psnr", ("float_ssim", {})])
    assert_bits(r, js, shape)


def test_luma_only_equals_420_luma():
    full = ev.score(REF, DIS)
    luma = ev.score(np.stack([f[0] for f in REF]), np.stack([f[0] for f in DIS]))
    assert list(luma.frames) == list(full.frames)
    for k in full.frames:
        assert full.frames[k].tobytes() == luma.frames[k].tobytes(), k


def test_strided_and_16bit():
    # rows with a padded stride (a crop of a wider array) read in place; 10-bit samples
    wide = [tuple(np.pad(p, ((0, 0), (0, 64)))[:, :p.shape[1]] for p in f) for f in REF]
    assert ev.score(wide, DIS) == ev.score(REF, DIS)
    a = [tuple(p.astype(np.uint16) << 2 for p in f) for f in REF]
    b = [tuple(p.astype(np.uint16) << 2 for p in f) for f in DIS]
    r10 = ev.score(a, b, bitdepth=10, features=["psnr"])
    assert r10.frame_count == 3 and np.all(r10.frames["psnr_y"] > 30)


def test_threads_and_models():
    one = ev.score(REF, DIS, threads=1)
    two = ev.score(REF, DIS, threads=2)
    assert one == two
    both = ev.score(REF, DIS, models=["vmaf_v0.6.1", "vmaf_v0.6.1neg"])
    assert "vmaf_v0.6.1" in both.pooled and "vmaf_v0.6.1neg" in both.pooled
    assert same(both.pooled["vmaf_v0.6.1"]["mean"], one.pooled["vmaf"]["mean"])
    assert "vmaf" in ev.score(REF, DIS, models="version=vmaf_v0.6.1:name=vmaf").frames


def test_subsample_and_pool(tmp_path):
    js = cli_json(tmp_path, SAMPLE_REF, SAMPLE_DIS, "--subsample", "2")
    r = ev.score(SAMPLE_REF, SAMPLE_DIS, subsample=2, pool=("p50", "low1"))
    assert np.isnan(r.frames["vmaf"][1]) and not np.isnan(r.frames["vmaf"][2])
    assert same(r.pooled["vmaf"]["mean"], js["pooled_metrics"]["vmaf"]["mean"])
    assert "p50" in r.pooled["vmaf"] and "low1" in r.pooled["vmaf"]


def test_scorer_streams_the_same_bits():
    want = ev.score(REF, DIS, features=["psnr"])
    seen = []
    with ev.Scorer(features=["psnr"], threads=1) as s:
        for i, (a, b) in enumerate(zip(REF, DIS)):
            assert s.push(a, b) == i
            seen += s.poll()
        r = s.flush()
        seen += s.poll()
    assert r == want
    assert [i for i, _ in seen] == [0, 1, 2]
    for i, values in seen:
        for k, v in values.items():
            assert same(v, want.frames[k][i]), (i, k)


def test_multiscorer_equals_separate_runs():
    with ev.MultiScorer(2, features=["psnr"], threads=1) as m:
        for a, b in zip(REF, DIS):
            m.push(a, [b, a])
        r = m.flush()
    assert r[0] == ev.score(REF, DIS, features=["psnr"])
    assert r[1] == ev.score(REF, REF, features=["psnr"])


def test_to_pandas():
    pd = pytest.importorskip("pandas")
    df = ev.score(REF, DIS).to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == 3 and "vmaf" in df


def test_gil_released():
    # another Python thread keeps running while the library scores
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    big = [tuple(np.tile(p, (2, 2)) for p in f) for f in REF]
    bigd = [tuple(np.tile(p, (2, 2)) for p in f) for f in DIS]
    t = threading.Thread(target=count)
    t.start()
    start = time.perf_counter()
    ev.score(big * 2, bigd * 2, threads=1)
    end = time.perf_counter()
    stop.set()
    t.join()
    during = [x for x in ticks if start < x < end]
    # with the GIL held, the counter could not tick at all inside score()
    assert len(during) >= 5, f"{len(during)} ticks in {end - start:.3f} s"


# -- errors -------------------------------------------------------------------------------------

Y, Yd = REF[0][0], DIS[0][0]


@pytest.mark.parametrize("call, exc, text", [
    (lambda: ev.score(Y.astype(np.float32), Yd), ev.DtypeError, "uint8"),
    (lambda: ev.score(Y.astype(np.int16), Yd.astype(np.int16), bitdepth=10), ev.DtypeError, "int16"),
    (lambda: ev.score(Y.astype(np.uint16), Yd.astype(np.uint16)), ev.InputError, "bitdepth"),
    (lambda: ev.score(Y, Yd, bitdepth=10), ev.DtypeError, "uint16"),
    (lambda: ev.score(Y[:, :100], Yd), ev.InputError, "576x324"),
    (lambda: ev.score(Y[None, None], Yd[None, None]), ev.InputError, "shape"),
    (lambda: ev.score((Y, Y, Y[:5]), (Yd, Yd, Yd[:5])), ev.InputError, "chroma"),
    (lambda: ev.score(REF[:1], [DIS[0][0]]), ev.InputError, "4:2:0"),
    (lambda: ev.score(Y.astype(np.uint16) * 8, Yd.astype(np.uint16), bitdepth=10), ev.InputError,
     "above the 10-bit maximum 1023"),
    (lambda: ev.score(Y, Yd, models="nosuch"), ev.NotFoundError, 'no built-in model "nosuch"'),
    (lambda: ev.score(Y, Yd, features="psnrx"), ev.NotFoundError, "unknown feature extractor"),
    (lambda: ev.score(Y, Yd, features="psnr=min_sse=-1"), ev.InputError, "min_sse=-1"),
    (lambda: ev.score(Y[:8, :8], Yd[:8, :8]), ev.Error, "too small"),
    (lambda: ev.score(SAMPLE_REF, "/nonexistent.y4m"), ev.NotFoundError, "/nonexistent.y4m"),
    (lambda: ev.score(SAMPLE_REF, Yd), ev.InputError, "both be paths"),
    (lambda: ev.score(Y, Yd, backend="gpu"), ev.InputError, "backend"),
    (lambda: ev.score([], []), ev.InputError, "no frames"),
    (lambda: ev.score("x.yuv", "y.yuv", width=576, height=324, pixel_format="420x"),
     ev.InputError, "pixel_format"),
])
def test_errors(call, exc, text):
    with pytest.raises(exc) as e:
        call()
    assert text in str(e.value), str(e.value)


def test_error_classes():
    assert issubclass(ev.InputError, ValueError) and issubclass(ev.DtypeError, TypeError)
    assert issubclass(ev.NotFoundError, LookupError) and issubclass(ev.Error, RuntimeError)
    with pytest.raises(ev.NotFoundError) as e:
        ev.score(Y, Yd, models="nosuch")
    assert e.value.errno == 2  # ENOENT, the library's code


def test_samples_above_depth_in_a_frame_list():
    a = [tuple(p.astype(np.uint16) for p in f) for f in REF]
    b = [tuple(p.astype(np.uint16) for p in f) for f in DIS]
    b[2] = (b[2][0].copy(), b[2][1], b[2][2])
    b[2][0][5, 7] = 512
    with pytest.raises(ev.InputError, match="distorted frame 2 plane Y: sample 512"):
        ev.score(a, b, bitdepth=9)
    assert ev.score(a, b, bitdepth=9, check_range=False).frame_count == 3


def test_no_cuda_device():
    if ev.gpu_count() > 0:
        pytest.skip("a CUDA device is present")
    with pytest.raises(ev.NoDeviceError, match="no CUDA device"):
        ev.score(REF, DIS, backend="cuda")


def test_info():
    assert "vmaf_v0.6.1" in ev.model_versions() and "psnr" in ev.extractor_names()
    assert ev.NETFLIX_VERSION[0] == "3.2.0" and ev.__version__


def test_the_comparison_can_fail(tmp_path):
    js = cli_json(tmp_path, SAMPLE_REF, SAMPLE_DIS)
    other = ev.score(REF, [REF[0], DIS[1], DIS[2]])  # frame 0 differs
    with pytest.raises(AssertionError, match="frame 0 integer_adm2: got 1.00000232"):
        assert_bits(other, js, "spoilt")


def test_encoded_input(tmp_path):
    import shutil
    import subprocess

    if not ev._c.can_decode() or not shutil.which("ffmpeg"):
        pytest.skip("no encoded input in this build, or no ffmpeg")
    enc = tmp_path / "dis.mkv"
    subprocess.run(["ffmpeg", "-loglevel", "error", "-i", SAMPLE_DIS, "-c:v", "ffv1",
                    str(enc)], check=True)
    js = cli_json(tmp_path, SAMPLE_REF, enc)
    assert_bits(ev.score(SAMPLE_REF, str(enc)), js, "encoded")


def test_encoded_input_in_segments(tmp_path):
    # an HEVC pair with a random-access point every 10 frames, decoded by 3 decoders a stream:
    # the scores of one decoder, bit for bit
    import shutil
    import subprocess

    if not ev._c.can_decode() or not shutil.which("ffmpeg"):
        pytest.skip("no encoded input in this build, or no ffmpeg")
    paths = []
    for name, crf in (("ref.mkv", "20"), ("dis.mp4", "40")):
        paths.append(str(tmp_path / name))
        r = subprocess.run(["ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i",
                            "testsrc2=size=160x96:rate=24", "-frames:v", "60", "-c:v", "libx265",
                            "-x265-params", f"log-level=error:keyint=10:min-keyint=10:crf={crf}",
                            paths[-1]])
        if r.returncode:
            pytest.skip("this ffmpeg has no libx265")
    one = ev.score(*paths, features=["psnr"], decode_sessions=1)
    three = ev.score(*paths, features=["psnr"], decode_sessions=3)
    assert one.frame_count == 60
    assert three == one
    with pytest.raises(ev.InputError, match="decode_sessions"):
        ev.score(*paths, decode_sessions=9)


def test_odd_sizes_floor_or_ceil_chroma():
    # 575x323 4:2:0: chroma 287x161 as libvmaf sizes it, or 288x162 as ffmpeg writes it
    def crop(frames, cw, ch):
        return [(f[0][:323, :575], f[1][:ch, :cw], f[2][:ch, :cw]) for f in frames]

    floor = ev.score(crop(REF, 287, 161), crop(DIS, 287, 161), features=["psnr"])
    ceil = ev.score(crop(REF, 288, 162), crop(DIS, 288, 162), features=["psnr"])
    assert floor == ceil and floor.frame_count == 3
    with pytest.raises(ev.InputError, match="fit no layout"):
        ev.score(crop(REF, 286, 161), crop(DIS, 286, 161))


@pytest.mark.parametrize("fmt", ["xml", "json", "csv", "sub"])
def test_output_layouts_equal_the_cli(tmp_path, fmt):
    import re
    import subprocess

    from conftest import cli

    want = tmp_path / f"cli.{fmt}"
    # (the CPU, as score()'s default: on a GPU machine the CLI's auto would list its backends)
    subprocess.run([cli(), "-r", SAMPLE_REF, "-d", SAMPLE_DIS, "--feature", "psnr", f"--{fmt}",
                    "--backend", "cpu", "-q", "-o", str(want)], check=True)
    got = tmp_path / f"py.{fmt}"
    ev.score(REF, DIS, features=["psnr"], output=got)
    fps = re.compile(r'fps="[0-9.]+"|"fps": [0-9.]+')
    assert fps.sub("fps", got.read_text()) == fps.sub("fps", want.read_text())
