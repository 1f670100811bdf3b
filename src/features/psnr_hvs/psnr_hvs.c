/* psnr_hvs: Xiph.Org's PSNR-HVS per plane (psnr_hvs_y/_cb/_cr) and combined (psnr_hvs), as
 * libvmaf's feature/third_party/xiph/psnr_hvs.c; block arithmetic in psnr_hvs_math.h. */
#include <errno.h>
#include <stdint.h>

#include "core/extractor.h"
#include "features/psnr_hvs/psnr_hvs_csf.h"
#include "features/psnr_hvs/psnr_hvs_math.h"

static const float csf_tables[3][64] = { PSNR_HVS_CSF_Y, PSNR_HVS_CSF_CB, PSNR_HVS_CSF_CR };

typedef struct PsnrHvsState {
    unsigned bpc;
    float mask[3][64];
} PsnrHvsState;

static int psnr_hvs_init(void *state, const void *opts, const EvPicInfo *info,
                         const EvLog *log)
{
    (void)opts;
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
    for (int p = 0; p < 3; p++)
        for (int k = 0; k < 64; k++)
            s->mask[p][k] = psnr_hvs_mask_weight(csf_tables[p][k]);
    return 0;
}

/* The 8x8 block of plane p whose top left sample is (x, y), as ints. */
static void load_block(const EvPic *pic, unsigned p, unsigned x, unsigned y, int32_t blk[64])
{
    for (unsigned i = 0; i < 8; i++) {
        if (pic->bpc > 8) {
            const uint16_t *row = ev_pic_row16(pic, p, y + i) + x;
            for (unsigned j = 0; j < 8; j++)
                blk[i * 8 + j] = row[j];
        } else {
            const uint8_t *row = ev_pic_row8(pic, p, y + i) + x;
            for (unsigned j = 0; j < 8; j++)
                blk[i * 8 + j] = row[j];
        }
    }
}

/* One plane's score before dB: blocks in raster order, one running float. */
static double plane_score(const PsnrHvsState *s, const EvPic *ref, const EvPic *dis,
                          unsigned p)
{
    const float *mask = s->mask[p], *csf = csf_tables[p];
    const int w = (int)ref->w[p], h = (int)ref->h[p];
    float sum = 0;
    int n_coeffs = 0;
    for (int y = 0; y < h - 7; y += PSNR_HVS_STEP) {
        for (int x = 0; x < w - 7; x += PSNR_HVS_STEP) {
            int32_t bs[64], bd[64];
            load_block(ref, p, (unsigned)x, (unsigned)y, bs);
            load_block(dis, p, (unsigned)x, (unsigned)y, bd);
            const int32_t *const pair[2] = { bs, bd };
            float ratio[2], energy[2];
            psnr_hvs_variance_ratio2(pair, ratio);
            psnr_hvs_fdct8x8(bs);
            psnr_hvs_fdct8x8(bd);
            psnr_hvs_ac_energy2(pair, mask, energy);
            const float th_s = psnr_hvs_threshold(energy[0], ratio[0]);
            const float th_d = psnr_hvs_threshold(energy[1], ratio[1]);
            sum = psnr_hvs_block_error(sum, bs, bd, th_d > th_s ? th_d : th_s, mask, csf);
            n_coeffs += 64;
        }
    }
    return psnr_hvs_plane_score(sum, n_coeffs, s->bpc);
}

static int psnr_hvs_extract(const void *state, void *scratch, const EvPic *ref,
                            const EvPic *dis, unsigned frame, EvSink *sink)
{
    (void)scratch;
    const PsnrHvsState *s = state;
    static const char *const names[3] = { "psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr" };
    double score[3];
    for (unsigned p = 0; p < 3; p++) {
        score[p] = plane_score(s, ref, dis, p);
        const int err = ev_sink_put(sink, names[p], frame, psnr_hvs_db(score[p]));
        if (err)
            return err;
    }
    const double combined = psnr_hvs_combined(score[0], score[1], score[2]);
    return ev_sink_put(sink, "psnr_hvs", frame, psnr_hvs_db(combined));
}

const EvExtractorClass ev_fex_psnr_hvs = {
    .name = "psnr_hvs",
    .state_size = sizeof(PsnrHvsState),
    .init = psnr_hvs_init,
    .extract = psnr_hvs_extract,
};
