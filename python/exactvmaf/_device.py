"""GPU arrays (torch CUDA tensors, cupy arrays, anything with __cuda_array_interface__ or a CUDA
DLPack capsule) as device pictures: their planes' device addresses and row strides, scored in
place by the CUDA twins through ev_lend_device_pictures (exactvmaf/cuda.h); no host copy.

The shapes are those of host arrays (exactvmaf._input): (N, H, W) luma, (H, W), a tuple or dict
of (Y, U, V) planes, or a list of frames.
"""

from __future__ import annotations

from typing import Any, Iterator, List, Optional, Tuple

from . import _exactvmaf as _c
from ._input import LAYOUT_NAMES, chroma_layout

# int16 is read as the same bits as uint16: torch had no uint16 before 2.3, and its
# __cuda_array_interface__ may still lack it
_TYPESTR_DEPTH = {"|u1": 1, "<u1": 1, "u1": 1, "<u2": 2, "=u2": 2, "<i2": 2, "=i2": 2}


def no_device_reason() -> Optional[str]:
    """None when a CUDA device can be used, else why not (for NoDeviceError)."""
    n = _c.gpu_count()
    if n < 0:
        return "no CUDA device: this build of exactvmaf has no CUDA backend"
    if n == 0:
        return "no CUDA device: no device or driver found"
    return None


def require_device() -> None:
    why = no_device_reason()
    if why:
        raise _c.NoDeviceError(why)


class DevicePlane:
    """One 2-D (or 3-D, frames first) device array: address, shape, strides in bytes, item size."""

    def __init__(self, obj: Any, what: str):
        self.obj = obj
        try:
            cai = getattr(obj, "__cuda_array_interface__", None)
        except (TypeError, ValueError, RuntimeError):  # a dtype its producer cannot describe
            cai = None
        if cai is None and hasattr(obj, "__dlpack__"):
            try:
                import cupy  # a DLPack-only producer, through cupy's importer (no copy)
            except ImportError as e:
                raise _c.InputError(f"{what}: a DLPack tensor without __cuda_array_interface__"
                                    " needs cupy to be read") from e
            self.obj = cupy.from_dlpack(obj)
            cai = self.obj.__cuda_array_interface__
        if cai is None:
            raise _c.InputError(f"{what}: not a GPU array (no __cuda_array_interface__)")
        typestr = cai["typestr"]
        if typestr not in _TYPESTR_DEPTH:
            raise _c.DtypeError(f"{what}: samples must be uint8 or little-endian uint16, got "
                                f"typestr {typestr!r}")
        self.itemsize = _TYPESTR_DEPTH[typestr]
        self.signed = "i" in typestr
        self.shape: Tuple[int, ...] = tuple(cai["shape"])
        strides = cai.get("strides")
        if strides is None:  # C-contiguous
            strides, acc = [], self.itemsize
            for n in reversed(self.shape):
                strides.insert(0, acc)
                acc *= n
        self.strides: Tuple[int, ...] = tuple(strides)
        self.ptr: int = int(cai["data"][0])
        self.stream: Optional[int] = cai.get("stream")
        if len(self.shape) not in (2, 3):
            raise _c.InputError(f"{what}: a plane must be (H, W) or (N, H, W), got "
                                f"{self.shape}")
        if self.shape[-1] > 1 and self.strides[-1] != self.itemsize:
            raise _c.InputError(f"{what}: rows must be contiguous (.contiguous()), got strides "
                                f"{self.strides}")
        if self.ptr % self.itemsize:
            raise _c.InputError(f"{what}: 16-bit samples must be 2-byte aligned")

    def frame(self, i: int) -> Tuple[int, int]:
        """(address, row stride) of frame i (of a 3-D array) or of the plane (2-D)."""
        if len(self.shape) == 3:
            return self.ptr + i * self.strides[0], self.strides[1]
        return self.ptr, self.strides[0]


def _planes(obj: Any, what: str) -> List[DevicePlane]:
    if isinstance(obj, dict):
        keys = {k.lower(): v for k, v in obj.items()}
        obj = (keys["y"],) + ((keys["u"], keys["v"]) if "u" in keys else ())
    if not isinstance(obj, tuple):
        obj = (obj,)
    if len(obj) not in (1, 3):
        raise _c.InputError(f"{what}: (Y,) or (Y, U, V) planes, got {len(obj)}")
    return [DevicePlane(p, f"{what} plane {'YUV'[i]}") for i, p in enumerate(obj)]


