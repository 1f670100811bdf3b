/*
 * PSNR-HVS arithmetic of Xiph.Org's metric as libvmaf runs it (feature/third_party/xiph/
 * psnr_hvs.c): 8x8 blocks every 7 samples, Daala's integer 8x8 DCT, a contrast masking
 * threshold from the block's variances and AC energy, and the CSF-weighted squared error of
 * the masked coefficient differences, all in float in the reference's order. Shared by the C
 * reference (psnr_hvs.c) and its CUDA twin (psnr_hvs.cu).
 *
 * libm: sqrt (correctly rounded) per block and log10 per plane and frame. The integer DCT
 * stays inside int32 for samples of up to 12 bits (|coefficients| <= 8 * 4095 and every
 * lifting product below 2^31), which is why libvmaf refuses deeper samples.
 */
#ifndef EV_FEATURES_PSNR_HVS_MATH_H
#define EV_FEATURES_PSNR_HVS_MATH_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/hd.h"

#define PSNR_HVS_BLOCK 8
#define PSNR_HVS_STEP 7 /* blocks overlap by one sample */
#define PSNR_HVS_MAX_BPC 12
/* 0.38857..: the factor that maps the CSF onto the PSNR-HVS-M masking table when squared */
#define PSNR_HVS_MASK_FACTOR 0.3885746225901003

/* Half of a, rounded toward zero (Daala's unbiased right shift by one). */
EV_HD int32_t psnr_hvs_half(const int32_t a)
{
    return a / 2;
}

/* One lifting product: a * mul / 2^shift, rounded half up. */
EV_HD int32_t psnr_hvs_lift(const int32_t a, const int32_t mul, const int shift)
{
    return (a * mul + (1 << (shift - 1))) >> shift;
}

/*
 * Daala's 8-point integer type-II DCT (od_bin_fdct8) of in[0], in[stride], ... in[7 stride]:
 * +/-1 butterflies, an embedded 4-point DCT (2-point DCT and 2-point DST by lifting) and a
 * 4-point DST by lifting. t[k] ends as coefficient k; the inputs are loaded into the slots
 * the butterflies pair. The lifting constants are Q13-Q15 tangents and sines of k pi / 16.
 */
EV_HD void psnr_hvs_fdct8(int32_t out[8], const int32_t *in, const ptrdiff_t stride)
{
    int32_t t[8];
    t[0] = in[0];
    t[4] = in[1 * stride];
    t[2] = in[2 * stride];
    t[6] = in[3 * stride];
    t[7] = in[4 * stride];
    t[3] = in[5 * stride];
    t[5] = in[6 * stride];
    t[1] = in[7 * stride];
    /* butterflies (x0, x7), (x1, x6), (x2, x5), (x3, x4) */
    t[1] = t[0] - t[1];
    const int32_t half1 = psnr_hvs_half(t[1]);
    t[0] -= half1;
    t[4] += t[5];
    const int32_t half4 = psnr_hvs_half(t[4]);
    t[5] -= half4;
    t[3] = t[2] - t[3];
    t[2] -= psnr_hvs_half(t[3]);
    t[6] += t[7];
    const int32_t half6 = psnr_hvs_half(t[6]);
    t[7] = half6 - t[7];
    /* the embedded 4-point DCT of the sums */
    t[0] += half6;
    t[6] = t[0] - t[6];
    t[2] = half4 - t[2];
    t[4] = t[2] - t[4];
    /* its 2-point DCT: tan(pi/8), sin(pi/4), tan(pi/8) */
    t[0] -= psnr_hvs_lift(t[4], 13573, 15);
    t[4] += psnr_hvs_lift(t[0], 11585, 14);
    t[0] -= psnr_hvs_lift(t[4], 13573, 15);
    /* its 2-point DST: tan(3pi/16)-like, sin(3pi/8), again */
    t[6] -= psnr_hvs_lift(t[2], 21895, 15);
    t[2] += psnr_hvs_lift(t[6], 15137, 14);
    t[6] -= psnr_hvs_lift(t[2], 21895, 15);
    /* the embedded 4-point DST of the differences */
    t[3] += psnr_hvs_lift(t[5], 19195, 15);
    t[5] += psnr_hvs_lift(t[3], 11585, 14);
    t[3] -= psnr_hvs_lift(t[5], 7489, 13);
    t[7] = psnr_hvs_half(t[5]) - t[7];
    t[5] -= t[7];
    t[3] = half1 - t[3];
    t[1] -= t[3];
    t[7] += psnr_hvs_lift(t[1], 3227, 15);
    t[1] -= psnr_hvs_lift(t[7], 6393, 15);
    t[7] += psnr_hvs_lift(t[1], 3227, 15);
    t[5] += psnr_hvs_lift(t[3], 2485, 13);
    t[3] -= psnr_hvs_lift(t[5], 18205, 15);
    t[5] += psnr_hvs_lift(t[3], 2485, 13);
    for (int k = 0; k < 8; k++)
        out[k] = t[k];
}

/* The 8x8 DCT of a row-major block, in place: column c of the block becomes row c of a
 * temporary, then column c of the temporary becomes row c of the result. */
