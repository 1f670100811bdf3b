/* One stream decoded by several decoders at once (io/segments.h says what is cut where, and
 * why the frames keep their bits).
 *
 * Threads: the demuxer reads the packets and appends them to the segments; a free decoder takes
 * the next segment not taken and puts the frames it keeps, then an end mark, into its queue;
 * the reader (ev_segments_next) takes segment c's frames from the queue of the decoder that
 * took c, until its end mark. Segments are taken in order, so each queue holds its segments in
 * order. One lock guards everything shared; three conditions wake the demuxer, the decoders and
 * the reader.
 * No deadlock: while the reader waits for segment c, every segment before c was read whole, so
 * a decoder's queue holds c's frames or none of c's (then c's decoder is not waiting for room),
 * and a segment not taken has every decoder free to take it (they hold no frames).
 * Bounds: the demuxer starts no segment more than 2n ahead of the reader (packets are small),
 * each queue holds at most `cap` frames (EV_SEGMENT_AHEAD_BYTES).
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/segments.h"

#if EV_HAVE_FFMPEG

#define MAX_DECODERS EV_SEGMENT_MAX_DECODERS
#define WHY_BYTES 256

typedef struct Segment {
    AVPacket **pkt;     /* decoding order */
    unsigned char *own; /* pkt[i] is this segment's: its frame is kept */
    unsigned n, cap;
    int complete; /* no packet comes after pkt[n - 1] */
    int taken;    /* by decoder `decoder` */
    unsigned decoder;
    int failed; /* the demuxer failed after pkt[n - 1]: averr, why */
    int averr;
    char why[WHY_BYTES];
} Segment;

/* A queue entry: a frame, or the end of a segment, or a decoder's failure. */
typedef struct Entry {
    AVFrame *frame; /* NULL: a mark */
    int averr;      /* a failure (with the mark) */
} Entry;

typedef struct Decoder {
    struct EvSegments *s;
    unsigned id;
    pthread_t thread;
    int started;
    AVCodecContext *codec;
    Entry *q; /* ring of cap entries */
    unsigned head, len;
    char why[WHY_BYTES]; /* the failure's log line */
} Decoder;

struct EvSegments {
    AVFormatContext *fmt;
    int index, nal_len;
    enum AVCodecID codec_id;
    unsigned n, cap;
    EvSegmentsOpen open;
    EvSegmentsHold hold;
    EvSegmentsLog log;
    void *opaque;
    pthread_mutex_t lock;
    pthread_cond_t demux_cond, decode_cond, read_cond;
    Segment **seg; /* seg[0 .. count) */
    unsigned count, seg_cap;
    unsigned taken;           /* seg[0 .. taken) have their decoders */
    int demux_done;           /* count is final */
    unsigned reading;         /* the reader's segment */
    int failed, failed_demux; /* the reader's failure, returned again by every later read */
    char failed_why[WHY_BYTES];
    int stop;
    pthread_t demuxer;
    int demuxer_started;
    Decoder dec[MAX_DECODERS];
};

/* ---- the random-access points ---- */

static unsigned read_len(const uint8_t *p, const int nal_len)
{
    unsigned v = 0;
    for (int i = 0; i < nal_len; i++)
        v = v << 8 | p[i];
    return v;
}

int ev_segments_rap(const enum AVCodecID codec, const uint8_t *data, const size_t size,
                    const int nal_len, const int after_eos, int *eos)
{
    int rap = -1; /* the first picture's, when seen */
    *eos = 0;
    for (size_t at = 0; at + (size_t)nal_len < size;) {
        const size_t len = read_len(data + at, nal_len);
        at += (size_t)nal_len;
        if (len == 0 || len > size - at)
            break; /* a damaged packet: no point here (its decoder says what is wrong) */
        const uint8_t h = data[at];
        if (codec == AV_CODEC_ID_HEVC) {
            const unsigned type = h >> 1 & 0x3f;
            if (type == 36 || type == 37) /* end of sequence, end of bitstream */
                *eos = 1;
            /* the first slice: BLA and IDR are clean, so is a CRA whose leading frames one
             * decoder skips too (after an end of sequence); another CRA is open */
            if (rap < 0 && type < 32)
                rap = type >= 16 && type <= 20 ? EV_RAP_CLEAN
                      : type != 21             ? EV_RAP_NONE
                      : after_eos              ? EV_RAP_CLEAN
                                               : EV_RAP_OPEN;
        } else {
            const unsigned type = h & 0x1f;
            if (type == 10 || type == 11)
                *eos = 1;
            if (rap < 0 && (type == 1 || type == 5)) /* the first slice */
                rap = type == 5 ? EV_RAP_CLEAN : EV_RAP_NONE;
        }
        at += len;
    }
    return rap < 0 ? EV_RAP_NONE : rap;
}

