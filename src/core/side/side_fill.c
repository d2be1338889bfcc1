/* core/side/side_fill.c - the polygon and circle fills for a side scene's bodies. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/side/side_renderer.h"

/* ---- filling a scene's bodies --------------------------------------------------- */

/* Darkens c by k/256 (k in 0..255), keeping its top byte. */
static uint32_t darken(uint32_t c, int k)
{
    uint32_t m = (uint32_t)(256 - k);
    return (c & 0xFF000000u) | ((c >> 16 & 0xFF) * m >> 8) << 16 | ((c >> 8 & 0xFF) * m >> 8) << 8 |
           ((c & 0xFF) * m >> 8);
}

/* Pixels x0..x1 (inclusive) of a row set to c. */
static inline void fill_run(uint32_t *row, int x0, int x1, uint32_t c)
{
    int x = x0;
#if defined(__GNUC__)
    /* four pixels a store where the compiler has vectors (a plain loop
     * of unknown length it leaves one at a time at -O2) */
    typedef uint32_t quad_t __attribute__((vector_size(16)));
    const quad_t q = { c, c, c, c };
    for (; x + 3 <= x1; x += 4)
        memcpy(row + x, &q, sizeof q);
#endif
    for (; x <= x1; x++)
        row[x] = c;
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
 * w * h pixels.  Each edge is taken once to the rows it counts for
 * (poly_edges), so that a row looks at those alone.
 */
typedef struct poly_edge {
    double x0, y0, dx, dy; /* crosses yc at x0 + dx * (yc - y0) / dy */
    int ya, yb;            /* and counts for rows ya <= y < yb */
} poly_edge_t;

/* The first row y in [lo, hi] whose centre y + 0.5 is at least v (hi if
 * none): a guess, then moved to where the comparison itself puts it. */
static int first_row_at(double v, int lo, int hi)
{
    int y = (int)clampd(ceil(v - 0.5), lo, hi);
    while (y < hi && y + 0.5 < v)
        y++;
    while (y > lo && y - 0.5 >= v)
        y--;
    return y;
}

/* The edges of polygon xy (n points) for rows lo..hi-1; horizontal ones,
 * which count for no row, left out.  Returns how many. */
static int poly_edges(const double *xy, int n, int lo, int hi, poly_edge_t *e)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        int j = i + 1 < n ? i + 1 : 0;
        double x0 = xy[2 * i], y0 = xy[2 * i + 1], x1 = xy[2 * j], y1 = xy[2 * j + 1];
        if (y0 == y1)
            continue;
        e[m] = (poly_edge_t){x0, y0, x1 - x0, y1 - y0, 0, 0};
        e[m].ya = first_row_at(y0 < y1 ? y0 : y1, lo, hi);
        e[m].yb = first_row_at(y0 < y1 ? y1 : y0, lo, hi);
        m += e[m].ya < e[m].yb;
    }
    return m;
}

/* Row y's span: 0 for an empty row; xa, xb unclipped (may lie outside
 * the picture), as doubles of whole values to stay in range. */
static int poly_span(const poly_edge_t *e, int m, int y, double *xa, double *xb)
{
    double yc = y + 0.5, lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < m; i++) {
        if (y < e[i].ya || y >= e[i].yb)
            continue;
        double x = e[i].x0 + e[i].dx * (yc - e[i].y0) / e[i].dy;
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

static inline double maxd(double a, double b)
{
    return a > b ? a : b;
}

static inline double mind(double a, double b)
{
    return a < b ? a : b;
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
        ymin = mind(ymin, xy[2 * i + 1]);
        ymax = maxd(ymax, xy[2 * i + 1]);
    }
    shade = clampi(shade, 0, 255);
    int ya = (int)clampd(floor(ymin), 0, h), yb = (int)clampd(ceil(ymax), 0, h);
    double span = ymax - ymin > 0 ? ymax - ymin : 1;
    if (ya >= yb)
        return;
    /* the rows asked for are ya - 1 .. yb */
    poly_edge_t e[64];
    const int m = poly_edges(xy, n, ya - 1, yb + 1, e);
    /* the spans of rows y - 1, y and y + 1, each found once */
    double sa[3] = {0, 0, 0}, sb[3] = {-1, -1, -1};
    int sok[3] = {0, 0, 0};
    sok[1] = poly_span(e, m, ya - 1, &sa[1], &sb[1]);
    sok[2] = poly_span(e, m, ya, &sa[2], &sb[2]);
    for (int y = ya; y < yb; y++) {
        for (int i = 0; i < 2; i++) {
            sa[i] = sa[i + 1], sb[i] = sb[i + 1], sok[i] = sok[i + 1];
        }
        sa[2] = 0, sb[2] = -1;
        sok[2] = poly_span(e, m, y + 1, &sa[2], &sb[2]);
        if (!sok[1])
            continue;
        double a = sa[1], b = sb[1];
        int k = (int)(shade * clampd((y + 0.5 - ymin) / span, 0, 1));
        uint32_t c = k ? darken(fill, k) : fill;
        int x0 = (int)clampd(a, 0, w), x1 = (int)clampd(b, -1, w - 1);
        uint32_t *row = (uint32_t *)(void *)((unsigned char *)px + (ptrdiff_t)y * pitch);
        /* a pixel is on the outline at the row's ends and where the row
         * above or below does not reach: inside, the columns i0..i1 */
        int i0 = x1 + 1, i1 = x1;
        if (!edge || (sok[0] && sok[2])) {
            double lo = edge ? maxd(maxd(sa[0], sa[2]), a + 1) : a;
            double hi = edge ? mind(mind(sb[0], sb[2]), b - 1) : b;
            i0 = (int)clampd(lo, x0, x1 + 1);
            i1 = (int)clampd(hi, x0 - 1, x1);
        }
        /* i0 is in x0..x1 + 1, i1 in x0 - 1..x1 */
        fill_run(row, x0, i0 - 1, edge);
        fill_run(row, i0, i1, c);
        fill_run(row, i1 >= i0 ? i1 + 1 : i0, x1, edge);
    }
}

