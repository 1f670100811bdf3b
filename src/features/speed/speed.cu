// CUDA twins of speed_chroma and speed_temporal (speed.c, speed_core.c beside this file).
//
// Per frame and image (speed_chroma: U ref, U dis, V ref, V dis; speed_temporal: the ref and
// dis differences previous minus current), each kernel a thin loop over speed_twin.h's
// per-output functions, which unit_speed_twin proves equal to the reference on the host:
//   1. convert: the samples as libvmaf's floats (and the difference of two frames), only the
//      rows the reference converts;
//   2. prescale (speed_prescale != 1): the rows the anti-alias filter reads, per output;
//   3. dec: the anti-alias filter at the 16:1 decimated positions, one output per thread;
//   4. centre: minus the local mean, one output per thread;
//   5. estimate: one block per image and role: both roles take the 25 means and 325
//      covariances (one sum per thread, raster order); role 0 runs the eigen solver, role 1
//      the independent term and the QR solve (the block solvers of speed_twin.h: parallel
//      loops over independent outputs, serial steps on thread 0);
//   6. finish: one block per plane: each block's variance, entropy and weighted entropies
//      (log2 is libm/glibc_log2.h's, proven equal to glibc's) in parallel, then the score's
//      float sum in block order on thread 0 (speed_compare's steps); the scores and flags go
//      to pinned memory, read after the extract's wait.
// speed_chroma runs on the worker's stream with the worker's kept buffers. speed_temporal
// needs the previous frame: as motion.cu, its work runs in frame order on the stream of an
// ordered frame ring (cuda/frame_ring.cuh), the lumas of the last two frames kept on the
// device (entry n % 2), the results in the ring's RING pinned slots read by extract().
#include <cerrno>
#include <cmath>
#include <cstring>
#include <new>

#include <cuda_runtime.h>

#include "cuda/frame_ring.cuh"
#include "cuda/kept.cuh"
#include "cuda/runtime.h"
#include "features/common/sample_math.h"
#include "features/speed/speed.h"
#include "features/speed/speed_twin.h"

namespace
{

constexpr int THREADS = 128;        // per-output kernels
constexpr int SOLVER_THREADS = 640; // one block per image and role: >= 625 matrix entries
constexpr int FINISH_THREADS = 256;
constexpr int MAX_IMAGES = 4;
constexpr int RING = EvFrameRing::SLOTS; // speed_temporal's result slots

// A plane's score and singular flag, as speed_score returns them.
struct PlaneResult {
    float score;
    int err;
};

// Where each image's samples are: image g reads a[g] (minus b[g] when diff), rows stride[g]
// bytes apart, u16 samples when wide.
struct Sources {
    const unsigned char *a[MAX_IMAGES], *b[MAX_IMAGES];
    ptrdiff_t stride[MAX_IMAGES];
    int wide, diff;
    float scaler;
};

__device__ float sample_at(const unsigned char *p, ptrdiff_t stride, int wide, float scaler, int x,
                           int y)
{
    const unsigned char *row = p + (ptrdiff_t)y * stride;
    const uint32_t v = wide ? reinterpret_cast<const uint16_t *>(row)[x] : row[x];
    return sample_to_float(v, scaler, -128);
}

// Device pointers of one image's buffers.
struct ImageBufs {
    float *f, *s, *dec, *d, *indep, *x, *qty, *eig, *variance, *entropy;
    int *status;
};

struct Images {
    ImageBufs g[MAX_IMAGES];
};

// Scale tables on the device.
struct ScaleTables {
    const int *xi, *yi;
    const float *xw, *yw;
    const unsigned char *need; // the rows the anti-alias filter reads (plan.scaled_rows)
};

__global__ void __launch_bounds__(THREADS)
    convert_kernel(SpeedTwinPlan p, Sources src, ScaleTables t, Images im)
{
    const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x), y = (int)blockIdx.y;
    const int g = (int)blockIdx.z;
    if (x >= p.w || (!p.scaling && (y >= p.sh || !t.need[y])))
        return;
    float v = sample_at(src.a[g], src.stride[g], src.wide, src.scaler, x, y);
    if (src.diff)
        v = v - sample_at(src.b[g], src.stride[g], src.wide, src.scaler, x, y);
    im.g[g].f[(size_t)y * p.w + x] = v;
}

