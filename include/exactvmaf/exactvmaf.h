/*
 * exactvmaf: VMAF and its companion full-reference metrics, equal to Netflix libvmaf bit for bit.
 *
 * This header is the manual of the C library. A host program (the exactvmaf CLI, an ffmpeg
 * filter, a Python binding) opens a context, chooses extractors, pushes reference/distorted
 * picture pairs, flushes, then reads per-frame, pooled and aggregate values or writes them in
 * Netflix vmaf's XML, JSON, CSV or SUB layout.
 *
 * Conventions:
 *  - Every call that can fail returns 0 on success or a negative errno value (-EINVAL bad
 *    argument or input, -ENOMEM, -ENOENT no such feature/file, -ENODATA value not present,
 *    -EIO read/write failure, -ENOSYS feature not available). Released values never change.
 *  - The library never prints and never exits: problems are reported through the logger of
 *    EvSettings, one line each, and through the return code.
 *  - No global state: contexts are independent. One context must not be used from two threads
 *    at once; the library runs its own worker threads inside a context.
 *
 * The public API compiles as C11 and as C++.
 */
#ifndef EXACTVMAF_EXACTVMAF_H
#define EXACTVMAF_EXACTVMAF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define EV_API __declspec(dllexport)
#elif defined(__GNUC__)
#define EV_API __attribute__((visibility("default")))
#else
#define EV_API
#endif

#define EV_API_VERSION_MAJOR 0
#define EV_API_VERSION_MINOR 1
#define EV_API_VERSION_PATCH 0

/** Library version string, e.g. "0.1.0". Static storage. */
EV_API const char *ev_version(void);
/** (major << 16) | (minor << 8) | patch of the library actually linked. */
EV_API unsigned ev_version_api(void);

/** The Netflix libvmaf release and commit whose results this library reproduces bit for bit:
 *  "3.2.0" and "f85a853692a8c730d0270cd733c8bb30b5b93b7c". Static storage. */
EV_API const char *ev_netflix_version(void);
EV_API const char *ev_netflix_commit(void);

/** CPU instruction-set levels, as EvSettings.cpu_mask numbers them (1 SSE2, 2 SSSE3, 4 SSE4.1,
 *  8 AVX2, 16 AVX-512, 32 AVX-512 Ice Lake): those this build has kernels for (built = 1; the
 *  C reference is always there), or those this CPU and OS support (built = 0). */
EV_API unsigned ev_simd_levels(int built);

/** CUDA devices usable by this process: -1 when the library was built without CUDA, else the
 *  count (0 when no device or driver is present). */
EV_API int ev_gpu_count(void);

/* ---------------------------------------------------------------------------------------- */
/* Pictures                                                                                  */

typedef enum EvPixelLayout {
    EV_PIX_420 = 1, /**< chroma (w >> 1) x (h >> 1) */
    EV_PIX_422 = 2, /**< chroma (w >> 1) x h */
    EV_PIX_444 = 3, /**< chroma w x h */
    EV_PIX_400 = 4, /**< luma only (gray): planes 1 and 2 are 0 x 0, their data may be NULL.
                         Luma extractors score it; those that need chroma refuse it */
} EvPixelLayout;

/**
 * A picture the caller owns: three planes of samples. For bitdepth 8 a sample is one byte,
 * for 9..16 a little-endian uint16 (LSB-aligned, values 0 .. 2^bitdepth-1). Chroma planes are
 * sized as Netflix libvmaf sizes them: width >> ss_x, height >> ss_y (floor).
 */
typedef struct EvPicture {
    unsigned width;       /**< luma width in samples */
    unsigned height;      /**< luma height in samples */
    unsigned bitdepth;    /**< 8..16 */
    EvPixelLayout layout; /**< chroma layout */
    const void *data[3];  /**< Y, Cb, Cr */
    ptrdiff_t stride[3];  /**< bytes between rows, per plane */
} EvPicture;

/** "4:2:0", "4:2:2", "4:4:4", "4:0:0" ("unknown" for another value). Static storage. */
EV_API const char *ev_layout_name(EvPixelLayout layout);

