/* VmafContext on an EvContext: registration, pictures, scores, pooling, output. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compat.h"
#include "exactvmaf/cuda.h"

const char *vmaf_version(void)
{
    return "3.2.0-exactvmaf-" CV_EXACTVMAF_VERSION;
}

int vmaf_init(VmafContext **const vmaf, const VmafConfiguration cfg)
{
    if (!vmaf)
        return -EINVAL;
    *vmaf = NULL;
    VmafContext *v = calloc(1, sizeof(*v));
    if (!v)
        return -ENOMEM;
    v->cfg = cfg;
    v->log = cv_stderr_log(cfg.log_level);
    EvSettings *const s = &v->settings;
    ev_default_settings(s);
    s->n_threads = cfg.n_threads ? cfg.n_threads : 1; /* libvmaf's 0: the caller's thread */
    s->n_subsample = cfg.n_subsample;
    s->log = v->log.cb;
    s->log_level = v->log.level;
    s->backend = cfg.gpumask ? EV_BACKEND_CPU : EV_BACKEND_AUTO;
    s->cpu_mask = (unsigned)cfg.cpumask;
    /* on the GPU, frames in flight whatever n_threads says: vmaf_read_pictures() returns
     * before its frame is scored, as libvmaf's CUDA path does (the CPU backend ignores it) */
    s->cuda_streams = CV_CUDA_STREAMS;
    const int err = ev_open(&v->ev, s);
    if (err) {
        free(v);
        return err;
    }
    *vmaf = v;
    return 0;
}

int vmaf_close(VmafContext *const vmaf)
{
    if (!vmaf)
        return -EINVAL;
    if (vmaf->device_pool) { /* every lent device picture back, then freed in ev's context */
        if (!vmaf->flushed)
            ev_flush(vmaf->ev);
        cv_device_pool_free(&vmaf->device_pool);
    }
    ev_close(&vmaf->ev);
    vmaf_feature_dictionary_free(&vmaf->models);
    free(vmaf);
    return 0;
}

int vmaf_use_feature(VmafContext *const vmaf, const char *const feature_name,
                     VmafFeatureDictionary *opts_dict)
{
    int err = -EINVAL;
    if (vmaf && feature_name) {
        vmaf->used = 1;
        char *opts = cv_dict_join(opts_dict, NULL);
        err = opts ? ev_use_feature(vmaf->ev, feature_name, opts) : -ENOMEM;
        free(opts);
        if (err == -ENOENT)
            err = -EINVAL; /* libvmaf's code for an unknown extractor */
    }
    if (opts_dict)
        vmaf_feature_dictionary_free(&opts_dict);
    return err;
}

/* The ev_use_model() specification first registered as model name, or NULL. */
static const char *registered(const VmafContext *const vmaf, const char *const name)
{
    return cv_dict_get(vmaf->models, name);
}

/* ev_use_model() once per specification; a second registration of the same one (a bootstrap
 * collection and its main model) adds nothing. */
static int use_spec(VmafContext *const vmaf, const CvModelSpec *const spec)
{
    char *text = cv_spec_text(spec);
    if (!text)
        return -ENOMEM;
    const char *const known = registered(vmaf, spec->name);
    int err = 0;
    if (!known || strcmp(known, text)) {
        vmaf->used = 1;
        err = ev_use_model(vmaf->ev, text);
        if (err == -ENOENT)
            err = -EINVAL;
        /* (spec->name is not empty: ev_use_model() refuses "name=") */
        if (!err && !known)
            err = vmaf_feature_dictionary_set(&vmaf->models, spec->name, text);
    }
    free(text);
    return err;
}

int vmaf_use_features_from_model(VmafContext *const vmaf, VmafModel *const model)
{
    if (!vmaf || !model)
        return -EINVAL;
    return use_spec(vmaf, &model->spec);
}

int vmaf_use_features_from_model_collection(VmafContext *const vmaf,
                                            VmafModelCollection *const model_collection)
{
    if (!vmaf || !model_collection)
        return -EINVAL;
    return use_spec(vmaf, &model_collection->spec);
}

int vmaf_import_feature_score(VmafContext *const vmaf, const char *const feature_name,
                              const double value, const unsigned index)
{
    if (!vmaf || !feature_name || !*feature_name)
        return -EINVAL;
    return ev_import_score(vmaf->ev, feature_name, index, value);
}

