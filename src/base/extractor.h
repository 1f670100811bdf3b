/*
 * The extractor interface: what one feature family (features/<name>/) gives the engine.
 *
 * Lifecycle of one registration (extractor + option values):
 *   parse options -> init(state, opts, geometry of the first frame) -> extract() per frame
 *   -> flush() once at the end -> close(state).
 * state is shared by all workers: extract() must only read it, except through atomics where an
 * extractor accumulates order-free integer totals. Per-frame working memory comes from scratch,
 * scratch_size(state) zeroed bytes per worker, allocated once (never per frame).
 * An EV_FEX_SEQUENTIAL extractor is called for frames 0, 1, 2... in order, one call at a time
 * (not always on the same thread, each call ordered after the one before it by the engine's
 * lock), and may keep state between frames.
 *
 * A CUDA twin may split its frame in two: launch() queues the device work on the worker's
 * stream (no wait), extract() then waits for it and writes the results. A worker uploads the
 * pair, calls launch() of every twin of the frame that has one, then extract() of each, so the
 * frame's kernels are queued before its first wait. launch() is called exactly once for every
 * frame the twin runs on: with ref == NULL when the frame was abandoned before its work could
 * be queued (the upload or an earlier launch failed; extract() is then not called), so that a
 * twin ordering work across frames never waits for it.
 */
#ifndef EV_BASE_EXTRACTOR_H
#define EV_BASE_EXTRACTOR_H

#include <stddef.h>

#include "base/log.h"
#include "base/picture.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum EvOptionType {
    EV_OPT_BOOL,   /* stored as int (0/1); accepts true/false */
    EV_OPT_INT,    /* stored as int */
    EV_OPT_DOUBLE, /* stored as double */
    EV_OPT_CHOICE, /* one of the class's EvChoices for it, stored as its index (int); def is
                       the default's index. libvmaf's string options with a fixed set of values;
                       names print the string */
    EV_OPT_STRING, /* stored as char[EV_OPT_STRING_SIZE], NUL-terminated, taken verbatim;
                       its default is the class's str_defaults[(int)def] ("" if none) */
} EvOptionType;

#define EV_OPT_STRING_SIZE 256

enum {
    /* The option changes the extractor's output names when it differs from its default
     * (libvmaf's VMAF_OPT_FLAG_FEATURE_PARAM): name + "_<alias>[_<value>]". */
    EV_OPT_FEATURE_PARAM = 1 << 0,
};

typedef struct EvOption {
    const char *name;  /* the key users write (libvmaf's option name) */
    const char *alias; /* short form used in output-name suffixes, or NULL */
    const char *help;
    EvOptionType type;
    size_t offset;        /* of the value inside the extractor's options struct */
    double def, min, max; /* default and accepted range (bools: 0..1) */
    unsigned flags;
} EvOption;

/* The accepted strings of an EV_OPT_CHOICE option. */
typedef struct EvChoices {
    const char *option;        /* the option's name */
    const char *const *values; /* NULL-terminated */
} EvChoices;

enum {
    EV_FEX_SEQUENTIAL = 1 << 0,   /* frames in order, one at a time; may keep state */
    EV_FEX_NO_SUBSAMPLE = 1 << 1, /* runs on every frame even with --subsample (libvmaf
                                     TEMPORAL/PREV_REF extractors) */
    EV_FEX_CUDA = 1 << 2,         /* a CUDA twin: extract() reads EvPic.dev on EvPic.gpu's
                                     stream and returns the CPU reference's bits */
    EV_FEX_CUDA_LUMA = 1 << 3,    /* a CUDA twin that reads only the luma planes: when every
                                     twin of a frame does, only they are uploaded */
};

/* Where an extractor puts its results: the engine's collector (core/collector.h) behind two
 * calls, so that a family knows nothing of the engine. Names are the names Netflix's CLI
 * prints. Each returns 0 or a negative errno, for extract() or flush() to return. */
