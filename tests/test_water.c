/* test_water.c - side-view water: defaults and refusals, the spread's stability limit against a reference chain, the spring rule, the spline, symmetry, sleeping, frame-rate independence, the step cap, analytic rings and their echoes off the walls, the rings' sum bit for bit against a full sum of every ring and image, ends and parameter changes (cmocka). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/dmath.h"
#include "core/side/water_state.h"
#include "ripple.h"
#include "util.h"

#define PI 3.14159265358979323846

static rpl_water_t *new_water(const rpl_water_params_t *p)
{
    rpl_status st = RPL_ENOMEM;
    rpl_water_t *w;
    st = rpl_water_create(p, &w);
    assert_int_equal(st, RPL_OK);
    assert_non_null(w);
    return w;
}

/* The parameters' check, the library's one way: a body made from them,
 * whose error says what is wrong when it fails.  why gets that message
 * ("" when they are fine). */
static rpl_status check_params(const rpl_water_params_t *p, char *why, size_t len)
{
    rpl_water_t *w = NULL;
    rpl_status st = rpl_water_create(p, &w);
    assert_non_null(w); /* memory does not run out here */
    snprintf(why, len, "%s", rpl_water_error(w));
    rpl_water_destroy(w);
    return st;
}

/* x of spring i. */
static double spring_x(const rpl_water_params_t *p, int i)
{
    return p->x0 + (p->x1 - p->x0) * i / (p->springs - 1);
}

static double max_abs(const double *a, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++)
        if (!(fabs(a[i]) <= m))
            m = fabs(a[i]); /* NaN makes it NaN */
    return m;
}

/* ---- a reference chain, written from ripple.h's description --------------- */

typedef struct chain {
    int n;
    double *y, *v, *add;
} chain_t;

static chain_t chain_new(int n)
{
    size_t bytes = (size_t)n * sizeof(double);
    chain_t c = {n, xmalloc(bytes), xmalloc(bytes), xmalloc(bytes)};
    memset(c.y, 0, bytes);
    memset(c.v, 0, bytes);
    return c;
}

static void chain_free(chain_t *c)
{
    free(c->y);
    free(c->v);
    free(c->add);
}

/* One step of the documented rule with both ends mirrored (REFLECT): the
 * deltas l_i, r_i of every spring from the positions before the pass,
 * added to the neighbours' velocities and then positions.  Written per
 * sender (as the header puts it), not per receiver as the core does. */
static void chain_step(chain_t *c, double k, double d, double s, int passes)
{
    int n = c->n;
    double *y = c->y, *v = c->v;
    for (int i = 0; i < n; i++) {
        v[i] += -k * y[i] - d * v[i];
        y[i] += v[i];
    }
    double *add = c->add;
    for (int p = 0; p < passes; p++) {
        memset(add, 0, (size_t)n * sizeof(double));
        for (int i = 0; i < n; i++) {
            /* the mirror images beyond the ends: y_{-1} = y_1, y_n = y_{n-2} */
            double left = i > 0 ? y[i - 1] : y[1];
            double right = i < n - 1 ? y[i + 1] : y[n - 2];
            double l = s * (y[i] - left), r = s * (y[i] - right);
            if (i > 0)
                add[i - 1] += l;
            if (i < n - 1)
                add[i + 1] += r;
            /* what spring i's mirror image sends back to it */
            if (i == 1)
                add[0] += l;
            if (i == n - 2)
                add[n - 1] += r;
        }
        for (int i = 0; i < n; i++)
            v[i] += add[i];
        for (int i = 0; i < n; i++)
            y[i] += add[i];
    }
}

/* Largest |y| over `steps` steps from a checkerboard plus random start. */
static double chain_run(int n, double k, double d, double s, int passes, int steps, uint64_t seed)
{
    chain_t c = chain_new(n);
    for (int i = 0; i < n; i++) {
        c.y[i] = (i & 1 ? 1.0 : -1.0) + (rnd_range(&seed, -1000, 1000) / 1000.0);
        c.v[i] = rnd_range(&seed, -1000, 1000) / 1000.0;
    }
    double big = 0;
    for (int t = 0; t < steps && big < 1e12; t++) {
        chain_step(&c, k, d, s, passes);
        double m = max_abs(c.y, n);
        if (!(m <= big))
            big = m;
    }
    chain_free(&c);
    return big;
}

/* ---- defaults and refusals --------------------------------------------- */

static void test_defaults(void **state)
{
    (void)state;
    rpl_water_params_t p;
    rpl_water_defaults(&p);
    assert_int_equal(p.kind, RPL_SURFACE_SPRINGS);
    /* (double) rounds the constants where floats are evaluated wider (x87) */
    assert_true(p.stiffness == (double)0.02 && p.damping == (double)0.04 &&
                p.spread == (double)0.05);
    assert_int_equal(p.passes, 8);
    assert_true(p.step == (double)(1.0 / 60));
    assert_int_equal(p.ends, RPL_ENDS_REFLECT);
    assert_true(p.x0 == 0 && p.x1 == 640 && p.level == 300 && p.bottom == 480);
    char why[200] = "x";
    assert_int_equal(check_params(&p, why, sizeof why), RPL_OK);
    assert_string_equal(why, "");

    rpl_water_t *w = new_water(&p);
    assert_int_equal(rpl_water_awake(w), 0);
    assert_int_equal(rpl_water_springs(w), p.springs);
    assert_true(rpl_water_energy(w) == 0);
    assert_true(rpl_water_height(w, 123.4) == 300);
    assert_true(rpl_water_params(w)->springs == p.springs && rpl_water_params(w)->spread == p.spread);
    rpl_water_defaults(NULL);
    rpl_water_destroy(w);
}

/* The limit from the closed form in the header's derivation, worked out
 * here for the checkerboard (lambda = 4) with a = (1 - 4s)^P:
 * P even: (4s-1)^P (1 - min(k, d)) = 1;  P odd: (4s-1)^P (3 - k - 2d) = 1. */
static double limit_by_hand(double k, double d, int passes)
{
    double g = passes % 2 == 0 ? 1 / (1 - (k < d ? k : d)) : 1 / (3 - k - 2 * d);
    return (1 + pow(g, 1.0 / passes)) / 4;
}

static void test_spread_limit_figures(void **state)
{
    (void)state;
    rpl_water_params_t p;
    rpl_water_defaults(&p);
    double l8 = rpl_water_spread_limit(&p);
    assert_true(l8 > 0.5 && l8 < 0.502);
    assert_float_equal(l8, limit_by_hand(0.02, 0.04, 8), 1e-9);
    p.passes = 1;
    double l1 = rpl_water_spread_limit(&p);
    assert_float_equal(l1, limit_by_hand(0.02, 0.04, 1), 1e-9); /* 0.33621 */
    assert_true(fabs(l1 - 1.0 / 3) < 0.005);
    p.stiffness = 0;
    p.damping = 0;
    assert_float_equal(rpl_water_spread_limit(&p), 1.0 / 3, 1e-9);
    p.passes = 8;
    assert_float_equal(rpl_water_spread_limit(&p), 0.5, 1e-9);
    for (int passes = 1; passes <= RPL_PASSES_MAX; passes++) {
        p.passes = passes;
        p.stiffness = 0.1;
        p.damping = 0.3;
        assert_float_equal(rpl_water_spread_limit(&p), limit_by_hand(0.1, 0.3, passes), 1e-9);
    }
    /* k = d = 1: every step matrix is nilpotent, the search's top */
    p.stiffness = 1;
    p.damping = 1;
    assert_true(rpl_water_spread_limit(&p) == 2);
    p.passes = 0;
    assert_true(rpl_water_spread_limit(&p) == 0);
    assert_true(rpl_water_spread_limit(NULL) == 0);
}

/* The reference chain just below the limit stays bounded and just above
 * it blows up, for 8 passes and for 1, from a checkerboard with noise;
 * the core itself refuses the unstable value and holds the stable one. */
static void test_spread_limit_by_simulation(void **state)
{
    (void)state;
    const int passes_list[] = {8, 1, 3};
    for (size_t c = 0; c < sizeof passes_list / sizeof *passes_list; c++) {
        rpl_water_params_t p;
        rpl_water_defaults(&p);
        p.passes = passes_list[c];
        double lim = rpl_water_spread_limit(&p);
        double below = chain_run(48, p.stiffness, p.damping, lim * 0.995, p.passes, 1500, 7 + c);
        double above = chain_run(48, p.stiffness, p.damping, lim * 1.01, p.passes, 1500, 7 + c);
        if (!(below < 10))
            fail_msg("passes %d, spread %.5f: reached %g", p.passes, lim * 0.995, below);
        if (!(above > 1e6))
            fail_msg("passes %d, spread %.5f: only reached %g", p.passes, lim * 1.01, above);

        char why[200] = "";
        p.spread = lim;
        assert_int_equal(check_params(&p, why, sizeof why), RPL_EINVAL);
        assert_non_null(strstr(why, "spread"));
        p.spread = lim * 1.01;
        assert_int_equal(check_params(&p, why, sizeof why), RPL_EINVAL);
        char want[32];
        snprintf(want, sizeof want, "%.4f", lim);
        assert_non_null(strstr(why, want));

        /* the core at 0.995 of the limit, mirrored ends, checkerboard start */
        p.spread = lim * 0.995;
        p.ends = RPL_ENDS_REFLECT;
        p.sleep_epsilon = 0;
        p.springs = 48;
        rpl_water_t *w = new_water(&p);
        uint64_t seed = 99 + c;
        for (int i = 0; i < p.springs; i++)
            assert_int_equal(rpl_water_disturb(w, spring_x(&p, i),
                                               (i & 1 ? 1 : -1) + rnd_range(&seed, -500, 500) / 1000.0),
                             RPL_OK);
        double big = 0;
        for (int t = 0; t < 1500; t++) {
            rpl_water_step(w);
            double m = max_abs(rpl_water_spring_y(w), p.springs);
            if (!(m <= big))
                big = m;
        }
        if (!(big < 20))
            fail_msg("core, passes %d: reached %g", p.passes, big);
        rpl_water_destroy(w);
    }
}

