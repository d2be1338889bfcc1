/* core/side/buoyancy.c - side-view water meets rigid bodies: the part of a polygon under the surface, the forces on it, and sweep crossings. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "core/base/dmath.h"
#include "ripple/side.h"
#include "core/side/water_grid.h"

#define COORD_MAX 1e9        /* coordinates beyond this are refused, as in water.c */
#define POLY_MAX 64

/* ---- the surface as the coupling sees it ---------------------------------
 *
 * Piecewise linear between samples k = 0..last at x0 + k * dx (the last one
 * exactly at x1): the springs' own positions, where the spline passes
 * through the springs, or for waves evenly at most 4 units apart (the grid
 * of core/side/water_grid.h, whose heights the water keeps for the step: every body
 * reads the same samples, and a waves sample sums up to 256 rings).
 * Between two samples the surface is a straight line, which is what makes
 * the integrals below exact. */
typedef struct surf {
    rpl_water_t *w;
    double x0, x1, dx;
    long last; /* >= 1 */
    int waves;
} surf_t;

static void surf_init(surf_t *s, rpl_water_t *w, const rpl_water_params_t *p)
{
    s->w = w;
    s->x0 = p->x0;
    s->x1 = p->x1;
    s->waves = p->kind == RPL_SURFACE_WAVES;
    if (!s->waves) {
        int n = rpl_water_springs(w);
        s->last = n >= 2 ? n - 1 : 1;
    } else {
        s->last = rpl_wave_grid_last(p->x0, p->x1);
    }
    s->dx = (s->x1 - s->x0) / (double)s->last;
}

/* (rpl_wave_grid_x's formula, which the cache's samples are taken at) */
static double surf_x(const surf_t *s, long k)
{
    return k >= s->last ? s->x1 : s->x0 + (double)k * s->dx;
}

static double surf_h(const surf_t *s, long k)
{
    if (s->waves)
        return rpl_water_grid_height(s->w, k);
    return rpl_water_height(s->w, surf_x(s, k));
}

/* The interval k..k+1 holding x (x in [x0, x1]); at a sample, the one
 * starting there (except at x1). */
static long surf_interval(const surf_t *s, double x)
{
    double u = floor((x - s->x0) / s->dx);
    long k = u < 0 ? 0 : u > (double)(s->last - 1) ? s->last - 1 : (long)u;
    /* rounding of the division may put x one interval off */
    while (k > 0 && surf_x(s, k) > x)
        k--;
    while (k < s->last - 1 && surf_x(s, k + 1) <= x)
        k++;
    return k;
}

static double lerp_at(double xa, double ya, double xb, double yb, double x)
{
    if (xb == xa)
        return ya;
    double t = (x - xa) / (xb - xa);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return ya + (yb - ya) * t;
}

/* ---- integrating the submerged part -------------------------------------- */

/* Sums over the submerged pieces, coordinates relative to the polygon's
 * vertex mean (ox, oy) so that the moments do not cancel catastrophically. */
typedef struct acc {
    double ox, oy;
    double a, mx, my, ixx, iyy; /* area, first and second moments */
    double xmin, xmax;
} acc_t;

/* A straight line over a slab, by its values at the slab's ends. */
typedef struct line {
    double l, r;
} line_t;

static double line_at(line_t ln, double xl, double xr, double x)
{
    return lerp_at(xl, ln.l, xr, ln.r, x);
}

/* The submerged part over [p, q] where it is U(x) - L(x) >= 0 with U, L
 * straight: area and moments by Simpson's rule, exact for the cubics
 * involved (x^2 h, and the y^3 differences of straight lines). */
static void acc_piece(acc_t *A, double p, double q, double up, double uq, double lp, double lq)
{
    double d = q - p;
    if (!(d > 0))
        return;
    double xp = p - A->ox, xq = q - A->ox, xm = 0.5 * (xp + xq);
    up -= A->oy, uq -= A->oy, lp -= A->oy, lq -= A->oy;
    double um = 0.5 * (up + uq), lm = 0.5 * (lp + lq);
    double hp = up - lp, hq = uq - lq, hm = um - lm;
    if (hp < 0)
        hp = 0;
    if (hq < 0)
        hq = 0;
    if (hm < 0)
        hm = 0;
    double area = 0.5 * d * (hp + hq);
    if (!(area > 0))
        return;
    A->a += area;
    A->mx += d / 6 * (xp * hp + 4 * xm * hm + xq * hq);
    A->my += d / 12 * ((up * up - lp * lp) + 4 * (um * um - lm * lm) + (uq * uq - lq * lq));
    A->ixx += d / 6 * (xp * xp * hp + 4 * xm * xm * hm + xq * xq * hq);
    A->iyy += d / 18 *
              ((up * up * up - lp * lp * lp) + 4 * (um * um * um - lm * lm * lm) +
               (uq * uq * uq - lq * lq * lq));
    if (p < A->xmin)
        A->xmin = p;
    if (q > A->xmax)
        A->xmax = q;
}

