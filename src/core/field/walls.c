/* core/field/walls.c - walls (solid cells), absorbing edges and the drop hook: what the step does after its kernel. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/field/field.h"

/* ---- the pass after the step ------------------------------------------- */

/*
 * Both parts look at one cell at a time, its new value and its place, so
 * the result is the same whichever kernel computed the value, whichever
 * thread runs the pass and whether the tile around it was asleep (a
 * sleeping tile is all 0, and 0 stays 0 under both).
 */

/* Cuts the change of the cells [x0, x1) of a row by k 256ths, rounded
 * towards 0; k <= 256, so the result lies between the old height and the
 * new one (within the height contract), and a change is only ever shrunk.
 * (Rounding down would turn every fall of 1 back, and the band would creep
 * up to a standing plateau that never comes to rest.)  Returns nonzero if
 * any result is. */
static int absorb_run(int16_t *row, const int16_t *was, int x0, int x1, int k)
{
    int any = 0;
    for (int x = x0; x < x1; x++) {
        int n = row[x];
        n -= (n - was[x]) * k / 256;
        row[x] = (int16_t)n;
        any |= n;
    }
    return any;
}

/* The band on the cells [x0, x1) of one row, dy its distance from the top
 * or bottom border: a cell at distance d = min(dx, dy) from the border,
 * dx = min(x, w-1-x), gets k(d).  Near the left and right borders (dx <
 * dy) d changes cell by cell; in between it is dy, one k for the run.
 * Callers pass only cells with d <= band. */
static int absorb_span(const rpl_sim_t *sim, int16_t *row, const int16_t *was, int x0, int x1,
                       int dy)
{
    int w = sim->w, any = 0, half = (w - 1) / 2 + 1; /* x < half: dx = x */
    int l1 = dy < half ? dy : half;                /* [x0, l1): d = x < dy */
    int m0 = dy, m1 = w - dy;                      /* [m0, m1): d = dy */
    int r0 = w - dy > half ? w - dy : half;        /* [r0, x1): d = w-1-x < dy */
    l1 = l1 < x1 ? l1 : x1;
    for (int x = x0; x < l1; x++)
        any |= absorb_run(row, was, x, x + 1, sim->absorb[x]);
    m0 = m0 > x0 ? m0 : x0;
    m1 = m1 < x1 ? m1 : x1;
    if (m0 < m1 && dy <= sim->band)
        any |= absorb_run(row, was, m0, m1, sim->absorb[dy]);
    for (int x = r0 > x0 ? r0 : x0; x < x1; x++)
        any |= absorb_run(row, was, x, x + 1, sim->absorb[w - 1 - x]);
    return any;
}

int rpl_post_step(const rpl_sim_t *sim, int16_t *next, const int16_t *cur, int x0, int x1,
                  int y0, int y1)
{
    int w = sim->w, b = sim->band, any = 0;
    if (sim->edges == RPL_EDGES_ABSORB && b > 0)
        for (int y = y0; y < y1; y++) {
            int16_t *row = next + (ptrdiff_t)y * w;
            const int16_t *was = cur + (ptrdiff_t)y * w;
            int dy = y < sim->h - 1 - y ? y : sim->h - 1 - y;
            if (dy <= b) {
                any |= absorb_span(sim, row, was, x0, x1, dy);
                continue;
            }
            /* away from the top and bottom: the left and right bands only */
            int l1 = x1 < b + 1 ? x1 : b + 1;
            int r0 = x0 > w - 1 - b ? x0 : w - 1 - b;
            if (x0 < l1)
                any |= absorb_span(sim, row, was, x0, l1, dy);
            if (r0 < x1)
                any |= absorb_span(sim, row, was, r0 > l1 ? r0 : l1, x1, dy);
        }
    if (!sim->walls)
        return any;
    if (sim->wall_span && !sim->walls_dirty) {
        /* the runs of solid cells on each row: cost by the walls' size */
        for (int y = y0; y < y1; y++) {
            int16_t *row = next + (ptrdiff_t)y * w;
            for (uint32_t i = sim->wall_row[y]; i < sim->wall_row[y + 1]; i++) {
                int a = sim->wall_span[2 * i], e = sim->wall_span[2 * i + 1];
                a = a > x0 ? a : x0;
                e = e < x1 ? e : x1;
                if (a < e)
                    memset(row + a, 0, (size_t)(e - a) * sizeof *row);
            }
        }
        return any;
    }
    /* no runs (memory ran out): the mask, in the tiles that hold a wall */
    const uint16_t *wt = sim->wall_tiles + (size_t)(y0 / RPL_TILE_H) * sim->tiles_x;
    for (int tx = x0 / RPL_TILE_W; tx * RPL_TILE_W < x1; tx++) {
        if (!wt[tx])
            continue;
        int a = tx * RPL_TILE_W > x0 ? tx * RPL_TILE_W : x0;
        int e = (tx + 1) * RPL_TILE_W < x1 ? (tx + 1) * RPL_TILE_W : x1;
        for (int y = y0; y < y1; y++) {
            int16_t *row = next + (ptrdiff_t)y * w;
            const uint8_t *m = sim->walls + (ptrdiff_t)y * w;
            for (int x = a; x < e; x++)
                row[x] = m[x] ? 0 : row[x];
        }
    }
    return any;
}