EV_HD void psnr_hvs_fdct8x8(int32_t blk[64])
{
    int32_t tmp[64];
    for (int c = 0; c < 8; c++)
        psnr_hvs_fdct8(tmp + 8 * c, blk + c, 8);
    for (int c = 0; c < 8; c++)
        psnr_hvs_fdct8(blk + 8 * c, tmp + c, 8);
}

/* The masking weight of a coefficient: (csf * 0.38857...)^2 in double, kept as float. */
EV_HD float psnr_hvs_mask_weight(const float csf)
{
    return (float)(((double)csf * PSNR_HVS_MASK_FACTOR) * ((double)csf * PSNR_HVS_MASK_FACTOR));
}

/* Which 4x4 quadrant of the block sample (i, j) is in: 0 top left, 1 bottom left, 2 top
 * right, 3 bottom right. */
EV_HD int psnr_hvs_quadrant(const int i, const int j)
{
    return ((i & 12) >> 2) + ((j & 12) >> 1);
}

/*
 * The block's variance ratio: the sum of its four quadrants' unbiased variances over its own
 * unbiased variance (left as that variance, 0, for a flat block). Float sums in raster order;
 * the unbiasing factors are the reference's float products (1 / 63.f) * 64 and (1 / 15.f) * 16.
 */
EV_HD float psnr_hvs_variance_ratio(const int32_t px[64])
{
    float gmean = 0, means[4] = { 0, 0, 0, 0 };
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            gmean += (float)px[i * 8 + j];
            means[psnr_hvs_quadrant(i, j)] += (float)px[i * 8 + j];
        }
    gmean /= 64.f;
    for (int q = 0; q < 4; q++)
        means[q] /= 16.f;
    float gvar = 0, vars[4] = { 0, 0, 0, 0 };
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            const int q = psnr_hvs_quadrant(i, j);
            const float dg = (float)px[i * 8 + j] - gmean, dq = (float)px[i * 8 + j] - means[q];
            gvar += dg * dg;
            vars[q] += dq * dq;
        }
    gvar *= 1 / 63.f * 64;
    for (int q = 0; q < 4; q++)
        vars[q] *= 1 / 15.f * 16;
    if (gvar > 0)
        gvar = (vars[0] + vars[1] + vars[2] + vars[3]) / gvar;
    return gvar;
}

/* The masked AC energy of a transformed block: sum of (int) c^2 times its weight, float. */
EV_HD float psnr_hvs_ac_energy(const int32_t dct[64], const float mask[64])
{
    float e = 0;
    for (int k = 1; k < 64; k++)
        e += (float)(dct[k] * dct[k]) * mask[k];
    return e;
}

/*
 * The same two functions for the reference and distorted blocks at once: each block keeps its
 * own sums in its own order (the lane loops only interleave the two independent chains), so
 * the results are psnr_hvs_variance_ratio's and psnr_hvs_ac_energy's bits.
 */
EV_HD void psnr_hvs_variance_ratio2(const int32_t *const px[2], float ratio[2])
{
    float gmean[2] = { 0, 0 }, means[2][4] = { { 0, 0, 0, 0 }, { 0, 0, 0, 0 } };
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            for (int b = 0; b < 2; b++) {
                gmean[b] += (float)px[b][i * 8 + j];
                means[b][psnr_hvs_quadrant(i, j)] += (float)px[b][i * 8 + j];
            }
    for (int b = 0; b < 2; b++) {
        gmean[b] /= 64.f;
        for (int q = 0; q < 4; q++)
            means[b][q] /= 16.f;
    }
    float gvar[2] = { 0, 0 }, vars[2][4] = { { 0, 0, 0, 0 }, { 0, 0, 0, 0 } };
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            for (int b = 0; b < 2; b++) {
                const int q = psnr_hvs_quadrant(i, j);
                const float v = (float)px[b][i * 8 + j];
                const float dg = v - gmean[b], dq = v - means[b][q];
                gvar[b] += dg * dg;
                vars[b][q] += dq * dq;
            }
    for (int b = 0; b < 2; b++) {
        gvar[b] *= 1 / 63.f * 64;
        for (int q = 0; q < 4; q++)
            vars[b][q] *= 1 / 15.f * 16;
        if (gvar[b] > 0)
            gvar[b] = (vars[b][0] + vars[b][1] + vars[b][2] + vars[b][3]) / gvar[b];
        ratio[b] = gvar[b];
    }
}

EV_HD void psnr_hvs_ac_energy2(const int32_t *const dct[2], const float mask[64], float energy[2])
{
    float e[2] = { 0, 0 };
    for (int k = 1; k < 64; k++)
        for (int b = 0; b < 2; b++)
            e[b] += (float)(dct[b][k] * dct[b][k]) * mask[k];
    energy[0] = e[0];
    energy[1] = e[1];
}

/* The block's masking threshold: sqrt in double of the float product, / 32, as float. */
EV_HD float psnr_hvs_threshold(const float energy, const float ratio)
{
    return (float)(sqrt((double)(energy * ratio)) / 32.f);
}

