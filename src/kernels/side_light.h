/* kernels/side_light.h - the side view's scalar kernels' shared rule: a pixel of water near the surface (kernels.h). */
#ifndef RPL_SIDE_LIGHT_H
#define RPL_SIDE_LIGHT_H

#include <stdint.h>

#include "kernels/kernels.h"

/* The caustics' light at column x: 0..255. */
static inline unsigned rpl_side_light(const uint8_t *light, int lx, int x)
{
    return light[(unsigned)(x + lx) & 255];
}

/* Pixel x at depth d >= 0 under its surface, shaded as the shallow water's
 * rule says, each channel before its clamp to 255 (rgb[0] red); dg is the
 * gradient's depth, already clamped. */
static inline void rpl_side_shade_near(const rpl_side_shallow_job_t *job, int x, int d, int dg,
                                       unsigned rgb[3])
{
    const int D = RPL_SIDE_DEPTHS;
    uint32_t e = job->te[d < D ? d : D - 1];
    int refr = (int)(e & 2047), ew = (int)(e >> 11 & 511), dk = (int)(e >> 20 & 511);
    unsigned pb = job->tbg[dg] & 0xFFFF, pg = job->tbg[dg] >> 16;
    unsigned pr = job->tr[dg] & 0xFFFF, cw = job->tr[dg] >> 16, inva = job->tia[dg];
    int sx = x + ((job->sfx[x] * refr + job->wob[(x + job->phase) & 255] * ew) >> 16);
    sx = sx < 0 ? 0 : sx >= job->w ? job->w - 1 : sx;
    unsigned add = rpl_side_light(job->light, job->lx, x) * cw >> 8;
    unsigned k = 256 - (unsigned)(job->dcol[x] * dk >> 8);
    uint32_t p = job->src[sx];
    rgb[0] = ((((p >> 16 & 0xFF) * inva + pr) >> 8) + (add * 200 >> 8)) * k >> 8;
    rgb[1] = ((((p >> 8 & 0xFF) * inva + pg) >> 8) + add) * k >> 8;
    rgb[2] = ((((p & 0xFF) * inva + pb) >> 8) + (add * 230 >> 8)) * k >> 8;
}

#endif