int ev_segments_usable(const AVFormatContext *fmt, const int index)
{
    if (index < 0 || (unsigned)index >= fmt->nb_streams || !fmt->iformat)
        return 0;
    const char *demuxer = fmt->iformat->name;
    if (!strstr(demuxer, "mp4") && !strstr(demuxer, "matroska"))
        return 0; /* "mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm": timestamps on every packet */
    const AVCodecParameters *par = fmt->streams[index]->codecpar;
    const uint8_t *x = par->extradata;
    const int n = par->extradata_size;
    int len = 0;
    if (par->codec_id == AV_CODEC_ID_HEVC && n >= 23 && x[0] == 1)
        len = (x[21] & 3) + 1; /* hvcC: lengthSizeMinusOne */
    else if (par->codec_id == AV_CODEC_ID_H264 && n >= 7 && x[0] == 1)
        len = (x[4] & 3) + 1; /* avcC */
    return len == 1 || len == 2 || len == 4 ? len : 0;
}

/* ---- segments ---- */

static Segment *new_segment(EvSegments *s)
{
    if (s->count == s->seg_cap) {
        const unsigned cap = s->seg_cap ? 2 * s->seg_cap : 16;
        Segment **seg = realloc(s->seg, cap * sizeof(*seg));
        if (!seg)
            return NULL;
        s->seg = seg;
        s->seg_cap = cap;
    }
    Segment *g = calloc(1, sizeof(*g));
    if (g)
        s->seg[s->count++] = g;
    return g;
}

/* Append a reference to pkt (own: its frame is g's). Under the lock. */
static int append(Segment *g, const AVPacket *pkt, const int own)
{
    if (g->n == g->cap) {
        const unsigned cap = g->cap ? 2 * g->cap : 64;
        AVPacket **p = realloc(g->pkt, cap * sizeof(*p));
        if (!p)
            return AVERROR(ENOMEM);
        g->pkt = p;
        unsigned char *o = realloc(g->own, cap);
        if (!o)
            return AVERROR(ENOMEM);
        g->own = o;
        g->cap = cap;
    }
    AVPacket *ref = av_packet_clone(pkt);
    if (!ref)
        return AVERROR(ENOMEM);
    g->pkt[g->n] = ref;
    g->own[g->n++] = (unsigned char)own;
    return 0;
}

static void free_packets(Segment *g)
{
    for (unsigned i = 0; i < g->n; i++)
        av_packet_free(&g->pkt[i]);
}

/* ---- the demuxer ---- */

/* The timestamps seen, to tell a repeated one: frames are told apart by them (a damaged index
 * can repeat them; from the first repeat on the stream is not cut). Open addressing; a
 * timestamp is stored as itself, INT64_MIN marking a free slot. */
typedef struct PtsSet {
    int64_t *slot;
    size_t cap, n; /* cap a power of two */
} PtsSet;

/* Add pts. @return 1 it was new, 0 seen before, -1 out of memory. */
static int pts_add(PtsSet *set, const int64_t pts)
{
    if (2 * (set->n + 1) > set->cap) {
        const size_t cap = set->cap ? 2 * set->cap : 1024;
        int64_t *slot = malloc(cap * sizeof(*slot));
        if (!slot)
            return -1;
        for (size_t i = 0; i < cap; i++)
            slot[i] = INT64_MIN;
        PtsSet grown = { slot, cap, 0 };
        for (size_t i = 0; i < set->cap; i++)
            if (set->slot[i] != INT64_MIN)
                pts_add(&grown, set->slot[i]);
        free(set->slot);
        *set = grown;
    }
    size_t i = (size_t)((uint64_t)pts * 0x9e3779b97f4a7c15ull >> 20) & (set->cap - 1);
    for (; set->slot[i] != INT64_MIN; i = (i + 1) & (set->cap - 1))
        if (set->slot[i] == pts)
            return 0;
    set->slot[i] = pts;
    set->n++;
    return 1;
}

static void demux_fail(EvSegments *s, Segment *g, const int averr)
{
    if (g) {
        g->failed = 1;
        g->averr = averr;
        snprintf(g->why, sizeof(g->why), "%s", s->log());
    }
}

/* Read every packet of the stream into the segments. The current segment g takes each packet;
 * a random-access point at least EV_SEGMENT_MIN_PACKETS after g's start begins the next one
 * (while the reader is less than 2n segments behind). After an open one (a CRA), the previous
 * segment keeps taking the packets before it in output order (its leading frames, which it
 * owns; the CRA itself it does not). */