static void expect_refused(const rpl_water_params_t *p, const char *names)
{
    char why[200] = "";
    assert_int_equal(check_params(p, why, sizeof why), RPL_EINVAL);
    if (!strstr(why, names))
        fail_msg("\"%s\" does not name %s", why, names);
    assert_null(strchr(why, '\n'));
    rpl_status st = RPL_OK;
    {
        rpl_water_t *f_ = NULL;
        st = rpl_water_create(p, &f_);
        assert_non_null(f_); /* a failed handle, which says why */
        assert_true(rpl_water_error(f_)[0] != '\0');
        rpl_water_destroy(f_);
    }
    assert_int_equal(st, RPL_EINVAL);
    assert_int_equal(rpl_water_create(p, NULL), RPL_EINVAL);
}

static void test_refusals(void **state)
{
    (void)state;
    rpl_water_params_t d, p;
    rpl_water_defaults(&d);
    const double nan = NAN, inf = INFINITY;

#define BAD(field, value)                                                                    \
    do {                                                                                     \
        p = d;                                                                               \
        p.field = value;                                                                     \
        expect_refused(&p, #field);                                                          \
    } while (0)
    BAD(x0, nan);
    BAD(x0, 640);   /* x0 >= x1 */
    BAD(x1, -inf);
    BAD(x1, 0);
    BAD(level, nan);
    BAD(bottom, 300); /* bottom <= level */
    BAD(bottom, 200);
    BAD(step, 0);
    BAD(step, 0.2);
    BAD(step, nan);
    BAD(step, 1e-20); /* life / step would not fit the step count */
    BAD(step, RPL_WATER_STEP_MIN * 0.999);
    BAD(max_steps, 0);
    BAD(max_steps, 1001);
    BAD(springs, RPL_SPRINGS_MIN - 1);
    BAD(springs, RPL_SPRINGS_MAX + 1);
    BAD(stiffness, -0.01);
    BAD(stiffness, nan);
    BAD(stiffness, 1.5);
    BAD(damping, -1e-9);
    BAD(damping, inf);
    BAD(spread, -0.01);
    BAD(spread, nan);
    BAD(spread, inf);
    BAD(spread, 0.6);
    BAD(passes, 0);
    BAD(passes, RPL_PASSES_MAX + 1);
    BAD(frequency, 0);
    BAD(frequency, nan);
    BAD(wavelength, -60);
    BAD(life, 0);
    BAD(life, inf);
    BAD(force_min, -1);
    BAD(force_min, 10); /* above force_max */
    BAD(force_max, nan);
    BAD(speed_max, 0);
    BAD(sleep_epsilon, -1);
    BAD(sleep_epsilon, nan);
    BAD(sleep_steps, 0);
    BAD(density, 0);
    BAD(density, nan);
    BAD(drag, -0.1);
    BAD(angular_drag, inf);
    BAD(max_dv, 0);
    BAD(kind, (rpl_surface_kind)7);
    BAD(ends, (rpl_water_ends)-1);
#undef BAD
    p = d;
    p.spread = 0.6;
    char why[200];
    check_params(&p, why, sizeof why);
    assert_string_equal(why, "spread 0.6 is unstable with 8 passes: must be below 0.5006");
    p = d;
    p.step = 1e-20;
    check_params(&p, why, sizeof why);
    assert_string_equal(why, "step 1e-20: must be in [1e-06, 0.1] seconds");
    /* at the shortest step a ring lives its whole life */
    p = d;
    p.kind = RPL_SURFACE_WAVES;
    p.step = RPL_WATER_STEP_MIN;
    p.life = 600;
    rpl_water_t *w = new_water(&p);
    assert_int_equal(rpl_water_disturb(w, 320, 2), RPL_OK);
    for (int i = 0; i < 3; i++)
        rpl_water_step(w);
    assert_int_equal(rpl_water_rings(w), 1);
    assert_true(rpl_water_energy(w) > 3.9);
    rpl_water_destroy(w);
    assert_int_equal(check_params(NULL, why, sizeof why), RPL_EINVAL);
    assert_true(strlen(why) > 0);
}

static void test_null_safe(void **state)
{
    (void)state;
    rpl_status st = RPL_OK;
    {
        rpl_water_t *f_ = NULL;
        st = rpl_water_create(NULL, &f_);
        assert_non_null(f_); /* a failed handle, which says why */
        assert_true(rpl_water_error(f_)[0] != '\0');
        rpl_water_destroy(f_);
    }
    assert_int_equal(st, RPL_EINVAL);
    rpl_water_destroy(NULL);
    assert_non_null(rpl_water_error(NULL));
    assert_null(rpl_water_params(NULL));
    rpl_water_params_t p;
    rpl_water_defaults(&p);
    assert_int_equal(rpl_water_set_params(NULL, &p), RPL_EINVAL);
    rpl_water_reset(NULL);
    assert_int_equal(rpl_water_advance(NULL, 0.1), -1);
    rpl_water_step(NULL);
    assert_true(rpl_water_steps(NULL) == 0);
    assert_true(rpl_water_time(NULL) == 0);
    assert_int_equal(rpl_water_awake(NULL), 0);
    assert_true(rpl_water_energy(NULL) == 0);
    assert_true(rpl_water_height(NULL, 1) == 0);
    assert_true(rpl_water_slope(NULL, 1) == 0);
    assert_true(rpl_water_velocity(NULL, 1) == 0);
    float out[4];
    assert_int_equal(rpl_water_sample(NULL, 0, 1, 4, out), RPL_EINVAL);
    assert_int_equal(rpl_water_springs(NULL), 0);
    assert_null(rpl_water_spring_y(NULL));
    assert_null(rpl_water_spring_v(NULL));
    assert_int_equal(rpl_water_rings(NULL), 0);
    assert_int_equal(rpl_water_disturb(NULL, 1, 1), RPL_EINVAL);
    double f = 7;
    assert_int_equal(rpl_water_impact(NULL, 1, 1, &f), RPL_EINVAL);
    assert_int_equal(rpl_water_set_kernels(NULL, rpl_kernels_get("c")), RPL_EINVAL);

    /* bad arguments on a real body */
    rpl_water_t *w = new_water(&p);
    assert_int_equal(rpl_water_set_params(w, NULL), RPL_EINVAL);
    assert_true(strlen(rpl_water_error(w)) > 0);
    assert_int_equal(rpl_water_set_kernels(w, NULL), RPL_EINVAL);
    assert_int_equal(rpl_water_set_kernels(w, rpl_kernels_get("c")), RPL_OK);
    assert_int_equal(rpl_water_sample(w, 0, 1, 0, out), RPL_EINVAL);
    assert_int_equal(rpl_water_sample(w, 0, 1, 4, NULL), RPL_EINVAL);
    assert_int_equal(rpl_water_sample(w, NAN, 1, 4, out), RPL_EINVAL);
    assert_int_equal(rpl_water_advance(w, -1), -1);
    assert_int_equal(rpl_water_advance(w, NAN), -1);
    assert_int_equal(rpl_water_advance(w, INFINITY), -1);
    assert_int_equal(rpl_water_disturb(w, -1, 1), RPL_EINVAL);
    assert_non_null(strstr(rpl_water_error(w), "x"));
    assert_int_equal(rpl_water_disturb(w, 641, 1), RPL_EINVAL);
    assert_int_equal(rpl_water_disturb(w, NAN, 1), RPL_EINVAL);
    assert_int_equal(rpl_water_disturb(w, 10, NAN), RPL_EINVAL);
    assert_int_equal(rpl_water_disturb(w, 10, INFINITY), RPL_EINVAL);
    assert_int_equal(rpl_water_impact(w, 10, NAN, &f), RPL_EINVAL);
    assert_int_equal(rpl_water_impact(w, 700, 10, &f), RPL_EINVAL);
    assert_true(f == 0);
    /* none of it woke or moved the body */
    assert_int_equal(rpl_water_awake(w), 0);
    assert_true(rpl_water_energy(w) == 0);
    /* NaN x reads the surface somewhere, never crashes */
    assert_true(isfinite(rpl_water_height(w, NAN)));
    rpl_water_destroy(w);
}

/* ---- the spring rule ------------------------------------------------------ */

/* The core's springs against the reference chain over random disturbances. */
static void test_rule_against_reference(void **state)
{
    (void)state;
    rpl_water_params_t p;
    rpl_water_defaults(&p);
    p.springs = 37;
    p.spread = 0.21;
    p.passes = 5;
    p.sleep_epsilon = 0;
    rpl_water_t *w = new_water(&p);
    chain_t c = chain_new(p.springs);
    uint64_t seed = 5;
    for (int t = 0; t < 400; t++) {
        if (t % 23 == 0) {
            int i = rnd_range(&seed, 0, p.springs - 1);
            double dv = rnd_range(&seed, -4000, 4000) / 1000.0;
            assert_int_equal(rpl_water_disturb(w, spring_x(&p, i), dv), RPL_OK);
            c.v[i] += dv;
        }
        rpl_water_step(w);
        chain_step(&c, p.stiffness, p.damping, p.spread, p.passes);
    }
    const double *y = rpl_water_spring_y(w), *v = rpl_water_spring_v(w);
    for (int i = 0; i < p.springs; i++) {
        assert_float_equal(y[i], c.y[i], 1e-9);
        assert_float_equal(v[i], c.v[i], 1e-9);
    }
    assert_true(max_abs(c.y, p.springs) > 0.01); /* something to compare */
    assert_true(rpl_water_steps(w) == 400);
    assert_float_equal(rpl_water_time(w), 400.0 / 60, 1e-12);
    chain_free(&c);
    rpl_water_destroy(w);
}

/* One step by hand: 4 springs, one pass, free ends.  Spring 1 kicked to
 * v1 = 1: the spring part with k = 0, damping 0.5 gives v1 = 1 - 0.5 * 1
 * = 0.5 and y1 = 0.5.  The pass with s = 0.25: deltas into 0 and 2 of
 * 0.25 * 0.5 = 0.125 each, out of 1 -0.25; so y = (0.125, 0.25, 0.125, 0)
 * and v = (0.125, 0.25, 0.125, 0). */
static void test_one_step_by_hand(void **state)
{
    (void)state;
    rpl_water_params_t p;
    rpl_water_defaults(&p);
    p.springs = 4;
    p.x0 = 0;
    p.x1 = 3;
    p.passes = 1;
    p.spread = 0.25;
    p.stiffness = 0;
    p.damping = 0.5;
    p.ends = RPL_ENDS_FREE;
    rpl_water_t *w = new_water(&p);
    assert_int_equal(rpl_water_disturb(w, 1, 1), RPL_OK);
    assert_true(rpl_water_spring_v(w)[1] == 1);
    rpl_water_step(w);
    const double want[4] = {0.125, 0.25, 0.125, 0};
    for (int i = 0; i < 4; i++) {
        assert_true(rpl_water_spring_y(w)[i] == want[i]);
        assert_true(rpl_water_spring_v(w)[i] == want[i]);
    }
    /* a disturbance between springs splits by distance: x = 2.25 gives
     * 3/4 to spring 2 and 1/4 to spring 3 */
    rpl_water_reset(w);
    assert_int_equal(rpl_water_disturb(w, 2.25, 2), RPL_OK);
    assert_true(rpl_water_spring_v(w)[2] == 1.5);
    assert_true(rpl_water_spring_v(w)[3] == 0.5);
    /* at the right end it all goes to the last spring */
    rpl_water_reset(w);
    assert_int_equal(rpl_water_disturb(w, 3, 2), RPL_OK);
    assert_true(rpl_water_spring_v(w)[3] == 2);
    assert_true(rpl_water_spring_v(w)[2] == 0);
    rpl_water_destroy(w);
}

/* ---- the spline ------------------------------------------------------------ */

/* Catmull-Rom written in its matrix form, with the ends as documented. */
static double cr_ref(const double *a, int n, int mirror, int i, double t)
{
    double p0 = i > 0 ? a[i - 1] : mirror ? a[1] : 2 * a[0] - a[1];
    double p3 = i + 2 < n ? a[i + 2] : mirror ? a[n - 2] : 2 * a[n - 1] - a[n - 2];
    double p1 = a[i], p2 = a[i + 1];
    double t2 = t * t, t3 = t2 * t;
    return 0.5 * ((2 * p1) + (-p0 + p2) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t2 +
                  (-p0 + 3 * p1 - 3 * p2 + p3) * t3);
}

static void test_spline(void **state)
{
    (void)state;
    for (int ends = 0; ends < 3; ends++) {
        rpl_water_params_t p;
        rpl_water_defaults(&p);
        p.ends = (rpl_water_ends)ends;
        p.springs = 24;
        p.x0 = 13;
        p.x1 = 400;
        p.sleep_epsilon = 0;
        rpl_water_t *w = new_water(&p);
        uint64_t seed = 11 + ends;
        for (int k = 0; k < 10; k++)
            assert_int_equal(rpl_water_disturb(w, 13 + rnd_range(&seed, 0, 387),
                                               rnd_range(&seed, -3000, 3000) / 1000.0),
                             RPL_OK);
        for (int t = 0; t < 7; t++)
            rpl_water_step(w);
        const double *y = rpl_water_spring_y(w), *v = rpl_water_spring_v(w);
        double h = (p.x1 - p.x0) / (p.springs - 1);
        /* through every spring point */
        for (int i = 0; i < p.springs; i++) {
            double x = spring_x(&p, i);
            assert_float_equal(rpl_water_height(w, x), p.level + y[i], 1e-9);
            assert_float_equal(rpl_water_velocity(w, x), v[i] / p.step, 1e-7);
        }
        /* between them, the reference spline; slope by central difference */
        for (int i = 0; i < p.springs - 1; i++) {
            for (int q = 1; q < 4; q++) {
                double t = q / 4.0, x = p.x0 + (i + t) * h;
                assert_float_equal(rpl_water_height(w, x),
                                   p.level + cr_ref(y, p.springs, ends == RPL_ENDS_REFLECT, i, t), 1e-9);
                double e = 1e-4;
                double fd = (rpl_water_height(w, x + e) - rpl_water_height(w, x - e)) / (2 * e);
                assert_float_equal(rpl_water_slope(w, x), fd, 1e-5);
            }
        }
        /* clamped outside */
        assert_true(rpl_water_height(w, -100) == rpl_water_height(w, p.x0));
        assert_true(rpl_water_height(w, 1e9) == rpl_water_height(w, p.x1));
        /* sample: the same values as height, in floats, whatever the step */
        float out[500];
        const double dxs[] = {1, 0.37, 5.5, -2, 0};
        for (size_t k = 0; k < sizeof dxs / sizeof *dxs; k++) {
            assert_int_equal(rpl_water_sample(w, 0.5, dxs[k], 500, out), RPL_OK);
            for (int j = 0; j < 500; j++)
                assert_true(out[j] == (float)rpl_water_height(w, 0.5 + j * dxs[k]));
        }
        rpl_water_destroy(w);
    }
}

/* ---- symmetry ------------------------------------------------------------------ */

static void test_centred_splash_symmetric(void **state)
{
    (void)state;
    const int counts[] = {64, 65};
    for (int ends = 0; ends < 3; ends++) {
        for (int c = 0; c < 2; c++) {
            rpl_water_params_t p;
            rpl_water_defaults(&p);
            p.ends = (rpl_water_ends)ends;
            p.springs = counts[c];
            p.sleep_epsilon = 0;
            rpl_water_t *w = new_water(&p);
            double f;
            assert_int_equal(rpl_water_impact(w, 320, 700, &f), RPL_OK);
            for (int t = 0; t < 300; t++) {
                rpl_water_step(w);
                const double *y = rpl_water_spring_y(w), *v = rpl_water_spring_v(w);
                int n = p.springs;
                for (int i = 0; i < n / 2; i++) {
                    if (y[i] != y[n - 1 - i] || v[i] != v[n - 1 - i])
                        fail_msg("ends %d, %d springs, step %d: spring %d differs", ends, n, t, i);
                }
            }
            for (double a = 0; a <= 320; a += 7.3)
                assert_float_equal(rpl_water_height(w, 320 - a), rpl_water_height(w, 320 + a), 1e-9);
            assert_true(rpl_water_energy(w) > 0);
            rpl_water_destroy(w);
        }
    }
}

/* ---- sleeping ------------------------------------------------------------------ */

static void test_sleeping(void **state)
{
    (void)state;
    rpl_water_params_t p;
    rpl_water_defaults(&p);
    rpl_water_t *w = new_water(&p);
    assert_int_equal(rpl_water_awake(w), 0);
    /* asleep: a step is not taken */
    rpl_water_step(w);
    assert_true(rpl_water_steps(w) == 0);
    assert_int_equal(rpl_water_advance(w, 0.5), 0);
    assert_true(rpl_water_steps(w) == 0);

    assert_int_equal(rpl_water_disturb(w, 200, 4), RPL_OK);
    assert_int_equal(rpl_water_awake(w), 1);
    int t = 0;
    while (rpl_water_awake(w) && t < 5000) {
        rpl_water_step(w);
        t++;
    }
    assert_int_equal(rpl_water_awake(w), 0);
    assert_true(t > p.sleep_steps);
    assert_true(rpl_water_energy(w) == 0.0);
    const double *y = rpl_water_spring_y(w), *v = rpl_water_spring_v(w);
    for (int i = 0; i < p.springs; i++)
        assert_true(y[i] == 0.0 && v[i] == 0.0);
    for (double x = 0; x <= 640; x += 10)
        assert_true(rpl_water_height(w, x) == 300.0);
    uint64_t slept_at = rpl_water_steps(w);
    assert_true(slept_at == (uint64_t)t);
    rpl_water_step(w);
    assert_true(rpl_water_steps(w) == slept_at);

    /* it fell asleep at the sleep_steps-th step in a row with every |y|
     * and |v| below sleep_epsilon: replayed on a twin, the last step with
     * one at or above it is t - sleep_steps */
    rpl_water_t *u = new_water(&p);
    assert_int_equal(rpl_water_disturb(u, 200, 4), RPL_OK);
    int last_big = 0;
    for (int k = 1; k < t; k++) {
        rpl_water_step(u);
        assert_int_equal(rpl_water_awake(u), 1);
        double m = max_abs(rpl_water_spring_y(u), p.springs);
        double mv = max_abs(rpl_water_spring_v(u), p.springs);
        if (m >= p.sleep_epsilon || mv >= p.sleep_epsilon)
            last_big = k;
    }
    assert_int_equal(last_big, t - p.sleep_steps);
    rpl_water_destroy(u);

    /* wakes on disturb, on impact, on a change of parameters; not on the
     * same parameters again */
    assert_int_equal(rpl_water_disturb(w, 10, 0.001), RPL_OK);
    assert_int_equal(rpl_water_awake(w), 1);
    rpl_water_reset(w);
    assert_int_equal(rpl_water_awake(w), 0);
    assert_true(rpl_water_steps(w) == 0);
    assert_int_equal(rpl_water_impact(w, 10, 0, NULL), RPL_OK);
    assert_int_equal(rpl_water_awake(w), 1);
    rpl_water_reset(w);
    assert_int_equal(rpl_water_set_params(w, &p), RPL_OK);
    assert_int_equal(rpl_water_awake(w), 0);
    p.damping = 0.05;
    assert_int_equal(rpl_water_set_params(w, &p), RPL_OK);
    assert_int_equal(rpl_water_awake(w), 1);

    /* sleep_epsilon 0: never sleeps */
    p.sleep_epsilon = 0;
    assert_int_equal(rpl_water_set_params(w, &p), RPL_OK);
    assert_int_equal(rpl_water_disturb(w, 300, 1), RPL_OK);
    for (int k = 0; k < 1000; k++)
        rpl_water_step(w);
    assert_int_equal(rpl_water_awake(w), 1);
    rpl_water_destroy(w);
}

/* ---- time --------------------------------------------------------------------- */

typedef struct event {
    uint64_t at;
    double x, dv;
} event_t;

/* Drives a body with frames of `frame` seconds to `until` steps, applying
 * each event when the body is at its step. */
static rpl_water_t *drive(const rpl_water_params_t *p, double frame, const event_t *ev, int nev,
                          uint64_t until)
{
    rpl_water_t *w = new_water(p);
    int next = 0;
    for (long f = 0; rpl_water_steps(w) < until; f++) {
        assert_true(f < 100000);
        while (next < nev && ev[next].at == rpl_water_steps(w)) {
            assert_int_equal(rpl_water_disturb(w, ev[next].x, ev[next].dv), RPL_OK);
            next++;
        }
        assert_true(next >= nev || ev[next].at > rpl_water_steps(w));
        int n = rpl_water_advance(w, frame);
        assert_true(n >= 0 && n <= p->max_steps);
    }
    assert_int_equal(next, nev);
    assert_true(rpl_water_steps(w) == until);
    return w;
}

static void test_frame_rate_independent(void **state)
{
    (void)state;
    /* even step numbers, so frames of two steps meet each of them */
    const event_t ev[] = {{0, 100, 3}, {36, 500, -2}, {120, 321.5, 4}, {122, 12, 1}, {300, 640, -3}};
    for (int kind = 0; kind < 2; kind++) {
        rpl_water_params_t p;
        rpl_water_defaults(&p);
        p.kind = (rpl_surface_kind)kind;
        p.sleep_epsilon = 1e-9;
        p.sleep_steps = 1000;
        rpl_water_t *a = drive(&p, 1.0 / 30, ev, 5, 500);
        rpl_water_t *b = drive(&p, 1.0 / 144, ev, 5, 500);
        rpl_water_t *c = drive(&p, 1.0 / 60, ev, 5, 500);
        assert_int_equal(rpl_water_awake(a), 1);
        float sa[640], sb[640], sc[640];
        assert_int_equal(rpl_water_sample(a, 0, 1, 640, sa), RPL_OK);
        assert_int_equal(rpl_water_sample(b, 0, 1, 640, sb), RPL_OK);
        assert_int_equal(rpl_water_sample(c, 0, 1, 640, sc), RPL_OK);
        assert_memory_equal(sa, sb, sizeof sa);
        assert_memory_equal(sa, sc, sizeof sa);
        if (kind == RPL_SURFACE_SPRINGS) {
            size_t bytes = (size_t)p.springs * sizeof(double);
            assert_memory_equal(rpl_water_spring_y(a), rpl_water_spring_y(b), bytes);
            assert_memory_equal(rpl_water_spring_v(a), rpl_water_spring_v(b), bytes);
            assert_memory_equal(rpl_water_spring_y(a), rpl_water_spring_y(c), bytes);
        } else {
            assert_int_equal(rpl_water_rings(a), rpl_water_rings(b));
            assert_true(rpl_water_velocity(a, 250) == rpl_water_velocity(b, 250));
        }
        assert_true(rpl_water_energy(a) == rpl_water_energy(b));
        assert_true(rpl_water_energy(a) > 0);
        assert_true(rpl_water_time(a) == rpl_water_time(b));
        rpl_water_destroy(a);
        rpl_water_destroy(b);
        rpl_water_destroy(c);
    }
}

static void test_step_cap(void **state)
{
    (void)state;
    rpl_water_params_t p;
    rpl_water_defaults(&p);
    p.sleep_epsilon = 0;
    p.max_steps = 8;
    rpl_water_t *w = new_water(&p);
    assert_int_equal(rpl_water_disturb(w, 100, 1), RPL_OK);
    assert_int_equal(rpl_water_advance(w, 1.0), 8);  /* 60 steps held, 8 taken */
    assert_true(rpl_water_steps(w) == 8);
    assert_int_equal(rpl_water_advance(w, 0), 0);    /* the rest was dropped */
    assert_int_equal(rpl_water_advance(w, 1.5 / 60), 1);
    assert_int_equal(rpl_water_advance(w, 0.5 / 60), 1); /* the half kept */
    assert_int_equal(rpl_water_advance(w, 0.4 / 60), 0);
    assert_int_equal(rpl_water_advance(w, 8.0 / 60), 8); /* 8.4 held: not over the cap */
    assert_int_equal(rpl_water_advance(w, 0.6 / 60), 1); /* 0.4 + 0.6 */
    assert_true(rpl_water_steps(w) == 19);
    /* a one-frame stall of a minute takes max_steps and no more */
    assert_int_equal(rpl_water_advance(w, 60), 8);
    assert_int_equal(rpl_water_advance(w, 1.0 / 60), 1);
    p.max_steps = 1;
    assert_int_equal(rpl_water_set_params(w, &p), RPL_OK);
    assert_int_equal(rpl_water_advance(w, 0.5), 1);
    rpl_water_destroy(w);
}

/* ---- analytic rings ------------------------------------------------------------- */

/* |got - want| <= tol in double (cmocka's assert_float_equal compares
 * floats), naming both on failure. */
static void near_at(double got, double want, double tol, const char *what, int line)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("line %d: %s = %.17g, want %.17g (tolerance %g)", line, what, got, want, tol);
}
#define assert_near(got, want, tol) near_at((got), (want), (tol), #got, __LINE__)

