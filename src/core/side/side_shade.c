/* core/side/side_shade.c - shading side-view water: the depth table, the water's columns and pixels, droplets. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/base.h"
#include "core/base/dmath.h"
#include "core/side/side_renderer.h"

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

/* The refraction's weight falls by REFR_STEP/256 a pixel down to 1 at
 * REFR_DEPTH under the surface. */
#define REFR_DEPTH 60
#define REFR_STEP 17

/* Shading by depth for a body whose gradient spans `span` pixels. */
static void make_depths(depth_entry_t *tab, double span)
{
    /* shallow teal to deep blue */
    static const double top[3] = {70, 196, 206}, mid[3] = {28, 120, 168}, deep[3] = {10, 34, 84};
    for (int d = 0; d < DEPTHS; d++) {
        /* past the gradient's span and the refraction's every
         * entry is the one before: copied rather than worked out again
         * with pow() (most of the table, every frame) */
        if (d > REFR_DEPTH && (d - 1 + 0.5) / span >= 1.0) {
            tab[d] = tab[d - 1];
            continue;
        }
        double t = clampd((d + 0.5) / span, 0.0, 1.0);
        double c[3];
        for (int k = 0; k < 3; k++)
            c[k] = t < 0.45 ? top[k] + (mid[k] - top[k]) * (t / 0.45)
                            : mid[k] + (deep[k] - mid[k]) * ((t - 0.45) / 0.55);
        double a = 0.32 + 0.56 * rpl_pow(t, 0.65);
        double u = 1.0 - t;
        depth_entry_t *e = &tab[d];
        e->inva = (int32_t)lrint((1.0 - a) * 256.0);
        e->pr = (int32_t)lrint(c[0] * a * 256.0);
        e->pg = (int32_t)lrint(c[1] * a * 256.0);
        e->pb = (int32_t)lrint(c[2] * a * 256.0);
        e->prb = (uint32_t)e->pr << 16 | (uint32_t)e->pb;
        /* the loop's light is 2/3 of the layers' product and sum (side_caustic.c) */
        e->caus = (int32_t)lrint((0.05 + 0.45 * u * u * u) * 384.0);
        /* the refraction is strongest just under the surface and settles
         * deeper, where it would smear the scene into streaks: by the same
         * step each pixel down (REFR_STEP, so that a row's weights follow
         * from the row above's by an add) */
        e->refr = 256 + REFR_STEP * (d < REFR_DEPTH ? REFR_DEPTH - d : 0);
        double f = clampd(1.0 - d / 32.0, 0.0, 1.0);
        e->dk = (int32_t)lrint(256.0 * f * f);
        e->wob = (int32_t)lrint(256.0 * 1.6 * clampd(d / 24.0, 0.0, 1.0));
    }
}

/* Whether the kernels' and the blocks' 16-bit arithmetic holds for every
 * entry of a depth table (it does for make_depths' colours; checked so
 * that other colours could never overflow silently). */
static int fast_ok(const depth_entry_t *tab)
{
    for (int d = 0; d < DEPTHS; d++) {
        const depth_entry_t *e = &tab[d];
        int32_t pm = e->pr > e->pg ? e->pr : e->pg;
        pm = pm > e->pb ? pm : e->pb;
        if (e->inva < 0 || e->inva > 256 || e->pr < 0 || e->pg < 0 || e->pb < 0 ||
            255 * e->inva + pm > 65535 || e->caus < 0 || e->caus > RPL_SIDE_CW_MAX || e->dk < 0 ||
            e->dk > 256 || e->refr < 0 || e->refr > 2047 || e->wob < 0 || e->wob > 511)
            return 0;
    }
    return 1;
}

/* The depth set of a gradient `span` pixels deep (rounded to a whole
 * pixel: a body's top bobs by fractions of one from frame to frame), made
 * if the cache lacks it. */
