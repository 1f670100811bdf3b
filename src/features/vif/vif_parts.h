/*
 * The parts of the integer VIF statistic, as the SIMD kernels split it for many encodes
 * against one reference (vif_kernels.h: VifStatRefFn, VifStatDisFn): the quantities each vertical
 * pass filters. Shared by the SIMD template (vif_simd_tmpl.h); the functions are constants of
 * their arguments, so that the kernels' loops over quantities unroll.
 */
#ifndef EV_FEATURES_VIF_PARTS_H
#define EV_FEATURES_VIF_PARTS_H

/* All the quantities (one pair of pictures), the reference's alone (its mean and x^2), or
 * the rest (y, y^2, xy). */
enum { PART_ALL, PART_REF, PART_DIS };

/* Of a row's quantities in a pass's order (u8 pass 0: x, y; pass 1: x^2, y^2, xy; u16 pass 0:
 * x, y; passes 1, 2, 3: the low and high halves of x^2, y^2, xy), how many part filters */
static inline __attribute__((always_inline)) int vif_part_count(const int u16, const int pass,
                                                                const int part)
{
    if (u16 && pass)
        return 2;
    if (part == PART_ALL)
        return pass ? 3 : 2;
    return part == PART_REF || !pass ? 1 : 2;
}

/* The index of the first of them (x = 0, y = 1; x^2 = 0, y^2 = 1, xy = 2). */
static inline __attribute__((always_inline)) int vif_part_first(const int u16, const int pass,
                                                                const int part)
{
    return part == PART_DIS && (!u16 || pass == 0) ? 1 : 0;
}

#endif