/* A ring by the header's formula, with the C library's sine: nothing
 * once fainter than sleep_epsilon. */
static double ring_ref(double amp, double x0, double age, double x, const rpl_water_params_t *p)
{
    double c = p->frequency * p->wavelength, s = fabs(x - x0);
    if (age >= p->life || s > c * age)
        return 0;
    double fade = 1 - age / p->life;
    if (fabs(amp * fade * fade) < p->sleep_epsilon)
        return 0;
    return amp * fade * fade * sin(2 * PI * p->frequency * (age - s / c));
}

/* How far a central difference over +-e of the body's sum (rings of
 * amplitudes up to amps in all) may be from the slope at its middle: the
 * difference's own error, e^2/6 times the largest third derivative
 * (amps k^3, k = 2 pi / wavelength), and the sum's error twice over 2e;
 * and the slope's own, each wave's cosine within RPL_SINTAB_ERR. */
static double slope_tol(double amps, double e, const rpl_water_params_t *p);

/* How far the body's sum of rings of amplitudes up to amps in all (and
 * their images: five sources each) may be from ring_ref's: each wave's
 * sine is read from a table within RPL_SINTAB_ERR (core/base/dmath.h),
 * and the phase as a double is off by far less than 1e-9 of a wave. */
static double sum_tol(double amps)
{
    return 5 * amps * (RPL_SINTAB_ERR + 1e-9);
}

