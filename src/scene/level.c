/* scene/level.c - the side scene's level: where the stone and the basins are at any size, and its picture (sky, stone blocks, grass). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scene/internal.h"

/*
 * The layout, in fractions of the screen so that every size shows the
 * same level: a raised ledge on the left holding a small basin, a step
 * down, a big pool across the lower middle and right, a pillar at the
 * right edge.  Everything under those tops is stone.
 *
 *   ledge   x 0 .. 0.32, top 0.40    small basin x 0.06 .. 0.26, floor 0.56
 *   step    x 0.32 .. 0.42, top 0.64
 *   pool    x 0.42 .. 0.95, floor 0.92 (its left wall is the step)
 *   pillar  x 0.95 .. 1, top 0.58
 */
static int at(double f, int size)
{
    return (int)lround(f * size);
}

static void add_rect(side_level_t *lv, int x0, int y0, int x1, int y1, int grass)
{
    if (lv->nrects >= SIDE_RECTS_MAX || x1 <= x0 || y1 <= y0)
        return;
    lv->rect[lv->nrects++] = (side_rect_t){ x0, y0, x1, y1, grass };
}

void side_level_layout(side_level_t *lv, int w, int h)
{
    memset(lv, 0, sizeof *lv);
    int ledge = at(0.40, h), step = at(0.64, h), pillar = at(0.58, h);
    int bx0 = at(0.06, w), bx1 = at(0.26, w), bfloor = at(0.56, h);
    int lx1 = at(0.32, w), px0 = at(0.42, w), px1 = at(0.95, w), pfloor = at(0.92, h);

    add_rect(lv, 0, ledge, bx0, h, 1);          /* the ledge left of the small basin */
    add_rect(lv, bx0, bfloor, bx1, h, 0);       /* under the small basin */
    add_rect(lv, bx1, ledge, lx1, h, 1);        /* the ledge right of it */
    add_rect(lv, lx1, step, px0, h, 1);         /* the step down to the pool */
    add_rect(lv, px0, pfloor, px1, h, 0);       /* under the pool */
    add_rect(lv, px1, pillar, w, h, 1);         /* the pillar */

    /* water a little below each rim */
    lv->basin[0] = (side_basin_t){ px0, px1, step, pfloor, step + 0.05 * h };
    lv->basin[1] = (side_basin_t){ bx0, bx1, ledge, bfloor, ledge + 0.04 * h };
    lv->nbasins = 2;
}

int side_level_solid(const side_level_t *lv, double x, double y)
{
    for (int i = 0; i < lv->nrects; i++) {
        const side_rect_t *r = &lv->rect[i];
        if (x >= r->x0 && x < r->x1 && y >= r->y0 && y < r->y1)
            return 1;
    }
    return 0;
}

/* ---- colours -------------------------------------------------------------- */

static uint32_t rgb(int r, int g, int b)
{
    r = r < 0 ? 0 : r > 255 ? 255 : r;
    g = g < 0 ? 0 : g > 255 ? 255 : g;
    b = b < 0 ? 0 : b > 255 ? 255 : b;
    return 0xFF000000u | (uint32_t)r << 16 | (uint32_t)g << 8 | (uint32_t)b;
}

static int ch(uint32_t c, int shift)
{
    return (int)(c >> shift & 0xFF);
}

/* n / d (d > 0) rounded half away from zero, as lround does: in integers,
 * so that every machine gets the same art.  In doubles, an x87 (i386)
 * keeps the product d * t in 80 bits where SSE2 rounds it to 64, and a
 * channel exactly half way rounded differently. */
static int64_t round_div(int64_t n, int64_t d)
{
    return n >= 0 ? (2 * n + d) / (2 * d) : -((2 * -n + d) / (2 * d));
}

/* a + (b - a) t per channel, t = num / den exactly (den > 0). */
static uint32_t mix_q(uint32_t a, uint32_t b, int64_t num, int64_t den)
{
    return rgb(ch(a, 16) + (int)round_div((ch(b, 16) - ch(a, 16)) * num, den),
               ch(a, 8) + (int)round_div((ch(b, 8) - ch(a, 8)) * num, den),
               ch(a, 0) + (int)round_div((ch(b, 0) - ch(a, 0)) * num, den));
}

