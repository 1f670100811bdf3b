#!/usr/bin/env python3
"""Write the fuzzers' seed corpus, tests/fuzz/corpus/<harness>/ (committed; rerun after a change
to the inputs' syntax). Seeds are small valid inputs, plus a few near misses, so that libFuzzer
starts from the parsers' accepted paths: y4m headers and frames of every depth and layout, raw
descriptions (fuzz_raw.c's 16-byte layout), built-in models trimmed to a few support vectors,
and the options of every extractor and the --model syntax."""
import json
import os
import re
import shutil
import struct
import subprocess

ROOT = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(ROOT))
OUT = os.path.join(ROOT, "corpus")


def put(harness, name, data):
    os.makedirs(os.path.join(OUT, harness), exist_ok=True)
    with open(os.path.join(OUT, harness, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def frame_bytes(w, h, layout, depth):
    if layout == 400:  # gray: luma only
        return w * h * (2 if depth > 8 else 1)
    cw = w if layout == 444 else (w + 1) // 2
    ch = (h + 1) // 2 if layout == 420 else h
    return (w * h + 2 * cw * ch) * (2 if depth > 8 else 1)


def y4m_seeds():
    cases = [  # name, w, h, C tag (None: absent), layout, depth, frames, extra tags, FRAME line
        ("420_8bit", 4, 4, "420jpeg", 420, 8, 2, " F25:1 Ip A1:1", "FRAME\n"),
        ("420_odd_10bit", 3, 3, "420p10", 420, 10, 1, " F30000:1001", "FRAME\n"),
        ("422_8bit_params", 5, 2, "422", 422, 8, 2, " It", "FRAME Ixyz\n"),
        ("444_16bit", 2, 2, "444p16", 444, 16, 1, " XCOLORRANGE=FULL", "FRAME\n"),
        ("444_12bit", 2, 3, "444p12", 444, 12, 1, "", "FRAME\n"),
        ("no_c_tag", 2, 2, None, 420, 8, 1, "", "FRAME\n"),
        ("mono10", 3, 2, "mono10", 400, 10, 2, "", "FRAME\n"),
        ("header_only", 2, 2, "420mpeg2", 420, 8, 0, "", "FRAME\n"),
    ]
    for name, w, h, c, layout, depth, frames, extra, marker in cases:
        head = f"YUV4MPEG2 W{w} H{h}" + (f" C{c}" if c else "") + extra + "\n"
        body = b""
        n = frame_bytes(w, h, layout, depth)
        for k in range(frames):
            body += marker.encode() + bytes((17 * k + i) & 0xFF for i in range(n))
        put("y4m", name + ".y4m", head.encode() + body)
    put("y4m", "truncated_frame.y4m", b"YUV4MPEG2 W4 H2 C420\nFRAME\n\x10\x20\x30")
    put("y4m", "mono.y4m", b"YUV4MPEG2 W2 H2 Cmono\nFRAME\n\x01\x02\x03\x04")


def raw_seeds():
    # u16 width, u16 height, u8 bitdepth, u8 layout, u8 frames, i8 delta, u8 mode, 7 bytes
    def desc(w, h, depth, layout, frames, delta=0, mode=0, size=0):
        return struct.pack("<HHBBBbBI3x", w, h, depth, layout, frames, delta, mode, size)

    put("raw", "420_8bit_2frames", desc(4, 4, 8, 1, 2) + bytes(range(48)))
    put("raw", "420_odd_853x479", desc(853, 479, 8, 1, 1))
    put("raw", "422_10bit", desc(6, 2, 10, 2, 3))
    put("raw", "444_16bit", desc(2, 2, 16, 3, 1) + bytes(24))
    put("raw", "400_8bit", desc(4, 4, 8, 4, 2) + bytes(range(32)))
    put("raw", "left_over", desc(5, 3, 8, 1, 1, delta=7))
    put("raw", "short", desc(5, 3, 12, 2, 2, delta=-1))
    put("raw", "own_size", desc(7, 7, 9, 1, 0, mode=1, size=1000))
    put("raw", "bad_depth", desc(4, 4, 7, 1, 1))
    put("raw", "y4m_inside", desc(4, 4, 8, 1, 1) + b"YUV4MPEG2 W2 H2\nFRAME\n" + bytes(6))


def trim_model(m, n_sv):
    """A model dict with its libsvm text cut to the first n_sv support vectors."""
    text = m["model"]
    head, sv = text.split("SV\n", 1)
    kept = sv.split("\n")[:n_sv]
    head = re.sub(r"total_sv \d+", f"total_sv {n_sv}", head)
    head = re.sub(r"nr_sv \d+", f"nr_sv {n_sv}", head)
    m = dict(m)
    m["model"] = head + "SV\n" + "\n".join(kept) + "\n"
    return m


def model_seeds():
    for version, n_sv in (("vmaf_v0.6.1", 3), ("vmaf_float_v0.6.1neg", 2),
                          ("vmaf_v1.0.16_3d0h", 3)):
        with open(os.path.join(REPO, "model", version + ".json")) as f:
            d = json.load(f)
        d["model_dict"] = trim_model(d["model_dict"], n_sv)
        put("model_json", version + "_trimmed.json", b"\0" + json.dumps(d).encode())
    with open(os.path.join(REPO, "model", "vmaf_b_v0.6.3.json")) as f:
        b = json.load(f)
    coll = {}
    for key in ("0", "1", "2"):
        member = dict(b[key])
        member["model_dict"] = trim_model(member["model_dict"], 2)
        coll[key] = member
    put("model_json", "vmaf_b_v0.6.3_trimmed.json", b"\x02" + json.dumps(coll).encode())
    put("model_json", "not_json", b"\x01{\"model_dict\": [")


CHOICES = {"speed_prescale_method": ("nearest", "lanczos4")}  # first and last of the choices


def option_seeds():
    """Every extractor's options at their defaults and at their bounds, from the CLI's listing."""
    cli = os.environ.get("EXACTVMAF_CLI", os.path.join(REPO, "build", "exactvmaf"))
    listing = subprocess.run([cli, "--list_features"], capture_output=True, text=True,
                             check=True).stdout
    options, names = {}, []  # in the listing's order, the registry's (ev_extractor_names)
    for line in listing.splitlines():
        head = re.match(r"^(\w+)( \(CUDA twin\))?$", line)
        if head:
            names.append(head.group(1))
            options[names[-1]] = []
        elif names and line.startswith("    ") and "(" in line:
            options[names[-1]].append(line.strip())
    for i, name in enumerate(names):
        at_default, at_max = [], []
        for opt in options[name]:
            m = re.match(r"(\w+) \((\w+), default ([^,;)]*)(?:, ([^.,;)]+)\.\.([^,;)]+))?", opt)
            if not m:
                continue
            key, _, default, lo, hi = m.groups()
            if key in CHOICES:  # the listing shows a choice's index, not its strings
                default, hi = CHOICES[key]
            elif lo and lo != "-max" and float(default) < float(lo):  # 0 = unset, e.g. enc_width
                default = lo
            at_default.append(f"{key}={default}")
            at_max.append(f"{key}={hi if hi and hi != 'max' else default}")
        put("options", f"{i:02d}_{name}", bytes([i]) + ":".join(at_default).encode())
        if at_max:
            put("options", f"{i:02d}_{name}_max", bytes([i]) + ":".join(at_max).encode())
    for k, spec in enumerate([
            "version=vmaf_v0.6.1", "version=vmaf_v0.6.1:name=vmaf_a:disable_clip",
            "path=model.json:enable_transform=true:enable_clip=false",
            "version=vmaf_v0.6.1neg:adm.adm_enhn_gain_limit=1.2:vif.vif_enhn_gain_limit=1.1",
            "version=vmaf_b_v0.6.3:motion.motion_force_zero=true", "name=x"]):
        put("options", f"model_spec_{k}", b"\xff" + spec.encode())


if __name__ == "__main__":
    shutil.rmtree(OUT, ignore_errors=True)
    y4m_seeds()
    raw_seeds()
    model_seeds()
    option_seeds()
