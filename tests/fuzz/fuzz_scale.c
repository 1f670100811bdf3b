/* libFuzzer harness: the scaler's C reference (src/io/scale_ref.c) on any plan. The bytes give
 * the sizes (1-256 each way), the layout, the depth (6-17, some of them refused), the kernel (one
 * out of range), its two parameters as raw doubles (NaN, infinities, huge values included), the
 * alignments (non-powers of two included), bitexact and x86_default, then the samples. Contract
 * checked: a plan is made or refused with -2/-3, never anything else; a made plan's taps are
 * aligned as asked, its first positions keep every tap inside the source; every output sample
 * is within the depth; a plan whose size does not change gives back its input exactly. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "io/scale_ref.h"

typedef struct Bytes {
    const uint8_t *p;
    size_t n;
} Bytes;

static unsigned take(Bytes *b)
{
    if (!b->n)
        return 0;
    b->n--;
    return *b->p++;
}

static double take_double(Bytes *b)
{
    uint8_t raw[8] = { 0 };
    for (int i = 0; i < 8; i++)
        raw[i] = (uint8_t)take(b);
    double d;
    memcpy(&d, raw, sizeof(d));
    return d;
}

static void check_filter(const EvScaleFilter *f, int src_n, int align)
{
    FUZZ_CHECK(f->taps >= 1 && (f->taps % align == 0 || f->taps == 1 || align == 2),
               "taps %d for align %d", f->taps, align);
    for (int i = 0; i < f->out_n; i++) {
        FUZZ_CHECK(f->first[i] >= 0, "position %d starts at %d", i, f->first[i]);
        for (int j = 0; j < f->taps; j++)
            FUZZ_CHECK(f->first[i] + j < src_n || !f->coef[(size_t)i * f->taps + j],
                       "position %d tap %d reads past %d", i, j, src_n);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Bytes b = { data, size };
    const int sw = 1 + (int)take(&b), sh = 1 + (int)take(&b);
    const int dw = 1 + (int)take(&b), dh = 1 + (int)take(&b);
    const unsigned layout = take(&b) % 4;
    const int bits = 6 + (int)(take(&b) % 12);
    EvScaleKernelSpec k = { (EvScaleKernel)(take(&b) % 4), { NAN, NAN }, (int)(take(&b) & 1) };
    const unsigned which = take(&b);
    if (which & 1)
        k.param[0] = take_double(&b);
    if (which & 2)
        k.param[1] = take_double(&b);
    const int align_across = 1 + (int)(take(&b) % 8), align_down = 1 + (int)(take(&b) % 8);
    const int x86 = (int)(take(&b) & 1);
    const int ss_x = layout < 2, ss_y = layout == 0, planes = layout == 3 ? 1 : 3;
    EvScalePlan plan;
    const int r = ev_scale_plan_make(&plan, &k, sw, sh, dw, dh, ss_x, ss_y, planes, bits,
                                     align_across, align_down);
    if (r) {
        FUZZ_CHECK(r == -2 || r == -3, "plan refused with %d", r);
        return 0;
    }
    plan.x86_default = x86;
    const int bytes = bits > 8 ? 2 : 1;
    const unsigned top = (1u << bits) - 1;
    for (int p = 0; p < planes; p++) {
        const int c = p ? 1 : 0;
        check_filter(&plan.across[c], plan.src_w[c], align_across);
        check_filter(&plan.down[c], plan.src_h[c], align_down);
        const size_t in_stride = (size_t)plan.src_w[c] * bytes,
                     out_stride = (size_t)plan.dst_w[c] * bytes;
        uint8_t *in = malloc(in_stride * plan.src_h[c]), *out = malloc(out_stride * plan.dst_h[c]);
        FUZZ_CHECK(in && out, "out of memory");
        for (size_t i = 0; i < (size_t)plan.src_w[c] * plan.src_h[c]; i++) {
            const unsigned v = (take(&b) | take(&b) << 8) & top;
            if (bytes == 1)
                in[i] = (uint8_t)v;
            else
                ((uint16_t *)in)[i] = (uint16_t)v;
        }
        FUZZ_CHECK(
            !ev_scale_plane_ref(&plan, p, in, (ptrdiff_t)in_stride, out, (ptrdiff_t)out_stride),
            "out of memory");
        const int same = plan.src_w[c] == plan.dst_w[c] && plan.src_h[c] == plan.dst_h[c];
        for (size_t i = 0; i < (size_t)plan.dst_w[c] * plan.dst_h[c]; i++) {
            const unsigned v = bytes == 1 ? out[i] : ((uint16_t *)out)[i];
            FUZZ_CHECK(v <= top, "sample %u above %u", v, top);
            if (same) {
                const unsigned u = bytes == 1 ? in[i] : ((uint16_t *)in)[i];
                FUZZ_CHECK(u == v, "unscaled plane %d sample %zu: %u became %u", p, i, u, v);
            }
        }
        free(in);
        free(out);
    }
    ev_scale_plan_free(&plan);
    return 0;
}