/* ---- walls ---------------------------------------------------------------- */

/* Allocates the mask (all open) on first use. */
static rpl_status need_walls(rpl_sim_t *sim)
{
    if (sim->walls)
        return RPL_OK;
    size_t n = (size_t)sim->w * (size_t)sim->h;
    size_t nt = (size_t)sim->tiles_x * (size_t)sim->tiles_y;
    uint8_t *m = calloc(n, 1);
    uint16_t *t = calloc(nt, sizeof *t);
    if (!m || !t) {
        free(m);
        free(t);
        return rpl_err_set(&sim->err, RPL_ENOMEM, "out of memory for the walls");
    }
    sim->walls = m;
    sim->wall_tiles = t;
    return RPL_OK;
}

static void drop_runs(rpl_sim_t *sim)
{
    free(sim->wall_row);
    free(sim->wall_span);
    sim->wall_row = NULL;
    sim->wall_span = NULL;
}

static void drop_walls(rpl_sim_t *sim)
{
    free(sim->walls);
    free(sim->wall_tiles);
    sim->walls = NULL;
    sim->wall_tiles = NULL;
    drop_runs(sim);
}

void rpl_walls_free(rpl_sim_t *sim)
{
    drop_walls(sim);
}

void rpl_walls_prepare(rpl_sim_t *sim)
{
    if (!sim->walls || !sim->walls_dirty)
        return;
    drop_runs(sim);
    sim->walls_dirty = 0;
    int w = sim->w, h = sim->h;
    size_t runs = 0;
    for (int y = 0; y < h; y++) {
        const uint8_t *m = sim->walls + (ptrdiff_t)y * w;
        for (int x = 0; x < w; x++)
            runs += m[x] && (x == 0 || !m[x - 1]);
    }
    sim->wall_row = malloc(((size_t)h + 1) * sizeof *sim->wall_row);
    sim->wall_span = malloc((runs ? runs : 1) * 2 * sizeof *sim->wall_span);
    if (!sim->wall_row || !sim->wall_span) {
        drop_runs(sim); /* the step reads the mask instead */
        return;
    }
    uint32_t n = 0;
    for (int y = 0; y < h; y++) {
        const uint8_t *m = sim->walls + (ptrdiff_t)y * w;
        sim->wall_row[y] = n;
        for (int x = 0; x < w;) {
            if (!m[x]) {
                x++;
                continue;
            }
            int a = x;
            while (x < w && m[x])
                x++;
            sim->wall_span[2 * n] = (uint16_t)a;
            sim->wall_span[2 * n + 1] = (uint16_t)x;
            n++;
        }
    }
    sim->wall_row[h] = n;
}

/* A change of the walls within [x0, x1) x [y0, y1): a new serial, and
 * where, for rpl_sim_walls_changed. */
static void walls_moved(rpl_sim_t *sim, int x0, int x1, int y0, int y1)
{
    sim->walls_serial++;
    if (x0 >= x1 || y0 >= y1)
        return;
    if (sim->walls_logged == RPL_WALLS_LOG) {
        /* the oldest change joins the next: coarser, never lost */
        int *a = &sim->walls_log[0].x0, *b = &sim->walls_log[1].x0;
        b[0] = a[0] < b[0] ? a[0] : b[0];
        b[1] = a[1] < b[1] ? a[1] : b[1];
        b[2] = a[2] > b[2] ? a[2] : b[2];
        b[3] = a[3] > b[3] ? a[3] : b[3];
        memmove(sim->walls_log, sim->walls_log + 1,
                (RPL_WALLS_LOG - 1) * sizeof sim->walls_log[0]);
        sim->walls_logged--;
    }
    int i = sim->walls_logged++;
    sim->walls_log[i].serial = sim->walls_serial;
    sim->walls_log[i].x0 = x0;
    sim->walls_log[i].y0 = y0;
    sim->walls_log[i].x1 = x1;
    sim->walls_log[i].y1 = y1;
}

