/*
 * What ciede.c shares with its CUDA twin (ciede.cu): the frame's geometry, and the chroma
 * upsampling read of libvmaf (ciede.c's chroma_at/chroma_offset, quirks included) as EV_HD
 * functions over a plane pointer, so that both sides index the same samples.
 */
#ifndef EV_FEATURES_CIEDE_TWIN_H
#define EV_FEATURES_CIEDE_TWIN_H

#include <stddef.h>
#include <stdint.h>

#include "base/extractor.h"
#include "base/hd.h"
#include "base/picture.h"
#include "features/ciede/ciede_math.h"

typedef struct CiedeGeom {
    unsigned w, h, bpc;
    int layout; /* EvPixelLayout */
    unsigned chroma_w;
    unsigned nf_stride; /* libvmaf's chroma stride in samples: chroma_w rounded up to 32 */
    CiedeRange range;
} CiedeGeom;

/* One plane of samples (uint8_t when bpc == 8, else uint16_t), rows stride bytes apart. */
typedef struct CiedePlane {
    const void *p;
    ptrdiff_t stride;
} CiedePlane;

EV_HD unsigned ciede_sample(const CiedePlane pl, const unsigned bpc, const unsigned row,
                            const unsigned col)
{
    const char *r = (const char *)pl.p + (ptrdiff_t)row * pl.stride;
    return bpc > 8 ? ((const uint16_t *)r)[col] : ((const uint8_t *)r)[col];
}

/* libvmaf's read for output (i, j) of a 4:2:0 or 4:2:2 chroma plane: offset (i / 2) rows of
 * nf_stride samples plus j / 2 (4:2:0) or j (4:2:2, running on into the next rows), 0 in the
 * padding between chroma_w and nf_stride. */
EV_HD unsigned ciede_chroma_read(const CiedeGeom *g, const CiedePlane pl, const unsigned i,
                                 const unsigned j)
{
    const size_t col_in = g->layout == EV_PIX_420 ? j / 2 : j;
    const size_t k = (size_t)(i / 2) * g->nf_stride + col_in;
    const unsigned row = (unsigned)(k / g->nf_stride), col = (unsigned)(k % g->nf_stride);
    if (col >= g->chroma_w)
        return 0;
    return ciede_sample(pl, g->bpc, row, col);
}

/* The L*a*b* of output (i, j) of a picture given by its three planes. */
EV_HD CiedeLab ciede_lab_at(const CiedeGeom *g, const CiedePlane y, const CiedePlane u,
                            const CiedePlane v, const unsigned i, const unsigned j)
{
    unsigned cu, cv;
    if (g->layout == EV_PIX_444) {
        cu = ciede_sample(u, g->bpc, i, j);
        cv = ciede_sample(v, g->bpc, i, j);
    } else {
        cu = ciede_chroma_read(g, u, i, j);
        cv = ciede_chroma_read(g, v, i, j);
    }
    return ciede_lab_of(ciede_sample(y, g->bpc, i, j), cu, cv, g->range);
}

#ifdef __cplusplus
extern "C" {
#endif
/* ciede.c: the geometry of an initialised state, and the twin's log (set by its init). */
CiedeGeom ciede_geom(const void *state);
const EvLog *ciede_log(const void *state);
/* ciede.cu: the twin's frame (launch queues the kernel and the copy of the per-pixel dE00;
 * extract waits, sums them in raster order as the reference does, and emits the score). */
int ev_ciede_cuda_init(const void *state, const EvLog *log);
EV_LAUNCH_FN(ev_ciede_launch_cuda);
EV_EXTRACT_FN(ev_ciede_extract_cuda);
#ifdef __cplusplus
}
#endif

#endif
