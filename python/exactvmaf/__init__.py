"""exactvmaf: VMAF and its companion metrics, equal to Netflix libvmaf bit for bit, from Python.

    import exactvmaf
    r = exactvmaf.score("ref.y4m", "dis.y4m")                 # paths: y4m, yuv, encodes
    r = exactvmaf.score(ref, dis)                             # numpy (N, H, W) uint8 luma
    r.frames["vmaf"]          # float64 array, one value a frame
    r.pooled["vmaf"]["mean"]  # and 'harmonic_mean', 'min', 'max'

score() scores two whole inputs; Scorer takes frame pairs one at a time; MultiScorer many
distorted against one reference; exactvmaf.dask.score_many spreads pairs over Dask workers and
GPUs. The values are the CLI's (`exactvmaf --json --precision max`), bit for bit. Errors raise
exactvmaf.Error subclasses carrying the library's own message (see Error).
"""

from __future__ import annotations

import os
import time
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _exactvmaf as _c
from ._device import DeviceFrames, device_index, require_device, stream_of
from ._input import Frames, is_device, is_path, parse_pixel_format

Error = _c.Error
InputError = _c.InputError
DtypeError = _c.DtypeError
NotFoundError = _c.NotFoundError
NoDeviceError = _c.NoDeviceError

__version__: str = _c.version()
NETFLIX_VERSION: Tuple[str, str] = _c.netflix_version()

__all__ = [
    "score", "Scorer", "MultiScorer", "Result", "model_versions", "extractor_names",
    "gpu_count", "Error", "InputError", "DtypeError", "NotFoundError", "NoDeviceError",
]

POOL_METHODS = ("min", "max", "mean", "harmonic_mean")
_BACKENDS = {"cpu": 0, "cuda": 1, "auto": 2}
_DECODERS = {"cpu": 0, "nvdec": 1, "auto": 2}
_FORMATS = {"xml": 1, "json": 2, "csv": 3, "sub": 4}


def model_versions() -> List[str]:
    """The built-in models, e.g. 'vmaf_v0.6.1' (the default), 'vmaf_4k_v0.6.1', ..."""
    return _c.model_versions()


def extractor_names() -> List[str]:
    """The feature extractors of this build ('psnr', 'float_ssim', 'cambi', ...)."""
    return _c.extractor_names()


def gpu_count() -> int:
    """CUDA devices usable: -1 when the library was built without CUDA, else the count."""
    return _c.gpu_count()


class Result:
    """The scores of one reference/distorted pair.

    frames: metric name (the CLI's: 'vmaf', 'psnr_y', 'integer_adm2', ...) -> float64 array, one
        value per frame (NaN for frames not computed, with subsample > 1), in the CLI's order.
    pooled: metric name -> {'mean', 'harmonic_mean', 'min', 'max'} (plus any extra statistic
        asked for with pool=, e.g. 'p5', 'low1'), libvmaf's pooling.
    aggregate: whole-sequence metrics (psnr's apsnr_y with enable_apsnr), name -> float.
    backend: 'cpu' or 'cuda'; log: the library's warnings.
    """

    frames: Dict[str, np.ndarray]
    pooled: Dict[str, Dict[str, float]]
    aggregate: Dict[str, float]
    backend: str
    log: List[str]

    def __init__(self, frames: Dict[str, np.ndarray], pooled: Dict[str, Dict[str, float]],
                 aggregate: Dict[str, float], backend: str, log: List[str]):
        self.frames = frames
        self.pooled = pooled
        self.aggregate = aggregate
        self.backend = backend
        self.log = log

    @property
    def frame_count(self) -> int:
        """Number of frame pairs scored."""
        return len(next(iter(self.frames.values()))) if self.frames else 0

    def __getitem__(self, name: str) -> np.ndarray:
        return self.frames[name]

    def __repr__(self) -> str:
        means = ", ".join(f"{k}={v['mean']:.6f}" for k, v in list(self.pooled.items())[-3:]
                          if "mean" in v)
        return f"<exactvmaf.Result {self.frame_count} frames ({self.backend}): {means}>"

    def to_pandas(self):
        """The per-frame values as a pandas DataFrame (one column per metric, index 'frame')."""
        import pandas as pd  # optional dependency

        df = pd.DataFrame(self.frames)
        df.index.name = "frame"
        return df

    def __eq__(self, other: object) -> bool:
        """Equal bits in every value (NaN equal to NaN)."""
        if not isinstance(other, Result):
            return NotImplemented
        return (self.frames.keys() == other.frames.keys() and
                all(np.array_equal(self.frames[k].view(np.uint64),
                                   other.frames[k].view(np.uint64)) for k in self.frames) and
                _bits(self.pooled) == _bits(other.pooled) and
                _bits(self.aggregate) == _bits(other.aggregate))