/* After the cells [x0, x1) x [y0, y1) of the mask changed: zeroes the
 * heights under solid cells there, recounts the tiles it overlaps, and
 * lets the mask go when no solid cell is left. */
static void walls_changed(rpl_sim_t *sim, int x0, int x1, int y0, int y1)
{
    walls_moved(sim, x0, x1, y0, y1);
    sim->walls_dirty = 1;
    if (x0 >= x1 || y0 >= y1)
        return;
    int w = sim->w;
    for (int y = y0; y < y1; y++) {
        const uint8_t *m = sim->walls + (ptrdiff_t)y * w;
        int16_t *c = sim->cur + (ptrdiff_t)y * w, *p = sim->prev + (ptrdiff_t)y * w;
        for (int x = x0; x < x1; x++)
            if (m[x])
                c[x] = p[x] = 0;
    }
    /* the tiles' activity bits may now claim more than there is: that
     * only wakes a tile for a step, never misses one */
    for (int ty = y0 / RPL_TILE_H; ty <= (y1 - 1) / RPL_TILE_H; ty++)
        for (int tx = x0 / RPL_TILE_W; tx <= (x1 - 1) / RPL_TILE_W; tx++) {
            int ya = ty * RPL_TILE_H, yb = ya + RPL_TILE_H < sim->h ? ya + RPL_TILE_H : sim->h;
            int xa = tx * RPL_TILE_W, xb = xa + RPL_TILE_W < w ? xa + RPL_TILE_W : w;
            unsigned count = 0;
            for (int y = ya; y < yb; y++) {
                const uint8_t *m = sim->walls + (ptrdiff_t)y * w;
                for (int x = xa; x < xb; x++)
                    count += m[x];
            }
            sim->wall_tiles[(size_t)ty * sim->tiles_x + tx] = (uint16_t)count;
        }
    size_t nt = (size_t)sim->tiles_x * (size_t)sim->tiles_y;
    for (size_t t = 0; t < nt; t++)
        if (sim->wall_tiles[t])
            return;
    drop_walls(sim);
}

rpl_status rpl_sim_set_walls(rpl_sim_t *sim, const uint8_t *mask)
{
    if (!rpl_sim_usable(sim))
        return RPL_EINVAL;
    if (!mask) {
        if (sim->walls)
            walls_moved(sim, 0, sim->w, 0, sim->h);
        drop_walls(sim);
        return RPL_OK;
    }
    rpl_status st = need_walls(sim);
    if (st != RPL_OK)
        return st;
    size_t n = (size_t)sim->w * (size_t)sim->h;
    for (size_t i = 0; i < n; i++)
        sim->walls[i] = mask[i] != 0;
    walls_changed(sim, 0, sim->w, 0, sim->h);
    return RPL_OK;
}

/* Clips [a, a + len) to [0, n) into [*lo, *hi); len >= 0. */
static void clip_span(int a, int len, int n, int *lo, int *hi)
{
    long long l = a, h = (long long)a + len;
    *lo = (int)(l < 0 ? 0 : l > n ? n : l);
    *hi = (int)(h < 0 ? 0 : h > n ? n : h);
}

rpl_status rpl_sim_wall_rect(rpl_sim_t *sim, int x, int y, int w, int h, int solid)
{
    if (!rpl_sim_usable(sim))
        return RPL_EINVAL;
    if (w < 0 || h < 0)
        return rpl_err_set(&sim->err, RPL_EINVAL, "wall rectangle %dx%d has a negative side", w, h);
    int x0, x1, y0, y1;
    clip_span(x, w, sim->w, &x0, &x1);
    clip_span(y, h, sim->h, &y0, &y1);
    if (x0 >= x1 || y0 >= y1 || (!solid && !sim->walls))
        return RPL_OK;
    rpl_status st = need_walls(sim);
    if (st != RPL_OK)
        return st;
    for (int cy = y0; cy < y1; cy++)
        memset(sim->walls + (ptrdiff_t)cy * sim->w + x0, solid ? 1 : 0, (size_t)(x1 - x0));
    walls_changed(sim, x0, x1, y0, y1);
    return RPL_OK;
}

