/* core/side/water.c - side-view water for 2D games: a chain of springs (or analytic rings) under a moving surface, stepped at a fixed rate. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/base.h"
#include "core/side/water.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* Rings this close in time (seconds) and within a quarter wavelength are one. */
#define RPL_RING_MERGE_S 0.1

typedef struct ring {
    double x;        /* centre */
    double amp;      /* amplitude at birth, world units (down positive) */
    uint64_t born;   /* step count at birth: its age is (steps - born) * step */
} ring_t;

struct rpl_water {
    rpl_water_params_t p;
    int n;            /* springs allocated (p.springs) */
    double *y, *v;    /* displacement (down +) and velocity per step */
    double *d;        /* one pass's deltas (scratch) */
    double *absorb;   /* ABSORB: the band's extra damping per spring, else NULL */
    ring_t rings[RPL_WAVES_MAX];
    int nrings;       /* oldest first */
    uint64_t steps;
    double acc;       /* seconds not yet stepped */
    int awake;
    int calm;         /* steps in a row below sleep_epsilon / without a ring */
    /* waves: the surface at the coupling's grid (core/side/water.h), filled in
     * point by point as buoyancy.c reads it: gh[k] holds while gstamp[k]
     * == gen.  gen moves on when the whole surface may change (a step, new
     * parameters, flattening); a disturbance marks stale only the samples
     * its ring reaches (grid_stale_ring).  So each point is summed over
     * the rings about once a step instead of once per body (and per
     * crossing) that reads it.  The arrays are written through a const
     * rpl_water_t: a cache, not the surface. */
    long glast;       /* intervals; 0 (and gh NULL) for springs */
    double *gh;       /* glast + 1 heights, then glast + 1 stamps, one block */
    uint64_t *gstamp;
    uint64_t gen;     /* >= 1 once created; stamps start at 0 */
    char err[160];
};

static rpl_status water_fail(rpl_water_t *w, rpl_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static rpl_status water_fail(rpl_water_t *w, rpl_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->err, sizeof w->err, fmt, ap);
    va_end(ap);
    return st;
}

void rpl_water_defaults(rpl_water_params_t *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    p->kind = RPL_SURFACE_SPRINGS;
    p->x0 = 0;
    p->x1 = 640;
    p->level = 300;
    p->bottom = 480;
    p->ends = RPL_ENDS_REFLECT;
    p->step = 1.0 / 60;
    p->max_steps = 8;
    p->springs = 64;
    p->stiffness = 0.02;
    p->damping = 0.04;
    p->spread = 0.05;
    p->passes = 8;
    p->frequency = 2;
    p->wavelength = 60;
    p->life = 4;
    p->force_min = 0.5;
    p->force_max = 5;
    p->speed_max = 900;
    p->sleep_epsilon = 0.01;
    p->sleep_steps = 60;
    p->density = 0.001;
    p->drag = 0.6;
    p->angular_drag = 0.5;
    p->max_dv = 600;
}

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
        lambda[j] = 2 - 2 * cos(M_PI * j / LIMIT_MODES);
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

/* ---- checking ---------------------------------------------------------- */

static rpl_status refuse(char *why, size_t len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static rpl_status refuse(char *why, size_t len, const char *fmt, ...)
{
    if (why && len > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, len, fmt, ap);
        va_end(ap);
    }
    return RPL_EINVAL;
}

/* A real in [lo, hi] (open ends when lo_open / hi_open). */
static int in_range(double v, double lo, int lo_open, double hi, int hi_open)
{
    if (!isfinite(v))
        return 0;
    if (lo_open ? !(v > lo) : !(v >= lo))
        return 0;
    if (hi_open ? !(v < hi) : !(v <= hi))
        return 0;
    return 1;
}

#define WORLD 1e9 /* world coordinates beyond this are refused */

