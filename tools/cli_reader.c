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
        const EvPicture dst = r->dst;
        pthread_mutex_unlock(&r->lock);
        const int result = ev_video_read_into(r->video, &dst);
        pthread_mutex_lock(&r->lock);
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

void side_reader_request(SideReader *r, const EvPicture *dst)
{
    pthread_mutex_lock(&r->lock);
    r->dst = *dst;
    r->done = 0;
    r->pending = 1;
    pthread_cond_broadcast(&r->cond);
    pthread_mutex_unlock(&r->lock);
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
