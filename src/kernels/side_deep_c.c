/* kernels/side_deep_c.c - the side view's deep water, one row: the scalar rule of the SIMD kernels (see kernels.h). */
#include "kernels/kernels.h"
#include "kernels/side_light.h"

/*
 * Red and blue are worked out together in one 32-bit integer, red in its
 * high half, blue in its low: the callers' bounds (255 * inva + p <=
 * 65535) keep each half's blend under 65536, so nothing carries from one
 * into the other, and the light added (at most 191) keeps each under 512,
 * so its bit 8 says whether it passed 255.  The same values as channel by
 * channel.  The job's fields are read once: a store to the row could
 * otherwise be one to them, for all the compiler knows.
 */
void rpl_side_deep_c(const rpl_side_deep_job_t *job, int x0, int x1)
{
    const uint32_t *src = job->src;
    uint32_t *out = job->out;
    const int32_t *rd = job->rd, *wob = job->wob;
    const uint8_t *light = job->light;
    const int phase = job->phase, lx = job->lx;
    const uint32_t inva = (uint32_t)job->inva, cw = (uint32_t)job->cw, pg = (uint32_t)job->pg;
    const uint32_t prb = (uint32_t)job->pr << 16 | (uint32_t)job->pb;
    for (int x = x0; x < x1; x++) {
        int sx = x + ((rd[x] + wob[(x + phase) & 255]) >> 16);
        uint32_t add = rpl_side_light(light, lx, x) * cw >> 8;
        uint32_t p = src[sx];
        uint32_t rb = ((p & 0x00FF00FFu) * inva + prb) >> 8 & 0x00FF00FFu;
        rb += (add * 200 >> 8) << 16 | (add * 230 >> 8);
        uint32_t over = rb & 0x01000100u;
        rb = (rb | (over - (over >> 8))) & 0x00FF00FFu;
        uint32_t g = (((p >> 8 & 0xFF) * inva + pg) >> 8) + add;
        out[x] = 0xFF000000u | rb | (g > 255 ? 255 : g) << 8;
    }
}
