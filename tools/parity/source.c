/* Frame sources of the parity gate: generated pictures, or raw corpus files. */
#include <stdlib.h>
#include <string.h>

#include "fixtures.h"

static size_t plane_bytes(const Fixture *fx, unsigned p)
{
    unsigned w, h;
    ev_plane_size(fx->width, fx->height, fx->layout, p, &w, &h);
    return (size_t)w * h * (fx->bitdepth > 8 ? 2 : 1);
}

static void describe(const Fixture *fx, uint8_t *buf, EvPicture *pic)
{
    *pic = (EvPicture){ fx->width, fx->height, fx->bitdepth, fx->layout, { 0 }, { 0 } };
    for (unsigned p = 0; p < 3; p++) {
        unsigned w, h;
        ev_plane_size(fx->width, fx->height, fx->layout, p, &w, &h);
        pic->data[p] = buf;
        pic->stride[p] = (ptrdiff_t)w * (fx->bitdepth > 8 ? 2 : 1);
        buf += plane_bytes(fx, p);
    }
}

static void put(uint8_t *plane, size_t i, unsigned bpc, uint32_t v)
{
    if (bpc > 8)
        ((uint16_t *)plane)[i] = (uint16_t)v;
    else
        plane[i] = (uint8_t)v;
}

/* FIX_MOTION: scenes of 5 frames (a cut between scenes): textured content that stands still
 * for the first two frames of a scene (identical frames), then pans 3 samples a frame. */
static uint32_t motion_sample(const Fixture *fx, unsigned frame, unsigned p, size_t i, int side)
{
    unsigned pw, ph;
    ev_plane_size(fx->width, fx->height, fx->layout, p, &pw, &ph);
    const uint32_t max = (1u << fx->bitdepth) - 1;
    const unsigned scene = frame / 5, step = frame % 5;
    const unsigned shift = step < 2 ? 0 : 3 * (step - 1);
    const unsigned x = (unsigned)(i % pw) + shift, y = (unsigned)(i / pw);
    const uint32_t s = fixture_hash(fx->seed ^ scene * 0x632be5abu ^ p);
    const uint32_t ramp = (x * (s & 7) + y * ((s >> 3) & 7) + s) & max;
    const uint32_t texture = fixture_hash(s ^ (x / 4) * 0x9e3779b9u ^ (y / 4) * 0x85ebca6bu);
    uint32_t v = (ramp / 2 + (texture & max) / 2) & max;
    if (side) {
        const uint32_t e = fixture_hash(s ^ (uint32_t)i ^ frame * 0x27d4eb2du) & (max >> 5);
        v = v + e / 2 > max ? max : v + e / 2;
        v = v >= e ? v - e : 0;
    }
    return v;
}

/* FIX_BANDING: a gradient of 10-bit codes across the plane, its direction and range drawn per
 * frame; the ref at 10-bit precision, the dis banded (the variants of fixtures.h). */
static uint32_t banding_sample(const Fixture *fx, unsigned frame, unsigned p, size_t i, int side)
{
    unsigned pw, ph;
    ev_plane_size(fx->width, fx->height, fx->layout, p, &pw, &ph);
    const unsigned bpc = fx->bitdepth, x = (unsigned)(i % pw), y = (unsigned)(i / pw);
    const uint32_t max = (1u << bpc) - 1;
    const uint32_t s = fixture_hash(fx->seed ^ frame * 0x632be5abu ^ p * 0x9e3779b9u);
    const uint32_t noise = fixture_hash(s ^ (uint32_t)i * 0x85ebca6bu);
    if (fx->delta == BANDING_BLOCKS) {
        const uint32_t b = fixture_hash(s ^ (x / 8) * 0x27d4eb2du ^ (y / 8) * 0x165667b1u);
        return b & max;
    }
    uint32_t code;
    if (fx->delta == BANDING_STRIPES) {
        code = 300 + 4 * ((x / 4) & 1);
    } else {
        const unsigned a = s & 3, b = ((s >> 2) & 3) | (a ? 0 : 1);
        const unsigned lo = 64 + (s >> 4) % 337, span = 60 + (s >> 13) % 441;
        code = lo + (unsigned)((uint64_t)span * (a * x + b * y) / ((uint64_t)a * pw + b * ph + 1));
    }
    if (side && fx->delta <= BANDING_NOISY) {
        int q = (int)((code + 2) >> 2); /* 8 bits */
        if (fx->delta == BANDING_DITHERED && (noise & 3) == 0)
            q += (noise >> 2) & 1 ? 1 : -1;
        if (fx->delta == BANDING_NOISY)
            q += (int)((noise >> 2) % 5) - 2;
        q = q < 0 ? 0 : q > 255 ? 255 : q;
        return bpc >= 8 ? (uint32_t)q << (bpc - 8) & max : (uint32_t)q;
    }
    const uint32_t v = (bpc >= 10 ? code << (bpc - 10) : code >> (10 - bpc)) & max;
    if (fx->delta == BANDING_OVERRANGE && side && p == 0 && noise % 4099 == 0 && bpc < 16)
        return max + 1 + (noise >> 16) % (65535 - max); /* stored as uint16 */
    return v;
}

