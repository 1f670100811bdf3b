/*
 * The C reference of libswscale's planar YUV scaler (ffmpeg 5.1, Debian 12's libswscale 6) for
 * a frame scaled to another size in the same layout and depth, as ffmpeg's scale filter sets
 * it up (samples centred: siting 128 on both sides, no range conversion, no SwsVector
 * filters). It is the readable spec a GPU twin is checked against. Its bits equal
 * libswscale's C path, which the library's x86 SIMD path equals at 9-14 bits always and at 8
 * bits with SWS_ACCURATE_RND or SWS_BITEXACT; with `x86_default` they equal the x86 path
 * without those flags, ffmpeg's default, whose 8-bit vertical pass is another
 * (ev_scale_v_out8_x86) except on the last two output rows. tests/decode/scale_ref_test.c
 * checks each against the library.
 *
 * Layers: scale_filter.c (the filters), scale_math.h (the arithmetic per sample), here (the
 * passes over a plane).
 */
#ifndef EV_IO_SCALE_REF_H
#define EV_IO_SCALE_REF_H

#include <stddef.h>
#include <stdint.h>

#include "io/scale_filter.h"

typedef struct EvScalePlan {
    int bits;               /* 8, or 9-14 (samples in uint16, LSB-aligned) */
    int planes;             /* 1 (gray) or 3 */
    int ss_x, ss_y;         /* chroma subsampling shifts (0 or 1) */
    int x86_default;        /* model libswscale's x86 8-bit path without accurate rounding */
    int src_w[2], src_h[2]; /* [0] luma, [1] chroma */
    int dst_w[2], dst_h[2];
    EvScaleFilter across[2]; /* horizontal filters, luma and chroma */
    EvScaleFilter down[2];   /* vertical filters */
} EvScalePlan;

/* Make the filters for src_w x src_h -> dst_w x dst_h. align_across / align_down: the taps'
 * multiples libswscale uses (4 and 2 on x86 with MMX, 1 and 1 in a C-only build); the exact
 * path's bits do not depend on them where tested, the x86 default path's do (it counts the
 * padded taps). Set x86_default afterwards to model that path (8 bits only; with align 4/2). @return 0, -1 out of memory, -2 unsupported (a depth outside
 * 8-14, a filter libswscale would cascade), -3 a bad size. */
int ev_scale_plan_make(EvScalePlan *p, const EvScaleKernelSpec *k, int src_w, int src_h, int dst_w,
                       int dst_h, int ss_x, int ss_y, int planes, int bits, int align_across,
                       int align_down);

void ev_scale_plan_free(EvScalePlan *p);

/* Scale plane `plane` (0 luma, 1 and 2 chroma). Strides in bytes. @return 0, -1 out of memory. */
int ev_scale_plane_ref(const EvScalePlan *p, int plane, const void *src, ptrdiff_t src_stride,
                       void *dst, ptrdiff_t dst_stride);

#endif
