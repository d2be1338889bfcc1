/* mkbackdrop.c - paints ripple's default background (a sunlit mosaic pool floor) and saves it as PNG. */

#define SDL_MAIN_HANDLED
#include <SDL.h>
#include <SDL_image.h>

#include "ripple.h"
#include "ripple_support.h"
#include "tools/paint.h"
#include "tools/save.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Layout is done in "units": the shorter side of the picture always spans
 * UNITS units, so every output size shows the same scene at its own
 * resolution (a wider picture just shows more floor at the sides).
 * The tile grid is centred on the picture: tile (i, j) covers
 * [(i - 0.5) * TILE, (i + 0.5) * TILE) horizontally, y grows downwards.
 */
#define UNITS 480.0
#define TILE 12.0        /* tile pitch */
#define GROUT 1.8        /* grout line width */
#define TILE_ROUND 2.2   /* tile corner radius */
#define MIN_SIDE 16
#define MAX_SIDE 8192
#define MAX_OBJS 64
#define SEED 0x52495050u /* "RIPP" */

/* xorshift32; the state lives with the caller. */
typedef struct {
    uint32_t s;
} Rng;

enum { OBJ_PEBBLE, OBJ_COIN };

typedef struct {
    int kind;
    double cx, cy;     /* centre */
    double a, b;       /* half axes */
    double cs, sn;     /* rotation */
    double k2, p2, k3, p3; /* outline wobble (pebbles) */
    double thick;      /* height above the floor */
    double bound;      /* bounding radius */
    int veined;        /* a quartz vein crosses the pebble */
    double vein;       /* its offset from the centre */
    Rgb albedo;        /* linear */
    uint32_t seed;
} Obj;

typedef struct {
    int w, h;
    double scale;      /* pixels per unit */
    double halfw, halfh; /* half extents in units */
    int bx, by;        /* tile index of the outer border ring */
    double pxunit;     /* one pixel in units */
    int nobj;
    Obj obj[MAX_OBJS];
} Scene;

/* ---- small maths ------------------------------------------------------- */

static Rgb rgb_scale(Rgb c, double k)
{
    return rgb(c.r * k, c.g * k, c.b * k);
}

/* sRGB-ish 0..255 to linear 0..1 (a plain 2.2 gamma is close enough here). */
static Rgb lin(double r, double g, double b)
{
    return rgb(pow(r / 255.0, 2.2), pow(g / 255.0, 2.2), pow(b / 255.0, 2.2));
}

/* ---- deterministic randomness ------------------------------------------ */

static uint32_t rng_next(Rng *r)
{
    uint32_t x = r->s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    r->s = x;
    return x;
}

static double rng_unit(Rng *r)
{
    return (double)(rng_next(r) >> 8) * (1.0 / 16777216.0);
}

static double rng_range(Rng *r, double lo, double hi)
{
    return lo + (hi - lo) * rng_unit(r);
}

static uint32_t mix32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0xa3b195a7u;
    x ^= x >> 15;
    x *= 0x5c4e8f2du;
    x ^= x >> 16;
    x *= 0x9e3779b1u;
    x ^= x >> 15;
    return x;
}

static uint32_t hash2(int i, int j, uint32_t seed)
{
    return mix32((uint32_t)i * 0x8da6b343u ^ mix32((uint32_t)j * 0xd8163841u ^ seed));
}

static double hunit(uint32_t h)
{
    return (double)(h >> 8) * (1.0 / 16777216.0);
}

/* Smooth value noise in [0, 1). */
static double vnoise(double x, double y, uint32_t seed)
{
    double fx = floor(x), fy = floor(y);
    int i = (int)fx, j = (int)fy;
    double u = x - fx, v = y - fy;
    u = u * u * u * (u * (u * 6.0 - 15.0) + 10.0);
    v = v * v * v * (v * (v * 6.0 - 15.0) + 10.0);
    double a = hunit(hash2(i, j, seed)), b = hunit(hash2(i + 1, j, seed));
    double c = hunit(hash2(i, j + 1, seed)), d = hunit(hash2(i + 1, j + 1, seed));
    return mixd(mixd(a, b, u), mixd(c, d, u), v);
}

