/* core/side/water_springs.c - the side-view water's chain of springs: its stability limit, its step, and the spline through it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/dmath.h"
#include "core/side/water_state.h"

/* ---- the stability limit ------------------------------------------------
 *
 * One step is linear in the springs' (y, v), and with the ends mirrored
 * (REFLECT) it is diagonalised by the chain's cosine modes: in a mode of
 * wave number theta every pass's delta is spread * (y_{i-1} - 2 y_i +
 * y_{i+1}) = -spread * lambda * y_i with lambda = 2 - 2 cos theta, from 0
 * (the uniform mode) to 4 (theta = pi, the checkerboard, which a mirrored
 * chain holds exactly; a FREE chain's largest lambda is just below 4 and an
 * ABSORB chain only loses more, so the mirrored chain is the worst case).
 *
 * Per mode, with s = spread, k = stiffness, d = damping, P = passes:
 *   spring part   v' = (1-d) v - k y,  y' = y + v'
 *                 H = [[1-k, 1-d], [-k, 1-d]]          acting on (y, v)
 *   one pass      y' = b y,  v' = v - s lambda y,   b = 1 - s lambda
 *                 (both deltas are from the positions before the pass)
 *   P passes      y' = a y,  v' = v - s lambda (1 + b + ... + b^(P-1)) y
 *                          = v - (1 - a) y,          a = b^P
 *                 Q = [[a, 0], [a - 1, 1]]
 *   the step      M = Q H = [[a(1-k), a(1-d)], [a(1-k) - 1, a(1-d)]]
 *                 trace a(2 - k - d), determinant a(1 - d).
 * M's eigenvalues solve mu^2 - a(2-k-d) mu + a(1-d) = 0, and the step is
 * stable while both lie in the unit disc (Jury): a(1-d) <= 1 and
 * |a(2-k-d)| <= 1 + a(1-d), that is, a(1-k) <= 1 for a >= 0 and
 * -a (3 - k - 2d) <= 1 for a < 0.  Every a in [0, 1] is stable, and a mode
 * leaves the stable interval only when |b| = |1 - s lambda| grows past 1
 * (with P even, a = b^P >= 0) or past (3-k-2d)^(-1/P) (P odd, b < 0).  |b|
 * grows with lambda, so the checkerboard goes first:
 *   P even:  (4s - 1)^P (1 - min(k, d)) = 1,  s = (1 + (1-min(k,d))^(-1/P)) / 4,
 *            just above 1/2 (0.50063 for the defaults, 8 passes);
 *   P odd:   (4s - 1)^P (3 - k - 2d) = 1,     s = (1 + (3-k-2d)^(-1/P)) / 4,
 *            1/3 for one pass with k = d = 0, 0.3362 with k 0.02, d 0.04.
 * The code below does not rely on that closed form: it scans the spread
 * upwards in steps of 1/64 over 129 modes theta = pi j / 128 (lambda = 0
 * and 4 among them) for the first one whose spectral radius passes 1,
 * then bisects to 1e-13.  With
 * k = d = 1 every M is nilpotent and no spread is unstable; the search
 * stops at 2, which it then returns.
 */
enum { LIMIT_MODES = 128, LIMIT_SCAN = 64 }; /* modes; scan steps per unit spread */
#define LIMIT_TOP 2.0

static double mode_radius(double k, double d, int passes, double s, double lambda)
{
    double b = 1 - s * lambda, a = 1;
    for (int i = 0; i < passes; i++)
        a *= b;
    double tr = a * (2 - k - d), det = a * (1 - d);
    double disc = tr * tr - 4 * det;
    if (disc >= 0)
        return (fabs(tr) + sqrt(disc)) / 2;
    return sqrt(det); /* a complex pair: |mu|^2 = det */
}

static int spread_unstable(const double *lambda, double k, double d, int passes, double s)
{
    for (int j = 0; j <= LIMIT_MODES; j++)
        if (mode_radius(k, d, passes, s, lambda[j]) > 1 + 1e-12)
            return 1;
    return 0;
}