/** Width and height of plane p (0..2) of a picture of this geometry, as libvmaf sizes it
 *  (0 x 0 for planes 1 and 2 of EV_PIX_400). */
EV_API void ev_plane_size(unsigned width, unsigned height, EvPixelLayout layout, unsigned p,
                          unsigned *plane_w, unsigned *plane_h);

/* ---------------------------------------------------------------------------------------- */
/* Context                                                                                   */

typedef enum EvLogLevel {
    EV_LOG_ERROR = 0,
    EV_LOG_WARNING = 1,
    EV_LOG_INFO = 2,
    EV_LOG_DEBUG = 3,
} EvLogLevel;

/** Receives one line (no trailing newline). Called from the thread that made the API call. */
typedef void (*EvLogCallback)(void *user, EvLogLevel level, const char *line);

typedef enum EvBackend {
    EV_BACKEND_CPU = 0,  /**< the C reference (default) */
    EV_BACKEND_CUDA = 1, /**< CUDA twins for every extractor, or fail at the first frame */
    EV_BACKEND_AUTO = 2, /**< CUDA when a device exists and every extractor has a twin for
                                 its options, else the CPU (logged at EV_LOG_WARNING, saying why) */
} EvBackend;

typedef struct EvSettings {
    unsigned n_threads;    /**< worker threads; 0 = one per core this process may run on
                                  (default 0); more than those cores is capped to them (logged
                                  at EV_LOG_WARNING). Beside them the calling thread sends the
                                  pictures; 1 = everything on the calling thread. With CUDA
                                  each worker drives its own stream: frames in flight */
    unsigned n_subsample;  /**< compute every Nth frame (0 or 1 = every frame), as --subsample */
    EvLogCallback log;     /**< NULL = silent (default) */
    void *log_user;        /**< passed to log */
    EvLogLevel log_level;  /**< most verbose level delivered (default EV_LOG_WARNING) */
    EvBackend backend;     /**< default EV_BACKEND_CPU */
    int gpu_index;         /**< CUDA device ordinal (default 0) */
    unsigned cpu_mask;     /**< CPU instruction sets the kernels must not use, libvmaf's
                                  --cpumask bits: 1 SSE2, 2 SSSE3, 4 SSE4.1, 8 AVX2, 16 AVX-512,
                                  32 AVX-512 (Ice Lake). A level needs the ones below it, so 8
                                  gives the C reference everywhere. Results are the same bits
                                  for every mask (default 0: all the CPU has) */
    void *cuda_context;    /**< CUDA backend: the CUcontext (CUDA driver API) every CUDA call
                                  of this context runs in, the caller's own (an ffmpeg CUDA
                                  device's, say), so that device pictures of that context can be
                                  scored in place (exactvmaf/cuda.h); gpu_index is then its
                                  device. NULL (default): the primary context of gpu_index */
    unsigned cuda_streams; /**< CUDA backend: at least this many workers (streams, frames in
                                  flight) whatever n_threads says, so that a caller asking for
                                  one thread (libvmaf's n_threads 0) still gets sending that
                                  returns before the frame is scored; capped at 8. The CPU
                                  backend ignores it. 0 (default): n_threads alone */
    uint8_t reserved[8];   /**< zero; room for new fields without an ABI break */
} EvSettings;

typedef struct EvContext EvContext; /* opaque */

/** Fill *s with the defaults above. */
EV_API void ev_default_settings(EvSettings *s);

/** Open a scoring context. *out is NULL on failure, and nothing leaks.
 *  A context that may use the device (EV_BACKEND_CUDA or EV_BACKEND_AUTO, cuda_context NULL)
 *  starts bringing up the CUDA driver and the primary context of gpu_index on a thread of its
 *  own, so that the first picture does not wait for them: open the context before the inputs
 *  and the two overlap. A primary context found inactive is made with blocking sync
 *  (CU_CTX_SCHED_BLOCKING_SYNC), the flags libavutil's CUDA device asks for, so that NVDEC
 *  decoders can share it (exactvmaf/video.h); one already active keeps its flags. If the first
 *  picture chooses the CPU, or the context closes before any, the primary context is released
 *  (it ends there unless others hold it).
 *  @return 0, or a negative errno code. */
