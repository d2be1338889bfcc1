/* rpl_refract_index8_sse2.c - PLACEHOLDER: to be replaced by the sse2 index8 kernel. */
#include "rpl_kernels.h"

void rpl_refract_index8_sse2(const rpl_refract_job_t *job, int x0, int x1, int y0, int y1)
{
    rpl_refract_index8_c(job, x0, x1, y0, y1);
}
