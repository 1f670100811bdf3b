/* ciede: CIEDE2000 colour difference (ciede2000 = 45 - 20 log10(mean dE00)), as libvmaf's
 * feature/ciede.c; per-pixel arithmetic in ciede_math.h. Chroma is brought to luma size the
 * way libvmaf's scale_chroma_planes reads it, quirks included (see chroma_rows, ciede_twin.h).
 *
 * Two loops give the same sum: frame_sum_reference (the spec, run when --cpumask masks AVX2
 * and up, like every family's C reference, so the golden tests check it) and frame_sum_memo,
 * which skips pixels whose two YCbCr triples are equal (dE00 is then exactly +0, and adding
 * +0 leaves the non-negative running sum's bits unchanged) and remembers the L*a*b* of recent
 * triples (a pure function of the triple) in a small direct-mapped cache. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "base/cpu.h"
#include "base/extractor.h"
#include "features/ciede/ciede_math.h"
#include "features/ciede/ciede_twin.h"

#define LAB_CACHE_BITS 12
#define LAB_CACHE_SIZE (1u << LAB_CACHE_BITS)

typedef struct CiedeState {
    unsigned w, h, bpc;
    EvPixelLayout layout;
    unsigned chroma_w, chroma_h;
    unsigned nf_stride; /* libvmaf's chroma stride in samples: chroma_w rounded up to 32 */
    CiedeRange range;
    int reference_only; /* run frame_sum_reference (C level of --cpumask) */
    const EvLog *log;   /* the CUDA twin's, for its per-frame errors */
} CiedeState;

/* One remembered conversion; key 0 is empty (a stored key has bit 48 set). */
typedef struct LabCacheEntry {
    uint64_t key;
    CiedeLab lab;
} LabCacheEntry;

/* Per worker: one luma-sized row of each chroma plane of both pictures, and the cache. */
typedef struct CiedeScratch {
    uint16_t *ref_u, *ref_v, *dis_u, *dis_v;
    LabCacheEntry *cache;
} CiedeScratch;

/*
 * libvmaf upsamples 4:2:0 and 4:2:2 chroma with one loop for both: output row i reads input
 * row i / 2 and output column j reads input column j / 2 for 4:2:0 but j for 4:2:2 (its
 * horizontal test uses the vertical flag), so a 4:2:2 row runs on into the next chroma rows
 * of the plane as laid out in libvmaf's picture: rows nf_stride samples apart, the samples
 * between chroma_w and nf_stride zero. ciede_chroma_read (ciede_twin.h, shared with the CUDA
 * twin) reads that way; the offset of libvmaf's read for output (i, j):
 */
static size_t chroma_offset(const CiedeState *s, unsigned i, unsigned j)
{
    const size_t col = s->layout == EV_PIX_420 ? j / 2 : j;
    return (size_t)(i / 2) * s->nf_stride + col;
}

CiedeGeom ciede_geom(const void *state)
{
    const CiedeState *s = state;
    const CiedeGeom g = { s->w, s->h, s->bpc, (int)s->layout, s->chroma_w, s->nf_stride, s->range };
    return g;
}

const EvLog *ciede_log(const void *state)
{
    return ((const CiedeState *)state)->log;
}

static int ciede_init(void *state, const void *opts, const EvPicInfo *info, const EvLog *log)
{
    CiedeState *s = state;
    if (ev_require_chroma(info, "ciede", log))
        return -EINVAL;
    /* libvmaf reads 8-bit or 16-bit samples for these depths only and fails the others */
    if (info->bpc != 8 && info->bpc != 10 && info->bpc != 12 && info->bpc != 16) {
        ev_log(log, EV_LOG_ERROR, "ciede: %u bits per sample unsupported (8, 10, 12, 16)",
               info->bpc);
        return -EINVAL;
    }
    s->w = info->width;
    s->h = info->height;
    s->bpc = info->bpc;
    s->layout = info->layout;
    ev_pic_plane_size(info->width, info->height, info->layout, 1, &s->chroma_w, &s->chroma_h);
    s->nf_stride = (s->chroma_w + 31) & ~31u;
    s->range = ciede_range(info->bpc);
    s->reference_only = !(info->cpu & EV_CPU_AVX2);
    if (s->layout == EV_PIX_444)
        return 0;
    /* the last read must stay inside the chroma plane; past it libvmaf reads the next plane
     * or outside its buffer (odd 4:2:0 heights; odd 4:2:0 widths whose chroma width is a
     * multiple of 32; 4:2:2 frames of one row...), and its value then depends on memory it
     * never wrote (it changes with MALLOC_PERTURB_) */
    const size_t last = s->nf_stride ? chroma_offset(s, s->h - 1, s->w - 1) : 0;
    if (!s->chroma_w || !s->chroma_h || last / s->nf_stride >= s->chroma_h) {
        ev_log(log, EV_LOG_ERROR,
               "ciede: frame %ux%u %s is unsupported: libvmaf's chroma upsampling reads past "
               "its %ux%u chroma planes, into memory it never wrote",
               s->w, s->h, s->layout == EV_PIX_420 ? "4:2:0" : "4:2:2", s->chroma_w, s->chroma_h);
        return -EINVAL;
    }
    return 0;
}

static size_t ciede_scratch_size(const void *state)
{
    const CiedeState *s = state;
    return LAB_CACHE_SIZE * sizeof(LabCacheEntry) + 4 * (size_t)s->w * sizeof(uint16_t);
}

static CiedeScratch carve(const CiedeState *s, void *scratch)
{
    LabCacheEntry *cache = scratch;
    uint16_t *rows = (uint16_t *)(cache + LAB_CACHE_SIZE);
    const size_t w = s->w;
    const CiedeScratch b = { rows, rows + w, rows + 2 * w, rows + 3 * w, cache };
    return b;
}