EV_API int ev_open(EvContext **out, const EvSettings *s);

/** Stop the workers and free everything; NULL-safe; sets *c = NULL. */
EV_API void ev_close(EvContext **c);

/**
 * Add an extractor by Netflix's name ("psnr", "float_psnr", "float_moment", ...) with options
 * in Netflix's syntax, "key=value:key=value" (NULL or "" for the defaults). As in libvmaf, a
 * later use of an extractor whose output names equal an earlier use's (the same values of the
 * options that rename its outputs) is dropped, whatever its other options: it returns 0 and
 * adds nothing. Only before the first picture.
 * @return 0; -ENOENT for an unknown extractor, -EINVAL for an unknown option or a bad value
 *         (the log names it).
 */
EV_API int ev_use_feature(EvContext *c, const char *extractor, const char *options);

/** Names of the extractors this build provides, NULL-terminated, static storage. */
EV_API const char *const *ev_extractor_names(void);

/** One option of an extractor, from its option table. Strings have static storage. */
typedef struct EvOptionInfo {
    const char *name;           /**< the key, as in ev_use_feature()'s options */
    const char *alias;          /**< its short form in output-name suffixes, or NULL */
    const char *help;           /**< one line */
    const char *type;           /**< "bool", "int", "double", "string" or "choice" */
    double def, min, max;       /**< default and accepted range (bools: 0..1; not for strings
                                 and choices) */
    int renames;                /**< 1: a non-default value adds a suffix to the output names */
    const char *def_text;       /**< strings and choices: the default ("" for none), else NULL */
    const char *const *choices; /**< choices: the accepted values, NULL-terminated, else NULL */
} EvOptionInfo;

/** The i-th option (from 0) of an extractor. @return 0; -ENOENT unknown extractor; -ERANGE when
 *  i is past its last option. */
EV_API int ev_extractor_option(const char *extractor, unsigned i, EvOptionInfo *info);

/** 1 when this build has a CUDA twin of the extractor, else 0. */
EV_API int ev_extractor_has_twin(const char *extractor);

/**
 * Push one reference/distorted pair. The samples are copied before the call returns, so the
 * caller may reuse its buffers. Frames are numbered 0, 1, 2... in the order pushed. All pairs
 * must share the first pair's geometry, depth and layout. May block while the workers are busy.
 * @return 0, or a negative code (mismatched geometry, an extractor's error on an earlier frame).
 */
EV_API int ev_send_pictures(EvContext *c, const EvPicture *ref, const EvPicture *dis);

/**
 * Zero-copy input, for callers that can write samples in place (a decoder, a file reader):
 * borrow the next free frame slot as two pictures of the given geometry (tightly packed planes;
 * pinned host memory when the CUDA backend is in use), fill them, then submit them with
 * ev_submit_pictures(). Blocks while every slot is in flight. At most one borrowed pair at a
 * time; the geometry rules of ev_send_pictures apply.
 * @return 0, or a negative code (and *ref, *dis are zeroed).
 */
EV_API int ev_borrow_pictures(EvContext *c, unsigned width, unsigned height, unsigned bitdepth,
                              EvPixelLayout layout, EvPicture *ref, EvPicture *dis);
/** Submit the borrowed pair as the next frame. @return as ev_send_pictures(). */
EV_API int ev_submit_pictures(EvContext *c);
/** Give the borrowed pair back unsubmitted (the input ended). NULL-safe; no-op if none. */
EV_API void ev_return_pictures(EvContext *c);

