/*
 * exactvmaf._exactvmaf: the CPython extension under the exactvmaf package, a thin layer over the
 * public C API (exactvmaf.h, cuda.h, video.h). The package's Python code shapes the input; this
 * file turns planes (any object with the buffer protocol: numpy arrays) and device addresses
 * into EvPictures, releases the GIL while the library scores, and turns the library's errors
 * and logged lines into exceptions.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exactvmaf/cuda.h"
#include "exactvmaf/exactvmaf.h"
#include "exactvmaf/video.h"

/* exactvmaf.Error and its subclasses, created at import */
static PyObject *ev_py_error;       /* Error(RuntimeError): every failure of the library */
static PyObject *ev_py_input_error; /* InputError(Error, ValueError): bad pictures, options */
static PyObject *ev_py_dtype_error; /* DtypeError(InputError, TypeError): bad sample type */
static PyObject *ev_py_notfound;    /* NotFoundError(Error, LookupError): unknown names, files */
static PyObject *ev_py_nodevice;    /* NoDeviceError(Error): no CUDA device or backend */

/* ---------------------------------------------------------------------------------------- */
/* The logger: lines kept in C, since the library may log with the GIL released */

#define LOG_CAP 16384

typedef struct PyLog {
    pthread_mutex_t lock;
    char text[LOG_CAP]; /* lines, each ending in '\n' */
    size_t len;
} PyLog;

static void log_line(void *user, EvLogLevel level, const char *line)
{
    PyLog *const log = user;
    static const char *const names[] = { "error", "warning", "info", "debug" };
    pthread_mutex_lock(&log->lock);
    const size_t room = LOG_CAP - log->len;
    if (room > 1) {
        const int n = snprintf(log->text + log->len, room, "%s: %s\n",
                               (unsigned)level < 4 ? names[level] : "log", line);
        log->len = n < 0 ? log->len : (size_t)n < room ? log->len + (size_t)n : LOG_CAP - 1;
    }
    pthread_mutex_unlock(&log->lock);
}

/* The lines logged since offset `from`, without their level prefix and the last newline. */
static PyObject *log_since(PyLog *log, size_t from)
{
    pthread_mutex_lock(&log->lock);
    PyObject *lines = PyList_New(0);
    size_t at = from < log->len ? from : log->len;
    while (lines && at < log->len) {
        const char *start = log->text + at;
        const char *end = memchr(start, '\n', log->len - at);
        const size_t n = end ? (size_t)(end - start) : log->len - at;
        const char *colon = memchr(start, ':', n);
        const char *text = colon && colon + 2 <= start + n ? colon + 2 : start;
        PyObject *s = PyUnicode_DecodeUTF8(text, (Py_ssize_t)(start + n - text), "replace");
        if (!s || PyList_Append(lines, s)) {
            Py_XDECREF(s);
            Py_CLEAR(lines);
            break;
        }
        Py_DECREF(s);
        at += n + (end != NULL);
    }
    pthread_mutex_unlock(&log->lock);
    return lines;
}

/* Raise the exception for a library code, with the lines logged at error level since `from`
 * (or `fallback`) as the message. Returns NULL. */
static PyObject *raise_code(int code, PyLog *log, size_t from, const char *fallback)
{
    PyObject *type = code == -ENOENT   ? ev_py_notfound
                     : code == -EINVAL ? ev_py_input_error
                     : code == -ENODEV ? ev_py_nodevice
                                       : ev_py_error;
    PyObject *msg = NULL;
    if (log) {
        pthread_mutex_lock(&log->lock);
        /* error lines only: warnings stay in the log */
        char buf[LOG_CAP];
        size_t n = 0;
        for (size_t at = from; at < log->len;) {
            const char *line = log->text + at;
            const char *end = memchr(line, '\n', log->len - at);
            const size_t len = end ? (size_t)(end - line) : log->len - at;
            if (len > 7 && !strncmp(line, "error: ", 7) && n + len < sizeof(buf)) {
                if (n)
                    buf[n++] = '\n';
                memcpy(buf + n, line + 7, len - 7);
                n += len - 7;
            }
            at += len + (end != NULL);
        }
        pthread_mutex_unlock(&log->lock);
        if (n)
            msg = PyUnicode_DecodeUTF8(buf, (Py_ssize_t)n, "replace");
    }
    if (!msg && fallback)
        msg = PyUnicode_FromString(fallback);
    if (!msg)
        msg = PyUnicode_FromFormat("%s (error %d)", strerror(-code), code);
    if (msg) {
        const char *text = PyUnicode_AsUTF8(msg);
        if (type == ev_py_error && text && (strstr(text, "backend cuda") || strstr(text, "CUDA")))
            type = ev_py_nodevice;
        PyObject *e = PyObject_CallOneArg(type, msg);
        if (e) {
            PyObject *no = PyLong_FromLong(-code);
            if (no && !PyObject_SetAttrString(e, "errno", no))
                PyErr_SetObject(type, e);
            Py_XDECREF(no);
            Py_DECREF(e);
        }
        Py_DECREF(msg);
    }
    return NULL;
}

/* ---------------------------------------------------------------------------------------- */
/* Lent pictures: what keeps their memory alive until the library's release */

