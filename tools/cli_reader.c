/* The CLI's second reading thread (cli_reader.h). */
#include "cli_reader.h"

static void *side_reader_main(void *arg)
{
    SideReader *r = arg;
    pthread_mutex_lock(&r->lock);
    for (;;) {
        while (!r->pending && !r->stop)
            pthread_cond_wait(&r->cond, &r->lock);
        if (r->stop)
            break;
        EvPicture dst = r->dst;
        const int device = r->device;
        pthread_mutex_unlock(&r->lock);
        EvVideoDeviceFrame *frame = NULL;
        const int result = device ? ev_video_read_device(r->video, &dst, &frame)
                                  : ev_video_read_into(r->video, &dst);
        pthread_mutex_lock(&r->lock);
        r->dst = dst;
        r->frame = frame;
        r->result = result;
        r->pending = 0;
        r->done = 1;
        pthread_cond_broadcast(&r->cond);
    }
    pthread_mutex_unlock(&r->lock);
    return NULL;
}

int side_reader_start(SideReader *r, EvVideo *v)
{
    *r = (SideReader){ .video = v };
    if (pthread_mutex_init(&r->lock, NULL))
        return -1;
    if (pthread_cond_init(&r->cond, NULL)) {
        pthread_mutex_destroy(&r->lock);
        return -1;
    }
    if (pthread_create(&r->thread, NULL, side_reader_main, r)) {
        pthread_cond_destroy(&r->cond);
        pthread_mutex_destroy(&r->lock);
        return -1;
    }
    return 0;
}

static void request(SideReader *r, const EvPicture *dst, const int device)
{
    pthread_mutex_lock(&r->lock);
    r->dst = *dst;
    r->device = device;
    r->done = 0;
    r->pending = 1;
    pthread_cond_broadcast(&r->cond);
    pthread_mutex_unlock(&r->lock);
}

void side_reader_request(SideReader *r, const EvPicture *dst)
{
    request(r, dst, 0);
}

void side_reader_request_device(SideReader *r)
{
    const EvPicture none = { 0 };
    request(r, &none, 1);
}

int side_reader_wait_device(SideReader *r, EvPicture *pic, EvVideoDeviceFrame **frame)
{
    const int result = side_reader_wait(r);
    pthread_mutex_lock(&r->lock);
    *pic = r->dst;
    *frame = r->frame;
    r->frame = NULL;
    pthread_mutex_unlock(&r->lock);
    return result;
}

int side_reader_wait(SideReader *r)
{
    pthread_mutex_lock(&r->lock);
    while (!r->done)
        pthread_cond_wait(&r->cond, &r->lock);
    const int result = r->result;
    pthread_mutex_unlock(&r->lock);
    return result;
}

void side_reader_stop(SideReader *r)
{
    pthread_mutex_lock(&r->lock);
    r->stop = 1;
    pthread_cond_broadcast(&r->cond);
    pthread_mutex_unlock(&r->lock);
    pthread_join(r->thread, NULL);
    pthread_cond_destroy(&r->cond);
    pthread_mutex_destroy(&r->lock);
}
