/* core/side_render.c - the side-view water renderer (refraction, depth gradient, caustics, foam, droplets) and the polygon and circle fills for a side scene's bodies. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"

/*
 * Everything is drawn into an XRGB8888 frame kept in the renderer and
 * converted to the framebuffer's format at the end, so that the water is
 * computed once whatever the format, and an INDEX8 frame is the XRGB8888
 * one mapped through a palette made for the scene.
 *
 * The water of a column is shaded from tables: a depth table made per
 * body and frame (colour, opacity, caustic light, refraction and
 * darkening by the depth under the surface), and per column the slope and
 * curvature of the surface (refraction, darkening, foam).  The inner loop
 * is then integer arithmetic on one pixel of the scene.
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

/* One depth's shading, for a body: out = (scene * inva + pre) >> 8, then
 * caustic light caus/256 of the pattern, refraction refr/256 of the
 * slope in pixels, darkening of steep water weighted dk/256, the
 * underwater shimmer's amplitude wob/256 px. */
typedef struct depth_entry {
    int32_t inva;
    int32_t pr, pg, pb;
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
} columns_t;

struct rpl_side_renderer {
    int w, h;
    rpl_format format;
    uint32_t *frame;            /* w*h XRGB8888, what is drawn before converting (not for XRGB8888) */
    uint8_t *caustic;           /* CAUS*CAUS, tileable light network */
    uint8_t *cube;              /* INDEX8: 32^3 nearest palette entries */
    uint32_t palette[256];      /* INDEX8 */
    uint16_t c565[3][256];      /* RGB565: each channel's level, in place */
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

/* Shading by depth for a body whose gradient spans `span` pixels. */
static void make_depths(depth_entry_t *tab, double span)
{
    /* shallow teal to deep blue */
    static const double top[3] = {70, 196, 206}, mid[3] = {28, 120, 168}, deep[3] = {10, 34, 84};
    for (int d = 0; d < DEPTHS; d++) {
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
    int8_t warpv[256];         /* and their up-and-down warp, by column */
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
}

static inline uint32_t pack(int r, int g, int b)
{
    return 0xFF000000u | (uint32_t)clampi(r, 0, 255) << 16 | (uint32_t)clampi(g, 0, 255) << 8 |
           (uint32_t)clampi(b, 0, 255);
}

/* The water of one body over frame (w x h, rows fpitch pixels apart) from
 * the scene (rows spitch pixels apart).  The body's columns are clipped to
 * the frame; every value was checked finite by the caller.  Row by row,
 * for the caches: the columns' surfaces are worked out first. */
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
    int wet = 0;
    for (int x = cx0; x < cx1; x++) {
        double s = sf[x - base];
        if (!(s < bottom)) {
            col->ys[x] = h; /* dry: no row reaches it */
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
        ysum += ys;
        wet++;
    }
    if (!(top < bottom))
        return;
    make_depths(depth, clampd(bottom - top, DEPTH_SPAN_MIN, DEPTH_SPAN_MAX));
    if (ytop < 0)
        ytop = 0;
    /* The colour's depth is taken from the surface just under it and,
     * deeper down, from the body's mean level: a trough or a crest would
     * otherwise shift its column's whole gradient and show as a streak
     * all the way down. */
    int ymean = (int)lrint(ysum / wet);
    for (int x = cx0; x < cx1; x++)
        col->shift[x] = clampi(col->ys[x] - ymean, -64, 64);

    /* local restrict pointers: the frame's stores cannot touch the tables,
     * so the compiler keeps them in registers */
    const int32_t *restrict cys = col->ys, *restrict ccov = col->cov, *restrict csfx = col->sfx;
    const int32_t *restrict cdk = col->dcol, *restrict cfw = col->fwq, *restrict csh = col->shift;
    const depth_entry_t *restrict dep = depth;
    const int16_t *restrict wob = an->wob;
    for (int y = ytop; y < yb; y++) {
        const uint32_t *restrict srow = scene + (ptrdiff_t)y * spitch;
        uint32_t *restrict frow = frame + (ptrdiff_t)y * fpitch;
        int wy = an->warp[y & 255];
        const int8_t *restrict wv = an->warpv;
        int c1x = an->ox1 + wy, c2x = an->ox2 - wy;
        int c1y = y + an->oy1, c2y = (y * 3 >> 2) + an->oy2;
        for (int x = cx0; x < cx1; x++) {
            int d = y - cys[x];
            if (d < 0)
                continue;
            const depth_entry_t *e = &dep[d < DEPTHS ? d : DEPTHS - 1];
            int dg = d < 16 ? d + (csh[x] * d >> 4) : d + csh[x];
            const depth_entry_t *eg = &dep[dg < 0 ? 0 : dg < DEPTHS ? dg : DEPTHS - 1];
            int dx = (csfx[x] * e->refr + wob[(x + 2 * y) & 255] * e->wob) >> 16;
            int sx = x + dx;
            sx = sx < 0 ? 0 : sx >= w ? w - 1 : sx;
            uint32_t src = srow[sx];
            /* every step below keeps the channels >= 0 (blends of values
             * >= 0, darkening by less than all): only 255 needs a clamp */
            int r = (int)(((src >> 16 & 0xFF) * (uint32_t)eg->inva + (uint32_t)eg->pr) >> 8);
            int g = (int)(((src >> 8 & 0xFF) * (uint32_t)eg->inva + (uint32_t)eg->pg) >> 8);
            int b = (int)(((src & 0xFF) * (uint32_t)eg->inva + (uint32_t)eg->pb) >> 8);
            int v = wv[x & 255];
            int c1 = caus[((c1y + v) & (CAUS - 1)) << CAUS_BITS | ((x + c1x) & (CAUS - 1))];
            int c2 = caus[((c2y - v) & (CAUS - 1)) << CAUS_BITS | (((x * 3 >> 2) + c2x) & (CAUS - 1))];
            int add = ((c1 * c2 >> 8) + ((c1 + c2) >> 2)) * eg->caus >> 8;
            r += add * 200 >> 8;
            g += add;
            b += add * 230 >> 8;
            int k = 256 - (cdk[x] * e->dk >> 8);
            r = r * k >> 8;
            g = g * k >> 8;
            b = b * k >> 8;
            if (d < 5) {
                /* foam, fading out over its last pixel */
                int fa = clampi(cfw[x] - d * 256, 0, 256) * 220 >> 8;
                if (d == 0)
                    fa = fa + ((256 - fa) * 60 >> 8); /* the very line is brightest */
                int sp = c1 >> 3;                     /* a little sparkle along it */
                r += (236 + sp - r) * fa >> 8;
                g += (250 + sp - g) * fa >> 8;
                b += (255 - b) * fa >> 8;
                if (d == 0 && ccov[x] < 256) {
                    /* anti-aliased top: the pixel is partly above the surface */
                    uint32_t o = srow[x];
                    int cv = ccov[x];
                    r = ((int)(o >> 16 & 0xFF) * (256 - cv) + (r > 255 ? 255 : r) * cv) >> 8;
                    g = ((int)(o >> 8 & 0xFF) * (256 - cv) + (g > 255 ? 255 : g) * cv) >> 8;
                    b = ((int)(o & 0xFF) * (256 - cv) + (b > 255 ? 255 : b) * cv) >> 8;
                }
            }
            frow[x] = 0xFF000000u | (uint32_t)(r > 255 ? 255 : r) << 16 |
                      (uint32_t)(g > 255 ? 255 : g) << 8 | (uint32_t)(b > 255 ? 255 : b);
        }
    }
}

/* A droplet: a small bright disc, anti-aliased, fading with age. */
static void draw_drop(uint32_t *frame, ptrdiff_t fpitch, int w, int h, const rpl_droplet_t *dp)
{
    double rad = clampd(dp->size, 0.8, DROP_RADIUS_MAX);
    double fade = 1.0;
    if (dp->life > 0)
        fade = clampd(1.0 - dp->age / dp->life, 0.0, 1.0);
    int alpha = (int)lrint(235.0 * sqrt(fade));
    if (alpha <= 0)
        return;
    double cx = dp->x, cy = dp->y;
    if (!(cx > -rad - 2 && cx < w + rad + 2 && cy > -rad - 2 && cy < h + rad + 2))
        return;
    int xa = clampi((int)floor(cx - rad - 1), 0, w - 1), xb = clampi((int)ceil(cx + rad + 1), 0, w - 1);
    int ya = clampi((int)floor(cy - rad - 1), 0, h - 1), yb = clampi((int)ceil(cy + rad + 1), 0, h - 1);
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
    r->colmem = malloc(6 * ncol * sizeof *r->colmem);
    if ((format != RPL_XRGB8888 && !r->frame) || !r->caustic || !r->colmem) {
        st = RPL_ENOMEM;
        goto out;
    }
    r->col.ys = r->colmem;
    r->col.cov = r->colmem + ncol;
    r->col.sfx = r->colmem + 2 * ncol;
    r->col.dcol = r->colmem + 3 * ncol;
    r->col.fwq = r->colmem + 4 * ncol;
    r->col.shift = r->colmem + 5 * ncol;
    make_caustic(r->caustic);
    for (unsigned v = 0; v < 256; v++) {
        r->c565[0][v] = (uint16_t)(((v * 31 + 127) / 255) << 11);
        r->c565[1][v] = (uint16_t)(((v * 63 + 127) / 255) << 5);
        r->c565[2][v] = (uint16_t)((v * 31 + 127) / 255);
    }
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
    /* XRGB8888 is drawn straight into the framebuffer; the others into the
     * frame, then converted */
    uint32_t *frame = r->format == RPL_XRGB8888 ? fb : r->frame;
    ptrdiff_t fp = r->format == RPL_XRGB8888 ? pitch / 4 : w;
    for (int y = 0; y < h; y++)
        memcpy(frame + y * fp, scene + y * sp, (size_t)w * 4);
    anim_t an;
    make_anim(&an, time);
    for (int k = 0; k < nwaters; k++)
        draw_water(frame, fp, scene, sp, w, h, &waters[k], r->caustic, &an, r->depth, &r->col);
    for (int k = 0; k < ndrops; k++)
        draw_drop(frame, fp, w, h, &drops[k]);
    if (r->format == RPL_XRGB8888)
        return RPL_OK;

    const uint32_t *f = r->frame;
    for (int y = 0; y < h; y++, f += w) {
        unsigned char *row = (unsigned char *)fb + (ptrdiff_t)y * pitch;
        if (r->format == RPL_RGB565) {
            uint16_t *o = (uint16_t *)(void *)row;
            for (int x = 0; x < w; x++) {
                uint32_t c = f[x];
                o[x] = (uint16_t)(r->c565[0][c >> 16 & 0xFF] | r->c565[1][c >> 8 & 0xFF] |
                                  r->c565[2][c & 0xFF]);
            }
        } else {
            for (int x = 0; x < w; x++)
                row[x] = r->cube[cube_index(f[x])];
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