typedef struct Lent {
    struct Lent *next;
    Py_buffer view[6]; /* ref Y, U, V then dis Y, U, V (host planes) */
    unsigned n_view;
    PyObject *keep; /* device pictures: the tensors */
} Lent;

typedef struct {
    PyObject_HEAD EvContext *ctx;
    PyLog *log;
    pthread_mutex_t lent_lock;
    Lent *released; /* given back by the library, freed by the next call that holds the GIL */
    unsigned in_flight;
    int busy;
} ContextObject;

/* The release callback: called from one of the library's threads (no GIL), or in the lending
 * call. The pair is queued; drain_released() gives the buffers back with the GIL. */
typedef struct LentTicket {
    ContextObject *owner;
    Lent *lent;
} LentTicket;

static void ticket_release(void *user)
{
    LentTicket *const t = user;
    ContextObject *const o = t->owner;
    pthread_mutex_lock(&o->lent_lock);
    t->lent->next = o->released;
    o->released = t->lent;
    o->in_flight--;
    pthread_mutex_unlock(&o->lent_lock);
    free(t);
}

static void lent_free(Lent *l)
{
    for (unsigned i = 0; i < l->n_view; i++)
        PyBuffer_Release(&l->view[i]);
    Py_XDECREF(l->keep);
    PyMem_RawFree(l);
}

static void drain_released(ContextObject *self)
{
    pthread_mutex_lock(&self->lent_lock);
    Lent *l = self->released;
    self->released = NULL;
    pthread_mutex_unlock(&self->lent_lock);
    while (l) {
        Lent *const next = l->next;
        lent_free(l);
        l = next;
    }
}

/* ---------------------------------------------------------------------------------------- */
/* Context */

static int context_ready(ContextObject *self)
{
    if (!self->ctx) {
        PyErr_SetString(ev_py_error, "the context is closed");
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(ev_py_error, "the context is in use by another thread");
        return -1;
    }
    drain_released(self);
    return 0;
}

static size_t log_mark(ContextObject *self)
{
    pthread_mutex_lock(&self->log->lock);
    const size_t n = self->log->len;
    pthread_mutex_unlock(&self->log->lock);
    return n;
}

static void context_shut(ContextObject *self)
{
    if (self->ctx) {
        EvContext *c = self->ctx;
        self->ctx = NULL;
        Py_BEGIN_ALLOW_THREADS ev_close(&c); /* every lent pair is released before it returns */
        Py_END_ALLOW_THREADS
    }
    drain_released(self);
}

static void context_dealloc(ContextObject *self)
{
    context_shut(self);
    if (self->log) {
        pthread_mutex_destroy(&self->log->lock);
        PyMem_RawFree(self->log);
    }
    pthread_mutex_destroy(&self->lent_lock);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *context_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    ContextObject *self = (ContextObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    pthread_mutex_init(&self->lent_lock, NULL);
    self->log = PyMem_RawCalloc(1, sizeof(PyLog));
    if (!self->log) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    pthread_mutex_init(&self->log->lock, NULL);
    return (PyObject *)self;
}

static int context_init(ContextObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "threads",  "backend",   "gpu_index",    "subsample",
                              "cpu_mask", "log_level", "cuda_streams", NULL };
    unsigned threads = 0, subsample = 0, cpu_mask = 0, cuda_streams = 0;
    int backend = EV_BACKEND_CPU, gpu_index = 0, log_level = EV_LOG_WARNING;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|IiiIIiI", kwlist, &threads, &backend, &gpu_index,
                                     &subsample, &cpu_mask, &log_level, &cuda_streams))
        return -1;
    if (self->ctx) {
        PyErr_SetString(ev_py_error, "the context is already open");
        return -1;
    }
    if (backend < EV_BACKEND_CPU || backend > EV_BACKEND_AUTO || log_level < 0 || log_level > 3) {
        PyErr_SetString(ev_py_input_error, "bad backend or log level");
        return -1;
    }
    EvSettings s;
    ev_default_settings(&s);
    s.n_threads = threads;
    s.n_subsample = subsample;
    s.backend = (EvBackend)backend;
    s.gpu_index = gpu_index;
    s.cpu_mask = cpu_mask;
    s.cuda_streams = cuda_streams;
    s.log = log_line;
    s.log_user = self->log;
    s.log_level = (EvLogLevel)log_level;
    const size_t mark = log_mark(self);
    const int err = ev_open(&self->ctx, &s);
    if (err) {
        raise_code(err, self->log, mark, NULL);
        return -1;
    }
    return 0;
}

static PyObject *context_use(ContextObject *self, PyObject *args, int what)
{
    const char *name, *options = NULL;
    if (!PyArg_ParseTuple(args, what == 2 ? "s|z" : "s", &name, &options) || context_ready(self))
        return NULL;
    const size_t mark = log_mark(self);
    const int err = what == 0   ? ev_use_model(self->ctx, name)
                    : what == 1 ? ev_use_model_features(self->ctx, name)
                                : ev_use_feature(self->ctx, name, options);
    if (err)
        return raise_code(err, self->log, mark, NULL);
    Py_RETURN_NONE;
}

static PyObject *context_use_model(ContextObject *self, PyObject *args)
{
    return context_use(self, args, 0);
}