typedef struct EvSink EvSink;
struct EvSink {
    int (*put)(EvSink *s, const char *name, unsigned frame, double value);
    int (*put_aggregate)(EvSink *s, const char *name, double value);
};
static inline int ev_sink_put(EvSink *s, const char *name, unsigned frame, double value)
{
    return s->put(s, name, frame, value);
}
static inline int ev_sink_put_aggregate(EvSink *s, const char *name, double value)
{
    return s->put_aggregate(s, name, value);
}

/*
 * Many encodes (ev_send_pictures_multi): the contexts of one group receive the same reference
 * as their frame n. A class whose per-frame values have a reference-only part says how to score
 * the group together, and the engine runs it (core/group.h); the class never sees the group.
 *
 *  - by_reference: the values depend on the reference frames and the options alone (motion's
 *    SAD score). One member scores them (n == 1, dis[0] its own distorted), every member with
 *    the same options takes them.
 *  - else: score() scores n members at once against one reference, doing the reference's part
 *    once (vif's filtered reference, adm's decomposition); dis[k]'s values at k * n_values.
 *
 * Either way emit() then writes a member's values as extract() would have, so that a member
 * scored by the group gives the same bits as one scored alone; extract() still scores a member
 * that the group leaves alone (it joined late, or there was no memory).
 */
enum { EV_GROUP_MAX_MEMBERS = 32 }; /* members of one group frame; more score alone */

typedef struct EvGroupScoring {
    unsigned n_values; /* doubles per member and frame (by_reference: at most 4) */
    int by_reference;
    /* the group scratch score() needs for n members (64-byte aligned, contents undefined);
     * NULL: none */
    size_t (*scratch_size)(const void *state, unsigned n);
    void (*score)(const void *state, void *scratch, void *group_scratch, const EvPic *ref,
                  const EvPic *const *dis, unsigned n, unsigned frame, double *values);
    int (*emit)(const void *state, void *scratch, const EvPic *ref, unsigned frame,
                const double *values, EvSink *sink);
} EvGroupScoring;

/*
 * An EV_FEX_SEQUENTIAL class whose per-frame work reads only the frame's reference and the
 * references of the frames just before it (motion's SAD against the luma of frame n - 1, or
 * n - 2): the engine may then run that work in the frame's parallel pass, on any worker, and
 * keep only the writing in frame order (docs/ARCHITECTURE.md):
 *
 *  - lookback(state): how many earlier references score() reads, 1..EV_WINDOW_MAX_LOOKBACK.
 *  - score(): frame's values (n_values doubles) from ref and prev[k], the reference of frame
 *    - 1 - k (NULL before the stream's start). Reads state only; scratch is the worker's.
 *  - emit(): the ordered pass, frames 0, 1, 2... one at a time as for any sequential class
 *    (it may keep state), with the values score() gave for that frame; it writes them as
 *    extract() would have, so both ways give the same bits.
 *
 * The engine keeps a reference readable until the frames that look back at it have scored,
 * and runs a frame's score() first on the worker that takes it (then its ordered pass may run
 * beside its parallel pass). It takes this way on the CPU with worker threads, outside
 * many-encodes groups; elsewhere it calls extract() as before.
 */
enum { EV_WINDOW_MAX_LOOKBACK = 2, EV_WINDOW_MAX_VALUES = 4 };

typedef struct EvWindowScoring {
    unsigned n_values;
    unsigned (*lookback)(const void *state);
    void (*score)(const void *state, void *scratch, const EvPic *ref, const EvPic *const *prev,
                  unsigned frame, double *values);
    int (*emit)(const void *state, void *scratch, const EvPic *ref, unsigned frame,
                const double *values, EvSink *sink);
} EvWindowScoring;

