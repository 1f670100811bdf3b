"""How score() and Scorer read their input: paths, numpy arrays and GPU tensors, as frames of planes.

Array input, by shape (each sample array is uint8 for 8 bits, uint16 for 9..16 bits):

- ``(N, H, W)``: N luma-only frames (scored as 4:0:0; luma metrics equal those of the same luma
  in a 4:2:0 file);
- ``(H, W)``: one luma-only frame;
- a tuple ``(Y, U, V)`` or a dict ``{'y': Y, 'u': U, 'v': V}`` of planes: Y ``(N, H, W)`` with
  U and V ``(N, h, w)`` for N frames, or Y ``(H, W)`` with U and V ``(h, w)`` for one frame; the
  chroma size gives the layout: ``(H, W)`` 4:4:4, ``(H, W/2)`` 4:2:2, ``(H/2, W/2)`` 4:2:0 (halves
  rounded down, as libvmaf sizes them, or up, as ffmpeg writes odd sizes);
- a list (any sequence that is not a tuple) of frames, each an ``(H, W)`` array or a tuple/dict
  of planes.
"""

from __future__ import annotations

import os
from typing import Any, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from . import _exactvmaf as _c

LAYOUTS = {"420": 1, "422": 2, "444": 3, "400": 4}
LAYOUT_NAMES = {1: "4:2:0", 2: "4:2:2", 3: "4:4:4", 4: "4:0:0"}


def parse_pixel_format(pixel_format: Any, bitdepth: Optional[int]) -> Tuple[int, Optional[int]]:
    """'420', 420, 'yuv420p', 'yuv420p10le', 'gray', 'gray10le' -> (layout, bitdepth or None)."""
    text = str(pixel_format).lower()
    if text in LAYOUTS:
        return LAYOUTS[text], bitdepth
    depth = None
    if text.startswith("gray"):
        layout, rest = 4, text[4:]
    elif text.startswith("yuv") and text[3:6] in LAYOUTS and text[6:7] == "p":
        layout, rest = LAYOUTS[text[3:6]], text[7:]
    else:
        raise _c.InputError(f"unknown pixel_format {pixel_format!r} (420, 422, 444, 400, "
                            "yuv420p, yuv420p10le, gray, ...)")
    if rest.endswith("le"):
        rest = rest[:-2]
    if rest:
        if not rest.isdigit():
            raise _c.InputError(f"unknown pixel_format {pixel_format!r}")
        depth = int(rest)
    elif text.startswith(("yuv", "gray")):
        depth = 8
    if bitdepth is not None and depth is not None and bitdepth != depth:
        raise _c.InputError(f"pixel_format {pixel_format!r} is {depth}-bit, bitdepth={bitdepth}")
    return layout, depth if depth is not None else bitdepth


def is_path(x: Any) -> bool:
    return isinstance(x, (str, bytes, os.PathLike))


def is_device(x: Any) -> bool:
    """A GPU array: __cuda_array_interface__ (cupy, numba, torch CUDA tensors) or DLPack on CUDA."""
    if isinstance(x, (tuple, list)):
        return bool(x) and is_device(x[0])
    if isinstance(x, dict):
        return bool(x) and is_device(next(iter(x.values())))
    if hasattr(x, "__cuda_array_interface__"):
        return True
    dev = getattr(x, "__dlpack_device__", None)
    if dev is not None:
        try:
            return dev()[0] in (2, 13)  # kDLCUDA, kDLCUDAManaged
        except Exception:
            return False
    return False


def chroma_layout(y_shape: Tuple[int, int], c_shape: Tuple[int, int], what: str) -> int:
    """The layout whose chroma planes of a (H, W) luma are c_shape (floor or ceil halves)."""
    h, w = y_shape
    ch, cw = c_shape
    halves_w = (w >> 1, (w + 1) >> 1)
    halves_h = (h >> 1, (h + 1) >> 1)
    if (ch, cw) == (h, w):
        return 3
    if ch == h and cw in halves_w:
        return 2
    if ch in halves_h and cw in halves_w:
        return 1
    raise _c.InputError(f"{what}: chroma planes {cw}x{ch} fit no layout of a {w}x{h} luma "
                        "(4:2:0, 4:2:2 or 4:4:4)")


def sample_depth(dtype: np.dtype, bitdepth: Optional[int], what: str) -> int:
    """The bit depth of samples of this dtype: 8 for uint8; bitdepth (9..16) for uint16."""
    if dtype == np.uint8:
        if bitdepth not in (None, 8):
            raise _c.DtypeError(f"{what}: uint8 samples are 8-bit, bitdepth={bitdepth} "
                                "needs uint16")
        return 8
    if dtype == np.uint16 and dtype.byteorder in ("=", "<", "|"):
        if bitdepth is None:
            raise _c.InputError(f"{what}: uint16 samples need bitdepth= (9..16)")
        if not 9 <= bitdepth <= 16:
            raise _c.InputError(f"{what}: bitdepth {bitdepth} of uint16 samples is not 9..16")
        return bitdepth
    raise _c.DtypeError(f"{what}: samples must be uint8 (8-bit) or little-endian uint16 "
                        f"(9..16-bit), got {dtype}")