static PyObject *context_use_model_features(ContextObject *self, PyObject *args)
{
    return context_use(self, args, 1);
}

static PyObject *context_use_feature(ContextObject *self, PyObject *args)
{
    return context_use(self, args, 2);
}

static int parse_layout(int layout)
{
    if (layout < EV_PIX_420 || layout > EV_PIX_400) {
        PyErr_Format(ev_py_input_error, "bad pixel layout %d", layout);
        return -1;
    }
    return 0;
}

/* A plane of libvmaf's size (halves rounded down), or ffmpeg's for odd sizes (rounded up):
 * only the first pw x ph samples are read. */
static int plane_fits(const Py_ssize_t *shape, unsigned w, unsigned h, EvPixelLayout layout,
                      unsigned p, unsigned pw, unsigned ph)
{
    const unsigned cw = p && (layout == EV_PIX_420 || layout == EV_PIX_422) ? (w + 1) >> 1 : pw;
    const unsigned ch = p && layout == EV_PIX_420 ? (h + 1) >> 1 : ph;
    return (shape[0] == (Py_ssize_t)ph || shape[0] == (Py_ssize_t)ch) &&
           (shape[1] == (Py_ssize_t)pw || shape[1] == (Py_ssize_t)cw);
}

/* Fill pic from a sequence of 1 (4:0:0) or 3 planes, views into lent->view from *n_view on. */
static int host_picture(PyObject *planes, unsigned w, unsigned h, unsigned depth,
                        EvPixelLayout layout, const char *which, EvPicture *pic, Lent *lent)
{
    const unsigned want = layout == EV_PIX_400 ? 1 : 3;
    PyObject *seq = PySequence_Fast(planes, "planes must be a sequence of arrays");
    if (!seq)
        return -1;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n != (Py_ssize_t)want && !(layout == EV_PIX_400 && n == 3)) {
        PyErr_Format(ev_py_input_error, "%s: %u plane(s) for %s, got %zd", which, want,
                     ev_layout_name(layout), n);
        Py_DECREF(seq);
        return -1;
    }
    memset(pic, 0, sizeof(*pic));
    pic->width = w;
    pic->height = h;
    pic->bitdepth = depth;
    pic->layout = layout;
    const Py_ssize_t item = depth > 8 ? 2 : 1;
    static const char *const plane_names[] = { "Y", "U", "V" };
    for (unsigned p = 0; p < want; p++) {
        Py_buffer *v = &lent->view[lent->n_view];
        if (PyObject_GetBuffer(PySequence_Fast_GET_ITEM(seq, p), v, PyBUF_STRIDES | PyBUF_FORMAT)) {
            Py_DECREF(seq);
            return -1;
        }
        lent->n_view++;
        unsigned pw, ph;
        ev_plane_size(w, h, layout, p, &pw, &ph);
        const char f =
            v->format ? v->format[v->format[0] == '<' || v->format[0] == '=' ? 1 : 0] : 'B';
        const int is_u16 = v->itemsize == 2 && f == 'H';
        const int is_u8 = v->itemsize == 1 && (f == 'B' || f == 'c');
        const char *err = NULL;
        if (!(item == 1 ? is_u8 : is_u16)) {
            PyErr_Format(ev_py_dtype_error,
                         "%s plane %s: %s samples for bitdepth %u, got format "
                         "'%s' (%zd-byte items)",
                         which, plane_names[p], item == 1 ? "uint8" : "uint16", depth,
                         v->format ? v->format : "B", v->itemsize);
            Py_DECREF(seq);
            return -1;
        }
        if (v->ndim != 2)
            err = "must be 2-D (rows, columns)";
        else if (!plane_fits(v->shape, w, h, layout, p, pw, ph))
            err = "has the wrong size";
        else if (v->strides[1] != item || v->strides[0] < (Py_ssize_t)pw * item)
            err = "must have contiguous rows (numpy.ascontiguousarray)";
        if (err) {
            if (v->ndim == 2)
                PyErr_Format(ev_py_input_error,
                             "%s plane %s %s: %u-bit %s %ux%u needs %ux%u, "
                             "got %zdx%zd",
                             which, plane_names[p], err, depth, ev_layout_name(layout), w, h, pw,
                             ph, v->shape[1], v->shape[0]);
            else
                PyErr_Format(ev_py_input_error, "%s plane %s %s, got %d-D", which, plane_names[p],
                             err, v->ndim);
            Py_DECREF(seq);
            return -1;
        }
        pic->data[p] = v->buf;
        pic->stride[p] = v->strides[0];
    }
    Py_DECREF(seq);
    return 0;
}

