/* The scaler's test cases, shared by scale_ref_test.c (the reference against libswscale) and
 * scale_twin_test.c (the twin against the reference): fixed size pairs, and random small ones. */
#ifndef EV_TESTS_DECODE_SCALE_CASES_H
#define EV_TESTS_DECODE_SCALE_CASES_H

#include <stdint.h>

typedef struct Case {
    int sw, sh, dw, dh, ss_x, ss_y, planes, bits;
} Case;

/* Up to 24x, down to 8x, odd sizes, every layout, 8 to 14 bits. */
static const Case scale_fixed_cases[] = {
    { 960, 540, 1920, 1080, 1, 1, 3, 8 },   { 1920, 1080, 1280, 720, 1, 1, 3, 8 },
    { 1280, 720, 3840, 2160, 1, 1, 3, 10 }, { 640, 360, 1920, 1080, 1, 1, 3, 10 },
    { 575, 323, 1920, 1080, 1, 1, 3, 8 },   { 1920, 1080, 575, 323, 1, 1, 3, 8 },
    { 1920, 1080, 1920, 817, 1, 1, 3, 8 },  { 1919, 1080, 1920, 1080, 1, 1, 3, 12 },
    { 17, 9, 64, 48, 1, 1, 3, 8 },          { 64, 48, 13, 11, 1, 1, 3, 10 },
    { 3840, 2160, 480, 270, 1, 1, 3, 8 },   { 333, 222, 1000, 999, 1, 0, 3, 8 },
    { 1000, 999, 333, 222, 1, 0, 3, 10 },   { 301, 203, 640, 480, 0, 0, 3, 8 },
    { 640, 480, 301, 203, 0, 0, 3, 12 },    { 720, 576, 1024, 768, 0, 0, 1, 8 },
    { 720, 576, 1024, 768, 1, 1, 3, 9 },    { 800, 600, 1920, 1080, 1, 1, 3, 14 },
    { 160, 90, 3840, 2160, 1, 1, 3, 8 },    { 1024, 768, 720, 576, 0, 0, 1, 10 },
};

#define SCALE_FIXED_CASES (sizeof(scale_fixed_cases) / sizeof(scale_fixed_cases[0]))

/* 1 to 200 samples each way, any layout, 8 or 10 bits, from the caller's random numbers. */
static inline Case scale_random_case(uint32_t (*next)(void))
{
    const int layout = (int)(next() % 4);
    Case c;
    c.sw = 1 + (int)(next() % 200);
    c.sh = 1 + (int)(next() % 200);
    c.dw = 1 + (int)(next() % 200);
    c.dh = 1 + (int)(next() % 200);
    c.ss_x = layout < 2;
    c.ss_y = layout == 0;
    c.planes = layout == 3 ? 1 : 3;
    c.bits = next() % 3 == 0 ? 10 : 8;
    return c;
}

#endif