static double slope_tol(double amps, double e, const rpl_water_params_t *p)
{
    double k = 2 * PI / p->wavelength;
    return e * e / 6 * 5 * amps * k * k * k + sum_tol(amps) / e + sum_tol(amps) * k;
}

static void test_waves(void **state)
{
    (void)state;
    rpl_water_params_t p;
    rpl_water_defaults(&p);
    p.kind = RPL_SURFACE_WAVES;
    p.frequency = 2;
    p.wavelength = 60; /* c = 120 units a second: 2 per step */
    p.life = 4;
    p.ends = RPL_ENDS_ABSORB; /* the rings alone: the walls' images are tested below */
    rpl_water_t *w = new_water(&p);
    assert_null(rpl_water_spring_y(w));
    assert_null(rpl_water_spring_v(w));
    assert_int_equal(rpl_water_disturb(w, 100, 3), RPL_OK);
    assert_int_equal(rpl_water_rings(w), 1);
    assert_int_equal(rpl_water_awake(w), 1);
    /* x = 160 is 60 away: reached after 0.5 s, 30 steps */
    for (int t = 1; t <= 29; t++) {
        rpl_water_step(w);
        assert_true(rpl_water_height(w, 160) == p.level);
        assert_true(rpl_water_height(w, 40) == p.level);
        assert_true(rpl_water_height(w, 100 + 2 * t - 0.5) != p.level || t < 1);
    }
    for (int t = 30; t <= 90; t++) {
        rpl_water_step(w);
        double age = t / 60.0;
        for (double x = 0; x <= 640; x += 17)
            assert_near(rpl_water_height(w, x), p.level + ring_ref(3, 100, age, x, &p), sum_tol(3));
    }
    /* a second ring 90 steps later: the surface is the sum */
    assert_int_equal(rpl_water_disturb(w, 300, -2), RPL_OK);
    for (int t = 91; t <= 200; t++) {
        rpl_water_step(w);
        for (double x = 0; x <= 640; x += 23) {
            double want = ring_ref(3, 100, t / 60.0, x, &p) + ring_ref(-2, 300, (t - 90) / 60.0, x, &p);
            assert_near(rpl_water_height(w, x), p.level + want, sum_tol(3 + 2));
        }
        /* energy: the amplitudes now, squared */
        double f1 = 1 - (t / 60.0) / 4, f2 = 1 - ((t - 90) / 60.0) / 4;
        assert_float_equal(rpl_water_energy(w), pow(3 * f1 * f1, 2) + pow(2 * f2 * f2, 2), 1e-9);
    }
    /* velocity against a central difference in time, slope in space */
    {
        double x = 250, e = 0.25;
        rpl_water_t *a = new_water(&p);
        assert_int_equal(rpl_water_disturb(a, 200, 3), RPL_OK);
        for (int t = 0; t < 45; t++)
            rpl_water_step(a);
        double h0 = rpl_water_height(a, x);
        rpl_water_step(a);
        double v = rpl_water_velocity(a, x);
        rpl_water_step(a);
        double h2 = rpl_water_height(a, x);
        assert_float_equal(v, (h2 - h0) / (2 * p.step), 0.05 * fabs(v) + 0.05);
        double sl = rpl_water_slope(a, x);
        assert_near(sl, (rpl_water_height(a, x + e) - rpl_water_height(a, x - e)) / (2 * e), slope_tol(3, e, &p));
        assert_true(fabs(sl) > 0.01);
        rpl_water_destroy(a);
    }
    /* the first ring dies at 4 s (240 steps), the second at 330 */
    for (int t = 201; t < 240; t++)
        rpl_water_step(w);
    assert_int_equal(rpl_water_rings(w), 2);
    rpl_water_step(w);
    assert_int_equal(rpl_water_rings(w), 1);
    for (int t = 241; t < 330; t++)
        rpl_water_step(w);
    assert_int_equal(rpl_water_rings(w), 1);
    rpl_water_step(w);
    assert_int_equal(rpl_water_rings(w), 0);
    assert_true(rpl_water_energy(w) == 0);
    assert_true(rpl_water_height(w, 300) == p.level);
    /* asleep after sleep_steps steps without a ring, the one that ended
     * the last ring being the first of them */
    for (int t = 2; t < p.sleep_steps; t++)
        rpl_water_step(w);
    assert_int_equal(rpl_water_awake(w), 1);
    rpl_water_step(w);
    assert_int_equal(rpl_water_awake(w), 0);
    rpl_water_destroy(w);
}


/* The sum ripple.h describes for one ring at xr with FREE or REFLECT
 * ends: the ring and its four images, each the ring's own wave. */
static double ring_images_ref(double amp, double xr, double age, double x,
                              const rpl_water_params_t *p)
{
    double left = 2 * p->x0 - xr, right = 2 * p->x1 - xr;
    const double src[5] = {xr, left, right, 2 * p->x1 - left, 2 * p->x0 - right};
    double h = 0;
    for (int i = 0; i < 5; i++)
        h += ring_ref(amp, src[i], age, x, p);
    return h;
}

/* A ring near the left wall of [0, 640], c = 120 units a second (2 a
 * step): its echo from the wall is a ring from the image at -30. */
