/*
 * bench_clip: a benchmark clip from a raw 8-bit 4:2:0 source, for bench/vs_netflix.sh.
 *   bench_clip SRC.yuv W H SCALE FRAMES OUT.yuv [BITS]
 * Every plane is enlarged SCALE times (nearest neighbour) and the source's frames are written
 * in a cycle (0, 1, 2, .., 0, 1, ..) until FRAMES frames are out. Reads the whole source.
 * BITS (8 by default, up to 16) deeper than 8 writes each sample v as v << (BITS - 8), 16-bit
 * little-endian (yuv420p10le and the like).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int write_scaled(FILE *out, const unsigned char *src, unsigned w, unsigned h, unsigned scale,
                        unsigned bits, unsigned char *row)
{
    const size_t bytes = bits > 8 ? 2 : 1, n = (size_t)w * scale * bytes;
    for (unsigned y = 0; y < h; y++) {
        for (unsigned x = 0; x < w; x++) {
            const unsigned v = (unsigned)src[(size_t)y * w + x] << (bits - 8);
            for (unsigned k = 0; k < scale; k++) {
                unsigned char *at = row + ((size_t)x * scale + k) * bytes;
                at[0] = (unsigned char)(v & 0xff);
                if (bytes == 2)
                    at[1] = (unsigned char)(v >> 8);
            }
        }
        for (unsigned k = 0; k < scale; k++)
            if (fwrite(row, 1, n, out) != n)
                return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const unsigned bits = argc == 8 ? (unsigned)atoi(argv[7]) : 8;
    if ((argc != 7 && argc != 8) || bits < 8 || bits > 16) {
        fprintf(stderr, "usage: %s SRC.yuv W H SCALE FRAMES OUT.yuv [BITS 8..16]\n", argv[0]);
        return 2;
    }
    const unsigned w = (unsigned)atoi(argv[2]), h = (unsigned)atoi(argv[3]);
    const unsigned scale = (unsigned)atoi(argv[4]), frames = (unsigned)atoi(argv[5]);
    const size_t luma = (size_t)w * h, frame = luma + 2 * (luma / 4);
    FILE *in = fopen(argv[1], "rb");
    if (!in || !w || !h || !scale || !frames) {
        fprintf(stderr, "%s: cannot read %s\n", argv[0], argv[1]);
        return 1;
    }
    fseek(in, 0, SEEK_END);
    const long size = ftell(in);
    rewind(in);
    const unsigned n_src = size > 0 ? (unsigned)((size_t)size / frame) : 0;
    unsigned char *src = n_src ? malloc((size_t)n_src * frame) : NULL;
    unsigned char *row = malloc((size_t)w * scale * 2);
    if (!n_src || !src || !row || fread(src, frame, n_src, in) != n_src) {
        fprintf(stderr, "%s: %s holds no whole %ux%u 4:2:0 frame\n", argv[0], argv[1], w, h);
        return 1;
    }
    fclose(in);
    FILE *out = fopen(argv[6], "wb");
    if (!out)
        return 1;
    for (unsigned f = 0; f < frames; f++) {
        const unsigned char *p = src + (size_t)(f % n_src) * frame;
        if (write_scaled(out, p, w, h, scale, bits, row) ||
            write_scaled(out, p + luma, w / 2, h / 2, scale, bits, row) ||
            write_scaled(out, p + luma + luma / 4, w / 2, h / 2, scale, bits, row)) {
            fprintf(stderr, "%s: cannot write %s\n", argv[0], argv[6]);
            return 1;
        }
    }
    return fclose(out) ? 1 : 0;
}
