/* rpl_refract_c.c - scalar reference of the refraction renderer into XRGB8888. */
#include "rpl_scalar.h"

void rpl_refract_xrgb8888_c(const rpl_refract_job_t *j, int x0, int x1, int y0, int y1)
{
    const int w = j->w;
    for (int y = y0; y < y1; y++) {
        uint32_t *out = rpl_fb_row(j, y);
        if (y == 0 || y == j->hgt - 1) {
            for (int x = x0; x < x1; x++)
                out[x] = rpl_refract_px(j, x, y);
            continue;
        }
        /* interior rows: the border columns take the general form */
        int xa = x0 > 1 ? x0 : 1, xb = x1 < w - 1 ? x1 : w - 1;
        if (x0 == 0 && x1 > 0)
            out[0] = rpl_refract_px(j, 0, y);
        const int16_t *h = j->h + (ptrdiff_t)y * w;
        for (int x = xa; x < xb; x++)
            out[x] = rpl_texel(j, x, y, h[x - 1] - h[x + 1], h[x - w] - h[x + w]);
        if (x1 == w && x0 < w)
            out[w - 1] = rpl_refract_px(j, w - 1, y);
    }
}
