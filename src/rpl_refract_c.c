/* rpl_refract_c.c - scalar reference of the refraction renderer into XRGB8888. */
#include "rpl_kernels.h"

static inline int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Adds d (in [-RPL_SHADE_MAX, RPL_SHADE_MAX]) to R, G and B with
 * saturation; the top byte passes through. */
static inline uint32_t shade(uint32_t px, int d)
{
    int r = clampi((int)((px >> 16) & 0xFF) + d, 0, 255);
    int g = clampi((int)((px >> 8) & 0xFF) + d, 0, 255);
    int b = clampi((int)(px & 0xFF) + d, 0, 255);
    return (px & 0xFF000000u) | ((uint32_t)r << 16) | ((uint32_t)g << 8) | (uint32_t)b;
}

static inline uint32_t texel(const rpl_refract_job_t *j, int x, int y,
                             int xoff, int yoff)
{
    int sx = clampi(x + ((xoff * j->strength) >> 4), 0, j->w - 1);
    int sy = clampi(y + ((yoff * j->strength) >> 4), 0, j->hgt - 1);
    uint32_t px = j->bg[(ptrdiff_t)sy * j->w + sx];
    if (j->shading)
        px = shade(px, clampi((-(xoff + yoff)) >> 2, -RPL_SHADE_MAX, RPL_SHADE_MAX));
    return px;
}

/* Height with the outside of the field reading as 0 (the wall). */
static inline int height_at(const rpl_refract_job_t *j, int x, int y)
{
    if (x < 0 || y < 0 || x >= j->w || y >= j->hgt)
        return 0;
    return j->h[(ptrdiff_t)y * j->w + x];
}

void rpl_refract_xrgb8888_c(const rpl_refract_job_t *j, int y0, int y1)
{
    const int w = j->w;
    for (int y = y0; y < y1; y++) {
        uint32_t *out = (uint32_t *)((unsigned char *)j->fb + (ptrdiff_t)y * j->pitch);
        if (y == 0 || y == j->hgt - 1 || w < 3) {
            for (int x = 0; x < w; x++) {
                int xoff = height_at(j, x - 1, y) - height_at(j, x + 1, y);
                int yoff = height_at(j, x, y - 1) - height_at(j, x, y + 1);
                out[x] = texel(j, x, y, xoff, yoff);
            }
            continue;
        }
        const int16_t *h = j->h + (ptrdiff_t)y * w;
        out[0] = texel(j, 0, y, -h[1], h[-w] - h[w]);
        for (int x = 1; x < w - 1; x++)
            out[x] = texel(j, x, y, h[x - 1] - h[x + 1], h[x - w] - h[x + w]);
        out[w - 1] = texel(j, w - 1, y, h[w - 2], h[w - 1 - w] - h[w - 1 + w]);
    }
}