/* Segments whose ends lie within this far of the field are drawn with
 * exact integer arithmetic; ends farther out are first cut to it. */
#define LINE_REACH RPL_DIM_MAX

rpl_status rpl_sim_wall_line(rpl_sim_t *sim, int x0, int y0, int x1, int y1, int thickness,
                             int solid)
{
    if (!rpl_sim_usable(sim))
        return RPL_EINVAL;
    if (thickness < 1 || thickness > RPL_WALL_THICK_MAX)
        return rpl_err_set(&sim->err, RPL_EINVAL, "wall thickness %d is outside 1..%d", thickness,
                        RPL_WALL_THICK_MAX);
    if (!solid && !sim->walls)
        return RPL_OK;
    long long lo = -LINE_REACH, hix = (long long)sim->w + LINE_REACH,
              hiy = (long long)sim->h + LINE_REACH;
    if (x0 < lo || x0 > hix || y0 < lo || y0 > hiy || x1 < lo || x1 > hix || y1 < lo || y1 > hiy) {
        double t0 = 0, t1 = 1, dx = (double)x1 - x0, dy = (double)y1 - y0;
        if (!rpl_clip_axis(x0, dx, (double)lo, (double)hix, &t0, &t1) ||
            !rpl_clip_axis(y0, dy, (double)lo, (double)hiy, &t0, &t1))
            return RPL_OK; /* wholly far away */
        double ax = x0 + dx * t0, ay = y0 + dy * t0, bx = x0 + dx * t1, by = y0 + dy * t1;
        x0 = (int)lround(ax);
        y0 = (int)lround(ay);
        x1 = (int)lround(bx);
        y1 = (int)lround(by);
    }
    /* the box of the cells that can be near enough, clipped to the field */
    int r = thickness / 2 + 1;
    int bx0 = (x0 < x1 ? x0 : x1) - r, bx1 = (x0 > x1 ? x0 : x1) + r + 1;
    int by0 = (y0 < y1 ? y0 : y1) - r, by1 = (y0 > y1 ? y0 : y1) + r + 1;
    bx0 = bx0 < 0 ? 0 : bx0;
    by0 = by0 < 0 ? 0 : by0;
    bx1 = bx1 > sim->w ? sim->w : bx1;
    by1 = by1 > sim->h ? sim->h : by1;
    if (bx0 >= bx1 || by0 >= by1)
        return RPL_OK;
    rpl_status st = need_walls(sim);
    if (st != RPL_OK)
        return st;
    /*
     * Cell (x, y) is on the line when its distance to the segment is at
     * most thickness/2, i.e. 4 * dist^2 <= thickness^2.  With d = end -
     * start, q = cell - start, L = d.d: before the start (q.d <= 0) dist^2
     * = q.q, past the end (q.d >= L) it is the distance to the end, and
     * between them (q x d)^2 / L.  Ends within LINE_REACH of the field and
     * thickness up to RPL_WALL_THICK_MAX keep every product below 2^62.
     */
    int64_t dx = (int64_t)x1 - x0, dy = (int64_t)y1 - y0, len2 = dx * dx + dy * dy;
    int64_t t2 = (int64_t)thickness * thickness;
    uint8_t v = solid ? 1 : 0;
    for (int y = by0; y < by1; y++) {
        uint8_t *m = sim->walls + (ptrdiff_t)y * sim->w;
        for (int x = bx0; x < bx1; x++) {
            int64_t qx = (int64_t)x - x0, qy = (int64_t)y - y0, dot = qx * dx + qy * dy;
            int on;
            if (dot <= 0) {
                on = 4 * (qx * qx + qy * qy) <= t2;
            } else if (dot >= len2) {
                int64_t ex = (int64_t)x - x1, ey = (int64_t)y - y1;
                on = 4 * (ex * ex + ey * ey) <= t2;
            } else {
                int64_t cross = qx * dy - qy * dx;
                on = 4 * cross * cross <= t2 * len2;
            }
            if (on)
                m[x] = v;
        }
    }
    walls_changed(sim, bx0, bx1, by0, by1);
    return RPL_OK;
}

const uint8_t *rpl_sim_walls(const rpl_sim_t *sim)
{
    return rpl_sim_usable(sim) ? sim->walls : NULL;
}

uint64_t rpl_sim_walls_serial(const rpl_sim_t *sim)
{
    return rpl_sim_usable(sim) ? sim->walls_serial : 0;
}

