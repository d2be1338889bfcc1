/* rpl_refract_rgb565_avx2.c - PLACEHOLDER: to be replaced by the avx2 rgb565 kernel. */
#include "rpl_kernels.h"

void rpl_refract_rgb565_avx2(const rpl_refract_job_t *job, int x0, int x1, int y0, int y1)
{
    rpl_refract_rgb565_c(job, x0, x1, y0, y1);
}
