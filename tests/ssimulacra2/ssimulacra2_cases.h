/* The ssimulacra2 golden cases: a corpus pair (shared/corpus), possibly cropped or luma only,
 * and the extractor's option. Their goldens are tests/ssimulacra2/golden/<id>.txt, the scores of
 * scripts/ssimulacra2_reference.sh on the frames' R'G'B' (ssimulacra2_reference_test.sh makes
 * and checks them). */
#ifndef EV_TESTS_SSIMULACRA2_CASES_H
#define EV_TESTS_SSIMULACRA2_CASES_H

typedef struct Ssimu2Case {
    const char *id;
    const char *pair;   /* corpus.tsv name */
    unsigned tx, ty;    /* tiles across, down (0 or 1: none) */
    unsigned cw, ch;    /* crop the (tiled) frame to its top-left cw x ch (0: none) */
    int invert;         /* distorted samples v -> 2^depth - 1 - v (R'G'B' clamped at both ends) */
    unsigned shift;     /* bits dropped from every sample (10 -> 9, 16 -> 14) */
    int gray;           /* luma only: 4:0:0 */
    const char *matrix; /* the option's value, NULL: the default (auto) */
    const char *why;
} Ssimu2Case;

static const Ssimu2Case ssimu2_cases[] = {
    /* every corpus pair as it is (576x324: BT.601; 1920x1080: BT.709) */
    { "nat576_8bit_x264_crf23", "nat576_8bit_x264_crf23", 0, 0, 0, 0, 0, 0, 0, NULL, "corpus" },
    { "nat576_8bit_x264_crf38", "nat576_8bit_x264_crf38", 0, 0, 0, 0, 0, 0, 0, NULL, "corpus" },
    { "nat576_8bit_identical", "nat576_8bit_identical", 0, 0, 0, 0, 0, 0, 0, NULL, "100 exactly" },
    { "synth576_8bit_testsrc2_x264_crf30", "synth576_8bit_testsrc2_x264_crf30", 0, 0, 0, 0, 0, 0, 0,
      NULL, "corpus" },
    { "scenecut576_8bit_x264_crf30", "scenecut576_8bit_x264_crf30", 0, 0, 0, 0, 0, 0, 0, NULL,
      "corpus" },
    { "nat1080_8bit_x264_crf30", "nat1080_8bit_x264_crf30", 0, 0, 0, 0, 0, 0, 0, NULL, "BT.709" },
    { "nat576_10bit_x264_crf30", "nat576_10bit_x264_crf30", 0, 0, 0, 0, 0, 0, 0, NULL, "corpus" },
    { "nat576_12bit_x265_crf30", "nat576_12bit_x265_crf30", 0, 0, 0, 0, 0, 0, 0, NULL, "corpus" },
    { "nat576_16bit_processed", "nat576_16bit_processed", 0, 0, 0, 0, 0, 0, 0, NULL, "corpus" },
    { "nat576_444_8bit_x264_crf32", "nat576_444_8bit_x264_crf32", 0, 0, 0, 0, 0, 0, 0, NULL,
      "corpus" },
    { "nat576_422_10bit_x264_crf34", "nat576_422_10bit_x264_crf34", 0, 0, 0, 0, 0, 0, 0, NULL,
      "corpus" },
    /* the matrix */
    { "bt709_nat576_8bit_x264_crf38", "nat576_8bit_x264_crf38", 0, 0, 0, 0, 0, 0, 0, "bt709",
      "option" },
    { "bt601_nat1080_8bit_x264_crf30", "nat1080_8bit_x264_crf30", 0, 0, 0, 0, 0, 0, 0, "bt601",
      "option" },
    { "auto_crop1024x576", "nat1080_8bit_x264_crf30", 0, 0, 1024, 576, 0, 0, 0, NULL,
      "576 high: BT.601" },
    { "auto_crop1024x578", "nat1080_8bit_x264_crf30", 0, 0, 1024, 578, 0, 0, 0, NULL,
      "over 576: BT.709" },
    { "auto_crop1280x320", "nat1080_8bit_x264_crf30", 0, 0, 1280, 320, 0, 0, 0, NULL,
      "1280 wide: BT.709" },
    /* odd sizes: the last chroma sample repeated, odd scales */
    { "odd420_crop575x323", "nat576_8bit_x264_crf38", 0, 0, 575, 323, 0, 0, 0, NULL, "odd 4:2:0" },
    { "odd422_crop575x323", "nat576_422_10bit_x264_crf34", 0, 0, 575, 323, 0, 0, 0, NULL,
      "odd 4:2:2" },
    { "odd444_crop575x323", "nat576_444_8bit_x264_crf32", 0, 0, 575, 323, 0, 0, 0, NULL,
      "odd 4:4:4" },
    /* few scales: the tool's running weight index shifts */
    { "min_crop8x8", "nat576_8bit_x264_crf38", 0, 0, 8, 8, 0, 0, 0, NULL,
      "2 scales, the last 4x4" },
    { "small_crop15x9", "nat576_8bit_x264_crf38", 0, 0, 15, 9, 0, 0, 0, NULL,
      "2 scales, the last 8x5" },
    { "small_crop17x40", "nat576_444_8bit_x264_crf32", 0, 0, 17, 40, 0, 0, 0, NULL, "3 scales" },
    { "small_crop64x33", "nat576_8bit_x264_crf23", 0, 0, 64, 33, 0, 0, 0, NULL, "4 scales" },
    { "small_crop100x65", "nat576_10bit_x264_crf30", 0, 0, 100, 65, 0, 0, 0, NULL,
      "5 scales, the last 7x5" },
    /* 3840x2160 (BT.709), and clamping: the distorted inverted */
    { "uhd_tile2x2", "nat1080_8bit_x264_crf30", 2, 2, 0, 0, 0, 0, 0, NULL, "3840x2160" },
    { "invert_nat576_444_8bit", "nat576_444_8bit_x264_crf32", 0, 0, 0, 0, 1, 0, 0, NULL,
      "R'G'B' outside [0, 1]" },
    { "invert_nat576_16bit", "nat576_16bit_processed", 0, 0, 0, 0, 1, 0, 0, NULL, "16-bit" },
    { "invert_odd420_crop33x17", "nat576_8bit_x264_crf38", 0, 0, 33, 17, 1, 0, 0, NULL,
      "3 scales" },
    /* depths the corpus has not */
    { "hbd9_nat576_10bit", "nat576_10bit_x264_crf30", 0, 0, 0, 0, 0, 1, 0, NULL, "9-bit" },
    { "hbd14_nat576_16bit", "nat576_16bit_processed", 0, 0, 0, 0, 0, 2, 0, NULL, "14-bit" },
    { "hbd11_gray_nat576_12bit", "nat576_12bit_x265_crf30", 0, 0, 0, 0, 0, 1, 1, NULL,
      "11-bit 4:0:0" },
    /* luma only */
    { "gray12", "nat576_12bit_x265_crf30", 0, 0, 0, 0, 0, 0, 1, NULL, "4:0:0: R = G = B" },
    { "gray16", "nat576_16bit_processed", 0, 0, 0, 0, 0, 0, 1, NULL, "4:0:0 16-bit" },
};

#define SSIMU2_N_CASES (sizeof(ssimu2_cases) / sizeof(ssimu2_cases[0]))

#endif