int rpl_sim_walls_changed(const rpl_sim_t *sim, uint64_t since, int box[4])
{
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    if (rpl_sim_usable(sim) && since > sim->walls_serial) { /* not a serial it had */
        x1 = sim->w;
        y1 = sim->h;
    } else if (rpl_sim_usable(sim)) {
        for (int i = 0; i < sim->walls_logged; i++) {
            if (sim->walls_log[i].serial <= since)
                continue;
            int a0 = sim->walls_log[i].x0, b0 = sim->walls_log[i].y0;
            int a1 = sim->walls_log[i].x1, b1 = sim->walls_log[i].y1;
            if (x0 >= x1) {
                x0 = a0, y0 = b0, x1 = a1, y1 = b1;
                continue;
            }
            x0 = a0 < x0 ? a0 : x0;
            y0 = b0 < y0 ? b0 : y0;
            x1 = a1 > x1 ? a1 : x1;
            y1 = b1 > y1 ? b1 : y1;
        }
    }
    if (box) {
        box[0] = x0;
        box[1] = y0;
        box[2] = x1 - x0;
        box[3] = y1 - y0;
    }
    return x0 < x1;
}

void rpl_walls_apply(rpl_sim_t *sim)
{
    if (!sim->walls)
        return;
    size_t n = (size_t)sim->w * (size_t)sim->h;
    for (size_t i = 0; i < n; i++)
        if (sim->walls[i])
            sim->cur[i] = sim->prev[i] = 0;
}

/* ---- edges ------------------------------------------------------------------ */

/*
 * The absorbing band, a sponge layer: the cells at distance d = 1..band
 * from the border (d = min(x, y, w-1-x, h-1-y); the border itself, d = 0,
 * stays 0) have their change over a step, new height n minus the height
 * u before it, cut by k(d) 256ths, rounded towards 0:
 *     n -= (n - u) * k(d) / 256
 * on top of the rule's own damping: the water there moves as through
 * syrup.  k rises smoothly from 0 at the band's inner side to its
 * strongest next to the border:
 *     k(d) = round(RPL_ABSORB_K * s^4 / (band + 1)^4),  s = band + 1 - d
 * A wave meets a sudden change of damping like a change of medium and is
 * partly reflected, so the start must be gentle.  Measured against a
 * reflecting edge (tests/test_walls.c): damping the height itself
 * (n -= (n * k) >> 8) instead of its change sent back more than the
 * reflecting edge; linear and square ramps, a stronger end and bands of
 * 24 or 32 cells all sent back more than this one (3.8 to 5.5%).  Integer arithmetic only,
 * so every machine builds the same table.
 */
static void build_band(rpl_sim_t *sim)
{
    int m = sim->w < sim->h ? sim->w : sim->h;
    int b = m / 4;
    b = b > RPL_ABSORB_BAND ? RPL_ABSORB_BAND : b < 1 ? 1 : b;
    sim->band = b;
    memset(sim->absorb, 0, sizeof sim->absorb);
    long long den = (long long)(b + 1) * (b + 1) * (b + 1) * (b + 1);
    for (int d = 1; d <= b; d++) {
        long long s = b + 1 - d;
        sim->absorb[d] = (uint16_t)((RPL_ABSORB_K * s * s * s * s + den / 2) / den);
    }
}

rpl_status rpl_sim_set_edges(rpl_sim_t *sim, rpl_edges edges)
{
    if (!rpl_sim_usable(sim))
        return RPL_EINVAL;
    if (edges != RPL_EDGES_REFLECT && edges != RPL_EDGES_ABSORB)
        return rpl_err_set(&sim->err, RPL_EINVAL, "edges mode %d is neither reflect (0) nor absorb (1)",
                        (int)edges);
    if (edges == RPL_EDGES_ABSORB)
        build_band(sim);
    sim->edges = edges;
    return RPL_OK;
}

rpl_edges rpl_sim_edges(const rpl_sim_t *sim)
{
    return rpl_sim_usable(sim) ? sim->edges : RPL_EDGES_REFLECT;
}

/* ---- the drop hook ----------------------------------------------------------- */

void rpl_sim_set_drop_hook(rpl_sim_t *sim, rpl_drop_fn fn, void *user)
{
    if (!rpl_sim_usable(sim))
        return;
    sim->drop_fn = fn;
    sim->drop_user = fn ? user : NULL;
}
