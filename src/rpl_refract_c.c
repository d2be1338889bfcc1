/* rpl_refract_c.c - scalar refraction renderers: the reference into XRGB8888, and the kernels
 * that write RGB565 and 8-bit indexed pixels natively (every path uses these two for now). */
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

/*
 * The 16- and 8-bit kernels work on a private copy of the job: the
 * framebuffer stores (uint8_t ones above all, which may alias anything)
 * then cannot force the job's fields to be reloaded for every pixel.  The
 * interior of a row is written twice, with shading fixed on and off, so
 * neither copy tests it per pixel.
 */

/* Pixels x in [xa, xb) of interior row y (1 <= xa, xb <= w - 1). */
static inline void row565(const rpl_refract_job_t *j, uint16_t *out, int y, int xa, int xb,
                          const int shading)
{
    const int w = j->w;
    const int16_t *h = j->h + (ptrdiff_t)y * w;
    const uint16_t *bg = j->bg16;
    for (int x = xa; x < xb; x++) {
        int xoff = h[x - 1] - h[x + 1], yoff = h[x - w] - h[x + w];
        uint16_t px = bg[rpl_src_index(j, x, y, xoff, yoff)];
        out[x] = shading ? rpl_shade565(px, rpl_shade_d(xoff, yoff)) : px;
    }
}

void rpl_refract_rgb565_c(const rpl_refract_job_t *job, int x0, int x1, int y0, int y1)
{
    const rpl_refract_job_t copy = *job, *j = &copy;
    const int w = j->w;
    for (int y = y0; y < y1; y++) {
        uint16_t *out = rpl_fb_row16(j, y);
        if (y == 0 || y == j->hgt - 1) {
            for (int x = x0; x < x1; x++)
                out[x] = rpl_refract_px565(j, x, y);
            continue;
        }
        int xa = x0 > 1 ? x0 : 1, xb = x1 < w - 1 ? x1 : w - 1;
        if (x0 == 0 && x1 > 0)
            out[0] = rpl_refract_px565(j, 0, y);
        if (j->shading)
            row565(j, out, y, xa, xb, 1);
        else
            row565(j, out, y, xa, xb, 0);
        if (x1 == w && x0 < w)
            out[w - 1] = rpl_refract_px565(j, w - 1, y);
    }
}

static inline void row8(const rpl_refract_job_t *j, uint8_t *out, int y, int xa, int xb,
                        const int shading)
{
    const int w = j->w;
    const int16_t *h = j->h + (ptrdiff_t)y * w;
    const uint8_t *bg = j->bg8;
    const uint8_t *level0 = shading ? j->shade8 + RPL_SHADE_STEPS * 256 : NULL;
    for (int x = xa; x < xb; x++) {
        int xoff = h[x - 1] - h[x + 1], yoff = h[x - w] - h[x + w];
        uint8_t px = bg[rpl_src_index(j, x, y, xoff, yoff)];
        out[x] = shading ? level0[rpl_shade8_row(rpl_shade_d(xoff, yoff)) + px] : px;
    }
}

void rpl_refract_index8_c(const rpl_refract_job_t *job, int x0, int x1, int y0, int y1)
{
    const rpl_refract_job_t copy = *job, *j = &copy;
    const int w = j->w;
    for (int y = y0; y < y1; y++) {
        uint8_t *out = rpl_fb_row8(j, y);
        if (y == 0 || y == j->hgt - 1) {
            for (int x = x0; x < x1; x++)
                out[x] = rpl_refract_px8(j, x, y);
            continue;
        }
        int xa = x0 > 1 ? x0 : 1, xb = x1 < w - 1 ? x1 : w - 1;
        if (x0 == 0 && x1 > 0)
            out[0] = rpl_refract_px8(j, 0, y);
        if (j->shading)
            row8(j, out, y, xa, xb, 1);
        else
            row8(j, out, y, xa, xb, 0);
        if (x1 == w && x0 < w)
            out[w - 1] = rpl_refract_px8(j, w - 1, y);
    }
}
