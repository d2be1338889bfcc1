/* kernels/scalar.h - the scalar rule for one cell and one pixel, shared by every kernel for edges and tails. */
#ifndef RPL_SCALAR_H
#define RPL_SCALAR_H

#include "kernels/kernels.h"

static inline int rpl_clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* The wave rule for the cell at index i (see kernels/step_c.c). */
static inline int16_t rpl_step_cell(const int16_t *cur, const int16_t *prev, ptrdiff_t i, int w)
{
    int n = ((cur[i - 1] + cur[i + 1] + cur[i - w] + cur[i + w]) >> 1) - prev[i];
    n -= n >> 5;
    return (int16_t)rpl_clampi(n, RPL_HEIGHT_MIN, RPL_HEIGHT_MAX);
}

/* The wave model's rule for the cell at index i (see kernels/wave_c.c). */
static inline int16_t rpl_wave_cell(const int16_t *cur, const int16_t *prev, ptrdiff_t i, int w,
                                    const rpl_wave_coef_t *k)
{
    int s = k->a * cur[i] + k->b * prev[i] +
            k->c * (cur[i - 1] + cur[i + 1] + cur[i - w] + cur[i + w]);
    int n = (s + (s > 0 ? k->rp : k->rn)) >> RPL_WAVE_SHIFT;
    n -= (n * k->m) >> 8;
    return (int16_t)rpl_clampi(n, RPL_HEIGHT_MIN, RPL_HEIGHT_MAX);
}

/* Adds d (in [-RPL_SHADE_MAX, RPL_SHADE_MAX]) to R, G and B with
 * saturation; the top byte passes through. */
static inline uint32_t rpl_shade(uint32_t px, int d)
{
    int r = rpl_clampi((int)((px >> 16) & 0xFF) + d, 0, 255);
    int g = rpl_clampi((int)((px >> 8) & 0xFF) + d, 0, 255);
    int b = rpl_clampi((int)(px & 0xFF) + d, 0, 255);
    return (px & 0xFF000000u) | ((uint32_t)r << 16) | ((uint32_t)g << 8) | (uint32_t)b;
}

/* RGB565: each channel gets d in its own width (d >> 3 for the 5-bit
 * ones, d >> 2 for the 6-bit green), clamped to the channel's range. */
static inline uint16_t rpl_shade565(uint16_t px, int d)
{
    int r = rpl_clampi((px >> 11) + (d >> 3), 0, 31);
    int g = rpl_clampi(((px >> 5) & 0x3F) + (d >> 2), 0, 63);
    int b = rpl_clampi((px & 0x1F) + (d >> 3), 0, 31);
    return (uint16_t)(r << 11 | g << 5 | b);
}

/* The light's d for the given height differences. */
static inline int rpl_shade_d(int xoff, int yoff)
{
    return rpl_clampi((-(xoff + yoff)) >> 2, -RPL_SHADE_MAX, RPL_SHADE_MAX);
}

/* INDEX8: the shade table's row for d, as a signed offset from row 0
 * (level q = (d + 2) >> 2, row q + RPL_SHADE_STEPS). */
static inline ptrdiff_t rpl_shade8_row(int d)
{
    return (ptrdiff_t)((d + 2) >> 2) * 256;
}

/* Index of the source texel in the background for pixel (x, y). */
static inline ptrdiff_t rpl_src_index(const rpl_refract_job_t *j, int x, int y, int xoff,
                                      int yoff)
{
    int sx = rpl_clampi(x + ((xoff * j->strength) >> 4), 0, j->w - 1);
    int sy = rpl_clampi(y + ((yoff * j->strength) >> 4), 0, j->hgt - 1);
    return (ptrdiff_t)sy * j->w + sx;
}

/* The refracted pixel at (x, y) for the given height differences. */
static inline uint32_t rpl_texel(const rpl_refract_job_t *j, int x, int y, int xoff, int yoff)
{
    uint32_t px = j->bg[rpl_src_index(j, x, y, xoff, yoff)];
    if (j->shading)
        px = rpl_shade(px, rpl_shade_d(xoff, yoff));
    return px;
}

/* The same into RGB565, from bg16. */
static inline uint16_t rpl_texel565(const rpl_refract_job_t *j, int x, int y, int xoff, int yoff)
{
    uint16_t px = j->bg16[rpl_src_index(j, x, y, xoff, yoff)];
    if (j->shading)
        px = rpl_shade565(px, rpl_shade_d(xoff, yoff));
    return px;
}

/* The same into INDEX8, from bg8 through shade8. */
static inline uint8_t rpl_texel8(const rpl_refract_job_t *j, int x, int y, int xoff, int yoff)
{
    uint8_t px = j->bg8[rpl_src_index(j, x, y, xoff, yoff)];
    if (j->shading)
        px = j->shade8[RPL_SHADE_STEPS * 256 + rpl_shade8_row(rpl_shade_d(xoff, yoff)) + px];
    return px;
}

/* Height with the outside of the field reading as 0 (the wall). */
static inline int rpl_height_at(const rpl_refract_job_t *j, int x, int y)
{
    if (x < 0 || y < 0 || x >= j->w || y >= j->hgt)
        return 0;
    return j->h[(ptrdiff_t)y * j->w + x];
}

/* Any pixel, borders included: the slow, general form. */
static inline uint32_t rpl_refract_px(const rpl_refract_job_t *j, int x, int y)
{
    int xoff = rpl_height_at(j, x - 1, y) - rpl_height_at(j, x + 1, y);
    int yoff = rpl_height_at(j, x, y - 1) - rpl_height_at(j, x, y + 1);
    return rpl_texel(j, x, y, xoff, yoff);
}

static inline uint16_t rpl_refract_px565(const rpl_refract_job_t *j, int x, int y)
{
    int xoff = rpl_height_at(j, x - 1, y) - rpl_height_at(j, x + 1, y);
    int yoff = rpl_height_at(j, x, y - 1) - rpl_height_at(j, x, y + 1);
    return rpl_texel565(j, x, y, xoff, yoff);
}

static inline uint8_t rpl_refract_px8(const rpl_refract_job_t *j, int x, int y)
{
    int xoff = rpl_height_at(j, x - 1, y) - rpl_height_at(j, x + 1, y);
    int yoff = rpl_height_at(j, x, y - 1) - rpl_height_at(j, x, y + 1);
    return rpl_texel8(j, x, y, xoff, yoff);
}

static inline uint32_t *rpl_fb_row(const rpl_refract_job_t *j, int y)
{
    return (uint32_t *)((unsigned char *)j->fb + (ptrdiff_t)y * j->pitch);
}

static inline uint16_t *rpl_fb_row16(const rpl_refract_job_t *j, int y)
{
    return (uint16_t *)((unsigned char *)j->fb + (ptrdiff_t)y * j->pitch);
}

static inline uint8_t *rpl_fb_row8(const rpl_refract_job_t *j, int y)
{
    return (uint8_t *)j->fb + (ptrdiff_t)y * j->pitch;
}

#endif
