/* Device evaluation of libm/glibc_log2.h's ev_glibc_log2, for the check of the device's
 * results against the host's glibc (tests/twins/glibc_log2_device_test.c). Not used by the
 * engine. Each call allocates, runs and frees: 0, or a negative code. */
#ifndef EV_LIBM_GLIBC_LOG2_CHECK_H
#define EV_LIBM_GLIBC_LOG2_CHECK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* out[i] = ev_glibc_log2((double)f) on the device, f the float of bits first + i, i < n. */
int ev_cuda_glibc_log2_floats(uint32_t first, uint32_t n, double *out);
/* out[i] = ev_glibc_log2(arg[i]) on the device, i < n. */
int ev_cuda_glibc_log2_doubles(const double *arg, size_t n, double *out);

#ifdef __cplusplus
}
#endif

#endif
