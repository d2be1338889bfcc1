/* core/side/side_render.c - the side-view water renderer (refraction, depth gradient, caustics, foam, droplets) and the polygon and circle fills for a side scene's bodies. */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/base.h"

/*
 * Everything is drawn in XRGB8888 (straight into an XRGB8888 framebuffer,
 * else into a frame kept in the renderer, only where water or droplets
 * reach, the rest converted from the scene), so that the water is
 * computed once whatever the format, and an INDEX8 frame is the XRGB8888
 * one mapped through a palette made for the scene.
 *
 * The water of a column is shaded from tables: a depth table made per
 * body and frame (colour, opacity, caustic light, refraction and
 * darkening by the depth under the surface), and per column the slope and
 * curvature of the surface (refraction, darkening, foam).  The shading is
 * integer arithmetic on one pixel of the scene, done for most pixels in
 * blocks (shade_block); deep water, where only the colour varies with
 * depth, has loops of its own.
 */

#define CAUS_BITS 8
#define CAUS (1 << CAUS_BITS)      /* the caustic pattern's side, a power of two */
#define CAUS_GRID 8                /* Voronoi cells across the pattern */
#define DEPTHS 512                 /* depth table entries (deeper uses the last) */
#define DEPTH_SPAN_MIN 48.0        /* the gradient spans at least this depth */
#define DEPTH_SPAN_MAX 320.0       /* and at most this (then it stays deep) */
#define DROP_RADIUS_MAX 32.0       /* droplets bigger than this are drawn this big */
#define CUBE_BITS 5                /* INDEX8: bits per channel of the lookup cube */
#define PAL_W 256                  /* INDEX8: the palette picture's size */
#define PAL_ART_H 192
#define PAL_WATER_H 128
#define SEED 0x51DE5EEDu
#define BLOCK 16                   /* pixels of water shaded together (see shade_block) */

/* One depth's shading, for a body: out = (scene * inva + pre) >> 8, then
 * caustic light caus/256 of the pattern, refraction refr/256 of the
 * slope in pixels, darkening of steep water weighted dk/256, the
 * underwater shimmer's amplitude wob/256 px. */
typedef struct depth_entry {
    int32_t inva;
    int32_t pr, pg, pb;
    uint32_t prb;   /* pr << 16 | pb: red and blue blended in one multiply */
    int32_t caus;
    int32_t refr;
    int32_t dk;
    int32_t wob;
} depth_entry_t;

/* What a frame knows of each column of a body (arrays of the renderer's
 * width, or the palette picture's). */
typedef struct columns {
    int32_t *ys;     /* the row of the surface's top pixel */
    int32_t *cov;    /* that pixel's share under water, 1/256 */
    int32_t *sfx;    /* the slope, 1/256 (its sign as the refraction's) */
    int32_t *dcol;   /* darkening of steep water, 1/256 */
    int32_t *fwq;    /* foam width, 1/256 px */
    int32_t *shift;  /* how far the surface lies under the body's mean there */
    int32_t *gbase;  /* deeper than 16 px the gradient's depth is y - gbase */
    int32_t *rdeep;  /* the refraction's slope term in deep water, 1/65536 px */
} columns_t;

#define COLUMN_ARRAYS 8

struct rpl_side_renderer {
    int w, h;
    rpl_format format;
    uint32_t *frame;            /* w*h XRGB8888, what is drawn before converting (not for XRGB8888) */
    uint8_t *caustic;           /* CAUS*CAUS, tileable light network */
    uint8_t *cube;              /* INDEX8: 32^3 nearest palette entries */
    uint32_t palette[256];      /* INDEX8 */
    int32_t *span;              /* not XRGB8888: per row, the columns [x0, x1) drawn in the frame */
    depth_entry_t depth[DEPTHS];
    columns_t col;              /* per column of a body, max(w, PAL_W) each */
    int32_t *colmem;
    char err[160];
};

