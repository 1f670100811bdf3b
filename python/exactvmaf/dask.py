"""exactvmaf across Dask workers and GPUs: score_many(pairs) runs one task per pair.

    from exactvmaf.dask import score_many
    results = score_many([("ref.y4m", "a.y4m"), ("ref.y4m", "b.y4m")])   # a LocalCluster
    results = score_many(pairs, client=client, backend="cuda")            # your cluster

Without a client, a local cluster is started for the call and closed after it: one worker per
GPU on a host with GPUs (each worker process pinned to its GPU through CUDA_VISIBLE_DEVICES,
with a resource "GPU": 1), else n_workers worker processes (default: one per 4 cores, at least
1) of one thread each, each task scoring with threads = cores / workers. Results come back in
the pairs' order, with the bits of exactvmaf.score() and of the CLI. A failure names the pair:
PairError (an exactvmaf.Error) whose message starts with "pair i (ref, dis): ", raised when the
first failed result is gathered (errors="raise") or returned in its place (errors="return").
"""

from __future__ import annotations

import logging
import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import Error, Result, score

__all__ = ["score_many", "local_cluster", "PairError"]


class PairError(Error):
    """A pair's scoring failed; the message names the pair and gives the library's."""


Pair = Union[Tuple[Any, Any], Mapping[str, Any]]


def _name(x: Any) -> str:
    if isinstance(x, (str, bytes, os.PathLike)):
        return os.fsdecode(x)
    shape = getattr(x, "shape", None)
    return f"array{tuple(shape)}" if shape is not None else type(x).__name__


def _split(pair: Pair) -> Tuple[Any, Any, Dict[str, Any]]:
    """(ref, dis, per-pair keyword arguments) of a (ref, dis) tuple or a dict with 'ref', 'dis'
    and any score() argument."""
    if isinstance(pair, Mapping):
        kw = dict(pair)
        return kw.pop("ref"), kw.pop("dis"), kw
    ref, dis = pair
    return ref, dis, {}


def _score_pair(index: int, pair: Pair, kwargs: Dict[str, Any]) -> Result:
    """The task: score one pair on this worker, naming the pair if it fails."""
    ref, dis, own = _split(pair)
    kw = {**kwargs, **own}
    if kw.get("threads", 0) == 0:
        kw["threads"] = int(os.environ.get("EXACTVMAF_THREADS", "0"))
    if kw.get("backend") in ("cuda", "auto") and "gpu_index" not in own:
        kw.setdefault("gpu_index", int(os.environ.get("EXACTVMAF_GPU", "0")))
    try:
        return score(ref, dis, **kw)
    except Exception as e:
        raise PairError(f"pair {index} ({_name(ref)}, {_name(dis)}): {e}") from e


def _gpu_count() -> int:
    from . import gpu_count

    return max(0, gpu_count())


def local_cluster(n_workers: Optional[int] = None, gpus: Optional[Sequence[int]] = None,
                  threads: Optional[int] = None, **kwargs: Any):
    """A distributed SpecCluster on this host: one worker process per GPU of gpus (default:
    every device, when there are GPUs), pinned with CUDA_VISIBLE_DEVICES, or n_workers CPU
    worker processes. Each worker has one Dask thread; EXACTVMAF_THREADS tells score() how
    many library threads a task uses (threads, default cores / workers)."""
    from distributed import Nanny, Scheduler, SpecCluster

    if gpus is None and n_workers is None:
        n = _gpu_count()
        gpus = list(range(n)) if n > 0 else None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    cores = cores or 1
    workers: Dict[str, Dict[str, Any]] = {}
    quiet = kwargs.pop("silence_logs", logging.ERROR)  # the workers' INFO lines, as LocalCluster
    if gpus:
        per = threads or max(1, cores // len(gpus))
        for i in gpus:
            env = {"CUDA_VISIBLE_DEVICES": str(i), "EXACTVMAF_GPU": "0",
                   "EXACTVMAF_THREADS": str(per)}
            workers[f"gpu{i}"] = {"cls": Nanny, "options": {
                "nthreads": 1, "env": env, "resources": {"GPU": 1}, "silence_logs": quiet}}
    else:
        n = n_workers or max(1, cores // 4)
        per = threads or max(1, cores // n)
        for i in range(n):
            workers[f"cpu{i}"] = {"cls": Nanny, "options": {
                "nthreads": 1, "env": {"EXACTVMAF_THREADS": str(per)}, "silence_logs": quiet}}
    scheduler = {"cls": Scheduler, "options": {"dashboard_address": None}}
    kwargs["silence_logs"] = quiet
    return SpecCluster(workers=workers, scheduler=scheduler, **kwargs)


def score_many(pairs: Sequence[Pair], client: Any = None, *, errors: str = "raise",
               n_workers: Optional[int] = None, gpus: Optional[Sequence[int]] = None,
               **kwargs: Any) -> List[Union[Result, PairError]]:
    """Score every pair as one Dask task; a list of Result in the pairs' order.

    pairs: (ref, dis) tuples (paths or arrays, as score() takes them), or dicts with 'ref',
        'dis' and per-pair score() arguments (width, height, pixel_format, bitdepth, ...).
    client: a distributed.Client; None starts local_cluster(n_workers, gpus) for the call.
    errors: 'raise' (PairError for the first failed pair, in order) or 'return' (the PairError
        in the failed pair's place).
    kwargs: score()'s arguments for every pair (models, features, backend, threads, ...).
    On workers with a "GPU" resource (local_cluster's GPU workers) each task takes one.
    """
    if errors not in ("raise", "return"):
        raise ValueError("errors must be 'raise' or 'return'")
    if client is None:
        from distributed import Client

        with local_cluster(n_workers=n_workers, gpus=gpus) as cluster, Client(cluster) as c:
            return score_many(pairs, c, errors=errors, **kwargs)
    resources = None
    info = client.scheduler_info().get("workers", {})
    if info and all("GPU" in (w.get("resources") or {}) for w in info.values()):
        resources = {"GPU": 1}
    futures = [client.submit(_score_pair, i, p, kwargs, key=f"exactvmaf-pair-{i}-{id(pairs)}",
                             resources=resources, pure=False)
               for i, p in enumerate(pairs)]
    try:
        out = client.gather(futures, errors="skip" if errors == "return" else "raise")
        if errors == "raise":
            return out
        results: List[Union[Result, PairError]] = []
        for i, f in enumerate(futures):
            if f.status == "finished":
                results.append(f.result())
            else:
                e = f.exception()
                if not isinstance(e, PairError):
                    ref, dis, _ = _split(pairs[i])
                    e = PairError(f"pair {i} ({_name(ref)}, {_name(dis)}): {e}")
                results.append(e)
        return results
    finally:
        for f in futures:
            f.release()
