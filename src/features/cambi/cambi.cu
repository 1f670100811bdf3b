// CUDA twin of cambi (cambi.c, cambi_frame.c, cambi_pool.c beside this file): each picture's
// five scales on the worker's stream, the per-frame values back in one copy.
//
// Per picture: the range check of 9..15-bit luma (the first offending sample in raster order:
// an atomic minimum of its index), the 10-bit resampled image with anti-dithering, the
// zero-derivative flags and their 7x7 counts (the mask, at scale 0's grid), then per scale the
// mode filter and band codes of the previous scale's image read at even rows and columns
// (cambi_twin.h: one output per thread, the reference's steps), the contrast values of every
// scale in one launch, and the pooling's sums. Everything up to the contrast values is integer;
// the window histogram counts are box counts (integers, any order: c_kernel); each value is
// cambi_c_value_of, the reference's float steps in its order. The pooling gathers what
// cambi_topk_exact needs (cambi_pool.c proves it: value units and counts are integers, the
// k-th largest value is found by a radix selection on the float bits), and the host decides
// exactly as the CPU does; where the CPU would reproduce libvmaf's order (a sum of 2^53 units
// or more, a value not of the proven form) the twin copies that scale's values back and runs
// the CPU's selection. Heatmaps are written on the host from copies of the values.
#include <cerrno>

#include <cuda_runtime.h>

#include "cuda/kept.cuh"
#include "cuda/runtime.h"
#include "features/cambi/cambi_internal.h"
#include "features/cambi/cambi_twin.h"

extern "C" int ev_cambi_twin_emit(const CambiState *s, unsigned frame, double dis_score,
                                  double src_score, EvSink *sink);

