/* kernels/refract_c.c - scalar refraction renderers: the reference into XRGB8888, and the kernels
 * that write RGB565 and 8-bit indexed pixels natively. */
#include <string.h>

#include "kernels/scalar.h"

/*
 * The border pixels (first and last row and column) read heights outside
 * the field and take the general form, rpl_refract_px*.  The interior of a
 * row is the hot loop, written once per format as a static inline row
 * function with two constant flags so that its branches fold:
 *
 *   one      strength is RPL_STRENGTH_ONE: (off * 16) >> 4 is off itself,
 *            so no multiply;
 *   shading  the light is on.
 *
 * and the fast forms it uses, each exactly the formula of ripple.h:
 *
 *   - level water, xoff == 0 && yoff == 0: the source is (x, y) itself and
 *     d = 0, which leaves an XRGB8888 or RGB565 texel unchanged (INDEX8
 *     still goes through the shade table's row 0, whatever it holds);
 *   - a source inside the field needs no clamp: it is texel
 *     x + dx + dy * w of the background's row y.  One unsigned compare per
 *     coordinate tells inside from outside; outside (rare), the source
 *     is clamped to the field as rpl_src_index does (src_clamped);
 *   - after a level pixel, the run of level pixels that follows is copied
 *     two at a time by a function of its own, the heights of each pair
 *     compared as 32-bit words (level2).
 *
 * The rare and the long-running cases are functions of their own, called
 * from the row loop, not inlined into it: what the loop keeps in
 * registers is then the same with them or without, which matters on
 * 32-bit x86 and its seven registers.
 *
 * The kernels work on a private copy of the job and hoist its fields into
 * locals: the framebuffer stores (uint8_t ones above all, which may alias
 * anything) then cannot force them to be reloaded for every pixel.
 */

/* The row functions must be inlined into each caller, with their flags
 * constant, for the branches to fold. */
#if defined(__GNUC__)
#define ROW_FN static inline __attribute__((always_inline)) void
#define OUTLINE __attribute__((noinline))
#else
#define ROW_FN static inline void
#define OUTLINE
#endif

/* The index of the source texel (sx, sy) = (x + dx, y + dy) clamped to the
 * field, as rpl_src_index gives it, for sources outside the field. */
static OUTLINE ptrdiff_t src_clamped(const rpl_refract_job_t *j, int sx, int sy)
{
    return (ptrdiff_t)rpl_clampi(sy, 0, j->hgt - 1) * j->w + rpl_clampi(sx, 0, j->w - 1);
}

/* Whether pixels x and x + 1 of row h (hu above, hd below) both see level
 * water: h[x - 1] == h[x + 1], h[x] == h[x + 2], hu[x] == hd[x] and
 * hu[x + 1] == hd[x + 1], compared as pairs of heights in 32-bit words,
 * the row's first (two tests need a register less than one test of both). */
static inline int level2(const int16_t *h, const int16_t *hu, const int16_t *hd, int x)
{
    uint32_t a, b;
    memcpy(&a, h + x - 1, sizeof a);
    memcpy(&b, h + x + 1, sizeof b);
    if (a != b)
        return 0;
    memcpy(&a, hu + x, sizeof a);
    memcpy(&b, hd + x, sizeof b);
    return a == b;
}

/* A run of level water from x, whose pixel is level, to at most xb:
 * pixel x, then pairs while level2 holds; returns where the run ends.
 * Each level pixel i shows LEVEL(i). */
#define RPL_LEVEL_RUN_FN(name, params)                                             \
    static OUTLINE int name params                                                 \
    {                                                                              \
        LEVEL(x);                                                                  \
        for (x++; x + 2 <= xb && level2(h, hu, hd, x); x += 2) {                   \
            LEVEL(x);                                                              \
            LEVEL(x + 1);                                                          \
        }                                                                          \
        return x;                                                                  \
    }

#define LEVEL(i) (out[i] = bgrow[i])
RPL_LEVEL_RUN_FN(level_run8888, (const int16_t *h, const int16_t *hu, const int16_t *hd,
                                 uint32_t *restrict out, const uint32_t *bgrow, int x, int xb))
RPL_LEVEL_RUN_FN(level_run565, (const int16_t *h, const int16_t *hu, const int16_t *hd,
                                uint16_t *restrict out, const uint16_t *bgrow, int x, int xb))
RPL_LEVEL_RUN_FN(level_run8, (const int16_t *h, const int16_t *hu, const int16_t *hd,
                              uint8_t *restrict out, const uint8_t *bgrow, int x, int xb))
#undef LEVEL
/* INDEX8 with the light: through the shade table's row 0 */
#define LEVEL(i) (out[i] = level0[bgrow[i]])
RPL_LEVEL_RUN_FN(level_run8_lit, (const int16_t *h, const int16_t *hu, const int16_t *hd,
                                  uint8_t *restrict out, const uint8_t *bgrow, int x, int xb,
                                  const uint8_t *level0))
#undef LEVEL
#undef RPL_LEVEL_RUN_FN

/* Locals shared by the three row functions: the field's size and limit,
 * the three height rows around row y, the background, its row y and the
 * row table from row y. */
#define RPL_ROW_PRELUDE(bgfield, type)                                             \
    const int w = j->w, s = j->strength;                                           \
    const unsigned xmax = (unsigned)(w - 1);                                       \
    const int16_t *h = j->h + (ptrdiff_t)y * w;                                    \
    const int16_t *hu = h - w, *hd = h + w;                                        \
    const type *bg = j->bgfield;                                                   \
    const type *bgrow = bg + (ptrdiff_t)y * w;                                     \
    const int32_t *rows = j->rows + y