static double fbm(double x, double y, uint32_t seed, int octaves)
{
    double sum = 0.0, amp = 0.5, norm = 0.0;
    for (int o = 0; o < octaves; o++) {
        sum += amp * vnoise(x, y, seed + (uint32_t)o * 0x1234567u);
        norm += amp;
        amp *= 0.5;
        /* rotate a little between octaves to hide the lattice */
        double nx = 1.6 * x - 1.2 * y, ny = 1.2 * x + 1.6 * y;
        x = nx + 17.3;
        y = ny - 9.1;
    }
    return sum / norm;
}

/* ---- palette (sRGB values, converted where used) ----------------------- */

static Rgb pal_grout(void) { return lin(170, 180, 172); }
static Rgb pal_navy(void) { return lin(22, 44, 104); }
static Rgb pal_navy_dark(void) { return lin(12, 24, 62); }
static Rgb pal_white(void) { return lin(214, 226, 222); }

static Rgb pal_field(double u)
{
    if (u < 0.48)
        return lin(38, 156, 188); /* turquoise */
    if (u < 0.78)
        return lin(70, 180, 200); /* light aqua */
    if (u < 0.96)
        return lin(36, 132, 182); /* deeper blue */
    return lin(176, 214, 214);    /* the odd pale tile */
}

/* ---- the emblem: "RIPPLE" laid in tiles -------------------------------- */

#define GLYPH_ROWS 7

typedef struct {
    char ch;
    int width;
    const char *rows[GLYPH_ROWS];
} Glyph;

static const Glyph glyphs[] = {
    { 'R', 5, { "####.", "#...#", "#...#", "####.", "#.#..", "#..#.", "#...#" } },
    { 'I', 3, { "###", ".#.", ".#.", ".#.", ".#.", ".#.", "###" } },
    { 'P', 5, { "####.", "#...#", "#...#", "####.", "#....", "#....", "#...." } },
    { 'L', 4, { "#...", "#...", "#...", "#...", "#...", "#...", "####" } },
    { 'E', 4, { "####", "#...", "#...", "###.", "#...", "#...", "####" } },
};

static const char word[] = "RIPPLE";

static const Glyph *glyph_for(char ch)
{
    for (size_t k = 0; k < sizeof glyphs / sizeof glyphs[0]; k++)
        if (glyphs[k].ch == ch)
            return &glyphs[k];
    return NULL;
}

static int word_width(void)
{
    int wsum = 0;
    for (const char *p = word; *p; p++)
        wsum += glyph_for(*p)->width + (p[1] ? 1 : 0);
    return wsum;
}

/* Is text cell (col, row) of the word set? Columns from 0 at the left. */
static int word_bit(int col, int row)
{
    if (row < 0 || row >= GLYPH_ROWS || col < 0)
        return 0;
    for (const char *p = word; *p; p++) {
        const Glyph *g = glyph_for(*p);
        if (col < g->width)
            return g->rows[row][col] == '#';
        col -= g->width + 1;
        if (col < 0)
            return 0;
    }
    return 0;
}

/* ---- tiles ------------------------------------------------------------- */

/* The glazed colour of tile (i, j), linear. */
static Rgb tile_colour(const Scene *sc, int i, int j)
{
    int ww = word_width();
    int c0 = -(ww / 2), r0 = -(GLYPH_ROWS / 2);
    int col = i - c0, row = j - r0;
    uint32_t h = hash2(i, j, SEED ^ 0x7111u);
    Rgb c;

    if (col >= -1 && col <= ww && row >= -1 && row <= GLYPH_ROWS) {
        /* the plaque: letters in a sunset gradient, with a drop shadow */
        if (word_bit(col, row)) {
            double t = (double)row / (GLYPH_ROWS - 1);
            c = rgb_mix(lin(255, 222, 60), lin(246, 88, 34), t);
        } else if (word_bit(col - 1, row - 1)) {
            c = pal_navy_dark();
        } else {
            c = pal_navy();
        }
    } else {
        int ring = abs(i) > sc->bx || abs(j) > sc->by ? -1
                 : (sc->bx - abs(i) < sc->by - abs(j) ? sc->bx - abs(i) : sc->by - abs(j));
        if (ring == 0 || ring == 2)
            c = pal_navy();
        else if (ring == 1)
            c = ((i + j) & 1) ? pal_white() : pal_navy();
        else
            c = pal_field(hunit(h));
    }

    /* every tile is fired a little differently */
    uint32_t h2 = mix32(h ^ 0x55aa33ccu), h3 = mix32(h2);
    double bright = 0.86 + 0.26 * hunit(h2);
    double tint = (hunit(h3) - 0.5) * 0.12;
    return rgb(c.r * bright * (1.0 + tint), c.g * bright, c.b * bright * (1.0 - tint));
}