/* Row i of the luma-sized chroma of pic, as libvmaf's upsampled picture holds it. */
static void chroma_rows(const CiedeState *s, const EvPic *pic, unsigned i, uint16_t *u, uint16_t *v)
{
    const CiedeGeom g = ciede_geom(s);
    const CiedePlane pu = { pic->data[1], pic->stride[1] }, pv = { pic->data[2], pic->stride[2] };
    for (unsigned j = 0; j < s->w; j++) {
        if (s->layout == EV_PIX_444) {
            u[j] = (uint16_t)ciede_sample(pu, pic->bpc, i, j);
            v[j] = (uint16_t)ciede_sample(pv, pic->bpc, i, j);
        } else {
            u[j] = (uint16_t)ciede_chroma_read(&g, pu, i, j);
            v[j] = (uint16_t)ciede_chroma_read(&g, pv, i, j);
        }
    }
}

static uint16_t luma_at(const EvPic *pic, unsigned i, unsigned j)
{
    return pic->bpc > 8 ? ev_pic_row16(pic, 0, i)[j] : ev_pic_row8(pic, 0, i)[j];
}

/* Row i's chroma of both pictures, at luma resolution, into the scratch rows. */
static void both_chroma_rows(const CiedeState *s, const CiedeScratch *b, const EvPic *ref,
                             const EvPic *dis, unsigned i)
{
    chroma_rows(s, ref, i, b->ref_u, b->ref_v);
    chroma_rows(s, dis, i, b->dis_u, b->dis_v);
}

/* The spec: every pixel's dE00 added to a double in raster order. */
static double frame_sum_reference(const CiedeState *s, const CiedeScratch *b, const EvPic *ref,
                                  const EvPic *dis)
{
    double de00_sum = 0.;
    for (unsigned i = 0; i < s->h; i++) {
        both_chroma_rows(s, b, ref, dis, i);
        for (unsigned j = 0; j < s->w; j++) {
            const CiedeLab p = ciede_lab_of(luma_at(ref, i, j), b->ref_u[j], b->ref_v[j], s->range);
            const CiedeLab q = ciede_lab_of(luma_at(dis, i, j), b->dis_u[j], b->dis_v[j], s->range);
            de00_sum += ciede2000(p, q);
        }
    }
    return de00_sum;
}

static CiedeLab lab_cached(const CiedeState *s, LabCacheEntry *cache, unsigned y, unsigned u,
                           unsigned v)
{
    const uint64_t key = (uint64_t)y | (uint64_t)u << 16 | (uint64_t)v << 32 | (uint64_t)1 << 48;
    LabCacheEntry *e = &cache[(key * 0x9E3779B97F4A7C15ull) >> (64 - LAB_CACHE_BITS)];
    if (e->key != key) {
        e->key = key;
        e->lab = ciede_lab_of(y, u, v, s->range);
    }
    return e->lab;
}

/* The same sum: equal triples skipped (+0), conversions remembered. */
static double frame_sum_memo(const CiedeState *s, const CiedeScratch *b, const EvPic *ref,
                             const EvPic *dis)
{
    double de00_sum = 0.;
    for (unsigned i = 0; i < s->h; i++) {
        both_chroma_rows(s, b, ref, dis, i);
        for (unsigned j = 0; j < s->w; j++) {
            const unsigned ry = luma_at(ref, i, j), dy = luma_at(dis, i, j);
            if (ry == dy && b->ref_u[j] == b->dis_u[j] && b->ref_v[j] == b->dis_v[j])
                continue;
            const CiedeLab p = lab_cached(s, b->cache, ry, b->ref_u[j], b->ref_v[j]);
            const CiedeLab q = lab_cached(s, b->cache, dy, b->dis_u[j], b->dis_v[j]);
            de00_sum += ciede2000(p, q);
        }
    }
    return de00_sum;
}

static int ciede_extract(const void *state, void *scratch, const EvPic *ref, const EvPic *dis,
                         unsigned frame, EvSink *sink)
{
    const CiedeState *s = state;
    const CiedeScratch b = carve(s, scratch);
    const double de00_sum =
        s->reference_only ? frame_sum_reference(s, &b, ref, dis) : frame_sum_memo(s, &b, ref, dis);
    /* libvmaf divides by the unsigned product w * h */
    const double score = ciede_score(de00_sum, (double)(s->w * s->h));
    return ev_sink_put(sink, "ciede2000", frame, score);
}

/* The twin has its own init (below), so only the name and the state are common. */
#define CIEDE_CLASS EV_CLASS_COMMON("ciede", CiedeState)
const EvExtractorClass ev_fex_ciede = { CIEDE_CLASS, .init = ciede_init,
                                        .scratch_size = ciede_scratch_size,
                                        .extract = ciede_extract };

#ifdef EV_HAVE_CUDA
/* The twin: the CPU's init, then glibc's tables (glibc_ibm_tables.c) for the device libm. */
static int ciede_cuda_init(void *state, const void *opts, const EvPicInfo *info, const EvLog *log)
{
    const int err = ciede_init(state, opts, info, log);
    ((CiedeState *)state)->log = log;
    return err ? err : ev_ciede_cuda_init(state, log);
}

const EvExtractorClass ev_cuda_ciede = { CIEDE_CLASS, .flags = EV_FEX_CUDA, .init = ciede_cuda_init,
                                         .launch = ev_ciede_launch_cuda,
                                         .extract = ev_ciede_extract_cuda };
#endif
