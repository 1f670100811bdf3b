/* Adverse device conditions for the stream-ordering test (tests/twins/first_frames_test.c):
 * not used by the engine. */
#ifndef EV_CUDA_STREAM_CHECK_H
#define EV_CUDA_STREAM_CHECK_H

#ifdef __cplusplus
extern "C" {
#endif

/* Allocate `mib` MiB of device memory, fill it with 0xff bytes and free it (the allocations
 * that follow are then likely to start dirty, as reused memory does), then keep the legacy
 * default stream busy for about `ms` milliseconds with one spinning block (queued: the call
 * returns at once). Work ordered only after the legacy stream is delayed that long; the
 * engine's non-blocking streams are not. 0, or a negative code. */
int ev_cuda_test_adverse(unsigned mib, unsigned ms);
/* Wait for the legacy default stream. */
int ev_cuda_test_settle(void);

#ifdef __cplusplus
}
#endif

#endif
