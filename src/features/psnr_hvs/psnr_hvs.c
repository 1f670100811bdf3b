/* psnr_hvs: Xiph.Org's PSNR-HVS per plane (psnr_hvs_y/_cb/_cr) and combined (psnr_hvs), as
 * libvmaf's feature/third_party/xiph/psnr_hvs.c; block arithmetic in psnr_hvs_math.h. */
#include <errno.h>
#include <stdint.h>

#include "base/extractor.h"
#include "features/psnr_hvs/psnr_hvs.h"
#include "features/psnr_hvs/psnr_hvs_csf.h"
#include "features/psnr_hvs/psnr_hvs_math.h"

static const float csf_tables[3][64] = { PSNR_HVS_CSF_Y, PSNR_HVS_CSF_CB, PSNR_HVS_CSF_CR };

static int psnr_hvs_init(void *state, const void *opts, const EvPicInfo *info, const EvLog *log)
{
    PsnrHvsState *s = state;
    if (ev_require_chroma(info, "psnr_hvs", log))
        return -EINVAL;
    if (info->bpc > PSNR_HVS_MAX_BPC) {
        ev_log(log, EV_LOG_ERROR, "psnr_hvs: %u bits per sample unsupported (at most %d)",
               info->bpc, PSNR_HVS_MAX_BPC);
        return -EINVAL;
    }
    /* A plane without a single 8x8 block (chroma under 8x8) is scored as libvmaf scores it:
     * 0 coefficients, 0 / 0, NaN (positive after the dB negation), not refused. */
    s->bpc = info->bpc;
    for (unsigned p = 0; p < 3; p++) {
        unsigned w, h;
        ev_pic_plane_size(info->width, info->height, info->layout, p, &w, &h);
        s->w[p] = (int)w;
        s->h[p] = (int)h;
        for (int k = 0; k < 64; k++) {
            s->csf[p][k] = csf_tables[p][k];
            s->mask[p][k] = psnr_hvs_mask_weight(csf_tables[p][k]);
        }
    }
    return 0;
}

/* One plane's running float sum: blocks in raster order, each block's terms in order. */
static float plane_sum(const PsnrHvsState *s, const EvPic *ref, const EvPic *dis, unsigned p)
{
    const int nx = psnr_hvs_blocks((int)ref->w[p]), ny = psnr_hvs_blocks((int)ref->h[p]);
    const int wide = ref->bpc > 8;
    float sum = 0;
    for (int by = 0; by < ny; by++) {
        for (int bx = 0; bx < nx; bx++) {
            const int x = bx * PSNR_HVS_STEP, y = by * PSNR_HVS_STEP;
            int32_t bs[64], bd[64];
            psnr_hvs_load_block(ref->data[p], ref->stride[p], wide, x, y, bs);
            psnr_hvs_load_block(dis->data[p], dis->stride[p], wide, x, y, bd);
            const float threshold = psnr_hvs_block_threshold(bs, bd, s->mask[p]);
            sum = psnr_hvs_block_error(sum, bs, bd, threshold, s->mask[p], s->csf[p]);
        }
    }
    return sum;
}

int ev_psnr_hvs_emit(const PsnrHvsState *s, const float sum[3], const int w[3], const int h[3],
                     unsigned frame, EvSink *sink)
{
    static const char *const names[3] = { "psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr" };
    double score[3];
    for (unsigned p = 0; p < 3; p++) {
        const int n_coeffs = 64 * psnr_hvs_blocks(w[p]) * psnr_hvs_blocks(h[p]);
        score[p] = psnr_hvs_plane_score(sum[p], n_coeffs, s->bpc);
        const int err = ev_sink_put(sink, names[p], frame, psnr_hvs_db(score[p]));
        if (err)
            return err;
    }
    const double combined = psnr_hvs_combined(score[0], score[1], score[2]);
    return ev_sink_put(sink, "psnr_hvs", frame, psnr_hvs_db(combined));
}

static int psnr_hvs_extract(const void *state, void *scratch, const EvPic *ref, const EvPic *dis,
                            unsigned frame, EvSink *sink)
{
    const PsnrHvsState *s = state;
    float sum[3];
    int w[3], h[3];
    for (unsigned p = 0; p < 3; p++) {
        sum[p] = plane_sum(s, ref, dis, p);
        w[p] = (int)ref->w[p];
        h[p] = (int)ref->h[p];
    }
    return ev_psnr_hvs_emit(s, sum, w, h, frame, sink);
}

#define PSNR_HVS_CLASS EV_CLASS_COMMON("psnr_hvs", PsnrHvsState), .init = psnr_hvs_init
const EvExtractorClass ev_fex_psnr_hvs = { PSNR_HVS_CLASS, .extract = psnr_hvs_extract };

#ifdef EV_HAVE_CUDA
/* The CUDA twin: the same init and outputs; the block terms and the plane sums in the
 * reference's order on the device (psnr_hvs.cu). */
const EvExtractorClass ev_cuda_psnr_hvs = { PSNR_HVS_CLASS, .flags = EV_FEX_CUDA,
                                            .launch = ev_psnr_hvs_launch_cuda,
                                            .extract = ev_psnr_hvs_extract_cuda };
#endif