/* The scene's unit, min(w / 640, h / 480), as the fraction *num / *den. */
static void unit_q(int w, int h, int64_t *num, int64_t *den)
{
    if ((int64_t)w * 480 <= (int64_t)h * 640)
        *num = w, *den = 640;
    else
        *num = h, *den = 480;
}

static uint32_t add(uint32_t c, int d)
{
    return rgb(ch(c, 16) + d, ch(c, 8) + d, ch(c, 0) + d);
}

/* A hash of two integers and a seed, for the stone's grain and tints. */
static uint32_t hash3(int x, int y, uint32_t seed)
{
    uint32_t v = (uint32_t)x * 0x9E3779B1u ^ (uint32_t)y * 0x85EBCA77u ^ seed * 0xC2B2AE3Du;
    v ^= v >> 15;
    v *= 0x2C1B3C6Du;
    v ^= v >> 12;
    v *= 0x297A2D39u;
    v ^= v >> 15;
    return v;
}

/* ---- the sky ------------------------------------------------------------- */

/* Fixed point for the sky's positions: 1/256 of a pixel. */
#define SKY_F 256

/* An integer in [lo, hi) from the scene's generator (one draw, as
 * side_uniform takes). */
static int64_t rand_in(uint64_t *rs, int64_t lo, int64_t hi)
{
    return lo + (int64_t)((side_rand(rs) >> 32) * (uint64_t)(hi - lo) >> 32);
}

/* sin(2 pi a / 65536) in Q14: the quarter wave by its odd polynomial to
 * x^7 (within 2e-4), in integers like the rest of the art. */
static int64_t sin_q14(uint32_t a)
{
    a &= 0xFFFF;
    int64_t f = a & 0x3FFF;
    if (a & 0x4000)
        f = 0x4000 - f;
    int64_t x2 = f * f >> 14, p = 77;
    p = 1306 - (x2 * p >> 14);
    p = 10583 - (x2 * p >> 14);
    p = 25736 - (x2 * p >> 14);
    int64_t v = f * p >> 14;
    return a & 0x8000 ? -v : v;
}

/* A gradient from deep blue to a pale horizon, a few soft clouds and
 * far hills, when no picture is given.  In integers (see round_div). */
