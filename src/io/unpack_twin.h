/*
 * decode.c's unpack of NVDEC's frames (NV12, P010, P016, 16-bit planar 4:4:4) into the
 * software decoder's layout, on the device: for frames that stay there (INPUT.md, "Not yet").
 * The arithmetic per sample is unpack_math.h's, shared with the host unpack; the check is
 * tests/decode/unpack_twin_test.c (label gpu). Without CUDA every call reports -ENOSYS.
 */
#ifndef EV_IO_UNPACK_TWIN_H
#define EV_IO_UNPACK_TWIN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A frame as NVDEC leaves it in device memory. semi: chroma in plane[1] as U/V pairs (NV12,
 * P010, P016); else U and V in plane[1] and plane[2]. */
typedef struct EvUnpackFrame {
    const void *plane[3];
    ptrdiff_t pitch[3]; /* bytes */
    int semi;
} EvUnpackFrame;

/* Queue, on stream (a cudaStream_t; NULL: the legacy default stream), the unpack of in
 * (width x height luma, chroma_w x chroma_h chroma; bytes 1 or 2 per sample; shift: the
 * MSB-alignment to remove) into three planes out[] (device memory, pitches in bytes).
 * @return 0, or a negative code with one line in why. */
int ev_unpack_twin(const EvUnpackFrame *in, unsigned width, unsigned height, unsigned chroma_w,
                   unsigned chroma_h, unsigned bytes, unsigned shift, void *const out[3],
                   const ptrdiff_t out_pitch[3], void *stream, char *why, size_t why_size);

#ifdef __cplusplus
}
#endif

#endif