__global__ void __launch_bounds__(THREADS) scale_kernel(SpeedTwinPlan p, ScaleTables t, Images im)
{
    const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x), y = (int)blockIdx.y;
    const ImageBufs &b = im.g[blockIdx.z];
    if (x >= p.sw || !t.need[y])
        return;
    b.s[(size_t)y * p.sw + x] = p.identity ? b.f[(size_t)y * p.w + x]
                                           : speed_scale_px((SpeedScaleMethod)p.method, b.f, p.w,
                                                            t.xi, t.xw, t.yi, t.yw, y, x);
}

__global__ void __launch_bounds__(THREADS) dec_kernel(SpeedTwinPlan p, Images im)
{
    const int e = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    const ImageBufs &b = im.g[blockIdx.z];
    if (e >= p.dw * p.dh)
        return;
    b.dec[e] = p.scaling ? speed_twin_dec(&p, b.s, p.sw, e) : speed_twin_dec(&p, b.f, p.w, e);
}

__global__ void __launch_bounds__(THREADS) centre_kernel(SpeedTwinPlan p, Images im)
{
    const int e = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    const ImageBufs &b = im.g[blockIdx.z];
    if (e < p.dw * p.dh)
        b.d[e] = speed_twin_centred(p.local, p.n_local, b.dec, p.dw, p.dh, e);
}

// blockIdx.x: the image; blockIdx.y: 0 eigenvalues, 1 solve.
__global__ void __launch_bounds__(SOLVER_THREADS) estimate_kernel(SpeedTwinPlan p, Images im)
{
    __shared__ SpeedTwinSolver sv;
    const ImageBufs &b = im.g[blockIdx.x];
    const int t = (int)threadIdx.x, nt = (int)blockDim.x;
    speed_twin_moments(&sv, b.d, p.dw, p.sub_w, p.sub_h, t, nt);
    if (blockIdx.y == 0) {
        speed_twin_eigen(&sv, b.eig, t, nt);
        return;
    }
    for (int e = t; e < SPEED_N * p.n_blocks; e += nt)
        b.indep[e] = speed_twin_indep(b.d, p.dw, p.bw, p.n_blocks, e);
    __syncthreads();
    const int failed = speed_twin_solve(&sv, b.indep, p.n_blocks, b.x, b.qty, t, nt);
    if (t == 0)
        *b.status = failed;
}

// blockIdx.x: the plane, whose images are 2 x plane (ref) and 2 x plane + 1 (dis). Each
// block's variance, entropy and weighted entropies in parallel (the ref image's qty, free
// after the solve, keeps them: sr, sd, visible), then speed_compare's float sum in block
// order on thread 0.
__global__ void __launch_bounds__(FINISH_THREADS)
    finish_kernel(SpeedTwinPlan p, Images im, PlaneResult *out)
{
    const ImageBufs &r = im.g[2 * blockIdx.x], &d = im.g[2 * blockIdx.x + 1];
    const int nb = p.n_blocks;
    const int sr = !speed_twin_regular(r.eig) || *r.status;
    const int sd = !speed_twin_regular(d.eig) || *d.status;
    for (int j = (int)threadIdx.x; j < nb; j += (int)blockDim.x) {
        speed_twin_block(r.x, r.indep, nb, j, sr, r.eig, p.sigma_nn, r.variance, r.entropy);
        speed_twin_block(d.x, d.indep, nb, j, sd, d.eig, p.sigma_nn, d.variance, d.entropy);
    }
    __syncthreads();
    float *spatial_r = r.qty, *spatial_d = r.qty + nb, *visible = r.qty + 2 * nb;
    for (int j = (int)threadIdx.x; j < nb; j += (int)blockDim.x)
        visible[j] = (float)speed_block_spatial(r.entropy, d.entropy, r.variance, d.variance, j,
                                                p.base_entropy, p.weight_var_mode, &spatial_r[j],
                                                &spatial_d[j]);
    __syncthreads();
    if (threadIdx.x == 0) {
        float sum = 0;
        for (int j = 0; j < nb; j++)
            if (visible[j] != 0.0f)
                sum = speed_score_add(sum, spatial_r[j], spatial_d[j]);
        PlaneResult res;
        res.score = sr != sd ? 0.0f : speed_score_value(sum, (size_t)nb);
        res.err = sr || sd;
        out[blockIdx.x] = res;
    }
}

// ---- buffers ------------------------------------------------------------------------------

// The device side of a plan: its tables (uploaded once per owner) and n_images images.
struct Layout {
    int *xi, *yi;
    float *xw, *yw;
    unsigned char *need;
    Images im;
    PlaneResult *result;
};

size_t table_ints(const SpeedPlan *pl, int axis)
{
    return (size_t)(axis ? pl->sh : pl->sw) * SPEED_SCALE_TAPS;
}