namespace
{

constexpr int NS = CAMBI_NUM_SCALES;
constexpr int TW = 128;                       // c_kernel: output columns (and threads) of a block
constexpr int TH = 32;                        // c_kernel: output rows of a block
constexpr int V_BYTES = 40 * 1024;            // c_kernel: the window counts' shared memory
constexpr unsigned BIN_A0 = 0x3F00u;          // the high 16 bits of 0.5f
constexpr unsigned BINS_A = 0x4680u - BIN_A0; // ... up to those of 16384.0f (exclusive)
constexpr int POOL_THREADS = 256;
constexpr int POOL_BLOCKS = 64; // per scale
constexpr unsigned NO_BIN = 0xffffffffu;

// ---- what one picture's work leaves on the device ----------------------------------------------

struct ScaleTotals {
    unsigned long long units; // sum of the values' units (2^-24)
    unsigned nonzero, irregular;
    unsigned long long above_units; // of the values above the k-th largest
    unsigned above, kth;            // their count; the k-th largest value's bits
    unsigned sel, left;             // the selection's prefix bits so far, and k left in them
};

struct PicResult {
    ScaleTotals s[NS];
    unsigned long long range_key; // ~(index << 16 | sample) of the first sample out of range
};

struct ScaleHist {
    unsigned a[BINS_A], b[256], c[256];
};

struct PicPool { // zeroed before each picture
    PicResult r;
    ScaleHist h[NS];
};

struct Scale {
    unsigned w, h;
};

// The scale sizes of a picture scored at g.
void scale_sizes(const CambiGeometry *g, int speedup, Scale *out)
{
    unsigned w = g->w, h = g->h;
    for (int s = 0; s < NS; s++) {
        if (s > 0 || speedup) {
            w = (w + 1) >> 1;
            h = (h + 1) >> 1;
        }
        out[s] = { w, h };
    }
}

// ---- preprocessing and mask ----------------------------------------------------------------------

__global__ void range_kernel(const char *plane, ptrdiff_t stride, unsigned w, unsigned h,
                             unsigned max, unsigned long long *key)
{
    const unsigned j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (j >= w)
        return;
    const unsigned v = reinterpret_cast<const uint16_t *>(plane + (ptrdiff_t)i * stride)[j];
    if (v > max)
        atomicMax(key, ~(((unsigned long long)i * w + j) << 16 | v));
}

__device__ __forceinline__ uint16_t load_10b(const char *plane, ptrdiff_t stride, unsigned bpc,
                                             unsigned y, unsigned x)
{
    const char *row = plane + (ptrdiff_t)y * stride;
    const uint32_t v = bpc == 8 ? reinterpret_cast<const uint8_t *>(row)[x]
                                : reinterpret_cast<const uint16_t *>(row)[x];
    return cambi_to_10b(v, bpc);
}

// The 10-bit image at the scored size (nearest-neighbour source rows and columns), with
// anti-dithering for encodes below 10 bits.
__global__ void load_kernel(const char *plane, ptrdiff_t stride, unsigned bpc,
                            const unsigned *col_src, const unsigned *row_src, unsigned w,
                            unsigned h, int anti_dither, uint16_t *image)
{
    const unsigned j = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned i = blockIdx.y * blockDim.y + threadIdx.y;
    if (j >= w || i >= h)
        return;
    const unsigned y0 = row_src[i], x0 = col_src[j];
    const uint16_t x00 = load_10b(plane, stride, bpc, y0, x0);
    uint16_t v = x00;
    if (anti_dither) {
        const int right = j + 1 < w, down = i + 1 < h;
        const unsigned x1 = right ? col_src[j + 1] : x0, y1 = down ? row_src[i + 1] : y0;
        const uint16_t x01 = right ? load_10b(plane, stride, bpc, y0, x1) : x00;
        const uint16_t x10 = down ? load_10b(plane, stride, bpc, y1, x0) : x00;
        const uint16_t x11 = right && down ? load_10b(plane, stride, bpc, y1, x1) : x00;
        v = cambi_anti_dither_at(x00, x01, x10, x11, i, j, w, h);
    }
    image[(size_t)i * w + j] = v;
}

__global__ void flat_kernel(const uint16_t *x, unsigned w, unsigned h, uint8_t *flat)
{
    const unsigned j = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned i = blockIdx.y * blockDim.y + threadIdx.y;
    if (j >= w || i >= h)
        return;
    const uint16_t *row = x + (size_t)i * w;
    const uint16_t *below = i + 1 < h ? row + w : row;
    const uint16_t right = j + 1 < w ? row[j + 1] : row[j];
    flat[(size_t)i * w + j] = (uint8_t)cambi_flat(row[j], right, below[j]);
}

// The mask at scale 0's grid (every step-th row and column of the full-size one): more than
// threshold flags in the 7x7 around (the frame's outside counts nothing).
__global__ void mask_kernel(const uint8_t *flat, unsigned w, unsigned h, unsigned step, unsigned w0,
                            unsigned h0, unsigned threshold, uint8_t *mask)
{
    const unsigned j0 = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned i0 = blockIdx.y * blockDim.y + threadIdx.y;
    if (j0 >= w0 || i0 >= h0)
        return;
    const int r = CAMBI_MASK_FILTER / 2, y = (int)(i0 * step), x = (int)(j0 * step);
    unsigned count = 0;
    for (int dy = -r; dy <= r; dy++) {
        if (y + dy < 0 || y + dy >= (int)h)
            continue;
        const uint8_t *row = flat + (size_t)(y + dy) * w;
        for (int dx = -r; dx <= r; dx++)
            if (x + dx >= 0 && x + dx < (int)w)
                count += row[x + dx];
    }
    mask[(size_t)i0 * w0 + j0] = count > threshold;
}

// One scale's filtered image and band codes (its mask: scale 0's at every mask_step-th).
__global__ void mode_kernel(CambiScaleIn in, const uint8_t *mask0, unsigned w0, unsigned mask_step,
                            unsigned band_lo, unsigned band_n, uint16_t *filtered, uint16_t *codes)
{
    const unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned r = blockIdx.y * blockDim.y + threadIdx.y;
    if (c >= in.w || r >= in.h)
        return;
    const uint16_t v = cambi_mode_filter_at(&in, r, c);
    const size_t at = (size_t)r * in.w + c;
    filtered[at] = v;
    codes[at] = cambi_band_code(v, mask0[(size_t)r * mask_step * w0 + (size_t)c * mask_step],
                                band_lo, band_n);
}

// ---- contrast values ---------------------------------------------------------------------------

struct CScale {
    const uint16_t *codes;
    float *c;
    unsigned w, h, strips, first_block;
};

struct CArgs {
    CScale s[NS];
    const CambiTables *t;
    ScaleTotals *tot;   // per scale
    int pad, span, cap; // window radius; counts' row length and codes held
};

__device__ __forceinline__ void block_min_max(unsigned &lo, unsigned &hi)
{
    __shared__ unsigned s_lo, s_hi;
    if (threadIdx.x == 0) {
        s_lo = 0xffffffffu;
        s_hi = 0;
    }
    __syncthreads();
    atomicMin(&s_lo, lo);
    atomicMax(&s_hi, hi);
    __syncthreads();
    lo = s_lo;
    hi = s_hi;
}

// A block's totals added to the scale's.
__device__ void add_totals(ScaleTotals *tot, unsigned long long units, unsigned nonzero,
                           unsigned irregular)
{
    for (int o = 16; o > 0; o >>= 1) {
        units += __shfl_down_sync(0xffffffffu, units, o);
        nonzero += __shfl_down_sync(0xffffffffu, nonzero, o);
        irregular |= __shfl_down_sync(0xffffffffu, irregular, o);
    }
    if ((threadIdx.x & 31) == 0 && (units || nonzero || irregular)) {
        atomicAdd(&tot->units, units);
        atomicAdd(&tot->nonzero, nonzero);
        if (irregular)
            atomicOr(&tot->irregular, 1u);
    }
}

// The contrast values of a TH x TW tile of one scale (cambi_twin.h's CambiTile: the vertical
// counts of the codes held in shared memory, slid down row by row, a pixel's window counts
// summed from them; box counts, the reference's hist). The phases between the barriers are
// cambi_twin.h's; the host runs the same loop in tests/unit/cambi_twin_test.c. ND: num_diffs.
template <int ND>
__global__ void __launch_bounds__(TW) c_kernel(CArgs a)
{
    extern __shared__ __align__(16) uint8_t vcount[];
    int sc = 0;
    while (sc + 1 < NS && blockIdx.x >= a.s[sc + 1].first_block)
        sc++;
    const CScale &S = a.s[sc];
    const unsigned b = blockIdx.x - S.first_block;
    CambiTile tile;
    tile.codes = S.codes;
    tile.c = S.c;
    tile.w = (int)S.w;
    tile.h = (int)S.h;
    tile.j0 = (int)(b % S.strips) * TW;
    tile.i0 = (int)(b / S.strips) * TH;
    tile.i_end = min(tile.i0 + TH, tile.h);
    tile.threads = TW;
    tile.pad = a.pad;
    tile.span = a.span;
    tile.cap = a.cap;
    const int t = threadIdx.x;
    unsigned lo = 0xffffu, hi = 0;
    cambi_tile_code_range(&tile, t, &lo, &hi);
    block_min_max(lo, hi);
    CambiTileSums sums = { 0, 0, 0 };
    if (lo > hi) { // nothing counted: every value is 0 (v is not read)
        for (int i = tile.i0; i < tile.i_end; i++)
            cambi_tile_query(&tile, vcount, a.t, ND, lo, hi, 0, t, i, &sums);
        return;
    }
    const int passes = cambi_tile_passes(lo, hi, tile.cap, ND);
    for (int q = 0; q < passes; q++) {
        const int base = (int)lo + q * cambi_tile_step(tile.cap, ND);
        for (int k = t; k < tile.cap * tile.span / 16; k += TW)
            reinterpret_cast<uint4 *>(vcount)[k] = make_uint4(0, 0, 0, 0);
        __syncthreads();
        for (int r = cambi_tile_row_lo(&tile); r < min(tile.h, tile.i0 + tile.pad); r++)
            cambi_tile_slide(&tile, vcount, base, t, r, 1);
        for (int i = tile.i0; i < tile.i_end; i++) {
            if (i + tile.pad < tile.h)
                cambi_tile_slide(&tile, vcount, base, t, i + tile.pad, 1);
            if (i > tile.i0 && i - tile.pad - 1 >= 0)
                cambi_tile_slide(&tile, vcount, base, t, i - tile.pad - 1, -1);
            __syncthreads();
            cambi_tile_query(&tile, vcount, a.t, ND, lo, hi, q, t, i, &sums);
            __syncthreads();
        }
    }
    add_totals(a.tot + sc, sums.units, sums.nonzero, sums.irregular);
}

// ---- pooling: the k-th largest value by a radix selection on its bits -------------------------

struct PoolArgs {
    const float *c[NS];
    unsigned n[NS], k[NS];
    PicPool *pool;
};

// The scale selects (more than k values not 0, all of the proven form).
__device__ __forceinline__ bool selects(const PoolArgs &a, int s)
{
    const ScaleTotals &t = a.pool->r.s[s];
    return !t.irregular && t.nonzero > a.k[s];
}

__device__ __forceinline__ unsigned bits_of(float v)
{
    return __float_as_uint(v);
}

// Pass `pass` (0: the high 16 bits, as bins from 0.5f's; 1: bits 15..8 of the values with the
// high bits chosen; 2: bits 7..0 of those with bits 31..8 chosen), one histogram per scale
// (blockIdx.y), counted in shared memory first.
__global__ void __launch_bounds__(POOL_THREADS) hist_kernel(PoolArgs a, int pass)
{
    const int s = blockIdx.y;
    if (!selects(a, s))
        return;
    __shared__ unsigned hist[BINS_A];
    const unsigned bins = pass ? 256 : BINS_A, sel = a.pool->r.s[s].sel;
    for (unsigned k = threadIdx.x; k < bins; k += POOL_THREADS)
        hist[k] = 0;
    __syncthreads();
    const float *c = a.c[s];
    const unsigned lane = threadIdx.x & 31, n = a.n[s];
    // warp by warp (i0 the same in a warp): lanes with the same bin add once, by their count
    // (banded pictures have long runs of equal values)
    for (unsigned i0 = blockIdx.x * POOL_THREADS + (threadIdx.x & ~31u); i0 < n;
         i0 += gridDim.x * POOL_THREADS) {
        const unsigned i = i0 + lane, v = i < n ? bits_of(c[i]) : 0;
        // (0 never matches sel: sel holds the high bits of a value >= 0.5f)
        unsigned bin;
        if (pass == 0)
            bin = v ? (v >> 16) - BIN_A0 : NO_BIN; // regular: 0.5f <= value < 16384.0f
        else if (pass == 1)
            bin = v >> 16 == sel ? (v >> 8) & 0xff : NO_BIN;
        else
            bin = v >> 8 == sel ? v & 0xff : NO_BIN;
        const unsigned peers = __match_any_sync(0xffffffffu, bin);
        if (bin != NO_BIN && lane == (unsigned)__ffs(peers) - 1)
            atomicAdd(&hist[bin], (unsigned)__popc(peers));
    }
    __syncthreads();
    ScaleHist &g = a.pool->h[s];
    unsigned *out = pass == 0 ? g.a : pass == 1 ? g.b : g.c;
    for (unsigned k = threadIdx.x; k < bins; k += POOL_THREADS)
        if (hist[k])
            atomicAdd(&out[k], hist[k]);
}

// The bin of pass `pass` that holds the k-th largest (counting from the top bin, as
// kth_largest_bits), one block per scale: sel gains its bits, left what remains of k.
__global__ void __launch_bounds__(POOL_THREADS) find_kernel(PoolArgs a, int pass)
{
    const int s = blockIdx.x;
    if (!selects(a, s))
        return;
    ScaleTotals &t = a.pool->r.s[s];
    const ScaleHist &g = a.pool->h[s];
    const unsigned *hist = pass == 0 ? g.a : pass == 1 ? g.b : g.c;
    const unsigned bins = pass ? 256 : BINS_A;
    const unsigned per = (bins + POOL_THREADS - 1) / POOL_THREADS;
    __shared__ unsigned part[POOL_THREADS];
    unsigned sum = 0;
    for (unsigned k = threadIdx.x * per; k < min(bins, (threadIdx.x + 1) * per); k++)
        sum += hist[k];
    part[threadIdx.x] = sum;
    __syncthreads();
    if (threadIdx.x != 0)
        return;
    unsigned left = pass == 0 ? a.k[s] : t.left;
    int chunk = POOL_THREADS - 1;
    while (part[chunk] < left)
        left -= part[chunk--];
    unsigned bin = min(bins, (unsigned)(chunk + 1) * per) - 1;
    while (hist[bin] < left)
        left -= hist[bin--];
    t.left = left;
    if (pass == 0)
        t.sel = bin + BIN_A0;
    else if (pass == 1)
        t.sel = t.sel << 8 | bin;
    else
        t.kth = t.sel << 8 | bin;
}

// The count and unit sum of the values above the k-th largest.
__global__ void __launch_bounds__(POOL_THREADS) above_kernel(PoolArgs a)
{
    const int s = blockIdx.y;
    if (!selects(a, s))
        return;
    ScaleTotals &t = a.pool->r.s[s];
    const unsigned kth = t.kth;
    const float *c = a.c[s];
    unsigned long long units = 0;
    unsigned above = 0;
    for (unsigned i = blockIdx.x * POOL_THREADS + threadIdx.x; i < a.n[s];
         i += gridDim.x * POOL_THREADS) {
        const float v = c[i];
        if (bits_of(v) > kth) {
            units += cambi_value_units(v);
            above++;
        }
    }
    for (int o = 16; o > 0; o >>= 1) {
        units += __shfl_down_sync(0xffffffffu, units, o);
        above += __shfl_down_sync(0xffffffffu, above, o);
    }
    if ((threadIdx.x & 31) == 0 && above) {
        atomicAdd(&t.above_units, units);
        atomicAdd(&t.above, above);
    }
}

// ---- memory ------------------------------------------------------------------------------------

struct PicBufs {
    uint16_t *image;
    uint8_t *flat, *mask;
    uint16_t *filtered[NS], *codes[NS];
    float *c[NS];
    unsigned *col_src, *row_src;
    PicPool *pool;
    PicResult *result; // pinned host
};

struct Bufs {
    PicBufs pic[2]; // distorted, source (full_ref)
    CambiTables *tables;
    unsigned *uploaded; // pinned host: the tables and indices are on the device
};

void lay_out_pic(const CambiState *s, const CambiGeometry *g, char *dev, char *host, PicBufs &p,
                 size_t &dev_bytes, size_t &host_bytes)
{
    Scale sz[NS];
    scale_sizes(g, s->speedup, sz);
    const size_t px = (size_t)g->w * g->h;
    p.image = ev_take<uint16_t>(dev, dev_bytes, px);
    p.flat = ev_take<uint8_t>(dev, dev_bytes, px);
    p.mask = ev_take<uint8_t>(dev, dev_bytes, (size_t)sz[0].w * sz[0].h);
    for (int k = 0; k < NS; k++) {
        const size_t n = (size_t)sz[k].w * sz[k].h;
        p.filtered[k] = ev_take<uint16_t>(dev, dev_bytes, n);
        p.codes[k] = ev_take<uint16_t>(dev, dev_bytes, n);
        p.c[k] = ev_take<float>(dev, dev_bytes, n);
    }
    p.col_src = ev_take<unsigned>(dev, dev_bytes, g->w);
    p.row_src = ev_take<unsigned>(dev, dev_bytes, g->h);
    p.pool = ev_take<PicPool>(dev, dev_bytes, 1);
    p.result = ev_take<PicResult>(host, host_bytes, 1);
}

void lay_out(const CambiState *s, char *dev, char *host, Bufs &b, size_t &dev_bytes,
             size_t &host_bytes)
{
    dev_bytes = host_bytes = 0;
    lay_out_pic(s, &s->dis, dev, host, b.pic[0], dev_bytes, host_bytes);
    if (s->opts.full_ref)
        lay_out_pic(s, &s->src, dev, host, b.pic[1], dev_bytes, host_bytes);
    b.tables = ev_take<CambiTables>(dev, dev_bytes, 1);
    b.uploaded = ev_take<unsigned>(host, host_bytes, 1);
}

dim3 grid2(unsigned w, unsigned h, dim3 block)
{
    return dim3(ev_blocks((int)w, (int)block.x), ev_blocks((int)h, (int)block.y));
}

// Contrast values of every scale of one picture: one launch, the kernel for num_diffs.
void launch_c(const CambiState *s, const CambiGeometry *g, const PicBufs &p,
              const CambiTables *tables, const Scale *sz, cudaStream_t stream)
{
    CArgs a = {};
    a.t = tables;
    a.tot = p.pool->r.s;
    a.pad = (int)(g->window >> 1);
    a.span = cambi_tile_span(TW, a.pad);
    const int nd = s->tables->num_diffs;
    a.cap = cambi_tile_cap(V_BYTES, a.span, s->tables->band_n, nd);
    unsigned blocks = 0;
    for (int k = 0; k < NS; k++) {
        a.s[k] = { p.codes[k], p.c[k], sz[k].w, sz[k].h, (unsigned)ev_blocks((int)sz[k].w, TW),
                   blocks };
        blocks += a.s[k].strips * (unsigned)ev_blocks((int)sz[k].h, TH);
    }
    const size_t smem = (size_t)a.cap * a.span;
    switch (nd) {
    case 1: c_kernel<1><<<blocks, TW, smem, stream>>>(a); break;
    case 2: c_kernel<2><<<blocks, TW, smem, stream>>>(a); break;
    case 4: c_kernel<4><<<blocks, TW, smem, stream>>>(a); break;
    case 8: c_kernel<8><<<blocks, TW, smem, stream>>>(a); break;
    case 16: c_kernel<16><<<blocks, TW, smem, stream>>>(a); break;
    default: c_kernel<32><<<blocks, TW, smem, stream>>>(a); break;
    }
}

void launch_pool(const CambiState *s, const PicBufs &p, const Scale *sz, cudaStream_t stream)
{
    PoolArgs a = {};
    for (int k = 0; k < NS; k++) {
        a.c[k] = p.c[k];
        a.n[k] = sz[k].w * sz[k].h;
        a.k[k] = (unsigned)cambi_topk_count(s->topk, (int)a.n[k]);
    }
    a.pool = p.pool;
    for (int pass = 0; pass < 3; pass++) {
        hist_kernel<<<dim3(POOL_BLOCKS, NS), POOL_THREADS, 0, stream>>>(a, pass);
        find_kernel<<<NS, POOL_THREADS, 0, stream>>>(a, pass);
    }
    above_kernel<<<dim3(POOL_BLOCKS, NS), POOL_THREADS, 0, stream>>>(a);
}

// One picture's work: range check, image, mask, scales, contrast values, pooling, the copy.
void launch_picture(const CambiState *s, const CambiGeometry *g, unsigned mask_threshold,
                    const EvPic *pic, const PicBufs &p, const CambiTables *tables,
                    cudaStream_t stream)
{
    cudaMemsetAsync(p.pool, 0, sizeof(PicPool), stream);
    const char *plane = static_cast<const char *>(pic->dev[0]);
    if (pic->bpc > 8 && pic->bpc < 16)
        range_kernel<<<dim3(ev_blocks((int)pic->w[0], 256), pic->h[0]), 256, 0, stream>>>(
            plane, pic->stride[0], pic->w[0], pic->h[0], (1u << pic->bpc) - 1,
            &p.pool->r.range_key);
    const dim3 blk(32, 8);
    load_kernel<<<grid2(g->w, g->h, blk), blk, 0, stream>>>(plane, pic->stride[0], pic->bpc,
                                                            p.col_src, p.row_src, g->w, g->h,
                                                            s->enc_bitdepth < 10, p.image);
    flat_kernel<<<grid2(g->w, g->h, blk), blk, 0, stream>>>(p.image, g->w, g->h, p.flat);
    Scale sz[NS];
    scale_sizes(g, s->speedup, sz);
    mask_kernel<<<grid2(sz[0].w, sz[0].h, blk), blk, 0, stream>>>(
        p.flat, g->w, g->h, s->speedup ? 2 : 1, sz[0].w, sz[0].h, mask_threshold, p.mask);
    for (int k = 0; k < NS; k++) {
        CambiScaleIn in;
        in.src = k ? p.filtered[k - 1] : p.image;
        in.src_w = k ? sz[k - 1].w : g->w;
        in.step = k > 0 || s->speedup ? 2 : 1;
        in.w = sz[k].w;
        in.h = sz[k].h;
        mode_kernel<<<grid2(sz[k].w, sz[k].h, blk), blk, 0, stream>>>(
            in, p.mask, sz[0].w, 1u << k, s->tables->band_lo, s->tables->band_n, p.filtered[k],
            p.codes[k]);
    }
    launch_c(s, g, p, tables, sz, stream);
    launch_pool(s, p, sz, stream);
    cudaMemcpyAsync(p.result, &p.pool->r, sizeof(PicResult), cudaMemcpyDeviceToHost, stream);
}

int cuda_error(const CambiState *s, cudaError_t e, const char *what)
{
    if (e == cudaSuccess)
        return 0;
    ev_log(s->log, EV_LOG_ERROR, "cambi: cuda: %s: %s", what, cudaGetErrorString(e));
    return e == cudaErrorMemoryAllocation ? -ENOMEM : -EIO;
}

// A picture's score from its results: the CPU's pooling decision per scale (a copy of the
// values and the CPU's selection where it reproduces libvmaf's order), heatmaps when fds.
int picture_score(const CambiState *s, const CambiGeometry *g, const EvPic *pic, const PicBufs &p,
                  float *c_host, const int *heatmap_fd, unsigned frame, cudaStream_t stream,
                  double *score)
{
    const PicResult &r = *p.result;
    if (r.range_key) {
        const unsigned long long key = ~r.range_key;
        const unsigned long long at = key >> 16;
        return cambi_range_error(s, g, frame, (unsigned)(key & 0xffff), (unsigned)(at % pic->w[0]),
                                 (unsigned)(at / pic->w[0]), pic->bpc);
    }
    Scale sz[NS];
    scale_sizes(g, s->speedup, sz);
    double scores[NS];
    for (int k = 0; k < NS; k++) {
        const unsigned n = sz[k].w * sz[k].h;
        const int topk = cambi_topk_count(s->topk, (int)n);
        const ScaleTotals &t = r.s[k];
        const CambiTotals tot = { t.units, t.nonzero, (int)t.irregular };
        const int exact =
            !cambi_topk_exact(&tot, (unsigned)topk, t.kth, t.above, t.above_units, &scores[k]);
        if (exact && !heatmap_fd)
            continue;
        int err = cuda_error(
            s, cudaMemcpyAsync(c_host, p.c[k], n * sizeof(float), cudaMemcpyDeviceToHost, stream),
            "copy contrast values");
        if (!err)
            err = cuda_error(s, cudaStreamSynchronize(stream), "copy contrast values");
        if (!err && heatmap_fd)
            err = cambi_write_heatmap(heatmap_fd[k], s->tables, c_host, sz[k].w, sz[k].h, g->window,
                                      frame, reinterpret_cast<uint16_t *>(c_host + n));
        if (err)
            return err;
        if (!exact)
            scores[k] = cambi_topk_mean_select(c_host, n, topk);
    }
    *score = cambi_combine_scales(scores, g->window);
    return 0;
}

} // namespace