static void paint_sky(uint32_t *art, int w, int h, uint64_t seed)
{
    const uint32_t top = rgb(38, 84, 150), horizon = rgb(188, 218, 238);
    for (int y = 0; y < h; y++) {
        /* t = min(1, y / 0.62 h), eased as t^2 (3 - 2t), in Q16 */
        int64_t d = 62 * (int64_t)h, n = 100 * (int64_t)y < d ? 100 * (int64_t)y : d;
        int64_t t = (n << 16) / d, e = (t * t >> 16) * (3 * 65536 - 2 * t) >> 16;
        uint32_t c = mix_q(top, horizon, e, 65536);
        for (int x = 0; x < w; x++)
            art[(size_t)y * w + x] = c;
    }
    /* clouds: clusters of soft discs, brighter at their tops */
    uint64_t rs = seed ^ 0xC10D5ull;
    int64_t un, ud;
    unit_q(w, h, &un, &ud);
    for (int c = 0; c < 5; c++) {
        int64_t cx = rand_in(&rs, 0, (int64_t)w * SKY_F);
        int64_t cy = rand_in(&rs, 6 * (int64_t)h * SKY_F / 100, 30 * (int64_t)h * SKY_F / 100);
        int64_t sz = rand_in(&rs, 22 * SKY_F, 40 * SKY_F) * un / ud;
        for (int k = 0; k < 6; k++) {
            int64_t px = cx + rand_in(&rs, -2200, 2200) * sz / 1000;
            int64_t py = cy + rand_in(&rs, -500, 300) * sz / 1000;
            int64_t r = sz * rand_in(&rs, 700, 1300) / 1000;
            if (r < 1)
                continue;
            int64_t r2 = r * r;
            int y0 = py - r > 0 ? (int)((py - r) / SKY_F) : 0, y1 = (int)((py + r) / SKY_F);
            int x0 = px - r > 0 ? (int)((px - r) / SKY_F) : 0, x1 = (int)((px + r) / SKY_F);
            y1 = y1 < h - 1 ? y1 : h - 1;
            x1 = x1 < w - 1 ? x1 : w - 1;
            for (int y = y0; y <= y1; y++)
                for (int x = x0; x <= x1; x++) {
                    int64_t dx = (int64_t)x * SKY_F + SKY_F / 2 - px, dy = (int64_t)y * SKY_F + SKY_F / 2 - py;
                    int64_t d2 = dx * dx + dy * dy;
                    if (d2 >= r2)
                        continue;
                    /* alpha 0.85 (1 - d^2 / r^2)^2, in Q16 */
                    int64_t q = ((r2 - d2) << 16) / r2, alpha = 85 * (q * q >> 16) / 100;
                    int lo = dy > 0 ? (int)(30 * dy / r) : 0, lg = dy > 0 ? (int)(24 * dy / r) : 0,
                        lb = dy > 0 ? (int)(12 * dy / r) : 0;
                    uint32_t white = rgb(250 - lo, 250 - lg, 255 - lb);
                    size_t i = (size_t)y * w + x;
                    art[i] = mix_q(art[i], white, alpha, 65536);
                }
        }
    }
    /* far hills, hazy: a turn is 65536, and f 7 radians 7 f / 2 pi turns */
    int64_t ph1 = rand_in(&rs, 0, 65500), ph2 = rand_in(&rs, 0, 65500);
    for (int x = 0; x < w; x++) {
        int64_t a1 = ph1 + (int64_t)x * 7 * 10430378 / ((int64_t)w * 1000);
        int64_t a2 = ph2 + (int64_t)x * 17 * 10430378 / ((int64_t)w * 1000);
        /* h (0.50 - 0.06 sin - 0.03 sin), in 1/SKY_F of a pixel */
        int64_t top_y = (int64_t)h * SKY_F * (50 * 16384 - 6 * sin_q14((uint32_t)a1) - 3 * sin_q14((uint32_t)a2)) /
                        (100 * 16384);
        for (int y = top_y > 0 ? (int)(top_y / SKY_F) : 0; y < h; y++) {
            size_t i = (size_t)y * w + x;
            /* t = min(1, (y - top) / 0.3 h) */
            int64_t tn = 10 * ((int64_t)y * SKY_F - top_y), td = 3 * (int64_t)h * SKY_F;
            tn = tn < td ? tn : td;
            art[i] = mix_q(art[i], mix_q(rgb(118, 150, 150), rgb(86, 118, 112), tn, td), 3, 4);
        }
    }
}

/* ---- the stone ------------------------------------------------------------ */

/* The stone at (x, y): the tile given, repeated at a size that follows the
 * screen, or blocks of masonry with mortar between. */
static uint32_t stone_at(const side_config_t *cfg, double unit, int x, int y, uint32_t seed)
{
    if (cfg->stone) {
        /* the tile shown about 96 units high at 640x480.  Each result
         * rounded to a double as it is made (the casts), so that an x87
         * (i386), which would keep 80 bits, finds the tile's pixel SSE2
         * does; an exact fraction would move the tile's seams, and
         * every screenshot, at sizes such as 1024x768. */
        double scale = fmax(1e-3, (double)(96.0 * unit) / cfg->stone_h);
        int sx = (int)(double)(x / scale) % cfg->stone_w, sy = (int)(double)(y / scale) % cfg->stone_h;
        return cfg->stone[(size_t)sy * cfg->stone_w + sx] | 0xFF000000u;
    }
    /* blocks 16 units high (at least 4 px), 2.2 times as wide, every
     * other row shifted half a block; mortar 1.5 units (at least 1 px).
     * In 1/(10 ud) of a pixel, the unit being un / ud: exact integers. */
    int64_t un, ud;
    unit_q(cfg->w, cfg->h, &un, &ud);
    int64_t bh = 16 * un > 4 * ud ? 160 * un : 40 * ud, bw = 22 * bh / 10;
    int64_t one = un > ud ? 10 * un : 10 * ud, mortar = 15 * un > 10 * ud ? 15 * un : 10 * ud;
    int64_t Y = (int64_t)y * 10 * ud, X = (int64_t)x * 10 * ud;
    int row = (int)(Y / bh);
    int64_t off = (row & 1) ? bw / 2 : 0;
    int col = (int)((X + off) / bw);
    int64_t fx = X + off - col * bw, fy = Y - row * bh;
    uint32_t hb = hash3(col, row, seed), hp = hash3(x, y, seed ^ 0x5u);
    int tint = (int)(hb % 25) - 12, grain = (int)(hp % 13) - 6;
    if (fx < mortar || fy < mortar)
        return rgb(70 + grain / 2, 66 + grain / 2, 62 + grain / 2);
    int r = 128 + tint + grain, g = 122 + tint + grain, b = 112 + tint + grain;
    /* each block lit from the top left */
    if (fy < mortar + one)
        r += 18, g += 18, b += 18;
    else if (fy > bh - one)
        r -= 16, g -= 16, b -= 16;
    return rgb(r, g, b + (int)(hb >> 8 & 7));
}