static rpl_status side_fail(rpl_side_renderer_t *r, rpl_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static rpl_status side_fail(rpl_side_renderer_t *r, rpl_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err, sizeof r->err, fmt, ap);
    va_end(ap);
    return st;
}

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* xorshift32, the state kept by the caller. */
static uint32_t next_rand(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

/* ---- the caustic pattern ------------------------------------------------- */

/*
 * A tileable Voronoi network: one jittered point per grid cell, and at
 * each texel the distances to the nearest (F1) and the second nearest
 * (F2) point, wrapping around.  F2 - F1 is small along the cells'
 * borders; light gathers there, so the pattern is bright on thin lines
 * that fade into dark cells, as sunlight focused by waves looks on a floor.
 */
/* floor(sqrt(v)), bit by bit. */
static uint32_t isqrt(uint32_t v)
{
    uint32_t root = 0, bit = 1u << 30;
    while (bit > v)
        bit >>= 2;
    while (bit) {
        if (v >= root + bit) {
            v -= root + bit;
            root = (root >> 1) + bit;
        } else {
            root >>= 1;
        }
        bit >>= 2;
    }
    return root;
}

/* All integer (positions in 1/16 px) but for the small table of the
 * brightness by F2 - F1: the pattern is the same bytes everywhere and
 * cheap to make even where floating point is slow. */
static void make_caustic(uint8_t *out)
{
    enum { SUB = 16, CELL = CAUS / CAUS_GRID * SUB, SPAN = CAUS * SUB, LEVELS = 512 };
    int px[CAUS_GRID][CAUS_GRID], py[CAUS_GRID][CAUS_GRID];
    uint32_t s = SEED;
    for (int j = 0; j < CAUS_GRID; j++)
        for (int i = 0; i < CAUS_GRID; i++) {
            /* jittered within the middle 70% of its cell */
            px[j][i] = i * CELL + CELL * 15 / 100 + (int)(next_rand(&s) % (CELL * 70 / 100));
            py[j][i] = j * CELL + CELL * 15 / 100 + (int)(next_rand(&s) % (CELL * 70 / 100));
        }
    /* brightness by F2 - F1 in 1/16 px: bright thin lines along the
     * borders, and a wider soft glow about them */
    uint8_t lut[LEVELS];
    for (int k = 0; k < LEVELS; k++) {
        double dd = (double)k / SUB;
        double e = clampd(1.0 - dd / 9.0, 0.0, 1.0);
        double g = clampd(1.0 - dd / 26.0, 0.0, 1.0);
        double v = pow(e, 3.5) * 0.8 + g * g * g * 0.2;
        lut[k] = (uint8_t)lrint(clampd(v, 0.0, 1.0) * 255.0);
    }
    for (int y = 0; y < CAUS; y++)
        for (int x = 0; x < CAUS; x++) {
            int cx = x * SUB + SUB / 2, cy = y * SUB + SUB / 2;
            int ci = cx / CELL, cj = cy / CELL;
            uint32_t f1 = UINT32_MAX, f2 = UINT32_MAX; /* squared */
            for (int dj = -1; dj <= 1; dj++)
                for (int di = -1; di <= 1; di++) {
                    int i = ci + di, j = cj + dj;
                    /* the neighbour across the wrap, moved next to this texel */
                    int ox = i < 0 ? -SPAN : i >= CAUS_GRID ? SPAN : 0;
                    int oy = j < 0 ? -SPAN : j >= CAUS_GRID ? SPAN : 0;
                    i = (i + CAUS_GRID) % CAUS_GRID;
                    j = (j + CAUS_GRID) % CAUS_GRID;
                    int dx = px[j][i] + ox - cx, dy = py[j][i] + oy - cy;
                    uint32_t d = (uint32_t)(dx * dx) + (uint32_t)(dy * dy);
                    if (d < f1) {
                        f2 = f1;
                        f1 = d;
                    } else if (d < f2) {
                        f2 = d;
                    }
                }
            uint32_t k = isqrt(f2) - isqrt(f1);
            out[y * CAUS + x] = lut[k < LEVELS ? k : LEVELS - 1];
        }
}

/* ---- the depth table ---------------------------------------------------- */

/* The depth from which on a pixel is "deep water": no foam, no
 * darkening of steep water, the gradient's depth not scaled (d >= 16),
 * the shimmer's weight that of the table's last entry and, with
 * refr_too, the refraction's: then only the gradient's entry varies with
 * depth.  DEPTHS: nowhere. */
static int deep_from(const depth_entry_t *tab, int refr_too)
{
    const depth_entry_t *last = &tab[DEPTHS - 1];
    if (last->dk != 0)
        return DEPTHS;
    int d = DEPTHS - 1;
    while (d > 0 && (!refr_too || tab[d - 1].refr == last->refr) && tab[d - 1].wob == last->wob &&
           tab[d - 1].dk == 0)
        d--;
    return d > 16 ? d : 16;
}

/* Shading by depth for a body whose gradient spans `span` pixels. */
static void make_depths(depth_entry_t *tab, double span)
{
    /* shallow teal to deep blue */
    static const double top[3] = {70, 196, 206}, mid[3] = {28, 120, 168}, deep[3] = {10, 34, 84};
    for (int d = 0; d < DEPTHS; d++) {
        /* past the gradient's span and the refraction's (60 px) every
         * entry is the one before: copied rather than worked out again
         * with pow() (most of the table, every frame) */
        if (d > 60 && (d - 1 + 0.5) / span >= 1.0) {
            tab[d] = tab[d - 1];
            continue;
        }
        double t = clampd((d + 0.5) / span, 0.0, 1.0);
        double c[3];
        for (int k = 0; k < 3; k++)
            c[k] = t < 0.45 ? top[k] + (mid[k] - top[k]) * (t / 0.45)
                            : mid[k] + (deep[k] - mid[k]) * ((t - 0.45) / 0.55);
        double a = 0.32 + 0.56 * pow(t, 0.65);
        double u = 1.0 - t;
        depth_entry_t *e = &tab[d];
        e->inva = (int32_t)lrint((1.0 - a) * 256.0);
        e->pr = (int32_t)lrint(c[0] * a * 256.0);
        e->pg = (int32_t)lrint(c[1] * a * 256.0);
        e->pb = (int32_t)lrint(c[2] * a * 256.0);
        e->prb = (uint32_t)e->pr << 16 | (uint32_t)e->pb;
        e->caus = (int32_t)lrint((0.05 + 0.45 * u * u * u) * 256.0);
        /* the refraction is strongest just under the surface and settles
         * deeper, where it would smear the scene into streaks */
        e->refr = (int32_t)lrint((1.0 + 4.0 * clampd(1.0 - d / 60.0, 0.0, 1.0)) * 256.0);
        double f = clampd(1.0 - d / 32.0, 0.0, 1.0);
        e->dk = (int32_t)lrint(256.0 * f * f);
        e->wob = (int32_t)lrint(256.0 * 1.6 * clampd(d / 24.0, 0.0, 1.0));
    }
}

/* ---- drawing the water -------------------------------------------------- */

/* What one frame's time gives the caustics and the shimmer. */
typedef struct anim {
    int ox1, oy1, ox2, oy2;    /* the two caustic layers' scroll */
    int8_t warp[256];          /* caustic lines' sideways warp, by row */
    int8_t warpv[256 + BLOCK]; /* and their up-and-down warp, by column (& 255, + BLOCK - 1) */
    int16_t wob[256];          /* shimmer in 1/256 px, by (x + 2y) */
} anim_t;

static void make_anim(anim_t *a, double time)
{
    /* wrapped into one period of the pattern before anything else, so long
     * running times keep their precision */
    double t = fmod(time, 4096.0);
    a->ox1 = (int)floor(fmod(t * 13.0, CAUS));
    a->oy1 = (int)floor(fmod(t * 5.0, CAUS));
    a->ox2 = (int)floor(fmod(-t * 9.0 + 4096.0 * CAUS, CAUS));
    a->oy2 = (int)floor(fmod(t * 8.0, CAUS));
    for (int i = 0; i < 256; i++) {
        double ph = 6.283185307179586 * i / 256.0;
        a->warp[i] = (int8_t)lrint(6.0 * sin(2.0 * ph + t * 1.3) + 2.5 * sin(5.0 * ph - t * 2.1));
        a->warpv[i] = (int8_t)lrint(5.0 * sin(3.0 * ph - t * 1.1) + 2.0 * sin(7.0 * ph + t * 1.7));
        a->wob[i] = (int16_t)lrint(256.0 * (0.6 * sin(3.0 * ph + t * 2.4) + 0.4 * sin(7.0 * ph - t * 3.1)));
    }
    memcpy(a->warpv + 256, a->warpv, BLOCK);
}

static inline uint32_t pack(int r, int g, int b)
{
    return 0xFF000000u | (uint32_t)clampi(r, 0, 255) << 16 | (uint32_t)clampi(g, 0, 255) << 8 |
           (uint32_t)clampi(b, 0, 255);
}

/*
 * Most of the water is shaded in blocks of BLOCK pixels: first what each
 * pixel reads is gathered (the scene's pixel through the refraction, the
 * two caustic texels, the gradient's entry), then one loop of a fixed
 * count does the arithmetic, which compilers turn into vector code.  It
 * is the arithmetic of the general path (water_pixel) for a pixel
 * without foam, the same values to the bit, in 16 bits: scene * inva +
 * pre stays under 65536 (checked by fast_ok), the caustics' c1 * c2 is at
 * most 255 * 255, their light at most (254 + 127) * caus / 256 with caus
 * <= 128, so 190, and 190 * 230 fits too; a channel then stays under 512,
 * and darkening it by k/256 (k <= 256) is the high half of (c << 7) *
 * (k << 1), both factors under 65536 (and no change for k = 256).
 */
typedef struct shade_in {
    uint32_t src[BLOCK];                 /* the scene's pixel */
    uint8_t c1[BLOCK], c2[BLOCK];        /* the caustic texels */
    uint16_t inva[BLOCK], pr[BLOCK], pg[BLOCK], pb[BLOCK], caus[BLOCK]; /* the gradient's entry */
    uint16_t k[BLOCK];                   /* 256 less the darkening of steep water */
} shade_in_t;

static void shade_block(uint32_t *restrict out, const shade_in_t *restrict in)
{
    for (int i = 0; i < BLOCK; i++) {
        uint32_t src = in->src[i];
        uint16_t r = (uint16_t)(src >> 16 & 0xFF), g = (uint16_t)(src >> 8 & 0xFF);
        uint16_t b = (uint16_t)(src & 0xFF), a1 = in->c1[i], a2 = in->c2[i], ia = in->inva[i];
        uint16_t light = (uint16_t)(((uint16_t)(a1 * a2) >> 8) + ((a1 + a2) >> 2));
        uint16_t add = (uint16_t)((uint16_t)(light * in->caus[i]) >> 8);
        r = (uint16_t)(((uint16_t)(r * ia + in->pr[i]) >> 8) + ((uint16_t)(add * 200) >> 8));
        g = (uint16_t)(((uint16_t)(g * ia + in->pg[i]) >> 8) + add);
        b = (uint16_t)(((uint16_t)(b * ia + in->pb[i]) >> 8) + ((uint16_t)(add * 230) >> 8));
        uint16_t k2 = (uint16_t)(in->k[i] << 1);
        r = (uint16_t)((uint32_t)(uint16_t)(r << 7) * k2 >> 16);
        g = (uint16_t)((uint32_t)(uint16_t)(g << 7) * k2 >> 16);
        b = (uint16_t)((uint32_t)(uint16_t)(b << 7) * k2 >> 16);
        r = r > 255 ? 255 : r;
        g = g > 255 ? 255 : g;
        b = b > 255 ? 255 : b;
        out[i] = 0xFF000000u | (uint32_t)r << 16 | (uint32_t)g << 8 | b;
    }
}

/* Whether the blocks' 16-bit arithmetic holds for every entry of a
 * depth table (it does for make_depths' colours; checked so that other
 * colours could never overflow silently). */
static int fast_ok(const depth_entry_t *tab)
{
    for (int d = 0; d < DEPTHS; d++) {
        const depth_entry_t *e = &tab[d];
        int32_t pm = e->pr > e->pg ? e->pr : e->pg;
        pm = pm > e->pb ? pm : e->pb;
        if (e->inva < 0 || e->inva > 256 || e->pr < 0 || e->pg < 0 || e->pb < 0 ||
            255 * e->inva + pm > 65535 || e->caus < 0 || e->caus > 128 || e->dk < 0 || e->dk > 256)
            return 0;
    }
    return 1;
}

static inline void take_entry(shade_in_t *in, int i, const depth_entry_t *e)
{
    in->inva[i] = (uint16_t)e->inva;
    in->pr[i] = (uint16_t)e->pr;
    in->pg[i] = (uint16_t)e->pg;
    in->pb[i] = (uint16_t)e->pb;
    in->caus[i] = (uint16_t)e->caus;
}

/* What drawing a body's water reads: its columns and tables for the
 * frame, and the row being drawn. */
typedef struct water_ctx {
    const columns_t *col;
    const depth_entry_t *dep;
    const uint8_t *caus;
    const anim_t *an;
    const int32_t *wdeep;   /* the shimmer in deep water by (x + 2y) & 255, periodic */
    int w;
    int fast;               /* fast_ok of the depth table */
    /* the row */
    int y;
    const uint32_t *srow;   /* the scene's */
    uint32_t *frow;         /* the frame's */
    int c1x, c2x, c1y, c2y; /* the caustic layers' offsets */
} water_ctx_t;

#define CAUS_AT(row, col) \
    caus[((unsigned)(row) & (CAUS - 1)) << CAUS_BITS | ((unsigned)(col) & (CAUS - 1))]

/* One pixel of water at depth d >= 0 under its surface, column x: the
 * general path, whatever the depth. */
static inline uint32_t water_pixel(const water_ctx_t *c, int x, int d)
{
    const columns_t *col = c->col;
    const depth_entry_t *dep = c->dep;
    const uint8_t *caus = c->caus;
    const int y = c->y, w = c->w;
    const depth_entry_t *e = &dep[d < DEPTHS ? d : DEPTHS - 1];
    int dg = d < 16 ? d + (col->shift[x] * d >> 4) : y - col->gbase[x];
    const depth_entry_t *eg = &dep[dg < 0 ? 0 : dg < DEPTHS ? dg : DEPTHS - 1];
    int dx = (col->sfx[x] * e->refr + c->an->wob[(x + 2 * y) & 255] * e->wob) >> 16;
    int sx = x + dx;
    sx = sx < 0 ? 0 : sx >= w ? w - 1 : sx;
    uint32_t src = c->srow[sx];
    /* every step below keeps the channels >= 0 (blends of values
     * >= 0, darkening by less than all): only 255 needs a clamp */
    int r = (int)(((src >> 16 & 0xFF) * (uint32_t)eg->inva + (uint32_t)eg->pr) >> 8);
    int g = (int)(((src >> 8 & 0xFF) * (uint32_t)eg->inva + (uint32_t)eg->pg) >> 8);
    int b = (int)(((src & 0xFF) * (uint32_t)eg->inva + (uint32_t)eg->pb) >> 8);
    int v = c->an->warpv[x & 255];
    int c1 = CAUS_AT(c->c1y + v, x + c->c1x), c2 = CAUS_AT(c->c2y - v, (x * 3 >> 2) + c->c2x);
    int add = ((c1 * c2 >> 8) + ((c1 + c2) >> 2)) * eg->caus >> 8;
    r += add * 200 >> 8;
    g += add;
    b += add * 230 >> 8;
    int k = 256 - (col->dcol[x] * e->dk >> 8);
    r = r * k >> 8;
    g = g * k >> 8;
    b = b * k >> 8;
    if (d < 5) {
        /* foam, fading out over its last pixel */
        int fa = clampi(col->fwq[x] - d * 256, 0, 256) * 220 >> 8;
        if (d == 0)
            fa = fa + ((256 - fa) * 60 >> 8); /* the very line is brightest */
        int sp = c1 >> 3;                     /* a little sparkle along it */
        r += (236 + sp - r) * fa >> 8;
        g += (250 + sp - g) * fa >> 8;
        b += (255 - b) * fa >> 8;
        if (d == 0 && col->cov[x] < 256) {
            /* anti-aliased top: the pixel is partly above the surface */
            uint32_t o = c->srow[x];
            int cv = col->cov[x];
            r = ((int)(o >> 16 & 0xFF) * (256 - cv) + (r > 255 ? 255 : r) * cv) >> 8;
            g = ((int)(o >> 8 & 0xFF) * (256 - cv) + (g > 255 ? 255 : g) * cv) >> 8;
            b = ((int)(o & 0xFF) * (256 - cv) + (b > 255 ? 255 : b) * cv) >> 8;
        }
    }
    return 0xFF000000u | (uint32_t)(r > 255 ? 255 : r) << 16 | (uint32_t)(g > 255 ? 255 : g) << 8 |
           (uint32_t)(b > 255 ? 255 : b);
}

/* Columns x0..x1-1 of a row, whatever their depth (above the surface
 * left alone): in blocks where the depth table allows, the foam's pixels
 * and a row's last few done one by one. */
static void mixed_run(const water_ctx_t *c, int x0, int x1)
{
    const columns_t *col = c->col;
    const int32_t *restrict cys = col->ys, *restrict csfx = col->sfx, *restrict cdk = col->dcol;
    const int32_t *restrict csh = col->shift, *restrict cgb = col->gbase;
    const depth_entry_t *restrict dep = c->dep;
    const int16_t *restrict wob = c->an->wob;
    const int8_t *restrict wv = c->an->warpv;
    const uint8_t *restrict caus = c->caus;
    const uint32_t *restrict srow = c->srow;
    uint32_t *restrict frow = c->frow;
    const int y = c->y, w = c->w;
    const int c1x = c->c1x, c2x = c->c2x, c1y = c->c1y, c2y = c->c2y;
    int x = x0;
    if (c->fast)
        for (; x + BLOCK <= x1; x += BLOCK) {
            shade_in_t in;
            uint32_t out[BLOCK];
            signed char kind[BLOCK]; /* -1 above the surface, 0 the block's, 1 foam: one by one */
            for (int i = 0; i < BLOCK; i++) {
                int xx = x + i, d = y - cys[xx];
                const depth_entry_t *e = &dep[d < 0 ? 0 : d < DEPTHS ? d : DEPTHS - 1];
                int dg = d < 16 ? d + (csh[xx] * d >> 4) : y - cgb[xx];
                const depth_entry_t *eg = &dep[dg < 0 ? 0 : dg < DEPTHS ? dg : DEPTHS - 1];
                int sx = xx + ((csfx[xx] * e->refr + wob[(xx + 2 * y) & 255] * e->wob) >> 16);
                sx = sx < 0 ? 0 : sx >= w ? w - 1 : sx;
                int v = wv[xx & 255];
                in.src[i] = srow[sx];
                in.c1[i] = CAUS_AT(c1y + v, xx + c1x);
                in.c2[i] = CAUS_AT(c2y - v, (xx * 3 >> 2) + c2x);
                take_entry(&in, i, eg);
                in.k[i] = (uint16_t)(256 - (cdk[xx] * e->dk >> 8));
                kind[i] = (signed char)(d < 0 ? -1 : d < 5 ? 1 : 0);
            }
            shade_block(out, &in);
            for (int i = 0; i < BLOCK; i++)
                if (kind[i] == 0)
                    frow[x + i] = out[i];
                else if (kind[i] > 0)
                    frow[x + i] = water_pixel(c, x + i, y - cys[x + i]);
        }
    for (; x < x1; x++) {
        int d = y - cys[x];
        if (d >= 0)
            frow[x] = water_pixel(c, x, d);
    }
}

/* Columns x0..x1-1 of a row that is deep water in all of them (see
 * deep_from): the gradient's entry eg for all, or (eg NULL) by column;
 * the refraction's weight by depth (by_depth, for water deep from
 * deep_from(, 0) on) or the deepest's (from deep_from(, 1) on); the
 * scene read without clamping, so the columns must lie within the
 * refraction's reach of the frame's sides.  Needs c->fast. */
static void deep_run(const water_ctx_t *c, int x0, int x1, const depth_entry_t *eg, int by_depth)
{
    const uint32_t *restrict srow = c->srow;
    const uint8_t *restrict caus = c->caus;
    const int32_t *restrict wd = c->wdeep + (2 * c->y & 255), *restrict crd = c->col->rdeep;
    const int32_t *restrict gbase = c->col->gbase, *restrict cys = c->col->ys;
    const int32_t *restrict csfx = c->col->sfx;
    const depth_entry_t *restrict dep = c->dep;
    const int c1x = c->c1x, c2x = c->c2x, c1y = c->c1y, c2y = c->c2y, y = c->y;
    shade_in_t in;
    for (int i = 0; i < BLOCK; i++) {
        in.k[i] = 256;
        if (eg)
            take_entry(&in, i, eg);
    }
    int x = x0;
    for (; x + BLOCK <= x1; x += BLOCK) {
        /* the indices first, a loop of plain arithmetic, then the reads */
        int32_t sx[BLOCK];
        uint32_t i1[BLOCK], i2[BLOCK];
        const int32_t *restrict wdx = wd + (x & 255);
        const int8_t *restrict wvx = c->an->warpv + (x & 255);
        if (by_depth)
            for (int i = 0; i < BLOCK; i++) {
                int xx = x + i, d = y - cys[xx];
                sx[i] = xx + ((csfx[xx] * dep[d < DEPTHS ? d : DEPTHS - 1].refr + wdx[i]) >> 16);
            }
        else
            for (int i = 0; i < BLOCK; i++)
                sx[i] = x + i + ((crd[x + i] + wdx[i]) >> 16);
        for (int i = 0; i < BLOCK; i++) {
            int xx = x + i, v = wvx[i];
            i1[i] = ((unsigned)(c1y + v) & (CAUS - 1)) << CAUS_BITS | ((unsigned)(xx + c1x) & (CAUS - 1));
            i2[i] = ((unsigned)(c2y - v) & (CAUS - 1)) << CAUS_BITS |
                    ((unsigned)((xx * 3 >> 2) + c2x) & (CAUS - 1));
        }
        for (int i = 0; i < BLOCK; i++) {
            in.src[i] = srow[sx[i]];
            in.c1[i] = caus[i1[i]];
            in.c2[i] = caus[i2[i]];
        }
        if (!eg)
            for (int i = 0; i < BLOCK; i++) {
                int dg = y - gbase[x + i];
                take_entry(&in, i, &dep[dg < 0 ? 0 : dg < DEPTHS ? dg : DEPTHS - 1]);
            }
        shade_block(c->frow + x, &in);
    }
    mixed_run(c, x, x1);
}

/* Where a body's water goes this frame, known before anything is drawn:
 * its columns clipped to the frame, the rows any of them is drawn in, and
 * the rows from which on all of them are (there the water covers the
 * scene wholly, which then need not be copied first). */
typedef struct body_rows {
    int x0, x1;  /* columns */
    int y0, y1;  /* rows drawn in; y0 >= y1: none */
    int yfull;   /* rows yfull .. y1-1: every column is water */
} body_rows_t;

/* As draw_water finds them: the same clipping, the same wet test and the
 * same surface rows (a column is drawn from its surface row down). */
static void body_rows(const rpl_side_water_t *wb, int w, int h, body_rows_t *br)
{
    br->x0 = br->x1 = br->y0 = br->y1 = 0;
    br->yfull = INT_MAX;
    long long n = (long long)wb->x1 - wb->x0;
    int cx0 = (int)(wb->x0 < 0 ? 0 : wb->x0);
    int cx1 = (int)(wb->x1 > w ? w : wb->x1);
    if (n <= 0 || cx0 >= cx1)
        return;
    const float *sf = wb->surface;
    const long long base = wb->x0;
    double bottom = clampd(wb->bottom, -1.0, h + 1.0);
    int yb = (int)ceil(bottom);
    int lo = INT_MAX, hi = INT_MIN, dry = 0;
    for (int x = cx0; x < cx1; x++) {
        double s = sf[x - base];
        if (!(s < bottom)) {
            dry = 1;
            continue;
        }
        int ys = (int)floor(clampd(s, -(double)DEPTHS, h + 1.0));
        lo = ys < lo ? ys : lo;
        hi = ys > hi ? ys : hi;
    }
    if (lo == INT_MAX)
        return;
    br->x0 = cx0;
    br->x1 = cx1;
    br->y0 = lo < 0 ? 0 : lo;
    br->y1 = yb < h ? yb : h;
    br->yfull = dry ? INT_MAX : hi;
}

/* The water of one body over frame (w x h, rows fpitch pixels apart) from
 * the scene (rows spitch pixels apart).  The body's columns are clipped to
 * the frame; every value was checked finite by the caller.  Row by row,
 * for the caches: the columns' surfaces are worked out first.  The water
 * only writes the frame, never reads it (what it refracts is the scene). */
static void draw_water(uint32_t *frame, ptrdiff_t fpitch, const uint32_t *scene, ptrdiff_t spitch,
                       int w, int h, const rpl_side_water_t *wb, const uint8_t *caus,
                       const anim_t *an, depth_entry_t *depth, const columns_t *col)
{
    long long n = (long long)wb->x1 - wb->x0;
    int cx0 = (int)(wb->x0 < 0 ? 0 : wb->x0);
    int cx1 = (int)(wb->x1 > w ? w : wb->x1);
    if (n <= 0 || cx0 >= cx1)
        return;
    /* the surface at column x is sf[x - base] (no pointer moved out of
     * the array, which C leaves undefined) */
    const float *sf = wb->surface;
    const long long base = wb->x0;
    double bottom = clampd(wb->bottom, -1.0, h + 1.0);
    int yb = (int)ceil(bottom);
    if (yb > h)
        yb = h;
    /* the gradient spans the body's depth under its highest visible point */
    double top = bottom;
    int ytop = h;
    double ysum = 0;
    int wet = 0, ymax = INT_MIN;
    for (int x = cx0; x < cx1; x++) {
        double s = sf[x - base];
        if (!(s < bottom)) {
            /* dry: no row reaches it (the rest set all the same, since a
             * block of pixels reads its columns whatever their depth) */
            col->ys[x] = h;
            col->cov[x] = 256;
            col->sfx[x] = col->dcol[x] = col->fwq[x] = 0;
            continue;
        }
        if (s < top)
            top = s;
        double sl = 0, slr = 0, curv = 0;
        if (wb->awake) {
            /* the slope over two pixels each side (foam), and over four
             * for the refraction and the darkening, which a sharp crest
             * would otherwise tear into streaks */
            int xl = x - 1 >= wb->x0 ? x - 1 : wb->x0, xr = x + 1 < wb->x1 ? x + 1 : wb->x1 - 1;
            double l1 = sf[xl - base], r1 = sf[xr - base];
            xl = x - 2 >= wb->x0 ? x - 2 : wb->x0;
            xr = x + 2 < wb->x1 ? x + 2 : wb->x1 - 1;
            sl = clampd((sf[xr - base] - sf[xl - base]) / (xr - xl > 0 ? xr - xl : 1), -1.5, 1.5);
            xl = x - 4 >= wb->x0 ? x - 4 : wb->x0;
            xr = x + 4 < wb->x1 ? x + 4 : wb->x1 - 1;
            slr = clampd((sf[xr - base] - sf[xl - base]) / (xr - xl > 0 ? xr - xl : 1), -1.5, 1.5);
            curv = clampd(l1 - 2.0 * s + r1, -4.0, 4.0);
        }
        double sc = clampd(s, -(double)DEPTHS, h + 1.0);
        int ys = (int)floor(sc);
        col->ys[x] = ys;
        col->cov[x] = (int32_t)lrint((ys + 1 - sc) * 256.0);
        col->sfx[x] = (int32_t)lrint(-slr * 256.0);
        double asl = fabs(sl);
        col->dcol[x] = (int32_t)lrint(clampd(fabs(slr) * 200.0, 0.0, 110.0));
        /* foam: 2 px on calm water, up to 4.5 where it is steep or cresting */
        col->fwq[x] = (int32_t)lrint(256.0 * (2.0 + clampd(asl * 3.0 + fabs(curv) * 3.0, 0.0, 2.5)));
        if (ys < ytop)
            ytop = ys;
        if (ys > ymax)
            ymax = ys;
        ysum += ys;
        wet++;
    }
    if (!(top < bottom))
        return;
    make_depths(depth, clampd(bottom - top, DEPTH_SPAN_MIN, DEPTH_SPAN_MAX));
    const int dmid = deep_from(depth, 0), dstart = deep_from(depth, 1);
    if (ytop < 0)
        ytop = 0;
    /* The colour's depth is taken from the surface just under it and,
     * deeper down, from the body's mean level: a trough or a crest would
     * otherwise shift its column's whole gradient and show as a streak
     * all the way down. */
    int ymean = (int)lrint(ysum / wet);
    const int32_t refr_deep = depth[DEPTHS - 1].refr, wob_deep = depth[DEPTHS - 1].wob;
    /* with `uniform` every column's gradient below 16 px is the mean
     * level's (no surface 64 px off it, no dry column) */
    int uniform = wet == cx1 - cx0;
    int32_t smax = 0;
    for (int x = cx0; x < cx1; x++) {
        col->shift[x] = clampi(col->ys[x] - ymean, -64, 64);
        col->gbase[x] = col->ys[x] - col->shift[x];
        col->rdeep[x] = col->sfx[x] * refr_deep;
        uniform &= col->gbase[x] == ymean;
        smax = abs(col->sfx[x]) > smax ? abs(col->sfx[x]) : smax;
    }
    /* rows from ymid on are deep water in every column (none dry) but for
     * the refraction's weight, from yall on wholly */
    const int none = wet < cx1 - cx0;
    const int ymid = none || dmid >= DEPTHS ? INT_MAX : ymax + dmid;
    const int yall = none || dstart >= DEPTHS ? INT_MAX : ymax + dstart;
    /* by (x + 2y) & 255 from a row's start (2y & 255) and a block's
     * (x & 255) on, over a block */
    int32_t wdeep[512 + BLOCK];
    for (int i = 0; i < 512 + BLOCK; i++)
        wdeep[i] = an->wob[i & 255] * wob_deep;
    /* there the water moves the scene by less than `reach` pixels:
     * columns xs0..xs1-1 read their row without clamping */
    int32_t refr_max = 0;
    for (int d = dmid; d < DEPTHS; d++)
        refr_max = abs(depth[d].refr) > refr_max ? abs(depth[d].refr) : refr_max;
    const int reach = (int)(((long long)smax * refr_max + 256LL * abs(wob_deep)) >> 16) + 2;
    const int xs0 = clampi(reach, cx0, cx1), xs1 = clampi(w - reach, xs0, cx1);

    const int fast = fast_ok(depth);
    water_ctx_t c = {col, depth, caus, an, wdeep, w, fast, 0, NULL, NULL, 0, 0, 0, 0};
    for (int y = ytop; y < yb; y++) {
        c.y = y;
        c.srow = scene + (ptrdiff_t)y * spitch;
        c.frow = frame + (ptrdiff_t)y * fpitch;
        int wy = an->warp[y & 255];
        c.c1x = an->ox1 + wy;
        c.c2x = an->ox2 - wy;
        c.c1y = y + an->oy1;
        c.c2y = (y * 3 >> 2) + an->oy2;
        if (y < ymid || !fast) {
            mixed_run(&c, cx0, cx1);
            continue;
        }
        const depth_entry_t *eg = NULL;
        if (uniform) {
            int dg = y - ymean;
            eg = &depth[dg < 0 ? 0 : dg < DEPTHS ? dg : DEPTHS - 1];
        }
        mixed_run(&c, cx0, xs0);
        deep_run(&c, xs0, xs1, eg, y < yall);
        mixed_run(&c, xs1, cx1);
    }
}

/* A droplet's radius and opacity, and the pixels it may touch
 * (xa..xb, ya..yb); 0 when it draws nothing. */
static int drop_box(const rpl_droplet_t *dp, int w, int h, double *rad_out, int *alpha_out,
                    int box[4])
{
    double rad = clampd(dp->size, 0.8, DROP_RADIUS_MAX);
    double fade = 1.0;
    if (dp->life > 0)
        fade = clampd(1.0 - dp->age / dp->life, 0.0, 1.0);
    int alpha = (int)lrint(235.0 * sqrt(fade));
    if (alpha <= 0)
        return 0;
    double cx = dp->x, cy = dp->y;
    if (!(cx > -rad - 2 && cx < w + rad + 2 && cy > -rad - 2 && cy < h + rad + 2))
        return 0;
    box[0] = clampi((int)floor(cx - rad - 1), 0, w - 1);
    box[1] = clampi((int)ceil(cx + rad + 1), 0, w - 1);
    box[2] = clampi((int)floor(cy - rad - 1), 0, h - 1);
    box[3] = clampi((int)ceil(cy + rad + 1), 0, h - 1);
    *rad_out = rad;
    *alpha_out = alpha;
    return 1;
}

/* A droplet: a small bright disc, anti-aliased, fading with age. */
static void draw_drop(uint32_t *frame, ptrdiff_t fpitch, int w, int h, const rpl_droplet_t *dp)
{
    double rad;
    int alpha, box[4];
    if (!drop_box(dp, w, h, &rad, &alpha, box))
        return;
    double cx = dp->x, cy = dp->y;
    const int xa = box[0], xb = box[1], ya = box[2], yb = box[3];
    for (int y = ya; y <= yb; y++)
        for (int x = xa; x <= xb; x++) {
            double dx = x + 0.5 - cx, dy = y + 0.5 - cy;
            double dist = sqrt(dx * dx + dy * dy);
            double cv = clampd(rad + 0.5 - dist, 0.0, 1.0);
            if (cv <= 0)
                continue;
            /* light from the top left: a white highlight, a blue rim */
            double hl = clampd(1.0 - sqrt((dx + rad * 0.35) * (dx + rad * 0.35) +
                                          (dy + rad * 0.35) * (dy + rad * 0.35)) / rad, 0.0, 1.0);
            int cr = (int)(150 + 105 * hl), cg = (int)(214 + 41 * hl), cb = 255;
            int a = (int)(alpha * cv);
            uint32_t o = frame[(ptrdiff_t)y * fpitch + x];
            int r = (int)(o >> 16 & 0xFF), g = (int)(o >> 8 & 0xFF), b = (int)(o & 0xFF);
            r += (cr - r) * a >> 8;
            g += (cg - g) * a >> 8;
            b += (cb - b) * a >> 8;
            frame[(ptrdiff_t)y * fpitch + x] = pack(r, g, b);
        }
}

/* ---- INDEX8: the palette and its lookup cube ------------------------------ */

static int cube_index(uint32_t c)
{
    return (int)((c >> (24 - CUBE_BITS) & 0x1F) << (2 * CUBE_BITS) |
                 (c >> (16 - CUBE_BITS) & 0x1F) << CUBE_BITS | (c >> (8 - CUBE_BITS) & 0x1F));
}

/*
 * The palette comes from a picture of what the scene will show: the art
 * (scaled to PAL_W x PAL_ART_H) above the art again under water drawn by
 * the renderer itself (its gradient, caustics, foam on a wavy surface,
 * droplets), so the median cut sees the water's colours in about the
 * share of the screen water takes.  Then each cell of a 32^3 cube gets the
 * entry nearest its centre, and a pixel's index is one lookup.
 */
static rpl_status make_palette(rpl_side_renderer_t *r, const uint32_t *art)
{
    const int pw = PAL_W, ph = PAL_ART_H + PAL_WATER_H;
    uint32_t *pic = malloc((size_t)pw * ph * sizeof *pic);
    uint32_t *dry = malloc((size_t)pw * ph * sizeof *dry);
    float *surf = malloc((size_t)pw * sizeof *surf);
    r->cube = malloc((size_t)1 << (3 * CUBE_BITS));
    if (!pic || !dry || !surf || !r->cube) {
        free(pic);
        free(dry);
        free(surf);
        return side_fail(r, RPL_ENOMEM, "out of memory for the INDEX8 palette");
    }
    for (int y = 0; y < ph; y++) {
        int ay = y < PAL_ART_H ? y : y - PAL_ART_H;
        int sy = (int)(((long long)ay * r->h + r->h / 2) / PAL_ART_H);
        if (y >= PAL_ART_H) /* under water: the art's lower part mostly */
            sy = (int)(((long long)ay * r->h) / (2 * PAL_WATER_H) + r->h / 2);
        sy = clampi(sy, 0, r->h - 1);
        for (int x = 0; x < pw; x++) {
            int sx = clampi((int)(((long long)x * r->w + r->w / 2) / pw), 0, r->w - 1);
            dry[(size_t)y * pw + x] = art[(size_t)sy * r->w + sx] | 0xFF000000u;
        }
    }
    memcpy(pic, dry, (size_t)pw * ph * sizeof *pic);
    for (int x = 0; x < pw; x++)
        surf[x] = (float)(PAL_ART_H + 6 + 4.0 * sin(x * 0.11) + 1.5 * sin(x * 0.37));
    rpl_side_water_t wb = {0, pw, surf, (float)ph, 1};
    anim_t an;
    make_anim(&an, 1.7);
    draw_water(pic, pw, dry, pw, pw, ph, &wb, r->caustic, &an, r->depth, &r->col);
    for (int i = 0; i < 24; i++) {
        rpl_droplet_t dp = {(float)(5 + i * 10.5), (float)(PAL_ART_H - 14 + (i * 7) % 30), 0, 0,
                            (float)(i % 5) * 0.1f, 0.6f, (float)(1.0 + (i % 3))};
        draw_drop(pic, pw, pw, ph, &dp);
    }
    rpl_status st;
    rpl_backdrop_t *bd = rpl_backdrop_create(pic, pw, ph, RPL_INDEX8, &st);
    free(pic);
    free(dry);
    free(surf);
    if (!bd)
        return side_fail(r, st, "cannot make the INDEX8 palette: %s", rpl_strerror(st));
    memcpy(r->palette, rpl_backdrop_palette(bd), sizeof r->palette);
    int colors = rpl_backdrop_colors(bd);
    rpl_backdrop_destroy(bd);
    if (colors < 1)
        colors = 1;

    /* The entries sorted by green: a cell's search starts at its green
     * and walks outwards both ways until the green difference alone
     * exceeds the best distance found (ties go to the lowest index, so the
     * order of the walk does not matter). */
    uint8_t order[256];
    int ng = 0;
    for (int gl = 0; gl < 256; gl++)
        for (int k = 0; k < colors; k++)
            if ((int)(r->palette[k] >> 8 & 0xFF) == gl)
                order[ng++] = (uint8_t)k;
    const int side = 1 << CUBE_BITS;
    for (int gi = 0; gi < side; gi++) {
        /* the cell's centre, in 8-bit levels */
        int cg = (gi << (8 - CUBE_BITS)) + (1 << (7 - CUBE_BITS));
        int start = 0;
        while (start < ng && (int)(r->palette[order[start]] >> 8 & 0xFF) < cg)
            start++;
        for (int ri = 0; ri < side; ri++)
            for (int bi = 0; bi < side; bi++) {
                int cr = (ri << (8 - CUBE_BITS)) + (1 << (7 - CUBE_BITS));
                int cb = (bi << (8 - CUBE_BITS)) + (1 << (7 - CUBE_BITS));
                int best = 0, bestd = 1 << 30;
                for (int dir = 0; dir < 2; dir++)
                    for (int j = dir ? start : start - 1; j >= 0 && j < ng; j += dir ? 1 : -1) {
                        int k = order[j];
                        uint32_t p = r->palette[k];
                        int dg = (int)(p >> 8 & 0xFF) - cg;
                        if (dg * dg > bestd)
                            break;
                        int dr = (int)(p >> 16 & 0xFF) - cr, db = (int)(p & 0xFF) - cb;
                        int dd = dr * dr + dg * dg + db * db;
                        if (dd < bestd || (dd == bestd && k < best)) {
                            bestd = dd;
                            best = k;
                        }
                    }
                r->cube[(ri << (2 * CUBE_BITS)) | (gi << CUBE_BITS) | bi] = (uint8_t)best;
            }
    }
    return RPL_OK;
}

/* ---- the renderer ------------------------------------------------------------- */

rpl_side_renderer_t *rpl_side_renderer_create(const uint32_t *art, int w, int h,
                                              rpl_format format, rpl_status *status)
{
    rpl_status st = RPL_OK;
    rpl_side_renderer_t *r = NULL;
    if (w < RPL_DIM_MIN || w > RPL_DIM_MAX || h < RPL_DIM_MIN || h > RPL_DIM_MAX ||
        rpl_format_bytes(format) == 0 || (format == RPL_INDEX8 && !art)) {
        st = RPL_EINVAL;
        goto out;
    }
    r = calloc(1, sizeof *r);
    if (!r) {
        st = RPL_ENOMEM;
        goto out;
    }
    r->w = w;
    r->h = h;
    r->format = format;
    if (format != RPL_XRGB8888) /* XRGB8888 draws straight into the framebuffer */
        r->frame = malloc((size_t)w * (size_t)h * sizeof *r->frame);
    r->caustic = malloc((size_t)CAUS * CAUS);
    size_t ncol = (size_t)(w > PAL_W ? w : PAL_W);
    r->colmem = malloc(COLUMN_ARRAYS * ncol * sizeof *r->colmem);
    if (format != RPL_XRGB8888)
        r->span = malloc(2 * (size_t)h * sizeof *r->span);
    if ((format != RPL_XRGB8888 && (!r->frame || !r->span)) || !r->caustic || !r->colmem) {
        st = RPL_ENOMEM;
        goto out;
    }
    r->col.ys = r->colmem;
    r->col.cov = r->colmem + ncol;
    r->col.sfx = r->colmem + 2 * ncol;
    r->col.dcol = r->colmem + 3 * ncol;
    r->col.fwq = r->colmem + 4 * ncol;
    r->col.shift = r->colmem + 5 * ncol;
    r->col.gbase = r->colmem + 6 * ncol;
    r->col.rdeep = r->colmem + 7 * ncol;
    make_caustic(r->caustic);
    if (format == RPL_INDEX8)
        st = make_palette(r, art);
out:
    if (st != RPL_OK) {
        rpl_side_renderer_destroy(r);
        r = NULL;
    }
    if (status)
        *status = st;
    return r;
}

void rpl_side_renderer_destroy(rpl_side_renderer_t *r)
{
    if (!r)
        return;
    free(r->frame);
    free(r->caustic);
    free(r->cube);
    free(r->colmem);
    free(r->span);
    free(r);
}

const char *rpl_side_renderer_error(const rpl_side_renderer_t *r)
{
    return r ? r->err : "no side renderer (NULL)";
}

const uint32_t *rpl_side_renderer_palette(const rpl_side_renderer_t *r)
{
    return r && r->format == RPL_INDEX8 ? r->palette : NULL;
}

static int finite_f(float v)
{
    return isfinite(v);
}

/* Checks everything a frame reads before anything is written. */
static rpl_status check_frame(rpl_side_renderer_t *r, const uint32_t *scene, ptrdiff_t spitch,
                              const rpl_side_water_t *waters, int nwaters,
                              const rpl_droplet_t *drops, int ndrops, double time, const void *fb,
                              ptrdiff_t pitch)
{
    int bytes = rpl_format_bytes(r->format);
    if (!scene)
        return side_fail(r, RPL_EINVAL, "no scene (NULL)");
    if (!fb)
        return side_fail(r, RPL_EINVAL, "no framebuffer (NULL)");
    if (spitch < (ptrdiff_t)r->w * 4 || spitch % 4 != 0 || (uintptr_t)scene % 4 != 0)
        return side_fail(r, RPL_EINVAL,
                         "scene pitch %td: must be at least %d bytes and a multiple of 4, the scene aligned",
                         spitch, r->w * 4);
    if (pitch < (ptrdiff_t)r->w * bytes || pitch % bytes != 0 || (uintptr_t)fb % (unsigned)bytes != 0)
        return side_fail(r, RPL_EINVAL,
                         "framebuffer pitch %td: must be at least %d bytes and a multiple of %d, fb aligned",
                         pitch, r->w * bytes, bytes);
    if (!isfinite(time))
        return side_fail(r, RPL_EINVAL, "time is not finite");
    if (nwaters < 0 || (nwaters > 0 && !waters))
        return side_fail(r, RPL_EINVAL, "waters: %d bodies%s", nwaters,
                         nwaters > 0 ? " but the array is NULL" : ", fewer than 0");
    if (ndrops < 0 || (ndrops > 0 && !drops))
        return side_fail(r, RPL_EINVAL, "droplets: %d%s", ndrops,
                         ndrops > 0 ? " but the array is NULL" : ", fewer than 0");
    for (int k = 0; k < nwaters; k++) {
        const rpl_side_water_t *wb = &waters[k];
        if (wb->x1 < wb->x0)
            return side_fail(r, RPL_EINVAL, "water %d: x1 %d is left of x0 %d", k, wb->x1, wb->x0);
        if (wb->x1 > wb->x0 && !wb->surface)
            return side_fail(r, RPL_EINVAL, "water %d: no surface (NULL)", k);
        if (!finite_f(wb->bottom))
            return side_fail(r, RPL_EINVAL, "water %d: bottom is not finite", k);
        /* the columns drawn and their neighbours (for the slope) */
        long long a = wb->x0 > 0 ? wb->x0 : 0, b = wb->x1 < r->w ? wb->x1 : r->w;
        a = a - 4 > wb->x0 ? a - 4 : wb->x0; /* the slope reads four columns out */
        b = b + 4 < wb->x1 ? b + 4 : wb->x1;
        for (long long x = a; x < b; x++)
            if (!finite_f(wb->surface[x - wb->x0]))
                return side_fail(r, RPL_EINVAL, "water %d: surface at x %lld is not finite", k, x);
    }
    for (int k = 0; k < ndrops; k++) {
        const rpl_droplet_t *d = &drops[k];
        if (!finite_f(d->x) || !finite_f(d->y) || !finite_f(d->size) || !finite_f(d->age) ||
            !finite_f(d->life))
            return side_fail(r, RPL_EINVAL, "droplet %d: a value is not finite", k);
    }
    return RPL_OK;
}

/* At most this many bodies have the rows their water covers wholly left
 * out of the copy of the scene (those of any more are copied, then drawn
 * over: the same picture). */
#define SKIP_MAX 8

/* Copies columns x0..x1-1 of a row of the scene into the frame but for
 * those that the water of a body in sk covers wholly in this row (it
 * writes them and never reads them). */
static void copy_row(uint32_t *dst, const uint32_t *src, int x0, int x1, int y,
                     const body_rows_t *sk, int nsk)
{
    int a[SKIP_MAX], b[SKIP_MAX], n = 0;
    for (int k = 0; k < nsk; k++) {
        if (y < sk[k].yfull || y >= sk[k].y1)
            continue;
        int i = n++; /* sorted by their first column */
        while (i > 0 && a[i - 1] > sk[k].x0) {
            a[i] = a[i - 1];
            b[i] = b[i - 1];
            i--;
        }
        a[i] = sk[k].x0;
        b[i] = sk[k].x1;
    }
    int cur = x0;
    for (int i = 0; i < n; i++) {
        int e = a[i] < x1 ? a[i] : x1;
        if (e > cur)
            memcpy(dst + cur, src + cur, (size_t)(e - cur) * sizeof *dst);
        if (b[i] > cur)
            cur = b[i];
    }
    if (cur < x1)
        memcpy(dst + cur, src + cur, (size_t)(x1 - cur) * sizeof *dst);
}

/* RGB565 as the backdrop converts: each channel (v * 31 + 127) / 255 (63
 * for green), the division as (n + 1 + (n >> 8)) >> 8, exact for n below
 * 65535: plain arithmetic, which compilers do on several pixels at once. */
static inline uint16_t pixel_565(uint32_t v)
{
    uint32_t r = (v >> 16 & 0xFF) * 31 + 127, g = (v >> 8 & 0xFF) * 63 + 127, b = (v & 0xFF) * 31 + 127;
    r = (r + 1 + (r >> 8)) >> 8;
    g = (g + 1 + (g >> 8)) >> 8;
    b = (b + 1 + (b >> 8)) >> 8;
    return (uint16_t)(r << 11 | g << 5 | b);
}

/* Pixels x0..x1-1 of a row; in blocks of a fixed count, which a
 * compiler vectorizes even where it would not for a loop of unknown
 * length. */
static void to_565(uint16_t *restrict o, const uint32_t *restrict px, int x0, int x1)
{
    int x = x0;
    for (; x + 16 <= x1; x += 16)
        for (int i = 0; i < 16; i++)
            o[x + i] = pixel_565(px[x + i]);
    for (; x < x1; x++)
        o[x] = pixel_565(px[x]);
}

/* The cube's indices of a block first (vectorized), then the lookups. */
static void to_index8(uint8_t *restrict o, const uint32_t *restrict px, int x0, int x1,
                      const uint8_t *restrict cube)
{
    int x = x0;
    for (; x + 16 <= x1; x += 16) {
        uint32_t idx[16];
        for (int i = 0; i < 16; i++)
            idx[i] = (uint32_t)cube_index(px[x + i]);
        for (int i = 0; i < 16; i++)
            o[x + i] = cube[idx[i]];
    }
    for (; x < x1; x++)
        o[x] = cube[cube_index(px[x])];
}

/*
 * XRGB8888 is drawn straight into the framebuffer: the scene copied but
 * where water will cover it, then the water and the droplets.  The other
 * formats draw into the frame only the columns of each row that water or
 * droplets reach (the span), and convert the rest of the row straight
 * from the scene: every pixel is converted once, and rows without water
 * are never copied.
 */
rpl_status rpl_side_render(rpl_side_renderer_t *r, const uint32_t *scene, ptrdiff_t spitch,
                           const rpl_side_water_t *waters, int nwaters,
                           const rpl_droplet_t *drops, int ndrops, double time, void *fb,
                           ptrdiff_t pitch)
{
    if (!r)
        return RPL_EINVAL;
    rpl_status st = check_frame(r, scene, spitch, waters, nwaters, drops, ndrops, time, fb, pitch);
    if (st != RPL_OK)
        return st;
    r->err[0] = '\0';
    const int w = r->w, h = r->h;
    const ptrdiff_t sp = spitch / 4;
    const int direct = r->format == RPL_XRGB8888;
    uint32_t *frame = direct ? fb : r->frame;
    ptrdiff_t fp = direct ? pitch / 4 : w;
    /* no spans when drawing straight into the frame (r->span is NULL) */
    int32_t *span0 = r->span, *span1 = direct ? r->span : r->span + h;
    if (!direct)
        for (int y = 0; y < h; y++) {
            span0[y] = w;
            span1[y] = 0;
        }
    body_rows_t skip[SKIP_MAX];
    int nskip = 0;
    for (int k = 0; k < nwaters; k++) {
        body_rows_t br;
        body_rows(&waters[k], w, h, &br);
        if (br.y0 >= br.y1)
            continue;
        if (nskip < SKIP_MAX && br.yfull < br.y1)
            skip[nskip++] = br;
        if (!direct)
            for (int y = br.y0; y < br.y1; y++) {
                span0[y] = br.x0 < span0[y] ? br.x0 : span0[y];
                span1[y] = br.x1 > span1[y] ? br.x1 : span1[y];
            }
    }
    if (!direct)
        for (int k = 0; k < ndrops; k++) {
            double rad;
            int alpha, box[4];
            if (!drop_box(&drops[k], w, h, &rad, &alpha, box))
                continue;
            for (int y = box[2]; y <= box[3]; y++) {
                span0[y] = box[0] < span0[y] ? box[0] : span0[y];
                span1[y] = box[1] + 1 > span1[y] ? box[1] + 1 : span1[y];
            }
        }
    for (int y = 0; y < h; y++) {
        int x0 = direct ? 0 : span0[y], x1 = direct ? w : span1[y];
        if (x0 < x1)
            copy_row(frame + y * fp, scene + y * sp, x0, x1, y, skip, nskip);
    }
    anim_t an;
    make_anim(&an, time);
    for (int k = 0; k < nwaters; k++)
        draw_water(frame, fp, scene, sp, w, h, &waters[k], r->caustic, &an, r->depth, &r->col);
    for (int k = 0; k < ndrops; k++)
        draw_drop(frame, fp, w, h, &drops[k]);
    if (direct)
        return RPL_OK;

    for (int y = 0; y < h; y++) {
        unsigned char *row = (unsigned char *)fb + (ptrdiff_t)y * pitch;
        const uint32_t *srow = scene + y * sp, *frow = r->frame + (ptrdiff_t)y * w;
        int x0 = span0[y] < span1[y] ? span0[y] : w, x1 = span0[y] < span1[y] ? span1[y] : w;
        if (r->format == RPL_RGB565) {
            uint16_t *o = (uint16_t *)(void *)row;
            to_565(o, srow, 0, x0);
            to_565(o, frow, x0, x1);
            to_565(o, srow, x1, w);
        } else {
            to_index8(row, srow, 0, x0, r->cube);
            to_index8(row, frow, x0, x1, r->cube);
            to_index8(row, srow, x1, w, r->cube);
        }
    }
    return RPL_OK;
}

/* ---- filling a scene's bodies --------------------------------------------------- */

/* Darkens c by k/256 (k in 0..255), keeping its top byte. */
static uint32_t darken(uint32_t c, int k)
{
    uint32_t m = (uint32_t)(256 - k);
    return (c & 0xFF000000u) | ((c >> 16 & 0xFF) * m >> 8) << 16 | ((c >> 8 & 0xFF) * m >> 8) << 8 |
           ((c & 0xFF) * m >> 8);
}

static int picture_ok(const uint32_t *px, ptrdiff_t pitch, int w, int h)
{
    return px && w > 0 && h > 0 && pitch >= (ptrdiff_t)w * 4 && pitch % 4 == 0 &&
           (uintptr_t)px % 4 == 0;
}

/*
 * The span of pixel row y inside a convex polygon: the pixels whose
 * centres lie in [left, right) of the row's centre line, each edge
 * counted for min(y) <= yc < max(y), so that shapes sharing an edge
 * share no pixel and a w x h rectangle on whole numbers fills exactly
 * w * h pixels.  Returns 0 for an empty row; xa, xb unclipped (may lie
 * outside the picture), as doubles of whole values to stay in range.
 */
static int poly_span(const double *xy, int n, int y, double *xa, double *xb)
{
    double yc = y + 0.5, lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < n; i++) {
        int j = i + 1 < n ? i + 1 : 0;
        double x0 = xy[2 * i], y0 = xy[2 * i + 1], x1 = xy[2 * j], y1 = xy[2 * j + 1];
        if (y0 == y1)
            continue;
        if (!((y0 <= yc && yc < y1) || (y1 <= yc && yc < y0)))
            continue;
        double x = x0 + (x1 - x0) * (yc - y0) / (y1 - y0);
        if (x < lo)
            lo = x;
        if (x > hi)
            hi = x;
    }
    if (!(lo < hi))
        return 0;
    *xa = ceil(lo - 0.5);
    *xb = ceil(hi - 0.5) - 1.0;
    return *xa <= *xb;
}