/* Linear albedo (with the tile relief baked in) at point (x, y) in units. */
static Rgb floor_sample(const Scene *sc, double x, double y)
{
    double fi = floor(x / TILE + 0.5), fj = floor(y / TILE + 0.5);
    double fx = x - fi * TILE, fy = y - fj * TILE;
    double a = 0.5 * (TILE - GROUT) - TILE_ROUND;
    double qx = fabs(fx) - a, qy = fabs(fy) - a;
    double out = hypot(qx > 0 ? qx : 0, qy > 0 ? qy : 0);
    double sd = out + (qx > qy ? (qx < 0 ? qx : 0) : (qy < 0 ? qy : 0)) - TILE_ROUND;

    if (sd > 0.0) {
        double n = vnoise(x * 0.7, y * 0.7, SEED ^ 0x6a0u);
        return rgb_scale(pal_grout(), 0.78 + 0.3 * n);
    }

    Rgb c = tile_colour(sc, (int)fi, (int)fj);
    double inside = -sd;
    double edge = 1.0 - smoothstep(0.0, 1.6, inside);
    /* light falls from the top left: a faint slope across the glaze,
     * rounded edges darker, the top-left lip catches a little light */
    double shade = 1.0 - 0.10 * (fx + fy) / TILE - 0.22 * edge;
    shade += 0.20 * edge * clampd(-(fx + fy) / (0.5 * TILE), 0.0, 1.0);
    return rgb_scale(c, shade);
}

/* ---- pebbles and coins ------------------------------------------------- */

/* Normalised radius of (x, y) in object o: < 1 inside. */
static double obj_t(const Obj *o, double x, double y)
{
    double dx = x - o->cx, dy = y - o->cy;
    double lx = dx * o->cs + dy * o->sn, ly = -dx * o->sn + dy * o->cs;
    double nx = lx / o->a, ny = ly / o->b;
    double rn = sqrt(nx * nx + ny * ny);
    if (o->kind == OBJ_COIN)
        return rn;
    double phi = atan2(ny, nx);
    return rn / (1.0 + o->k2 * cos(2.0 * phi + o->p2) + o->k3 * cos(3.0 * phi + o->p3));
}

static double obj_height(const Obj *o, double x, double y)
{
    double t = obj_t(o, x, y);
    if (o->kind == OBJ_PEBBLE)
        return t >= 1.0 ? 0.0 : o->thick * pow(1.0 - t * t, 0.55);
    /* coin: raised rim, a ring and a dot in the middle, rounded edge */
    double rim = smoothstep(0.74, 0.82, t);
    double ring = smoothstep(0.34, 0.40, t) * (1.0 - smoothstep(0.50, 0.56, t));
    double dot = 1.0 - smoothstep(0.12, 0.18, t);
    double edge = 1.0 - smoothstep(0.93, 1.0, t);
    return o->thick * edge * (0.65 + 0.35 * rim + 0.25 * (ring + dot));
}