def _bits(d: Mapping[str, Any]) -> Any:
    return {k: _bits(v) if isinstance(v, Mapping) else np.float64(v).view(np.uint64).item()
            for k, v in d.items()}


def _model_specs(models: Union[str, Iterable[str], None]) -> List[str]:
    if models is None:
        return []
    if isinstance(models, str):
        models = (models,)
    models = list(models)
    specs = []
    for m in models:
        if "=" in m:
            specs.append(m)
        elif len(models) == 1:
            specs.append(f"version={m}")  # named 'vmaf', as the CLI's --model version=...
        else:
            specs.append(f"version={m}:name={m}")
    return specs


def _feature_specs(features: Union[str, Iterable[Any], None]) -> List[Tuple[str, Optional[str]]]:
    """'psnr', 'psnr=enable_chroma=false' (the CLI's syntax), ('psnr', {'enable_mse': True})."""
    if features is None:
        return []
    if isinstance(features, str):
        features = (features,)
    out: List[Tuple[str, Optional[str]]] = []
    for f in features:
        if isinstance(f, str):
            name, _, opts = f.partition("=")
            out.append((name, opts or None))
        else:
            name, opts = f
            if isinstance(opts, Mapping):
                opts = ":".join(f"{k}={_opt(v)}" for k, v in opts.items())
            out.append((name, opts or None))
    return out


def _opt(v: Any) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


class _Context:
    """One configured C context: models, features, threads, backend."""

    def __init__(self, models: Any, features: Any, backend: str, threads: int,
                 subsample: int, gpu_index: Optional[int], cpu_mask: int, cuda_streams: int,
                 no_prediction: bool):
        if backend not in _BACKENDS:
            raise InputError(f"unknown backend {backend!r} (cpu, cuda, auto)")
        if backend == "cuda":
            require_device()
        self.ctx = _c.Context(threads=int(threads), backend=_BACKENDS[backend],
                              gpu_index=int(gpu_index or 0), subsample=int(subsample),
                              cpu_mask=int(cpu_mask), cuda_streams=int(cuda_streams))
        for spec in _model_specs(models):
            (self.ctx.use_model_features if no_prediction else self.ctx.use_model)(spec)
        for name, opts in _feature_specs(features):
            self.ctx.use_feature(name, opts)

    def result(self, pool: Sequence[str] = ()) -> Result:
        c = self.ctx
        names = c.feature_names()
        frames = {n: np.frombuffer(c.scores(n), dtype=np.float64) for n in names}
        pooled: Dict[str, Dict[str, float]] = {}
        for n in names:
            try:
                pooled[n] = {m: c.pooled(n, m) for m in (*POOL_METHODS, *pool)}
            except Error:  # a metric some frames lack (subsample)
                pass
        return Result(frames, pooled, c.aggregates(), c.backend(), c.log())


def _frames(obj: Any, what: str, bitdepth: Optional[int], check: bool):
    if is_device(obj):
        return DeviceFrames(obj, bitdepth, what, check)
    return Frames(obj, bitdepth, what, check)


