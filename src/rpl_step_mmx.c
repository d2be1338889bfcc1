/* rpl_step_mmx.c - PLACEHOLDER: to be replaced by the MMX kernel. */
#include "rpl_kernels.h"

int rpl_step_mmx(int16_t *prev, const int16_t *cur, int w, int x0, int x1, int y0, int y1)
{
    return rpl_step_c(prev, cur, w, x0, x1, y0, y1);
}