static void sort_small(double *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
}

/* One run of the polygon over the slab [xl, xr]: between its top edge T
 * and bottom edge B, the surface S and the floor F.  Under water is
 * max(T, S) <= y <= min(B, F); both bounds are straight except where T
 * meets S or B meets F, and their difference changes sign at most once
 * between those kinks. */
static void acc_run(acc_t *A, double xl, double xr, line_t T, line_t B, line_t S, double F)
{
    double cut[4];
    int nc = 0;
    cut[nc++] = xl;
    cut[nc++] = xr;
    double tl = T.l - S.l, tr = T.r - S.r;
    if ((tl < 0 && tr > 0) || (tl > 0 && tr < 0))
        cut[nc++] = xl + (xr - xl) * (tl / (tl - tr));
    double bl = B.l - F, br = B.r - F;
    if ((bl < 0 && br > 0) || (bl > 0 && br < 0))
        cut[nc++] = xl + (xr - xl) * (bl / (bl - br));
    sort_small(cut, nc);
    for (int i = 0; i + 1 < nc; i++) {
        double u = cut[i], v = cut[i + 1];
        if (!(v > u))
            continue;
        double lu = fmax(line_at(T, xl, xr, u), line_at(S, xl, xr, u));
        double lv = fmax(line_at(T, xl, xr, v), line_at(S, xl, xr, v));
        double uu = fmin(line_at(B, xl, xr, u), F);
        double uv = fmin(line_at(B, xl, xr, v), F);
        double hu = uu - lu, hv = uv - lv;
        if (hu <= 0 && hv <= 0)
            continue;
        if (hu >= 0 && hv >= 0) {
            acc_piece(A, u, v, uu, uv, lu, lv);
            continue;
        }
        /* the height crosses zero at z: keep the side where it is positive */
        double f = hu / (hu - hv);
        double z = u + (v - u) * f;
        double uz = uu + (uv - uu) * f, lz = lu + (lv - lu) * f;
        if (hu > 0)
            acc_piece(A, u, z, uu, uz, lu, lz);
        else
            acc_piece(A, z, v, uz, uv, lz, lv);
    }
}

typedef struct edge_at {
    double l, r, m;
} edge_at_t;

/* The slab [xl, xr] (no vertex strictly inside it, the surface straight
 * over it, from sl to sr): the polygon's edges crossing it, paired top and
 * bottom by even-odd order at its middle (a convex polygon has one pair; a
 * simple non-convex one is handled exactly too). */
static void acc_slab(acc_t *A, const double *xy, int n, double xl, double xr, double sl, double sr,
                     double floor_y)
{
    edge_at_t e[POLY_MAX];
    int ne = 0;
    double xm = 0.5 * (xl + xr);
    for (int i = 0; i < n; i++) {
        int j = i + 1 == n ? 0 : i + 1;
        double xa = xy[2 * i], ya = xy[2 * i + 1], xb = xy[2 * j], yb = xy[2 * j + 1];
        if (!((xa < xm && xm < xb) || (xb < xm && xm < xa)))
            continue;
        edge_at_t t;
        t.l = lerp_at(xa, ya, xb, yb, xl);
        t.r = lerp_at(xa, ya, xb, yb, xr);
        t.m = 0.5 * (t.l + t.r);
        int k = ne++;
        while (k > 0 && e[k - 1].m > t.m) {
            e[k] = e[k - 1];
            k--;
        }
        e[k] = t;
    }
    line_t S = {sl, sr};
    for (int i = 0; i + 1 < ne; i += 2) {
        line_t T = {e[i].l, e[i].r}, B = {e[i + 1].l, e[i + 1].r};
        acc_run(A, xl, xr, T, B, S, floor_y);
    }
}

static int finite_coord(double v)
{
    return isfinite(v) && fabs(v) <= COORD_MAX;
}

static int poly_ok(const double *xy, int n)
{
    if (!xy || n < 3 || n > POLY_MAX)
        return 0;
    for (int i = 0; i < 2 * n; i++)
        if (!finite_coord(xy[i]))
            return 0;
    return 1;
}

/* The submerged part, plus its polar second moment about its centroid
 * (for the angular drag).  Arguments already checked. */
