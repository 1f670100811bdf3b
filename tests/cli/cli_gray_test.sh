#!/usr/bin/env bash
# Gray input (issue 14): y4m Cmono/Cmono10/Cmono16 and raw -p 400 are scored by every luma
# extractor with the bits of the same luma in a 4:2:0 file; psnr gives psnr_y alone (as
# libvmaf does for 4:0:0); the extractors that need chroma refuse it with one line each.
# usage: cli_gray_test.sh EXACTVMAF_BINARY SOURCE_DIR
set -u
bin=$1 src=$2
. "$(dirname "$0")/lib.sh"

# From the 8-bit 4:2:0 sample pair: the same frames as gray y4m (8, 10 and 16 bits), the 10- and
# 16-bit ones also as 4:2:0 (same luma, chroma scaled alike), and the gray luma as raw.
python3 - "$src/testdata" "$tmp" <<'PY' || bad "fixtures"
import sys
src, out = sys.argv[1], sys.argv[2]
w, h = 576, 324
luma, chroma = w * h, (w // 2) * (h // 2)
for name in ("ref", "dis"):
    data = open(f"{src}/sample_{name}.y4m", "rb").read()
    header, body = data.split(b"\n", 1)
    frames = body.split(b"FRAME\n")[1:]
    assert len(frames) == 3 and all(len(f) == luma + 2 * chroma for f in frames)
    def write(path, tag, planes_of):
        with open(path, "wb") as f:
            f.write(header.replace(b" C420jpeg", b" C" + tag) + b"\n")
            for fr in frames:
                f.write(b"FRAME\n" + planes_of(fr))
    wide = lambda b, s: b"".join((v << s).to_bytes(2, "little") for v in b)
    write(f"{out}/{name}_gray8.y4m", b"mono", lambda fr: fr[:luma])
    for bits in (10, 16):
        s = bits - 8
        write(f"{out}/{name}_gray{bits}.y4m", b"mono%d" % bits, lambda fr: wide(fr[:luma], s))
        write(f"{out}/{name}_420p{bits}.y4m", b"420p%d" % bits, lambda fr: wide(fr, s))
    with open(f"{out}/{name}_gray8.yuv", "wb") as f:
        for fr in frames:
            f.write(fr[:luma])
PY
cp "$ref" "$tmp/ref_420p8.y4m"
cp "$dis" "$tmp/dis_420p8.y4m"

# 1. Luma extractors and the default model: gray output = 4:2:0 output, byte for byte at
#    --precision max (version and fps aside), at each depth.
luma=(--feature float_ssim --feature float_ms_ssim --feature float_psnr --feature float_moment
      --feature float_vif --feature float_adm --feature float_motion --feature float_ansnr
      --feature cambi --feature speed_temporal --feature psnr=enable_chroma=false)
for bits in 8 10 16; do
    args=(--json --precision max -q "${luma[@]}")
    [ $bits = 16 ] && args=(--json --precision max -q --feature float_ssim --feature float_psnr
                            --feature float_moment --feature float_motion)
    "$bin" -r "$tmp/ref_gray$bits.y4m" -d "$tmp/dis_gray$bits.y4m" "${args[@]}" \
        -o "$tmp/gray$bits.json" 2>"$tmp/err"
    check "gray $bits-bit y4m scored ($(cat "$tmp/err"))" [ -s "$tmp/gray$bits.json" ]
    "$bin" -r "$tmp/ref_420p$bits.y4m" -d "$tmp/dis_420p$bits.y4m" "${args[@]}" \
        -o "$tmp/c$bits.json" 2>/dev/null
    check "gray $bits-bit: every value equals 4:2:0's" cmp -s <(values "$tmp/gray$bits.json") \
        <(values "$tmp/c$bits.json")
    check "gray $bits-bit: a VMAF score" grep -q '"vmaf"' "$tmp/gray$bits.json"
done
check "gray 8-bit: the values are those of this many outputs ($(grep -c '": ' "$tmp/gray8.json"))" \
    [ "$(grep -c '": ' "$tmp/gray8.json")" -gt 300 ]

# 2. psnr on gray: psnr_y as on 4:2:0, no chroma outputs.
"$bin" -r "$tmp/ref_gray8.y4m" -d "$tmp/dis_gray8.y4m" -n --feature psnr --json --precision max \
    -q -o "$tmp/p_gray.json"
"$bin" -r "$ref" -d "$dis" -n --feature psnr --json --precision max -q -o "$tmp/p_420.json"
psnr_y() { grep '"psnr_y"' "$1" | tr -d ','; } # the last metric of a frame has no comma
check "psnr gray: psnr_y values equal 4:2:0's" cmp -s <(psnr_y "$tmp/p_gray.json") \
    <(psnr_y "$tmp/p_420.json")
check "psnr gray: 3 frames and the pooled psnr_y" [ "$(grep -c '"psnr_y"' "$tmp/p_gray.json")" = 4 ]
check "psnr gray: no psnr_cb/psnr_cr" [ -z "$(grep 'psnr_c[br]' "$tmp/p_gray.json")" ]

# 3. Raw gray (-p 400) reads as the gray y4m.
"$bin" -r "$tmp/ref_gray8.yuv" -d "$tmp/dis_gray8.yuv" -w 576 -h 324 -p 400 -b 8 "${luma[@]}" \
    --json --precision max -q -o "$tmp/raw.json" 2>"$tmp/err"
check "raw -p 400: the gray y4m's values ($(cat "$tmp/err"))" cmp -s <(values "$tmp/raw.json") \
    <(values "$tmp/gray8.json")

# 4. Extractors that need chroma refuse gray, with one line naming the extractor; rc 1.
refuse() {
    "$bin" -r "$tmp/ref_gray8.y4m" -d "$tmp/dis_gray8.y4m" -n --feature "$1" -q -o "$tmp/x.json" \
        2>"$tmp/err"
    local rc=$?
    check "$1 on gray: rc $rc" [ $rc = 1 ]
    check "$1 on gray: '$(cat "$tmp/err")'" [ "$(cat "$tmp/err")" = "exactvmaf: $2 needs chroma planes: 4:0:0 (gray) input has none" ]
}
refuse ciede ciede
refuse psnr_hvs psnr_hvs
refuse speed_chroma speed_chroma
refuse float_motion=motion_add_uv=true "float_motion with motion_add_uv"

# 5. Gray against 4:2:0 is refused as any layout mismatch is.
"$bin" -r "$tmp/ref_gray8.y4m" -d "$dis" -q -o "$tmp/x.json" 2>"$tmp/err"
rc=$?
check "gray vs 4:2:0: refused (rc $rc: $(cat "$tmp/err"))" [ $rc -ne 0 ]
check "gray vs 4:2:0: the message names both layouts" grep -q "4:0:0.*4:2:0\|4:2:0.*4:0:0" "$tmp/err"

finish cli_gray