typedef struct EvExtractorClass {
    const char *name;                /* Netflix's extractor name, e.g. "psnr" */
    unsigned flags;                  /* EV_FEX_* */
    const EvOption *options;         /* terminated by an entry with name == NULL; may be NULL */
    const EvChoices *choices;        /* of its EV_OPT_CHOICE options, terminated by option == NULL;
                                     may be NULL when it has none */
    const char *const *str_defaults; /* defaults of EV_OPT_STRING options (by their def) */
    size_t opts_size;                /* sizeof the options struct */
    size_t state_size;               /* sizeof the shared state, zeroed before init */
    /* Check the geometry and set up state. Log one line and return -EINVAL when the frame is
     * unsuitable (too small, unsupported depth): the log names the extractor and the reason. */
    int (*init)(void *state, const void *opts, const EvPicInfo *info, const EvLog *log);
    size_t (*scratch_size)(const void *state); /* may be NULL: no scratch */
    int (*extract)(const void *state, void *scratch, const EvPic *ref, const EvPic *dis,
                   unsigned frame, EvSink *sink);
    int (*flush)(void *state, unsigned n_frames, EvSink *sink); /* may be NULL */
    int (*launch)(const void *state, void *scratch, const EvPic *ref, const EvPic *dis,
                  unsigned frame); /* may be NULL (CUDA twins) */
    void (*close)(void *state);    /* may be NULL */
    const EvGroupScoring *group;   /* may be NULL: each member of a group scores alone */
    const EvWindowScoring *window; /* may be NULL: extract() in the ordered pass */
} EvExtractorClass;

/*
 * The fields a family's CPU class and its CUDA twin share, written once per family as its
 * X_CLASS macro, which both initializers begin with; each then adds only what differs (flags,
 * launch, extract, a twin's own init or close), so no field is given twice:
 *
 *   #define FOO_CLASS EV_CLASS_COMMON("foo", FooState), EV_CLASS_OPTIONS(foo_opts, FooOpts),
 *                     .init = foo_init, .close = foo_close      (one line, or continued)
 *   const EvExtractorClass ev_fex_foo = { FOO_CLASS, .extract = foo_extract };
 *   const EvExtractorClass ev_cuda_foo = { FOO_CLASS, .flags = EV_FEX_CUDA,
 *                                          .launch = foo_launch, .extract = foo_extract_cuda };
 *
 * EV_CLASS_COMMON: the name and the state's size; EV_CLASS_OPTIONS: the option table and the
 * options struct's size (a class without options leaves both out).
 */
#define EV_CLASS_COMMON(name_, State) .name = (name_), .state_size = sizeof(State)
#define EV_CLASS_OPTIONS(table, Opts) .options = (table), .opts_size = sizeof(Opts)

/* A function with the signature of the class's extract() or launch(), for a family's header
 * to declare its twin's entry points with: EV_LAUNCH_FN(ev_foo_launch_cuda); */
#define EV_EXTRACT_FN(fn)                                                                          \
    int fn(const void *state, void *scratch, const EvPic *ref, const EvPic *dis, unsigned frame,   \
           EvSink *sink)
#define EV_LAUNCH_FN(fn)                                                                           \
    int fn(const void *state, void *scratch, const EvPic *ref, const EvPic *dis, unsigned frame)

/*
 * Parse "k=v:k=v" into opts (already holding the defaults). Unknown keys, bad values and
 * values out of range are logged (naming the extractor and the key) and return -EINVAL.
 */
int ev_options_parse(const EvExtractorClass *cls, void *opts, const char *spec, const EvLog *log);
void ev_options_defaults(const EvExtractorClass *cls, void *opts);
/* 1 when a and b give the same output names (equal EV_OPT_FEATURE_PARAM options): libvmaf
 * then keeps only the first registration (core/context.c). */
int ev_options_same_names(const EvExtractorClass *cls, const void *a, const void *b);

/*
 * The name libvmaf prints for an output under non-default FEATURE_PARAM options: base followed,
 * in alphabetical order of option name, by "_<alias or name>" for a bool and
 * "_<alias or name>_<value %g>" otherwise. Returns base unchanged when all are default.
 */
void ev_options_feature_name(char *buf, size_t size, const char *base, const EvExtractorClass *cls,
                             const void *opts);

/* For an extractor that needs chroma: 0 for a layout with chroma planes, else logs the one
 * refusal every such extractor gives for 4:0:0 (gray) input ("what" says which part needs
 * chroma, e.g. "ciede" or "float_motion with motion_add_uv") and returns -EINVAL. */
int ev_require_chroma(const EvPicInfo *info, const char *what, const EvLog *log);

#ifdef __cplusplus
}
#endif

#endif