static void test_waves_reflect(void **state)
{
    (void)state;
    rpl_water_params_t p;
    rpl_water_defaults(&p);
    p.kind = RPL_SURFACE_WAVES;
    p.frequency = 2;
    p.wavelength = 60;
    p.life = 4;
    rpl_water_t *w[3];
    for (int e = 0; e < 3; e++) {
        p.ends = (rpl_water_ends)e;
        w[e] = new_water(&p);
        assert_int_equal(rpl_water_disturb(w[e], 30, 3), RPL_OK);
    }
    rpl_water_t *fr = w[RPL_ENDS_FREE], *re = w[RPL_ENDS_REFLECT], *ab = w[RPL_ENDS_ABSORB];
    for (int t = 1; t <= 150; t++) {
        for (int e = 0; e < 3; e++)
            rpl_water_step(w[e]);
        double age = t / 60.0;
        /* x = 100 is 70 from the ring and 130 from its image: the echo
         * arrives after 65 steps; until then the walls change nothing */
        double x = 100, direct = ring_ref(3, 30, age, x, &p), image = ring_ref(3, -30, age, x, &p);
        double hr = rpl_water_height(re, x), ha = rpl_water_height(ab, x);
        if (t < 65) {
            assert_true(hr == ha);
            assert_true(image == 0);
        }
        if (t > 70)
            assert_true(fabs(image) > 1e-3 || fabs(sin(2 * PI * 2 * (age - 130.0 / 120))) < 0.01);
        /* ABSORB: the ring alone; REFLECT: plus exactly its image's wave */
        assert_near(ha, p.level + direct, sum_tol(3));
        assert_near(hr - ha, image, 2 * sum_tol(3));
        /* FREE is REFLECT, bit for bit */
        assert_true(rpl_water_height(fr, x) == hr);
        assert_true(rpl_water_velocity(fr, x) == rpl_water_velocity(re, x));
        assert_true(rpl_water_slope(fr, x) == rpl_water_slope(re, x));
        /* on the wall the ring and its image meet in phase: twice the
         * height and, their slopes opposite, none at all */
        if (t > 15) {
            double d0 = rpl_water_height(ab, 0) - p.level;
            assert_near(rpl_water_height(re, 0) - p.level, 2 * d0, 1e-9);
            /* (0 exactly where doubles are doubles; x87 keeps one term longer) */
            assert_true(fabs(rpl_water_slope(re, 0)) <= 1e-12);
            if (fabs(d0) < 1e-6 * 3) /* at a zero of the sine the slope is steepest */
                assert_true(fabs(rpl_water_slope(ab, 0)) > 1e-3);
        }
    }
    /* the whole surface against the documented sum, velocity and slope
     * against differences */
    for (double x = 0; x <= 640; x += 13) {
        double age = 150 / 60.0;
        assert_near(rpl_water_height(re, x), p.level + ring_images_ref(3, 30, age, x, &p), sum_tol(3));
        assert_near(rpl_water_height(ab, x), p.level + ring_ref(3, 30, age, x, &p), sum_tol(3));
    }
    {
        double x = 110, e = 0.25;
        double sl = rpl_water_slope(re, x);
        assert_near(sl, (rpl_water_height(re, x + e) - rpl_water_height(re, x - e)) / (2 * e),
                    slope_tol(3, e, &p));
        double h0 = rpl_water_height(re, x);
        rpl_water_step(re);
        double v = rpl_water_velocity(re, x);
        rpl_water_step(re);
        double h2 = rpl_water_height(re, x);
        assert_near(v, (h2 - h0) / (2 * p.step), 0.05 * fabs(v) + 0.05);
        assert_true(fabs(v) > 0.1);
    }
    for (int e = 0; e < 3; e++)
        rpl_water_destroy(w[e]);
}

/* A basin 100 wide: the waves cross it within their life, so the images
 * off both walls arrive too. */
static void test_waves_reflect_twice(void **state)
{
    (void)state;
    rpl_water_params_t p;
    rpl_water_defaults(&p);
    p.kind = RPL_SURFACE_WAVES;
    p.x0 = 0;
    p.x1 = 100;
    p.frequency = 2;
    p.wavelength = 60; /* c = 120: the farthest image, 2 x1 - (2 x0 - 30) = 230, in 2 s */
    p.life = 4;
    rpl_water_t *w = new_water(&p);
    assert_int_equal(rpl_water_disturb(w, 30, 2), RPL_OK);
    int second = 0; /* points where an image off both walls counts */
    for (int t = 1; t <= 200; t++) {
        rpl_water_step(w);
        if (t % 7)
            continue;
        double age = t / 60.0;
        for (double x = 0; x <= 100; x += 3.25) {
            assert_near(rpl_water_height(w, x), p.level + ring_images_ref(2, 30, age, x, &p), sum_tol(2));
            double two = ring_ref(2, 230, age, x, &p) + ring_ref(2, -170, age, x, &p);
            second += fabs(two) > 1e-3;
        }
    }
    assert_true(second > 50);
    rpl_water_destroy(w);
}

/* A ring's wave fainter than sleep_epsilon is left out of the sum (not
 * worth a sine): one born below it leaves the surface flat, one above it
 * shows until it has faded below it, then the surface is flat again
 * though the ring lives on. */
static void test_waves_faint(void **state)
{
    (void)state;
    rpl_water_params_t p;
    rpl_water_defaults(&p);
    p.kind = RPL_SURFACE_WAVES;
    p.sleep_epsilon = 0.01;
    p.life = 4;
    rpl_water_t *w = new_water(&p);
    assert_int_equal(rpl_water_disturb(w, 100, 0.009), RPL_OK);
    int seen = 0;
    for (int t = 1; t <= 120; t++) {
        rpl_water_step(w);
        for (double x = 0; x <= 640; x += 5)
            assert_true(rpl_water_height(w, x) == p.level);
    }
    assert_int_equal(rpl_water_rings(w), 1);
    /* 0.02 (1 - t/4)^2 falls below 0.01 at t = 4 (1 - 1/sqrt 2) = 1.17 s:
     * 70 steps and a third */
    assert_int_equal(rpl_water_disturb(w, 400, 0.02), RPL_OK);
    for (int t = 1; t <= 100; t++) {
        rpl_water_step(w);
        int flat = 1;
        for (double x = 300; x <= 500; x += 3)
            flat &= rpl_water_height(w, x) == p.level;
        if (t <= 70)
            seen += !flat;
        else
            assert_true(flat);
    }
    assert_true(seen >= 60);
    assert_int_equal(rpl_water_rings(w), 2);
    rpl_water_destroy(w);
}

static void test_waves_oldest_dropped(void **state)
{
    (void)state;
    rpl_water_params_t p;
    rpl_water_defaults(&p);
    p.kind = RPL_SURFACE_WAVES;
    /* wavelength 4: rings 1.5 apart are more than a quarter wavelength
     * apart, so none merges; c = 8 per second */
    p.wavelength = 4;
    rpl_water_t *w = new_water(&p);
    /* 44 rings from 100 first, then 256 from 200: the 44 are dropped */
    for (int i = 0; i < 44; i++)
        assert_int_equal(rpl_water_disturb(w, 100 + 1.5 * i, 1), RPL_OK);
    assert_int_equal(rpl_water_rings(w), 44);
    for (int i = 0; i < RPL_WAVES_MAX; i++)
        assert_int_equal(rpl_water_impact(w, 200 + 1.5 * i, 300, NULL), RPL_OK);
    assert_int_equal(rpl_water_rings(w), RPL_WAVES_MAX);
    for (int t = 0; t < 30; t++)
        rpl_water_step(w);
    /* after 0.5 s the rings have gone 4 units: those from 100 are gone,
     * those from 200 are there */
    assert_true(rpl_water_height(w, 100) == p.level);
    assert_true(rpl_water_height(w, 130) == p.level);
    assert_true(rpl_water_height(w, 201) != p.level);
    rpl_water_destroy(w);
}

/* Rings started close together in space and time are one ring of their
 * summed amplitude: the same surface as one impact of that amplitude. */
static void test_waves_merge(void **state)
{
    (void)state;
    rpl_water_params_t p;
    rpl_water_defaults(&p);
    p.kind = RPL_SURFACE_WAVES;
    rpl_water_t *w = new_water(&p), *one = new_water(&p);
    /* three within a quarter wavelength (15) of the first, in one step:
     * the surface of one ring at 300 of amplitude 1 + 2 + 0.5 */
    assert_int_equal(rpl_water_disturb(w, 300, 1), RPL_OK);
    assert_int_equal(rpl_water_disturb(w, 310, 2), RPL_OK);
    assert_int_equal(rpl_water_disturb(w, 290, 0.5), RPL_OK);
    assert_int_equal(rpl_water_disturb(one, 300, 3.5), RPL_OK);
    assert_int_equal(rpl_water_rings(w), 1);
    for (int t = 0; t < 30; t++) {
        rpl_water_step(w);
        rpl_water_step(one);
    }
    for (double x = 200; x <= 400; x += 7)
        assert_true(rpl_water_height(w, x) == rpl_water_height(one, x));
    assert_true(rpl_water_height(w, 307) != p.level); /* sin(2 pi f t) is 0 at 300 */
    /* a far one is a ring of its own; so is a close one more than 0.1 s
     * (6 steps) after the first */
    assert_int_equal(rpl_water_disturb(w, 400, 1), RPL_OK);
    assert_int_equal(rpl_water_rings(w), 2);
    assert_int_equal(rpl_water_disturb(w, 300, 1), RPL_OK);
    assert_int_equal(rpl_water_rings(w), 3);
    rpl_water_destroy(one);
    rpl_water_destroy(w);
}

/* ---- the waves' sum, exactly -------------------------------------------------- */

/* The waves as ripple.h describes them, kept beside a body: its rings
 * (oldest first; a disturbance within a quarter wavelength of one started
 * at most 0.1 s before adds to it; the oldest goes when 256 are alive; a
 * ring lives life / step steps, rounded up), and the surface summed over
 * every ring and every image, nothing left out, in the header's order.
 * The sum is written with the arithmetic the body uses (the amplitude
 * times the fade twice, the phase 2 pi f (age - s / c), the age as whole
 * steps times the step), so the body must give these bits exactly:
 * whatever it skips, it may skip only waves that have not arrived. */
typedef struct model_ring {
    double x, amp;
    uint64_t born;
} model_ring_t;