static PyObject *context_send(ContextObject *self, PyObject *args)
{
    unsigned w, h, depth;
    int layout;
    PyObject *ref_planes, *dis_planes;
    if (!PyArg_ParseTuple(args, "IIIiOO", &w, &h, &depth, &layout, &ref_planes, &dis_planes) ||
        parse_layout(layout) || context_ready(self))
        return NULL;
    Lent *lent = PyMem_RawCalloc(1, sizeof(Lent));
    LentTicket *t = calloc(1, sizeof(LentTicket));
    if (!lent || !t) {
        PyMem_RawFree(lent);
        free(t);
        return PyErr_NoMemory();
    }
    EvPicture ref, dis;
    if (host_picture(ref_planes, w, h, depth, (EvPixelLayout)layout, "reference", &ref, lent) ||
        host_picture(dis_planes, w, h, depth, (EvPixelLayout)layout, "distorted", &dis, lent)) {
        lent_free(lent);
        free(t);
        return NULL;
    }
    t->owner = self;
    t->lent = lent;
    const size_t mark = log_mark(self);
    pthread_mutex_lock(&self->lent_lock);
    self->in_flight++;
    pthread_mutex_unlock(&self->lent_lock);
    int err;
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS err = ev_lend_pictures(self->ctx, &ref, &dis, ticket_release, t);
    Py_END_ALLOW_THREADS self->busy = 0;
    drain_released(self);
    if (err)
        return raise_code(err, self->log, mark, NULL);
    Py_RETURN_NONE;
}

/* Device pictures: data[] are device addresses, given as integers with their row strides. */
static int device_picture(PyObject *ptrs, PyObject *strides, unsigned w, unsigned h, unsigned depth,
                          EvPixelLayout layout, EvPicture *pic)
{
    const unsigned want = layout == EV_PIX_400 ? 1 : 3;
    memset(pic, 0, sizeof(*pic));
    pic->width = w;
    pic->height = h;
    pic->bitdepth = depth;
    pic->layout = layout;
    if (!PyTuple_Check(ptrs) || !PyTuple_Check(strides) || PyTuple_GET_SIZE(ptrs) != want ||
        PyTuple_GET_SIZE(strides) != want) {
        PyErr_Format(ev_py_input_error, "device picture: %u plane address(es) and stride(s)", want);
        return -1;
    }
    for (unsigned p = 0; p < want; p++) {
        const unsigned long long a = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(ptrs, p));
        const Py_ssize_t s = PyLong_AsSsize_t(PyTuple_GET_ITEM(strides, p));
        if (PyErr_Occurred())
            return -1;
        pic->data[p] = (const void *)(uintptr_t)a;
        pic->stride[p] = s;
    }
    return 0;
}

static PyObject *context_send_device(ContextObject *self, PyObject *args)
{
    unsigned w, h, depth;
    int layout;
    PyObject *rp, *rs, *dp, *ds, *keep;
    unsigned long long stream;
    if (!PyArg_ParseTuple(args, "IIIiOOOOKO", &w, &h, &depth, &layout, &rp, &rs, &dp, &ds, &stream,
                          &keep) ||
        parse_layout(layout) || context_ready(self))
        return NULL;
    EvPicture ref, dis;
    if (device_picture(rp, rs, w, h, depth, (EvPixelLayout)layout, &ref) ||
        device_picture(dp, ds, w, h, depth, (EvPixelLayout)layout, &dis))
        return NULL;
    Lent *lent = PyMem_RawCalloc(1, sizeof(Lent));
    LentTicket *t = calloc(1, sizeof(LentTicket));
    if (!lent || !t) {
        PyMem_RawFree(lent);
        free(t);
        return PyErr_NoMemory();
    }
    Py_INCREF(keep);
    lent->keep = keep;
    t->owner = self;
    t->lent = lent;
    const size_t mark = log_mark(self);
    pthread_mutex_lock(&self->lent_lock);
    self->in_flight++;
    pthread_mutex_unlock(&self->lent_lock);
    int err;
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS err = ev_lend_device_pictures(
        self->ctx, &ref, &dis, (void *)(uintptr_t)stream, ticket_release, t);
    Py_END_ALLOW_THREADS self->busy = 0;
    drain_released(self);
    if (err)
        return raise_code(err, self->log, mark,
                          err == -ENOSYS ? "no CUDA device: this build of exactvmaf has no "
                                           "CUDA backend"
                                         : NULL);
    Py_RETURN_NONE;
}

/* Score two files: every pair read (into the library's slot, no copy) and pushed with the GIL
 * released. raw: None or (width, height, bitdepth, layout) for .yuv. Returns frames pushed. */
