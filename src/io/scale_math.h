/*
 * The per-sample arithmetic of libswscale's planar YUV scaler (ffmpeg 5.1, Debian 12's
 * libswscale 6), shared by the C reference (scale_ref.c) and any GPU twin: a horizontal pass
 * turns each source row into a row of 15-bit intermediates, a vertical pass turns a window of
 * those rows into one output row. The filters come from scale_filter.c.
 *
 * Bits: these equal libswscale's C functions (hScale8To15, hScale16To15, yuv2planeX_8,
 * yuv2plane1_8, yuv2planeX_10/12/14, yuv2plane1_*), which its x86 SIMD equals with
 * SWS_ACCURATE_RND, and at 9-14 bits always; ev_scale_v_out8_x86 is the other 8-bit vertical
 * pass, the one its x86 build takes without SWS_ACCURATE_RND (or SWS_BITEXACT): ffmpeg's
 * default (tests/decode/scale_ref_test.c checks each against the library).
 *
 * Integer semantics as libswscale's: the vertical sums wrap as 32-bit unsigned before the
 * shift (they never do for filters it makes), right shifts of negatives are arithmetic.
 */
#ifndef EV_IO_SCALE_MATH_H
#define EV_IO_SCALE_MATH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define EV_SCALE_FN static __host__ __device__ inline
#else
#define EV_SCALE_FN static inline
#endif

/* The source index of tap j from first, kept inside the n samples: the taps past the source's
 * end that an aligned filter has carry weight 0 (scale_filter.c folds them), so reading the
 * last sample instead changes no bit, and nothing is read outside the row or plane. */
EV_SCALE_FN int ev_scale_tap_at(int first, int j, int n)
{
    return first + j < n ? first + j : n - 1;
}

/* One horizontal output: taps source samples (8-bit, or 9-14 bits in uint16) of a row of n
 * from first, weighted by coef (sum 1 << 14), to a 15-bit intermediate. bits: the source
 * depth. */
EV_SCALE_FN int16_t ev_scale_h_tap8(const uint8_t *src, int n, int first, const int16_t *coef,
                                    int taps)
{
    int32_t acc = 0;
    for (int j = 0; j < taps; j++)
        acc += (int32_t)src[ev_scale_tap_at(first, j, n)] * coef[j];
    acc >>= 7;
    return (int16_t)(acc < 32767 ? acc : 32767);
}

EV_SCALE_FN int16_t ev_scale_h_tap16(const uint16_t *src, int n, int first, const int16_t *coef,
                                     int taps, int bits)
{
    int32_t acc = 0;
    for (int j = 0; j < taps; j++)
        acc += (int32_t)src[ev_scale_tap_at(first, j, n)] * coef[j];
    acc >>= bits - 1;
    return (int16_t)(acc < 32767 ? acc : 32767);
}

/* A vertical window: its first intermediate row, the distance between rows (samples), and
 * how many rows the source has from there (taps past them weigh 0: ev_scale_tap_at). */
typedef struct EvScaleWindow {
    const int16_t *first;
    ptrdiff_t pitch;
    int rows;
} EvScaleWindow;

EV_SCALE_FN int16_t ev_scale_window_at(EvScaleWindow w, int row, int x)
{
    return w.first[ev_scale_tap_at(0, row, w.rows) * w.pitch + x];
}

/* The sum of a vertical window as libswscale forms it: 32-bit wrapping, from start. */
EV_SCALE_FN int32_t ev_scale_v_sum(EvScaleWindow w, int x, const int16_t *coef, int taps,
                                   uint32_t start)
{
    uint32_t acc = start;
    for (int j = 0; j < taps; j++)
        acc += (uint32_t)((int32_t)ev_scale_window_at(w, j, x) * coef[j]);
    return (int32_t)acc;
}

/* One 8-bit output from a window of taps intermediate rows (coef sums to 1 << 12). dither: the
 * row's dither value for this column (64 everywhere when the source is 8-bit). A window of one
 * row takes libswscale's single-row path (no filter). */
EV_SCALE_FN uint8_t ev_scale_v_out8(EvScaleWindow w, int x, const int16_t *coef, int taps,
                                    int dither)
{
    int32_t v;
    if (taps == 1)
        v = ((int32_t)ev_scale_window_at(w, 0, x) + dither) >> 7;
    else
        v = ev_scale_v_sum(w, x, coef, taps, (uint32_t)dither << 12) >> 19;
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* One 8-bit output as libswscale's x86 yuv2yuvX (MMX, SSE3 and AVX2 alike) forms it: 16-bit
 * lanes, each tap's product keeping its high half (pmulhw, rounding down), the sum wrapping
 * (paddw), started from (dither + 8 (taps - 1)) >> 4, then an arithmetic shift by 3 and a
 * clamp (packuswb). Only for windows of two taps or more. */
EV_SCALE_FN uint8_t ev_scale_v_out8_x86(EvScaleWindow w, int x, const int16_t *coef, int taps,
                                        int dither)
{
    int16_t acc = (int16_t)((dither + 8 * (taps - 1)) >> 4);
    for (int j = 0; j < taps; j++)
        acc =
            (int16_t)(uint16_t)((uint16_t)acc +
                                (uint16_t)(((int32_t)coef[j] * ev_scale_window_at(w, j, x)) >> 16));
    const int v = acc >> 3;
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* One output of 9 to 14 bits, stored in uint16. */
EV_SCALE_FN uint16_t ev_scale_v_out16(EvScaleWindow w, int x, const int16_t *coef, int taps,
                                      int bits)
{
    const int32_t top = (1 << bits) - 1;
    int32_t v;
    if (taps == 1) {
        const int shift = 15 - bits;
        v = ((int32_t)ev_scale_window_at(w, 0, x) + (1 << (shift - 1))) >> shift;
    } else {
        const int shift = 27 - bits;
        v = ev_scale_v_sum(w, x, coef, taps, 1u << (shift - 1)) >> shift;
    }
    return (uint16_t)(v < 0 ? 0 : v > top ? top : v);
}

#endif