def score(ref: Any, dis: Any, models: Union[str, Sequence[str], None] = ("vmaf_v0.6.1",),
          features: Union[str, Sequence[Any], None] = (), backend: str = "cpu",
          threads: int = 0, *, width: Optional[int] = None, height: Optional[int] = None,
          pixel_format: Any = None, bitdepth: Optional[int] = None, subsample: int = 1,
          frame_count: int = 0, skip_ref: int = 0, skip_dis: int = 0,
          gpu_index: Optional[int] = None, stream: Any = None, cpu_mask: int = 0,
          cuda_streams: int = 0, decoder: str = "cpu", scaler: Optional[str] = None,
          decode_sessions: int = 0, pool: Sequence[str] = (), no_prediction: bool = False,
          check_range: bool = True, output: Union[str, os.PathLike, None] = None,
          output_format: Optional[str] = None, precision: Union[str, int] = "netflix") -> Result:
    """Score a distorted video against its reference.

    ref, dis: both paths, or both arrays.
      - paths: .y4m, raw .yuv (give width, height, pixel_format ('420', '422', '444', '400',
        or ffmpeg's 'yuv420p10le', 'gray'...) and bitdepth, as the CLI's -w -h -p -b), or any
        encode ffmpeg's libraries read, in a build with them (decoded as the CLI decodes it;
        decoder 'cpu'/'nvdec'/'auto', scaler as --scaler, decode_sessions as
        --decode_sessions: 0 one decoder). skip_ref, skip_dis, frame_count: as
        --frame_skip_ref, --frame_skip_dist, --frame_cnt.
      - numpy arrays: (N, H, W) luma, (H, W) one frame, a tuple (Y, U, V) or dict
        {'y','u','v'} of planes ((N, h, w) each, or (h, w) for one frame), or a list of frames;
        uint8 samples for 8 bits, uint16 for 9..16 bits (give bitdepth). See exactvmaf._input.
      - GPU arrays (torch CUDA tensors, cupy arrays: __cuda_array_interface__ or DLPack) of the
        same shapes: scored in place on the device with backend='cuda' (gpu_index: the
        tensors' device by default; stream: the stream that wrote them, by default the one
        their __cuda_array_interface__ names).
    models: built-in versions (model_versions()) or --model specs ('version=X:name=Y',
      'path=model.json'); one plain version is named 'vmaf', as in the CLI; several are named
      after themselves. features: extractors, 'psnr' or 'psnr=enable_mse=true' (the CLI's
      --feature) or ('psnr', {'enable_mse': True}).
    backend: 'cpu' (default), 'cuda' or 'auto'; threads: 0 = one per core.
    subsample: every Nth frame; pool: extra pooled statistics ('p5', 'low1', ...).
    check_range: raise InputError for a sample above 2^bitdepth - 1 (array input).
    output: also write the results to this file in Netflix's layouts, as the CLI's -o:
      output_format 'xml', 'json', 'csv' or 'sub' (default: from the file's extension, else
      xml), precision 'netflix' (%.6f), 'max' (%.17g) or 0..17 digits; fps is the run's.

    Raises InputError (bad shape, size mismatch, samples above the depth, bad options),
    DtypeError, NotFoundError (unknown model or feature, missing file), NoDeviceError, Error.
    The GIL is released while the library reads and scores.
    """
    start = time.perf_counter()
    s = _Context(models, features, backend, threads, subsample,
                 gpu_index if gpu_index is not None else device_index(ref), cpu_mask,
                 cuda_streams, no_prediction)
    try:
        if is_path(ref) or is_path(dis):
            if not (is_path(ref) and is_path(dis)):
                raise InputError("ref and dis must both be paths or both be arrays")
            raw = None
            if any(v is not None for v in (width, height, pixel_format, bitdepth)):
                if width is None or height is None or pixel_format is None:
                    raise InputError("raw .yuv needs width, height, pixel_format and bitdepth")
                layout, depth = parse_pixel_format(pixel_format, bitdepth)
                if depth is None:
                    raise InputError("raw .yuv needs bitdepth (or a pixel_format naming it)")
                raw = (int(width), int(height), int(depth), layout)
            if decoder not in _DECODERS:
                raise InputError(f"unknown decoder {decoder!r} (cpu, nvdec, auto)")
            if not 0 <= decode_sessions <= 8:
                raise InputError(f"decode_sessions {decode_sessions}: want 0 to 8")
            n = s.ctx.send_files(os.fsdecode(ref), os.fsdecode(dis), raw, skip_ref, skip_dis,
                                 frame_count, _DECODERS[decoder], scaler, decode_sessions)
            if not n:
                raise InputError("no frames to score")
        else:
            a = _frames(ref, "reference", bitdepth, check_range)
            b = _frames(dis, "distorted", bitdepth, check_range)
            _push_all(s, a, b, frame_count, skip_ref, skip_dis, stream)
        s.ctx.flush()
        if output is not None:
            _write(s, output, output_format, precision, time.perf_counter() - start)
        return s.result(pool)
    finally:
        s.ctx.close()