/* One sample of a generated fixture. side 0 = ref, 1 = dis. */
static uint32_t sample(const Fixture *fx, unsigned frame, unsigned p, size_t i, int side)
{
    const uint32_t max = (1u << fx->bitdepth) - 1;
    const uint32_t key = fx->seed * 0x9e3779b9u + frame * 0x85ebca6bu + p * 0xc2b2ae35u;
    const uint32_t base = fixture_hash(key ^ (uint32_t)i ^ (uint32_t)(i >> 32) * 0x27d4eb2du);
    switch (fx->kind) {
    case FIX_MOTION: return motion_sample(fx, frame, p, i, side);
    case FIX_OVERRANGE:
        if (fixture_hash(base ^ (uint32_t)side * 0x5bd1e995u) % 61 == 0 && fx->bitdepth < 16)
            return max + 1 + fixture_hash(base ^ 0x2545f491u) % (65535 - max);
        return motion_sample(fx, frame, p, i, side);
    case FIX_BANDING: return banding_sample(fx, frame, p, i, side);
    case FIX_EXTREME: return (side ? fixture_hash(base ^ 0x68e31da4u) : base) & 1 ? max : 0;
    case FIX_IDENTICAL: return base & max;
    case FIX_BRIGHT: {
        const uint32_t v = max - (base & (max >> 4));
        const uint32_t e = side ? fixture_hash(base) % 64 : 0;
        return v >= e ? v - e : 0;
    }
    default: return side ? fixture_hash(base ^ 0x68e31da4u) & max : base & max;
    }
}

/* The float square of v / 256 in units of 1/65536: v * v rounded to a float. */
static uint64_t units(uint32_t v)
{
    return (uint64_t)(float)((uint64_t)v * v);
}

/* Largest v with units(v) <= r (units is non-decreasing in v). */
static uint32_t largest_below(uint64_t r)
{
    uint32_t lo = 0, hi = 65535;
    while (lo < hi) {
        const uint32_t mid = (lo + hi + 1) / 2;
        if (units(mid) <= r)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* 16-bit luma whose sum of float squares is exactly 2^53 + delta units (dis luma is 0, so
 * float_psnr's noise sum is the same number); raster order: 65535s, then a greedy tail. */
static void fill_units_2p53(const Fixture *fx, uint8_t *ref_luma)
{
    const uint64_t target = (UINT64_C(1) << 53) + (uint64_t)(int64_t)fx->delta;
    const uint64_t top = units(65535);
    const size_t n = (size_t)fx->width * fx->height;
    size_t i = 0;
    uint64_t left = target;
    for (const uint64_t k = target / top - 1; i < k && i < n; i++) {
        put(ref_luma, i, 16, 65535);
        left -= top;
    }
    while (left && i < n) {
        const uint32_t v = largest_below(left);
        put(ref_luma, i++, 16, v);
        left -= units(v);
    }
}

static void generate(FrameSource *s, unsigned frame)
{
    const Fixture *fx = s->fx;
    memset(s->buf, 0, 2 * s->frame_bytes);
    if (fx->kind == FIX_UNITS_2P53) {
        fill_units_2p53(fx, s->buf);
        return;
    }
    for (int side = 0; side < 2; side++) {
        uint8_t *plane = s->buf + side * s->frame_bytes;
        for (unsigned p = 0; p < 3; p++) {
            const size_t n = plane_bytes(fx, p) / (fx->bitdepth > 8 ? 2 : 1);
            for (size_t i = 0; i < n; i++)
                put(plane, i, fx->bitdepth, sample(fx, frame, p, i, side));
            plane += plane_bytes(fx, p);
        }
    }
}

int source_open(FrameSource *s, const Fixture *fx)
{
    memset(s, 0, sizeof(*s));
    s->fx = fx;
    for (unsigned p = 0; p < 3; p++)
        s->frame_bytes += plane_bytes(fx, p);
    s->buf = malloc(2 * s->frame_bytes);
    if (!s->buf)
        return -1;
    describe(fx, s->buf, &s->pic[0]);
    describe(fx, s->buf + s->frame_bytes, &s->pic[1]);
    if (fx->kind != FIX_CORPUS)
        return 0;
    s->ref = fopen(fx->ref_path, "rb");
    s->dis = fopen(fx->dis_path, "rb");
    return s->ref && s->dis ? 0 : -1;
}

int source_frame(FrameSource *s, unsigned i)
{
    if (s->fx->kind != FIX_CORPUS) {
        generate(s, i);
        return 0;
    }
    if (fread(s->buf, 1, s->frame_bytes, s->ref) != s->frame_bytes ||
        fread(s->buf + s->frame_bytes, 1, s->frame_bytes, s->dis) != s->frame_bytes)
        return -1;
    return 0;
}

void source_close(FrameSource *s)
{
    if (s->ref)
        fclose(s->ref);
    if (s->dis)
        fclose(s->dis);
    free(s->buf);
    memset(s, 0, sizeof(*s));
}
