// CUDA twin of vif (vif.c, vif_scale.c beside this file: integer_vif's four scales).
//
// Per frame, on the worker's stream, for each scale: the statistic (a tile of outputs per
// block: the input tile and its reflected margins staged in shared memory, the vertical
// results of the tile's rows at its columns and margins, then the horizontal pass and
// vif_pixel_stat per output; the four int64 totals reduced in the block and added to the
// scale's totals: integers, any order), and the next scale's images (the same tiling, at even
// rows and columns). The steps are vif_twin.h's,
// the host runs the same ones in tests/unit/vif_twin_test.c. One copy of the 16 totals back;
// num, den and the scores on the host, as vif.c.
#include <cerrno>

#include <cuda_runtime.h>

#include "cuda/kept.cuh"
#include "cuda/runtime.h"
#include "features/vif/vif.h"
#include "features/vif/vif_twin.h"

namespace
{

constexpr int THREADS = 256;
constexpr int TX = 64, TY = THREADS / TX; // a block's threads as TY rows of TX
// vif_math.h's filters in constant memory: a tap is one broadcast read.
__constant__ uint16_t taps_dev[4][VIF_MAX_TAPS] = VIF_TAPS_INIT;
constexpr int TW = 64, TH = 16; // outputs per tile

__device__ __forceinline__ unsigned long long warp_sum(unsigned long long v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

// Add the block's four totals to out[0..3] (two's complement: int64 sums as uint64).
__device__ void add_block_sums(const VifSums &s, unsigned long long *out)
{
    __shared__ unsigned long long part[THREADS / 32][4];
    unsigned long long v[4] = { (unsigned long long)s.num_log, (unsigned long long)s.den_log,
                                (unsigned long long)s.num_non_log,
                                (unsigned long long)s.den_non_log };
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
    for (int q = 0; q < 4; q++) {
        v[q] = warp_sum(v[q]);
        if (!lane)
            part[warp][q] = v[q];
    }
    __syncthreads();
    if (threadIdx.x < 4) {
        unsigned long long t = 0;
        for (int k = 0; k < THREADS / 32; k++)
            t += part[k][threadIdx.x];
        atomicAdd(out + threadIdx.x, t);
    }
}

// Scale `scale`'s filter on the device, its length N a constant.
template <int N>
__device__ __forceinline__ VifFilter filter_of(int scale)
{
    VifFilter f;
    f.n = N;
    f.tap = taps_dev[scale];
    return f;
}

// Rows [y0, y0 + rows) and columns [x0, x0 + cols) of one or two planes (b may be nullptr),
// reflected, into da, db (pitch): thread (tx, ty) takes every TY-th row and every TX-th
// column; cols <= 2 * TW + 2 * VIF_MAX_RADIUS.
__device__ void stage(const VifTwinPlane &a, const VifTwinPlane *b, int y0, int rows, int x0,
                      int cols, uint16_t *da, uint16_t *db, int pitch)
{
    __shared__ int col_of[2 * TW + 2 * VIF_MAX_RADIUS];
    const int tx = threadIdx.x % TX, ty = threadIdx.x / TX;
    for (int s = threadIdx.x; s < cols; s += THREADS)
        col_of[s] = vif_reflect(x0 + s, a.w);
    __syncthreads();
    for (int q = ty; q < rows; q += TY) {
        const int y = vif_reflect(y0 + q, a.h);
        for (int s = tx; s < cols; s += TX) {
            da[q * pitch + s] = (uint16_t)vif_twin_sample(&a, y, col_of[s]);
            if (b)
                db[q * pitch + s] = (uint16_t)vif_twin_sample(b, y, col_of[s]);
        }
    }
    __syncthreads();
}

// The statistic of a TH x TW tile of outputs: the input tile with its reflected margins into
// shared memory, the vertical results of the tile's rows at its columns and margins, then
// each output's horizontal pass and vif_pixel_stat; the block's four totals added to the
// scale's. N: the scale's taps; NARROW: 8-bit scale 0 (uint32 second moments).
template <int N, bool NARROW>
__global__ void __launch_bounds__(THREADS, 6)
    stat_kernel(VifTwinPlane ref, VifTwinPlane dis, int scale, VifShifts sh,
                const uint16_t *log2_table, double egl, unsigned long long *totals)
{
    constexpr int R = N / 2, SPAN = TW + 2 * R, ROWS = TH + 2 * R;
    __shared__ uint16_t in_x[ROWS * SPAN], in_y[ROWS * SPAN];
    __shared__ VifVert tile[TH * SPAN];
    const VifFilter f = filter_of<N>(scale);
    const int tx = threadIdx.x % TX, ty = threadIdx.x / TX;
    const int i0 = blockIdx.y * TH, j0 = blockIdx.x * TW;
    const int rows = min(TH, ref.h - i0), cols = min(TW, ref.w - j0), span = cols + 2 * R;
    stage(ref, &dis, i0 - R, rows + 2 * R, j0 - R, span, in_x, in_y, SPAN);
    for (int q = ty; q < rows; q += TY)
        for (int s = tx; s < span; s += TX)
            tile[q * SPAN + s] = vif_twin_stat_vert_taps(in_x + q * SPAN + s, in_y + q * SPAN + s,
                                                         SPAN, &f, sh, NARROW);
    __syncthreads();
    VifSums acc = { 0, 0, 0, 0 };
    for (int q = ty; q < rows; q += TY)
        for (int x = tx; x < cols; x += TX)
            vif_twin_stat_horiz(&acc, tile + q * SPAN + x, &f, log2_table, egl);
    add_block_sums(acc, totals);
}

// The next scale of ref or dis (blockIdx.z), w_out x h_out, a TH x TW tile of outputs: the
// input rows and columns around the tile's even ones staged, the vertical results at every
// staged column of each output row, then the horizontal pass at the even columns.
template <int N>
__global__ void __launch_bounds__(THREADS)
    down_kernel(VifTwinPlane ref, VifTwinPlane dis, int filter, unsigned shift, uint16_t *out_ref,
                uint16_t *out_dis, int w_out, int h_out)
{
    constexpr int R = N / 2, SPAN = 2 * TW + 2 * R - 1, ROWS = 2 * TH + 2 * R - 1;
    __shared__ uint16_t in[ROWS * SPAN];
    __shared__ uint32_t tile[TH * SPAN];
    const VifFilter f = filter_of<N>(filter);
    const VifTwinPlane p = blockIdx.z ? dis : ref;
    uint16_t *out = blockIdx.z ? out_dis : out_ref;
    const int tx = threadIdx.x % TX, ty = threadIdx.x / TX;
    const int k0 = blockIdx.y * TH, j0 = blockIdx.x * TW;
    const int rows = min(TH, h_out - k0), cols = min(TW, w_out - j0);
    const int span = 2 * cols + 2 * R - 1;
    stage(p, nullptr, 2 * k0 - R, 2 * rows + 2 * R - 1, 2 * j0 - R, span, in, nullptr, SPAN);
    for (int q = ty; q < rows; q += TY)
        for (int s = tx; s < span; s += TX)
            tile[q * SPAN + s] = vif_twin_down_vert_taps(in + 2 * q * SPAN + s, SPAN, &f, shift);
    __syncthreads();
    for (int q = ty; q < rows; q += TY)
        for (int x = tx; x < cols; x += TX)
            out[(size_t)(k0 + q) * w_out + j0 + x] =
                vif_twin_down_horiz(tile + q * SPAN + 2 * x, &f);
}

void launch_stat(int scale, bool narrow, dim3 grid, cudaStream_t stream, const VifTwinPlane &r,
                 const VifTwinPlane &d, VifShifts sh, const uint16_t *table, double egl,
                 unsigned long long *totals)
{
    const int f = scale;
    switch (scale) {
    case 0:
        if (narrow)
            stat_kernel<17, true><<<grid, THREADS, 0, stream>>>(r, d, f, sh, table, egl, totals);
        else
            stat_kernel<17, false><<<grid, THREADS, 0, stream>>>(r, d, f, sh, table, egl, totals);
        break;
    case 1:
        stat_kernel<9, false><<<grid, THREADS, 0, stream>>>(r, d, f, sh, table, egl, totals);
        break;
    case 2:
        stat_kernel<5, false><<<grid, THREADS, 0, stream>>>(r, d, f, sh, table, egl, totals);
        break;
    default:
        stat_kernel<3, false><<<grid, THREADS, 0, stream>>>(r, d, f, sh, table, egl, totals);
        break;
    }
}

// Decimation with the filter of scale `filter` (1..3).
void launch_down(int filter, dim3 grid, cudaStream_t stream, const VifTwinPlane &r,
                 const VifTwinPlane &d, unsigned shift, uint16_t *out_r, uint16_t *out_d, int w_out,
                 int h_out)
{
    const int f = filter;
    switch (filter) {
    case 1:
        down_kernel<9><<<grid, THREADS, 0, stream>>>(r, d, f, shift, out_r, out_d, w_out, h_out);
        break;
    case 2:
        down_kernel<5><<<grid, THREADS, 0, stream>>>(r, d, f, shift, out_r, out_d, w_out, h_out);
        break;
    default:
        down_kernel<3><<<grid, THREADS, 0, stream>>>(r, d, f, shift, out_r, out_d, w_out, h_out);
        break;
    }
}

// ---- memory -----------------------------------------------------------------------------------

// A worker's buffers: scales 1..3 of both pictures, the log2 table, the totals (4 per scale).
// The device totals: four per scale, then the over-depth flag (over_depth_kernel).
constexpr int TOTALS = 17, OVER_DEPTH = 16;

struct Bufs {
    uint16_t *img[4][2];
    uint16_t *log2_table;
    unsigned long long *totals_dev;
    unsigned long long *host; // [0]: the table was uploaded; [1 ..]: the totals
};

// Sets *flag when a luma sample of either picture exceeds the depth (an OR of every sample:
// a bit at or above bpc): the frame is then the host C reference's (vif.c), since the
// statistic's integer widths assume the depth's range. Only for 9..15 bits.
__global__ void over_depth_kernel(const uint16_t *ref, const uint16_t *dis, ptrdiff_t stride, int w,
                                  int h, unsigned bpc, unsigned long long *flag)
{
    unsigned acc = 0;
    for (int y = blockIdx.y; y < h; y += gridDim.y) {
        const uint16_t *r = reinterpret_cast<const uint16_t *>(reinterpret_cast<const char *>(ref) +
                                                               (ptrdiff_t)y * stride);
        const uint16_t *d = reinterpret_cast<const uint16_t *>(reinterpret_cast<const char *>(dis) +
                                                               (ptrdiff_t)y * stride);
        for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < w; x += gridDim.x * blockDim.x)
            acc |= (unsigned)r[x] | d[x];
    }
    for (int o = 16; o > 0; o >>= 1)
        acc |= __shfl_down_sync(0xffffffffu, acc, o);
    if (!(threadIdx.x & 31) && (acc >> bpc))
        atomicOr(flag, 1ull);
}

void lay_out(const VifState *s, char *dev, char *host, Bufs &b, size_t &dev_bytes,
             size_t &host_bytes)
{
    dev_bytes = host_bytes = 0;
    for (int k = 1; k < 4; k++)
        for (int p = 0; p < 2; p++)
            b.img[k][p] =
                ev_take<uint16_t>(dev, dev_bytes, (size_t)(s->w >> k) * (size_t)(s->h >> k));
    b.log2_table = ev_take<uint16_t>(dev, dev_bytes, VIF_LOG2_TABLE_PADDED);
    b.totals_dev = ev_take<unsigned long long>(dev, dev_bytes, TOTALS);
    b.host = ev_take<unsigned long long>(host, host_bytes, 1 + TOTALS);
}

} // namespace

