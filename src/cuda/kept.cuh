// What the twins share for their kept memory (runtime.h's ev_cuda_worker_memory) and grids:
// a bump layout that first measures (base == nullptr) and then places, and the block count of
// a 1-D grid.
#ifndef EV_CUDA_KEPT_CUH
#define EV_CUDA_KEPT_CUH

#include <cstddef>

#include "cuda/runtime.h"

// count T at offset inside base (nullptr: only measure); every block 256-byte aligned.
template <class T> T *ev_take(char *base, size_t &offset, size_t count)
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

// Blocks of `per` threads that cover n.
inline unsigned ev_blocks(int n, int per)
{
    return (unsigned)((n + per - 1) / per);
}

#endif
