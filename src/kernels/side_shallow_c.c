/* kernels/side_shallow_c.c - the side view's water near its surface, one row: the scalar rule of the SIMD kernels (see kernels.h). */
#include "kernels/kernels.h"
#include "kernels/side_light.h"

void rpl_side_shallow_c(const rpl_side_shallow_job_t *jp, int x0, int x1)
{
    /* a copy the row's stores cannot reach: its fields stay in registers */
    const rpl_side_shallow_job_t copy = *jp, *job = &copy;
    const int D = RPL_SIDE_DEPTHS, y = job->y;
    for (int x = x0; x < x1; x++) {
        int d = y - job->ys[x];
        if (d < 5)
            continue;
        int dg = d < 16 ? d + (job->shift[x] * d >> 4) : y - job->gbase[x];
        dg = dg < 0 ? 0 : dg < D ? dg : D - 1;
        unsigned c[3];
        rpl_side_shade_near(job, x, d, dg, c);
        job->out[x] = 0xFF000000u | (c[0] > 255 ? 255 : c[0]) << 16 |
                      (c[1] > 255 ? 255 : c[1]) << 8 | (c[2] > 255 ? 255 : c[2]);
    }
}