static void *demux_thread(void *arg)
{
    EvSegments *s = arg;
    AVPacket *pkt = av_packet_alloc();
    pthread_mutex_lock(&s->lock);
    Segment *g = new_segment(s), *tail = NULL; /* tail: the previous segment, taking leading */
    int64_t tail_pts = 0;                      /* ... packets while their pts is below this */
    unsigned since = 0;                        /* packets since g's start */
    int after_eos = 0, err = !pkt || !g ? AVERROR(ENOMEM) : 0;
    int cuttable = 1; /* every timestamp so far present and new */
    PtsSet seen = { 0 };
    pthread_cond_broadcast(&s->decode_cond);
    pthread_mutex_unlock(&s->lock);
    while (!err) {
        int ret = av_read_frame(s->fmt, pkt);
        if (ret == AVERROR_EOF)
            break;
        if (ret < 0) {
            err = ret;
            break;
        }
        if (pkt->stream_index != s->index) {
            av_packet_unref(pkt);
            continue;
        }
        int eos;
        const int rap =
            ev_segments_rap(s->codec_id, pkt->data, (size_t)pkt->size, s->nal_len, after_eos, &eos);
        after_eos = eos;
        if (cuttable) {
            const int fresh = pkt->pts == AV_NOPTS_VALUE ? 0 : pts_add(&seen, pkt->pts);
            if (fresh < 0) {
                err = AVERROR(ENOMEM);
                break;
            }
            cuttable = fresh;
        }
        pthread_mutex_lock(&s->lock);
        if (tail && (pkt->pts == AV_NOPTS_VALUE || pkt->pts > tail_pts)) {
            tail->complete = 1; /* the first frame after the CRA in output order */
            tail = NULL;
            pthread_cond_broadcast(&s->decode_cond);
        }
        const int leading = tail != NULL; /* before the CRA in output order: tail's */
        if (leading)
            err = append(tail, pkt, 1);
        const int cut = rap != EV_RAP_NONE && since >= EV_SEGMENT_MIN_PACKETS && !tail && cuttable;
        if (!err && cut) {
            while (!s->stop && s->count >= s->reading + 2 * s->n)
                pthread_cond_wait(&s->demux_cond, &s->lock);
            Segment *next = s->stop ? NULL : new_segment(s);
            if (!next) {
                err = s->stop ? AVERROR_EXIT : AVERROR(ENOMEM);
            } else if (rap == EV_RAP_OPEN) {
                err = append(g, pkt, 0); /* g decodes the CRA for its leading frames */
                tail = g;
                tail_pts = pkt->pts;
            } else {
                g->complete = 1;
            }
            if (next) {
                g = next;
                since = 0;
            }
        }
        if (!err)
            err = append(g, pkt, !leading);
        since++;
        pthread_cond_broadcast(&s->decode_cond);
        pthread_mutex_unlock(&s->lock);
        av_packet_unref(pkt);
    }
    pthread_mutex_lock(&s->lock);
    if (err && err != AVERROR_EXIT) {
        demux_fail(s, g, err);
        demux_fail(s, tail, err);
    }
    if (g)
        g->complete = 1;
    if (tail)
        tail->complete = 1;
    s->demux_done = 1;
    pthread_cond_broadcast(&s->decode_cond);
    pthread_cond_broadcast(&s->read_cond);
    pthread_mutex_unlock(&s->lock);
    av_packet_free(&pkt);
    free(seen.slot);
    return NULL;
}

/* ---- the decoders ---- */

/* Put an entry into d's queue, waiting for room. Under the lock. @return 0, or AVERROR_EXIT. */
static int put(EvSegments *s, Decoder *d, AVFrame *frame, const int averr)
{
    while (!s->stop && d->len == s->cap)
        pthread_cond_wait(&s->decode_cond, &s->lock);
    if (s->stop)
        return AVERROR_EXIT;
    d->q[(d->head + d->len++) % s->cap] = (Entry){ frame, averr };
    pthread_cond_broadcast(&s->read_cond);
    return 0;
}

/* Is frame one of g's (the pts of a packet g owns, among the first `sent`)? */
static int owns(const Segment *g, const unsigned sent, const AVFrame *frame)
{
    const int64_t pts = frame->pts != AV_NOPTS_VALUE ? frame->pts : frame->best_effort_timestamp;
    if (pts == AV_NOPTS_VALUE)
        return 1; /* no timestamp to tell by: only in a segment the stream was not cut after */
    for (unsigned i = sent; i-- > 0;)
        if (g->own[i] && g->pkt[i]->pts == pts)
            return 1;
    return 0;
}