// Lay out (base == nullptr: measure) the tables, n_images images and n_results results.
Layout lay_out(const SpeedPlan *pl, char *base, size_t &bytes, int n_images, int n_results)
{
    Layout L = {};
    size_t off = 0;
    const bool tables = pl->scaling && !pl->scale.identity;
    L.xi = ev_take<int>(base, off, tables ? table_ints(pl, 0) : 0);
    L.xw = ev_take<float>(base, off, tables ? table_ints(pl, 0) : 0);
    L.yi = ev_take<int>(base, off, tables ? table_ints(pl, 1) : 0);
    L.yw = ev_take<float>(base, off, tables ? table_ints(pl, 1) : 0);
    L.need = ev_take<unsigned char>(base, off, (size_t)pl->sh);
    const size_t n = (size_t)pl->w * pl->h, ns = pl->scaling ? (size_t)pl->sw * pl->sh : 0;
    const size_t nd = (size_t)pl->dw * pl->dh, nb = (size_t)pl->n_blocks;
    for (int g = 0; g < n_images; g++) {
        ImageBufs &b = L.im.g[g];
        b.f = ev_take<float>(base, off, n);
        b.s = ev_take<float>(base, off, ns);
        b.dec = ev_take<float>(base, off, nd);
        b.d = ev_take<float>(base, off, nd);
        b.indep = ev_take<float>(base, off, SPEED_N * nb);
        b.x = ev_take<float>(base, off, SPEED_N * nb);
        b.qty = ev_take<float>(base, off, SPEED_N * nb);
        b.eig = ev_take<float>(base, off, SPEED_N);
        b.variance = ev_take<float>(base, off, nb);
        b.entropy = ev_take<float>(base, off, nb);
        b.status = ev_take<int>(base, off, 1);
    }
    L.result = ev_take<PlaneResult>(base, off, (size_t)n_results);
    bytes = off;
    return L;
}

// The pinned host side: the tables' source (filled once) and the results.
struct HostSide {
    int ready;
    PlaneResult result[2];
};

size_t host_bytes(const SpeedPlan *pl)
{
    return sizeof(HostSide) + 2 * (table_ints(pl, 0) + table_ints(pl, 1)) * sizeof(float) +
           (size_t)pl->sh;
}

// Queue the upload of the plan's tables from pinned staging (filled here) into L.
cudaError_t upload_tables(const SpeedPlan *pl, const Layout &L, char *staging, cudaStream_t stream)
{
    cudaError_t e = cudaSuccess;
    char *at = staging;
    auto put = [&](void *dst, const void *src, size_t bytes) {
        if (!bytes || e != cudaSuccess)
            return;
        memcpy(at, src, bytes);
        e = cudaMemcpyAsync(dst, at, bytes, cudaMemcpyHostToDevice, stream);
        at += bytes;
    };
    if (pl->scaling && !pl->scale.identity) {
        put(L.xi, pl->scale.x.index, table_ints(pl, 0) * sizeof(int));
        put(L.xw, pl->scale.x.weight, table_ints(pl, 0) * sizeof(float));
        put(L.yi, pl->scale.y.index, table_ints(pl, 1) * sizeof(int));
        put(L.yw, pl->scale.y.weight, table_ints(pl, 1) * sizeof(float));
    }
    put(L.need, pl->scaled_rows, (size_t)pl->sh);
    return e;
}

// Queue steps 1-6 for n_images images (2 per plane) and copy the plane results to out_host.
cudaError_t queue_score(const SpeedPlan *pl, const Layout &L, const Sources &src, int n_images,
                        PlaneResult *out_host, cudaStream_t stream)
{
    const SpeedTwinPlan p = speed_twin_plan(pl);
    const ScaleTables t = { L.xi, L.yi, L.xw, L.yw, L.need };
    const unsigned gi = (unsigned)n_images;
    convert_kernel<<<dim3(ev_blocks(p.w, THREADS), (unsigned)p.h, gi), THREADS, 0, stream>>>(
        p, src, t, L.im);
    if (p.scaling)
        scale_kernel<<<dim3(ev_blocks(p.sw, THREADS), (unsigned)p.sh, gi), THREADS, 0, stream>>>(
            p, t, L.im);
    const unsigned nd = ev_blocks(p.dw * p.dh, THREADS);
    dec_kernel<<<dim3(nd, 1, gi), THREADS, 0, stream>>>(p, L.im);
    centre_kernel<<<dim3(nd, 1, gi), THREADS, 0, stream>>>(p, L.im);
    estimate_kernel<<<dim3(gi, 2), SOLVER_THREADS, 0, stream>>>(p, L.im);
    finish_kernel<<<gi / 2, FINISH_THREADS, 0, stream>>>(p, L.im, L.result);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(out_host, L.result, gi / 2 * sizeof(PlaneResult),
                            cudaMemcpyDeviceToHost, stream);
    return e;
}

