/* kernels/side_drop_c.c - the side view's droplets, one row of one: the scalar rule of the SIMD kernels (see kernels.h). */
#include <math.h>

#include "kernels/kernels.h"
#include "kernels/sqrt_x87.h"

static inline double clamp01(double v)
{
    return v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
}

void rpl_side_drop_c(const rpl_side_drop_job_t *job, int x0, int x1)
{
    const double cx = job->cx, dy = job->dy, rad = job->rad;
    const int alpha = job->alpha;
    uint32_t *row = job->row;
    for (int x = x0; x < x1; x++) {
        double dx = x + 0.5 - cx;
        double dist = rpl_sqrt(dx * dx + dy * dy);
        double cv = clamp01(rad + 0.5 - dist);
        if (cv <= 0)
            continue;
        /* light from the top left: a white highlight, a blue rim */
        double hl = clamp01(1.0 - rpl_sqrt((dx + rad * 0.35) * (dx + rad * 0.35) +
                                       (dy + rad * 0.35) * (dy + rad * 0.35)) / rad);
        int cr = (int)(150 + 105 * hl), cg = (int)(214 + 41 * hl), cb = 255;
        int a = (int)(alpha * cv);
        uint32_t o = row[x];
        int r = (int)(o >> 16 & 0xFF), g = (int)(o >> 8 & 0xFF), b = (int)(o & 0xFF);
        /* a blend of two channel values (0 <= a <= 235): stays in 0..255 */
        r += (cr - r) * a >> 8;
        g += (cg - g) * a >> 8;
        b += (cb - b) * a >> 8;
        row[x] = 0xFF000000u | (uint32_t)r << 16 | (uint32_t)g << 8 | (uint32_t)b;
    }
}