static PyObject *context_send_files(ContextObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "ref",         "dis",     "raw",    "skip_ref",        "skip_dis",
                              "frame_count", "decoder", "scaler", "decode_sessions", NULL };
    const char *ref_path, *dis_path, *scaler = NULL;
    PyObject *raw = Py_None;
    unsigned skip_ref = 0, skip_dis = 0, frame_cnt = 0, sessions = 0;
    int decoder = EV_DECODE_CPU;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "ss|OIIIizI", kwlist, &ref_path, &dis_path, &raw,
                                     &skip_ref, &skip_dis, &frame_cnt, &decoder, &scaler,
                                     &sessions) ||
        context_ready(self))
        return NULL;
    EvVideoFormat rawfmt;
    EvVideoOptions o;
    ev_video_default_options(&o);
    if (raw != Py_None) {
        int layout;
        if (!PyArg_ParseTuple(raw, "IIIi", &rawfmt.width, &rawfmt.height, &rawfmt.bitdepth,
                              &layout) ||
            parse_layout(layout))
            return NULL;
        rawfmt.layout = (EvPixelLayout)layout;
        o.raw = &rawfmt;
    }
    o.scaler = scaler;
    o.decode_on = (EvDecodeOn)decoder;
    o.decode_sessions = sessions;
    char msg[1024] = "";
    EvVideo *ref = NULL, *dis = NULL;
    const size_t mark = log_mark(self);
    unsigned n = 0;
    int err = 0, which = 0; /* which: 1 ref's error, 2 dis's, 3 the context's */
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS;
    err = ev_video_open_pair(&ref, &dis, ref_path, dis_path, &o, msg, sizeof(msg));
    EvVideoFormat a, b;
    if (!err) {
        ev_video_format(ref, &a);
        ev_video_format(dis, &b);
        if (a.width != b.width || a.height != b.height || a.bitdepth != b.bitdepth ||
            a.layout != b.layout) {
            snprintf(msg, sizeof(msg), "%s is %ux%u %u-bit %s but %s is %ux%u %u-bit %s", ref_path,
                     a.width, a.height, a.bitdepth, ev_layout_name(a.layout), dis_path, b.width,
                     b.height, b.bitdepth, ev_layout_name(b.layout));
            err = -EINVAL;
        }
    }
    if (!err && (skip_ref || skip_dis)) {
        if ((err = ev_video_skip(ref, skip_ref)) < 0)
            which = 1;
        else if ((err = ev_video_skip(dis, skip_dis)) < 0)
            which = 2;
    }
    while (!err && (!frame_cnt || n < frame_cnt)) {
        EvPicture pa, pb;
        if ((err = ev_borrow_pictures(self->ctx, a.width, a.height, a.bitdepth, a.layout, &pa,
                                      &pb))) {
            which = 3;
            break;
        }
        const int ra = ev_video_read_into(ref, &pa);
        const int rb = ra <= 0 ? 0 : ev_video_read_into(dis, &pb);
        if (ra <= 0 || rb <= 0) {
            ev_return_pictures(self->ctx);
            err = ra < 0 ? ra : rb < 0 ? rb : 0;
            which = ra < 0 ? 1 : 2;
            break;
        }
        if ((err = ev_submit_pictures(self->ctx))) {
            which = 3;
            break;
        }
        n++;
    }
    if (err && (which == 1 || which == 2))
        snprintf(msg, sizeof(msg), "%s", ev_video_error(which == 1 ? ref : dis));
    ev_video_close(&ref);
    ev_video_close(&dis);
    Py_END_ALLOW_THREADS;
    self->busy = 0;
    if (err == -ENODATA)
        err = -EINVAL; /* a skip past the end */
    if (err)
        return raise_code(err, which == 3 ? self->log : NULL, mark, msg[0] ? msg : NULL);
    return PyLong_FromUnsignedLong(n);
}

static PyObject *context_flush(ContextObject *self, PyObject *unused)
{
    if (context_ready(self))
        return NULL;
    const size_t mark = log_mark(self);
    int err;
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS err = ev_flush(self->ctx);
    Py_END_ALLOW_THREADS self->busy = 0;
    drain_released(self);
    if (err)
        return raise_code(err, self->log, mark, NULL);
    Py_RETURN_NONE;
}

static PyObject *context_close(ContextObject *self, PyObject *unused)
{
    if (self->busy) {
        PyErr_SetString(ev_py_error, "the context is in use by another thread");
        return NULL;
    }
    context_shut(self);
    Py_RETURN_NONE;
}

static PyObject *context_frame_count(ContextObject *self, PyObject *unused)
{
    if (context_ready(self))
        return NULL;
    return PyLong_FromUnsignedLong(ev_frame_count(self->ctx));
}

static PyObject *context_backend(ContextObject *self, PyObject *unused)
{
    if (context_ready(self))
        return NULL;
    return PyUnicode_FromString(ev_backend_name(self->ctx));
}

static PyObject *context_feature_names(ContextObject *self, PyObject *unused)
{
    if (context_ready(self))
        return NULL;
    const unsigned n = ev_feature_count(self->ctx);
    PyObject *list = PyList_New(n);
    for (unsigned i = 0; list && i < n; i++) {
        PyObject *s = PyUnicode_FromString(ev_feature_name(self->ctx, i));
        if (!s) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, s);
    }
    return list;
}

/* scores(name, first=0, count=all) -> bytearray of float64 (NaN where a frame has no value) */
static PyObject *context_scores(ContextObject *self, PyObject *args)
{
    const char *name;
    unsigned first = 0, count = ~0u;
    if (!PyArg_ParseTuple(args, "s|II", &name, &first, &count) || context_ready(self))
        return NULL;
    const unsigned total = ev_frame_count(self->ctx);
    const unsigned n = first >= total ? 0 : count < total - first ? count : total - first;
    PyObject *out = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)n * (Py_ssize_t)sizeof(double));
    if (!out)
        return NULL;
    double *v = (double *)(void *)PyByteArray_AS_STRING(out);
    for (unsigned i = 0; i < n; i++)
        if (ev_get_score(self->ctx, name, first + i, &v[i]))
            v[i] = NAN;
    return out;
}

/* score(name, frame) -> float, or None while it is not written */
static PyObject *context_score(ContextObject *self, PyObject *args)
{
    const char *name;
    unsigned frame;
    if (!PyArg_ParseTuple(args, "sI", &name, &frame) || context_ready(self))
        return NULL;
    double v;
    if (ev_get_score(self->ctx, name, frame, &v))
        Py_RETURN_NONE;
    return PyFloat_FromDouble(v);
}