/**
 * Many distorted against one reference: push the same reference frame paired with dis[i] into
 * ctx[i], for i = 0..n-1 (one context per distorted, each opened and configured as for a single
 * pair, e.g. with the same features), so that the caller reads and decodes the reference once.
 * Equivalent, bit for bit, to ev_send_pictures(ctx[i], ref, dis[i]) for each i in order.
 * ctx[i] == NULL or dis[i] == NULL skips that pair (its distorted stream has ended), so that
 * each context receives exactly the frames a run of its own would. Each context copies the
 * reference planes. Contexts that have received every frame through these calls together (the
 * same calls from their first frame on) form a group that computes reference-only per-frame
 * work once and gives it to every member: motion's score, and vif's and adm's reference side
 * (the first member to reach a frame scores vif and adm for every member with the same
 * options, the reference's work once; the others wait for it and take their values). The
 * values are bit for bit those a context computes alone. A context sent a pair
 * any other way (ev_send_pictures, or a frame the group did not get) leaves the group for good
 * and computes everything itself from then on. The contexts must be distinct (-EINVAL
 * otherwise). Every pair is copied into its context's slot before any is dispatched; the call
 * blocks while every slot of a context is busy (the calling thread then helps that context's
 * workers), and the contexts' workers run meanwhile.
 * @return 0; or the first failure's code, with ctx[i]'s logger saying why (the pairs before i
 *         were pushed, the ones after were not).
 */
EV_API int ev_send_pictures_multi(EvContext *const *ctx, unsigned n, const EvPicture *ref,
                                  const EvPicture *const *dis);

/**
 * The zero-copy form of ev_send_pictures_multi(): borrow a frame slot in every ctx[i] that is
 * not NULL (ev_borrow_pictures() in each), as one reference picture *ref (the slot of the first
 * such context) and n distorted pictures dis[0..n-1] (zeroed where ctx[i] is NULL). Fill them
 * (the reference once), then submit them with ev_submit_pictures_multi(), or give them back
 * with ev_return_pictures_multi(). Blocks while every slot of a context is in flight; the
 * geometry rules of ev_send_pictures() apply to each context.
 * @return 0; or a negative code (nothing is left borrowed, and *ref and dis[] are zeroed).
 */
EV_API int ev_borrow_pictures_multi(EvContext *const *ctx, unsigned n, unsigned width,
                                    unsigned height, unsigned bitdepth, EvPixelLayout layout,
                                    EvPicture *ref, EvPicture *dis);
/**
 * Submit the borrowed pair of every ctx[i] that is not NULL as its next frame, with ref as its
 * reference: ref (usually the *ref that ev_borrow_pictures_multi() lent; any picture of the
 * borrowed geometry) is copied into each slot other than its own; for the frame to count as
 * the group's (see ev_send_pictures_multi), give the lent *ref, unchanged between the submits
 * of one borrow (it may be submitted in several calls). A context borrowed from but
 * NULL here (its distorted ended after the borrow) keeps its pair: give it back with
 * ev_return_pictures() after this call (its slot may be the one ref points into).
 * @return 0, or the first failure's code (the pairs after it are given back, not pushed).
 */
EV_API int ev_submit_pictures_multi(EvContext *const *ctx, unsigned n, const EvPicture *ref);
/** Give back what ev_borrow_pictures_multi() lent to each ctx[i], unsubmitted. NULL-safe. */
EV_API void ev_return_pictures_multi(EvContext *const *ctx, unsigned n);

/** Called once per lent pair (ev_lend_pictures, ev_lend_device_pictures) when the library no
 *  longer reads its planes: from one of the library's threads, or from the lending call itself
 *  (when the pair was copied, or refused). It must not call back into the context. */
typedef void (*EvReleaseCallback)(void *user);

/**
 * Zero-copy input of pictures the caller already holds (a decoder's frames, a pool's
 * buffers): the pair is pushed as the next frame, as ev_send_pictures() pushes it, but its
 * planes are read where they are, by the workers, until the library calls release(user).
 * Until then the caller must neither change nor free them. Read in place when ref's and dis's
 * strides are equal plane by plane (the usual case: one allocator for both); otherwise they
 * are copied, as ev_send_pictures() copies them, and released before the call returns. The
 * geometry rules of ev_send_pictures() apply. release is called exactly once, also when the
 * call fails (before it returns), and at the latest before ev_flush() or ev_close() returns.
 * @return as ev_send_pictures().
 */
EV_API int ev_lend_pictures(EvContext *c, const EvPicture *ref, const EvPicture *dis,
                            EvReleaseCallback release, void *user);

