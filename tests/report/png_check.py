#!/usr/bin/env python3
"""Did a screenshot draw the report? (report_chromium.sh) Reads an 8-bit RGB or RGBA PNG with the
standard library only and checks that it is not blank and that the pooled table's header colour
and the first curves' colours cover some pixels.

usage: png_check.py SHOT.png N_CURVES   (exit 0: drawn; 1: what is missing is printed)
"""
import struct
import sys
import zlib

TABLE_HEADER = (0xdb, 0xe4, 0xee)  # th background, tools/cli_report.c
TABLE_BORDER = (0xb8, 0xc4, 0xd0)  # cell borders: the rows of a table, whose swatches the
                                   # curves' colours are, do not count for the curves
CURVES = [(0x1f, 0x77, 0xb4), (0xff, 0x7f, 0x0e), (0x2c, 0xa0, 0x2c)]  # tools/cli_svg.c


def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            w, h, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color in (2, 6) and not interlace, "want 8-bit RGB(A)"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    bpp = 3 if color == 2 else 4
    raw, stride = zlib.decompress(idat), w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def main():
    w, h, bpp, rows = read_png(sys.argv[1])
    n_curves = int(sys.argv[2])
    count, white, curve = {}, 0, {c: 0 for c in CURVES}
    for line in rows:
        pixels = [tuple(line[x:x + 3]) for x in range(0, w * bpp, bpp)]
        in_table = pixels.count(TABLE_BORDER) >= 2
        for px in pixels:
            if px == (255, 255, 255):
                white += 1
            else:
                count[px] = count.get(px, 0) + 1
            if px in curve and not in_table:
                curve[px] += 1
    drawn = w * h - white
    problems = []
    if drawn < 0.02 * w * h or len(count) < 20:
        problems.append(f"blank: {drawn} of {w * h} pixels drawn, {len(count)} colours")
    if count.get(TABLE_HEADER, 0) < 2000:
        problems.append(f"no pooled table: {count.get(TABLE_HEADER, 0)} header pixels")
    for i, c in enumerate(CURVES[:n_curves]):
        if curve[c] < 150:
            problems.append(f"curve {i} (#%02x%02x%02x) missing: {curve[c]} pixels" % c)
    print(f"{sys.argv[1]}: {w}x{h}, {drawn} pixels drawn, {len(count)} colours, table header "
          f"{count.get(TABLE_HEADER, 0)}, curves "
          + ", ".join(str(curve[c]) for c in CURVES[:n_curves]) + " (outside the tables)")
    for p in problems:
        print("FAIL: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
