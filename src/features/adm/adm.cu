// CUDA twin of adm (adm.c, adm_frame.c, adm_rows.c beside this file: integer_adm's four
// scales). Per frame, on the worker's stream, for each scale, the stages of adm_twin.h, one
// band position per thread:
//   dwt      both pictures (blockIdx.z): the next scale's input and the h, v, d bands;
//   band     decouple and the masking values of both passes (summed over the bands) inside
//            the CSF rectangle; the denominator cubes inside the CM rectangle, reduced per
//            block and added to their row's sum (one block never spans two rows);
//   masking  at the positions the CM spans visit: the centre decoupled again, the 3x3
//            thresholds from the stored sums, the cubes added to their row's sums;
//   fold     one block: each row folded as the reference, the rows added.
// Row sums are integers added modulo 2^64 (the reference's int64 / uint64), so their order is
// free. One copy of the 36 totals back; the scores on the host (adm_scale_score, ev_adm_emit).
#include <cerrno>

#include <cuda_runtime.h>

#include "cuda/kept.cuh"
#include "cuda/runtime.h"
#include "features/adm/adm_twin.h"

namespace
{

constexpr int THREADS = 256;

// The three bands of one picture at one scale (int32: scale-0 values are int16 ones).
struct Bands {
    int32_t *b[3];
    __device__ void get(size_t at, int32_t v[3]) const
    {
        v[0] = b[0][at];
        v[1] = b[1][at];
        v[2] = b[2][at];
    }
};

// Per-row sums of one scale: den, num (DLM), aim, three bands each, h rows per array.
struct Rows {
    unsigned long long *den[3], *num[3], *aim[3];
};

// a[q] for a thread-dependent q < 3, without indexing the parameter (which would copy it to
// local memory).
__device__ __forceinline__ unsigned long long *pick(unsigned long long *const (&a)[3], int q)
{
    return q == 0 ? a[0] : q == 1 ? a[1] : a[2];
}

__device__ __forceinline__ unsigned long long warp_sum(unsigned long long v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

// Sum N values over the block; thread q < N then holds total q (others: undefined).
template <int N>
__device__ void block_sums(unsigned long long (&v)[N])
{
    __shared__ unsigned long long part[THREADS / 32][N];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
    for (int q = 0; q < N; q++) {
        const unsigned long long t = warp_sum(v[q]);
        if (!lane)
            part[warp][q] = t;
    }
    __syncthreads();
    if (threadIdx.x < N) {
        unsigned long long t = 0;
        for (int k = 0; k < THREADS / 32; k++)
            t += part[k][threadIdx.x];
        v[0] = t;
    }
}

// ---- DWT and band ----

// The band stage at (i, j) of a scale whose bands there are o, t (band == 0: scale 0 under
// adm_skip_scale0, only the DWT): the masking sums inside the CSF rectangle; the row's
// denominator cubes, reduced over the block (one row) and added to the row's sum. Every
// thread of the block calls it (j >= w: no position).
__device__ void band_at(const AdmTwinScale &p, const int32_t *div_lookup, int i, int j,
                        const int32_t o[3], const int32_t t[3], uint32_t *flt_a, uint32_t *flt_r,
                        const Rows &rows)
{
    unsigned long long den[3] = { 0, 0, 0 };
    if (j < p.w) {
        const size_t at = (size_t)i * p.w + j;
        if (adm_twin_in_rect(&p.csf, i, j))
            adm_twin_band(&p, div_lookup, o, t, &flt_a[at], &flt_r[at]);
        if (adm_twin_in_rect(&p.cm, i, j))
            for (int b = 0; b < 3; b++)
                den[b] = adm_twin_den_cube(&p, o[b]);
    }
    if (i < p.cm.top || i >= p.cm.bottom)
        return; // the whole block: one row
    block_sums<3>(den);
    if (threadIdx.x < 3)
        atomicAdd(pick(rows.den, threadIdx.x) + i, den[0]);
}

// Scale 0 of both pictures from the luma at one band position per thread (one row per block):
// band a (int16: scale 1's input) and h, v, d of each; then the band stage.
__global__ void __launch_bounds__(THREADS)
    dwt0_kernel(const void *ref, const void *dis, ptrdiff_t stride, int bpc, AdmTwinScale p,
                int band, const int32_t *div_lookup, int16_t *low_ref, int16_t *low_dis, Bands o,
                Bands t, uint32_t *flt_a, uint32_t *flt_r, Rows rows)
{
    const int j = blockIdx.x * THREADS + threadIdx.x, i = blockIdx.y;
    int32_t vo[4] = { 0, 0, 0, 0 }, vt[4] = { 0, 0, 0, 0 };
    if (j < p.w) {
        adm_twin_dwt0(ref, stride, p.in_w, p.in_h, (unsigned)bpc, i, j, vo);
        adm_twin_dwt0(dis, stride, p.in_w, p.in_h, (unsigned)bpc, i, j, vt);
        const size_t at = (size_t)i * p.w + j;
        low_ref[at] = (int16_t)vo[0];
        low_dis[at] = (int16_t)vt[0];
        for (int b = 0; b < 3; b++) {
            o.b[b][at] = vo[1 + b];
            t.b[b][at] = vt[1 + b];
        }
    }
    if (band)
        band_at(p, div_lookup, i, j, vo + 1, vt + 1, flt_a, flt_r, rows);
}

// Scales 1..3 the same way, from the previous scale's band a (int16 at scale 1, else int32).
__global__ void __launch_bounds__(THREADS)
    dwt123_kernel(const void *in_ref, const void *in_dis, AdmTwinScale p, const int32_t *div_lookup,
                  int32_t *low_ref, int32_t *low_dis, Bands o, Bands t, uint32_t *flt_a,
                  uint32_t *flt_r, Rows rows)
{
    const int j = blockIdx.x * THREADS + threadIdx.x, i = blockIdx.y;
    int32_t vo[4] = { 0, 0, 0, 0 }, vt[4] = { 0, 0, 0, 0 };
    if (j < p.w) {
        adm_twin_dwt123(in_ref, p.in_w, p.in_h, p.scale, i, j, vo);
        adm_twin_dwt123(in_dis, p.in_w, p.in_h, p.scale, i, j, vt);
        const size_t at = (size_t)i * p.w + j;
        low_ref[at] = vo[0];
        low_dis[at] = vt[0];
        for (int b = 0; b < 3; b++) {
            o.b[b][at] = vo[1 + b];
            t.b[b][at] = vt[1 + b];
        }
    }
    band_at(p, div_lookup, i, j, vo + 1, vt + 1, flt_a, flt_r, rows);
}

// ---- contrast masking ----

__device__ void window_flt(const uint32_t *flt, const int rows[3], const int cols[3], int w,
                           uint32_t v[9])
{
#pragma unroll
    for (int rr = 0; rr < 3; rr++)
#pragma unroll
        for (int cc = 0; cc < 3; cc++)
            v[3 * rr + cc] = flt[(size_t)rows[rr] * w + cols[cc]];
}

__global__ void __launch_bounds__(THREADS)
    cm_kernel(AdmTwinScale p, const int32_t *div_lookup, Bands o, Bands t, const uint32_t *flt_a,
              const uint32_t *flt_r, Rows rows)
{
    const int j = blockIdx.x * THREADS + threadIdx.x, k = blockIdx.y;
    if (!adm_twin_visits(&p.rows, k))
        return; // the whole block: one row
    unsigned long long sums[6] = { 0, 0, 0, 0, 0, 0 };
    if (j < p.w && adm_twin_visits(&p.cols, j)) {
        const size_t at = (size_t)k * p.w + j;
        int32_t ov[3], tv[3];
        o.get(at, ov);
        t.get(at, tv);
        AdmTwinCentre c;
        adm_twin_centre(&p, div_lookup, ov, tv, &c);
        int wr[3], wc[3];
        adm_twin_window(k, j, p.w, p.h, wr, wc);
        uint32_t flt[9];
        int64_t cube[3];
        window_flt(flt_a, wr, wc, p.w, flt);
        adm_twin_cubes(&p, &c, 0, flt, cube);
        for (int b = 0; b < 3; b++)
            sums[b] = (unsigned long long)cube[b];
        if (!p.skip_aim) {
            window_flt(flt_r, wr, wc, p.w, flt);
            adm_twin_cubes(&p, &c, 1, flt, cube);
            for (int b = 0; b < 3; b++)
                sums[3 + b] = (unsigned long long)cube[b];
        }
    }
    block_sums<6>(sums);
    if (threadIdx.x < 3)
        atomicAdd(pick(rows.num, threadIdx.x) + k, sums[0]);
    else if (threadIdx.x < 6 && !p.skip_aim)
        atomicAdd(pick(rows.aim, threadIdx.x - 3) + k, sums[0]);
}

// ---- fold: one block ----

__global__ void __launch_bounds__(THREADS)
    fold_kernel(AdmTwinScale p, Rows rows, unsigned long long *totals)
{
    unsigned long long v[9] = { 0, 0, 0, 0, 0, 0, 0, 0, 0 };
    for (int i = threadIdx.x; i < p.h; i += THREADS) {
        if (i >= p.cm.top && i < p.cm.bottom)
            for (int b = 0; b < 3; b++)
                v[b] += adm_twin_fold_den(&p, rows.den[b][i]);
        if (adm_twin_visits(&p.rows, i))
            for (int b = 0; b < 3; b++) {
                v[3 + b] += (unsigned long long)adm_fold_row((int64_t)rows.num[b][i], p.cm_sr);
                v[6 + b] += (unsigned long long)adm_fold_row((int64_t)rows.aim[b][i], p.cm_sr);
            }
    }
    block_sums<9>(v);
    if (threadIdx.x < 9)
        totals[threadIdx.x] = v[0];
}

// ---- memory ----

// A worker's buffers. Bands and masking values are sized for scale 0 and reused by every
// scale (the stream runs the scales in order); each scale keeps its own band a.
struct Bufs {
    int16_t *low0[2];
    int32_t *low[4][2]; // scales 1..3
    Bands o, t;
    uint32_t *flt_a, *flt_r; // band-summed masking values of the two passes
    Rows rows[4];
    int32_t *div_lookup;
    unsigned long long *totals_dev;
    unsigned long long *host; // [0]: the table was uploaded; [1 ..]: 4 x 9 totals
};

Bands take_bands(char *dev, size_t &off, size_t n)
{
    Bands b;
    for (int k = 0; k < 3; k++)
        b.b[k] = ev_take<int32_t>(dev, off, n);
    return b;
}

void lay_out(const AdmState *s, char *dev, char *host, Bufs &b, size_t &dev_bytes,
             size_t &host_bytes)
{
    dev_bytes = host_bytes = 0;
    const size_t n0 = (size_t)s->geom[0].w * s->geom[0].h;
    for (int p = 0; p < 2; p++)
        b.low0[p] = ev_take<int16_t>(dev, dev_bytes, n0);
    for (int k = 1; k < 4; k++)
        for (int p = 0; p < 2; p++)
            b.low[k][p] = ev_take<int32_t>(dev, dev_bytes, (size_t)s->geom[k].w * s->geom[k].h);
    b.o = take_bands(dev, dev_bytes, n0);
    b.t = take_bands(dev, dev_bytes, n0);
    b.flt_a = ev_take<uint32_t>(dev, dev_bytes, n0);
    b.flt_r = ev_take<uint32_t>(dev, dev_bytes, n0);
    for (int k = 0; k < 4; k++)
        for (int q = 0; q < 3; q++) {
            const size_t h = (size_t)s->geom[k].h;
            b.rows[k].den[q] = ev_take<unsigned long long>(dev, dev_bytes, h);
            b.rows[k].num[q] = ev_take<unsigned long long>(dev, dev_bytes, h);
            b.rows[k].aim[q] = ev_take<unsigned long long>(dev, dev_bytes, h);
        }
    b.div_lookup = ev_take<int32_t>(dev, dev_bytes, 65537);
    b.totals_dev = ev_take<unsigned long long>(dev, dev_bytes, 36);
    b.host = ev_take<unsigned long long>(host, host_bytes, 37);
}

// The first byte and the length of the row sums, which lay_out puts in one run.
void rows_span(const Bufs &b, const AdmState *s, void **first, size_t *bytes)
{
    const char *a = reinterpret_cast<const char *>(b.rows[0].den[0]);
    const char *z = reinterpret_cast<const char *>(b.rows[3].aim[2] + s->geom[3].h);
    *first = const_cast<char *>(a);
    *bytes = (size_t)(z - a);
}

} // namespace

extern "C" EV_LAUNCH_FN(ev_adm_launch_cuda)
{
    return ev_kept_launch<AdmState, Bufs>(
        state, ref, ref, lay_out, [&](const AdmState *s, Bufs &b, cudaStream_t stream) {
            if (!b.host[0]) {
                cudaMemcpyAsync(b.div_lookup, s->div_lookup, 65537 * sizeof(int32_t),
                                cudaMemcpyHostToDevice, stream);
                b.host[0] = 1;
            }
            void *rows_first;
            size_t rows_bytes;
            rows_span(b, s, &rows_first, &rows_bytes);
            cudaMemsetAsync(rows_first, 0, rows_bytes, stream);
            cudaMemsetAsync(b.totals_dev, 0, 36 * sizeof(unsigned long long), stream);
            for (int scale = 0; scale < 4; scale++) {
                const AdmScaleGeom &g = s->geom[scale];
                const AdmTwinScale p = adm_twin_scale(s, scale);
                const dim3 grid(ev_blocks(g.w, THREADS), (unsigned)g.h);
                const int skipped = scale == 0 && s->opts.skip_scale0;
                if (scale == 0)
                    dwt0_kernel<<<grid, THREADS, 0, stream>>>(
                        ref->dev[0], dis->dev[0], ref->stride[0], (int)s->bpc, p, !skipped,
                        b.div_lookup, b.low0[0], b.low0[1], b.o, b.t, b.flt_a, b.flt_r, b.rows[0]);
                else
                    dwt123_kernel<<<grid, THREADS, 0, stream>>>(
                        scale == 1 ? (const void *)b.low0[0] : (const void *)b.low[scale - 1][0],
                        scale == 1 ? (const void *)b.low0[1] : (const void *)b.low[scale - 1][1], p,
                        b.div_lookup, b.low[scale][0], b.low[scale][1], b.o, b.t, b.flt_a, b.flt_r,
                        b.rows[scale]);
                if (skipped)
                    continue;
                cm_kernel<<<grid, THREADS, 0, stream>>>(p, b.div_lookup, b.o, b.t, b.flt_a, b.flt_r,
                                                        b.rows[scale]);
                fold_kernel<<<1, THREADS, 0, stream>>>(p, b.rows[scale], b.totals_dev + 9 * scale);
            }
            cudaMemcpyAsync(b.host + 1, b.totals_dev, 36 * sizeof(unsigned long long),
                            cudaMemcpyDeviceToHost, stream);
            return 0;
        });
}

extern "C" EV_EXTRACT_FN(ev_adm_extract_cuda)
{
    return ev_kept_extract<AdmState, Bufs>(
        state, ref, "adm", lay_out, [&](const AdmState *s, Bufs &b) {
            AdmScaleScore sc[4];
            for (int scale = 0; scale < 4; scale++) {
                if (scale == 0 && s->opts.skip_scale0) {
                    sc[0] = adm_skipped_scale0();
                    continue;
                }
                const unsigned long long *v = b.host + 1 + 9 * scale;
                AdmScaleSums sums;
                for (int q = 0; q < 3; q++) {
                    sums.den[q] = v[q];
                    sums.num[q] = (int64_t)v[3 + q];
                    sums.aim[q] = (int64_t)v[6 + q];
                }
                const AdmScaleShifts x = adm_scale_shifts(s, scale);
                sc[scale] = adm_scale_score(s, scale, &x, &sums);
            }
            return ev_adm_emit(s, sc, frame, sink);
        });
}