/* Linear colour of object o at (x, y), already shaded by its own relief. */
static Rgb obj_sample(const Obj *o, double x, double y)
{
    const double e = 0.45;
    const double lx = -0.42, ly = -0.52, lz = 0.74; /* towards the sun */
    double gx = (obj_height(o, x + e, y) - obj_height(o, x - e, y)) / (2 * e);
    double gy = (obj_height(o, x, y + e) - obj_height(o, x, y - e)) / (2 * e);
    double nl = 1.0 / sqrt(gx * gx + gy * gy + 1.0);
    double nx = -gx * nl, ny = -gy * nl, nz = nl;
    double diff = (nx * lx + ny * ly + nz * lz) / lz;
    if (diff < 0)
        diff = 0;
    /* half vector between the sun and a viewer straight above */
    double hx = lx, hy = ly, hz = lz + 1.0;
    double hl = 1.0 / sqrt(hx * hx + hy * hy + hz * hz);
    double nh = clampd((nx * hx + ny * hy + nz * hz) * hl, 0.0, 1.0);

    double dx = x - o->cx, dy = y - o->cy;
    double px = dx * o->cs + dy * o->sn, py = -dx * o->sn + dy * o->cs;

    if (o->kind == OBJ_COIN) {
        double patina = fbm(px * 0.35, py * 0.35, o->seed, 2);
        double shade = 0.30 + 0.78 * diff + 1.6 * pow(nh, 28.0);
        return rgb_scale(o->albedo, shade * (0.80 + 0.35 * patina));
    }

    double tex = fbm(px * 0.28, py * 0.28, o->seed, 3);
    Rgb c = rgb_scale(o->albedo, 0.72 + 0.52 * tex);
    double speck = vnoise(px * 1.1, py * 1.1, o->seed ^ 0xabcdu);
    if (speck > 0.80)
        c = rgb_scale(c, 1.0 + 2.5 * (speck - 0.80));
    else if (speck < 0.12)
        c = rgb_scale(c, 0.6 + 3.3 * speck);
    if (o->veined) {
        double wob = 2.0 * (fbm(px * 0.05, py * 0.05, o->seed ^ 0x77u, 2) - 0.5);
        double d = fabs(px * 0.45 + py * 0.89 + wob * o->b * 0.4 - o->vein * o->b * 0.3);
        c = rgb_mix(c, lin(226, 222, 210), 0.8 * (1.0 - smoothstep(0.7, 1.8, d)));
    }
    double shade = 0.40 + 0.60 * diff + 0.55 * pow(nh, 24.0);
    return rgb_scale(c, shade);
}

/* ---- caustics ----------------------------------------------------------- */

/* Distance (in cells) from (x, y) to the nearest edge of a jittered cell
 * network: thin lines along it look like the light webs a wavy surface
 * focuses onto a pool floor. */
static double cell_edge_distance(double x, double y, uint32_t seed)
{
    double fx = floor(x), fy = floor(y);
    int ci = (int)fx, cj = (int)fy;
    double px = x - fx, py = y - fy;
    double best = 1e9, mx = 0, my = 0;
    int bi = 0, bj = 0;

    for (int dj = -1; dj <= 1; dj++)
        for (int di = -1; di <= 1; di++) {
            uint32_t h = hash2(ci + di, cj + dj, seed);
            double ox = di + 0.15 + 0.7 * hunit(h) - px;
            double oy = dj + 0.15 + 0.7 * hunit(mix32(h)) - py;
            double d2 = ox * ox + oy * oy;
            if (d2 < best) {
                best = d2;
                mx = ox;
                my = oy;
                bi = di;
                bj = dj;
            }
        }

    double edge = 1e9;
    for (int dj = bj - 1; dj <= bj + 1; dj++)
        for (int di = bi - 1; di <= bi + 1; di++) {
            if (di == bi && dj == bj)
                continue;
            uint32_t h = hash2(ci + di, cj + dj, seed);
            double ox = di + 0.15 + 0.7 * hunit(h) - px;
            double oy = dj + 0.15 + 0.7 * hunit(mix32(h)) - py;
            double ex = ox - mx, ey = oy - my;
            double el = sqrt(ex * ex + ey * ey);
            if (el < 1e-9)
                continue;
            double d = (0.5 * (mx + ox) * ex + 0.5 * (my + oy) * ey) / el;
            if (d < edge)
                edge = d;
        }
    return edge;
}

static double caustic_line(double d, double core)
{
    return 0.85 * exp(-(d * d) / (core * core)) + 0.30 * exp(-d / (3.5 * core));
}