def _write(s: _Context, path: Any, fmt: Optional[str], precision: Union[str, int],
           seconds: float) -> None:
    path = os.fspath(path)
    if fmt is None:
        fmt = os.path.splitext(path)[1].lstrip(".").lower()
        fmt = fmt if fmt in _FORMATS else "xml"
    if fmt not in _FORMATS:
        raise InputError(f"unknown output_format {fmt!r} (xml, json, csv, sub)")
    if precision == "netflix":
        digits = -1
    elif precision == "max":
        digits = -2
    elif isinstance(precision, int) and 0 <= precision <= 17:
        digits = precision
    else:
        raise InputError(f"precision must be 'netflix', 'max' or 0..17, not {precision!r}")
    n = s.ctx.frame_count()
    s.ctx.write_output(path, _FORMATS[fmt], digits, n / seconds if seconds > 0 else 0.0)


def _same_geometry(a: Any, b: Any) -> None:
    if a.geometry() != b.geometry():
        raise InputError(f"the reference is {a.describe()} but the distorted is "
                         f"{b.describe()}")


def _push_all(s: _Context, a: Any, b: Any, frame_count: int, skip_ref: int, skip_dis: int,
              stream: Any) -> None:
    _same_geometry(a, b)
    if isinstance(a, DeviceFrames) != isinstance(b, DeviceFrames):
        raise InputError("ref and dis must both be host arrays or both be GPU arrays")
    w, h, depth, layout = a.geometry()
    n = 0
    ia, ib = iter(a), iter(b)
    for it, k in ((ia, skip_ref), (ib, skip_dis)):
        for _ in range(k):
            next(it, None)
    if isinstance(a, DeviceFrames):
        st = stream_of(a, stream)
        keep = (a.keep, b.keep)
        for (rp, rs), (dp, ds) in zip(ia, ib):
            if frame_count and n >= frame_count:
                break
            s.ctx.send_device(w, h, depth, layout, rp, rs, dp, ds, st, keep)
            n += 1
    else:
        for rp, dp in zip(ia, ib):
            if frame_count and n >= frame_count:
                break
            s.ctx.send(w, h, depth, layout, rp, dp)
            n += 1
    if not n:
        raise InputError("no frames to score")


