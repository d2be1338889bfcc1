/* core/side/side_caustic.c - the side view's caustics: two tileable light networks, a looping animation of their light baked frame by frame when first shown, and the shimmer that goes with it. */
#include <math.h>
#include <string.h>

#include "core/base/base.h"
#include "core/base/dmath.h"
#include "core/side/side_renderer.h"

/* ---- the networks ----------------------------------------------------------- */

/*
 * A tileable Voronoi network: one jittered point per grid cell, and at
 * each texel the distances to the nearest (F1) and the second nearest
 * (F2) point, wrapping around.  F2 - F1 is small along the cells'
 * borders; light gathers there, so the pattern is bright on thin lines
 * that fade into dark cells, as sunlight focused by waves looks on a floor.
 */
/* floor(sqrt(v)): the square root in double is correctly rounded, and
 * checked against the squares either side all the same. */
static uint32_t isqrt(uint32_t v)
{
    uint64_t r = (uint64_t)sqrt((double)v);
    while (r * r > v)
        r--;
    while ((r + 1) * (r + 1) <= v)
        r++;
    return (uint32_t)r;
}

/* All integer (positions in 1/16 px) but for the small table of the
 * brightness by F2 - F1: the pattern is the same bytes everywhere and
 * cheap to make even where floating point is slow.  `grid` cells across,
 * 2..CAUS/4. */