/* Whether pixel x of a row dy (in radii) off the centre is in the disc:
 * the test the fill makes. */
static inline int in_disc(double cx, double inv, double dy, int x)
{
    double dx = (x + 0.5 - cx) * inv;
    return !(dx * dx + dy * dy > 1.0);
}

/* Whether pixel x of the disc (passing in_disc) is on its rim: a
 * 4-neighbour lies outside. */
static inline int on_rim(double cx, double inv, double dy, double step, int x)
{
    double dx = (x + 0.5 - cx) * inv;
    double up = dy - step, dn = dy + step, lf = dx - step, rt = dx + step;
    return dx * dx + up * up > 1.0 || dx * dx + dn * dn > 1.0 || lf * lf + dy * dy > 1.0 ||
           rt * rt + dy * dy > 1.0;
}

/*
 * The pixels xa <= x < xb of a row that pass in_disc, as x0..x1-1: 0 when
 * none.  In exact arithmetic dx grows with x, and rounding keeps that
 * order, so dx * dx + dy * dy falls and then rises along the row: the
 * pixels that pass are one run, and if any does, so does one of those
 * next to the centre.  The run's ends are guessed with a square root and
 * then moved, pixel by pixel, to where the test itself puts them.
 */
static int disc_row(double cx, double inv, double dy, int xa, int xb, int *x0, int *x1)
{
    if (xa >= xb)
        return 0;
    int m = (int)clampd(floor(cx - 0.5), xa - 1, xb);
    int p = xb;
    for (int x = m - 1; x <= m + 2; x++)
        if (x >= xa && x < xb && in_disc(cx, inv, dy, x)) {
            p = x;
            break;
        }
    if (p == xb)
        return 0;
    double q = 1.0 - dy * dy, half = rpl_sqrt(q > 0 ? q : 0) / inv;
    int l = (int)clampd(ceil(cx - half - 0.5), xa, p);
    if (in_disc(cx, inv, dy, l))
        while (l > xa && in_disc(cx, inv, dy, l - 1))
            l--;
    else
        while (!in_disc(cx, inv, dy, l))
            l++;
    int rr = (int)clampd(floor(cx + half - 0.5), p, xb - 1);
    if (in_disc(cx, inv, dy, rr))
        while (rr + 1 < xb && in_disc(cx, inv, dy, rr + 1))
            rr++;
    else
        while (!in_disc(cx, inv, dy, rr))
            rr--;
    *x0 = l;
    *x1 = rr + 1;
    return 1;
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
        int x0, x1;
        if (!disc_row(cx, inv, dy, xa, xb, &x0, &x1))
            continue;
        if (!edge) {
            fill_run(row, x0, x1 - 1, c);
            continue;
        }
        /* each of on_rim's four tests fails on one run of the row (as
         * in_disc's does), so the pixels off the rim are one run too:
         * the rim's pixels are found from the ends inwards */
        int i0 = x0, i1 = x1 - 1;
        for (; i0 <= i1 && on_rim(cx, inv, dy, step, i0); i0++)
            row[i0] = edge;
        for (; i1 >= i0 && on_rim(cx, inv, dy, step, i1); i1--)
            row[i1] = edge;
        fill_run(row, i0, i1, c);
    }
}
