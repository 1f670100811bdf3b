/*
 * The scaler's twin (scale_twin.h): one thread per intermediate sample in the horizontal pass,
 * one per output sample in the vertical pass, each running scale_math.h's function for its
 * sample with the filter the host made, as scale_ref.c does.
 */
#include <cuda_runtime.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "io/scale_twin.h"
}
#include "io/scale_math.h"

typedef struct TwinFilter {
    int out_n, taps;
    int32_t *first; /* device */
    int16_t *coef;  /* device */
} TwinFilter;

struct EvScaleTwin {
    int bits, x86_default, ss_y, luma_rows_out;
    int src_w[2], src_h[2], dst_w[2], dst_h[2];
    TwinFilter across[2], down[2];
    int16_t *mid; /* src_h x dst_w intermediates of the largest plane */
};

static int failed(cudaError_t e, const char *what, char *why, size_t why_size)
{
    if (e == cudaSuccess)
        return 0;
    snprintf(why, why_size, "scaler twin: %s: %s", what, cudaGetErrorString(e));
    return e == cudaErrorMemoryAllocation ? -ENOMEM : -EIO;
}

static int upload_filter(TwinFilter *d, const EvScaleFilter *f, char *why, size_t why_size)
{
    d->out_n = f->out_n;
    d->taps = f->taps;
    const size_t nf = (size_t)f->out_n * sizeof(*f->first);
    const size_t nc = (size_t)f->out_n * f->taps * sizeof(*f->coef);
    int r = failed(cudaMalloc(&d->first, nf), "allocate a filter", why, why_size);
    if (!r)
        r = failed(cudaMalloc(&d->coef, nc), "allocate a filter", why, why_size);
    if (!r)
        r = failed(cudaMemcpy(d->first, f->first, nf, cudaMemcpyHostToDevice), "upload a filter",
                   why, why_size);
    if (!r)
        r = failed(cudaMemcpy(d->coef, f->coef, nc, cudaMemcpyHostToDevice), "upload a filter", why,
                   why_size);
    return r;
}

extern "C" int ev_scale_twin_open(EvScaleTwin **out, const EvScalePlan *plan, char *why,
                                  size_t why_size)
{
    *out = NULL;
    EvScaleTwin *t = (EvScaleTwin *)calloc(1, sizeof(*t));
    if (!t) {
        snprintf(why, why_size, "scaler twin: out of memory");
        return -ENOMEM;
    }
    t->bits = plan->bits;
    t->x86_default = plan->x86_default;
    t->ss_y = plan->ss_y;
    t->luma_rows_out = plan->dst_h[0];
    size_t mid = 0;
    int r = 0;
    for (int c = 0; c < (plan->planes == 3 ? 2 : 1) && !r; c++) {
        t->src_w[c] = plan->src_w[c];
        t->src_h[c] = plan->src_h[c];
        t->dst_w[c] = plan->dst_w[c];
        t->dst_h[c] = plan->dst_h[c];
        r = upload_filter(&t->across[c], &plan->across[c], why, why_size);
        if (!r)
            r = upload_filter(&t->down[c], &plan->down[c], why, why_size);
        const size_t n = (size_t)plan->src_h[c] * plan->dst_w[c];
        mid = n > mid ? n : mid;
    }
    if (!r)
        r = failed(cudaMalloc(&t->mid, mid * sizeof(*t->mid)), "allocate the rows", why, why_size);
    if (r) {
        ev_scale_twin_close(&t);
        return r;
    }
    *out = t;
    return 0;
}

__global__ void scale_across(const uint8_t *src, ptrdiff_t stride, int src_w, int rows, int bits,
                             TwinFilter f, int16_t *mid)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y;
    if (x >= f.out_n || y >= rows)
        return;
    const uint8_t *row = src + y * stride;
    const int16_t *coef = f.coef + (size_t)x * f.taps;
    mid[(size_t)y * f.out_n + x] =
        bits == 8 ? ev_scale_h_tap8(row, src_w, f.first[x], coef, f.taps)
                  : ev_scale_h_tap16((const uint16_t *)row, src_w, f.first[x], coef, f.taps, bits);
}

/* x86: the row takes libswscale's x86 default 8-bit pass (scale_ref.c's rule). */
__global__ void scale_down(const int16_t *mid, int width, int rows_in, int bits,
                           int x86_from_row_shift, int x86_rows, TwinFilter f, uint8_t *dst,
                           ptrdiff_t stride)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y;
    if (x >= width || y >= f.out_n)
        return;
    const EvScaleWindow window = { mid + (size_t)f.first[y] * width, width, rows_in - f.first[y] };
    const int16_t *coef = f.coef + (size_t)y * f.taps;
    uint8_t *row = dst + y * stride;
    const int x86 = x86_rows > 0 && f.taps > 1 && (y << x86_from_row_shift) < x86_rows;
    if (x86)
        row[x] = ev_scale_v_out8_x86(window, x, coef, f.taps, 64);
    else if (bits == 8)
        row[x] = ev_scale_v_out8(window, x, coef, f.taps, 64);
    else
        ((uint16_t *)row)[x] = ev_scale_v_out16(window, x, coef, f.taps, bits);
}

extern "C" int ev_scale_twin_plane(EvScaleTwin *t, int plane, const void *src, ptrdiff_t src_stride,
                                   void *dst, ptrdiff_t dst_stride, void *stream, char *why,
                                   size_t why_size)
{
    const int c = plane ? 1 : 0;
    cudaStream_t s = (cudaStream_t)stream;
    const int block = 128;
    const dim3 across((unsigned)((t->dst_w[c] + block - 1) / block), (unsigned)t->src_h[c]);
    scale_across<<<across, block, 0, s>>>((const uint8_t *)src, src_stride, t->src_w[c],
                                          t->src_h[c], t->bits, t->across[c], t->mid);
    int r = failed(cudaGetLastError(), "horizontal pass", why, why_size);
    if (r)
        return r;
    const int x86_rows = t->x86_default && t->bits == 8 ? t->luma_rows_out - 2 : 0;
    const dim3 down((unsigned)((t->dst_w[c] + block - 1) / block), (unsigned)t->dst_h[c]);
    scale_down<<<down, block, 0, s>>>(t->mid, t->dst_w[c], t->src_h[c], t->bits, c ? t->ss_y : 0,
                                      x86_rows, t->down[c], (uint8_t *)dst, dst_stride);
    return failed(cudaGetLastError(), "vertical pass", why, why_size);
}

extern "C" void ev_scale_twin_close(EvScaleTwin **tp)
{
    EvScaleTwin *t = *tp;
    if (!t)
        return;
    for (int c = 0; c < 2; c++) {
        cudaFree(t->across[c].first);
        cudaFree(t->across[c].coef);
        cudaFree(t->down[c].first);
        cudaFree(t->down[c].coef);
    }
    cudaFree(t->mid);
    free(t);
    *tp = NULL;
}