extern "C" EV_LAUNCH_FN(ev_cambi_launch_cuda)
{
    return ev_kept_launch<CambiState, Bufs>(
        state, ref, dis, lay_out, [&](const CambiState *s, Bufs &b, cudaStream_t stream) {
            const CambiGeometry *geo[2] = { &s->dis, &s->src };
            const int pictures = s->opts.full_ref ? 2 : 1;
            if (!*b.uploaded) {
                cudaMemcpyAsync(b.tables, s->tables, sizeof(CambiTables), cudaMemcpyHostToDevice,
                                stream);
                for (int k = 0; k < pictures; k++) {
                    cudaMemcpyAsync(b.pic[k].col_src, geo[k]->col_src, geo[k]->w * sizeof(unsigned),
                                    cudaMemcpyHostToDevice, stream);
                    cudaMemcpyAsync(b.pic[k].row_src, geo[k]->row_src, geo[k]->h * sizeof(unsigned),
                                    cudaMemcpyHostToDevice, stream);
                }
                *b.uploaded = 1;
            }
            launch_picture(s, &s->dis, s->mask_threshold_dis, dis, b.pic[0], b.tables, stream);
            if (s->opts.full_ref)
                launch_picture(s, &s->src, s->mask_threshold_src, ref, b.pic[1], b.tables, stream);
            return cuda_error(s, cudaGetLastError(), "queue the kernels");
        });
}

extern "C" EV_EXTRACT_FN(ev_cambi_extract_cuda)
{
    return ev_kept_extract<CambiState, Bufs>(
        state, dis, "cambi", lay_out, [&](const CambiState *s, Bufs &b) {
            const cudaStream_t stream = static_cast<cudaStream_t>(ev_cuda_stream(dis->gpu));
            float *c_host = static_cast<float *>(scratch);
            double dis_score = 0, src_score = 0;
            int err = picture_score(s, &s->dis, dis, b.pic[0], c_host,
                                    s->heatmap_fd[0] >= 0 ? s->heatmap_fd : nullptr, frame, stream,
                                    &dis_score);
            if (!err && s->opts.full_ref)
                err = picture_score(s, &s->src, ref, b.pic[1], c_host, nullptr, frame, stream,
                                    &src_score);
            return err ? err : ev_cambi_twin_emit(s, frame, dis_score, src_score, sink);
        });
}