rpl_status rpl_water_check(const rpl_water_params_t *p, char *why, size_t len)
{
    if (why && len > 0)
        why[0] = 0;
    if (!p)
        return refuse(why, len, "no parameters (NULL)");
    if (p->kind != RPL_SURFACE_SPRINGS && p->kind != RPL_SURFACE_WAVES)
        return refuse(why, len, "kind %d: must be springs (0) or waves (1)", (int)p->kind);
    if (!in_range(p->x0, -WORLD, 0, WORLD, 0) || !in_range(p->x1, -WORLD, 0, WORLD, 0) ||
        !(p->x0 < p->x1))
        return refuse(why, len, "x0 %g, x1 %g: must be finite with x0 < x1 (|x| <= 1e9)", p->x0,
                      p->x1);
    if (!in_range(p->level, -WORLD, 0, WORLD, 0) || !in_range(p->bottom, -WORLD, 0, WORLD, 0) ||
        !(p->bottom > p->level))
        return refuse(why, len, "level %g, bottom %g: must be finite with bottom > level",
                      p->level, p->bottom);
    if (p->ends != RPL_ENDS_FREE && p->ends != RPL_ENDS_REFLECT && p->ends != RPL_ENDS_ABSORB)
        return refuse(why, len, "ends %d: must be free (0), reflect (1) or absorb (2)",
                      (int)p->ends);
    if (!in_range(p->step, 0, 1, 0.1, 0))
        return refuse(why, len, "step %g: must be in (0, 0.1] seconds", p->step);
    if (p->max_steps < 1 || p->max_steps > 1000)
        return refuse(why, len, "max_steps %d: must be in 1..1000", p->max_steps);
    if (p->springs < RPL_SPRINGS_MIN || p->springs > RPL_SPRINGS_MAX)
        return refuse(why, len, "springs %d: must be in %d..%d", p->springs, RPL_SPRINGS_MIN,
                      RPL_SPRINGS_MAX);
    if (!in_range(p->stiffness, 0, 0, 1, 0))
        return refuse(why, len, "stiffness %g: must be in [0, 1]", p->stiffness);
    if (!in_range(p->damping, 0, 0, 1, 0))
        return refuse(why, len, "damping %g: must be in [0, 1]", p->damping);
    if (p->passes < 1 || p->passes > RPL_PASSES_MAX)
        return refuse(why, len, "passes %d: must be in 1..%d", p->passes, RPL_PASSES_MAX);
    if (!isfinite(p->spread) || p->spread < 0)
        return refuse(why, len, "spread %g: must be finite and >= 0", p->spread);
    double lim = rpl_water_spread_limit(p);
    if (!(p->spread < lim))
        return refuse(why, len, "spread %g is unstable with %d pass%s: must be below %.4f",
                      p->spread, p->passes, p->passes == 1 ? "" : "es", lim);
    if (!in_range(p->frequency, 0, 1, 100, 0))
        return refuse(why, len, "frequency %g: must be in (0, 100] Hz", p->frequency);
    if (!in_range(p->wavelength, 0, 1, 1e6, 0))
        return refuse(why, len, "wavelength %g: must be in (0, 1e6]", p->wavelength);
    if (!in_range(p->life, 0, 1, 600, 0))
        return refuse(why, len, "life %g: must be in (0, 600] seconds", p->life);
    if (!in_range(p->force_min, 0, 0, WORLD, 0) || !in_range(p->force_max, 0, 0, WORLD, 0) ||
        !(p->force_min <= p->force_max))
        return refuse(why, len,
                      "force_min %g, force_max %g: must be finite with 0 <= force_min <= force_max",
                      p->force_min, p->force_max);
    if (!in_range(p->speed_max, 0, 1, WORLD, 0))
        return refuse(why, len, "speed_max %g: must be finite and > 0", p->speed_max);
    if (!in_range(p->sleep_epsilon, 0, 0, WORLD, 0))
        return refuse(why, len, "sleep_epsilon %g: must be finite and >= 0", p->sleep_epsilon);
    if (p->sleep_steps < 1)
        return refuse(why, len, "sleep_steps %d: must be >= 1", p->sleep_steps);
    if (!in_range(p->density, 0, 1, WORLD, 0))
        return refuse(why, len, "density %g: must be finite and > 0", p->density);
    if (!in_range(p->drag, 0, 0, WORLD, 0))
        return refuse(why, len, "drag %g: must be finite and >= 0", p->drag);
    if (!in_range(p->angular_drag, 0, 0, WORLD, 0))
        return refuse(why, len, "angular_drag %g: must be finite and >= 0", p->angular_drag);
    if (!in_range(p->max_dv, 0, 1, WORLD, 0))
        return refuse(why, len, "max_dv %g: must be finite and > 0", p->max_dv);
    return RPL_OK;
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

/* The uniform Catmull-Rom segment from a[i] to a[i+1] as c0 + t (c1 + t
 * (c2 + t c3)), t in [0, 1]: through both points, with tangents half the
 * difference of their neighbours. */
typedef struct seg {
    int i;
    double c0, c1, c2, c3;
} seg_t;

static void seg_make(seg_t *s, const double *a, int n, rpl_water_ends ends, int i)
{
    double p0 = ext(a, n, ends, i - 1), p1 = a[i], p2 = a[i + 1], p3 = ext(a, n, ends, i + 2);
    s->i = i;
    s->c0 = p1;
    s->c1 = 0.5 * (p2 - p0);
    s->c2 = p0 - 2.5 * p1 + 2 * p2 - 0.5 * p3;
    s->c3 = 0.5 * (p3 - p0) + 1.5 * (p1 - p2);
}

static double seg_value(const seg_t *s, double t)
{
    return s->c0 + t * (s->c1 + t * (s->c2 + t * s->c3));
}

static double seg_deriv(const seg_t *s, double t)
{
    return s->c1 + t * (2 * s->c2 + t * 3 * s->c3);
}

static double clamp_x(const rpl_water_t *w, double x)
{
    if (!(x >= w->p.x0)) /* NaN too */
        return w->p.x0;
    if (x > w->p.x1)
        return w->p.x1;
    return x;
}

/* x (clamped) as a segment index and a position in it. */
static int locate(const rpl_water_t *w, double x, double *t)
{
    double u = (clamp_x(w, x) - w->p.x0) / (w->p.x1 - w->p.x0) * (w->n - 1);
    int i = (int)floor(u);
    if (i > w->n - 2)
        i = w->n - 2;
    if (i < 0)
        i = 0;
    double f = u - i;
    *t = f < 0 ? 0 : f > 1 ? 1 : f;
    return i;
}

/* ---- analytic rings ------------------------------------------------------ */

/* A ring lives while its age in whole steps is below life / step, counted
 * in steps so that rounding of age = steps * step never decides it. */
static uint64_t life_steps(const rpl_water_params_t *p)
{
    return (uint64_t)ceil(p->life / p->step - 1e-9);
}

/* Where a ring's waves come from: the ring itself, and with FREE or
 * REFLECT ends its images in the walls, to second order: mirrored in x0
 * (the wave once reflected off the left wall), in x1, and the images of
 * those in the other wall (reflected off both, left then right and right
 * then left).  An image's wave is the ring's own (same amplitude and
 * birth) from that place, so on the wall a ring and its image meet in
 * phase and the surface there has no slope: the upright bounce of a
 * mirrored spring chain.  Third and later reflections are left out (a
 * wave that has crossed the basin three times runs on through the wall);
 * ABSORB has no images, its waves leave. */
enum { RING_SOURCES_MAX = 5 };

static int ring_sources(const rpl_water_params_t *p, double xr, double *src)
{
    src[0] = xr;
    if (p->ends == RPL_ENDS_ABSORB)
        return 1;
    double left = 2 * p->x0 - xr, right = 2 * p->x1 - xr;
    src[1] = left;
    src[2] = right;
    src[3] = 2 * p->x1 - left;  /* off the left wall, then the right */
    src[4] = 2 * p->x0 - right; /* off the right wall, then the left */
    return RING_SOURCES_MAX;
}

/* Displacement, d/dt (per second) and d/dx at x of the rings alive. */
static void rings_eval(const rpl_water_t *w, double x, double *h, double *dt, double *dx)
{
    const rpl_water_params_t *p = &w->p;
    double omega = 2 * M_PI * p->frequency, c = p->frequency * p->wavelength;
    double sh = 0, sdt = 0, sdx = 0;
    uint64_t lives = life_steps(p);
    for (int r = 0; r < w->nrings; r++) {
        const ring_t *g = &w->rings[r];
        if (w->steps - g->born >= lives)
            continue;
        double age = (double)(w->steps - g->born) * p->step;
        /* a wave has gone c * age from its source: further away it has not
         * arrived, and that costs a compare, not a sine */
        double reach = c * age, src[RING_SOURCES_MAX];
        int ns = ring_sources(p, g->x, src);
        for (int i = 0; i < ns; i++) {
            double dist = x - src[i], s = fabs(dist);
            if (s > reach)
                continue;
            double fade = 1 - age / p->life, env = g->amp * fade * fade;
            double phase = omega * (age - s / c);
            double sn = sin(phase), cs = cos(phase);
            sh += env * sn;
            if (dt)
                sdt += g->amp * (-2 / p->life * fade * sn) + env * omega * cs;
            if (dx)
                sdx += env * cs * (-omega / c) * (dist < 0 ? -1 : dist > 0 ? 1 : 0);
        }
    }
    *h = sh;
    if (dt)
        *dt = sdt;
    if (dx)
        *dx = sdx;
}

/* ---- creating ------------------------------------------------------------ */

/* The ABSORB band: the outer 8% of springs at each end (at least 8), with
 * an extra damping of v rising as the square of the depth into the band
 * to 0.1 per step at the end spring, so a wave meets no sudden change to
 * reflect from.  Damping y as well, or a steeper or shorter band, sends
 * more back: measured against the same pulse on a chain five times as
 * long, this one returns about a tenth of the energy a mirrored end does
 * (pulses 40 units wide, 64 to 256 springs, stiffness 0.002 to 0.02). */
#define ABSORB_SHARE 0.08
#define ABSORB_MIN 8
#define ABSORB_MAX_DAMP 0.1

static void absorb_fill(double *a, int n)
{
    int band = (int)ceil(ABSORB_SHARE * n);
    if (band < ABSORB_MIN)
        band = ABSORB_MIN;
    if (band > n / 2)
        band = n / 2;
    for (int j = 0; j < n; j++) {
        int e = j < n - 1 - j ? j : n - 1 - j; /* springs from the nearer end */
        double depth = e < band ? (double)(band - e) / band : 0;
        a[j] = ABSORB_MAX_DAMP * depth * depth;
    }
}

static void flatten(rpl_water_t *w)
{
    memset(w->y, 0, (size_t)w->n * sizeof *w->y);
    memset(w->v, 0, (size_t)w->n * sizeof *w->v);
    w->nrings = 0;
    w->awake = 0;
    w->calm = 0;
    w->gen++;
}

/* Arrays for n springs in one block: y, v, d, absorb. */
static double *arrays_alloc(int n)
{
    return calloc((size_t)n * 4, sizeof(double));
}

static void arrays_attach(rpl_water_t *w, double *block, int n)
{
    w->n = n;
    w->y = block;
    w->v = block + n;
    w->d = block + 2 * (size_t)n;
    w->absorb = w->p.ends == RPL_ENDS_ABSORB ? block + 3 * (size_t)n : NULL;
    if (w->absorb)
        absorb_fill(w->absorb, n);
}

/* The grid cache's intervals for parameters p: 0 for springs (no cache). */
static long grid_last(const rpl_water_params_t *p)
{
    return p->kind == RPL_SURFACE_WAVES ? rpl_wave_grid_last(p->x0, p->x1) : 0;
}

/* One block for last + 1 heights and last + 1 stamps, the stamps 0
 * (stale); NULL when out of memory. */
static double *grid_alloc(long last)
{
    return calloc((size_t)last + 1, sizeof(double) + sizeof(uint64_t));
}

static void grid_attach(rpl_water_t *w, double *block, long last)
{
    w->glast = last;
    w->gh = block;
    w->gstamp = block ? (uint64_t *)(block + last + 1) : NULL;
}

rpl_water_t *rpl_water_create(const rpl_water_params_t *p, rpl_status *status)
{
    rpl_status st = rpl_water_check(p, NULL, 0);
    if (st != RPL_OK) {
        if (status)
            *status = st;
        return NULL;
    }
    rpl_water_t *w = calloc(1, sizeof *w);
    double *block = w ? arrays_alloc(p->springs) : NULL;
    long glast = grid_last(p);
    double *grid = block && glast > 0 ? grid_alloc(glast) : NULL;
    if (!block || (glast > 0 && !grid)) {
        free(block);
        free(w);
        if (status)
            *status = RPL_ENOMEM;
        return NULL;
    }
    w->p = *p;
    arrays_attach(w, block, p->springs);
    grid_attach(w, grid, glast);
    flatten(w);
    if (status)
        *status = RPL_OK;
    return w;
}

void rpl_water_destroy(rpl_water_t *w)
{
    if (!w)
        return;
    free(w->y);
    free(w->gh);
    free(w);
}

const char *rpl_water_error(const rpl_water_t *w)
{
    return w ? w->err : "no water (NULL)";
}

const rpl_water_params_t *rpl_water_params(const rpl_water_t *w)
{
    return w ? &w->p : NULL;
}

static int params_equal(const rpl_water_params_t *a, const rpl_water_params_t *b)
{
    return a->kind == b->kind && a->x0 == b->x0 && a->x1 == b->x1 && a->level == b->level &&
           a->bottom == b->bottom && a->ends == b->ends && a->step == b->step &&
           a->max_steps == b->max_steps && a->springs == b->springs &&
           a->stiffness == b->stiffness && a->damping == b->damping && a->spread == b->spread &&
           a->passes == b->passes && a->frequency == b->frequency &&
           a->wavelength == b->wavelength && a->life == b->life && a->force_min == b->force_min &&
           a->force_max == b->force_max && a->speed_max == b->speed_max &&
           a->sleep_epsilon == b->sleep_epsilon && a->sleep_steps == b->sleep_steps &&
           a->density == b->density && a->drag == b->drag && a->angular_drag == b->angular_drag &&
           a->max_dv == b->max_dv;
}

rpl_status rpl_water_set_params(rpl_water_t *w, const rpl_water_params_t *p)
{
    if (!w)
        return RPL_EINVAL;
    char why[sizeof w->err];
    if (rpl_water_check(p, why, sizeof why) != RPL_OK)
        return water_fail(w, RPL_EINVAL, "%s", why);
    if (params_equal(&w->p, p))
        return RPL_OK; /* nothing changes, and a sleeping body sleeps on */
    long glast = grid_last(p);
    double *grid = w->gh;
    if (glast != w->glast) {
        grid = glast > 0 ? grid_alloc(glast) : NULL;
        if (glast > 0 && !grid)
            return water_fail(w, RPL_ENOMEM, "no memory for %ld surface samples", glast + 1);
    }
    double *block = w->y;
    if (p->springs != w->n) {
        /* Resampled: new spring j takes the old spline at the same share
         * of the width. */
        block = arrays_alloc(p->springs);
        if (!block) {
            if (grid != w->gh)
                free(grid);
            return water_fail(w, RPL_ENOMEM, "no memory for %d springs", p->springs);
        }
        int m = p->springs;
        for (int j = 0; j < m; j++) {
            double u = (double)j / (m - 1) * (w->n - 1);
            int i = (int)floor(u);
            if (i > w->n - 2)
                i = w->n - 2;
            seg_t sy, sv;
            seg_make(&sy, w->y, w->n, w->p.ends, i);
            seg_make(&sv, w->v, w->n, w->p.ends, i);
            block[j] = seg_value(&sy, u - i);
            block[m + j] = seg_value(&sv, u - i);
        }
        free(w->y);
    }
    int model_changed = p->kind != w->p.kind;
    w->p = *p;
    arrays_attach(w, block, p->springs);
    if (grid != w->gh)
        free(w->gh);
    grid_attach(w, grid, glast);
    w->gen++; /* anything may have changed: the cache is stale */
    if (model_changed) {
        memset(w->y, 0, (size_t)w->n * sizeof *w->y);
        memset(w->v, 0, (size_t)w->n * sizeof *w->v);
        w->nrings = 0;
    }
    w->awake = 1;
    w->calm = 0;
    return RPL_OK;
}

void rpl_water_reset(rpl_water_t *w)
{
    if (!w)
        return;
    flatten(w);
    w->steps = 0;
    w->acc = 0;
}

/* ---- stepping ------------------------------------------------------------ */

static void springs_step(rpl_water_t *w)
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

static void rings_step(rpl_water_t *w)
{
    w->steps++;
    w->gen++; /* every ring is a step older */
    /* All rings live equally long, so the dead ones are the oldest. */
    int dead = 0;
    uint64_t lives = life_steps(&w->p);
    while (dead < w->nrings && w->steps - w->rings[dead].born >= lives)
        dead++;
    if (dead) {
        memmove(w->rings, w->rings + dead, (size_t)(w->nrings - dead) * sizeof *w->rings);
        w->nrings -= dead;
    }
    w->calm = w->nrings == 0 ? w->calm + 1 : 0;
}

void rpl_water_step(rpl_water_t *w)
{
    if (!w || !w->awake)
        return;
    if (w->p.kind == RPL_SURFACE_SPRINGS)
        springs_step(w);
    else
        rings_step(w);
    if (w->calm >= w->p.sleep_steps)
        flatten(w);
}

int rpl_water_advance(rpl_water_t *w, double seconds)
{
    if (!w || !isfinite(seconds) || seconds < 0)
        return -1;
    w->acc += seconds;
    /* The tiny allowance keeps rounding from putting off a step that the
     * frames add up to exactly (two frames of 1/120 s: one 1/60 s step). */
    double whole = floor(w->acc / w->p.step + 1e-9);
    int n;
    if (whole > w->p.max_steps) {
        n = w->p.max_steps;
        w->acc = 0; /* the rest is dropped: no racing after a stall */
    } else {
        n = (int)whole;
        w->acc -= n * w->p.step;
        if (w->acc < 0)
            w->acc = 0;
    }
    int taken = 0;
    for (int i = 0; i < n && w->awake; i++) {
        rpl_water_step(w);
        taken++;
    }
    return taken;
}

uint64_t rpl_water_steps(const rpl_water_t *w)
{
    return w ? w->steps : 0;
}

double rpl_water_time(const rpl_water_t *w)
{
    return w ? (double)w->steps * w->p.step : 0;
}

int rpl_water_awake(const rpl_water_t *w)
{
    return w ? w->awake : 0;
}

double rpl_water_energy(const rpl_water_t *w)
{
    if (!w)
        return 0;
    double e = 0;
    if (w->p.kind == RPL_SURFACE_SPRINGS) {
        for (int j = 0; j < w->n; j++)
            e += w->y[j] * w->y[j] + w->v[j] * w->v[j];
    } else {
        uint64_t lives = life_steps(&w->p);
        for (int r = 0; r < w->nrings; r++) {
            double age = (double)(w->steps - w->rings[r].born) * w->p.step;
            if (w->steps - w->rings[r].born >= lives)
                continue;
            double fade = 1 - age / w->p.life, a = w->rings[r].amp * fade * fade;
            e += a * a;
        }
    }
    return e;
}

/* ---- reading the surface --------------------------------------------------- */

double rpl_water_height(const rpl_water_t *w, double x)
{
    if (!w)
        return 0;
    if (w->p.kind == RPL_SURFACE_WAVES) {
        double h;
        rings_eval(w, clamp_x(w, x), &h, NULL, NULL);
        return w->p.level + h;
    }
    double t;
    seg_t s;
    seg_make(&s, w->y, w->n, w->p.ends, locate(w, x, &t));
    return w->p.level + seg_value(&s, t);
}

double rpl_water_slope(const rpl_water_t *w, double x)
{
    if (!w)
        return 0;
    if (w->p.kind == RPL_SURFACE_WAVES) {
        double h, dx;
        rings_eval(w, clamp_x(w, x), &h, NULL, &dx);
        return dx;
    }
    double t;
    seg_t s;
    seg_make(&s, w->y, w->n, w->p.ends, locate(w, x, &t));
    double spacing = (w->p.x1 - w->p.x0) / (w->n - 1);
    return seg_deriv(&s, t) / spacing;
}

double rpl_water_velocity(const rpl_water_t *w, double x)
{
    if (!w)
        return 0;
    if (w->p.kind == RPL_SURFACE_WAVES) {
        double h, dt;
        rings_eval(w, clamp_x(w, x), &h, &dt, NULL);
        return dt;
    }
    double t;
    seg_t s;
    seg_make(&s, w->v, w->n, w->p.ends, locate(w, x, &t));
    return seg_value(&s, t) / w->p.step;
}

rpl_status rpl_water_sample(const rpl_water_t *w, double x0, double dx, int n, float *out)
{
    if (!w || !out || n < 1 || !isfinite(x0) || !isfinite(dx))
        return RPL_EINVAL;
    double level = w->p.level;
    if (w->p.kind == RPL_SURFACE_WAVES) {
        for (int i = 0; i < n; i++) {
            double h;
            rings_eval(w, clamp_x(w, x0 + i * dx), &h, NULL, NULL);
            out[i] = (float)(level + h);
        }
        return RPL_OK;
    }
    seg_t s;
    s.i = -1;
    for (int i = 0; i < n; i++) {
        double t;
        int seg = locate(w, x0 + i * dx, &t);
        if (seg != s.i)
            seg_make(&s, w->y, w->n, w->p.ends, seg);
        out[i] = (float)(level + seg_value(&s, t));
    }
    return RPL_OK;
}

/* A disturbance changes one ring only (made stronger, started, or
 * dropped to make room), and where none of its sources reaches, rings_eval
 * skips it before and after: only the samples it reaches go stale, a few
 * for a young ring, so the cache outlives the many small rings bodies and
 * droplets start while the forces on the others are read.  The index range
 * is widened by a sample and more than the rounding of x0 + k * dx. */
static void grid_stale_ring(rpl_water_t *w, const ring_t *g)
{
    if (!w->gh)
        return;
    const rpl_water_params_t *p = &w->p;
    double reach = p->frequency * p->wavelength * ((double)(w->steps - g->born) * p->step);
    double span = p->x1 - p->x0, dx = span / (double)w->glast;
    double slack = dx + 1e-12 * (fabs(p->x0) + fabs(p->x1));
    double src[RING_SOURCES_MAX];
    int ns = ring_sources(p, g->x, src);
    for (int i = 0; i < ns; i++) {
        double lo = (src[i] - reach - slack - p->x0) / dx, hi = (src[i] + reach + slack - p->x0) / dx;
        if (!(hi >= 0 && lo <= (double)w->glast))
            continue; /* off the grid, or not a number: see below */
        long a = lo <= 0 ? 0 : (long)floor(lo), b = hi >= (double)w->glast ? w->glast : (long)ceil(hi);
        for (long k = a; k <= b; k++)
            w->gstamp[k] = 0;
    }
    if (!isfinite(reach) || !isfinite(g->amp))
        w->gen++; /* never expected; the whole cache then, to be safe */
}

double rpl_water_grid_height(const rpl_water_t *w, long k)
{
    if (!w)
        return 0;
    const rpl_water_params_t *p = &w->p;
    if (!w->gh)
        return rpl_water_height(w, rpl_wave_grid_x(p->x0, p->x1, rpl_wave_grid_last(p->x0, p->x1),
                                                   k < 0 ? 0 : k));
    if (k < 0)
        k = 0;
    if (k > w->glast)
        k = w->glast;
    if (w->gstamp[k] != w->gen) {
        /* the pointers are const in a const w, what they point to is not */
        w->gh[k] = rpl_water_height(w, rpl_wave_grid_x(p->x0, p->x1, w->glast, k));
        w->gstamp[k] = w->gen;
    }
    return w->gh[k];
}

int rpl_water_springs(const rpl_water_t *w)
{
    return w ? w->n : 0;
}

const double *rpl_water_spring_y(const rpl_water_t *w)
{
    return w && w->p.kind == RPL_SURFACE_SPRINGS ? w->y : NULL;
}

const double *rpl_water_spring_v(const rpl_water_t *w)
{
    return w && w->p.kind == RPL_SURFACE_SPRINGS ? w->v : NULL;
}

int rpl_water_rings(const rpl_water_t *w)
{
    return w ? w->nrings : 0;
}

/* ---- disturbing ------------------------------------------------------------ */

rpl_status rpl_water_disturb(rpl_water_t *w, double x, double dv)
{
    if (!w)
        return RPL_EINVAL;
    if (!isfinite(x) || x < w->p.x0 || x > w->p.x1)
        return water_fail(w, RPL_EINVAL, "disturb at x %g: outside [%g, %g]", x, w->p.x0,
                          w->p.x1);
    if (!isfinite(dv))
        return water_fail(w, RPL_EINVAL, "disturb by %g: must be finite", dv);
    if (w->p.kind == RPL_SURFACE_WAVES) {
        /* a ring started close by a moment ago takes this one in: a splash's
         * droplets falling back would otherwise fill every ring at once,
         * and each height read would sum hundreds of rings no eye tells apart */
        uint64_t recent = (uint64_t)(RPL_RING_MERGE_S / w->p.step);
        for (int r = w->nrings - 1; r >= 0; r--) {
            ring_t *g = &w->rings[r];
            if (w->steps - g->born > recent)
                break; /* older ones are further down: oldest first */
            if (fabs(g->x - x) <= 0.25 * w->p.wavelength) {
                g->amp += dv;
                grid_stale_ring(w, g);
                w->awake = 1;
                w->calm = 0;
                return RPL_OK;
            }
        }
        if (w->nrings == RPL_WAVES_MAX) {
            grid_stale_ring(w, &w->rings[0]);
            memmove(w->rings, w->rings + 1, (RPL_WAVES_MAX - 1) * sizeof *w->rings);
            w->nrings--;
        }
        w->rings[w->nrings++] = (ring_t){x, dv, w->steps};
        grid_stale_ring(w, &w->rings[w->nrings - 1]);
    } else {
        double t;
        int i = locate(w, x, &t);
        w->v[i] += dv * (1 - t);
        w->v[i + 1] += dv * t;
    }
    w->awake = 1;
    w->calm = 0;
    return RPL_OK;
}

rpl_status rpl_water_impact(rpl_water_t *w, double x, double vy, double *force)
{
    if (!w)
        return RPL_EINVAL;
    if (!isfinite(vy))
        return water_fail(w, RPL_EINVAL, "impact speed %g: must be finite", vy);
    double share = fabs(vy) / w->p.speed_max;
    if (share > 1)
        share = 1;
    double f = w->p.force_min + (w->p.force_max - w->p.force_min) * share;
    if (vy < 0) /* coming out pulls the surface up; a touch at speed 0 presses down */
        f = -f;
    rpl_status st = rpl_water_disturb(w, x, f);
    if (force)
        *force = st == RPL_OK ? f : 0;
    return st;
}