/* Take every frame the decoder has ready; keep g's. @return 0, or a libav error. */
static int drain(EvSegments *s, Decoder *d, const Segment *g, const unsigned sent)
{
    for (;;) {
        AVFrame *f = av_frame_alloc();
        if (!f)
            return AVERROR(ENOMEM);
        int ret = avcodec_receive_frame(d->codec, f);
        if (ret < 0) {
            av_frame_free(&f);
            return ret == AVERROR(EAGAIN) || ret == AVERROR_EOF ? 0 : ret;
        }
        pthread_mutex_lock(&s->lock);
        const int keep = owns(g, sent, f);
        pthread_mutex_unlock(&s->lock);
        ret = keep ? s->hold(s->opaque, d->id, f, d->why, sizeof(d->why)) : 0;
        if (keep && !ret) {
            pthread_mutex_lock(&s->lock);
            ret = put(s, d, f, 0);
            pthread_mutex_unlock(&s->lock);
        }
        if (!keep || ret)
            av_frame_free(&f);
        if (ret)
            return ret;
    }
}

/* Decode segment g with d. @return 0, or a libav error (why filled). */
static int decode_segment(EvSegments *s, Decoder *d, Segment *g)
{
    int ret = 0;
    if (!d->codec)
        ret = s->open(s->opaque, &d->codec);
    else
        avcodec_flush_buffers(d->codec); /* after the last segment's end of stream */
    unsigned sent = 0;
    while (!ret) {
        pthread_mutex_lock(&s->lock);
        while (!s->stop && sent == g->n && !g->complete)
            pthread_cond_wait(&s->decode_cond, &s->lock);
        const AVPacket *pkt = sent < g->n ? g->pkt[sent] : NULL;
        const int stop = s->stop, failed = !pkt && g->failed;
        pthread_mutex_unlock(&s->lock);
        if (stop)
            return AVERROR_EXIT;
        if (failed) {
            snprintf(d->why, sizeof(d->why), "%s", g->why);
            return g->averr;
        }
        ret = avcodec_send_packet(d->codec, pkt); /* NULL: the end */
        while (ret == AVERROR(EAGAIN)) {
            ret = drain(s, d, g, sent);
            if (!ret)
                ret = avcodec_send_packet(d->codec, pkt);
        }
        if (!pkt) {
            if (ret == AVERROR_EOF)
                ret = 0;
            return ret ? ret : drain(s, d, g, sent);
        }
        sent++;
        if (!ret)
            ret = drain(s, d, g, sent);
    }
    return ret;
}

/* The next segment for d, taken; NULL when there is none (the end, or stopping). Under the
 * lock. */
static Segment *take(EvSegments *s, const Decoder *d)
{
    for (;;) {
        if (s->stop)
            return NULL;
        if (s->taken < s->count) {
            Segment *g = s->seg[s->taken++];
            g->taken = 1;
            g->decoder = d->id;
            pthread_cond_broadcast(&s->decode_cond); /* the others may take the next */
            pthread_cond_broadcast(&s->read_cond);
            return g;
        }
        if (s->demux_done && s->taken >= s->count)
            return NULL;
        pthread_cond_wait(&s->decode_cond, &s->lock);
    }
}

static void *decode_thread(void *arg)
{
    Decoder *d = arg;
    EvSegments *s = d->s;
    for (;;) {
        pthread_mutex_lock(&s->lock);
        Segment *g = take(s, d);
        pthread_mutex_unlock(&s->lock);
        if (!g)
            return NULL;
        d->why[0] = 0;
        int ret = decode_segment(s, d, g);
        if (ret && !d->why[0])
            snprintf(d->why, sizeof(d->why), "%s", s->log());
        pthread_mutex_lock(&s->lock);
        free_packets(g);
        g->n = 0;
        const int stopped = ret == AVERROR_EXIT || put(s, d, NULL, ret); /* end mark, failure */
        pthread_mutex_unlock(&s->lock);
        if (stopped || ret)
            return NULL; /* stopped, or failed: the reader ends at the failure */
    }
}

/* ---- the reader ---- */