/* pooled(name, method) with method "min", "max", "mean", "harmonic_mean", "pN" or "lowN" */
static PyObject *context_pooled(ContextObject *self, PyObject *args)
{
    const char *name, *method;
    if (!PyArg_ParseTuple(args, "ss", &name, &method) || context_ready(self))
        return NULL;
    EvPoolStat st = { EV_POOL_MEAN, 0 };
    char *end = NULL;
    if (!strcmp(method, "min"))
        st.method = EV_POOL_MIN;
    else if (!strcmp(method, "max"))
        st.method = EV_POOL_MAX;
    else if (!strcmp(method, "mean"))
        st.method = EV_POOL_MEAN;
    else if (!strcmp(method, "harmonic_mean"))
        st.method = EV_POOL_HARMONIC_MEAN;
    else if (method[0] == 'p' && method[1]) {
        st.method = EV_POOL_PERCENTILE;
        st.level = strtod(method + 1, &end);
    } else if (!strncmp(method, "low", 3) && method[3]) {
        st.method = EV_POOL_LOW;
        st.level = strtod(method + 3, &end);
    } else
        end = (char *)"x";
    if (end && *end) {
        PyErr_Format(ev_py_input_error,
                     "unknown pooling method \"%s\" (min, max, mean, "
                     "harmonic_mean, pN, lowN)",
                     method);
        return NULL;
    }
    double v;
    const int err = ev_get_pooled_stat(self->ctx, name, st, &v);
    if (err) {
        char why[256];
        snprintf(why, sizeof(why), "%s of \"%s\": %s", method, name,
                 err == -ENOENT    ? "no such metric"
                 : err == -ENODATA ? "a frame has no value"
                                   : "bad pooling level");
        return raise_code(err, NULL, 0, why);
    }
    return PyFloat_FromDouble(v);
}

static PyObject *context_aggregates(ContextObject *self, PyObject *unused)
{
    if (context_ready(self))
        return NULL;
    PyObject *d = PyDict_New();
    const unsigned n = ev_aggregate_count(self->ctx);
    for (unsigned i = 0; d && i < n; i++) {
        const char *name;
        double v;
        if (ev_get_aggregate(self->ctx, i, &name, &v))
            continue;
        PyObject *f = PyFloat_FromDouble(v);
        if (!f || PyDict_SetItemString(d, name, f))
            Py_CLEAR(d);
        Py_XDECREF(f);
    }
    return d;
}

/* write_output(path, format 1..4, precision, fps=0) */
static PyObject *context_write_output(ContextObject *self, PyObject *args)
{
    const char *path;
    int format, precision;
    double fps = 0;
    if (!PyArg_ParseTuple(args, "sii|d", &path, &format, &precision, &fps) || context_ready(self))
        return NULL;
    if (format < EV_OUTPUT_XML || format > EV_OUTPUT_SUB) {
        PyErr_Format(ev_py_input_error, "bad output format %d", format);
        return NULL;
    }
    EvOutputOptions o;
    ev_default_output_options(&o);
    o.format = (EvOutputFormat)format;
    o.precision = precision;
    o.fps = fps;
    FILE *f = fopen(path, "w");
    if (!f)
        return PyErr_SetFromErrnoWithFilename(PyExc_OSError, path);
    int err;
    Py_BEGIN_ALLOW_THREADS err = ev_write_output(self->ctx, f, &o);
    if (fclose(f) && !err)
        err = -EIO;
    Py_END_ALLOW_THREADS if (err) return PyErr_Format(PyExc_OSError, "%s: cannot write", path);
    Py_RETURN_NONE;
}

static PyObject *context_log(ContextObject *self, PyObject *unused)
{
    return log_since(self->log, 0);
}

static PyMethodDef context_methods[] = {
    { "use_model", (PyCFunction)context_use_model, METH_VARARGS, "use_model(spec)" },
    { "use_model_features", (PyCFunction)context_use_model_features, METH_VARARGS,
      "use_model_features(spec)" },
    { "use_feature", (PyCFunction)context_use_feature, METH_VARARGS,
      "use_feature(name, options=None)" },
    { "send", (PyCFunction)context_send, METH_VARARGS,
      "send(width, height, bitdepth, layout, ref_planes, dis_planes): lend a host pair" },
    { "send_device", (PyCFunction)context_send_device, METH_VARARGS,
      "send_device(w, h, bitdepth, layout, ref_ptrs, ref_strides, dis_ptrs, dis_strides, "
      "stream, keep): lend a device pair" },
    { "send_files", (PyCFunction)(void (*)(void))context_send_files, METH_VARARGS | METH_KEYWORDS,
      "send_files(ref, dis, raw=None, skip_ref=0, skip_dis=0, frame_count=0, decoder=0, "
      "scaler=None) -> frames" },
    { "flush", (PyCFunction)context_flush, METH_NOARGS, "flush()" },
    { "close", (PyCFunction)context_close, METH_NOARGS, "close()" },
    { "frame_count", (PyCFunction)context_frame_count, METH_NOARGS, "frame_count() -> int" },
    { "backend", (PyCFunction)context_backend, METH_NOARGS, "backend() -> 'cpu' or 'cuda'" },
    { "feature_names", (PyCFunction)context_feature_names, METH_NOARGS,
      "feature_names() -> list of str" },
    { "scores", (PyCFunction)context_scores, METH_VARARGS,
      "scores(name, first=0, count=all) -> bytearray of float64" },
    { "score", (PyCFunction)context_score, METH_VARARGS, "score(name, frame) -> float or None" },
    { "pooled", (PyCFunction)context_pooled, METH_VARARGS, "pooled(name, method) -> float" },
    { "aggregates", (PyCFunction)context_aggregates, METH_NOARGS, "aggregates() -> dict" },
    { "write_output", (PyCFunction)context_write_output, METH_VARARGS,
      "write_output(path, format, precision)" },
    { "log", (PyCFunction)context_log, METH_NOARGS, "log() -> list of logged lines" },
    { NULL, NULL, 0, NULL },
};