/* Source texel for the pixel at x of row y with offsets (xoff, yoff), not
 * both 0.  Shared by the three row functions (their bg and bgrow differ). */
#define RPL_SOURCE_TEXEL(px, one)                                                  \
    do {                                                                           \
        int dx = (one) ? xoff : (xoff * s) >> 4;                                   \
        int dy = (one) ? yoff : (yoff * s) >> 4;                                   \
        if ((unsigned)(x + dx) <= xmax && ((one) || (unsigned)(dy + RPL_ROW_PAD) <= 2 * RPL_ROW_PAD)) \
            px = bg[rows[dy] + x + dx];                                            \
        else                                                                       \
            px = bg[src_clamped(j, x + dx, y + dy)];                               \
    } while (0)

/* XRGB8888: pixels x in [xa, xb) of interior row y (1 <= xa, xb <= w - 1). */
ROW_FN row8888(const rpl_refract_job_t *j, uint32_t *restrict out, int y, int xa,
                           int xb, const int one, const int shading)
{
    RPL_ROW_PRELUDE(bg, uint32_t);
    for (int x = xa; x < xb;) {
        int xoff = h[x - 1] - h[x + 1], yoff = hu[x] - hd[x];
        uint32_t px;
        if ((xoff | yoff) == 0) {
            x = level_run8888(h, hu, hd, out, bgrow, x, xb);
            continue;
        }
        RPL_SOURCE_TEXEL(px, one);
        out[x] = shading ? rpl_shade(px, rpl_shade_d(xoff, yoff)) : px;
        x++;
    }
}

/* RGB565, the same from bg16. */
ROW_FN row565(const rpl_refract_job_t *j, uint16_t *restrict out, int y, int xa,
                          int xb, const int one, const int shading)
{
    RPL_ROW_PRELUDE(bg16, uint16_t);
    for (int x = xa; x < xb;) {
        int xoff = h[x - 1] - h[x + 1], yoff = hu[x] - hd[x];
        uint16_t px;
        if ((xoff | yoff) == 0) {
            x = level_run565(h, hu, hd, out, bgrow, x, xb);
            continue;
        }
        RPL_SOURCE_TEXEL(px, one);
        out[x] = shading ? rpl_shade565(px, rpl_shade_d(xoff, yoff)) : px;
        x++;
    }
}

/* INDEX8, the same from bg8 through shade8's rows. */
ROW_FN row8(const rpl_refract_job_t *j, uint8_t *restrict out, int y, int xa,
                        int xb, const int one, const int shading)
{
    RPL_ROW_PRELUDE(bg8, uint8_t);
    const uint8_t *level0 = shading ? j->shade8 + RPL_SHADE_STEPS * 256 : NULL;
    for (int x = xa; x < xb;) {
        int xoff = h[x - 1] - h[x + 1], yoff = hu[x] - hd[x];
        uint8_t px;
        if ((xoff | yoff) == 0) {
            x = shading ? level_run8_lit(h, hu, hd, out, bgrow, x, xb, level0)
                        : level_run8(h, hu, hd, out, bgrow, x, xb);
            continue;
        }
        RPL_SOURCE_TEXEL(px, one);
        out[x] = shading ? level0[rpl_shade8_row(rpl_shade_d(xoff, yoff)) + px] : px;
        x++;
    }
}

#undef RPL_ROW_PRELUDE
#undef RPL_SOURCE_TEXEL
#undef ROW_FN

/* The interior of row y, x in [xa, xb), through the instance of ROW for
 * the job's strength class and shading. */
#define RPL_ROW_DISPATCH(ROW, j, out, y, xa, xb)                                   \
    do {                                                                           \
        int one_ = (j)->strength == RPL_STRENGTH_ONE;                              \
        if (one_ && !(j)->shading)                                                 \
            ROW(j, out, y, xa, xb, 1, 0);                                          \
        else if (one_)                                                             \
            ROW(j, out, y, xa, xb, 1, 1);                                          \
        else if (!(j)->shading)                                                    \
            ROW(j, out, y, xa, xb, 0, 0);                                          \
        else                                                                       \
            ROW(j, out, y, xa, xb, 0, 1);                                          \
    } while (0)

const int32_t *rpl_refract_rows(int32_t *t, int w, int hgt)
{
    for (ptrdiff_t k = -RPL_ROW_PAD; k < (ptrdiff_t)hgt + RPL_ROW_PAD; k++)
        t[k + RPL_ROW_PAD] = (int32_t)rpl_clampi((int)k, 0, hgt - 1) * w;
    return t + RPL_ROW_PAD;
}

void rpl_refract_xrgb8888_c(const rpl_refract_job_t *job, int x0, int x1, int y0, int y1)
{
    const rpl_refract_job_t copy = *job, *j = &copy;
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
        RPL_ROW_DISPATCH(row8888, j, out, y, xa, xb);
        if (x1 == w && x0 < w)
            out[w - 1] = rpl_refract_px(j, w - 1, y);
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
        RPL_ROW_DISPATCH(row565, j, out, y, xa, xb);
        if (x1 == w && x0 < w)
            out[w - 1] = rpl_refract_px565(j, w - 1, y);
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
        RPL_ROW_DISPATCH(row8, j, out, y, xa, xb);
        if (x1 == w && x0 < w)
            out[w - 1] = rpl_refract_px8(j, w - 1, y);
    }
}