static int layout_of(const enum VmafPixelFormat f, EvPixelLayout *const layout)
{
    switch (f) {
    case VMAF_PIX_FMT_YUV420P: *layout = EV_PIX_420; return 0;
    case VMAF_PIX_FMT_YUV422P: *layout = EV_PIX_422; return 0;
    case VMAF_PIX_FMT_YUV444P: *layout = EV_PIX_444; return 0;
    case VMAF_PIX_FMT_YUV400P: *layout = EV_PIX_400; return 0;
    default: return -EINVAL;
    }
}

static int to_ev_picture(const VmafContext *const vmaf, const VmafPicture *const p,
                         EvPicture *const e)
{
    memset(e, 0, sizeof(*e));
    if (layout_of(p->pix_fmt, &e->layout)) {
        cv_log(&vmaf->log, EV_LOG_ERROR,
               "vmaf_read_pictures: pixel format %d is not supported "
               "(yuv420p, yuv422p, yuv444p or yuv400p)",
               (int)p->pix_fmt);
        return -EINVAL;
    }
    e->width = p->w[0];
    e->height = p->h[0];
    e->bitdepth = p->bpc;
    const unsigned planes = e->layout == EV_PIX_400 ? 1 : 3; /* gray: chroma is absent */
    for (unsigned i = 0; i < planes; i++) {
        e->data[i] = p->data[i];
        e->stride[i] = p->stride[i];
    }
    return 0;
}

/* A pair handed over by vmaf_read_pictures(): the references of both pictures, dropped when
 * the engine gives the pair back. */
typedef struct CvLentPair {
    VmafRef *ref, *dist;
} CvLentPair;

static void give_back_pair(void *const user)
{
    CvLentPair *const pair = user;
    cv_ref_drop(pair->ref);
    cv_ref_drop(pair->dist);
    free(pair);
}

/* Hand a checked pair to the engine, consuming both pictures: device pictures of the context's
 * pool and counted host pictures (vmaf_picture_alloc) are lent (no copy; their references
 * dropped when their frame is scored), others copied. */
static int send_pair(VmafContext *const vmaf, VmafPicture *const ref, VmafPicture *const dist,
                     const EvPicture *const a, const EvPicture *const b)
{
    const int on_device = cv_device_picture_of(vmaf->device_pool, ref);
    if (on_device != cv_device_picture_of(vmaf->device_pool, dist)) {
        cv_log(&vmaf->log, EV_LOG_ERROR,
               "vmaf_read_pictures: one picture is a preallocated CUDA picture and the other "
               "is not");
        vmaf_picture_unref(ref);
        vmaf_picture_unref(dist);
        return -EINVAL;
    }
    CvLentPair *const pair = ref->ref && dist->ref ? malloc(sizeof(*pair)) : NULL;
    int err;
    if (!pair && on_device) {
        err = -ENOMEM;
    } else if (!pair) { /* pictures of the caller's own memory: copied now */
        err = ev_send_pictures(vmaf->ev, a, b);
    } else {
        *pair = (CvLentPair){ ref->ref, dist->ref };
        ref->ref = dist->ref = NULL; /* the pair holds them now */
        err = on_device ? ev_lend_device_pictures(vmaf->ev, a, b, NULL, give_back_pair, pair)
                        : ev_lend_pictures(vmaf->ev, a, b, give_back_pair, pair);
    }
    if (ref->ref)
        vmaf_picture_unref(ref);
    if (dist->ref)
        vmaf_picture_unref(dist);
    memset(ref, 0, sizeof(*ref));
    memset(dist, 0, sizeof(*dist));
    return err;
}

static int flush(VmafContext *const vmaf)
{
    if (vmaf->flushed)
        return -EINVAL;
    vmaf->flushed = 1;
    const int err = ev_flush(vmaf->ev);
    vmaf->t_end = clock();
    if (!err) /* which engine scored: the one line that tells a CUDA run from a CPU one */
        cv_log(&vmaf->log, EV_LOG_INFO, "exactvmaf: %u frames scored on %s",
               ev_frame_count(vmaf->ev), ev_backend_name(vmaf->ev));
    return err;
}

