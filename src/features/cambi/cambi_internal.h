/* CAMBI inside the library: options, the shared state, per-worker buffers, and the stages
 * (cambi_frame.c: one picture's score; cambi_pool.c: spatial pooling; cambi_tvi.c: tables). */
#ifndef EV_FEATURES_CAMBI_INTERNAL_H
#define EV_FEATURES_CAMBI_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "base/extractor.h"
#include "features/cambi/cambi_kernels.h"
#include "features/cambi/cambi_math.h"
#include "features/cambi/cambi_twin.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum CambiEotf { CAMBI_EOTF_BT1886, CAMBI_EOTF_PQ } CambiEotf;

typedef struct CambiOpts {
    double cambi_max_val;
    int enc_width, enc_height, enc_bitdepth;
    int src_width, src_height;
    int window_size;
    double topk, cambi_topk;
    double tvi_threshold;
    double cambi_vis_lum_threshold;
    int max_log_contrast;
    char heatmaps_path[EV_OPT_STRING_SIZE];
    int full_ref;
    char eotf[EV_OPT_STRING_SIZE];
    char cambi_eotf[EV_OPT_STRING_SIZE];
    int cambi_high_res_speedup;
} CambiOpts;

/* What one picture (distorted, or the reference in full_ref mode) is scored at. */
typedef struct CambiGeometry {
    unsigned w, h;               /* the size it is resampled to (encode or source size) */
    unsigned window;             /* the adjusted window, odd */
    unsigned *col_src, *row_src; /* nearest-neighbour source column/row of each output one */
    int cols_identity;           /* col_src[j] = j: rows are taken whole */
} CambiGeometry;

typedef struct CambiState {
    CambiOpts opts;
    char name[256];           /* "cambi" and its option suffixes */
    unsigned in_w, in_h, bpc; /* the input pictures */
    unsigned enc_bitdepth;
    int speedup; /* the high-resolution speed-up applies */
    double topk;
    unsigned mask_threshold_dis, mask_threshold_src;
    CambiGeometry dis, src;    /* src: only with full_ref */
    unsigned alloc_w, alloc_h; /* the largest picture scored */
    CambiTables *tables;
    int heatmap_fd[CAMBI_NUM_SCALES]; /* -1 when no heatmaps are written */
    const EvLog *log;                 /* the context's, for per-frame refusals */
    CambiDsp dsp;                     /* the row kernels of the CPU's level */
} CambiState;

/* The flags of the mask's window (7 rows) and of the row leaving it. */
#define CAMBI_FLAG_ROWS (CAMBI_MASK_FILTER + 1)

/* Per-worker buffers, carved from the scratch block (cambi_scratch_layout). */
typedef struct CambiScratch {
    uint16_t *image;     /* alloc_w x alloc_h, row stride alloc_w */
    uint8_t *mask;       /* alloc_w x alloc_h */
    uint16_t *codes;     /* alloc_w x alloc_h: band code of each counted pixel */
    uint16_t *hist;      /* band_n x alloc_w window counts */
    uint16_t *mode_rows; /* 3 x alloc_w */
    uint8_t *count;      /* alloc_w + 6: the mask's vertical counts of flags, 3 zeros each side */
    uint8_t *flags;      /* CAMBI_FLAG_ROWS x alloc_w: the last rows' zero-derivative flags */
    uint8_t *zeros;      /* alloc_w zeros: no row of flags */
    float *c_values;     /* alloc_w x alloc_h */
    uint32_t *radix;     /* 2 x 65536 counts of the pooling's selection */
} CambiScratch;

size_t cambi_scratch_size(const CambiState *s);
void cambi_scratch_carve(const CambiState *s, void *block, CambiScratch *out);

/* Score one picture: resample to g, preprocess, mask, five scales (heatmaps when fds given).
 * Returns 0, or -EINVAL for a sample above the bit depth's maximum (logged through s->log). */
int cambi_picture_score(const CambiState *s, const CambiGeometry *g, unsigned mask_threshold,
                        const EvPic *pic, CambiScratch *sc, const int *heatmap_fd, unsigned frame,
                        double *score);

/* Log the reference's refusal of a luma sample above the depth's maximum, naming the picture
 * (g: s->dis, the distorted; s->src, the reference with full_ref); -EINVAL. */
int cambi_range_error(const CambiState *s, const CambiGeometry *g, unsigned frame, unsigned value,
                      unsigned x, unsigned y, unsigned bpc);
/* libvmaf's dump_c_values of one scale's c[] (w x h) into fd at frame's place. */
int cambi_write_heatmap(int fd, const CambiTables *t, const float *c, unsigned w, unsigned h,
                        unsigned window, unsigned frame, uint16_t *row_buf);

/* What the pooling needs to know of a scale's values, gathered as they are computed: the exact
 * sum in units of 2^-24 (cambi_pool.c), how many are not 0, and whether one is not of the form
 * the exact sum relies on. */
typedef struct CambiTotals {
    uint64_t units;
    unsigned nonzero;
    int irregular;
} CambiTotals;

static inline void cambi_totals_reset(CambiTotals *t)
{
    t->units = 0;
    t->nonzero = 0;
    t->irregular = 0;
}

/* 0, or a float in [0.5, 2^14): a whole number of 2^-24 units below 2^38. */
static inline void cambi_totals_add(CambiTotals *t, const float v)
{
    if (v == 0.0f)
        return;
    t->irregular |= !cambi_value_regular(v);
    t->units += cambi_value_units(v);
    t->nonzero++;
}

/* Mean of the topk_count largest of c[0..n) (libvmaf's quick select then a double sum in the
 * order it leaves them), given the totals of c. c may be reordered. */
double cambi_topk_mean(float *c, unsigned n, int topk_count, const CambiTotals *tot,
                       uint32_t *radix);
/* The exact path of cambi_topk_mean from what it gathers: the totals, and when more than k
 * values are not 0, the k-th largest value's bits and the count and unit sum of the values
 * above it. 0 and *mean set, or 1 when the reference's order must be reproduced (a value not
 * of the proven form, or a sum of 2^53 units or more). Shared with the CUDA twin. */
int cambi_topk_exact(const CambiTotals *tot, unsigned k, uint32_t kth_bits, unsigned above,
                     uint64_t above_units, double *mean);
/* The reference's order: its quick select and sum (the fallback of cambi_topk_mean). */
double cambi_topk_mean_select(float *c, unsigned n, int topk_count);

/* Tables (cambi_tvi.c). */
int cambi_eotf_parse(const char *name, CambiEotf *out);
double cambi_luminance(int code, CambiEotf eotf);
int cambi_tvi_for_diff(int diff, double tvi, CambiEotf eotf); /* -1: not found */
int cambi_vlt_luma(double threshold, CambiEotf eotf);         /* -1: not found */
void cambi_recip_table(float recip[CAMBI_RECIP_SIZE]);
int cambi_tables_init(CambiTables *t, const CambiOpts *o, CambiEotf eotf);

#ifdef __cplusplus
}
#endif

#endif