double rpl_water_spread_limit(const rpl_water_params_t *p)
{
    if (!p || !(p->stiffness >= 0 && p->stiffness <= 1) || !(p->damping >= 0 && p->damping <= 1) ||
        p->passes < 1 || p->passes > RPL_PASSES_MAX)
        return 0;
    double k = p->stiffness, d = p->damping, lambda[LIMIT_MODES + 1];
    for (int j = 0; j < LIMIT_MODES; j++)
        lambda[j] = 2 - 2 * rpl_cos(M_PI * j / LIMIT_MODES);
    lambda[LIMIT_MODES] = 4; /* exactly: the checkerboard */
    if (spread_unstable(lambda, k, d, p->passes, 0))
        return 0;
    /* A mode that has turned unstable stays so as the spread grows (see
     * above), so a coarse scan and a bisection find the first edge. */
    double lo = 0, hi = -1;
    for (int i = 1; i <= (int)(LIMIT_TOP * LIMIT_SCAN); i++) {
        double s = (double)i / LIMIT_SCAN;
        if (spread_unstable(lambda, k, d, p->passes, s)) {
            hi = s;
            break;
        }
        lo = s;
    }
    if (hi < 0)
        return LIMIT_TOP;
    while (hi - lo > 1e-13) {
        double mid = 0.5 * (lo + hi);
        if (spread_unstable(lambda, k, d, p->passes, mid))
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

/* ---- the surface as a spline --------------------------------------------- */

/* Spring j's value with the ends extended: mirrored for REFLECT (the
 * surface meets the wall level), continued in a straight line otherwise. */
static double ext(const double *a, int n, rpl_water_ends ends, int j)
{
    if (j < 0)
        return ends == RPL_ENDS_REFLECT ? a[1] : 2 * a[0] - a[1];
    if (j >= n)
        return ends == RPL_ENDS_REFLECT ? a[n - 2] : 2 * a[n - 1] - a[n - 2];
    return a[j];
}

void rpl_water_seg_make(seg_t *s, const double *a, int n, rpl_water_ends ends, int i)
{
    double p0 = ext(a, n, ends, i - 1), p1 = a[i], p2 = a[i + 1], p3 = ext(a, n, ends, i + 2);
    s->i = i;
    s->c0 = p1;
    s->c1 = 0.5 * (p2 - p0);
    s->c2 = p0 - 2.5 * p1 + 2 * p2 - 0.5 * p3;
    s->c3 = 0.5 * (p3 - p0) + 1.5 * (p1 - p2);
}

double rpl_water_seg_value(const seg_t *s, double t)
{
    return s->c0 + t * (s->c1 + t * (s->c2 + t * s->c3));
}

double rpl_water_seg_deriv(const seg_t *s, double t)
{
    return s->c1 + t * (2 * s->c2 + t * 3 * s->c3);
}

/* ---- stepping ------------------------------------------------------------ */

void rpl_water_springs_step(rpl_water_t *w)
{
    const rpl_water_params_t *p = &w->p;
    int n = w->n;
    double *y = w->y, *v = w->v, *d = w->d;
    double k = p->stiffness, damp = p->damping, s = p->spread;
    int mirror = p->ends == RPL_ENDS_REFLECT;

    for (int j = 0; j < n; j++) {
        v[j] += -k * y[j] - damp * v[j];
        y[j] += v[j];
    }
    for (int pass = 0; pass < p->passes; pass++) {
        /* Spring j gets r_{j-1} = s (y_{j-1} - y_j) from its left and
         * l_{j+1} = s (y_{j+1} - y_j) from its right, both from the
         * positions before the pass; a mirrored end's missing neighbour
         * is its mirror image, a free end has none.  Left before right,
         * so a mirrored state stays mirrored bit for bit. */
        d[0] = (mirror ? s * (y[1] - y[0]) : 0) + s * (y[1] - y[0]);
        for (int j = 1; j < n - 1; j++)
            d[j] = s * (y[j - 1] - y[j]) + s * (y[j + 1] - y[j]);
        d[n - 1] = s * (y[n - 2] - y[n - 1]) + (mirror ? s * (y[n - 2] - y[n - 1]) : 0);
        for (int j = 0; j < n; j++)
            v[j] += d[j];
        for (int j = 0; j < n; j++)
            y[j] += d[j];
    }
    if (w->absorb) {
        for (int j = 0; j < n; j++)
            v[j] *= 1 - w->absorb[j];
    }
    /* The bounds of ripple/side.h: a spring that meets one stops there.
     * Something that keeps pushing the surface (hundreds of bodies bobbing
     * on a short chain) then meets a wall instead of growing without end;
     * the waves of an ordinary scene stay well inside (a fast body's
     * impact sinks the surface about as deep as the water). */
    double reach = RPL_WATER_REACH * (p->bottom - p->level);
    for (int j = 0; j < n; j++) {
        if (y[j] > reach) {
            y[j] = reach;
            v[j] = fmin(v[j], 0);
        } else if (y[j] < -reach) {
            y[j] = -reach;
            v[j] = fmax(v[j], 0);
        }
        v[j] = rpl_water_bound_v(p, v[j]);
    }
    w->steps++;
    w->gen++;

    double big = 0;
    for (int j = 0; j < n; j++) {
        double a = fabs(y[j]), b = fabs(v[j]);
        if (a > big)
            big = a;
        if (b > big)
            big = b;
    }
    w->calm = big < p->sleep_epsilon ? w->calm + 1 : 0;
}
