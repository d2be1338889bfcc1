/* core/side/water.c - side-view water for 2D games: a chain of springs (water_springs.c) or analytic rings (water_rings.c) under a moving surface, stepped at a fixed rate. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/base.h"
#include "core/side/water_grid.h"
#include "core/side/water_state.h"

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

/* ---- checking ---------------------------------------------------------- */

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

/* The parameters' check: RPL_OK, or RPL_EINVAL with the reason in e. */
static rpl_status check(const rpl_water_params_t *p, rpl_err_t *e)
{
    if (!p)
        return rpl_err_set(e, RPL_EINVAL, "no parameters (NULL)");
    if (p->kind != RPL_SURFACE_SPRINGS && p->kind != RPL_SURFACE_WAVES)
        return rpl_err_set(e, RPL_EINVAL, "kind %d: must be springs (0) or waves (1)", (int)p->kind);
    if (!in_range(p->x0, -WORLD, 0, WORLD, 0) || !in_range(p->x1, -WORLD, 0, WORLD, 0) ||
        !(p->x0 < p->x1))
        return rpl_err_set(e, RPL_EINVAL, "x0 %g, x1 %g: must be finite with x0 < x1 (|x| <= 1e9)", p->x0,
                      p->x1);
    if (!in_range(p->level, -WORLD, 0, WORLD, 0) || !in_range(p->bottom, -WORLD, 0, WORLD, 0) ||
        !(p->bottom > p->level))
        return rpl_err_set(e, RPL_EINVAL, "level %g, bottom %g: must be finite with bottom > level",
                      p->level, p->bottom);
    if (p->ends != RPL_ENDS_FREE && p->ends != RPL_ENDS_REFLECT && p->ends != RPL_ENDS_ABSORB)
        return rpl_err_set(e, RPL_EINVAL, "ends %d: must be free (0), reflect (1) or absorb (2)",
                      (int)p->ends);
    if (!in_range(p->step, RPL_WATER_STEP_MIN, 0, 0.1, 0))
        return rpl_err_set(e, RPL_EINVAL, "step %g: must be in [%g, 0.1] seconds", p->step,
                           RPL_WATER_STEP_MIN);
    if (p->max_steps < 1 || p->max_steps > 1000)
        return rpl_err_set(e, RPL_EINVAL, "max_steps %d: must be in 1..1000", p->max_steps);
    if (p->springs < RPL_SPRINGS_MIN || p->springs > RPL_SPRINGS_MAX)
        return rpl_err_set(e, RPL_EINVAL, "springs %d: must be in %d..%d", p->springs, RPL_SPRINGS_MIN,
                      RPL_SPRINGS_MAX);
    if (!in_range(p->stiffness, 0, 0, 1, 0))
        return rpl_err_set(e, RPL_EINVAL, "stiffness %g: must be in [0, 1]", p->stiffness);
    if (!in_range(p->damping, 0, 0, 1, 0))
        return rpl_err_set(e, RPL_EINVAL, "damping %g: must be in [0, 1]", p->damping);
    if (p->passes < 1 || p->passes > RPL_PASSES_MAX)
        return rpl_err_set(e, RPL_EINVAL, "passes %d: must be in 1..%d", p->passes, RPL_PASSES_MAX);
    if (!isfinite(p->spread) || p->spread < 0)
        return rpl_err_set(e, RPL_EINVAL, "spread %g: must be finite and >= 0", p->spread);
    double lim = rpl_water_spread_limit(p);
    if (!(p->spread < lim))
        return rpl_err_set(e, RPL_EINVAL, "spread %g is unstable with %d pass%s: must be below %.4f",
                      p->spread, p->passes, p->passes == 1 ? "" : "es", lim);
    if (!in_range(p->frequency, 0, 1, 100, 0))
        return rpl_err_set(e, RPL_EINVAL, "frequency %g: must be in (0, 100] Hz", p->frequency);
    if (!in_range(p->wavelength, 0, 1, 1e6, 0))
        return rpl_err_set(e, RPL_EINVAL, "wavelength %g: must be in (0, 1e6]", p->wavelength);
    if (!in_range(p->life, 0, 1, 600, 0))
        return rpl_err_set(e, RPL_EINVAL, "life %g: must be in (0, 600] seconds", p->life);
    if (!in_range(p->force_min, 0, 0, WORLD, 0) || !in_range(p->force_max, 0, 0, WORLD, 0) ||
        !(p->force_min <= p->force_max))
        return rpl_err_set(e, RPL_EINVAL,
                      "force_min %g, force_max %g: must be finite with 0 <= force_min <= force_max",
                      p->force_min, p->force_max);
    if (!in_range(p->speed_max, 0, 1, WORLD, 0))
        return rpl_err_set(e, RPL_EINVAL, "speed_max %g: must be finite and > 0", p->speed_max);
    if (!in_range(p->sleep_epsilon, 0, 0, WORLD, 0))
        return rpl_err_set(e, RPL_EINVAL, "sleep_epsilon %g: must be finite and >= 0", p->sleep_epsilon);
    if (p->sleep_steps < 1)
        return rpl_err_set(e, RPL_EINVAL, "sleep_steps %d: must be >= 1", p->sleep_steps);
    if (!in_range(p->density, 0, 1, WORLD, 0))
        return rpl_err_set(e, RPL_EINVAL, "density %g: must be finite and > 0", p->density);
    if (!in_range(p->drag, 0, 0, WORLD, 0))
        return rpl_err_set(e, RPL_EINVAL, "drag %g: must be finite and >= 0", p->drag);
    if (!in_range(p->angular_drag, 0, 0, WORLD, 0))
        return rpl_err_set(e, RPL_EINVAL, "angular_drag %g: must be finite and >= 0", p->angular_drag);
    if (!in_range(p->max_dv, 0, 1, WORLD, 0))
        return rpl_err_set(e, RPL_EINVAL, "max_dv %g: must be finite and > 0", p->max_dv);
    return RPL_OK;
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
    rpl_water_terms_build(w);
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

rpl_status rpl_water_create(const rpl_water_params_t *p, rpl_water_t **out)
{
    if (!out)
        return RPL_EINVAL;
    rpl_water_t *w = *out = calloc(1, sizeof *w);
    if (!w)
        return RPL_ENOMEM;
    rpl_status st = check(p, &w->err);
    if (st != RPL_OK)
        return st;
    double *block = arrays_alloc(p->springs);
    long glast = rpl_water_grid_last(p);
    double *grid = block && glast > 0 ? rpl_water_grid_alloc(glast) : NULL;
    if (!block || (glast > 0 && !grid)) {
        free(block);
        return rpl_err_set(&w->err, RPL_ENOMEM, "no memory for %d springs and %ld surface samples",
                           p->springs, glast + 1);
    }
    w->p = *p;
    w->avx2 = rpl_water_rings_avx2(rpl_kernels_get("auto"));
    arrays_attach(w, block, p->springs);
    rpl_water_grid_attach(w, grid, glast);
    flatten(w);
    return RPL_OK;
}

rpl_status rpl_water_set_kernels(rpl_water_t *w, const rpl_kernels_t *k)
{
    if (!water_usable(w) || !k)
        return RPL_EINVAL;
    w->avx2 = rpl_water_rings_avx2(k);
    return RPL_OK;
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
    return w ? rpl_err_text(&w->err) : "no water (NULL)";
}

const rpl_water_params_t *rpl_water_params(const rpl_water_t *w)
{
    return water_usable(w) ? &w->p : NULL;
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
    if (!water_usable(w))
        return RPL_EINVAL;
    if (check(p, &w->err) != RPL_OK)
        return RPL_EINVAL;
    if (params_equal(&w->p, p))
        return RPL_OK; /* nothing changes, and a sleeping body sleeps on */
    long glast = rpl_water_grid_last(p);
    double *grid = w->gh;
    if (glast != w->glast) {
        grid = glast > 0 ? rpl_water_grid_alloc(glast) : NULL;
        if (glast > 0 && !grid)
            return rpl_err_set(&w->err, RPL_ENOMEM, "no memory for %ld surface samples", glast + 1);
    }
    double *block = w->y;
    if (p->springs != w->n) {
        /* Resampled: new spring j takes the old spline at the same share
         * of the width. */
        block = arrays_alloc(p->springs);
        if (!block) {
            if (grid != w->gh)
                free(grid);
            return rpl_err_set(&w->err, RPL_ENOMEM, "no memory for %d springs", p->springs);
        }
        int m = p->springs;
        for (int j = 0; j < m; j++) {
            double u = (double)j / (m - 1) * (w->n - 1);
            int i = (int)floor(u);
            if (i > w->n - 2)
                i = w->n - 2;
            seg_t sy, sv;
            rpl_water_seg_make(&sy, w->y, w->n, w->p.ends, i);
            rpl_water_seg_make(&sv, w->v, w->n, w->p.ends, i);
            block[j] = rpl_water_seg_value(&sy, u - i);
            block[m + j] = rpl_water_seg_value(&sv, u - i);
        }
        free(w->y);
    }
    int model_changed = p->kind != w->p.kind;
    w->p = *p;
    arrays_attach(w, block, p->springs);
    if (grid != w->gh)
        free(w->gh);
    rpl_water_grid_attach(w, grid, glast);
    w->gen++; /* anything may have changed: the cache is stale */
    if (model_changed) {
        memset(w->y, 0, (size_t)w->n * sizeof *w->y);
        memset(w->v, 0, (size_t)w->n * sizeof *w->v);
        w->nrings = 0;
    }
    rpl_water_terms_build(w);
    w->awake = 1;
    w->calm = 0;
    return RPL_OK;
}

void rpl_water_reset(rpl_water_t *w)
{
    if (!water_usable(w))
        return;
    flatten(w);
    w->steps = 0;
    w->acc = 0;
}

/* ---- stepping ------------------------------------------------------------ */

void rpl_water_step(rpl_water_t *w)
{
    if (!water_usable(w) || !w->awake)
        return;
    if (w->p.kind == RPL_SURFACE_SPRINGS)
        rpl_water_springs_step(w);
    else
        rpl_water_rings_step(w);
    if (w->calm >= w->p.sleep_steps)
        flatten(w);
}

int rpl_water_advance(rpl_water_t *w, double seconds)
{
    if (!water_usable(w) || !isfinite(seconds) || seconds < 0)
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
    return water_usable(w) ? w->steps : 0;
}

double rpl_water_time(const rpl_water_t *w)
{
    return water_usable(w) ? (double)w->steps * w->p.step : 0;
}

int rpl_water_awake(const rpl_water_t *w)
{
    return water_usable(w) ? w->awake : 0;
}

double rpl_water_energy(const rpl_water_t *w)
{
    if (!water_usable(w))
        return 0;
    double e = 0;
    if (w->p.kind == RPL_SURFACE_SPRINGS) {
        for (int j = 0; j < w->n; j++)
            e += w->y[j] * w->y[j] + w->v[j] * w->v[j];
    } else {
        uint64_t lives = rpl_water_life_steps(&w->p);
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
    if (!water_usable(w))
        return 0;
    if (w->p.kind == RPL_SURFACE_WAVES) {
        double h;
        rpl_water_rings_eval(w, clamp_x(w, x), &h, NULL, NULL);
        return w->p.level + h;
    }
    double t;
    seg_t s;
    rpl_water_seg_make(&s, w->y, w->n, w->p.ends, locate(w, x, &t));
    return w->p.level + rpl_water_seg_value(&s, t);
}

double rpl_water_slope(const rpl_water_t *w, double x)
{
    if (!water_usable(w))
        return 0;
    if (w->p.kind == RPL_SURFACE_WAVES) {
        double h, dx;
        rpl_water_rings_eval(w, clamp_x(w, x), &h, NULL, &dx);
        return dx;
    }
    double t;
    seg_t s;
    rpl_water_seg_make(&s, w->y, w->n, w->p.ends, locate(w, x, &t));
    double spacing = (w->p.x1 - w->p.x0) / (w->n - 1);
    return rpl_water_seg_deriv(&s, t) / spacing;
}

double rpl_water_velocity(const rpl_water_t *w, double x)
{
    if (!water_usable(w))
        return 0;
    if (w->p.kind == RPL_SURFACE_WAVES) {
        double h, dt;
        rpl_water_rings_eval(w, clamp_x(w, x), &h, &dt, NULL);
        return dt;
    }
    double t;
    seg_t s;
    rpl_water_seg_make(&s, w->v, w->n, w->p.ends, locate(w, x, &t));
    return rpl_water_seg_value(&s, t) / w->p.step;
}

rpl_status rpl_water_sample(const rpl_water_t *w, double x0, double dx, int n, float *out)
{
    if (!water_usable(w) || !out || n < 1 || !isfinite(x0) || !isfinite(dx))
        return RPL_EINVAL;
    double level = w->p.level;
    if (w->p.kind == RPL_SURFACE_WAVES) {
        for (int i = 0; i < n;) { /* in blocks, which the sums take several at a time */
            double x[64], h[64];
            int m = n - i < 64 ? n - i : 64;
            for (int j = 0; j < m; j++)
                x[j] = clamp_x(w, x0 + (i + j) * dx);
            rpl_water_rings_heights(w, x, m, h);
            for (int j = 0; j < m; j++)
                out[i + j] = (float)(level + h[j]);
            i += m;
        }
        return RPL_OK;
    }
    seg_t s;
    s.i = -1;
    for (int i = 0; i < n; i++) {
        double t;
        int seg = locate(w, x0 + i * dx, &t);
        if (seg != s.i)
            rpl_water_seg_make(&s, w->y, w->n, w->p.ends, seg);
        out[i] = (float)(level + rpl_water_seg_value(&s, t));
    }
    return RPL_OK;
}

double rpl_water_grid_height(rpl_water_t *w, long k)
{
    if (!water_usable(w))
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
        w->gh[k] = rpl_water_height(w, rpl_wave_grid_x(p->x0, p->x1, w->glast, k));
        w->gstamp[k] = w->gen;
    }
    return w->gh[k];
}

int rpl_water_springs(const rpl_water_t *w)
{
    return water_usable(w) ? w->n : 0;
}

const double *rpl_water_spring_y(const rpl_water_t *w)
{
    return water_usable(w) && w->p.kind == RPL_SURFACE_SPRINGS ? w->y : NULL;
}

const double *rpl_water_spring_v(const rpl_water_t *w)
{
    return water_usable(w) && w->p.kind == RPL_SURFACE_SPRINGS ? w->v : NULL;
}

int rpl_water_rings(const rpl_water_t *w)
{
    return water_usable(w) ? w->nrings : 0;
}

/* ---- disturbing ------------------------------------------------------------ */

rpl_status rpl_water_disturb(rpl_water_t *w, double x, double dv)
{
    if (!water_usable(w))
        return RPL_EINVAL;
    if (!isfinite(x) || x < w->p.x0 || x > w->p.x1)
        return rpl_err_set(&w->err, RPL_EINVAL, "disturb at x %g: outside [%g, %g]", x, w->p.x0,
                          w->p.x1);
    if (!isfinite(dv))
        return rpl_err_set(&w->err, RPL_EINVAL, "disturb by %g: must be finite", dv);
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
                g->amp = rpl_water_bound_amp(&w->p, g->amp + dv);
                rpl_water_terms_amp(w, r);
                rpl_water_grid_stale_ring(w, g);
                w->awake = 1;
                w->calm = 0;
                return RPL_OK;
            }
        }
        if (w->nrings == RPL_WAVES_MAX) {
            rpl_water_grid_stale_ring(w, &w->rings[0]);
            memmove(w->rings, w->rings + 1, (RPL_WAVES_MAX - 1) * sizeof *w->rings);
            w->nrings--;
            rpl_water_terms_drop(w); /* its terms out, every other ring's moved down */
        }
        w->rings[w->nrings++] = (ring_t){x, rpl_water_bound_amp(&w->p, dv), w->steps};
        rpl_water_terms_add(w);
        rpl_water_grid_stale_ring(w, &w->rings[w->nrings - 1]);
    } else {
        double t;
        int i = locate(w, x, &t);
        w->v[i] = rpl_water_bound_v(&w->p, w->v[i] + dv * (1 - t));
        w->v[i + 1] = rpl_water_bound_v(&w->p, w->v[i + 1] + dv * t);
    }
    w->awake = 1;
    w->calm = 0;
    return RPL_OK;
}

rpl_status rpl_water_impact(rpl_water_t *w, double x, double vy, double *force)
{
    if (!water_usable(w))
        return RPL_EINVAL;
    if (!isfinite(vy))
        return rpl_err_set(&w->err, RPL_EINVAL, "impact speed %g: must be finite", vy);
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
