#!/usr/bin/env python3
"""The layering check: no include or call cycle between folders, none between the files of a folder,
and every folder imports only the layers below it (docs/ARCHITECTURE.md).

Includes are read from the sources; calls from the object files of a build (`nm`), so a call
through a prototype written in a .c file counts too. A file X.c and its header X.h (and X.cu)
are one unit.

usage: scripts/layers.py [--build DIR] [--graph]   (exit 0: clean, 1: a cycle or a layer broken)
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CODE_DIRS = ["src", "include", "compat", "tools"]
EXTS = (".c", ".h", ".cu", ".cuh")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)

# The layers, lowest first (docs/ARCHITECTURE.md). A folder may import its own layer and those
# below it, with the exceptions of ONLY. Everyone may include the public headers (their types).
LAYERS = [
    ("base", ["src/base", "src/libm", "src/stats"]),
    ("cuda", ["src/cuda"]),
    ("core", ["src/core"]),
    ("features", ["src/features"]),
    ("model", ["src/model"]),
    ("io", ["src/io", "src/output"]),
    ("api", ["src/api"]),
    ("public", ["include"]),
    ("users", ["tools", "compat"]),
    # checks: the parity gate and the libm table generator read internals, as tests/ do
    ("checks", ["tools/parity", "tools/libm_tables"]),
]
# The CUDA runtime stands on base only; the public headers include nothing internal; users
# (the CLI, compat) include the public headers only and call what they declare, which src/api
# implements.
ONLY = {
    "cuda": {"base", "cuda"},
    "features": {"base", "cuda", "features"},
    "public": {"public"},
    "users": {"public", "users"},
}
USERS_CALL = {"api", "users"}


def files():
    out = []
    for d in CODE_DIRS:
        for dp, _, fs in os.walk(os.path.join(ROOT, d)):
            for f in fs:
                if f.endswith(EXTS):
                    out.append(os.path.relpath(os.path.join(dp, f), ROOT))
    return sorted(out)


def resolve(src, inc, known):
    cands = [os.path.normpath(os.path.join(os.path.dirname(src), inc))]
    cands += [os.path.normpath(os.path.join(d, inc)) for d in ("src", "include", "tests",
                                                                "compat/libvmaf/include")]
    for c in cands:
        if c in known:
            return c
    return None


def unit(path):
    """X.c, X.h, X.cu, X.cuh are one unit; a per-ISA file or template is its own."""
    return os.path.splitext(path)[0]


def folder(path):
    d = os.path.dirname(path)
    return d


def layer_of(path):
    best = None
    for name, prefixes in LAYERS:
        for p in prefixes:
            if path == p or path.startswith(p + "/"):
                if best is None or len(p) > len(best[1]):
                    best = (name, p)
    return best[0] if best else None


def include_edges(known):
    edges = set()
    for f in known:
        with open(os.path.join(ROOT, f), errors="replace") as fh:
            text = fh.read()
        for inc in INCLUDE.findall(text):
            t = resolve(f, inc, known)
            if t and t != f:
                edges.add((f, t, "include"))
    return edges


def call_edges(build, known):
    """Edges from the object that uses a symbol to the object that defines it (nm)."""
    objs = []
    for dp, _, fs in os.walk(build):
        for f in fs:
            if f.endswith(".o") and ".dir/" in os.path.join(dp, f):
                objs.append(os.path.join(dp, f))
    defs, uses = {}, {}
    for o in objs:
        m = re.search(r"\.dir/(.+?)\.o$", o)
        if not m:
            continue
        src = m.group(1)
        if src.endswith(".cu") and not os.path.exists(os.path.join(ROOT, src)):
            continue
        if src not in known:
            continue
        r = subprocess.run(["nm", o], capture_output=True, text=True)
        for line in r.stdout.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] == "U":
                uses.setdefault(src, set()).add(parts[1])
            elif len(parts) == 3 and parts[1] in "TDBR":
                defs.setdefault(parts[2], set()).add(src)
    edges = set()
    for src, syms in uses.items():
        for s in syms:
            for d in defs.get(s, ()):
                if d != src:
                    edges.add((src, d, "call " + s))
    return edges


def sccs(nodes, adj):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(100000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in adj.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def why(a_set, b_set, edges, key):
    for s, t, what in sorted(edges):
        if key(s) in a_set and key(t) in b_set:
            return f"{s} -> {t} ({what})"
    return ""


def report_cycles(kind, known, edges, key, counts):
    """Print each cycle of the graph of key(s) -> key(t) over the edges that counts(s, t)
    keeps, with an edge of each step; returns the graph and the number of cycles."""
    adj = {}
    for s, t, _ in edges:
        if counts(s, t):
            adj.setdefault(key(s), set()).add(key(t))
    n = 0
    for comp in sccs({key(f) for f in known}, adj):
        n += 1
        print(f"{kind} cycle: " + " <-> ".join(comp))
        for x in comp:
            for y in comp:
                if x != y and y in adj.get(x, ()):
                    print("   " + why({x}, {y}, edges, key))
    return adj, n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--graph", action="store_true", help="print the folder graph")
    a = ap.parse_args()
    known = set(files())
    edges = include_edges(known)
    if os.path.isdir(a.build):
        edges |= call_edges(a.build, known)
    else:
        print(f"layers: no build at {a.build}: includes only")

    # Folders, then the files of one folder (X.c and X.h are one unit).
    fadj, bad_folders = report_cycles("folder", known, edges, folder,
                                      lambda s, t: folder(s) != folder(t))
    _, bad_units = report_cycles("file", known, edges, unit,
                                 lambda s, t: folder(s) == folder(t) and unit(s) != unit(t))
    bad = bad_folders + bad_units
    # Layers.
    order = [n for n, _ in LAYERS]
    seen = set()
    for s, t, what in sorted(edges):
        ls, lt = layer_of(s), layer_of(t)
        if ls is None or lt is None or ls == lt or ls == "checks":
            continue
        if lt == "public" and what == "include":
            continue
        allowed = ONLY.get(ls)
        if ls == "users" and what != "include":
            allowed = USERS_CALL
        ok = (lt in allowed) if allowed else order.index(lt) < order.index(ls)
        if not ok and (ls, lt, folder(s), folder(t)) not in seen:
            seen.add((ls, lt, folder(s), folder(t)))
            bad += 1
            print(f"layer broken: {ls} imports {lt}: {s} -> {t} ({what})")
    if a.graph:
        for f in sorted(fadj):
            print(f"{f}: {' '.join(sorted(fadj[f]))}")
    print(f"layers: {len(known)} files, {len(edges)} edges, {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
