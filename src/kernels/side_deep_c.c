/* kernels/side_deep_c.c - the side view's deep water, one row: the scalar rule of the SIMD kernels (see kernels.h). */
#include "kernels/kernels.h"
#include "kernels/side_light.h"

void rpl_side_deep_c(const rpl_side_deep_job_t *job, int x0, int x1)
{
    const uint32_t *src = job->src;
    const unsigned inva = (unsigned)job->inva, cw = (unsigned)job->cw;
    const unsigned pr = (unsigned)job->pr, pg = (unsigned)job->pg, pb = (unsigned)job->pb;
    for (int x = x0; x < x1; x++) {
        int sx = x + ((job->rd[x] + job->wob[(x + job->phase) & 255]) >> 16);
        unsigned add = rpl_side_light(job->light, job->lx, x) * cw >> 8;
        uint32_t p = src[sx];
        unsigned r = (((p >> 16 & 0xFF) * inva + pr) >> 8) + (add * 200 >> 8);
        unsigned g = (((p >> 8 & 0xFF) * inva + pg) >> 8) + add;
        unsigned b = (((p & 0xFF) * inva + pb) >> 8) + (add * 230 >> 8);
        job->out[x] = 0xFF000000u | (r > 255 ? 255 : r) << 16 | (g > 255 ? 255 : g) << 8 |
                      (b > 255 ? 255 : b);
    }
}