void rpl_draw_polygon(uint32_t *px, ptrdiff_t pitch, int w, int h, const double *xy, int n,
                      uint32_t fill, uint32_t edge, int shade)
{
    if (!picture_ok(px, pitch, w, h) || !xy || n < 3 || n > 64)
        return;
    double ymin = INFINITY, ymax = -INFINITY;
    for (int i = 0; i < 2 * n; i++)
        if (!isfinite(xy[i]))
            return;
    for (int i = 0; i < n; i++) {
        ymin = fmin(ymin, xy[2 * i + 1]);
        ymax = fmax(ymax, xy[2 * i + 1]);
    }
    shade = clampi(shade, 0, 255);
    int ya = (int)clampd(floor(ymin), 0, h), yb = (int)clampd(ceil(ymax), 0, h);
    double span = ymax - ymin > 0 ? ymax - ymin : 1;
    for (int y = ya; y < yb; y++) {
        double a, b, ua = 0, ub = -1, da = 0, db = -1;
        if (!poly_span(xy, n, y, &a, &b))
            continue;
        int up = poly_span(xy, n, y - 1, &ua, &ub), down = poly_span(xy, n, y + 1, &da, &db);
        int k = (int)(shade * clampd((y + 0.5 - ymin) / span, 0, 1));
        uint32_t c = k ? darken(fill, k) : fill;
        int x0 = (int)clampd(a, 0, w), x1 = (int)clampd(b, -1, w - 1);
        uint32_t *row = (uint32_t *)(void *)((unsigned char *)px + (ptrdiff_t)y * pitch);
        for (int x = x0; x <= x1; x++) {
            int border = x == a || x == b || !up || x < ua || x > ub || !down || x < da || x > db;
            row[x] = edge && border ? edge : c;
        }
    }
}