/*
 * The CSF-weighted squared error of coefficient k of a transformed pair: the DC difference
 * as it is, an AC difference under threshold / weight as 0, the rest minus it.
 * (err < t ? 0 : err - t) is written max(err - t, +0): for finite floats err - t is negative
 * exactly when err < t and +0 when they are equal, so the bits are the same, and it compiles
 * to maxss instead of an unpredictable branch.
 */
EV_HD float psnr_hvs_coeff_term(const int32_t ds[64], const int32_t dd[64], const int k,
                                const float threshold, const float mask[64], const float csf[64])
{
    float err = (float)abs(ds[k] - dd[k]);
    if (k) {
        const float over = err - threshold / mask[k];
        err = over > 0.0f ? over : 0.0f;
    }
    return (err * csf[k]) * (err * csf[k]);
}

/*
 * Adds the block's 64 terms to the plane's running float sum, in coefficient order, and
 * returns it. The reference's sum over a plane is this one float carried through its blocks in
 * raster order: (((0 + t[0][0]) + t[0][1]) + ... + t[0][63]) + t[1][0] ..., which the CUDA twin
 * reproduces by adding the same terms (psnr_hvs_coeff_term) in the same order.
 */
EV_HD float psnr_hvs_block_error(float sum, const int32_t ds[64], const int32_t dd[64],
                                 const float threshold, const float mask[64], const float csf[64])
{
    sum += psnr_hvs_coeff_term(ds, dd, 0, threshold, mask, csf);
    for (int k = 1; k < 64; k++) /* the DC apart: the loop has no branch on k */
        sum += psnr_hvs_coeff_term(ds, dd, k, threshold, mask, csf);
    return sum;
}

/*
 * The block's terms that are not zero, in order, to out; returns how many. Adding them alone
 * to the running sum gives psnr_hvs_block_error's bits: every term is a square, +0 or
 * positive (never -0, NaN or infinite: |err * csf| < 2^20), so the running sum starts at +0
 * and stays >= +0, and s + (+0) is s exactly for every such s (+0 + +0 = +0 when rounding to
 * nearest). The CUDA twin adds only these, and pads its loads with +0 for the same reason.
 */
EV_HD int psnr_hvs_block_nonzero_terms(const int32_t ds[64], const int32_t dd[64],
                                       const float threshold, const float mask[64],
                                       const float csf[64], float out[64])
{
    int n = 0;
    for (int k = 0; k < 64; k++) {
        const float t = psnr_hvs_coeff_term(ds, dd, k, threshold, mask, csf);
        if (t != 0.0f)
            out[n++] = t;
    }
    return n;
}

/* How many blocks fit along a plane side of n samples: starts 0, 7, 14, ... below n - 7. */
EV_HD int psnr_hvs_blocks(const int n)
{
    return n > PSNR_HVS_STEP ? (n - PSNR_HVS_BLOCK) / PSNR_HVS_STEP + 1 : 0;
}

/* The 8x8 block whose top left sample is (x, y) of a plane (rows stride bytes apart; wide:
 * uint16_t samples, else uint8_t), as ints, row-major. */
EV_HD void psnr_hvs_load_block(const void *plane, const ptrdiff_t stride, const int wide,
                               const int x, const int y, int32_t blk[64])
{
    const unsigned char *top = (const unsigned char *)plane + (ptrdiff_t)y * stride;
    if (wide) {
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++)
                blk[i * 8 + j] = ((const uint16_t *)(top + (ptrdiff_t)i * stride))[x + j];
    } else {
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++)
                blk[i * 8 + j] = top[(ptrdiff_t)i * stride + x + j];
    }
}

/*
 * The masking threshold of a pair of blocks (bs the reference's, bd the distorted's), which
 * are transformed in place: the larger of the two blocks' thresholds, each from its variance
 * ratio (before the DCT) and its masked AC energy (after it), as the reference orders them.
 */
EV_HD float psnr_hvs_block_threshold(int32_t bs[64], int32_t bd[64], const float mask[64])
{
    const int32_t *const pair[2] = { bs, bd };
    float ratio[2], energy[2];
    psnr_hvs_variance_ratio2(pair, ratio);
    psnr_hvs_fdct8x8(bs);
    psnr_hvs_fdct8x8(bd);
    psnr_hvs_ac_energy2(pair, mask, energy);
    const float th_s = psnr_hvs_threshold(energy[0], ratio[0]);
    const float th_d = psnr_hvs_threshold(energy[1], ratio[1]);
    return th_d > th_s ? th_d : th_s;
}

/* The plane's score: the float sum over the (int) count of coefficients, over peak^2. */
EV_HD double psnr_hvs_plane_score(float sum, const int n_coeffs, const unsigned bpc)
{
    const int32_t peak = (1 << bpc) - 1;
    sum /= (float)n_coeffs;
    sum /= (float)(peak * peak);
    return sum;
}

/* Scores to dB, and the combined score (0.8 luma, 0.1 each chroma) before it. */
EV_HD double psnr_hvs_db(const double score)
{
    return 10 * -log10(score);
}

EV_HD double psnr_hvs_combined(const double y, const double cb, const double cr)
{
    return y * .8 + .1 * (cb + cr);
}

#endif