void side_level_paint(const side_level_t *lv, const side_config_t *cfg, uint32_t *art)
{
    int w = cfg->w, h = cfg->h;
    uint32_t seed = (uint32_t)(cfg->seed ^ cfg->seed >> 32);
    if (!cfg->sky || rpl_image_fit(cfg->sky, cfg->sky_w, cfg->sky_h, (ptrdiff_t)cfg->sky_w * 4,
                                   art, w, h) != RPL_OK)
        paint_sky(art, w, h, cfg->seed);
    double unit = fmin(w / 640.0, h / 480.0);
    int64_t un, ud;
    unit_q(w, h, &un, &ud);
    int bevel = (int)round_div(3 * un, ud), grass = (int)round_div(6 * un, ud);
    bevel = bevel < 1 ? 1 : bevel;
    grass = grass < 2 ? 2 : grass;
    for (int i = 0; i < lv->nrects; i++) {
        const side_rect_t *r = &lv->rect[i];
        for (int y = r->y0; y < r->y1; y++)
            for (int x = r->x0; x < r->x1; x++) {
                uint32_t c = stone_at(cfg, unit, x, y, seed);
                /* the faces open to the air: lit tops, shaded right sides */
                if (!side_level_solid(lv, x + 0.5, y + 0.5 - bevel))
                    c = add(c, 26);
                else if (!side_level_solid(lv, x + 0.5 - bevel, y + 0.5))
                    c = add(c, 12);
                else if (!side_level_solid(lv, x + 0.5 + bevel, y + 0.5))
                    c = add(c, -22);
                /* deeper stone darker */
                c = mix_q(c, rgb(30, 28, 30), 45 * (int64_t)(y - r->y0), 100 * (int64_t)h);
                if (r->grass && y - r->y0 < grass) {
                    uint32_t hv = hash3(x, 7, seed);
                    int blade = (int)(hv % (unsigned)grass);
                    if (y - r->y0 < grass - blade / 2 || y - r->y0 < 2)
                        c = rgb(70 + (int)(hv >> 8 & 31), 140 + (int)(hv >> 13 & 31),
                                52 + (int)(hv >> 18 & 15));
                }
                art[(size_t)y * w + x] = c;
            }
    }
}

/* The colours bodies are drawn in, for the INDEX8 palette. */
static const uint32_t swatch[] = {
    0xFFA0703Cu, 0xFF7A5230u, 0xFF5A3A20u, 0xFFC89060u, /* wood */
    0xFF8A9098u, 0xFF5A6068u, 0xFFC8D0D8u, 0xFF3A3E44u, /* metal */
    0xFFE04040u, 0xFFF09030u, 0xFFF0D040u, 0xFF50C050u, /* balls */
    0xFF40B0E0u, 0xFF5060E0u, 0xFFC050D0u, 0xFFFFFFFFu,
};

uint32_t *side_level_palette_art(const uint32_t *art, int w, int h)
{
    uint32_t *p = malloc((size_t)w * h * sizeof *p);
    if (!p)
        return NULL;
    memcpy(p, art, (size_t)w * h * sizeof *p);
    /* the bottom eighth: each swatch from light to dark, as the bodies'
     * shading draws it */
    int band = h / 8, n = (int)(sizeof swatch / sizeof swatch[0]);
    for (int y = h - band; y < h; y++) {
        /* 0.45 t, t from 0 to 1 down the band */
        int64_t tn = band > 1 ? 45 * (int64_t)(y - (h - band)) : 0, td = band > 1 ? 100 * (int64_t)(band - 1) : 1;
        for (int x = 0; x < w; x++) {
            uint32_t c = swatch[x * n / w];
            p[(size_t)y * w + x] = mix_q(c, rgb(0, 0, 0), tn, td);
        }
    }
    return p;
}