/** Which backend scores this context: "cpu" or "cuda" (decided at the first picture; "cpu"
 *  before it). Static storage. */
EV_API const char *ev_backend_name(const EvContext *c);

/** Finish every frame and run the extractors' end-of-stream work. No picture after this.
 *  @return 0, or the first error of any frame. */
EV_API int ev_flush(EvContext *c);

/** Number of pairs pushed. */
EV_API unsigned ev_frame_count(const EvContext *c);

/* ---------------------------------------------------------------------------------------- */
/* Models                                                                                    */

/**
 * Add a VMAF model, described in Netflix's --model syntax: colon-separated
 *  - "version=NAME": a built-in model (ev_model_versions()), or "path=FILE": a JSON model file
 *    in Netflix's format (one model, or a bootstrap collection "0", "1", ...); exactly one;
 *  - "name=NAME": the name its scores are written under (default "vmaf"; unique per context);
 *  - "enable_transform", "disable_clip" (bare or =true/=false): apply the model's score
 *    transform (where the model has one), skip its score clip ("enable_clip=false" is the
 *    same as "disable_clip");
 *  - "<extractor>.<option>=<value>" (e.g. "adm.adm_enhn_gain_limit=1.2"): an option for every
 *    feature the model reads from that extractor, over the model's own options.
 * The extractors the model reads are added as ev_use_feature() adds them, with the model's
 * options. Call it before ev_use_feature(), as Netflix's CLI does, so that the output order is
 * Netflix's; only before the first picture. At ev_flush() the model scores every computed
 * frame (every n_subsample-th); the scores are per-frame features named NAME, and for a
 * bootstrap collection also NAME_0001.. (its members), NAME_bagging, NAME_stddev,
 * NAME_ci_p95_lo and NAME_ci_p95_hi. Read them with ev_get_score() and ev_get_pooled().
 * @return 0; -ENOENT for an unknown version, a missing file or an extractor this build lacks;
 *         -EINVAL for a bad spec, a malformed model file or a bad option (one logged line
 *         names the file or model and the field).
 */
EV_API int ev_use_model(EvContext *c, const char *spec);

/** As ev_use_model(), but only the model's extractors are added (with its options): no score is
 *  predicted, as Netflix's CLI does for --model with --no_prediction. */
EV_API int ev_use_model_features(EvContext *c, const char *spec);

/** Load the model of a spec (the syntax of ev_use_model(); only version= or path= is read) to
 *  check it, without a context: *collection (may be NULL) is set to 1 for a bootstrap
 *  collection, 0 for a single model. Problems go to log (may be NULL) at EV_LOG_ERROR.
 *  @return 0; -ENOENT unknown version or missing file; -EINVAL bad spec or malformed model. */
EV_API int ev_check_model(const char *spec, int *collection, EvLogCallback log, void *log_user);

/** Versions of the built-in models, e.g. "vmaf_v0.6.1", NULL-terminated, static storage. */
EV_API const char *const *ev_model_versions(void);

/* ---------------------------------------------------------------------------------------- */
/* Results (after ev_flush)                                                                 */

typedef enum EvPoolMethod {
    EV_POOL_MIN = 1,
    EV_POOL_MAX = 2,
    EV_POOL_MEAN = 3,
    EV_POOL_HARMONIC_MEAN = 4, /**< n / sum(1 / (x + 1)) - 1, as libvmaf */
    EV_POOL_PERCENTILE = 5,    /**< exactvmaf's, with a level (EvPoolStat): numpy's default
                                    percentile (linear interpolation, docs/REPORTS.md) */
    EV_POOL_LOW = 6,           /**< exactvmaf's, with a level: the mean of the lowest
                                    ceil(n * level / 100) values, the "1% low" (docs/REPORTS.md) */
} EvPoolMethod;

/** A pooled statistic: one of Netflix's four (level ignored), or a percentile or a low at level
 *  percent (EV_POOL_PERCENTILE: 0..100; EV_POOL_LOW: above 0, at most 100). */
typedef struct EvPoolStat {
    EvPoolMethod method;
    double level;
} EvPoolStat;

/** Number of per-frame features, and the name of the i-th in output order (the order Netflix's
 *  single-threaded run prints them in). The string lives as long as the context. */
