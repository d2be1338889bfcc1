/* kernels/side_shallow_c.c - the side view's water near its surface, one row: the scalar rule of the SIMD kernels (see kernels.h). */
#include "kernels/kernels.h"
#include "kernels/side_light.h"

void rpl_side_shallow_c(const rpl_side_shallow_job_t *job, int x0, int x1)
{
    const int D = RPL_SIDE_DEPTHS, y = job->y;
    const uint8_t *caus = job->caus;
    for (int x = x0; x < x1; x++) {
        int d = y - job->ys[x];
        if (d < 5)
            continue;
        uint32_t e = job->te[d < D ? d : D - 1];
        int refr = (int)(e & 2047), ew = (int)(e >> 11 & 511), dk = (int)(e >> 20 & 511);
        int dg = d < 16 ? d + (job->shift[x] * d >> 4) : y - job->gbase[x];
        dg = dg < 0 ? 0 : dg < D ? dg : D - 1;
        unsigned pb = job->tbg[dg] & 0xFFFF, pg = job->tbg[dg] >> 16;
        unsigned pr = job->tr[dg] & 0xFFFF, cw = job->tr[dg] >> 16, inva = job->tia[dg];
        int sx = x + ((job->sfx[x] * refr + job->wob[(x + job->phase) & 255] * ew) >> 16);
        sx = sx < 0 ? 0 : sx >= job->w ? job->w - 1 : sx;
        unsigned light =
            rpl_side_light(caus, job->warpv, x, job->c1x, job->c1y, job->c2x, job->c2y);
        unsigned add = light * cw >> 8;
        unsigned k = 256 - (unsigned)(job->dcol[x] * dk >> 8);
        uint32_t p = job->src[sx];
        unsigned r = ((((p >> 16 & 0xFF) * inva + pr) >> 8) + (add * 200 >> 8)) * k >> 8;
        unsigned g = ((((p >> 8 & 0xFF) * inva + pg) >> 8) + add) * k >> 8;
        unsigned b = ((((p & 0xFF) * inva + pb) >> 8) + (add * 230 >> 8)) * k >> 8;
        job->out[x] = 0xFF000000u | (r > 255 ? 255 : r) << 16 | (g > 255 ? 255 : g) << 8 |
                      (b > 255 ? 255 : b);
    }
}