/* Caustic light intensity at (x, y) in units, roughly 0..1.5. */
static double caustics(const Scene *sc, double x, double y)
{
    double core = 1.3 > 0.8 * sc->pxunit ? 1.3 : 0.8 * sc->pxunit;
    /* bend the straight cell edges into wavy light lines */
    double wx = x + 30.0 * (fbm(x / 120.0, y / 120.0, SEED ^ 0x1001u, 2) - 0.5)
                  + 11.0 * (fbm(x / 34.0, y / 34.0, SEED ^ 0x1101u, 2) - 0.5);
    double wy = y + 30.0 * (fbm(x / 120.0, y / 120.0, SEED ^ 0x2002u, 2) - 0.5)
                  + 11.0 * (fbm(x / 34.0, y / 34.0, SEED ^ 0x2202u, 2) - 0.5);

    const double c1 = 58.0, c2 = 34.0;
    double d1 = c1 * cell_edge_distance(wx / c1, wy / c1, SEED ^ 0x3003u);
    /* the second, finer web is turned a little against the first */
    double rx = 0.94 * wx - 0.34 * wy + 500.0, ry = 0.34 * wx + 0.94 * wy;
    double d2 = c2 * cell_edge_distance(rx / c2, ry / c2, SEED ^ 0x4004u);

    double along = fbm(x / 22.0, y / 22.0, SEED ^ 0x5005u, 2);
    double patch = 0.45 + 0.9 * fbm(x / 160.0, y / 160.0, SEED ^ 0x6006u, 2);
    double l1 = caustic_line(d1, core * (0.7 + 0.8 * along));
    double l2 = caustic_line(d2, 0.8 * core * (1.3 - 0.6 * along));
    return patch * (0.5 + 0.9 * along) * (l1 + 0.4 * l2);
}

/* ---- scene setup --------------------------------------------------------- */

static int overlaps(const Scene *sc, double x, double y, double r)
{
    /* keep clear of the lettering (the plaque margin may be covered) */
    double hw = 0.5 * word_width() * TILE, hh = 0.5 * GLYPH_ROWS * TILE;
    if (fabs(x) < hw + r + 2.0 && fabs(y) < hh + r + 2.0)
        return 1;
    for (int k = 0; k < sc->nobj; k++) {
        double dx = x - sc->obj[k].cx, dy = y - sc->obj[k].cy;
        double need = r + sc->obj[k].bound + 8.0;
        if (dx * dx + dy * dy < need * need)
            return 1;
    }
    return 0;
}

static void place_objects(Scene *sc)
{
    Rng rng = { SEED };
    double area = sc->halfw * sc->halfh / (320.0 * 240.0);
    int want = (int)(12.0 * area + 0.5);
    if (want > MAX_OBJS)
        want = MAX_OBJS;
    if (want < 4)
        want = 4;

    static const unsigned char pebble_srgb[][3] = {
        { 158, 146, 128 }, { 196, 170, 128 }, { 96, 100, 106 }, { 160, 106, 74 },
        { 218, 212, 200 }, { 70, 64, 62 },    { 182, 160, 140 },
    };
    static const unsigned char coin_srgb[][3] = {
        { 226, 176, 72 }, { 196, 116, 70 }, { 196, 200, 204 },
    };
    const int npeb = (int)(sizeof pebble_srgb / sizeof pebble_srgb[0]);
    const int ncoin = (int)(sizeof coin_srgb / sizeof coin_srgb[0]);

    for (int tries = 0; tries < 4000 && sc->nobj < want; tries++) {
        Obj o;
        memset(&o, 0, sizeof o);
        int idx = sc->nobj;
        o.kind = (idx % 10 == 3 || idx % 10 == 6 || idx % 10 == 9) ? OBJ_COIN : OBJ_PEBBLE;
        o.seed = rng_next(&rng);
        double ang = rng_range(&rng, 0.0, 6.283185307179586);
        o.cs = cos(ang);
        o.sn = sin(ang);
        if (o.kind == OBJ_COIN) {
            o.a = o.b = rng_range(&rng, 8.5, 11.0);
            o.thick = 1.6;
            const unsigned char *s = coin_srgb[(idx / 3) % ncoin];
            o.albedo = lin(s[0], s[1], s[2]);
        } else {
            o.a = rng_range(&rng, 13.0, 28.0);
            o.b = o.a * rng_range(&rng, 0.55, 0.85);
            o.k2 = rng_range(&rng, 0.0, 0.08);
            o.p2 = rng_range(&rng, 0.0, 6.3);
            o.k3 = rng_range(&rng, 0.0, 0.06);
            o.p3 = rng_range(&rng, 0.0, 6.3);
            o.thick = 0.55 * o.b;
            o.veined = rng_unit(&rng) < 0.3;
            o.vein = rng_range(&rng, -1.0, 1.0);
            const unsigned char *s = pebble_srgb[(int)(rng_unit(&rng) * npeb) % npeb];
            o.albedo = lin(s[0], s[1], s[2]);
        }
        o.bound = (o.a > o.b ? o.a : o.b) * (1.0 + o.k2 + o.k3) + 1.0;
        double m = o.bound + 6.0;
        if (sc->halfw <= m || sc->halfh <= m)
            continue;
        o.cx = rng_range(&rng, -sc->halfw + m, sc->halfw - m);
        o.cy = rng_range(&rng, -sc->halfh + m, sc->halfh - m);
        if (overlaps(sc, o.cx, o.cy, o.bound))
            continue;
        sc->obj[sc->nobj++] = o;
    }
}