int cuda_error(const EvLog *log, const char *who, cudaError_t e, const char *what)
{
    if (e == cudaSuccess)
        return 0;
    ev_log(log, EV_LOG_ERROR, "%s: cuda: %s: %s", who, what, cudaGetErrorString(e));
    return e == cudaErrorMemoryAllocation ? -ENOMEM : -EIO;
}

// The reference's NaN: every NaN of its score comes through fabsf in speed_score_add (glibc's
// and x86's NaNs are negative, fabsf clears the sign, x86 keeps a NaN operand's payload), so it
// is the positive default NaN; the device's arithmetic returns its canonical NaN instead.
float reference_nan(float v)
{
    if (!std::isnan(v))
        return v;
    const uint32_t bits = 0x7fc00000u;
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

} // namespace

// ---- speed_chroma ---------------------------------------------------------------------------

namespace
{

struct ChromaFrame {
    Layout L;
    HostSide *host;
    char *staging;
};

int chroma_frame(const SpeedChromaState *s, EvCudaWorker *gpu, ChromaFrame &f)
{
    size_t dev_bytes;
    lay_out(&s->plan, nullptr, dev_bytes, MAX_IMAGES, 2);
    void *dev, *host;
    const int err = ev_cuda_worker_memory(gpu, s, dev_bytes, host_bytes(&s->plan), &dev, &host);
    if (err)
        return err;
    f.L = lay_out(&s->plan, static_cast<char *>(dev), dev_bytes, MAX_IMAGES, 2);
    f.host = static_cast<HostSide *>(host);
    f.staging = static_cast<char *>(host) + sizeof(HostSide);
    return 0;
}

} // namespace

extern "C" EV_LAUNCH_FN(ev_speed_chroma_launch_cuda)
{
    if (!ref)
        return 0;
    const SpeedChromaState *s = static_cast<const SpeedChromaState *>(state);
    ChromaFrame f;
    int err = chroma_frame(s, ref->gpu, f);
    if (err)
        return err;
    const cudaStream_t stream = static_cast<cudaStream_t>(ev_cuda_stream(ref->gpu));
    cudaError_t e = cudaSuccess;
    if (!f.host->ready) {
        e = upload_tables(&s->plan, f.L, f.staging, stream);
        f.host->ready = e == cudaSuccess;
    }
    Sources src = {};
    for (int g = 0; g < MAX_IMAGES; g++) {
        const EvPic *pic = g & 1 ? dis : ref;
        src.a[g] = static_cast<const unsigned char *>(pic->dev[1 + g / 2]);
        src.stride[g] = pic->stride[1 + g / 2];
    }
    src.wide = ref->bpc > 8;
    src.scaler = sample_scaler(ref->bpc);
    if (e == cudaSuccess)
        e = queue_score(&s->plan, f.L, src, MAX_IMAGES, f.host->result, stream);
    return cuda_error(s->log, "speed_chroma", e, "queue the frame");
}

extern "C" EV_EXTRACT_FN(ev_speed_chroma_extract_cuda)
{
    const SpeedChromaState *s = static_cast<const SpeedChromaState *>(state);
    int err = ev_cuda_finish(ref->gpu, "speed_chroma");
    ChromaFrame f;
    if (!err)
        err = chroma_frame(s, ref->gpu, f);
    if (err)
        return err;
    const float score[2] = { f.host->result[0].score, f.host->result[1].score };
    const int flags[2] = { f.host->result[0].err, f.host->result[1].err };
    return ev_speed_chroma_emit(s, score, flags, frame, sink); // NaN scores clip to max
}

// ---- speed_temporal -------------------------------------------------------------------------

struct SpeedTemporalCuda {
    explicit SpeedTemporalCuda(const EvLog *l) : order("speed_temporal", l), log(l) {}
    EvFrameRing order;
    const EvLog *log;
    char *dev = nullptr;   // the layout of two images and RING results
    char *luma = nullptr;  // 2 entries x (ref, dis) lumas, packed rows
    size_t luma_bytes = 0; // one luma
    Layout L;
    HostSide *host = nullptr;       // tables' staging
    PlaneResult *results = nullptr; // RING pinned slots
};

