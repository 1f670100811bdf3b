/* The speed family's C reference kernels (speed_kernels.h), with speed_math.h's arithmetic. */
#include "features/speed/speed_kernels.h"
#include "features/speed/speed_math.h"

void speed_cov_row_c(double *acc, const float *d, const ptrdiff_t stride, const float *mean,
                     const int n)
{
    for (int j = 0; j < n; j++) {
        double v[SPEED_COV_N];
        for (int o = 0; o < SPEED_COV_N; o++)
            v[o] = speed_centre(d[(o / 5) * stride + o % 5 + j], mean[o]);
        for (int x = 0, t = 0; x < SPEED_COV_N; x++)
            for (int y = 0; y <= x; y++, t++)
                acc[t] = speed_cov_add(acc[t], v[x], v[y]);
    }
}