static void submerged(rpl_water_t *w, const double *xy, int n, rpl_submerged_t *out,
                      double *polar)
{
    memset(out, 0, sizeof *out);
    *polar = 0;
    const rpl_water_params_t *p = rpl_water_params(w);
    double xs[POLY_MAX];
    acc_t A;
    memset(&A, 0, sizeof A);
    for (int i = 0; i < n; i++) {
        xs[i] = xy[2 * i];
        A.ox += xy[2 * i];
        A.oy += xy[2 * i + 1];
    }
    A.ox /= n;
    A.oy /= n;
    A.xmin = HUGE_VAL;
    A.xmax = -HUGE_VAL;
    sort_small(xs, n);
    /* the water holds only [x0, x1] */
    double xa = fmax(xs[0], p->x0), xb = fmin(xs[n - 1], p->x1);
    if (!(xa < xb))
        return;
    surf_t s;
    surf_init(&s, w, p);
    long k = surf_interval(&s, xa);
    double kx = surf_x(&s, k), kx1 = surf_x(&s, k + 1);
    double kh = surf_h(&s, k), kh1 = surf_h(&s, k + 1);
    int vi = 0;
    double x = xa, sx = lerp_at(kx, kh, kx1, kh1, xa);
    while (x < xb) {
        while (vi < n && xs[vi] <= x)
            vi++;
        double next = xb, snext;
        if (vi < n && xs[vi] < next)
            next = xs[vi];
        if (kx1 <= next) {
            next = kx1;
            snext = kh1;
        } else {
            snext = lerp_at(kx, kh, kx1, kh1, next);
        }
        if (next > x)
            acc_slab(&A, xy, n, x, next, sx, snext, p->bottom);
        if (next >= kx1 && k + 1 < s.last) {
            k++;
            kx = kx1;
            kh = kh1;
            kx1 = surf_x(&s, k + 1);
            kh1 = surf_h(&s, k + 1);
        }
        if (!(next > x)) /* cannot happen with finite input; never loop forever */
            break;
        x = next;
        sx = snext;
    }
    if (!(A.a > 0))
        return;
    double mx = A.mx / A.a, my = A.my / A.a;
    out->area = A.a;
    out->cx = A.ox + mx;
    out->cy = A.oy + my;
    out->x_min = A.xmin;
    out->x_max = A.xmax;
    double j = A.ixx + A.iyy - A.a * (mx * mx + my * my);
    *polar = j > 0 ? j : 0;
}

rpl_status rpl_water_submerged(rpl_water_t *w, const double *xy, int n, rpl_submerged_t *out)
{
    if (!w || !out || !poly_ok(xy, n) || !rpl_water_params(w))
        return RPL_EINVAL;
    double polar;
    submerged(w, xy, n, out, &polar);
    return RPL_OK;
}

/* ---- forces ----------------------------------------------------------------- */

static int body_ok(const rpl_body_t *b)
{
    return b && poly_ok(b->xy, b->n) && finite_coord(b->cx) && finite_coord(b->cy) &&
           finite_coord(b->vx) && finite_coord(b->vy) && finite_coord(b->w) &&
           isfinite(b->mass) && b->mass > 0 && isfinite(b->moment) && b->moment > 0;
}

rpl_status rpl_water_forces(rpl_water_t *w, const rpl_body_t *b, double g, double dt,
                            rpl_water_force_t *out)
{
    if (!w || !out || !body_ok(b) || !finite_coord(g) || !isfinite(dt) || !(dt > 0) ||
        dt > 1e3 || !rpl_water_params(w))
        return RPL_EINVAL;
    const rpl_water_params_t *p = rpl_water_params(w);
    rpl_water_force_t f;
    memset(&f, 0, sizeof f);
    double polar;
    submerged(w, b->xy, b->n, &f.sub, &polar);
    if (!(f.sub.area > 0)) {
        *out = f;
        return RPL_OK;
    }
    double area = f.sub.area;
    double rx = f.sub.cx - b->cx, ry = f.sub.cy - b->cy;
    /* the body's velocity at the centroid (v + w x r; with y down, w > 0
     * turns x towards y, as in Chipmunk) against the surface's own */
    double relx = b->vx - b->w * ry;
    double rely = b->vy + b->w * rx - rpl_water_velocity(w, f.sub.cx);
    /* drag: a rate per second scaled by the water's density, so that a
     * body as dense as the water, fully under, loses its relative speed
     * at `drag` per second; never more than stops the centroid's relative
     * motion in one step (explicit drag overshoots past that) */
    double k = p->density * p->drag * area;
    double kmax = 1 / (dt * (1 / b->mass + (rx * rx + ry * ry) / b->moment));
    if (k > kmax)
        k = kmax;
    double fx = -k * relx;
    double fy = -k * rely - p->density * g * area; /* buoyancy: up is -y */
    /* angular drag: linear drag of that rate over the submerged area for
     * the spin alone, -density * angular_drag * J * w, J the area's polar
     * second moment about its centroid; at most stops the spin in a step */
    double ta = -p->density * p->angular_drag * polar * b->w;
    double tamax = b->moment * fabs(b->w) / dt;
    if (fabs(ta) > tamax)
        ta = ta < 0 ? -tamax : tamax;
    /* the caps: |F| dt / mass <= max_dv, and the whole torque likewise for
     * the spin, max_dv over the radius of gyration sqrt(moment / mass) */
    double fmag = rpl_hypot(fx, fy), fcap = b->mass * p->max_dv / dt;
    if (fmag > fcap) {
        double sc = fcap / fmag;
        fx *= sc;
        fy *= sc;
    }
    double tf = rx * fy - ry * fx; /* the force's moment about the centre of mass */
    double tt = tf + ta, tcap = p->max_dv * sqrt(b->mass * b->moment) / dt;
    if (fabs(tt) > tcap)
        tt = tt < 0 ? -tcap : tcap;
    f.fx = fx;
    f.fy = fy;
    f.px = f.sub.cx;
    f.py = f.sub.cy;
    f.torque = tt - tf;
    *out = f;
    return RPL_OK;
}