int vmaf_read_pictures(VmafContext *const vmaf, VmafPicture *const ref, VmafPicture *const dist,
                       const unsigned index)
{
    if (!vmaf)
        return -EINVAL;
    if (!ref && !dist)
        return flush(vmaf);
    int err = 0;
    EvPicture a, b;
    if (!ref || !dist || vmaf->flushed)
        err = -EINVAL;
    else if (index != vmaf->pic_cnt) {
        cv_log(&vmaf->log, EV_LOG_ERROR,
               "vmaf_read_pictures: index %u out of order: exactvmaf "
               "takes the pictures in order, %u expected",
               index, vmaf->pic_cnt);
        err = -EINVAL;
    } else if (!(err = to_ev_picture(vmaf, ref, &a)) && !(err = to_ev_picture(vmaf, dist, &b))) {
        if (!vmaf->pic_cnt)
            vmaf->t_begin = clock();
        err = send_pair(vmaf, ref, dist, &a, &b);
        if (!err)
            vmaf->pic_cnt++;
        return err; /* send_pair consumed the pictures */
    }
    /* the pictures are consumed: libvmaf takes them over */
    if (ref && ref->ref)
        vmaf_picture_unref(ref);
    if (dist && dist->ref)
        vmaf_picture_unref(dist);
    return err;
}

int vmaf_preallocate_pictures(VmafContext *const vmaf, const VmafPictureConfiguration cfg)
{
    if (!vmaf || !cfg.pic_cnt || !cfg.pic_params.w || !cfg.pic_params.h)
        return -EINVAL;
    vmaf->prealloc = cfg;
    vmaf->have_prealloc = 1;
    return 0;
}

int vmaf_fetch_preallocated_picture(VmafContext *const vmaf, VmafPicture *const pic)
{
    if (!vmaf || !pic || !vmaf->have_prealloc)
        return -EINVAL;
    const VmafPictureConfiguration *c = &vmaf->prealloc;
    return vmaf_picture_alloc(pic, c->pic_params.pix_fmt, c->pic_params.bpc, c->pic_params.w,
                              c->pic_params.h);
}

/* A value, also before the flush (ev_get_score reads under the workers' lock then). */
static int get_score(VmafContext *const vmaf, const char *const name, const unsigned index,
                     double *const score)
{
    const int err = ev_get_score(vmaf->ev, name, index, score);
    return err ? -EINVAL : 0; /* libvmaf's code for a missing value */
}

int vmaf_feature_score_at_index(VmafContext *const vmaf, const char *const feature_name,
                                double *const score, const unsigned index)
{
    if (!vmaf || !feature_name || !score)
        return -EINVAL;
    return get_score(vmaf, feature_name, index, score);
}

/* Model scores exist once the context has flushed (exactvmaf predicts them all then). */
static int model_ready(VmafContext *const vmaf, const char *const name)
{
    if (!registered(vmaf, name)) {
        cv_log(&vmaf->log, EV_LOG_ERROR,
               "model \"%s\" was not registered with "
               "vmaf_use_features_from_model(): exactvmaf scores only registered models",
               name);
        return -EINVAL;
    }
    if (!vmaf->flushed) {
        cv_log(&vmaf->log, EV_LOG_ERROR,
               "model \"%s\": exactvmaf predicts the scores when the "
               "context is flushed (vmaf_read_pictures(vmaf, NULL, NULL, 0))",
               name);
        return -EINVAL;
    }
    return 0;
}

int vmaf_score_at_index(VmafContext *const vmaf, VmafModel *const model, double *const score,
                        const unsigned index)
{
    if (!vmaf || !model || !score)
        return -EINVAL;
    const int err = model_ready(vmaf, model->spec.name);
    return err ? err : get_score(vmaf, model->spec.name, index, score);
}

/* libvmaf's pooling over index_low..index_high, every n_subsample-th index: running double
 * sums in index order, min/max seeded at index_low. */
int vmaf_feature_score_pooled(VmafContext *const vmaf, const char *const feature_name,
                              const enum VmafPoolingMethod pool_method, double *const score,
                              const unsigned index_low, const unsigned index_high)
{
    if (!vmaf || !feature_name || !score || index_low > index_high)
        return -EINVAL;
    if (pool_method <= VMAF_POOL_METHOD_UNKNOWN || pool_method >= VMAF_POOL_METHOD_NB)
        return -EINVAL;
    const unsigned step = vmaf->cfg.n_subsample;
    unsigned cnt = 0;
    double sum = 0.0, inv_sum = 0.0, lo = 0.0, hi = 0.0;
    for (unsigned i = index_low;; i++) {
        if (!(step > 1 && i % step)) {
            double s;
            const int err = get_score(vmaf, feature_name, i, &s);
            if (err)
                return err;
            cnt++;
            sum += s;
            inv_sum += 1.0 / (s + 1.0);
            if (i == index_low || s < lo)
                lo = s;
            if (i == index_low || s > hi)
                hi = s;
        }
        if (i == index_high)
            break;
    }
    switch (pool_method) {
    case VMAF_POOL_METHOD_MIN: *score = lo; break;
    case VMAF_POOL_METHOD_MAX: *score = hi; break;
    case VMAF_POOL_METHOD_MEAN: *score = sum / cnt; break;
    case VMAF_POOL_METHOD_HARMONIC_MEAN: *score = cnt / inv_sum - 1.0; break;
    default: return -EINVAL;
    }
    return 0;
}