namespace
{

// The lumas, the layout, the tables and the result slots, on the first frame (the ring's
// device is current; the tables are uploaded on its stream).
int temporal_buffers(const SpeedTemporalState *s, SpeedTemporalCuda *m, cudaStream_t stream)
{
    const SpeedPlan *pl = &s->plan;
    size_t dev_bytes;
    lay_out(pl, nullptr, dev_bytes, 2, RING);
    m->luma_bytes = (size_t)pl->w * pl->h * (s->bpc > 8 ? 2 : 1);
    cudaError_t e = cudaMalloc(&m->dev, dev_bytes);
    if (e == cudaSuccess)
        e = cudaMalloc(&m->luma, 4 * m->luma_bytes);
    if (e == cudaSuccess)
        e = cudaMallocHost(&m->host, host_bytes(pl));
    if (e == cudaSuccess)
        e = cudaMallocHost(&m->results, RING * sizeof(PlaneResult));
    if (e == cudaSuccess) {
        m->L = lay_out(pl, m->dev, dev_bytes, 2, RING);
        e = upload_tables(pl, m->L, reinterpret_cast<char *>(m->host + 1), stream);
    }
    return m->order.check(e, "set up the luma ring");
}

char *luma_entry(SpeedTemporalCuda *m, long long n, int which)
{
    return m->luma + ((size_t)(n & 1) * 2 + (size_t)which) * m->luma_bytes;
}

// Frame n's work on the ring's stream (its upload already waited for).
int queue_frame(const SpeedTemporalState *s, SpeedTemporalCuda *m, const EvPic *ref,
                const EvPic *dis, long long n, int slot, cudaStream_t stream)
{
    const SpeedPlan *pl = &s->plan;
    const size_t row = m->luma_bytes / (size_t)pl->h;
    cudaError_t e = cudaSuccess;
    for (int k = 0; k < 2 && e == cudaSuccess; k++) {
        const EvPic *pic = k ? dis : ref;
        e = cudaMemcpy2DAsync(luma_entry(m, n, k), row, pic->dev[0], (size_t)pic->stride[0], row,
                              (size_t)pl->h, cudaMemcpyDeviceToDevice, stream);
    }
    if (e == cudaSuccess && n >= 1) {
        Sources src = {};
        src.a[0] = reinterpret_cast<const unsigned char *>(luma_entry(m, n - 1, 0));
        src.a[1] = reinterpret_cast<const unsigned char *>(luma_entry(m, n - 1, 1));
        src.b[0] = reinterpret_cast<const unsigned char *>(luma_entry(m, n, 0));
        src.b[1] =
            reinterpret_cast<const unsigned char *>(luma_entry(m, n, s->opts.use_ref_diff ? 0 : 1));
        src.stride[0] = src.stride[1] = (ptrdiff_t)row;
        src.wide = s->bpc > 8;
        src.diff = 1;
        src.scaler = sample_scaler(s->bpc);
        Layout L = m->L;
        L.result = m->L.result + slot;
        e = queue_score(pl, L, src, 2, m->results + slot, stream);
    }
    return m->order.check(e, "queue the frame");
}

} // namespace

extern "C" int ev_speed_temporal_cuda_open(SpeedTemporalState *s, const EvLog *log)
{
    return ev_ring_twin_open<SpeedTemporalCuda>(s, log);
}

extern "C" void ev_speed_temporal_cuda_close(SpeedTemporalState *s)
{
    ev_ring_twin_close(s, [](SpeedTemporalCuda *m) {
        cudaFree(m->dev);
        cudaFree(m->luma);
        cudaFreeHost(m->host);
        cudaFreeHost(m->results);
    });
}

extern "C" EV_LAUNCH_FN(ev_speed_temporal_launch_cuda)
{
    const SpeedTemporalState *s = static_cast<const SpeedTemporalState *>(state);
    SpeedTemporalCuda *m = s->cuda;
    return m->order.launch(
        ref, frame, [&](cudaStream_t stream) { return temporal_buffers(s, m, stream); },
        [&](int slot, cudaStream_t stream) {
            return queue_frame(s, m, ref, dis, frame, slot, stream);
        });
}

extern "C" EV_EXTRACT_FN(ev_speed_temporal_extract_cuda)
{
    const SpeedTemporalState *s = static_cast<const SpeedTemporalState *>(state);
    SpeedTemporalCuda *m = s->cuda;
    // every frame: the luma copies must be done before the slot is reused
    const int err = ev_cuda_finish(ref->gpu, "speed_temporal");
    if (err)
        return err;
    const float score = frame ? reference_nan(m->results[frame % RING].score) : 0.0f;
    m->order.release(frame);
    return ev_sink_put(sink, s->name, frame, score);
}
