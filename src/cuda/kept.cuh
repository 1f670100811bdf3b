// What the twins share for their kept memory (runtime.h's ev_cuda_worker_memory) and grids:
// a bump layout that first measures (base == nullptr) and then places, and the block count of
// a 1-D grid.
#ifndef EV_CUDA_KEPT_CUH
#define EV_CUDA_KEPT_CUH

#include <cstddef>

#include <cuda_runtime.h>

#include "cuda/runtime.h"

// count T at offset inside base (nullptr: only measure); every block 256-byte aligned.
template <class T>
T *ev_take(char *base, size_t &offset, size_t count)
{
    T *p = base ? reinterpret_cast<T *>(base + offset) : nullptr;
    offset += (count * sizeof(T) + 255) & ~size_t(255);
    return p;
}

// A twin's buffers b in the worker's kept memory (owner: the twin's state s):
// lay_out(s, dev, host, b, dev_bytes, host_bytes) is run once to measure, once to place.
template <class State, class Bufs, class LayOut>
int ev_kept_layout(const State *s, EvCudaWorker *gpu, Bufs &b, LayOut lay_out)
{
    size_t dev_bytes, host_bytes;
    lay_out(s, nullptr, nullptr, b, dev_bytes, host_bytes);
    void *dev, *host;
    const int err = ev_cuda_worker_memory(gpu, s, dev_bytes, host_bytes, &dev, &host);
    if (!err)
        lay_out(s, static_cast<char *>(dev), static_cast<char *>(host), b, dev_bytes, host_bytes);
    return err;
}

// The start every kept-buffer twin's launch() shares (base/extractor.h's contract): nothing to
// queue for an abandoned frame (ref == NULL); else the state, its buffers in the kept memory of
// the worker that holds pic (the frame's ref or dis) and that worker's stream, handed to
// body(s, b, stream), whose result is returned.
template <class State, class Bufs, class LayOut, class Body>
int ev_kept_launch(const void *state, const EvPic *ref, const EvPic *pic, LayOut lay_out, Body body)
{
    if (!ref)
        return 0;
    const State *s = static_cast<const State *>(state);
    Bufs b;
    const int err = ev_kept_layout(s, pic->gpu, b, lay_out);
    if (err)
        return err;
    return body(s, b, static_cast<cudaStream_t>(ev_cuda_stream(pic->gpu)));
}

// The start every kept-buffer twin's extract() shares: the state and its buffers, once the
// worker's stream has finished the frame (name: the twin's, for the error line), handed to
// body(s, b), whose result is returned.
template <class State, class Bufs, class LayOut, class Body>
int ev_kept_extract(const void *state, const EvPic *pic, const char *name, LayOut lay_out,
                    Body body)
{
    const State *s = static_cast<const State *>(state);
    Bufs b;
    int err = ev_kept_layout(s, pic->gpu, b, lay_out);
    if (!err)
        err = ev_cuda_finish(pic->gpu, name);
    return err ? err : body(s, b);
}

// Blocks of `per` threads that cover n.
inline unsigned ev_blocks(int n, int per)
{
    return (unsigned)((n + per - 1) / per);
}

#endif