int vmaf_score_pooled(VmafContext *const vmaf, VmafModel *const model,
                      const enum VmafPoolingMethod pool_method, double *const score,
                      const unsigned index_low, const unsigned index_high)
{
    if (!vmaf || !model || !score)
        return -EINVAL;
    const int err = model_ready(vmaf, model->spec.name);
    return err ? err
               : vmaf_feature_score_pooled(vmaf, model->spec.name, pool_method, score, index_low,
                                           index_high);
}

/* A bootstrap collection's four values, NAME_bagging, NAME_stddev, NAME_ci_p95_lo and
 * NAME_ci_p95_hi: at index (pooled 0) or pooled with method over index..index_high. Each is
 * read, also after a missing one. */
static int collection_score(VmafContext *const vmaf, VmafModelCollection *const model_collection,
                            VmafModelCollectionScore *const score, const int pooled,
                            const enum VmafPoolingMethod method, const unsigned index,
                            const unsigned index_high)
{
    if (!vmaf || !model_collection || !score)
        return -EINVAL;
    const char *name = model_collection->spec.name;
    int err = model_ready(vmaf, name);
    if (err)
        return err;
    score->type = VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP;
    const struct {
        const char *suffix;
        double *value;
    } part[] = {
        { "_bagging", &score->bootstrap.bagging_score },
        { "_stddev", &score->bootstrap.stddev },
        { "_ci_p95_lo", &score->bootstrap.ci.p95.lo },
        { "_ci_p95_hi", &score->bootstrap.ci.p95.hi },
    };
    for (size_t i = 0; i < sizeof(part) / sizeof(part[0]); i++) {
        char buf[512];
        snprintf(buf, sizeof(buf), "%s%s", name, part[i].suffix);
        err |= pooled
                   ? vmaf_feature_score_pooled(vmaf, buf, method, part[i].value, index, index_high)
                   : get_score(vmaf, buf, index, part[i].value);
    }
    return err ? -EINVAL : 0;
}

int vmaf_score_at_index_model_collection(VmafContext *const vmaf,
                                         VmafModelCollection *const model_collection,
                                         VmafModelCollectionScore *const score,
                                         const unsigned index)
{
    return collection_score(vmaf, model_collection, score, 0, VMAF_POOL_METHOD_UNKNOWN, index,
                            index);
}

int vmaf_score_pooled_model_collection(VmafContext *const vmaf,
                                       VmafModelCollection *const model_collection,
                                       const enum VmafPoolingMethod pool_method,
                                       VmafModelCollectionScore *const score,
                                       const unsigned index_low, const unsigned index_high)
{
    return collection_score(vmaf, model_collection, score, 1, pool_method, index_low, index_high);
}

int vmaf_write_output(VmafContext *const vmaf, const char *const output_path,
                      const enum VmafOutputFormat fmt)
{
    if (!vmaf || !output_path)
        return -EINVAL;
    EvOutputOptions o;
    ev_default_output_options(&o);
    switch (fmt) {
    case VMAF_OUTPUT_FORMAT_XML: o.format = EV_OUTPUT_XML; break;
    case VMAF_OUTPUT_FORMAT_JSON: o.format = EV_OUTPUT_JSON; break;
    case VMAF_OUTPUT_FORMAT_CSV: o.format = EV_OUTPUT_CSV; break;
    case VMAF_OUTPUT_FORMAT_SUB: o.format = EV_OUTPUT_SUB; break;
    default: return -EINVAL;
    }
    FILE *f = fopen(output_path, "w");
    if (!f) {
        cv_log(&vmaf->log, EV_LOG_ERROR, "could not open file: %s", output_path);
        return -EINVAL;
    }
    /* libvmaf's fps: pictures per second of processor time, first picture to flush */
    o.fps = vmaf->pic_cnt / ((double)(vmaf->t_end - vmaf->t_begin) / CLOCKS_PER_SEC);
    int err = ev_write_output(vmaf->ev, f, &o);
    if (fclose(f) && !err)
        err = -EIO;
    return err;
}