typedef struct waves_model {
    rpl_water_params_t p;
    model_ring_t r[RPL_WAVES_MAX];
    int n;
    uint64_t steps;
    rpl_sintab_t tab; /* the sine table, as a body keeps one (model_new) */
} waves_model_t;

/* A model of no rings with parameters p (large: kept by the caller). */
static void model_new(waves_model_t *m, const rpl_water_params_t *p)
{
    memset(m, 0, sizeof *m);
    m->p = *p;
    rpl_sintab_init(&m->tab);
}

static uint64_t model_lives(const rpl_water_params_t *p)
{
    return (uint64_t)ceil(p->life / p->step - 1e-9);
}

static void model_disturb(waves_model_t *m, double x, double dv)
{
    uint64_t recent = (uint64_t)(0.1 / m->p.step);
    for (int i = m->n - 1; i >= 0 && m->steps - m->r[i].born <= recent; i--)
        if (fabs(m->r[i].x - x) <= 0.25 * m->p.wavelength) {
            m->r[i].amp += dv;
            return;
        }
    if (m->n == RPL_WAVES_MAX) {
        memmove(m->r, m->r + 1, (RPL_WAVES_MAX - 1) * sizeof *m->r);
        m->n--;
    }
    m->r[m->n++] = (model_ring_t){x, dv, m->steps};
}

static void model_step(waves_model_t *m)
{
    m->steps++;
    int dead = 0;
    while (dead < m->n && m->steps - m->r[dead].born >= model_lives(&m->p))
        dead++;
    memmove(m->r, m->r + dead, (size_t)(m->n - dead) * sizeof *m->r);
    m->n -= dead;
}

/* Height less the level, d/dt and d/dx at x (clamped into the basin).
 * Each wave as the body works it out (core/side/water_state.h): the phase
 * in the sine table's cells, 2^RPL_SINTAB_BITS a turn, f age 2^bits at
 * the source less s 2^bits / wavelength; the sine and cosine read from
 * the table of core/base/dmath.h; none fainter than sleep_epsilon. */
typedef struct model_call {
    const waves_model_t *m;
    double x, h, dt, dx;
} model_call_t;

static void model_sum_run(void *arg)
{
    model_call_t *c = arg;
    const waves_model_t *m = c->m;
    double x = c->x;
    const rpl_water_params_t *p = &m->p;
    const double n = 1 << RPL_SINTAB_BITS, two_pi = 0x1.921fb54442d18p+2;
    x = !(x >= p->x0) ? p->x0 : x > p->x1 ? p->x1 : x;
    double sh = 0, sdt = 0, sdx = 0;
    for (int r = 0; r < m->n; r++) {
        const model_ring_t *g = &m->r[r];
        if (m->steps - g->born >= model_lives(p))
            continue; /* dead, not yet dropped (the life was shortened) */
        double age = (double)(m->steps - g->born) * p->step;
        double fade = 1 - age / p->life, env = g->amp * fade * fade;
        if (fabs(env) < p->sleep_epsilon)
            continue;
        double left = 2 * p->x0 - g->x, right = 2 * p->x1 - g->x;
        const double src[5] = {g->x, left, right, 2 * p->x1 - left, 2 * p->x0 - right};
        int ns = p->ends == RPL_ENDS_ABSORB ? 1 : 5;
        for (int i = 0; i < ns; i++) {
            double dist = x - src[i], s = fabs(dist);
            if (s > p->frequency * p->wavelength * age)
                continue;
            double sn, cs;
            rpl_sintab2(&m->tab, p->frequency * age * n - s * (n / p->wavelength), &sn, &cs);
            sh += env * sn;
            sdt += g->amp * (-2 / p->life) * fade * sn + env * (two_pi * p->frequency) * cs;
            sdx += env * (-two_pi / p->wavelength) * cs * (dist < 0 ? -1 : dist > 0 ? 1 : 0);
        }
    }
    c->h = sh;
    c->dt = sdt;
    c->dx = sdx;
}

/* Under rpl_double_precision, as the body sums: on the x87 the two then
 * round alike. */
static void model_sum(const waves_model_t *m, double x, double *h, double *dt, double *dx)
{
    model_call_t c = {m, x, 0, 0, 0};
    rpl_double_precision(model_sum_run, &c);
    *h = c.h;
    *dt = c.dt;
    *dx = c.dx;
}

static int same_bits(double a, double b)
{
    uint64_t x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    return x == y;
}

static double unit_rnd(uint64_t *s)
{
    return (double)(rnd_next(s) >> 11) / 9007199254740992.0;
}

/* The body against the model at x: height, velocity, slope, bit for bit. */
static void check_at(const rpl_water_t *w, const waves_model_t *m, double x, const char *what)
{
    double h, dt, dx;
    model_sum(m, x, &h, &dt, &dx);
    double got_h = rpl_water_height(w, x), got_v = rpl_water_velocity(w, x), got_s = rpl_water_slope(w, x);
    if (!same_bits(got_h, m->p.level + h) || !same_bits(got_v, dt) || !same_bits(got_s, dx))
        fail_msg("%s, step %llu, %d rings, x %.17g: height %.17g velocity %.17g slope %.17g, "
                 "want %.17g %.17g %.17g",
                 what, (unsigned long long)m->steps, m->n, x, got_h, got_v, got_s, m->p.level + h, dt, dx);
}

/* Everywhere a sum might go wrong: random points, the walls and past
 * them, even fractions of the basin (where stretches of it may start),
 * a few rings' centres and images, and the points their waves have just
 * reached or not (c * age away, and an ulp either side); then a sampled
 * run across the basin (rpl_water_sample). */
static void check_surface_now(const rpl_water_t *w, const waves_model_t *m, uint64_t *rng)
{
    const rpl_water_params_t *p = &m->p;
    double span = p->x1 - p->x0, c = p->frequency * p->wavelength;
    check_at(w, m, p->x0, "left wall");
    check_at(w, m, p->x1, "right wall");
    check_at(w, m, p->x0 - 0.25 * span, "left of the basin");
    check_at(w, m, p->x1 + 3 * span, "right of the basin");
    for (int i = 0; i < 16; i++)
        check_at(w, m, p->x0 + span * unit_rnd(rng), "random point");
    for (int k = 1; k < 64; k += 1 + (int)(rnd_next(rng) % 4))
        check_at(w, m, p->x0 + span * k / 64, "even fraction");
    for (int k = 0; k < 4 && m->n > 0; k++) {
        const model_ring_t *g = &m->r[rnd_next(rng) % (unsigned)m->n];
        double reach = c * ((double)(m->steps - g->born) * p->step);
        double left = 2 * p->x0 - g->x, right = 2 * p->x1 - g->x;
        const double src[5] = {g->x, left, right, 2 * p->x1 - left, 2 * p->x0 - right};
        for (int i = 0; i < 5; i++) {
            check_at(w, m, src[i], "a source");
            double edge[2] = {src[i] - reach, src[i] + reach};
            /* Exactly at a front, whether the wave has arrived turns on
             * the last bit of |x - src| against c * age: with x87's excess
             * precision (FLT_EVAL_METHOD 2, the i586 build) the body and
             * the model may round those differently, so the fronts are
             * compared where doubles are evaluated as doubles. */
            for (int j = 0; j < 2 && FLT_EVAL_METHOD == 0; j++) {
                check_at(w, m, edge[j], "front of a wave");
                check_at(w, m, nextafter(edge[j], -INFINITY), "just outside or inside a front");
                check_at(w, m, nextafter(edge[j], INFINITY), "just inside or outside a front");
            }
        }
    }
    /* sparse, then dense: with 32 stretches at most, a 400th of the
     * basin puts runs of four and more samples in one, which avx2 sums
     * side by side (rpl_water_rings_heights); across the walls too */
    enum { N = 61, ND = 420 };
    const int runs[2] = {N, ND};
    const double dxs[2] = {(span + 7) / (N - 1), span / 400};
    for (int r = 0; r < 2; r++) {
        float got[ND];
        double x0 = p->x0 - (r ? 10 * dxs[r] + 0.3 * dxs[r] : 3.5), dx = dxs[r];
        assert_int_equal(rpl_water_sample(w, x0, dx, runs[r], got), RPL_OK);
        for (int i = 0; i < runs[r]; i++) {
            double x = x0 + i * dx, h, dt, sl;
            if (!(x >= p->x0))
                x = p->x0;
            if (x > p->x1)
                x = p->x1;
            model_sum(m, x, &h, &dt, &sl);
            float want = (float)(p->level + h);
            if (memcmp(&got[i], &want, sizeof want) != 0)
                fail_msg("sample %d at x %.17g (dx %.17g), step %llu: %.9g, want %.9g", i, x, dx,
                         (unsigned long long)m->steps, got[i], want);
        }
    }
}

/* The same on the kernel paths whose sums differ: the sums take the
 * path's instruction set (rpl_water_set_kernels: four terms at a time
 * with avx2, two with SSE2 on any other x86-64 path and with NEON on
 * AArch64, one at a time elsewhere); each must give the full sum's bits.
 * The body is left on the CPU's best. */
static void check_surface(rpl_water_t *w, const waves_model_t *m, uint64_t *rng)
{
    /* the sums differ between avx2 and every other path only */
    const rpl_kernels_t *avx2 = rpl_kernels_get("avx2");
    uint64_t again = *rng; /* the same points on each */
    assert_int_equal(rpl_water_set_kernels(w, rpl_kernels_get("c")), RPL_OK);
    check_surface_now(w, m, avx2 ? &again : rng);
    if (avx2) {
        assert_int_equal(rpl_water_set_kernels(w, avx2), RPL_OK);
        check_surface_now(w, m, rng);
    }
    assert_int_equal(rpl_water_set_kernels(w, rpl_kernels_get("auto")), RPL_OK);
}

/* Random basins and waves: offsets from 0 to 1e6, spans from a few units
 * (one stretch) to 4000, every kind of end, waves from slow and short to
 * fast and long (reaching past the basin, their images too), lives short
 * and long, steps of 1/30 to 1/120 s.  Disturbances fall at random times,
 * places (the walls too) and strengths (tiny to large, some close
 * together to merge), through their whole lives: young rings, wide ones,
 * nearly dead ones.  The surface is checked against the full sum about
 * 16 times in each. */