def check_range(arr: np.ndarray, depth: int, what: str) -> None:
    """InputError when a sample exceeds 2^depth - 1 (the library does not check it)."""
    if depth in (8, 16) or arr.size == 0:
        return
    top = int(arr.max())
    if top >> depth:
        raise _c.InputError(f"{what}: sample {top} is above the {depth}-bit maximum "
                            f"{(1 << depth) - 1}")


class Frames:
    """Host frames of one side: (width, height, bitdepth, layout) and a planes iterator."""

    def __init__(self, obj: Any, bitdepth: Optional[int], what: str, check: bool = True):
        self.what = what
        self._video: Optional[List[np.ndarray]] = None  # planes of a whole video: (N, h, w)
        self._list: Optional[Sequence[Any]] = None
        if isinstance(obj, (tuple, dict)) or isinstance(obj, np.ndarray):
            planes = self._planes_of(obj)
            if planes[0].ndim == 3:
                self._video = planes
                self.count = planes[0].shape[0]
                for p in planes[1:]:
                    if p.ndim != 3 or p.shape[0] != self.count:
                        raise _c.InputError(f"{what}: planes of {self.count} frames must be "
                                            f"(N, h, w) arrays of the same N, got {p.shape}")
                first = [p[0] for p in planes] if self.count else None
            elif planes[0].ndim == 2:
                self._video = [p[None] for p in planes]
                self.count = 1
                first = planes
            else:
                raise _c.InputError(f"{what}: a luma array must be (N, H, W) or (H, W), got "
                                    f"shape {planes[0].shape}")
        elif isinstance(obj, Sequence) and not isinstance(obj, (str, bytes)):
            self._list = obj
            self.count = len(obj)
            first = self._planes_of(obj[0]) if self.count else None
            if first is not None and first[0].ndim != 2:
                raise _c.InputError(f"{what}: each frame of a list must be an (H, W) luma "
                                    f"array or a tuple/dict of planes, got {first[0].shape}")
        else:
            raise _c.InputError(f"{what}: expected a path, a numpy array, a tuple/dict of "
                                f"planes or a list of frames, got {type(obj).__name__}")
        if not self.count:
            raise _c.InputError(f"{what}: no frames")
        self.bitdepth = sample_depth(first[0].dtype, bitdepth, what)
        self.height, self.width = first[0].shape
        self.layout = 4 if len(first) == 1 else chroma_layout(first[0].shape, first[1].shape, what)
        if len(first) == 3 and first[1].shape != first[2].shape:
            raise _c.InputError(f"{what}: chroma planes differ: U is {first[1].shape} but V is "
                                f"{first[2].shape}")
        for p in first:
            if p.dtype != first[0].dtype:
                raise _c.DtypeError(f"{what}: planes of different dtypes ({first[0].dtype}, "
                                    f"{p.dtype})")
        self.check = check
        if check and self._video is not None:
            for name, p in zip("YUV", self._video):
                check_range(p, self.bitdepth, f"{what} plane {name}")

    @staticmethod
    def _planes_of(obj: Any) -> List[np.ndarray]:
        if isinstance(obj, dict):
            keys = {k.lower(): v for k, v in obj.items()}
            if "y" not in keys:
                raise _c.InputError("a dict of planes needs 'y' (and 'u', 'v')")
            obj = (keys["y"],) + ((keys["u"], keys["v"]) if "u" in keys or "v" in keys else ())
        if isinstance(obj, tuple):
            if len(obj) not in (1, 3):
                raise _c.InputError(f"a frame is (Y,) or (Y, U, V) planes, got {len(obj)}")
            return [np.asarray(p) for p in obj]
        return [np.asarray(obj)]

    def geometry(self) -> Tuple[int, int, int, int]:
        return self.width, self.height, self.bitdepth, self.layout

    def describe(self) -> str:
        return (f"{self.width}x{self.height} {self.bitdepth}-bit "
                f"{LAYOUT_NAMES[self.layout]}")

    def __iter__(self) -> Iterator[List[np.ndarray]]:
        if self._video is not None:
            for i in range(self.count):
                yield [rows(p[i]) for p in self._video]
            return
        for i, frame in enumerate(self._list or ()):
            planes = [rows(p) for p in self._planes_of(frame)]
            if self.check:
                for name, p in zip("YUV", planes):
                    if p.dtype != planes[0].dtype or p.ndim != 2:
                        raise _c.InputError(f"{self.what} frame {i} plane {name}: a 2-D "
                                            f"array of {planes[0].dtype}, got {p.dtype} "
                                            f"{p.shape}")
                    check_range(p, self.bitdepth, f"{self.what} frame {i} plane {name}")
            yield planes


def rows(p: np.ndarray) -> np.ndarray:
    """p itself when its rows are contiguous (the library reads any row stride), else a copy."""
    if p.ndim == 2 and p.strides[1] == p.itemsize and p.strides[0] >= p.shape[1] * p.itemsize:
        return p
    return np.ascontiguousarray(p)