extern "C" EV_LAUNCH_FN(ev_vif_launch_cuda)
{
    return ev_kept_launch<VifState, Bufs>(
        state, ref, ref, lay_out, [&](const VifState *s, Bufs &b, cudaStream_t stream) {
            if (!b.host[0]) {
                cudaMemcpyAsync(b.log2_table, s->log2_table, sizeof(s->log2_table),
                                cudaMemcpyHostToDevice, stream);
                b.host[0] = 1;
            }
            cudaMemsetAsync(b.totals_dev, 0, TOTALS * sizeof(unsigned long long), stream);
            if (s->bpc > 8 && s->bpc < 16) {
                const dim3 grid(ev_blocks(s->w, 8 * THREADS), (unsigned)(s->h < 512 ? s->h : 512));
                over_depth_kernel<<<grid, THREADS, 0, stream>>>(
                    static_cast<const uint16_t *>(ref->dev[0]),
                    static_cast<const uint16_t *>(dis->dev[0]), ref->stride[0], s->w, s->h, s->bpc,
                    b.totals_dev + OVER_DEPTH);
            }
            VifTwinPlane r = { ref->dev[0], ref->stride[0], s->w, s->h, s->bpc == 8 };
            VifTwinPlane d = { dis->dev[0], dis->stride[0], s->w, s->h, s->bpc == 8 };
            for (int scale = 0; scale < 4; scale++) {
                if (scale > 0 || !s->opts.skip_scale0) {
                    const VifShifts sh = vif_shifts(scale, s->bpc);
                    launch_stat(scale, sh.sq_shift == 0,
                                dim3(ev_blocks(r.w, TW), ev_blocks(r.h, TH)), stream, r, d, sh,
                                b.log2_table, s->opts.enhn_gain_limit, b.totals_dev + 4 * scale);
                }
                if (scale == 3)
                    break;
                const int w_out = r.w / 2, h_out = r.h / 2;
                launch_down(scale + 1, dim3(ev_blocks(w_out, TW), ev_blocks(h_out, TH), 2), stream,
                            r, d, vif_shifts(scale, s->bpc).mu_shift, b.img[scale + 1][0],
                            b.img[scale + 1][1], w_out, h_out);
                const ptrdiff_t stride = (ptrdiff_t)w_out * (ptrdiff_t)sizeof(uint16_t);
                r = VifTwinPlane{ b.img[scale + 1][0], stride, w_out, h_out, 0 };
                d = VifTwinPlane{ b.img[scale + 1][1], stride, w_out, h_out, 0 };
            }
            cudaMemcpyAsync(b.host + 1, b.totals_dev, TOTALS * sizeof(unsigned long long),
                            cudaMemcpyDeviceToHost, stream);
            return 0;
        });
}

extern "C" EV_EXTRACT_FN(ev_vif_extract_cuda)
{
    return ev_kept_extract<VifState, Bufs>(
        state, ref, "vif", lay_out, [&](const VifState *s, Bufs &b) {
            if (b.host[1 + OVER_DEPTH]) // a sample above the depth: the CPU's own path (vif.c)
                return ev_vif_extract_reference(s, scratch, ref, dis, frame, sink);
            VifScaleScores v = {};
            v.skip_scale0 = s->opts.skip_scale0;
            for (int scale = 0; scale < 4; scale++) {
                if (scale == 0 && s->opts.skip_scale0)
                    continue;
                const unsigned long long *t = b.host + 1 + 4 * scale;
                const VifSums sums = { (int64_t)t[0], (int64_t)t[1], (int64_t)t[2], (int64_t)t[3] };
                ev_vif_scale_result(&v, scale, &sums);
            }
            return ev_vif_emit(s, &v, frame, sink);
        });
}
