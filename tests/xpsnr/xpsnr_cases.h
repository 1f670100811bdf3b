/* The xpsnr golden cases: a corpus pair (shared/corpus), possibly derived from it (tiled,
 * cropped, reduced in depth, luma only, distorted inverted) so that every path of the filter
 * runs, and the frame rate given to ffmpeg. Their goldens are tests/xpsnr/golden/<id>.txt, the
 * stats files of scripts/xpsnr_reference.sh (xpsnr_reference_test.sh makes and checks them). */
#ifndef EV_TESTS_XPSNR_CASES_H
#define EV_TESTS_XPSNR_CASES_H

typedef struct XpsnrCase {
    const char *id;
    const char *pair;    /* corpus.tsv name */
    unsigned tx, ty;     /* tiles across, down (1: none) */
    unsigned cw, ch;     /* crop the (tiled) frame to its top-left cw x ch (0: none) */
    unsigned shift;      /* bits dropped from every sample (16 -> 14, 10 -> 9) */
    int gray;            /* luma only: 4:0:0 */
    int invert;          /* distorted samples v -> 2^depth - 1 - v (errors up to the peak) */
    unsigned frame_rate; /* ffmpeg's -framerate; 32 and over: second-order temporal term */
    const char *why;
} XpsnrCase;

static const XpsnrCase xpsnr_cases[] = {
    /* every corpus pair as it is, at 25 and 60 frames per second */
    { "nat576_8bit_x264_crf23_r25", "nat576_8bit_x264_crf23", 1, 1, 0, 0, 0, 0, 0, 25, "corpus" },
    { "nat576_8bit_x264_crf23_r60", "nat576_8bit_x264_crf23", 1, 1, 0, 0, 0, 0, 0, 60, "corpus" },
    { "nat576_8bit_x264_crf38_r25", "nat576_8bit_x264_crf38", 1, 1, 0, 0, 0, 0, 0, 25, "corpus" },
    { "nat576_8bit_x264_crf38_r60", "nat576_8bit_x264_crf38", 1, 1, 0, 0, 0, 0, 0, 60, "corpus" },
    { "nat576_8bit_identical_r25", "nat576_8bit_identical", 1, 1, 0, 0, 0, 0, 0, 25, "+inf" },
    { "nat576_8bit_identical_r60", "nat576_8bit_identical", 1, 1, 0, 0, 0, 0, 0, 60, "+inf" },
    { "synth576_8bit_testsrc2_x264_crf30_r25", "synth576_8bit_testsrc2_x264_crf30", 1, 1, 0, 0, 0,
      0, 0, 25, "corpus" },
    { "synth576_8bit_testsrc2_x264_crf30_r60", "synth576_8bit_testsrc2_x264_crf30", 1, 1, 0, 0, 0,
      0, 0, 60, "corpus" },
    { "scenecut576_8bit_x264_crf30_r25", "scenecut576_8bit_x264_crf30", 1, 1, 0, 0, 0, 0, 0, 25,
      "corpus" },
    { "scenecut576_8bit_x264_crf30_r60", "scenecut576_8bit_x264_crf30", 1, 1, 0, 0, 0, 0, 0, 60,
      "corpus" },
    { "nat1080_8bit_x264_crf30_r25", "nat1080_8bit_x264_crf30", 1, 1, 0, 0, 0, 0, 0, 25, "corpus" },
    { "nat1080_8bit_x264_crf30_r60", "nat1080_8bit_x264_crf30", 1, 1, 0, 0, 0, 0, 0, 60, "corpus" },
    { "nat576_10bit_x264_crf30_r25", "nat576_10bit_x264_crf30", 1, 1, 0, 0, 0, 0, 0, 25, "corpus" },
    { "nat576_10bit_x264_crf30_r60", "nat576_10bit_x264_crf30", 1, 1, 0, 0, 0, 0, 0, 60, "corpus" },
    { "nat576_12bit_x265_crf30_r25", "nat576_12bit_x265_crf30", 1, 1, 0, 0, 0, 0, 0, 25, "corpus" },
    { "nat576_12bit_x265_crf30_r60", "nat576_12bit_x265_crf30", 1, 1, 0, 0, 0, 0, 0, 60, "corpus" },
    { "nat576_16bit_processed_r25", "nat576_16bit_processed", 1, 1, 0, 0, 0, 0, 0, 25, "corpus" },
    { "nat576_16bit_processed_r60", "nat576_16bit_processed", 1, 1, 0, 0, 0, 0, 0, 60, "corpus" },
    { "nat576_444_8bit_x264_crf32_r25", "nat576_444_8bit_x264_crf32", 1, 1, 0, 0, 0, 0, 0, 25,
      "corpus" },
    { "nat576_444_8bit_x264_crf32_r60", "nat576_444_8bit_x264_crf32", 1, 1, 0, 0, 0, 0, 0, 60,
      "corpus" },
    { "nat576_422_10bit_x264_crf34_r25", "nat576_422_10bit_x264_crf34", 1, 1, 0, 0, 0, 0, 0, 25,
      "corpus" },
    { "nat576_422_10bit_x264_crf34_r60", "nat576_422_10bit_x264_crf34", 1, 1, 0, 0, 0, 0, 0, 60,
      "corpus" },
    /* over 2048x1152: activities on 2x2 groups */
    { "uhd_tile2x2_r25", "nat1080_8bit_x264_crf30", 2, 2, 0, 0, 0, 0, 0, 25, "3840x2160, b 128" },
    { "uhd_tile2x2_r60", "nat1080_8bit_x264_crf30", 2, 2, 0, 0, 0, 0, 0, 60, "3840x2160, b 128" },
    { "uhd_crop3600_r60", "nat1080_8bit_x264_crf30", 2, 2, 3600, 2160, 0, 0, 0, 60,
      "b 124, last column 4 wide: the spatial sum the filter drops" },
    { "hbd16_tile4x4_r60", "nat576_16bit_processed", 4, 4, 0, 0, 0, 0, 0, 60,
      "2304x1296 16-bit, b 76: rows of 32-sample SSE2 chunks" },
    { "hbd16_tile4x4_invert_r25", "nat576_16bit_processed", 4, 4, 0, 0, 0, 0, 1, 25,
      "16-bit errors past 32767: the SSE2 kernel's wrapped lanes" },
    { "hbd16_invert_r25", "nat576_16bit_processed", 1, 1, 0, 0, 0, 0, 1, 25,
      "16-bit errors past 32767 in rows under 32 samples (exact squares)" },
    { "hbd14_tile4x4_invert_r60", "nat576_16bit_processed", 4, 4, 0, 0, 2, 0, 1, 60,
      "14-bit, the largest errors" },
    { "hbd9_r25", "nat576_10bit_x264_crf30", 1, 1, 0, 0, 1, 0, 0, 25, "9-bit" },
    { "hbd10_422_tile4x4_r25", "nat576_422_10bit_x264_crf34", 4, 4, 0, 0, 0, 0, 0, 25,
      "4:2:2 over 2048x1152" },
    /* sizes: odd, tiny, the smoothing's bound */
    { "odd444_crop575x323_r25", "nat576_444_8bit_x264_crf32", 1, 1, 575, 323, 0, 0, 0, 25,
      "odd 4:4:4: last blocks 15 wide, 3 high" },
    { "odd444_crop575x323_r60", "nat576_444_8bit_x264_crf32", 1, 1, 575, 323, 0, 0, 0, 60,
      "odd 4:4:4: last blocks 15 wide, 3 high" },
    { "tiny444_crop45x45_r25", "nat576_444_8bit_x264_crf32", 1, 1, 45, 45, 0, 0, 0, 25,
      "2025 pixels, b 4, last blocks 1 wide: weight 1" },
    { "smooth_crop640x480_r25", "nat576_8bit_x264_crf38", 2, 2, 640, 480, 0, 0, 0, 25,
      "640x480: the last size that smooths the weights" },
    { "nosmooth_crop642x480_r25", "nat576_8bit_x264_crf38", 2, 2, 642, 480, 0, 0, 0, 25,
      "642x480: no smoothing" },
    /* luma only */
    { "gray12_r25", "nat576_12bit_x265_crf30", 1, 1, 0, 0, 0, 1, 0, 25, "gray12" },
    { "gray8_crop575x323_r60", "nat576_8bit_x264_crf23", 1, 1, 575, 323, 0, 1, 0, 60, "odd gray8" },
    { "gray16_tile4x4_invert_r60", "nat576_16bit_processed", 4, 4, 0, 0, 0, 1, 1, 60,
      "gray16 over 2048x1152" },
};

#define XPSNR_N_CASES (sizeof(xpsnr_cases) / sizeof(xpsnr_cases[0]))

#endif