void rpl_draw_circle(uint32_t *px, ptrdiff_t pitch, int w, int h, double cx, double cy,
                     double r, uint32_t fill, uint32_t edge, int shade)
{
    if (!picture_ok(px, pitch, w, h) || !isfinite(cx) || !isfinite(cy) || !isfinite(r) || !(r > 0))
        return;
    shade = clampi(shade, 0, 255);
    int ya = (int)clampd(floor(cy - r), 0, h), yb = (int)clampd(ceil(cy + r), 0, h);
    int xa = (int)clampd(floor(cx - r), 0, w), xb = (int)clampd(ceil(cx + r), 0, w);
    /* in units of the radius, so that huge values neither overflow nor
     * become inf == inf comparisons */
    double inv = 1.0 / r, step = inv;
    for (int y = ya; y < yb; y++) {
        double dy = (y + 0.5 - cy) * inv;
        int k = (int)(shade * clampd((dy + 1.0) * 0.5, 0, 1));
        uint32_t c = k ? darken(fill, k) : fill;
        uint32_t *row = (uint32_t *)(void *)((unsigned char *)px + (ptrdiff_t)y * pitch);
        for (int x = xa; x < xb; x++) {
            double dx = (x + 0.5 - cx) * inv;
            if (dx * dx + dy * dy > 1.0)
                continue;
            int border = 0;
            if (edge) {
                /* a pixel whose 4-neighbour lies outside is on the rim */
                double up = dy - step, dn = dy + step, lf = dx - step, rt = dx + step;
                border = dx * dx + up * up > 1.0 || dx * dx + dn * dn > 1.0 ||
                         lf * lf + dy * dy > 1.0 || rt * rt + dy * dy > 1.0;
            }
            row[x] = border ? edge : c;
        }
    }
}
