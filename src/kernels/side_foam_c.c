/* kernels/side_foam_c.c - the side view's foam along the surface, one row: the scalar rule of the SIMD kernels (see kernels.h). */
#include "kernels/kernels.h"
#include "kernels/side_light.h"

void rpl_side_foam_c(const rpl_side_shallow_job_t *jp, int x0, int x1)
{
    /* a copy the row's stores cannot reach: its fields stay in registers */
    const rpl_side_shallow_job_t copy = *jp, *job = &copy;
    const int D = RPL_SIDE_DEPTHS, y = job->y;
    for (int x = x0; x < x1; x++) {
        unsigned d = (unsigned)(y - job->ys[x]);
        if (d >= 5)
            continue;
        int dg = (int)d + (job->shift[x] * (int)d >> 4);
        dg = dg < 0 ? 0 : dg < D ? dg : D - 1;
        unsigned c[3];
        rpl_side_shade_near(job, x, (int)d, dg, c);
        int f = job->fwq[x] - 256 * (int)d;
        unsigned fa = (unsigned)(f < 0 ? 0 : f > 256 ? 256 : f) * 220 >> 8;
        if (d == 0)
            fa += (256 - fa) * 60 >> 8;
        unsigned s = rpl_side_light(job->light, job->lx, x) >> 3;
        const unsigned t[3] = { 236 + s > 255 ? 255 : 236 + s, 250 + s > 255 ? 255 : 250 + s, 255 };
        uint32_t o = job->src[x], out = 0xFF000000u;
        unsigned cv = d == 0 ? (unsigned)job->cov[x] : 256;
        for (int i = 0; i < 3; i++) {
            unsigned v = c[i] > 255 ? 255 : c[i];
            v = (v * (256 - fa) + t[i] * fa) >> 8;
            v = ((o >> (16 - 8 * i) & 0xFF) * (256 - cv) + v * cv) >> 8;
            out |= v << (16 - 8 * i);
        }
        job->out[x] = out;
    }
}