static void scene_init(Scene *sc, int w, int h)
{
    memset(sc, 0, sizeof *sc);
    sc->w = w;
    sc->h = h;
    sc->scale = (w < h ? w : h) / UNITS;
    sc->pxunit = 1.0 / sc->scale;
    sc->halfw = 0.5 * w * sc->pxunit;
    sc->halfh = 0.5 * h * sc->pxunit;
    /* the border sits one whole tile in from the outermost whole tile */
    sc->bx = (int)floor(sc->halfw / TILE - 0.5) - 1;
    sc->by = (int)floor(sc->halfh / TILE - 0.5) - 1;
    place_objects(sc);
}

/* ---- rendering ----------------------------------------------------------- */

/* Surface albedo at (x, y): the topmost object there, else the floor. */
static Rgb surface_sample(const Scene *sc, double x, double y)
{
    for (int k = sc->nobj - 1; k >= 0; k--) {
        const Obj *o = &sc->obj[k];
        double dx = x - o->cx, dy = y - o->cy;
        if (dx * dx + dy * dy < o->bound * o->bound && obj_t(o, x, y) < 1.0)
            return obj_sample(o, x, y);
    }
    return floor_sample(sc, x, y);
}

/* Direct sunlight reaching (x, y) (shadows), and ambient (contact darkening). */
static void occlusion(const Scene *sc, double x, double y, double *sun, double *amb)
{
    *sun = 1.0;
    *amb = 1.0;
    for (int k = 0; k < sc->nobj; k++) {
        const Obj *o = &sc->obj[k];
        double sx = 1.0 * o->thick + 1.5, sy = 1.25 * o->thick + 2.0;
        double reach = o->bound * 1.6 + sx + sy;
        double dx = x - o->cx, dy = y - o->cy;
        if (dx * dx + dy * dy > reach * reach)
            continue;
        double ts = obj_t(o, x - sx, y - sy);
        *sun *= 1.0 - 0.9 * (1.0 - smoothstep(0.8, 1.25, ts));
        double t0 = obj_t(o, x, y);
        if (t0 >= 1.0)
            *amb *= 1.0 - 0.45 * (1.0 - smoothstep(1.0, 1.5, t0));
    }
}

static double to_srgb_byte(double v)
{
    double s = 255.0 * pow(v > 0 ? v : 0, 1.0 / 2.2);
    /* a soft shoulder keeps highlights below ~228 so the demo can
     * still brighten slopes without everything clipping */
    const double knee = 190.0, top = 228.0;
    if (s > knee)
        s = knee + (top - knee) * tanh((s - knee) / (top - knee));
    return s;
}

