/* EV_HD: per-sample arithmetic shared by the C reference and the CUDA twins (DESIGN.md). */
#ifndef EV_BASE_HD_H
#define EV_BASE_HD_H

#ifdef __CUDACC__
#define EV_HD static __host__ __device__ __forceinline__
#else
#define EV_HD static inline
#endif

/* A struct member aligned to n bytes, in C and in CUDA C++ (for 16-byte vector accesses). */
#ifdef __cplusplus
#define EV_ALIGN(n) alignas(n)
#else
#define EV_ALIGN(n) _Alignas(n)
#endif

/* Unroll the next loop in device code (its trip count known once inlined); nothing in C. */
#ifdef __CUDACC__
#define EV_UNROLL _Pragma("unroll")
#else
#define EV_UNROLL
#endif

#endif
