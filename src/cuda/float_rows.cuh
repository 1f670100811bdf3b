// Float sums in the reference's order, the reduction the float twins share: the reference adds
// each row's terms into a float from 0 in column order, then the row sums into a float from 0
// in row order. Here one warp takes 32 rows: it stages a 32 x 32 tile of terms in shared memory
// (coalesced loads), then lane r adds row r's 32 in column order, tile after tile; a second
// kernel (one thread per total) adds the row sums in row order. Same operands, same order,
// same float roundings: the CPU's bits.
#ifndef EV_CUDA_FLOAT_ROWS_CUH
#define EV_CUDA_FLOAT_ROWS_CUH

#include <cstddef>

#include <cuda_runtime.h>

// The columns (or rows) a sum visits, in ascending order: first (if >= 0), [start, end), then
// last (if >= 0); first = last = -1 for a plain range (adm_span's shape).
struct EvFloatSpan {
    int first, start, end, last;
};

__host__ __device__ __forceinline__ bool ev_span_visits(const EvFloatSpan &s, int i)
{
    return i == s.first || i == s.last || (i >= s.start && i < s.end);
}

inline EvFloatSpan ev_span_range(int lo, int hi)
{
    return EvFloatSpan{ -1, lo, hi, -1 };
}

// A term read from a float plane.
struct EvPlaneTerm {
    const float *p;
    ptrdiff_t stride; // floats
    __device__ float operator()(int i, int j) const { return p[(ptrdiff_t)i * stride + j]; }
};

constexpr int EV_ROW_TILE = 32;

// out[r] = the visited terms of row row0 + r (r < n_rows) in column order, from 0; w columns.
template <class Term>
__global__ void __launch_bounds__(EV_ROW_TILE)
    ev_float_row_sums_kernel(Term term, int row0, int n_rows, int w, EvFloatSpan cols, float *out)
{
    __shared__ float tile[EV_ROW_TILE][EV_ROW_TILE + 1];
    const int lane = threadIdx.x, base = blockIdx.x * EV_ROW_TILE;
    const int rows = n_rows - base < EV_ROW_TILE ? n_rows - base : EV_ROW_TILE;
    float acc = 0.0f;
    for (int c0 = 0; c0 < w; c0 += EV_ROW_TILE) {
        const int c = c0 + lane;
        const bool take = c < w && ev_span_visits(cols, c);
        for (int r = 0; r < rows; r++)
            tile[r][lane] = take ? term(row0 + base + r, c) : 0.0f;
        __syncwarp();
        const int n = w - c0 < EV_ROW_TILE ? w - c0 : EV_ROW_TILE;
        if (lane < rows)
            for (int k = 0; k < n; k++)
                if (ev_span_visits(cols, c0 + k))
                    acc += tile[lane][k];
        __syncwarp();
    }
    if (lane < rows)
        out[base + lane] = acc;
}

// totals[q] = the visited ones of rows[q * rows_stride + r] (r < n_rows) in order, from 0.
static __global__ void ev_float_rows_total_kernel(const float *rows, int rows_stride, int n_rows,
                                                  EvFloatSpan visit, int n_totals, float *totals)
{
    const int q = threadIdx.x;
    if (q >= n_totals)
        return;
    float acc = 0.0f;
    for (int r = 0; r < n_rows; r++)
        if (ev_span_visits(visit, r))
            acc += rows[q * rows_stride + r];
    totals[q] = acc;
}

// Queue the row sums of rows [row0, row0 + n_rows) of term into out[0 .. n_rows).
template <class Term>
void ev_float_row_sums(cudaStream_t stream, Term term, int row0, int n_rows, int w,
                       EvFloatSpan cols, float *out)
{
    if (n_rows <= 0)
        return;
    ev_float_row_sums_kernel<<<(n_rows + EV_ROW_TILE - 1) / EV_ROW_TILE, EV_ROW_TILE, 0, stream>>>(
        term, row0, n_rows, w, cols, out);
}

#endif
