#!/usr/bin/env python3
"""Wrap an Annex B HEVC or H.264 elementary stream into a minimal Matroska file, one access unit
per block, at a constant frame rate.

For bench/ffmpeg_filters.sh on a machine whose only ffmpeg is a minimal build with no container
muxer: NVENC writes the stream with access unit delimiters (-aud 1) through the rawvideo muxer,
this splits it at each delimiter, and ffmpeg's matroska demuxer reads it back (the parameter
sets stay in band). The time unit is one frame (TimecodeScale = the frame duration), so every
timestamp is exact.

    annexb_to_mkv.py IN OUT hevc|h264 WIDTH HEIGHT FPS
"""
import struct
import sys


def vint_size(n):
    """An EBML size: the shortest of 1..8 bytes with its length marker."""
    for length in range(1, 9):
        if n < (1 << (7 * length)) - 1:
            return ((1 << (7 * length)) | n).to_bytes(length, "big")
    raise ValueError(n)


def element(eid, payload):
    return eid + vint_size(len(payload)) + payload


def uint(eid, value):
    return element(eid, value.to_bytes(max(1, (value.bit_length() + 7) // 8), "big"))


def access_units(data, codec):
    """The stream cut before each access unit delimiter. What comes before the first delimiter
    (x265 writes its parameter sets there) belongs to the first access unit."""
    cuts, i, found = [0], 0, False
    while True:
        i = data.find(b"\x00\x00\x01", i)
        if i < 0 or i + 3 >= len(data):
            break
        h = data[i + 3]
        aud = (h >> 1) & 0x3F == 35 if codec == "hevc" else h & 0x1F == 9
        at = i - 1 if i > 0 and data[i - 1] == 0 else i
        found = found or aud
        if aud and at > cuts[-1]:
            cuts.append(at)
        i += 3
    cuts.append(len(data))
    return [data[a:b] for a, b in zip(cuts, cuts[1:])] if len(cuts) > 2 or found else []


def main():
    src, dst, codec, width, height, fps = sys.argv[1:7]
    units = access_units(open(src, "rb").read(), codec)
    if len(units) < 1:
        sys.exit(f"{src}: no access unit delimiters (encode with -aud 1)")
    frame_ns = round(1e9 / float(fps))
    header = element(b"\x1a\x45\xdf\xa3",
                     uint(b"\x42\x86", 1) + uint(b"\x42\xf7", 1) + uint(b"\x42\xf2", 4) +
                     uint(b"\x42\xf3", 8) + element(b"\x42\x82", b"matroska") +
                     uint(b"\x42\x87", 4) + uint(b"\x42\x85", 2))
    info = element(b"\x15\x49\xa9\x66", uint(b"\x2a\xd7\xb1", frame_ns) +
                   element(b"\x4d\x80", b"annexb_to_mkv") + element(b"\x57\x41", b"annexb_to_mkv"))
    codec_id = b"V_MPEGH/ISO/HEVC" if codec == "hevc" else b"V_MPEG4/ISO/AVC"
    video = element(b"\xe0", uint(b"\xb0", int(width)) + uint(b"\xba", int(height)))
    track = element(b"\xae", uint(b"\xd7", 1) + uint(b"\x73\xc5", 1) + uint(b"\x83", 1) +
                    element(b"\x86", codec_id) + uint(b"\x23\xe3\x83", frame_ns) + video)
    tracks = element(b"\x16\x54\xae\x6b", track)
    with open(dst, "wb") as out:
        out.write(header)
        out.write(b"\x18\x53\x80\x67" + b"\x01\xff\xff\xff\xff\xff\xff\xff")  # size unknown
        out.write(info + tracks)
        for first in range(0, len(units), 32):
            blocks = uint(b"\xe7", first)
            for k, unit in enumerate(units[first:first + 32]):
                flags = 0x80 if first + k == 0 else 0
                blocks += element(b"\xa3", b"\x81" + struct.pack(">hB", k, flags) + unit)
            out.write(element(b"\x1f\x43\xb6\x75", blocks))
    print(f"{dst}: {len(units)} frames")


if __name__ == "__main__":
    main()
