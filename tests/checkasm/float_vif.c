/* checkasm: the float VIF row kernels (features/vif/float_vif_scale.h) of every level vs C. */
#include <stdlib.h>
#include <string.h>

#include "checkasm/checkasm.h"
#include "features/vif/float_vif_dsp.h"
#include "features/vif/float_vif_scale.h"

enum { MAX_W = 4097, MAX_TAPS = 33 };

/* a row of float samples as float_vif makes them: v / scaler - 128 for v of bits bits */
static void fill_floats(float *p, const int n, const unsigned bits, const int pattern)
{
    static uint16_t v[MAX_W];
    check_fill(v, (size_t)n, 2, bits, pattern);
    const float scaler = (float)(1u << (bits - 8));
    for (int j = 0; j < n; j++)
        p[j] = v[j] / scaler - 128.0f;
}

void checkasm_float_vif(void)
{
    static float ref[MAX_TAPS][MAX_W], dis[MAX_TAPS][MAX_W], out[2][MAX_W / 2 + 16];
    VifFloatRows rows[2];
    void *mem[2];
    for (int s = 0; s < 2; s++) {
        mem[s] = malloc(vif_float_rows_size(MAX_W, MAX_TAPS));
        vif_float_rows_init(&rows[s], mem[s], MAX_W, MAX_TAPS);
    }
    VifFloatDsp c;
    vif_float_dsp_init(&c, 0);
    const VifFloatParams params = { 100.0f, 2.0, (float)(4.0 / (255.0 * 255.0)) };
    for (int i = 0; i < check_n_levels(); i++) {
        const CheckLevel *l = check_level(i);
        VifFloatDsp d;
        vif_float_dsp_init(&d, l->cpu);
        const float *rr[MAX_TAPS], *dr[MAX_TAPS];
        for (int k = 0; k < MAX_TAPS; k++) {
            rr[k] = ref[k];
            dr[k] = dis[k];
        }
        if (check_func((const void *)d.stat_row, (const void *)c.stat_row, "float_vif_stat_row",
                       l->name))
            for (int scale = 0; scale < 4; scale++) {
                VifFloatFilter f;
                vif_float_filter_init(&f, scale, 1.0f);
                for (int w = f.n; w; w = check_next_width(w))
                    for (int pattern = 0; pattern < CHECK_N_PATTERNS; pattern++) {
                        const unsigned bits = 8 + check_rand() % 9;
                        for (int k = 0; k < f.n; k++) {
                            fill_floats(ref[k], w, bits, pattern);
                            fill_floats(dis[k], w, bits, (pattern + k) % CHECK_N_PATTERNS);
                        }
                        float n[2], dn[2];
                        c.stat_row(&n[0], &dn[0], rr, dr, w, &f, &params, &rows[0]);
                        d.stat_row(&n[1], &dn[1], rr, dr, w, &f, &params, &rows[1]);
                        if (check_planted())
                            n[1] = -n[1];
                        if ((memcmp(&n[0], &n[1], sizeof(float)) ||
                             memcmp(&dn[0], &dn[1], sizeof(float))) &&
                            check_fail("scale %d w %d pattern %d: num %.9g/%.9g den %.9g/%.9g",
                                       scale, w, pattern, n[0], n[1], dn[0], dn[1]))
                            break;
                    }
            }
        if (check_func((const void *)d.down_row, (const void *)c.down_row, "float_vif_down_row",
                       l->name))
            for (int scale = 1; scale < 4; scale++) {
                VifFloatFilter f;
                vif_float_filter_init(&f, scale, 1.0f);
                for (int w = f.n; w; w = check_next_width(w))
                    for (int pattern = 0; pattern < CHECK_N_PATTERNS; pattern++) {
                        for (int k = 0; k < f.n; k++)
                            fill_floats(ref[k], w, 8 + check_rand() % 9, pattern);
                        memset(out, 0x5A, sizeof(out));
                        c.down_row(out[0], rr, w, &f, rows[0].line[0]);
                        d.down_row(out[1], rr, w, &f, rows[1].line[0]);
                        if (check_planted())
                            out[1][0] = -out[1][0];
                        if (memcmp(out[0], out[1], sizeof(out[0])) &&
                            check_fail("scale %d w %d pattern %d: outputs differ", scale, w,
                                       pattern))
                            break;
                    }
            }
    }
    for (int s = 0; s < 2; s++)
        free(mem[s]);
}