static const depth_set_t *depth_set(depth_cache_t *dc, double span)
{
    const int key = (int)lrint(clampd(span, DEPTH_SPAN_MIN, DEPTH_SPAN_MAX));
    depth_set_t *ds = &dc->set[0];
    for (int i = 0; i < DEPTH_SETS; i++) {
        if (dc->set[i].span == key) {
            ds = &dc->set[i];
            ds->used = ++dc->clock;
            return ds;
        }
        if (dc->set[i].used < ds->used)
            ds = &dc->set[i];
    }
    ds->span = key;
    ds->used = ++dc->clock;
    make_depths(ds->e, key);
    ds->dmid = deep_from(ds->e, 0);
    ds->dstart = deep_from(ds->e, 1);
    ds->refr_max = 0;
    for (int d = ds->dmid; d < DEPTHS; d++)
        ds->refr_max = abs(ds->e[d].refr) > ds->refr_max ? abs(ds->e[d].refr) : ds->refr_max;
    ds->fast = fast_ok(ds->e);
    for (int d = 0; d < DEPTHS; d++) {
        const depth_entry_t *e = &ds->e[d];
        ds->te[d] = (uint32_t)e->refr | (uint32_t)e->wob << 11 | (uint32_t)e->dk << 20;
        ds->tbg[d] = (uint32_t)e->pb | (uint32_t)e->pg << 16;
        ds->tr[d] = (uint32_t)e->pr | (uint32_t)e->caus << 16;
        ds->tia[d] = (uint32_t)e->inva;
    }
    return ds;
}

/* ---- drawing the water -------------------------------------------------- */

/*
 * Deep water whose gradient varies by column is shaded in blocks of
 * BLOCK pixels: first what each pixel reads is gathered (the scene's
 * pixel through the refraction, the light, the gradient's entry), then
 * one loop of a fixed count does the arithmetic, which compilers turn
 * into vector code.  It is the arithmetic of the general path
 * (water_pixel) for a pixel without foam, the same values to the bit, in
 * 16 bits: scene * inva + pre stays under 65536 (checked by fast_ok), the
 * light at most 255 * caus / 256 with caus <= RPL_SIDE_CW_MAX, so 191,
 * and 191 * 230 fits too; a channel then stays under 512, and darkening
 * it by k/256 (k <= 256) is the high half of (c << 7) * (k << 1), both
 * factors under 65536 (and no change for k = 256).
 */
typedef struct shade_in {
    uint32_t src[BLOCK];                 /* the scene's pixel */
    uint8_t light[BLOCK];                /* the caustics' */
    uint16_t inva[BLOCK], pr[BLOCK], pg[BLOCK], pb[BLOCK], caus[BLOCK]; /* the gradient's entry */
    uint16_t k[BLOCK];                   /* 256 less the darkening of steep water */
} shade_in_t;