static PyTypeObject ContextType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "exactvmaf._exactvmaf.Context",
    .tp_basicsize = sizeof(ContextObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One scoring context of the C library (EvContext); see exactvmaf.Scorer.",
    .tp_new = context_new,
    .tp_init = (initproc)context_init,
    .tp_dealloc = (destructor)context_dealloc,
    .tp_methods = context_methods,
};

/* ---------------------------------------------------------------------------------------- */
/* Module functions */

/* send_multi(contexts, w, h, bitdepth, layout, ref_planes, [dis_planes or None, ...]) */
static PyObject *mod_send_multi(PyObject *mod, PyObject *args)
{
    PyObject *ctxs, *ref_planes, *dis_list;
    unsigned w, h, depth;
    int layout;
    if (!PyArg_ParseTuple(args, "O!IIIiOO!", &PyList_Type, &ctxs, &w, &h, &depth, &layout,
                          &ref_planes, &PyList_Type, &dis_list) ||
        parse_layout(layout))
        return NULL;
    const Py_ssize_t n = PyList_GET_SIZE(ctxs);
    if (n < 1 || n > 64 || PyList_GET_SIZE(dis_list) != n) {
        PyErr_SetString(ev_py_input_error, "send_multi: 1..64 contexts, one distorted each");
        return NULL;
    }
    EvContext *c[64] = { 0 };
    EvPicture dis[64];
    const EvPicture *dp[64] = { 0 };
    Lent *views = PyMem_RawCalloc((size_t)n + 1, sizeof(Lent));
    if (!views)
        return PyErr_NoMemory();
    PyObject *ret = NULL;
    EvPicture ref;
    if (host_picture(ref_planes, w, h, depth, (EvPixelLayout)layout, "reference", &ref, &views[n]))
        goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = PyList_GET_ITEM(ctxs, i);
        if (!PyObject_TypeCheck(o, &ContextType)) {
            PyErr_SetString(PyExc_TypeError, "send_multi: contexts must be Context objects");
            goto done;
        }
        ContextObject *co = (ContextObject *)o;
        if (context_ready(co))
            goto done;
        for (Py_ssize_t j = 0; j < i; j++)
            if (c[j] == co->ctx) {
                PyErr_SetString(ev_py_input_error, "send_multi: the contexts must be distinct");
                goto done;
            }
        PyObject *d = PyList_GET_ITEM(dis_list, i);
        if (d == Py_None)
            continue;
        c[i] = co->ctx;
        if (host_picture(d, w, h, depth, (EvPixelLayout)layout, "distorted", &dis[i], &views[i]))
            goto done;
        dp[i] = &dis[i];
    }
    size_t marks[64];
    for (Py_ssize_t i = 0; i < n; i++)
        marks[i] = log_mark((ContextObject *)PyList_GET_ITEM(ctxs, i));
    for (Py_ssize_t i = 0; i < n; i++)
        ((ContextObject *)PyList_GET_ITEM(ctxs, i))->busy = 1;
    int err;
    Py_BEGIN_ALLOW_THREADS err = ev_send_pictures_multi(c, (unsigned)n, &ref, dp);
    Py_END_ALLOW_THREADS for (Py_ssize_t i = 0; i < n;
                              i++)((ContextObject *)PyList_GET_ITEM(ctxs, i))
        ->busy = 0;
    if (err) {
        /* the failing context is the first whose log grew */
        for (Py_ssize_t i = 0; i < n; i++) {
            ContextObject *co = (ContextObject *)PyList_GET_ITEM(ctxs, i);
            if (log_mark(co) > marks[i]) {
                raise_code(err, co->log, marks[i], NULL);
                goto done;
            }
        }
        raise_code(err, NULL, 0, NULL);
        goto done;
    }
    ret = Py_None;
    Py_INCREF(ret);
done:
    for (Py_ssize_t i = 0; i <= n; i++)
        for (unsigned v = 0; v < views[i].n_view; v++)
            PyBuffer_Release(&views[i].view[v]);
    PyMem_RawFree(views);
    return ret;
}