static void test_waves_sum_exact(void **state)
{
    (void)state;
    uint64_t rng = 2207;
    /* under an emulated CPU the first 12, each offset with each kind of
     * end once: the maths are the same code on every CPU, and the 24 run
     * natively */
    for (int round = 0; round < (test_quick() ? 12 : 24); round++) {
        rpl_water_params_t p;
        rpl_water_defaults(&p);
        p.kind = RPL_SURFACE_WAVES;
        static const double offsets[] = {0, -731.25, 1e6, 12.5};
        static const double spans[] = {3, 40, 384, 1018, 4000};
        p.x0 = offsets[round % 4] + 100 * unit_rnd(&rng);
        p.x1 = p.x0 + spans[rnd_next(&rng) % 5] * (0.5 + unit_rnd(&rng));
        p.ends = (rpl_water_ends)(round % 3);
        p.frequency = 0.5 + 4 * unit_rnd(&rng);
        p.wavelength = 5 + 300 * unit_rnd(&rng) * unit_rnd(&rng);
        p.life = 0.5 + 5 * unit_rnd(&rng);
        static const double steps[] = {1.0 / 30, 1.0 / 60, 1.0 / 120};
        p.step = steps[rnd_next(&rng) % 3];
        p.sleep_steps = 1000000; /* stays awake: the model does not sleep */
        rpl_water_t *w = new_water(&p);
        waves_model_t m;
        model_new(&m, &p);
        double span = p.x1 - p.x0;
        int total = (int)(1.5 * p.life / p.step) + 10, busy = 1 + (int)(rnd_next(&rng) % 6);
        for (int t = 0; t < total; t++) {
            int n = rnd_next(&rng) % 4 == 0 ? (int)(rnd_next(&rng) % (unsigned)busy) + 1 : 0;
            for (int i = 0; i < n && t < total * 2 / 3; i++) {
                int where = (int)(rnd_next(&rng) % 10);
                double x = where == 0 ? p.x0 : where == 1 ? p.x1 : p.x0 + span * unit_rnd(&rng);
                if (where == 2 && m.n > 0) /* close to the newest: may merge */
                    x = fmin(p.x1, fmax(p.x0, m.r[m.n - 1].x + 0.2 * p.wavelength * (unit_rnd(&rng) - 0.5)));
                double dv = (unit_rnd(&rng) - 0.5) * (where == 3 ? 1e-6 : 60);
                assert_int_equal(rpl_water_disturb(w, x, dv), RPL_OK);
                model_disturb(&m, x, dv);
                assert_int_equal(rpl_water_rings(w), m.n);
            }
            if (t % (total / 16 + 1) == 0)
                check_surface(w, &m, &rng);
            int awake = rpl_water_awake(w); /* asleep until the first disturbance */
            rpl_water_step(w);
            if (awake)
                model_step(&m);
            assert_true(rpl_water_steps(w) == m.steps);
            assert_int_equal(rpl_water_rings(w), m.n);
        }
        rpl_water_destroy(w);
    }
}

/* Past 256 rings (the oldest dropped, in the middle of a step), and new
 * parameters under rings already running: a shorter life (rings dead but
 * not yet dropped), the basin moved and narrowed, other ends, faster
 * waves; and a reset. */
static void test_waves_sum_exact_changes(void **state)
{
    (void)state;
    uint64_t rng = 99;
    rpl_water_params_t p;
    rpl_water_defaults(&p);
    p.kind = RPL_SURFACE_WAVES;
    p.x0 = 100;
    p.x1 = 3100;
    p.wavelength = 8; /* rings more than 2 apart never merge */
    p.frequency = 20;
    p.sleep_steps = 1000000;
    rpl_water_t *w = new_water(&p);
    waves_model_t m;
    model_new(&m, &p);
    for (int t = 0; t < 40; t++) {
        for (int i = 0; i < 12; i++) {
            double x = p.x0 + 3 * (t * 12 + i) + unit_rnd(&rng);
            double dv = (unit_rnd(&rng) - 0.5) * 20;
            assert_int_equal(rpl_water_disturb(w, x, dv), RPL_OK);
            model_disturb(&m, x, dv);
            if (i == 6)
                check_surface(w, &m, &rng);
        }
        assert_int_equal(rpl_water_rings(w), m.n);
        rpl_water_step(w);
        model_step(&m);
    }
    assert_int_equal(m.n, RPL_WAVES_MAX);
    check_surface(w, &m, &rng);

    rpl_water_params_t q = p;
    q.life = 0.3; /* 18 steps: the rings older than that are dead now */
    assert_int_equal(rpl_water_set_params(w, &q), RPL_OK);
    m.p = q;
    check_surface(w, &m, &rng);
    rpl_water_step(w);
    model_step(&m);
    assert_int_equal(rpl_water_rings(w), m.n);
    check_surface(w, &m, &rng);

    q.life = 4;
    q.x0 = 500; /* the rings stay where they were, some now outside */
    q.x1 = 1300;
    q.ends = RPL_ENDS_FREE;
    q.frequency = 60;
    assert_int_equal(rpl_water_set_params(w, &q), RPL_OK);
    m.p = q;
    for (int t = 0; t < 20; t++) {
        check_surface(w, &m, &rng);
        rpl_water_step(w);
        model_step(&m);
    }
    q.ends = RPL_ENDS_ABSORB;
    q.x1 = 520; /* one stretch */
    assert_int_equal(rpl_water_set_params(w, &q), RPL_OK);
    m.p = q;
    check_surface(w, &m, &rng);

    rpl_water_reset(w);
    m.n = 0;
    m.steps = 0;
    check_surface(w, &m, &rng);
    assert_int_equal(rpl_water_disturb(w, 510, 2), RPL_OK);
    model_disturb(&m, 510, 2);
    for (int t = 0; t < 10; t++) {
        rpl_water_step(w);
        model_step(&m);
        check_surface(w, &m, &rng);
    }
    rpl_water_destroy(w);
}

/* ---- the terms kept step by step ------------------------------------------------ */

/* The terms a body keeps up as it steps and is disturbed (core/side/
 * water_state.h) against the terms made afresh from its rings now
 * (rpl_water_terms_fresh): the same buckets holding the same terms in the
 * same order, and every field a sum reads with the same bits. */
static void check_terms(const rpl_water_t *w, terms_t *fresh, const char *what, int t)
{
    const terms_t *tm = w->tm;
    assert_non_null(tm);
    rpl_water_terms_fresh(w, fresh);
    if (tm->nb != fresh->nb || !same_bits(tm->bw, fresh->bw) || !same_bits(tm->k, fresh->k) ||
        tm->base != fresh->base)
        fail_msg("%s, step %d: %d buckets of %.17g (base %d), want %d of %.17g (base %d)", what, t, tm->nb,
                 tm->bw, tm->base, fresh->nb, fresh->bw, fresh->base);
    for (int s = 0; s < TERM_SLOTS; s++) {
        if (tm->live[s] != fresh->live[s])
            fail_msg("%s, step %d, %d rings: slot %d in the sum %d, want %d", what, t, w->nrings, s,
                     tm->live[s], fresh->live[s]);
        if (fresh->live[s] && (tm->lo[s] != fresh->lo[s] || tm->hi[s] != fresh->hi[s] ||
                               memcmp(&tm->t[s], &fresh->t[s], sizeof tm->t[s]) != 0))
            fail_msg("%s, step %d: slot %d in buckets %d .. %d, reach %.17g, phase %.17g, envelope %.17g; "
                     "want %d .. %d, %.17g, %.17g, %.17g",
                     what, t, s, tm->lo[s], tm->hi[s], tm->t[s].reach, tm->t[s].ph, tm->t[s].env,
                     fresh->lo[s], fresh->hi[s], fresh->t[s].reach, fresh->t[s].ph, fresh->t[s].env);
    }
    for (int r = 0; r < w->nrings; r++) {
        int rs = (tm->base + r) % RPL_WAVES_MAX;
        if (tm->faint[rs] != fresh->faint[rs])
            fail_msg("%s, step %d: ring %d faint %d, want %d", what, t, r, tm->faint[rs], fresh->faint[rs]);
    }
    for (int j = 0; j < tm->nb; j++) {
        if (tm->cnt[j] != fresh->cnt[j])
            fail_msg("%s, step %d, %d rings: bucket %d of %d has %d terms, want %d", what, t, w->nrings, j,
                     tm->nb, tm->cnt[j], fresh->cnt[j]);
        for (int i = j * TERMS_MAX; i < j * TERMS_MAX + tm->cnt[j]; i++)
            if (tm->in[i] != fresh->in[i] || !same_bits(tm->bsrc[i], fresh->bsrc[i]) ||
                !same_bits(tm->breach[i], fresh->breach[i]) || !same_bits(tm->bph[i], fresh->bph[i]) ||
                !same_bits(tm->benv[i], fresh->benv[i]))
                fail_msg("%s, step %d: bucket %d, entry %d: slot %d (%.17g %.17g %.17g %.17g), "
                         "want %d (%.17g %.17g %.17g %.17g)",
                         what, t, j, i - j * TERMS_MAX, tm->in[i], tm->bsrc[i], tm->breach[i], tm->bph[i],
                         tm->benv[i], fresh->in[i], fresh->bsrc[i], fresh->breach[i], fresh->bph[i],
                         fresh->benv[i]);
    }
}

/* The terms a step moves on where they are (rings dying at the front,
 * fading out of the sum in the middle, waves reaching new stretches of the
 * basin, images reaching the basin at all), those a disturbance adds,
 * merges into (stronger, or weaker and faint) or drops (past 256 rings),
 * and new parameters under running rings: after each step and each batch
 * of disturbances the terms must be those made afresh, on each way of
 * keeping them (avx2's and the others', taken by turns), and the surface
 * the full sum's, bit for bit. */
