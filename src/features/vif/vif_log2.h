/* The integer VIF log2 table (libvmaf integer_vif.c log_generate), built on the host from
 * glibc's log2f: the one libm-derived input of integer VIF. A CUDA twin uploads this table. */
#ifndef EV_FEATURES_VIF_LOG2_H
#define EV_FEATURES_VIF_LOG2_H

#include <stdint.h>

#include "features/vif/vif_math.h"

/* table[i] = round(log2f(32768 + i) x 2048) for i < VIF_LOG2_TABLE_SIZE (float log2f, float
 * product, round() on the widened value, as the reference). */
void vif_log2_table_build(uint16_t table[VIF_LOG2_TABLE_SIZE]);

#endif
