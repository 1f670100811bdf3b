/* The warm start (cuda/runtime.h), seen from outside the engine, in a process where nothing
 * else has made the device's primary context:
 *   - a CPU engine starts nothing: the primary context stays inactive;
 *   - an automatic engine closed before its first frame leaves no context behind;
 *   - a CUDA engine's first frames equal the CPU's, bit for bit, and the primary context it
 *     brought up has libavcodec's flags (blocking sync), so that NVDEC decoders opened after
 *     the engine can share it.
 *   warm_start_test   exit 77 without a device
 */
#include <cuda.h> /* the driver's types: its calls are found through the runtime */
#include <cuda_runtime_api.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exactvmaf/exactvmaf.h"

enum { W = 176, H = 144, FRAMES = 3 };

static CUresult (*device_get)(CUdevice *, int);
static CUresult (*get_state)(CUdevice, unsigned *, int *);

static int find_driver_calls(void)
{
    enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    if (cudaGetDriverEntryPointByVersion("cuDeviceGet", (void **)&device_get, 12000,
                                         cudaEnableDefault, &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess)
        return -1;
    if (cudaGetDriverEntryPointByVersion("cuDevicePrimaryCtxGetState", (void **)&get_state, 12000,
                                         cudaEnableDefault, &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess)
        return -1;
    return 0;
}

/* 1 active, 0 inactive, -1 unknown; *flags its scheduling flags */
static int primary_state(unsigned *flags)
{
    CUdevice dev = 0;
    int active = 0;
    if (device_get(&dev, 0) != CUDA_SUCCESS || get_state(dev, flags, &active) != CUDA_SUCCESS)
        return -1;
    return active != 0;
}

static int expect_inactive(const char *after)
{
    unsigned flags = 0;
    const int s = primary_state(&flags);
    if (s != 0)
        printf("warm_start_test: after %s the primary context is %s\n", after,
               s < 0 ? "unknown" : "active");
    return s != 0;
}

static uint64_t bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof(u));
    return u;
}

static EvContext *open_engine(EvBackend backend)
{
    EvSettings s;
    ev_default_settings(&s);
    s.backend = backend;
    s.n_threads = 2;
    EvContext *c = NULL;
    if (ev_open(&c, &s) || ev_use_feature(c, "psnr", "") || ev_use_feature(c, "float_moment", "")) {
        ev_close(&c);
        return NULL;
    }
    return c;
}

static int score(EvContext *c, uint8_t *planes)
{
    for (unsigned i = 0; i < FRAMES; i++) {
        EvPicture p[2];
        for (unsigned k = 0; k < 2; k++) {
            uint8_t *b = planes + (size_t)(2 * i + k) * W * H * 3 / 2;
            p[k] = (EvPicture){
                W, H, 8, EV_PIX_420, { b, b + W * H, b + W * H * 5 / 4 }, { W, W / 2, W / 2 }
            };
        }
        if (ev_send_pictures(c, &p[0], &p[1]))
            return -1;
    }
    return ev_flush(c);
}

int main(void)
{
    if (ev_gpu_count() <= 0) {
        printf("warm_start_test: no CUDA device: skipped\n");
        return 77;
    }
    if (find_driver_calls()) {
        printf("warm_start_test: the driver's primary-context calls are missing\n");
        return 1;
    }
    int bad = expect_inactive("the process start");
    if (bad)
        return 1; /* the checks below need a process without a context */
    EvContext *c = open_engine(EV_BACKEND_CPU);
    ev_close(&c);
    bad |= expect_inactive("a CPU engine's open and close");
    c = open_engine(EV_BACKEND_AUTO);
    ev_close(&c);
    bad |= expect_inactive("an automatic engine closed before its first frame");

    uint8_t *planes = malloc((size_t)2 * FRAMES * W * H * 3 / 2);
    if (!planes)
        return 2;
    uint64_t seed = 0x243f6a8885a308d3ull;
    for (size_t i = 0; i < (size_t)2 * FRAMES * W * H * 3 / 2; i++) {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        planes[i] = (uint8_t)(seed >> 40);
    }
    EvContext *gpu = open_engine(EV_BACKEND_CUDA), *cpu = open_engine(EV_BACKEND_CPU);
    if (!gpu || !cpu || score(gpu, planes) || score(cpu, planes)) {
        printf("warm_start_test: scoring failed\n");
        return 1;
    }
    unsigned values = 0;
    for (unsigned i = 0; i < FRAMES; i++)
        for (unsigned k = 0; k < ev_feature_count(cpu); k++, values++) {
            const char *name = ev_feature_name(cpu, k);
            double a = 0, b = 0;
            if (ev_get_score(cpu, name, i, &a) || ev_get_score(gpu, name, i, &b) ||
                bits(a) != bits(b)) {
                printf("warm_start_test: frame %u %s: cpu %.17g (%016" PRIx64 ") cuda %.17g "
                       "(%016" PRIx64 ")\n",
                       i, name, a, bits(a), b, bits(b));
                bad = 1;
            }
        }
    unsigned flags = 0;
    const int s = primary_state(&flags);
    if (s != 1 || (flags & CU_CTX_SCHED_MASK) != CU_CTX_SCHED_BLOCKING_SYNC) {
        printf("warm_start_test: after a CUDA engine's frames the primary context is %s, "
               "flags 0x%x (want active, blocking sync 0x%x)\n",
               s == 1 ? "active"
               : s    ? "unknown"
                      : "inactive",
               flags, CU_CTX_SCHED_BLOCKING_SYNC);
        bad = 1;
    }
    ev_close(&gpu);
    ev_close(&cpu);
    free(planes);
    printf("warm_start_test: %u values compared, %s\n", values,
           bad ? "FAILED" : "all checks passed");
    return bad;
}