static void test_waves_terms_kept(void **state)
{
    (void)state;
    uint64_t rng = 4711;
    terms_t *fresh = calloc(1, sizeof *fresh);
    assert_non_null(fresh);
    const rpl_kernels_t *c = rpl_kernels_get("c"), *avx2 = rpl_kernels_get("avx2");
    for (int round = 0; round < (test_quick() ? 6 : 12); round++) {
        rpl_water_params_t p;
        rpl_water_defaults(&p);
        p.kind = RPL_SURFACE_WAVES;
        p.x0 = (round % 2 ? -500 : 0) + 100 * unit_rnd(&rng);
        p.x1 = p.x0 + 150 + 2500 * unit_rnd(&rng);
        p.ends = (rpl_water_ends)(round % 3);
        p.frequency = 0.5 + 4 * unit_rnd(&rng);
        p.wavelength = 10 + 80 * unit_rnd(&rng);
        p.life = 0.5 + 3 * unit_rnd(&rng);
        static const double steps[] = {1.0 / 30, 1.0 / 60, 1.0 / 120};
        p.step = steps[rnd_next(&rng) % 3];
        p.sleep_steps = 1000000;
        rpl_water_t *w = new_water(&p);
        waves_model_t m;
        model_new(&m, &p);
        double span = p.x1 - p.x0;
        int total = (int)(1.3 * p.life / p.step) + 10, crowd = round % 4 == 3;
        for (int t = 0; t < total; t++) {
            int n = crowd ? 12 : rnd_next(&rng) % 3 == 0 ? (int)(rnd_next(&rng) % 4) + 1 : 0;
            for (int i = 0; i < n && t < total * 3 / 4; i++) {
                int kind = (int)(rnd_next(&rng) % 8);
                double x = p.x0 + span * unit_rnd(&rng);
                /* tiny ones fade out of the sum early; near the newest, they merge */
                double dv = (unit_rnd(&rng) - 0.5) * (kind == 0 ? 0.05 : 40);
                if (kind == 1 && m.n > 0) { /* merged into the newest, even cancelling it */
                    x = fmin(p.x1, fmax(p.x0, m.r[m.n - 1].x + 0.1 * p.wavelength * (unit_rnd(&rng) - 0.5)));
                    dv = -m.r[m.n - 1].amp * (0.5 + unit_rnd(&rng));
                }
                assert_int_equal(rpl_water_disturb(w, x, dv), RPL_OK);
                model_disturb(&m, x, dv);
            }
            check_terms(w, fresh, "after disturbing", t);
            if (t == total / 2 && round % 2) { /* a shorter life: rings die at once */
                rpl_water_params_t q = p;
                q.life = 0.6 * p.life;
                assert_int_equal(rpl_water_set_params(w, &q), RPL_OK);
                m.p = q;
                check_terms(w, fresh, "new parameters", t);
            }
            if (t % (total / 6 + 1) == 0)
                check_surface(w, &m, &rng);
            assert_int_equal(rpl_water_set_kernels(w, t % 2 && avx2 ? avx2 : c), RPL_OK);
            rpl_water_step(w);
            model_step(&m);
            assert_int_equal(rpl_water_rings(w), m.n);
            check_terms(w, fresh, "after a step", t);
        }
        rpl_water_destroy(w);
    }
    free(fresh);
}

/* ---- impacts ------------------------------------------------------------------ */

static void test_impact_force(void **state)
{
    (void)state;
    rpl_water_params_t p;
    rpl_water_defaults(&p);
    p.force_min = 1;
    p.force_max = 5;
    p.speed_max = 800;
    rpl_water_t *w = new_water(&p);
    const struct {
        double vy, want;
    } cases[] = {{0, 1}, {400, 3}, {200, 2}, {800, 5}, {5000, 5}, {-400, -3}, {-1e9, -5}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        rpl_water_reset(w);
        double f = 0;
        /* x at spring 10 exactly: 640 * 10 / 63 */
        double x = spring_x(&p, 10);
        assert_int_equal(rpl_water_impact(w, x, cases[i].vy, &f), RPL_OK);
        assert_float_equal(f, cases[i].want, 1e-12);
        const double *v = rpl_water_spring_v(w);
        assert_float_equal(v[10] + v[11] + v[9], cases[i].want, 1e-12);
        assert_float_equal(v[10], cases[i].want, 1e-9);
        assert_int_equal(rpl_water_awake(w), 1);
    }
    /* down (+) pushes the surface down: y grows under the impact */
    rpl_water_reset(w);
    assert_int_equal(rpl_water_impact(w, 320, 600, NULL), RPL_OK);
    rpl_water_step(w);
    assert_true(rpl_water_height(w, 320) > p.level);
    assert_true(rpl_water_velocity(w, 320) > 0);
    rpl_water_destroy(w);
}

/* ---- ends -------------------------------------------------------------------- */

/* Wave energy: kinetic, the springs' and the spread's (the chain's
 * potential, with the 8 passes' coupling 8 * 0.05). */
static double wave_energy(const rpl_water_t *w, double k)
{
    int n = rpl_water_springs(w);
    const double *y = rpl_water_spring_y(w), *v = rpl_water_spring_v(w);
    double e = 0;
    for (int i = 0; i < n; i++) {
        e += v[i] * v[i] + k * y[i] * y[i];
        if (i + 1 < n)
            e += 0.4 * (y[i + 1] - y[i]) * (y[i + 1] - y[i]);
    }
    return e;
}

static void test_absorbing_ends(void **state)
{
    (void)state;
    double e[3];
    const int counts[] = {64, 128};
    for (int c = 0; c < 2; c++) {
        int n = counts[c];
        /* long enough for the pulse to reach the ends and come back to
         * the middle (the long waves travel about 0.63 springs a step) */
        int steps = (int)(n / 0.63 * 1.5);
        for (int ends = 0; ends < 3; ends++) {
            rpl_water_params_t p;
            rpl_water_defaults(&p);
            p.ends = (rpl_water_ends)ends;
            p.springs = n;
            p.stiffness = 0.002;
            p.damping = 0;
            p.sleep_epsilon = 0;
            rpl_water_t *w = new_water(&p);
            /* a smooth pulse 40 units wide in the middle, no net push */
            for (int i = 0; i < n; i++) {
                double u = (spring_x(&p, i) - 320) / 40;
                assert_int_equal(rpl_water_disturb(w, spring_x(&p, i), -u * exp(-u * u)), RPL_OK);
            }
            for (int t = 0; t < steps; t++)
                rpl_water_step(w);
            e[ends] = wave_energy(w, p.stiffness);
            rpl_water_destroy(w);
        }
        if (getenv("WATER_FIGURES"))
            printf("absorbing ends, %d springs: energy %.4g free, %.4g reflecting, %.4g absorbing\n",
                   n, e[0], e[1], e[2]);
        /* free and mirrored ends both send it back; the band does not */
        if (!(e[RPL_ENDS_ABSORB] < 0.3 * e[RPL_ENDS_REFLECT]))
            fail_msg("%d springs: absorbing %g, reflecting %g", n, e[RPL_ENDS_ABSORB],
                     e[RPL_ENDS_REFLECT]);
        assert_true(e[RPL_ENDS_FREE] > 0.5 * e[RPL_ENDS_REFLECT]);
    }
}

/* ---- changing parameters --------------------------------------------------------- */

static void test_set_params(void **state)
{
    (void)state;
    rpl_water_params_t p;
    rpl_water_defaults(&p);
    p.sleep_epsilon = 0;
    rpl_water_t *w = new_water(&p);
    assert_int_equal(rpl_water_disturb(w, 200, 3), RPL_OK);
    assert_int_equal(rpl_water_disturb(w, 480, -2), RPL_OK);
    for (int t = 0; t < 20; t++)
        rpl_water_step(w);
    double old[64];
    memcpy(old, rpl_water_spring_y(w), sizeof old);
    uint64_t steps = rpl_water_steps(w);

    /* refused: nothing changes */
    rpl_water_params_t bad = p;
    bad.spread = 0.7;
    assert_int_equal(rpl_water_set_params(w, &bad), RPL_EINVAL);
    assert_non_null(strstr(rpl_water_error(w), "spread"));
    assert_true(rpl_water_params(w)->spread == p.spread);
    assert_memory_equal(rpl_water_spring_y(w), old, sizeof old);

    /* 64 -> 127 springs: new spring 2i is old spring i */
    rpl_water_params_t q = p;
    q.springs = 127;
    assert_int_equal(rpl_water_set_params(w, &q), RPL_OK);
    assert_int_equal(rpl_water_springs(w), 127);
    const double *y = rpl_water_spring_y(w);
    for (int i = 0; i < 64; i++)
        assert_float_equal(y[2 * i], old[i], 1e-12);
    assert_true(rpl_water_steps(w) == steps);
    rpl_water_step(w);

    /* to waves: the springs' surface goes, rings start empty */
    q.kind = RPL_SURFACE_WAVES;
    assert_int_equal(rpl_water_set_params(w, &q), RPL_OK);
    assert_int_equal(rpl_water_rings(w), 0);
    assert_true(rpl_water_height(w, 200) == p.level);
    assert_int_equal(rpl_water_disturb(w, 300, 2), RPL_OK);
    assert_int_equal(rpl_water_rings(w), 1);
    /* and back: the rings are dropped */
    q.kind = RPL_SURFACE_SPRINGS;
    q.springs = 16;
    assert_int_equal(rpl_water_set_params(w, &q), RPL_OK);
    assert_int_equal(rpl_water_rings(w), 0);
    assert_int_equal(rpl_water_springs(w), 16);
    assert_true(rpl_water_energy(w) == 0);
    assert_int_equal(rpl_water_awake(w), 1);

    /* moved and widened: the level follows */
    q.x0 = 100;
    q.x1 = 300;
    q.level = 50;
    q.bottom = 90;
    assert_int_equal(rpl_water_set_params(w, &q), RPL_OK);
    assert_true(rpl_water_height(w, 0) == 50);
    assert_int_equal(rpl_water_disturb(w, 99, 1), RPL_EINVAL);
    assert_int_equal(rpl_water_disturb(w, 300, 1), RPL_OK);
    rpl_water_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_spread_limit_figures),
        cmocka_unit_test(test_spread_limit_by_simulation),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_null_safe),
        cmocka_unit_test(test_rule_against_reference),
        cmocka_unit_test(test_one_step_by_hand),
        cmocka_unit_test(test_spline),
        cmocka_unit_test(test_centred_splash_symmetric),
        cmocka_unit_test(test_sleeping),
        cmocka_unit_test(test_frame_rate_independent),
        cmocka_unit_test(test_step_cap),
        cmocka_unit_test(test_waves),
        cmocka_unit_test(test_waves_reflect),
        cmocka_unit_test(test_waves_reflect_twice),
        cmocka_unit_test(test_waves_faint),
        cmocka_unit_test(test_waves_oldest_dropped),
        cmocka_unit_test(test_waves_merge),
        cmocka_unit_test(test_waves_sum_exact),
        cmocka_unit_test(test_waves_sum_exact_changes),
        cmocka_unit_test(test_waves_terms_kept),
        cmocka_unit_test(test_impact_force),
        cmocka_unit_test(test_absorbing_ends),
        cmocka_unit_test(test_set_params),
    };
    if (getenv("WATER_ONLY")) /* one test by name, e.g. to time it */
        cmocka_set_test_filter(getenv("WATER_ONLY"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
