/* checkasm-style: every ssimulacra2 row kernel (features/ssimulacra2/ssimulacra2_dsp.h) of
 * every level the CPU has against the C reference, by their bits, on seeded random inputs of
 * every width 1..67, 127..129 and 1920 (the margins after each output checked untouched), and
 * with a planted bit (--plant) that must fail. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpu.h"
#include "features/common/dsp_level.h"
#include "features/ssimulacra2/ssimulacra2_dsp.h"
#include "unit/check.h"

enum { MAX_W = 1920, PAD = 16, N_IN = 8, N_OUT = 6 };

static float in[N_IN][MAX_W * SSIMU2_LANES + PAD];
static float fout[2][N_OUT][MAX_W * SSIMU2_LANES + PAD];
static double dout[2][N_OUT][MAX_W + PAD];
static int plant;

/* Values as the kernels see them: XYB-like in [0.005, 1.2], some exact zeros and repeats. */
static void fill(uint32_t seed)
{
    for (unsigned k = 0; k < N_IN; k++)
        for (unsigned i = 0; i < MAX_W * SSIMU2_LANES + PAD; i++) {
            const uint32_t h = check_hash(seed * 977 + k * 65537 + i);
            in[k][i] = h % 61 == 0 ? 0.0f : (float)(h >> 8) * 0x1p-24f * 1.2f + 0.005f;
        }
}

static void canary(void)
{
    memset(fout, 0xa5, sizeof(fout));
    memset(dout, 0x5a, sizeof(dout));
}

/* Run one kernel of table d into set s. */
static void run(const Ssimu2Dsp *d, const int kind, const unsigned w, const unsigned s)
{
    switch (kind) {
    case 0: d->linear(in[0], w, fout[s][0]); break;
    case 1:
        memcpy(fout[s][1], in[2], 6 * MAX_W * sizeof(float)); /* the state */
        d->vblur1(in[0], w, fout[s][1], MAX_W, fout[s][0]);
        break;
    case 2:
        memcpy(fout[s][1], in[2], 6 * MAX_W * sizeof(float));
        d->vblur2(in[0], in[1], w, fout[s][1], MAX_W, fout[s][0]);
        break;
    case 3: d->hblur(in[0], w, fout[s][0]); break;
    case 4: d->xyb(in[0], in[1], in[2], w, fout[s][0], fout[s][1], fout[s][2]); break;
    case 5: d->ssim(in[0], in[1], in[2], in[3], in[4], w, dout[s][0], dout[s][1]); break;
    case 6: d->edge(in[0], in[1], in[2], in[3], w, dout[s][2], dout[s][3], dout[s][4], dout[s][5]);
    }
}

static const char *const kind_name[] = { "linear", "vblur1", "vblur2", "hblur",
                                         "xyb",    "ssim",   "edge" };

static void check_level(const Ssimu2Dsp *c, const Ssimu2Dsp *d, const char *level)
{
    for (int kind = 0; kind < 7; kind++) {
        unsigned bad = 0;
        for (unsigned w = 1; w <= MAX_W && !bad; w = w == 67 ? 127 : w == 129 ? MAX_W : w + 1) {
            fill(w * 7 + (unsigned)kind);
            canary();
            run(c, kind, w, 0);
            run(d, kind, w, 1);
            if (plant)
                fout[1][0][w / 2] = nextafterf(fout[1][0][w / 2], 2.0f);
            bad = memcmp(fout[0], fout[1], sizeof(fout[0])) != 0 ||
                  memcmp(dout[0], dout[1], sizeof(dout[0])) != 0;
            if (!check_count(!bad))
                printf("FAIL ssimu2_%s_%s at width %u\n", kind_name[kind], level, w);
        }
    }
}

int main(int argc, char **argv)
{
    plant = argc > 1 && !strcmp(argv[1], "--plant");
    const unsigned cpu = ev_cpu_detect();
    Ssimu2Dsp c, d;
    ssimu2_dsp_init(&c, 0);
    static const struct {
        unsigned need;
        const char *name;
    } levels[] = { { EV_CPU_AVX2, "avx2" }, { EV_CPU_AVX2 | EV_CPU_AVX512, "avx512" } };
    unsigned tested = 0;
    for (unsigned i = 0; i < 2; i++) {
        if ((cpu & levels[i].need) != levels[i].need)
            continue;
        ssimu2_dsp_init(&d, levels[i].need);
        check_level(&c, &d, levels[i].name);
        tested++;
    }
    if (plant) /* the C against itself must fail too */
        check_level(&c, &c, "c");
    printf("ssimulacra2 kernels: %u levels against C\n", tested);
    return check_report("ssimulacra2_kernels");
}