/* ---- sweeps ----------------------------------------------------------------- */

int rpl_water_crossing(rpl_water_t *w, double ax, double ay, double bx, double by,
                       double *x)
{
    if (!w || !rpl_water_params(w) || !finite_coord(ax) || !finite_coord(ay) ||
        !finite_coord(bx) || !finite_coord(by))
        return 0;
    const rpl_water_params_t *p = rpl_water_params(w);
    surf_t s;
    surf_init(&s, w, p);
    if (ax == bx) {
        if (ax < p->x0 || ax > p->x1)
            return 0;
        long k = surf_interval(&s, ax);
        double h = lerp_at(surf_x(&s, k), surf_h(&s, k), surf_x(&s, k + 1), surf_h(&s, k + 1), ax);
        int ina = ay > h, inb = by > h;
        if (ina == inb)
            return 0;
        if (x)
            *x = ax;
        return inb ? 1 : -1;
    }
    /* the part of the path over the water, as t in [t0, t1] */
    double t0 = (p->x0 - ax) / (bx - ax), t1 = (p->x1 - ax) / (bx - ax);
    if (t0 > t1) {
        double t = t0;
        t0 = t1;
        t1 = t;
    }
    t0 = fmax(t0, 0);
    t1 = fmin(t1, 1);
    if (!(t0 <= t1))
        return 0;
    /* walk along the path in its own direction, cutting at every sample:
     * between two cuts both the path and the surface are straight, so
     * d = y - surface is too, and a change of side is where d passes 0 */
    int dir = bx > ax ? 1 : -1;
    double xs = ax + (bx - ax) * t0, xe = ax + (bx - ax) * t1;
    xs = fmin(fmax(xs, p->x0), p->x1);
    xe = fmin(fmax(xe, p->x0), p->x1);
    long k = surf_interval(&s, xs);
    if (dir < 0 && k > 0 && surf_x(&s, k) == xs)
        k--; /* going left from a sample: the interval to its left */
    double kx = surf_x(&s, k), kx1 = surf_x(&s, k + 1);
    double kh = surf_h(&s, k), kh1 = surf_h(&s, k + 1);
    double tc = t0, xc = xs;
    double dc = (ay + (by - ay) * tc) - lerp_at(kx, kh, kx1, kh1, xc);
    for (;;) {
        double xn, hn;
        int more;
        if (dir > 0) {
            more = kx1 < xe;
            xn = more ? kx1 : xe;
        } else {
            more = kx > xe;
            xn = more ? kx : xe;
        }
        hn = more ? (dir > 0 ? kh1 : kh) : lerp_at(kx, kh, kx1, kh1, xn);
        double tn = more ? (xn - ax) / (bx - ax) : t1;
        double dn = (ay + (by - ay) * tn) - hn;
        int inc = dc > 0, inn = dn > 0;
        if (inc != inn) {
            double f = dc / (dc - dn);
            if (x)
                *x = xc + (xn - xc) * f;
            return inn ? 1 : -1;
        }
        if (!more)
            return 0;
        tc = tn;
        xc = xn;
        dc = dn;
        if (dir > 0) {
            if (k + 1 >= s.last)
                return 0;
            k++;
            kx = kx1;
            kh = kh1;
            kx1 = surf_x(&s, k + 1);
            kh1 = surf_h(&s, k + 1);
        } else {
            if (k <= 0)
                return 0;
            k--;
            kx1 = kx;
            kh1 = kh;
            kx = surf_x(&s, k);
            kh = surf_h(&s, k);
        }
    }
}
