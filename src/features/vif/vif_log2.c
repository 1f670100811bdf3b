/* The integer VIF log2 table, from glibc's log2f (see vif_log2.h). */
#include <math.h>

#include "features/vif/vif_log2.h"

void vif_log2_table_build(uint16_t table[VIF_LOG2_TABLE_SIZE])
{
    for (unsigned i = 0; i < VIF_LOG2_TABLE_SIZE; i++) {
        const float l = log2f((float)(VIF_LOG2_TABLE_MIN + i)) * 2048;
        table[i] = (uint16_t)round(l);
    }
}
