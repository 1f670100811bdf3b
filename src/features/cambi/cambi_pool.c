/* CAMBI's spatial pooling (libvmaf feature/cambi.c spatial_pooling): the mean of the k largest
 * contrast values. libvmaf quick-selects them in place and sums them in double in the order
 * the selection leaves them.
 *
 * The order only matters when that sum rounds. Every value is 0 or a float >= 0.5 (p0 >= 1
 * and p >= 1 give weight * p0 * p / (p0 + p) >= 1/2) and below 2^14, so it is an integer
 * number of units of 2^-24 below 2^38. When the exact sum of the k largest is below 2^53 units,
 * every partial sum of any order is exact in double and equals the reference's; the k largest
 * are found without reordering (a radix selection on the float bits, which order like the
 * values for non-negative floats). Otherwise (or for a value outside that form) the reference's
 * selection and order are reproduced. */
#include <string.h>

#include "features/cambi/cambi_internal.h"

#define UNIT_SCALE 16777216.0 /* 2^24 */
#define EXACT_LIMIT (UINT64_C(1) << 53)

static uint32_t float_bits(const float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof(b));
    return b;
}

/* A value of the proven form (0, or a float in [0.5, 2^14)) in units of 2^-24. */
static uint64_t units_of(const float v)
{
    return cambi_value_units(v);
}

/* The k-th largest value's bits among c[0..n) (k >= 1), by two 16-bit counting passes. */
static uint32_t kth_largest_bits(const float *c, const unsigned n, const unsigned k,
                                 uint32_t *radix)
{
    uint32_t *hist = radix;
    memset(hist, 0, 65536 * sizeof(*hist));
    for (unsigned i = 0; i < n; i++)
        hist[float_bits(c[i]) >> 16]++;
    unsigned left = k, hi = 65535;
    while (hist[hi] < left)
        left -= hist[hi--];
    memset(hist, 0, 65536 * sizeof(*hist));
    for (unsigned i = 0; i < n; i++) {
        const uint32_t b = float_bits(c[i]);
        if (b >> 16 == hi)
            hist[b & 0xffff]++;
    }
    unsigned lo = 65535;
    while (hist[lo] < left)
        left -= hist[lo--];
    return hi << 16 | lo;
}

int cambi_topk_exact(const CambiTotals *tot, const unsigned k, const uint32_t kth_bits,
                     const unsigned above, const uint64_t above_units, double *mean)
{
    if (tot->irregular)
        return 1;
    uint64_t sum = tot->units; /* the k largest hold every non-zero value */
    if (tot->nonzero > k) {
        float t;
        memcpy(&t, &kth_bits, sizeof(t));
        sum = above_units + (uint64_t)(k - above) * units_of(t);
    }
    if (sum >= EXACT_LIMIT)
        return 1;
    *mean = (double)sum / UNIT_SCALE / (int)k;
    return 0;
}

double cambi_topk_mean(float *c, const unsigned n, const int topk_count, const CambiTotals *tot,
                       uint32_t *radix)
{
    const unsigned k = (unsigned)topk_count;
    uint32_t kth = 0;
    unsigned above = 0;
    uint64_t above_units = 0;
    if (!tot->irregular && tot->nonzero > k) {
        kth = kth_largest_bits(c, n, k, radix);
        for (unsigned i = 0; i < n; i++) {
            if (float_bits(c[i]) > kth) {
                above_units += units_of(c[i]);
                above++;
            }
        }
    }
    double mean;
    if (cambi_topk_exact(tot, k, kth, above, above_units, &mean))
        return cambi_topk_mean_select(c, n, topk_count);
    return mean;
}

/* libvmaf's selection: Hoare partitions around arr[k] until position k separates the k
 * largest (descending side first); nothing moves when k == n. */
static void select_largest(float *a, const int n, const int k)
{
    if (n == k)
        return;
    int left = 0, right = n - 1;
    while (left < right) {
        const float pivot = a[k];
        int i = left, j = right;
        do {
            while (a[i] > pivot)
                i++;
            while (a[j] < pivot)
                j--;
            if (i <= j) {
                const float t = a[i];
                a[i] = a[j];
                a[j] = t;
                i++;
                j--;
            }
        } while (i <= j);
        if (j < k)
            left = i;
        if (k < i)
            right = j;
    }
}

double cambi_topk_mean_select(float *c, const unsigned n, const int topk_count)
{
    select_largest(c, (int)n, topk_count);
    double sum = 0;
    for (int i = 0; i < topk_count; i++)
        sum += c[i];
    return sum / topk_count;
}