class Scorer:
    """Streaming scores: push frame pairs one at a time, read values as frames complete.

        with exactvmaf.Scorer(features=["psnr"]) as s:
            for ref, dis in frames:           # (H, W) luma, or (Y, U, V) planes, per frame
                s.push(ref, dis)
                for i, values in s.poll():    # frames completed so far: {'psnr_y': ...}
                    ...
            result = s.flush()                # a Result; model scores ('vmaf') exist from here

    Extractor values of a frame appear as its work completes (poll(), values(i)); the models'
    scores are predicted at flush(). The arrays pushed are read in place (not copied) until the
    library has scored them: do not write into them until flush() (or pass copies). GPU tensors
    are lent in the same way (backend='cuda'). Arguments: those of score().
    """

    def __init__(self, models: Union[str, Sequence[str], None] = ("vmaf_v0.6.1",),
                 features: Union[str, Sequence[Any], None] = (), backend: str = "cpu",
                 threads: int = 0, *, bitdepth: Optional[int] = None, subsample: int = 1,
                 gpu_index: Optional[int] = None, stream: Any = None, cpu_mask: int = 0,
                 cuda_streams: int = 0, pool: Sequence[str] = (), no_prediction: bool = False,
                 check_range: bool = True):
        self._config = (models, features, backend, 1, 1, gpu_index, cpu_mask, 0, True)
        self._s = _Context(models, features, backend, threads, subsample, gpu_index, cpu_mask,
                           cuda_streams, no_prediction)
        self._bitdepth = bitdepth
        self._stream = stream
        self._pool = tuple(pool)
        self._check = check_range
        self._geometry: Optional[Tuple[int, int, int, int]] = None
        self._polled = 0
        self._names: Optional[List[str]] = None
        self._result: Optional[Result] = None

    def push(self, ref: Any, dis: Any) -> int:
        """Push one frame pair (host arrays or GPU tensors of one frame); returns its index."""
        if self._result is not None:
            raise Error("the scorer is flushed")
        a = _frames(ref, "reference", self._bitdepth, self._check)
        b = _frames(dis, "distorted", self._bitdepth, self._check)
        if a.count != 1 or b.count != 1:
            raise InputError(f"push() takes one frame each, got {a.count} and {b.count}")
        if self._geometry is not None and a.geometry() != self._geometry:
            raise InputError(f"frame {self._s.ctx.frame_count()} is {a.describe()}, the first "
                             "was another size, depth or layout")
        _push_all(self._s, a, b, 0, 0, 0, self._stream)
        if self._names is None:
            self._names = self._probe_names(a, b)
        self._geometry = a.geometry()
        return self._s.ctx.frame_count() - 1

    @property
    def frame_count(self) -> int:
        return self._s.ctx.frame_count()

    def _probe_names(self, a: Any, b: Any) -> List[str]:
        """The extractors' output names: the library names them at the flush, so a context of
        the same extractors (no model) scores the first pair once, on one thread."""
        probe = _Context(*self._config)
        try:
            _push_all(probe, a, b, 0, 0, 0, self._stream)
            probe.ctx.flush()
            return probe.ctx.feature_names()
        finally:
            probe.ctx.close()

    def values(self, frame: int, wait: Optional[Sequence[str]] = None
               ) -> Optional[Dict[str, float]]:
        """The values written for a frame, once every name in wait is (else None). wait: by
        default every extractor output but motion's, which depend on the next frames and may
        be written as late as flush(); the models' scores come with flush()."""
        if self._names is None or frame >= self._s.ctx.frame_count():
            return None
        if wait is None:
            wait = [n for n in self._names if "motion" not in n]
        out = {}
        for n in self._names:
            v = self._s.ctx.score(n, frame)
            if v is not None:
                out[n] = v
        return out if all(n in out for n in wait) else None

    def poll(self, wait: Optional[Sequence[str]] = None) -> List[Tuple[int, Dict[str, float]]]:
        """(index, values) of the frames completed since the last poll, in order (see
        values())."""
        done = []
        while True:
            v = self.values(self._polled, wait)
            if v is None:
                break
            done.append((self._polled, v))
            self._polled += 1
        return done

    def flush(self) -> Result:
        """Finish every frame, predict the models' scores and return the Result."""
        if self._result is None:
            self._s.ctx.flush()
            self._result = self._s.result(self._pool)
        return self._result

    def close(self) -> None:
        self._s.ctx.close()

    def __enter__(self) -> "Scorer":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class MultiScorer:
    """Many distorted against one reference (ev_send_pictures_multi): push(ref, [dis0, dis1,
    ...]) reads the reference once for all, and shares the reference-only work (motion, VIF's
    and ADM's reference side) between the distorted; every Result has the bits a Scorer of its
    own pair gives. A None in the list skips that distorted (its stream ended). The planes are
    copied by push(). Arguments: those of Scorer (the CPU backend), plus n, the number of
    distorted; threads are per distorted (default 1), as the CLI's --threads with several -d."""

    def __init__(self, n: int, models: Union[str, Sequence[str], None] = ("vmaf_v0.6.1",),
                 features: Union[str, Sequence[Any], None] = (), threads: int = 1, *,
                 bitdepth: Optional[int] = None, subsample: int = 1, cpu_mask: int = 0,
                 pool: Sequence[str] = (), no_prediction: bool = False,
                 check_range: bool = True):
        if not 1 <= n <= 64:
            raise InputError("MultiScorer: 1..64 distorted")
        self._s = [_Context(models, features, "cpu", threads, subsample, 0, cpu_mask, 0,
                            no_prediction) for _ in range(n)]
        self._bitdepth = bitdepth
        self._pool = tuple(pool)
        self._check = check_range
        self._results: Optional[List[Result]] = None

    def push(self, ref: Any, dis: Sequence[Any]) -> None:
        """Push one reference frame and one frame (or None) per distorted."""
        if len(dis) != len(self._s):
            raise InputError(f"push() needs {len(self._s)} distorted frames, got {len(dis)}")
        a = Frames(ref, self._bitdepth, "reference", self._check)
        planes = []
        for i, d in enumerate(dis):
            if d is None:
                planes.append(None)
                continue
            b = Frames(d, self._bitdepth, f"distorted {i}", self._check)
            _same_geometry(a, b)
            planes.append(next(iter(b)))
        w, h, depth, layout = a.geometry()
        _c.send_multi([s.ctx for s in self._s], w, h, depth, layout, next(iter(a)), planes)

    def flush(self) -> List[Result]:
        """Finish every context; one Result per distorted, in order."""
        if self._results is None:
            for s in self._s:
                s.ctx.flush()
            self._results = [s.result(self._pool) for s in self._s]
        return self._results

    def close(self) -> None:
        for s in self._s:
            s.ctx.close()

    def __enter__(self) -> "MultiScorer":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