static void make_network(uint8_t *out, int grid, uint32_t seed)
{
    enum { SUB = 16, SPAN = CAUS * SUB, LEVELS = 512, GRID_MAX = CAUS / 4 };
    int px[GRID_MAX][GRID_MAX], py[GRID_MAX][GRID_MAX];
    uint32_t s = seed;
    for (int j = 0; j < grid; j++)
        for (int i = 0; i < grid; i++) {
            /* jittered within the middle 70% of its cell */
            int x0 = i * SPAN / grid, cw = (i + 1) * SPAN / grid - x0;
            int y0 = j * SPAN / grid, ch = (j + 1) * SPAN / grid - y0;
            px[j][i] = x0 + cw * 15 / 100 + (int)(rpl_xorshift32(&s) % (uint32_t)(cw * 70 / 100));
            py[j][i] = y0 + ch * 15 / 100 + (int)(rpl_xorshift32(&s) % (uint32_t)(ch * 70 / 100));
        }
    /* brightness by F2 - F1 in 1/16 px: bright thin lines along the
     * borders, and a wider soft glow about them */
    uint8_t lut[LEVELS];
    for (int k = 0; k < LEVELS; k++) {
        double dd = (double)k / SUB;
        double e = clampd(1.0 - dd / 9.0, 0.0, 1.0);
        double g = clampd(1.0 - dd / 26.0, 0.0, 1.0);
        double v = rpl_pow(e, 3.5) * 0.8 + g * g * g * 0.2;
        lut[k] = (uint8_t)lrint(clampd(v, 0.0, 1.0) * 255.0);
    }
    for (int y = 0; y < CAUS; y++)
        for (int x = 0; x < CAUS; x++) {
            int cx = x * SUB + SUB / 2, cy = y * SUB + SUB / 2;
            int ci = cx * grid / SPAN, cj = cy * grid / SPAN;
            uint32_t f1 = UINT32_MAX, f2 = UINT32_MAX; /* squared */
            for (int dj = -1; dj <= 1; dj++)
                for (int di = -1; di <= 1; di++) {
                    int i = ci + di, j = cj + dj;
                    /* the neighbour across the wrap, moved next to this texel */
                    int ox = i < 0 ? -SPAN : i >= grid ? SPAN : 0;
                    int oy = j < 0 ? -SPAN : j >= grid ? SPAN : 0;
                    i = (i + grid) % grid;
                    j = (j + grid) % grid;
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

/* The two layers: a fine network, and a coarser one (cells of about 43
 * px rather than 32) from another seed, so that where they cross does
 * not repeat within a cell or two. */
void rpl_side_make_caustic(uint8_t *out)
{
    make_network(out, CAUS_GRID, SEED);
    make_network(out + CAUS * CAUS, CAUS_GRID2, SEED ^ 0x9E3779B9u);
    /* the loop's light where the layers are a1 and a2 (bake): their
     * product plus a quarter of their sum, at most 254 + 127 = 381,
     * times 171/256 to keep it under 256 */
    uint8_t *mix = out + 2 * CAUS * CAUS;
    for (unsigned a1 = 0; a1 < 256; a1++)
        for (unsigned a2 = 0; a2 < 256; a2++)
            mix[a1 << 8 | a2] = (uint8_t)(((a1 * a2 >> 8) + ((a1 + a2) >> 2)) * 171 >> 8);
}

/* x wrapped into 0..CAUS-1. */
static inline int u_wrap(int x)
{
    return x & (CAUS - 1);
}

/* ---- the loop ---------------------------------------------------------------- */

/*
 * Frame k of the loop, at phase ph = 2 pi k / CAUS_FRAMES: each layer
 * moved along a small circle (the two turning opposite ways, so that
 * their crossings drift and boil), warped sideways by row and up and
 * down by column with sines whose phases turn a whole number of times a
 * loop, and the light where both layers are bright, as before: their
 * product plus a quarter of their sum, scaled into 0..255.  Every value
 * depends on k alone, so the loop closes without a seam; the shimmer of
 * the scene seen through the water is made for the same phase.
 */
static void bake(rpl_side_renderer_t *r, int k)
{
    const double tau = 6.283185307179586, ph = tau * k / CAUS_FRAMES;
    const uint8_t *c1 = r->caustic, *c2 = r->caustic + CAUS * CAUS;
    const int o1x = (int)lrint(6.0 * rpl_cos(ph)), o1y = (int)lrint(6.0 * rpl_sin(ph));
    const int o2x = (int)lrint(7.0 * rpl_cos(2.0 - ph)), o2y = (int)lrint(7.0 * rpl_sin(2.0 - ph));
    int warp[CAUS], warpv[CAUS];
    int16_t *wob = r->shimmer + (size_t)k * 256;
    for (int i = 0; i < CAUS; i++) {
        double a = tau * i / CAUS;
        warp[i] = (int)lrint(6.0 * rpl_sin(2.0 * a + ph) + 2.5 * rpl_sin(5.0 * a - ph));
        warpv[i] = (int)lrint(5.0 * rpl_sin(3.0 * a - ph) + 2.0 * rpl_sin(7.0 * a + ph));
        wob[i] = (int16_t)lrint(256.0 * (0.6 * rpl_sin(3.0 * a + ph) + 0.4 * rpl_sin(7.0 * a - 2.0 * ph)));
    }
    /*
     * Texel (u, v) reads layer 1 at row v + o1y + warpv[u], column
     * u + o1x + warp[v], both wrapping: as an index into the layer,
     * (rowpart + colpart) & 0xFFFF with the row part (o1y + warpv[u]) << 8
     * plus v << 8 (its wrap is the mask's) and the column part wrapping
     * once along the row, at u = 256 - ((o1x + warp[v]) & 255): so a row
     * is at most three runs, each an add and a mask per layer.  The light
     * of a pair of values is a table made with the layers.
     */
    uint32_t p1[CAUS], p2[CAUS];
    for (int u = 0; u < CAUS; u++) {
        p1[u] = ((unsigned)(o1y + warpv[u]) & (CAUS - 1)) << CAUS_BITS | (unsigned)u;
        p2[u] = ((unsigned)(o2y - warpv[u]) & (CAUS - 1)) << CAUS_BITS | (unsigned)u;
    }
    const uint8_t *mix = r->caustic + 2 * CAUS * CAUS;
    uint8_t *frame = r->loop + (size_t)k * CAUS * CAUS_ROW;
    for (int v = 0; v < CAUS; v++) {
        uint8_t *row = frame + (size_t)v * CAUS_ROW;
        const unsigned k1 = (unsigned)(u_wrap(o1x + warp[v])), k2 = (unsigned)(u_wrap(o2x - warp[v]));
        const unsigned e1 = CAUS - k1, e2 = CAUS - k2; /* where each column part wraps */
        const unsigned vv = (unsigned)v << CAUS_BITS;
        unsigned cut[4] = { 0, e1 < e2 ? e1 : e2, e1 < e2 ? e2 : e1, CAUS };
        for (int part = 0; part < 3; part++) {
            const unsigned b1 = vv + k1 - (cut[part] >= e1 ? CAUS : 0);
            const unsigned b2 = vv + k2 - (cut[part] >= e2 ? CAUS : 0);
            for (unsigned u = cut[part]; u < cut[part + 1]; u++) {
                unsigned a1 = c1[(p1[u] + b1) & 0xFFFF], a2 = c2[(p2[u] + b2) & 0xFFFF];
                row[u] = mix[a1 << 8 | a2];
            }
        }
        memcpy(row + CAUS, row, TABLE_PAD);
    }
    r->baked[k] = 1;
}

/* Every frame of the loop not made yet, now (the renderer's bake). */
void rpl_side_bake_loop(rpl_side_renderer_t *r)
{
    for (int k = 0; k < CAUS_FRAMES; k++)
        if (!r->baked[k])
            bake(r, k);
}

/*
 * The caustics step CAUS_RATE times a second, not every frame: frame
 * k = step % CAUS_FRAMES of the loop, the whole drifting slowly (4 px a
 * second to the left, 2 down) by whole pixels.  Steps are counted from time 0
 * and wrap every CAUS_WRAP, where the loop and the drift both start
 * again, so that long running times keep their precision; the step is
 * taken a hair late so that a time on a step's boundary, computed as a
 * sum of frame times, falls on it.
 */
void rpl_side_make_anim(rpl_side_renderer_t *r, anim_t *a, double time)
{
    const double wrap = (double)CAUS_WRAP / CAUS_RATE;
    double t = fmod(time, wrap);
    if (t < 0)
        t += wrap;
    long step = (long)floor(t * CAUS_RATE + 1e-6) % CAUS_WRAP;
    int k = (int)(step % CAUS_FRAMES);
    if (!r->baked[k])
        bake(r, k);
    a->step = step;
    a->light = r->loop + (size_t)k * CAUS * CAUS_ROW;
    a->lx = (int)(step / 5 % CAUS);
    a->ly = (int)(CAUS - 1 - step / 10 % CAUS);
    a->wob = r->shimmer + (size_t)k * 256;
}