static void render(const Scene *sc, SDL_Surface *surf)
{
    long long px = (long long)sc->w * sc->h;
    int ss = px <= 4000000LL ? 4 : px <= 16000000LL ? 3 : 2;
    double inv = 1.0 / (ss * ss);
    const Rgb water = lin(218, 240, 248);  /* light lost on the way down and up */
    const Rgb haze = lin(22, 52, 64);      /* light scattered by the water */
    double diag = sqrt(sc->halfw * sc->halfw + sc->halfh * sc->halfh);

    for (int py = 0; py < sc->h; py++) {
        Uint32 *row = (Uint32 *)((Uint8 *)surf->pixels + (size_t)py * (size_t)surf->pitch);
        for (int pxl = 0; pxl < sc->w; pxl++) {
            Rgb acc = { 0, 0, 0 };
            for (int sy = 0; sy < ss; sy++)
                for (int sx = 0; sx < ss; sx++) {
                    double x = (pxl + (sx + 0.5) / ss - 0.5 * sc->w) * sc->pxunit;
                    double y = (py + (sy + 0.5) / ss - 0.5 * sc->h) * sc->pxunit;
                    Rgb c = surface_sample(sc, x, y);
                    acc.r += c.r;
                    acc.g += c.g;
                    acc.b += c.b;
                }
            acc = rgb_scale(acc, inv);

            double x = (pxl + 0.5 - 0.5 * sc->w) * sc->pxunit;
            double y = (py + 0.5 - 0.5 * sc->h) * sc->pxunit;
            double sun, amb;
            occlusion(sc, x, y, &sun, &amb);
            double caus = caustics(sc, x, y);
            double light = 0.34 * amb + sun * (0.40 + 1.25 * caus);

            /* the brightest folds of light bleach towards white */
            double glint = 0.05 * sun * caus * caus;

            double r = acc.r * light * water.r + haze.r + glint * 0.8;
            double g = acc.g * light * water.g + haze.g + glint;
            double b = acc.b * light * water.b + haze.b + glint;

            double rr = sqrt(x * x + y * y) / diag;
            double vig = 1.0 - 0.42 * pow(rr, 2.4);
            Uint8 R = (Uint8)clampd(to_srgb_byte(r * vig) + 0.5, 0, 255);
            Uint8 G = (Uint8)clampd(to_srgb_byte(g * vig) + 0.5, 0, 255);
            Uint8 B = (Uint8)clampd(to_srgb_byte(b * vig) + 0.5, 0, 255);
            row[pxl] = SDL_MapRGB(surf->format, R, G, B);
        }
    }
}

/* ---- output --------------------------------------------------------------- */

static int parse_side(const char *s, int *out)
{
    long long v;
    if (rpl_parse_int(s, MIN_SIDE, MAX_SIDE, &v) != RPL_OK)
        return 0;
    *out = (int)v;
    return 1;
}

int main(int argc, char **argv)
{
    int w = 640, h = 480;
    if ((argc != 2 && argc != 4) || argv[1][0] == '\0') {
        fprintf(stderr, "usage: mkbackdrop OUT.png [W H]  (default 640 480)\n");
        return 2;
    }
    if (argc == 4 && (!parse_side(argv[2], &w) || !parse_side(argv[3], &h))) {
        fprintf(stderr, "mkbackdrop: bad size '%s %s': W and H must be whole numbers from %d to %d\n",
                argv[2], argv[3], MIN_SIDE, MAX_SIDE);
        return 2;
    }

    SDL_SetMainReady();
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_RGB888);
    if (!surf) {
        fprintf(stderr, "mkbackdrop: cannot create a %dx%d surface: %s\n", w, h, SDL_GetError());
        return 1;
    }
    Scene *sc = malloc(sizeof *sc);
    if (!sc) {
        fprintf(stderr, "mkbackdrop: out of memory\n");
        SDL_FreeSurface(surf);
        return 1;
    }
    scene_init(sc, w, h);
    render(sc, surf);
    int ok = tool_save_png(surf, argv[1], "mkbackdrop");
    free(sc);
    SDL_FreeSurface(surf);
    IMG_Quit();
    SDL_Quit();
    return ok ? 0 : 1;
}