static PyObject *string_list(const char *const *names)
{
    PyObject *list = PyList_New(0);
    for (; list && names && *names; names++) {
        PyObject *s = PyUnicode_FromString(*names);
        if (!s || PyList_Append(list, s))
            Py_CLEAR(list);
        Py_XDECREF(s);
    }
    return list;
}

static PyObject *mod_model_versions(PyObject *mod, PyObject *unused)
{
    return string_list(ev_model_versions());
}

static PyObject *mod_extractor_names(PyObject *mod, PyObject *unused)
{
    return string_list(ev_extractor_names());
}

static PyObject *mod_version(PyObject *mod, PyObject *unused)
{
    return PyUnicode_FromString(ev_version());
}

static PyObject *mod_netflix_version(PyObject *mod, PyObject *unused)
{
    return Py_BuildValue("(ss)", ev_netflix_version(), ev_netflix_commit());
}

static PyObject *mod_gpu_count(PyObject *mod, PyObject *unused)
{
    int n;
    Py_BEGIN_ALLOW_THREADS n = ev_gpu_count();
    Py_END_ALLOW_THREADS return PyLong_FromLong(n);
}

static PyObject *mod_can_decode(PyObject *mod, PyObject *unused)
{
    return PyBool_FromLong(ev_video_can_decode());
}

static PyObject *mod_has_twin(PyObject *mod, PyObject *args)
{
    const char *name;
    if (!PyArg_ParseTuple(args, "s", &name))
        return NULL;
    return PyBool_FromLong(ev_extractor_has_twin(name));
}

static PyObject *mod_check_model(PyObject *mod, PyObject *args)
{
    const char *spec;
    if (!PyArg_ParseTuple(args, "s", &spec))
        return NULL;
    PyLog *log = PyMem_RawCalloc(1, sizeof(PyLog));
    if (!log)
        return PyErr_NoMemory();
    pthread_mutex_init(&log->lock, NULL);
    int collection = 0;
    const int err = ev_check_model(spec, &collection, log_line, log);
    PyObject *ret = err ? raise_code(err, log, 0, NULL) : PyBool_FromLong(collection);
    pthread_mutex_destroy(&log->lock);
    PyMem_RawFree(log);
    return ret;
}

static PyMethodDef module_methods[] = {
    { "send_multi", mod_send_multi, METH_VARARGS,
      "send_multi(contexts, w, h, bitdepth, layout, ref_planes, dis_list): one reference "
      "against a distorted per context (ev_send_pictures_multi)" },
    { "model_versions", mod_model_versions, METH_NOARGS, "the built-in models' versions" },
    { "extractor_names", mod_extractor_names, METH_NOARGS, "the extractors of this build" },
    { "version", mod_version, METH_NOARGS, "the library's version" },
    { "netflix_version", mod_netflix_version, METH_NOARGS,
      "(release, commit) of the Netflix libvmaf matched" },
    { "gpu_count", mod_gpu_count, METH_NOARGS,
      "CUDA devices usable: -1 for a build without CUDA, else the count" },
    { "can_decode", mod_can_decode, METH_NOARGS, "whether this build reads encoded video" },
    { "has_twin", mod_has_twin, METH_VARARGS, "whether an extractor has a CUDA twin" },
    { "check_model", mod_check_model, METH_VARARGS,
      "check_model(spec) -> True for a bootstrap collection; raises for a bad model" },
    { NULL, NULL, 0, NULL },
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "_exactvmaf",
    "The C library under the exactvmaf package (use exactvmaf, not this module).",
    -1,
    module_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

static int add_error(PyObject *m, PyObject **slot, const char *name, PyObject *bases,
                     const char *doc)
{
    char full[64];
    snprintf(full, sizeof(full), "exactvmaf.%s", name);
    *slot = PyErr_NewExceptionWithDoc(full, doc, bases, NULL);
    Py_XDECREF(bases);
    if (!*slot)
        return -1;
    Py_INCREF(*slot);
    return PyModule_AddObject(m, name, *slot);
}

PyMODINIT_FUNC PyInit__exactvmaf(void)
{
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    if (PyType_Ready(&ContextType) < 0)
        goto fail;
    Py_INCREF(&ContextType);
    if (PyModule_AddObject(m, "Context", (PyObject *)&ContextType) < 0)
        goto fail;
    if (add_error(m, &ev_py_error, "Error", Py_BuildValue("(O)", PyExc_RuntimeError),
                  "A failure of the exactvmaf library: the library's message; .errno its code.") ||
        add_error(m, &ev_py_input_error, "InputError",
                  Py_BuildValue("(OO)", ev_py_error, PyExc_ValueError),
                  "Bad input: shape, size mismatch, samples above the depth, bad options.") ||
        add_error(m, &ev_py_dtype_error, "DtypeError",
                  Py_BuildValue("(OO)", ev_py_input_error, PyExc_TypeError),
                  "Samples of the wrong type (uint8 for 8 bits, uint16 for 9..16).") ||
        add_error(m, &ev_py_notfound, "NotFoundError",
                  Py_BuildValue("(OO)", ev_py_error, PyExc_LookupError),
                  "An unknown model, feature extractor, metric or a missing file.") ||
        add_error(m, &ev_py_nodevice, "NoDeviceError", Py_BuildValue("(O)", ev_py_error),
                  "No CUDA device, driver or CUDA backend in this build."))
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
