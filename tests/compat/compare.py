#!/usr/bin/env python3
"""Helpers of compat_test.sh.
  compare.py cli-names CLI.json          names of every per-frame feature, one line
  compare.py cli-expect CLI.json NAME..  the CLI's values as score_libvmaf prints them
  compare.py golden PAIR.tsv CASE        golden rows of CASE (frames and pooled, no aggregates)
  compare.py golden-names PAIR.tsv CASE  their feature names, one line
  compare.py diff WANT GOT LABEL         bit comparison; prints a summary, exit 1 on a difference
  compare.py mask-fps FILE               FILE without the fps value (it is a timing)"""
import json, re, struct, sys

def bits(x):
    return "0x%016x" % struct.unpack("<Q", struct.pack("<d", x))[0]

def cli_json(path):
    return json.load(open(path))

def golden_rows(path, case):
    rows = []
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if f[0] == case and f[1] != "aggregate":
            rows.append((f[1], f[2], f[4]))
    return rows

def main(cmd, *a):
    if cmd == "cli-names":
        d = cli_json(a[0])
        print(" ".join(d["frames"][0]["metrics"].keys()))
    elif cmd == "cli-expect":
        d = cli_json(a[0])
        for name in a[1:]:
            for fr in d["frames"]:
                print("%d\t%s\t%s" % (fr["frameNum"], name, bits(fr["metrics"][name])))
            p = d["pooled_metrics"][name]
            for k in ("mean", "harmonic_mean", "min", "max"):
                print("pooled_%s\t%s\t%s" % (k, name, bits(p[k])))
    elif cmd == "golden-names":
        names = []
        for _, n, _ in golden_rows(a[0], a[1]):
            if n not in names:
                names.append(n)
        print(" ".join(names))
    elif cmd == "golden":
        rows = golden_rows(a[0], a[1])
        if any(r[0] == "refused" for r in rows):
            sys.exit(3)
        # score_libvmaf prints each feature's frames then its pooled values
        names = []
        for _, n, _ in rows:
            if n not in names:
                names.append(n)
        order = {"pooled_mean": 0, "pooled_harmonic_mean": 1, "pooled_min": 2, "pooled_max": 3}
        for n in names:
            mine = [r for r in rows if r[1] == n]
            for r in [r for r in mine if r[0] not in order]:
                print("\t".join(r))
            for r in sorted([r for r in mine if r[0] in order], key=lambda r: order[r[0]]):
                print("\t".join(r))
    elif cmd == "diff":
        want = open(a[0]).read().split("\n")
        got = open(a[1]).read().split("\n")
        n = sum(1 for l in want if l)
        if want == got and n > 0:
            print("ok: %s: %d values equal" % (a[2], n))
            return
        print("FAIL: %s: %d values wanted, %d got" % (a[2], n, sum(1 for l in got if l)))
        for w, g in zip(want, got):
            if w != g:
                v = lambda l: l.split("\t")[-1] if l else ""
                try:
                    print("  want %s (%.17g)  got %s (%.17g)" % (w, struct.unpack("<d", struct.pack("<Q", int(v(w), 16)))[0], g, struct.unpack("<d", struct.pack("<Q", int(v(g), 16)))[0]))
                except ValueError:
                    print("  want %r got %r" % (w, g))
                break
        sys.exit(1)
    elif cmd == "mask-fps":
        t = open(a[0]).read()
        t = re.sub(r'("fps": )[^,\n}]*', r'\1FPS', t)
        t = re.sub(r'(fps=")[^"]*', r'\1FPS', t)
        sys.stdout.write(t)

if __name__ == "__main__":
    main(*sys.argv[1:])
