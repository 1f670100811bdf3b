/* One thread's memcpy rate for frame-sized copies, the work of vf_libvmaf.c's
 * copy_picture_data: 2160p 8-bit 4:2:0 frames copied from 16 rotating sources (not in cache)
 * into 16 rotating destinations, both warm (no page faults), the destinations in 4 KiB pages
 * and then in transparent huge pages (madvise). Prints GB/s and the frame pairs per second this
 * rate allows at 1080p and at 2160p.
 *   cc -O2 copy_rate.c -o copy_rate && ./copy_rate */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void measure(int huge)
{
    const size_t bytes = 3840u * 2160 * 3 / 2, n = 16,
                 span = (bytes + (2u << 20) - 1) & ~((2u << 20) - 1);
    unsigned char *src[16], *dst[16];
    for (size_t i = 0; i < n; i++) {
        src[i] = malloc(bytes);
        dst[i] = aligned_alloc(2u << 20, span);
        if (!src[i] || !dst[i])
            exit(1);
        madvise(dst[i], span, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
        memset(src[i], (int)i, bytes);
        memset(dst[i], 0, bytes);
    }
    double best = 0;
    for (int round = 0; round < 5; round++) {
        const double t0 = now();
        for (size_t k = 0; k < 64; k++)
            memcpy(dst[k % n], src[(k * 7) % n], bytes);
        const double rate = 64.0 * (double)bytes / (now() - t0) / 1e9;
        best = rate > best ? rate : best;
    }
    const double pair1080 = 2.0 * 1920 * 1080 * 3 / 2, pair2160 = 2.0 * (double)bytes;
    printf("memcpy, one thread, %s pages: %.2f GB/s: %.0f pairs/s at 1080p, %.0f at 2160p\n",
           huge ? "huge" : "4 KiB", best, best * 1e9 / pair1080, best * 1e9 / pair2160);
    for (size_t i = 0; i < n; i++) {
        free(src[i]);
        free(dst[i]);
    }
}

int main(void)
{
    measure(0);
    measure(1);
    return 0;
}