int ev_segments_next(EvSegments *s, AVFrame *frame, char *why, const size_t why_size, int *demux)
{
    *demux = 0;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        if (s->failed) {
            *demux = s->failed_demux;
            snprintf(why, why_size, "%s", s->failed_why);
            pthread_mutex_unlock(&s->lock);
            return s->failed;
        }
        if (s->demux_done && s->reading >= s->count) {
            pthread_mutex_unlock(&s->lock);
            return 0;
        }
        const Segment *now = s->reading < s->count ? s->seg[s->reading] : NULL;
        Decoder *d = now && now->taken ? &s->dec[now->decoder] : NULL;
        if (!d || !d->len) {
            pthread_cond_wait(&s->read_cond, &s->lock);
            continue;
        }
        Entry e = d->q[d->head];
        d->head = (d->head + 1) % s->cap;
        d->len--;
        pthread_cond_broadcast(&s->decode_cond);
        if (e.frame) {
            pthread_mutex_unlock(&s->lock);
            av_frame_move_ref(frame, e.frame);
            av_frame_free(&e.frame);
            return 1;
        }
        if (e.averr) { /* the queue ends here: its decoder stopped */
            const Segment *g = s->seg[s->reading];
            s->failed = e.averr;
            s->failed_demux = g->failed && e.averr == g->averr;
            snprintf(s->failed_why, sizeof(s->failed_why), "%s", d->why);
            continue;
        }
        s->reading++;
        pthread_cond_broadcast(&s->demux_cond);
    }
}

unsigned ev_segments_count(EvSegments *s)
{
    pthread_mutex_lock(&s->lock);
    const unsigned n = s->count;
    pthread_mutex_unlock(&s->lock);
    return n;
}

unsigned ev_segments_decoders(const EvSegments *s)
{
    return s->n;
}

/* ---- start and close ---- */

int ev_segments_start(EvSegments **out, AVFormatContext *fmt, const int index,
                      const unsigned decoders, const size_t frame_bytes, const EvSegmentsOpen open,
                      const EvSegmentsHold hold, const EvSegmentsLog log, void *const opaque)
{
    *out = NULL;
    EvSegments *s = calloc(1, sizeof(*s));
    if (!s)
        return -ENOMEM;
    s->fmt = fmt;
    s->index = index;
    s->nal_len = ev_segments_usable(fmt, index);
    s->codec_id = fmt->streams[index]->codecpar->codec_id;
    s->n = decoders < 2 ? 2 : decoders > MAX_DECODERS ? MAX_DECODERS : decoders;
    const size_t fit = frame_bytes ? EV_SEGMENT_AHEAD_BYTES / frame_bytes : 0;
    s->cap = fit < 8 ? 8 : fit > 1024 ? 1024 : (unsigned)fit;
    s->open = open;
    s->hold = hold;
    s->log = log;
    s->opaque = opaque;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->demux_cond, NULL);
    pthread_cond_init(&s->decode_cond, NULL);
    pthread_cond_init(&s->read_cond, NULL);
    *out = s;
    for (unsigned k = 0; k < s->n; k++) {
        Decoder *d = &s->dec[k];
        d->s = s;
        d->id = k;
        d->q = calloc(s->cap, sizeof(*d->q));
        if (!d->q)
            return ev_segments_close(out), -ENOMEM;
    }
    if (pthread_create(&s->demuxer, NULL, demux_thread, s))
        return ev_segments_close(out), -EAGAIN;
    s->demuxer_started = 1;
    for (unsigned k = 0; k < s->n; k++) {
        if (pthread_create(&s->dec[k].thread, NULL, decode_thread, &s->dec[k]))
            return ev_segments_close(out), -EAGAIN;
        s->dec[k].started = 1;
    }
    return 0;
}

void ev_segments_close(EvSegments **ps)
{
    if (!ps || !*ps)
        return;
    EvSegments *s = *ps;
    pthread_mutex_lock(&s->lock);
    s->stop = 1;
    pthread_cond_broadcast(&s->demux_cond);
    pthread_cond_broadcast(&s->decode_cond);
    pthread_cond_broadcast(&s->read_cond);
    pthread_mutex_unlock(&s->lock);
    if (s->demuxer_started)
        pthread_join(s->demuxer, NULL);
    for (unsigned k = 0; k < s->n; k++) {
        Decoder *d = &s->dec[k];
        if (d->started)
            pthread_join(d->thread, NULL);
        for (unsigned i = 0; d->q && i < d->len; i++)
            av_frame_free(&d->q[(d->head + i) % s->cap].frame);
        free(d->q);
        avcodec_free_context(&d->codec);
    }
    for (unsigned i = 0; i < s->count; i++) {
        free_packets(s->seg[i]);
        free(s->seg[i]->pkt);
        free(s->seg[i]->own);
        free(s->seg[i]);
    }
    free(s->seg);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->demux_cond);
    pthread_cond_destroy(&s->decode_cond);
    pthread_cond_destroy(&s->read_cond);
    free(s);
    *ps = NULL;
}

#endif
