/* A second reading thread for the CLI: the distorted frame is read while the main thread reads
 * the reference one, each straight into its half of the borrowed frame slot. */
#ifndef EV_TOOLS_CLI_READER_H
#define EV_TOOLS_CLI_READER_H

#include <pthread.h>

#include "exactvmaf/exactvmaf.h"
#include "exactvmaf/video.h"

typedef struct SideReader {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    EvVideo *video;
    EvPicture dst;
    int device;                /* the request reads into device memory (ev_video_read_device) */
    EvVideoDeviceFrame *frame; /* ... the frame it lent, described in dst */
    int pending, done, stop, result;
} SideReader;

/* Start the thread reading v. @return 0, or -1 (no thread: read in the caller instead). */
int side_reader_start(SideReader *r, EvVideo *v);
/* Read the next frame of v into dst in the background; side_reader_wait() returns what
 * ev_video_read_into() returned. One request at a time. */
void side_reader_request(SideReader *r, const EvPicture *dst);
int side_reader_wait(SideReader *r);
/* The same with ev_video_read_device(): the wait gives the frame and its picture. */
void side_reader_request_device(SideReader *r);
int side_reader_wait_device(SideReader *r, EvPicture *pic, EvVideoDeviceFrame **frame);
void side_reader_stop(SideReader *r);

#endif