EV_API unsigned ev_feature_count(const EvContext *c);
EV_API const char *ev_feature_name(const EvContext *c, unsigned i);

/** Value of a feature at a frame. Also before ev_flush(), from the calling thread while the
 *  workers run: a frame's values appear once it is computed (model scores only at the flush).
 *  @return 0, -ENOENT unknown name (or none written yet), -ENODATA not written. */
EV_API int ev_get_score(const EvContext *c, const char *name, unsigned frame, double *value);

/** Pool a feature over all frames (every n_subsample-th), as libvmaf's
 *  vmaf_feature_score_pooled over 0..n-1. @return 0, -ENOENT, -ENODATA (a frame lacks it). */
EV_API int ev_get_pooled(const EvContext *c, const char *name, EvPoolMethod m, double *value);

/** Pool a feature with any statistic, over the frames ev_get_pooled() pools: for Netflix's four
 *  the value ev_get_pooled() gives; a percentile or a low of those frames' values otherwise.
 *  @return 0, -ENOENT, -ENODATA (a frame lacks it), -EINVAL (bad method or level), -ENOMEM. */
EV_API int ev_get_pooled_stat(const EvContext *c, const char *name, EvPoolStat stat, double *value);

/** The name a statistic is written under in every output layout: "min", "max", "mean",
 *  "harmonic_mean", "p" or "low" then the level as %g ("p5", "p99.9", "low1"); "" for a bad
 *  method. Always NUL-terminated (size > 0). @return the length it needs, as snprintf. */
EV_API int ev_pool_stat_name(EvPoolStat stat, char *buf, size_t size);

/** Write a value of the caller's as feature `name` at a frame, as if an extractor registered
 *  after all others had written it (libvmaf's vmaf_import_feature_score): it appears in the
 *  results and the output after every computed feature. Before or after ev_flush(). A name
 *  and frame already written are refused. @return 0, -EINVAL, -ENOMEM. */
EV_API int ev_import_score(EvContext *c, const char *name, unsigned frame, double value);

/** Aggregate (whole-sequence) metrics such as psnr's apsnr_y, in the order they were made. */
EV_API unsigned ev_aggregate_count(const EvContext *c);
EV_API int ev_get_aggregate(const EvContext *c, unsigned i, const char **name, double *value);

/* ---------------------------------------------------------------------------------------- */
/* Output in Netflix vmaf's layouts                                                          */

typedef enum EvOutputFormat {
    EV_OUTPUT_XML = 1,
    EV_OUTPUT_JSON = 2,
    EV_OUTPUT_CSV = 3,
    EV_OUTPUT_SUB = 4,
} EvOutputFormat;

/** Netflix's number format: %.6f, or %.16f when the fraction has more than six leading zeros. */
#define EV_PRECISION_NETFLIX (-1)
/** %.17g: round-trips every double. */
#define EV_PRECISION_MAX (-2)

typedef struct EvOutputOptions {
    EvOutputFormat format;
    int precision;          /**< EV_PRECISION_NETFLIX (default), EV_PRECISION_MAX, or 0..17:
                                 %.<precision>f for every value */
    double fps;             /**< written in the fyi/fps field */
    const EvPoolStat *pool; /**< exactvmaf's (--pool): n_pool statistics pooled besides
                                 Netflix's four, which keep their place and bits. XML and JSON
                                 add them after the four in each pooled metric; CSV and SUB,
                                 which have no pooled part in Netflix's layout, get one after the
                                 frames: the four, then these (docs/REPORTS.md). NULL/0: Netflix's
                                 layouts byte for byte (default). The array is read, not kept */
    unsigned n_pool;
    uint8_t reserved[20];
} EvOutputOptions;

EV_API void ev_default_output_options(EvOutputOptions *o);

/** Write every result to f in the chosen layout. @return 0, -EIO on a write error. */
EV_API int ev_write_output(const EvContext *c, FILE *f, const EvOutputOptions *o);

#ifdef __cplusplus
}
#endif

#endif /* EXACTVMAF_EXACTVMAF_H */
