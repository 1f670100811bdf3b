"""GPU tensors scored in place (ev_lend_device_pictures): torch CUDA tensors and cupy arrays give
the CPU's bits, for luma-only and Y, U, V planes, 8 and 10 bits, whole videos, frame lists and
the streaming Scorer. Skipped without a CUDA device, or without torch / cupy."""
import numpy as np
import pytest

import exactvmaf as ev
from conftest import SAMPLE_DIS, SAMPLE_REF, assert_bits, cli_json, read_y4m

pytestmark = pytest.mark.skipif(ev.gpu_count() <= 0, reason="no CUDA device (or no CUDA build)")

REF = read_y4m(SAMPLE_REF)
DIS = read_y4m(SAMPLE_DIS)
FEATURES = ["psnr", "float_ssim"]


def stacked(frames, p):
    return np.ascontiguousarray(np.stack([f[p] for f in frames]))


def backend_module(name):
    mod = pytest.importorskip(name)
    if name == "torch" and not mod.cuda.is_available():
        pytest.skip("torch without CUDA")
    return mod


def to_device(mod, a):
    if mod.__name__ == "torch":
        if a.dtype == np.uint16:  # int16 tensors: the same bits (torch's uint16 is recent)
            return mod.from_numpy(a.view(np.int16)).cuda()
        return mod.from_numpy(a).cuda()
    return mod.asarray(a)


@pytest.mark.parametrize("lib", ["torch", "cupy"])
def test_planes_equal_cpu_and_cli(tmp_path, lib):
    mod = backend_module(lib)
    js = cli_json(tmp_path, SAMPLE_REF, SAMPLE_DIS, *sum((["--feature", f] for f in FEATURES), []))
    a = tuple(to_device(mod, stacked(REF, p)) for p in range(3))
    b = tuple(to_device(mod, stacked(DIS, p)) for p in range(3))
    r = ev.score(a, b, features=FEATURES, backend="cuda")
    assert r.backend == "cuda"
    assert_bits(r, js, f"{lib} planes")
    cpu = ev.score(REF, DIS, features=FEATURES, backend="cpu")
    assert r == cpu


@pytest.mark.parametrize("lib", ["torch", "cupy"])
def test_luma_frames_and_lists(lib):
    mod = backend_module(lib)
    ya, yb = stacked(REF, 0), stacked(DIS, 0)
    cpu = ev.score(ya, yb, features=["psnr"])
    assert ev.score(to_device(mod, ya), to_device(mod, yb), features=["psnr"],
                    backend="cuda") == cpu
    la = [to_device(mod, f) for f in ya]
    lb = [to_device(mod, f) for f in yb]
    assert ev.score(la, lb, features=["psnr"], backend="cuda") == cpu


@pytest.mark.parametrize("lib", ["torch", "cupy"])
def test_10bit(lib):
    mod = backend_module(lib)
    a = [tuple((p.astype(np.uint16) << 2) for p in f) for f in REF]
    b = [tuple((p.astype(np.uint16) << 2) for p in f) for f in DIS]
    cpu = ev.score(a, b, bitdepth=10, features=["psnr"])
    da = tuple(to_device(mod, np.stack([f[p] for f in a])) for p in range(3))
    db = tuple(to_device(mod, np.stack([f[p] for f in b])) for p in range(3))
    assert ev.score(da, db, bitdepth=10, features=["psnr"], backend="cuda") == cpu


@pytest.mark.parametrize("lib", ["torch", "cupy"])
def test_scorer_with_tensors(lib):
    mod = backend_module(lib)
    cpu = ev.score(REF, DIS)
    with ev.Scorer(backend="cuda") as s:
        for fa, fb in zip(REF, DIS):
            s.push(tuple(to_device(mod, np.ascontiguousarray(p)) for p in fa),
                   tuple(to_device(mod, np.ascontiguousarray(p)) for p in fb))
        assert s.flush() == cpu


def test_torch_stream_and_padded_rows():
    torch = backend_module("torch")
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        # rows padded to 640 samples (a crop of a wider tensor), written on a side stream
        wa = torch.zeros((3, 324, 640), dtype=torch.uint8, device="cuda")
        wb = torch.zeros((3, 324, 640), dtype=torch.uint8, device="cuda")
        wa[:, :, :576] = torch.from_numpy(stacked(REF, 0)).cuda()
        wb[:, :, :576] = torch.from_numpy(stacked(DIS, 0)).cuda()
        r = ev.score(wa[:, :, :576], wb[:, :, :576], backend="cuda", stream=s)
    assert r == ev.score(stacked(REF, 0), stacked(DIS, 0))


def test_torch_uint16_and_range():
    torch = backend_module("torch")
    if not hasattr(torch, "uint16"):
        pytest.skip("this torch has no uint16")
    a = [tuple((p.astype(np.uint16) << 2) for p in f) for f in REF]
    b = [tuple((p.astype(np.uint16) << 2) for p in f) for f in DIS]
    cpu = ev.score(a, b, bitdepth=10)
    da = tuple(torch.from_numpy(np.stack([f[p] for f in a]).view(np.int16)).cuda().view(
        torch.uint16) for p in range(3))
    db = tuple(torch.from_numpy(np.stack([f[p] for f in b]).view(np.int16)).cuda().view(
        torch.uint16) for p in range(3))
    assert ev.score(da, db, bitdepth=10, backend="cuda") == cpu
    big = tuple(torch.from_numpy(np.stack([f[p] for f in a]).view(np.int16) * 2).cuda()
                for p in range(3))
    with pytest.raises(ev.InputError, match="above the 10-bit maximum"):
        ev.score(big, big, bitdepth=10, backend="cuda")
