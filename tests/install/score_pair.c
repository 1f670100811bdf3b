/* A program that knows exactvmaf only through its installed headers and library: it scores
 * two y4m files with a model and prints every frame's score and the pooled mean as %.17g. */
#include <stdio.h>

#include <exactvmaf/exactvmaf.h>
#include <exactvmaf/video.h>

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s REF.y4m DIS.y4m MODEL_VERSION\n", argv[0]);
        return 2;
    }
    char err[256];
    EvVideo *ref = NULL, *dis = NULL;
    if (ev_video_open(&ref, argv[1], NULL, err, sizeof(err)) ||
        ev_video_open(&dis, argv[2], NULL, err, sizeof(err))) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    EvSettings s;
    ev_default_settings(&s);
    s.n_threads = 2;
    EvContext *c = NULL;
    char spec[128];
    snprintf(spec, sizeof(spec), "version=%s", argv[3]);
    if (ev_open(&c, &s) || ev_use_model(c, spec)) {
        fprintf(stderr, "cannot open a context with model %s\n", argv[3]);
        return 1;
    }
    EvPicture a, b;
    int ra, rb;
    while ((ra = ev_video_read(ref, &a)) == 1 && (rb = ev_video_read(dis, &b)) == 1)
        if (ev_send_pictures(c, &a, &b)) {
            fprintf(stderr, "ev_send_pictures failed\n");
            return 1;
        }
    if (ra < 0 || ev_flush(c)) {
        fprintf(stderr, "reading or flushing failed\n");
        return 1;
    }
    double v;
    for (unsigned i = 0; i < ev_frame_count(c); i++) {
        if (ev_get_score(c, "vmaf", i, &v))
            return 1;
        printf("frame %u vmaf %.17g\n", i, v);
    }
    if (ev_get_pooled(c, "vmaf", EV_POOL_MEAN, &v))
        return 1;
    printf("mean vmaf %.17g\n", v);
    ev_close(&c);
    ev_video_close(&ref);
    ev_video_close(&dis);
    return 0;
}