static void shade_block(uint32_t *restrict out, const shade_in_t *restrict in)
{
    for (int i = 0; i < BLOCK; i++) {
        uint32_t src = in->src[i];
        uint16_t r = (uint16_t)(src >> 16 & 0xFF), g = (uint16_t)(src >> 8 & 0xFF);
        uint16_t b = (uint16_t)(src & 0xFF), ia = in->inva[i];
        uint16_t add = (uint16_t)((uint16_t)(in->light[i] * in->caus[i]) >> 8);
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
    const anim_t *an;
    const int32_t *wdeep;   /* the shimmer in deep water by (x + 2y) & 255, periodic */
    int w;
    int fast;               /* fast_ok of the depth table */
    /* the row */
    int y;
    const uint32_t *srow;   /* the scene's */
    uint32_t *frow;         /* the frame's */
    const uint8_t *lrow;    /* the caustics' light by (x + lx) & 255, periodic */
    rpl_side_shallow_job_t *job; /* the kernels' job for the body (fast) */
    const rpl_kernels_t *kern;
    int yfoam;              /* no foam on rows under it (the lowest surface + 4) */
} water_ctx_t;

/* One pixel of water at depth d >= 0 under its surface, column x, with
 * its depth table's entries e (the refraction and darkening) and eg (the
 * gradient's): the kernels' rule (kernels.h) in plain int arithmetic,
 * whatever the entries; `foam` is d < 5, a constant where the caller
 * knows it. */
#if defined(__GNUC__)
__attribute__((always_inline)) /* so that `foam` is a constant in each caller */
#endif
static inline uint32_t shade_pixel(const water_ctx_t *c, int x, int d, const depth_entry_t *e,
                                   const depth_entry_t *eg, int foam)
{
    const columns_t *col = c->col;
    const int y = c->y, w = c->w;
    int dx = (col->sfx[x] * e->refr + c->an->wob[(x + 2 * y) & 255] * e->wob) >> 16;
    int sx = x + dx;
    sx = sx < 0 ? 0 : sx >= w ? w - 1 : sx;
    uint32_t src = c->srow[sx];
    /* every step below keeps the channels >= 0 (blends of values
     * >= 0, darkening by less than all): only 255 needs a clamp */
    int r = (int)(((src >> 16 & 0xFF) * (uint32_t)eg->inva + (uint32_t)eg->pr) >> 8);
    int g = (int)(((src >> 8 & 0xFF) * (uint32_t)eg->inva + (uint32_t)eg->pg) >> 8);
    int b = (int)(((src & 0xFF) * (uint32_t)eg->inva + (uint32_t)eg->pb) >> 8);
    int light = c->lrow[(x + c->an->lx) & 255];
    int add = light * eg->caus >> 8;
    r += add * 200 >> 8;
    g += add;
    b += add * 230 >> 8;
    int k = 256 - (col->dcol[x] * e->dk >> 8);
    r = r * k >> 8;
    g = g * k >> 8;
    b = b * k >> 8;
    if (foam) {
        /* foam, fading out over its last pixel, over the water clamped */
        int fa = clampi(col->fwq[x] - d * 256, 0, 256) * 220 >> 8;
        if (d == 0)
            fa = fa + ((256 - fa) * 60 >> 8); /* the very line is brightest */
        int sp = light >> 3;                  /* a little sparkle along it */
        r = ((r > 255 ? 255 : r) * (256 - fa) + (236 + sp > 255 ? 255 : 236 + sp) * fa) >> 8;
        g = ((g > 255 ? 255 : g) * (256 - fa) + (250 + sp > 255 ? 255 : 250 + sp) * fa) >> 8;
        b = ((b > 255 ? 255 : b) * (256 - fa) + 255 * fa) >> 8;
        if (d == 0) {
            /* anti-aliased top: the pixel is partly above the surface */
            uint32_t o = c->srow[x];
            int cv = col->cov[x];
            r = ((int)(o >> 16 & 0xFF) * (256 - cv) + r * cv) >> 8;
            g = ((int)(o >> 8 & 0xFF) * (256 - cv) + g * cv) >> 8;
            b = ((int)(o & 0xFF) * (256 - cv) + b * cv) >> 8;
        }
    }
    return 0xFF000000u | (uint32_t)(r > 255 ? 255 : r) << 16 | (uint32_t)(g > 255 ? 255 : g) << 8 |
           (uint32_t)(b > 255 ? 255 : b);
}

/* The general path, whatever the depth d >= 0. */
static inline uint32_t water_pixel(const water_ctx_t *c, int x, int d)
{
    const depth_entry_t *dep = c->dep;
    const depth_entry_t *e = &dep[d < DEPTHS ? d : DEPTHS - 1];
    int dg = d < 16 ? d + (c->col->shift[x] * d >> 4) : c->y - c->col->gbase[x];
    const depth_entry_t *eg = &dep[dg < 0 ? 0 : dg < DEPTHS ? dg : DEPTHS - 1];
    if (d < 5)
        return shade_pixel(c, x, d, e, eg, 1);
    return shade_pixel(c, x, d, e, eg, 0);
}

/* Columns x0..x1-1 of a row, whatever their depth (above the surface
 * left alone): by the kernels (with a fast depth table), the foam's only
 * on rows that have any; else one by one. */
static void shallow_run(const water_ctx_t *c, int x0, int x1)
{
    if (x0 >= x1)
        return;
    if (!c->fast) {
        const int32_t *ys = c->col->ys;
        for (int x = x0; x < x1; x++) {
            int d = c->y - ys[x];
            if (d >= 0)
                c->frow[x] = water_pixel(c, x, d);
        }
        return;
    }
    c->kern->side_shallow(c->job, x0, x1);
    if (c->y <= c->yfoam)
        c->kern->side_foam(c->job, x0, x1);
}

/* Columns x0..x1-1 of a row that is deep water in all of them (see
 * deep_from), the gradient's entry by column; the refraction's weight by
 * depth (by_depth, for water deep from deep_from(, 0) on) or the
 * deepest's (from deep_from(, 1) on); the scene read without clamping,
 * so the columns must lie within the refraction's reach of the frame's
 * sides.  Needs c->fast. */
static void deep_run(const water_ctx_t *c, int x0, int x1, int by_depth)
{
    const uint32_t *restrict srow = c->srow;
    const uint8_t *restrict lrow = c->lrow;
    const int32_t *restrict wd = c->wdeep + (2 * c->y & 255), *restrict crd = c->col->rdeep;
    const int32_t *restrict gbase = c->col->gbase, *restrict cys = c->col->ys;
    const int32_t *restrict csfx = c->col->sfx;
    const depth_entry_t *restrict dep = c->dep;
    const int y = c->y, lx = c->an->lx;
    shade_in_t in;
    for (int i = 0; i < BLOCK; i++)
        in.k[i] = 256;
    int x = x0;
    for (; x + BLOCK <= x1; x += BLOCK) {
        /* the indices first, a loop of plain arithmetic, then the reads */
        int32_t sx[BLOCK];
        const int32_t *restrict wdx = wd + (x & 255);
        const uint8_t *restrict lx0 = lrow + ((x + lx) & 255);
        if (by_depth)
            for (int i = 0; i < BLOCK; i++) {
                int xx = x + i, d = y - cys[xx];
                sx[i] = xx + ((csfx[xx] * dep[d < DEPTHS ? d : DEPTHS - 1].refr + wdx[i]) >> 16);
            }
        else
            for (int i = 0; i < BLOCK; i++)
                sx[i] = x + i + ((crd[x + i] + wdx[i]) >> 16);
        for (int i = 0; i < BLOCK; i++) {
            in.src[i] = srow[sx[i]];
            in.light[i] = lx0[i];
        }
        for (int i = 0; i < BLOCK; i++) {
            int dg = y - gbase[x + i];
            take_entry(&in, i, &dep[dg < 0 ? 0 : dg < DEPTHS ? dg : DEPTHS - 1]);
        }
        shade_block(c->frow + x, &in);
    }
    shallow_run(c, x, x1);
}


/* The refraction's weights of row y from those of row y - 1 (see
 * make_depths), columns x0..x1-1: in blocks of a fixed count, which
 * compilers vectorize. */
static void rrow_next(int32_t *restrict rrow, const int32_t *restrict rstep,
                      const int32_t *restrict cys, int y, int x0, int x1)
{
    int x = x0;
    for (; x + BLOCK <= x1; x += BLOCK)
        for (int i = 0; i < BLOCK; i++)
            rrow[x + i] += rstep[x + i] & -(int32_t)(y - cys[x + i] <= REFR_DEPTH);
    for (; x < x1; x++)
        rrow[x] += rstep[x] & -(int32_t)(y - cys[x] <= REFR_DEPTH);
}

/* A body's columns clipped to a frame w wide, its bottom clamped about the
 * frame and the first row under it (at most h): 0 when no column shows. */
typedef struct water_span {
    int cx0, cx1;
    double bottom;
    int yb;
} water_span_t;

static int water_span(const rpl_side_water_t *wb, int w, int h, water_span_t *sp)
{
    long long n = (long long)wb->x1 - wb->x0;
    sp->cx0 = (int)(wb->x0 < 0 ? 0 : wb->x0);
    sp->cx1 = (int)(wb->x1 > w ? w : wb->x1);
    if (n <= 0 || sp->cx0 >= sp->cx1)
        return 0;
    sp->bottom = clampd(wb->bottom, -1.0, h + 1.0);
    int yb = (int)ceil(sp->bottom);
    sp->yb = yb < h ? yb : h;
    return 1;
}

/* As draw_water finds them: the same clipping, the same wet test and the
 * same surface rows (a column is drawn from its surface row down). */
void rpl_side_body_rows(const rpl_side_water_t *wb, int w, int h, body_rows_t *br)
{
    br->x0 = br->x1 = br->y0 = br->y1 = 0;
    br->yfull = INT_MAX;
    water_span_t sp;
    if (!water_span(wb, w, h, &sp))
        return;
    const float *sf = wb->surface;
    const long long base = wb->x0;
    const double bottom = sp.bottom;
    int lo = INT_MAX, hi = INT_MIN, dry = 0;
    for (int x = sp.cx0; x < sp.cx1; x++) {
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
    br->x0 = sp.cx0;
    br->x1 = sp.cx1;
    br->y0 = lo < 0 ? 0 : lo;
    br->y1 = sp.yb;
    br->yfull = dry ? INT_MAX : hi;
}

/* The water of one body over frame (w x h, rows fpitch pixels apart) from
 * the scene (rows spitch pixels apart).  The body's columns are clipped to
 * the frame; every value was checked finite by the caller.  Row by row,
 * for the caches: the columns' surfaces are worked out first.  The water
 * only writes the frame, never reads it (what it refracts is the scene). */
void rpl_side_draw_water(uint32_t *frame, ptrdiff_t fpitch, const uint32_t *scene, ptrdiff_t spitch,
                       int w, int h, const rpl_side_water_t *wb, const anim_t *an,
                       depth_cache_t *depths, const columns_t *col, const rpl_kernels_t *kern)
{
    water_span_t sp;
    if (!water_span(wb, w, h, &sp))
        return;
    const int cx0 = sp.cx0, cx1 = sp.cx1, yb = sp.yb;
    const double bottom = sp.bottom;
    /* the surface at column x is sf[x - base] (no pointer moved out of
     * the array, which C leaves undefined) */
    const float *sf = wb->surface;
    const long long base = wb->x0;
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
    const depth_set_t *ds = depth_set(depths, bottom - top);
    const depth_entry_t *depth = ds->e;
    const int dmid = ds->dmid, dstart = ds->dstart;
    if (ytop < 0)
        ytop = 0;
    /* The colour's depth is taken from the surface just under it and,
     * deeper down, from the body's mean level: a trough or a crest would
     * otherwise shift its column's whole gradient and show as a streak
     * all the way down. */
    int ymean = (int)lrint(ysum / wet);
    const int32_t refr_deep = depth[DEPTHS - 1].refr, wob_deep = depth[DEPTHS - 1].wob;
    int32_t smax = 0;
    for (int x = cx0; x < cx1; x++) {
        col->shift[x] = clampi(col->ys[x] - ymean, -64, 64);
        col->gbase[x] = col->ys[x] - col->shift[x];
        col->rdeep[x] = col->sfx[x] * refr_deep;
        smax = abs(col->sfx[x]) > smax ? abs(col->sfx[x]) : smax;
    }
    /* rows from ymid on are deep water in every column (none dry) but for
     * the refraction's weight, from yall on wholly */
    const int none = wet < cx1 - cx0;
    const int ymid = none || dmid >= DEPTHS ? INT_MAX : ymax + dmid;
    const int yall = none || dstart >= DEPTHS ? INT_MAX : ymax + dstart;
    /* by (x + 2y) & 255 from a row's start (2y & 255) and a block's
     * (x & 255) on, over a block */
    int32_t wdeep[512 + TABLE_PAD], wraw[512 + TABLE_PAD];
    for (int i = 0; i < 512 + TABLE_PAD; i++) {
        wraw[i] = an->wob[i & 255];
        wdeep[i] = wraw[i] * wob_deep;
    }
    /* there the water moves the scene by less than `reach` pixels:
     * columns xs0..xs1-1 read their row without clamping */
    const int reach = (int)(((long long)smax * ds->refr_max + 256LL * abs(wob_deep)) >> 16) + 2;
    const int xs0 = clampi(reach, cx0, cx1), xs1 = clampi(w - reach, xs0, cx1);
    const int fast = ds->fast;
    rpl_side_shallow_job_t job = {NULL, NULL, col->ys, col->shift, col->gbase, col->sfx, col->dcol,
                                  col->fwq, col->cov, ds->te, ds->tbg, ds->tr, ds->tia, wraw, NULL,
                                  0, 0, w, an->lx};
    water_ctx_t c = {col, depth, an, wdeep, w, fast, 0, NULL, NULL, NULL, &job, kern, ymax + 4};
    /* Deep rows take the kernel's case, one gradient entry for the row,
     * over runs of columns whose gradient below 16 px is the mean
     * level's (no surface 64 px off it): all of them on calm water, and
     * most where waves run high; the others go by deep_run, the same
     * rule with an entry a column.  A run shorter than a block is left to
     * deep_run with its neighbours.  At most (xs1 - xs0) / (BLOCK + 1) + 1
     * runs, two numbers each: within the column array. */
    int32_t *restrict mean_run = col->runs;
    int nmean = 0;
    for (int x = xs0; !none && x < xs1;) {
        while (x < xs1 && col->gbase[x] != ymean)
            x++;
        int a = x;
        while (x < xs1 && col->gbase[x] == ymean)
            x++;
        if (x - a >= BLOCK) {
            mean_run[2 * nmean] = a;
            mean_run[2 * nmean + 1] = x;
            nmean++;
        }
    }
    int rrow_y = INT_MIN; /* the row col->rrow was made for */
    for (int y = ytop; y < yb; y++) {
        c.y = y;
        c.srow = scene + (ptrdiff_t)y * spitch;
        c.frow = frame + (ptrdiff_t)y * fpitch;
        c.lrow = an->light + (size_t)((y + an->ly) & (CAUS - 1)) * CAUS_ROW;
        job.src = c.srow;
        job.out = c.frow;
        job.y = y;
        job.phase = 2 * y & 255;
        job.light = c.lrow;
        if (y < ymid || !fast) {
            shallow_run(&c, cx0, cx1);
            continue;
        }
        shallow_run(&c, cx0, xs0);
        if (nmean) {
            /* one gradient entry for the row: the kernel's case */
            int dg = y - ymean;
            const depth_entry_t *eg = &depth[dg < 0 ? 0 : dg < DEPTHS ? dg : DEPTHS - 1];
            const int32_t *rd = col->rdeep;
            if (y < yall) {
                /* the refraction's weight by depth: made for the first such
                 * row, then a row deeper is the one above and the weight's
                 * fall (make_depths) while the column is not yet that deep */
                const int32_t *restrict cys = col->ys, *restrict csfx = col->sfx;
                int32_t *restrict rrow = col->rrow, *restrict rstep = col->rstep;
                if (rrow_y != y - 1) {
                    for (int x = xs0; x < xs1; x++) {
                        int d = y - cys[x];
                        rrow[x] = csfx[x] * depth[d < DEPTHS ? d : DEPTHS - 1].refr;
                        rstep[x] = -REFR_STEP * csfx[x];
                    }
                } else {
                    rrow_next(rrow, rstep, cys, y, xs0, xs1);
                }
                rrow_y = y;
                rd = col->rrow;
            }
            rpl_side_deep_job_t dj = {c.srow, c.frow, rd, wdeep, c.lrow, 2 * y & 255, an->lx,
                                      eg->inva, eg->pr, eg->pg, eg->pb, eg->caus, w};
            int x = xs0;
            for (int k = 0; k < nmean; k++) {
                deep_run(&c, x, mean_run[2 * k], y < yall);
                kern->side_deep(&dj, mean_run[2 * k], mean_run[2 * k + 1]);
                x = mean_run[2 * k + 1];
            }
            deep_run(&c, x, xs1, y < yall);
        } else {
            deep_run(&c, xs0, xs1, y < yall);
        }
        shallow_run(&c, xs1, cx1);
    }
}

/* A droplet's radius and opacity, and the pixels it may touch
 * (xa..xb, ya..yb); 0 when it draws nothing. */
int rpl_side_drop_box(const rpl_droplet_t *dp, int w, int h, double *rad_out, int *alpha_out,
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

/* Whether pixel x of a row dy off a droplet's centre cx lies within
 * out, the test its drawing makes. */
static inline int drop_in(double cx, double dy, double out, int x)
{
    double dx = x + 0.5 - cx;
    return !(dx * dx + dy * dy > out);
}

/*
 * The pixels xa <= x <= xb of a row that pass drop_in, as x0..x1: 0 when
 * none.  dx grows with x, and rounding keeps that order, so dx * dx +
 * dy * dy falls and then rises along the row: the pixels that pass are
 * one run, and if any does, so does the one nearest the centre.  The
 * run's ends are guessed with a square root, then moved pixel by pixel
 * to where the test itself puts them.
 */
static int drop_run(double cx, double dy, double out, int xa, int xb, int *x0, int *x1)
{
    /* (int) truncates: for cx < 0 the nearest pixel is the one before */
    int p = clampi((int)cx, xa, xb);
    if (!drop_in(cx, dy, out, p)) {
        p = p > xa && drop_in(cx, dy, out, p - 1) ? p - 1
            : p < xb && drop_in(cx, dy, out, p + 1) ? p + 1 : xb + 1;
        if (p > xb)
            return 0;
    }
    /* cx lies within the frame's reach (rpl_side_drop_box), half under
     * 34: the guesses fit an int */
    double q = out - dy * dy, half = rpl_sqrt(q > 0 ? q : 0);
    int l = clampi((int)(cx - 0.5 - half), xa, p);
    if (drop_in(cx, dy, out, l))
        while (l > xa && drop_in(cx, dy, out, l - 1))
            l--;
    else
        while (!drop_in(cx, dy, out, l))
            l++;
    int r = clampi((int)(cx - 0.5 + half), p, xb);
    if (drop_in(cx, dy, out, r))
        while (r < xb && drop_in(cx, dy, out, r + 1))
            r++;
    else
        while (!drop_in(cx, dy, out, r))
            r--;
    *x0 = l;
    *x1 = r;
    return 1;
}

/* A droplet: a small bright disc, anti-aliased, fading with age. */
void rpl_side_draw_drop(uint32_t *frame, ptrdiff_t fpitch, int w, int h, const rpl_droplet_t *dp)
{
    static const rpl_kernels_t scalar = { .side_drop = rpl_side_drop_c };
    drop_box_t b;
    if (rpl_side_drop_box(dp, w, h, &b.rad, &b.alpha, b.box))
        rpl_side_draw_drop_in(frame, fpitch, dp, &b, &scalar);
}

void rpl_side_draw_drop_in(uint32_t *frame, ptrdiff_t fpitch, const rpl_droplet_t *dp,
                           const drop_box_t *db, const rpl_kernels_t *kern)
{
    const double rad = db->rad;
    const int *box = db->box;
    double cx = dp->x, cy = dp->y;
    const int xa = box[0], xb = box[1], ya = box[2], yb = box[3];
    /* pixels surely out of the disc (farther than rad + 0.5, with room
     * for rounding) are passed over before the square roots: on each row
     * the run of those within, found as drop_run finds it, then shaded by
     * the kernel */
    const double out = (rad + 0.5 + 1e-6) * (rad + 0.5 + 1e-6);
    rpl_side_drop_job_t job = { NULL, cx, 0, rad, db->alpha };
    for (int y = ya; y <= yb; y++) {
        int x0, x1;
        if (!drop_run(cx, y + 0.5 - cy, out, xa, xb, &x0, &x1))
            continue;
        job.row = frame + (ptrdiff_t)y * fpitch;
        job.dy = y + 0.5 - cy;
        kern->side_drop(&job, x0, x1 + 1);
    }
}