class DeviceFrames:
    """Device frames of one side, as Frames (exactvmaf._input) for host arrays."""

    def __init__(self, obj: Any, bitdepth: Optional[int], what: str, check: bool = True):
        self.what = what
        self.keep = obj
        if isinstance(obj, list):
            self._frames = [_planes(f, f"{what} frame {i}") for i, f in enumerate(obj)]
            self.count = len(self._frames)
            self._stacked = False
        else:
            planes = _planes(obj, what)
            self._stacked = len(planes[0].shape) == 3
            self.count = planes[0].shape[0] if self._stacked else 1
            self._frames = [planes]
        if not self.count:
            raise _c.InputError(f"{what}: no frames")
        first = self._frames[0]
        y = first[0].shape[-2:]
        self.height, self.width = y
        item = first[0].itemsize
        if item == 1:
            if bitdepth not in (None, 8):
                raise _c.DtypeError(f"{what}: uint8 samples are 8-bit, bitdepth={bitdepth}")
            self.bitdepth = 8
        else:
            if bitdepth is None or not 9 <= bitdepth <= 16:
                raise _c.InputError(f"{what}: uint16 samples need bitdepth= (9..16)")
            self.bitdepth = bitdepth
        for p in first:
            if p.itemsize != item:
                raise _c.DtypeError(f"{what}: planes of different sample sizes")
        self.layout = 4 if len(first) == 1 else chroma_layout(y, first[1].shape[-2:], what)
        self.stream = next((p.stream for p in first if p.stream), None)
        if check and item == 2 and self.bitdepth < 16:  # (uint8 cannot exceed 8 bits)
            for i, planes in enumerate(self._frames):
                for name, p in zip("YUV", planes):
                    top = device_max(p)
                    if top is not None and top >> self.bitdepth:
                        where = f"{what} frame {i}" if len(self._frames) > 1 else what
                        raise _c.InputError(f"{where} plane {name}: sample {top} is above the "
                                            f"{self.bitdepth}-bit maximum "
                                            f"{(1 << self.bitdepth) - 1}")

    def geometry(self) -> Tuple[int, int, int, int]:
        return self.width, self.height, self.bitdepth, self.layout

    def describe(self) -> str:
        return f"{self.width}x{self.height} {self.bitdepth}-bit {LAYOUT_NAMES[self.layout]}"

    def __iter__(self) -> Iterator[Tuple[Tuple[int, ...], Tuple[int, ...]]]:
        """(addresses, row strides) per frame."""
        if self._stacked:
            for i in range(self.count):
                pairs = [p.frame(i) for p in self._frames[0]]
                yield tuple(a for a, _ in pairs), tuple(s for _, s in pairs)
            return
        for planes in self._frames:
            pairs = [p.frame(0) for p in planes]
            yield tuple(a for a, _ in pairs), tuple(s for _, s in pairs)


def device_max(p: DevicePlane) -> Optional[int]:
    """The largest sample of a plane as an unsigned value, by a reduction on the device (torch,
    cupy); None where the array has no such reduction (torch's uint16 lacks some)."""
    try:
        top = int(p.obj.max())
        if p.signed:
            low = int(p.obj.min())
            if low < 0:  # int16 holding uint16 bits: a negative one is 32768 or more
                return low & 0xFFFF
        return top
    except Exception:
        return None


def device_index(obj: Any) -> Optional[int]:
    """The CUDA device of a torch tensor or cupy array (or of a tuple/dict/list of them)."""
    if isinstance(obj, (tuple, list)):
        return device_index(obj[0]) if obj else None
    if isinstance(obj, dict):
        return device_index(next(iter(obj.values()))) if obj else None
    dev = getattr(obj, "device", None)
    for attr in ("index", "id"):
        v = getattr(dev, attr, None)
        if isinstance(v, int):
            return v
    return None


def stream_of(frames: DeviceFrames, stream: Any) -> int:
    """The CUstream handle to order the reads after: the caller's, else the arrays' own."""
    if stream is None:
        stream = frames.stream
    if stream is None:
        return 0
    for attr in ("cuda_stream", "ptr", "handle"):  # torch.cuda.Stream, cupy.cuda.Stream
        v = getattr(stream, attr, None)
        if isinstance(v, int):
            return v
    return int(stream)

