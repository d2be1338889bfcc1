/* test_buoyancy.c - side water meets bodies: submerged area and centroid (by hand and against a column-integration reference), forces, caps, sweep crossings, the waves surface's cache, splash droplets (cmocka). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ripple.h"
#include "util.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* |got - want| <= tol, naming both on failure (this cmocka may predate
 * assert_double_equal). */
static void near_at(double got, double want, double tol, const char *what, int line)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("line %d: %s = %.12g, want %.12g (tolerance %g)", line, what, got, want, tol);
}
#define assert_near(got, want, tol) near_at((got), (want), (tol), #got, __LINE__)

/* The default water: [0, 640] x [300, 480], 64 springs, density 0.001,
 * drag 0.6, angular drag 0.5, max_dv 600 (asserted below, since the
 * expected values depend on them). */
static rpl_water_t *new_water(const rpl_water_params_t *p)
{
    rpl_status st = RPL_ENOMEM;
    rpl_water_t *w;
    st = rpl_water_create(p, &w);
    assert_int_equal(st, RPL_OK);
    assert_non_null(w);
    return w;
}

static rpl_water_t *default_water(void)
{
    rpl_water_params_t p;
    rpl_water_defaults(&p);
    /* (within 1e-12: an x87 build compares literals in long double) */
    assert_true(p.kind == RPL_SURFACE_SPRINGS && p.x0 == 0 && p.x1 == 640 && p.level == 300 &&
                p.bottom == 480 && p.springs == 64 && fabs(p.density - 0.001) < 1e-12 &&
                fabs(p.drag - 0.6) < 1e-12 && p.angular_drag == 0.5 && p.max_dv == 600);
    return new_water(&p);
}

/* A water whose surface has been disturbed at a few places and left to
 * move for a while, so that it is curved everywhere. */
static rpl_water_t *wavy_water(rpl_surface_kind kind)
{
    rpl_water_params_t p;
    rpl_water_defaults(&p);
    p.kind = kind;
    rpl_water_t *w = new_water(&p);
    double amp = kind == RPL_SURFACE_SPRINGS ? 6 : 12;
    assert_int_equal(rpl_water_disturb(w, 100, amp), RPL_OK);
    assert_int_equal(rpl_water_disturb(w, 333, -amp), RPL_OK);
    assert_int_equal(rpl_water_disturb(w, 500, amp * 0.7), RPL_OK);
    for (int i = 0; i < 25; i++)
        rpl_water_step(w);
    assert_true(rpl_water_awake(w));
    return w;
}

/* ---- references ---------------------------------------------------------- */

/* Area and centroid of a simple polygon by the shoelace formula. */
static void shoelace(const double *xy, int n, double *area, double *cx, double *cy)
{
    double a = 0, mx = 0, my = 0;
    for (int i = 0; i < n; i++) {
        int j = (i + 1) % n;
        double c = xy[2 * i] * xy[2 * j + 1] - xy[2 * j] * xy[2 * i + 1];
        a += c;
        mx += (xy[2 * i] + xy[2 * j]) * c;
        my += (xy[2 * i + 1] + xy[2 * j + 1]) * c;
    }
    *area = fabs(a) / 2;
    *cx = mx / (3 * a);
    *cy = my / (3 * a);
}

/* The documented surface: straight between samples at the springs (n of
 * them, evenly over [x0, x1]) or, for waves, evenly at most 4 apart. */
typedef struct ref_surf {
    int n;
    double x0, x1;
    double *hs;
} ref_surf_t;

static ref_surf_t ref_surface(rpl_water_t *w)
{
    const rpl_water_params_t *p = rpl_water_params(w);
    ref_surf_t s;
    s.x0 = p->x0;
    s.x1 = p->x1;
    s.n = p->kind == RPL_SURFACE_SPRINGS ? p->springs : (int)ceil((p->x1 - p->x0) / 4) + 1;
    s.hs = xmalloc((size_t)s.n * sizeof *s.hs);
    for (int i = 0; i < s.n; i++)
        s.hs[i] = rpl_water_height(w, s.x0 + (s.x1 - s.x0) * i / (s.n - 1));
    return s;
}

static double ref_height(const ref_surf_t *s, double x)
{
    double u = (x - s->x0) / (s->x1 - s->x0) * (s->n - 1);
    int i = (int)floor(u);
    if (i < 0)
        i = 0;
    if (i > s->n - 2)
        i = s->n - 2;
    double t = u - i;
    return s->hs[i] + (s->hs[i + 1] - s->hs[i]) * t;
}

/* Where the vertical line at x meets a convex polygon: [top, bottom], or 0. */
static int column(const double *xy, int n, double x, double *top, double *bot)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < n; i++) {
        int j = (i + 1) % n;
        double xa = xy[2 * i], ya = xy[2 * i + 1], xb = xy[2 * j], yb = xy[2 * j + 1];
        if ((x - xa) * (x - xb) > 0 || xa == xb)
            continue;
        double y = ya + (yb - ya) * (x - xa) / (xb - xa);
        lo = fmin(lo, y);
        hi = fmax(hi, y);
    }
    *top = lo;
    *bot = hi;
    return lo <= hi;
}

/* The submerged part by the midpoint rule over `cols` columns: an
 * approximation independent of the code's slabs and kinks. */
static void ref_submerged(rpl_water_t *w, const double *xy, int n, int cols,
                          rpl_submerged_t *out)
{
    const rpl_water_params_t *p = rpl_water_params(w);
    ref_surf_t s = ref_surface(w);
    double xl = INFINITY, xr = -INFINITY;
    for (int i = 0; i < n; i++) {
        xl = fmin(xl, xy[2 * i]);
        xr = fmax(xr, xy[2 * i]);
    }
    xl = fmax(xl, p->x0);
    xr = fmin(xr, p->x1);
    memset(out, 0, sizeof *out);
    out->x_min = INFINITY;
    out->x_max = -INFINITY;
    double a = 0, mx = 0, my = 0, dx = (xr - xl) / cols;
    for (int c = 0; c < cols && xr > xl; c++) {
        double x = xl + (c + 0.5) * dx, top, bot;
        if (!column(xy, n, x, &top, &bot))
            continue;
        double lo = fmax(top, ref_height(&s, x)), hi = fmin(bot, p->bottom);
        if (hi <= lo)
            continue;
        a += (hi - lo) * dx;
        mx += x * (hi - lo) * dx;
        my += 0.5 * (hi + lo) * (hi - lo) * dx;
        out->x_min = fmin(out->x_min, x - dx / 2);
        out->x_max = fmax(out->x_max, x + dx / 2);
    }
    out->area = a;
    if (a > 0) {
        out->cx = mx / a;
        out->cy = my / a;
    } else {
        out->x_min = out->x_max = 0;
    }
    free(s.hs);
}

static void expect_sub(const rpl_submerged_t *got, double area, double cx, double cy,
                       double x_min, double x_max, double tol)
{
    assert_near(got->area, area, tol * fmax(1, area));
    assert_near(got->cx, cx, tol * 100);
    assert_near(got->cy, cy, tol * 100);
    assert_near(got->x_min, x_min, tol * 100);
    assert_near(got->x_max, x_max, tol * 100);
}

static rpl_submerged_t sub_of(rpl_water_t *w, const double *xy, int n)
{
    rpl_submerged_t s;
    memset(&s, 0x55, sizeof s);
    assert_int_equal(rpl_water_submerged(w, xy, n, &s), RPL_OK);
    return s;
}

/* ---- rpl_water_submerged: flat water, by hand ------------------------------ */

static void test_flat_box(void **state)
{
    (void)state;
    rpl_water_t *w = default_water();
    /* 40 x 40 box from y 280 to 320 on the level 300: the lower half,
     * 40 x 20 = 800, centroid (120, 310); both windings */
    const double box[] = {100, 280, 140, 280, 140, 320, 100, 320};
    const double rev[] = {100, 320, 140, 320, 140, 280, 100, 280};
    rpl_submerged_t s = sub_of(w, box, 4);
    expect_sub(&s, 800, 120, 310, 100, 140, 1e-12);
    s = sub_of(w, rev, 4);
    expect_sub(&s, 800, 120, 310, 100, 140, 1e-12);
    /* a box resting exactly on the surface is dry; all zeros */
    const double dry[] = {100, 260, 140, 260, 140, 300, 100, 300};
    s = sub_of(w, dry, 4);
    expect_sub(&s, 0, 0, 0, 0, 0, 0);
    const double high[] = {10, -50, 50, -40, 30, 0};
    s = sub_of(w, high, 3);
    expect_sub(&s, 0, 0, 0, 0, 0, 0);
    rpl_water_destroy(w);
}

static void test_flat_triangle(void **state)
{
    (void)state;
    rpl_water_t *w = default_water();
    /* tip down at (220, 330), top edge 40 wide at y 290: 30 under the
     * level, the submerged triangle is 30 wide at the waterline (the
     * sides slope 1/2 across per unit down), area 30 * 30 / 2 = 450,
     * centroid a third of the way up from the waterline: y = 300 + 20 */
    const double tri[] = {200, 290, 240, 290, 220, 330};
    rpl_submerged_t s = sub_of(w, tri, 3);
    expect_sub(&s, 450, 220, 310, 205, 235, 1e-12);
    /* tip up at (220, 290), base 40 wide at y 330: the trapezoid under
     * the level is the whole (40 * 40 / 2 = 800) less the tip above it,
     * 10 tall and 10 wide (10 x 10 / 2 = 50); centroid from the whole's
     * and the tip's, each two thirds down from its apex:
     * (800 * 316.667 - 50 * 296.667) / 750 */
    const double up[] = {200, 330, 220, 290, 240, 330};
    s = sub_of(w, up, 3);
    double cy = (800 * (290 + 2 * 40.0 / 3) - 50 * (290 + 2 * 10.0 / 3)) / 750;
    expect_sub(&s, 750, 220, cy, 200, 240, 1e-12);
    rpl_water_destroy(w);
}

static void test_fully_under_and_floor(void **state)
{
    (void)state;
    rpl_water_t *w = default_water();
    /* an irregular convex quad wholly in the water: all of it */
    const double quad[] = {150, 350, 200, 340, 210, 400, 160, 390};
    double a, cx, cy;
    shoelace(quad, 4, &a, &cx, &cy);
    rpl_submerged_t s = sub_of(w, quad, 4);
    expect_sub(&s, a, cx, cy, 150, 210, 1e-12);
    /* a hexagon likewise, given clockwise on screen */
    const double hex[] = {400, 350, 420, 340, 445, 352, 450, 380, 425, 395, 402, 381};
    shoelace(hex, 6, &a, &cx, &cy);
    s = sub_of(w, hex, 6);
    expect_sub(&s, a, cx, cy, 400, 450, 1e-12);
    /* through the floor (480): only y 460..480 of a 460..500 box */
    const double deep[] = {300, 460, 340, 460, 340, 500, 300, 500};
    s = sub_of(w, deep, 4);
    expect_sub(&s, 800, 320, 470, 300, 340, 1e-12);
    /* through both surface and floor: y 300..480 */
    const double tall[] = {300, 290, 340, 290, 340, 490, 300, 490};
    s = sub_of(w, tall, 4);
    expect_sub(&s, 40 * 180, 320, 390, 300, 340, 1e-12);
    /* wholly under the floor: dry */
    const double below[] = {300, 490, 340, 490, 320, 520};
    s = sub_of(w, below, 3);
    expect_sub(&s, 0, 0, 0, 0, 0, 0);
    /* over the left edge x0 = 0: only x 0..20 holds water */
    const double edge[] = {-20, 310, 20, 310, 20, 330, -20, 330};
    s = sub_of(w, edge, 4);
    expect_sub(&s, 400, 10, 320, 0, 20, 1e-12);
    /* a diamond cut by the surface and the floor: a 100-unit diamond
     * centred at (320, 390), vertices on the level and on the floor less
     * 10: top vertex (320, 300) so all of it is under; check the whole
     * then shift it down 20 so its lower 10-deep tip (10 x 20 / 2... by
     * shoelace of the remaining pentagon) is cut by the floor */
    const double dia[] = {320, 300, 400, 390, 320, 480, 240, 390};
    shoelace(dia, 4, &a, &cx, &cy);
    s = sub_of(w, dia, 4);
    expect_sub(&s, a, cx, cy, 240, 400, 1e-12);
    const double dia2[] = {320, 320, 400, 410, 320, 500, 240, 410};
    /* the part above y 480: the diamond less its tip below 480, which
     * reaches from (320 - 20*80/90, 480) to (320 + 20*80/90, 480) */
    double half = 20 * 80.0 / 90;
    const double cut[] = {320, 320, 400, 410, 320 + half, 480, 320 - half, 480, 240, 410};
    shoelace(cut, 5, &a, &cx, &cy);
    s = sub_of(w, dia2, 4);
    expect_sub(&s, a, cx, cy, 240, 400, 1e-9);
    rpl_water_destroy(w);
}

static void test_nonconvex(void **state)
{
    (void)state;
    rpl_water_t *w = default_water();
    /* an L: a bar x 100..120 from y 290 down to 320 and a foot x 120..160,
     * y 310..320.  Under the level: the bar's 20 x 20 = 400 at (110, 310)
     * and the foot's 40 x 10 = 400 at (140, 315): 800 at (125, 312.5) */
    const double ell[] = {100, 290, 120, 290, 120, 310, 160, 310, 160, 320, 100, 320};
    rpl_submerged_t s = sub_of(w, ell, 6);
    expect_sub(&s, 800, 125, 312.5, 100, 160, 1e-12);
    /* a U dipping both arms: arms x 200..210 and 230..240 from 280 to
     * 320, joined by a bar y 320..330 under the level: arms 10 x 20 each
     * (200 at y 310) and the bar 40 x 10 = 400 at y 325 */
    const double u[] = {200, 280, 210, 280, 210, 320, 230, 320, 230, 280,
                        240, 280, 240, 330, 200, 330};
    s = sub_of(w, u, 8);
    expect_sub(&s, 800, 220, (400 * 310 + 400 * 325) / 800.0, 200, 240, 1e-12);
    /* a self-crossing bow tie: no crash, a finite answer */
    const double bow[] = {300, 280, 340, 340, 340, 280, 300, 340};
    s = sub_of(w, bow, 4);
    assert_true(isfinite(s.area) && s.area >= 0 && isfinite(s.cx) && isfinite(s.cy));
    rpl_water_destroy(w);
}

/* ---- rpl_water_submerged: curved surfaces, against the reference -------- */

/* A random convex polygon: k points on a rotated ellipse at sorted
 * random angles. */
static int random_convex(uint64_t *r, double *xy, double cx, double cy, double rx, double ry)
{
    int k = rnd_range(r, 3, 12);
    double ang[12];
    for (int i = 0; i < k; i++)
        ang[i] = (double)(rnd_next(r) >> 11) * (2 * M_PI / 9007199254740992.0);
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && ang[j - 1] > ang[j]; j--) {
            double t = ang[j];
            ang[j] = ang[j - 1];
            ang[j - 1] = t;
        }
    double rot = (double)rnd_range(r, 0, 359) * M_PI / 180;
    for (int i = 0; i < k; i++) {
        double ex = rx * cos(ang[i]), ey = ry * sin(ang[i]);
        xy[2 * i] = cx + ex * cos(rot) - ey * sin(rot);
        xy[2 * i + 1] = cy + ex * sin(rot) + ey * cos(rot);
    }
    return k;
}

static void check_against_reference(rpl_surface_kind kind, uint64_t seed)
{
    rpl_water_t *w = wavy_water(kind);
    uint64_t r = seed;
    int wet = 0;
    for (int t = 0; t < 24; t++) {
        double xy[24];
        double cx = rnd_range(&r, -30, 670), cy = rnd_range(&r, 270, 500);
        int k = random_convex(&r, xy, cx, cy, rnd_range(&r, 5, 90), rnd_range(&r, 5, 60));
        rpl_submerged_t got = sub_of(w, xy, k), ref;
        ref_submerged(w, xy, k, 4000, &ref);
        if (ref.area == 0) {
            assert_true(got.area < 1e-3);
            continue;
        }
        wet++;
        /* the midpoint rule is off by about dx^2 per kink: measured 1.3e-6
         * of the area and 3e-5 units at most, well inside these */
        assert_near(got.area, ref.area, 2e-5 * ref.area + 1e-4);
        if (ref.area > 1) {
            assert_near(got.cx, ref.cx, 2e-4);
            assert_near(got.cy, ref.cy, 2e-4);
        }
        double dx = 200.0 / 4000 * 2;
        assert_near(got.x_min, ref.x_min, dx);
        assert_near(got.x_max, ref.x_max, dx);
    }
    assert_true(wet > 10);
    rpl_water_destroy(w);
}

static void test_curved_springs(void **state)
{
    (void)state;
    check_against_reference(RPL_SURFACE_SPRINGS, 11);
}

static void test_curved_waves(void **state)
{
    (void)state;
    check_against_reference(RPL_SURFACE_WAVES, 12);
}

static void test_submerged_bad_args(void **state)
{
    (void)state;
    rpl_water_t *w = default_water();
    const double tri[] = {200, 290, 240, 290, 220, 330};
    double big[2 * 65];
    for (int i = 0; i < 65; i++) {
        big[2 * i] = 320 + 50 * cos(2 * M_PI * i / 65);
        big[2 * i + 1] = 300 + 50 * sin(2 * M_PI * i / 65);
    }
    rpl_submerged_t s;
    assert_int_equal(rpl_water_submerged(NULL, tri, 3, &s), RPL_EINVAL);
    assert_int_equal(rpl_water_submerged(w, NULL, 3, &s), RPL_EINVAL);
    assert_int_equal(rpl_water_submerged(w, tri, 3, NULL), RPL_EINVAL);
    assert_int_equal(rpl_water_submerged(w, tri, 2, &s), RPL_EINVAL);
    assert_int_equal(rpl_water_submerged(w, big, 65, &s), RPL_EINVAL);
    assert_int_equal(rpl_water_submerged(w, big, 64, &s), RPL_OK);
    assert_true(s.area > 0);
    double bad[] = {200, 290, 240, 290, 220, 330};
    const double poison[] = {NAN, INFINITY, -INFINITY, 2e9};
    for (int i = 0; i < 4; i++) {
        bad[3] = poison[i];
        assert_int_equal(rpl_water_submerged(w, bad, 3, &s), RPL_EINVAL);
    }
    /* degenerate polygons are fine and dry or small */
    const double line[] = {100, 310, 200, 320, 150, 315};
    s = sub_of(w, line, 3);
    assert_true(s.area < 1e-9);
    const double point[] = {100, 310, 100, 310, 100, 310};
    s = sub_of(w, point, 3);
    assert_true(s.area == 0);
    rpl_water_destroy(w);
}

/* ---- rpl_water_forces --------------------------------------------------------- */

static rpl_water_force_t forces_of(rpl_water_t *w, const rpl_body_t *b, double g, double dt)
{
    rpl_water_force_t f;
    memset(&f, 0x55, sizeof f);
    assert_int_equal(rpl_water_forces(w, b, g, dt, &f), RPL_OK);
    return f;
}

static const double box40[] = {100, 280, 140, 280, 140, 320, 100, 320};

static void test_forces_static(void **state)
{
    (void)state;
    rpl_water_t *w = default_water();
    rpl_body_t b = {box40, 4, 120, 300, 0, 0, 0, 1, 1000};
    rpl_water_force_t f = forces_of(w, &b, 900, 1.0 / 60);
    /* 800 under: buoyancy 0.001 * 900 * 800 = 720 upwards at (120, 310);
     * straight below the centre of mass, so no torque */
    assert_near(f.sub.area, 800, 1e-9);
    assert_near(f.fx, 0, 1e-12);
    assert_near(f.fy, -720, 1e-9);
    assert_near(f.px, 120, 1e-12);
    assert_near(f.py, 310, 1e-12);
    assert_near(f.torque, 0, 1e-9);
    /* the same body with its centre of mass 10 to the left: the force
     * itself is unchanged and its moment about the centre is taken by
     * whoever applies it at (px, py); no extra torque */
    b.cx = 110;
    f = forces_of(w, &b, 900, 1.0 / 60);
    assert_near(f.fy, -720, 1e-9);
    assert_near(f.torque, 0, 1e-9);
    /* stronger gravity, stronger buoyancy, in proportion */
    f = forces_of(w, &b, 1800, 1.0 / 60);
    assert_near(f.fy, -1440, 1e-9);
    /* dry: all zero */
    const double dry[] = {100, 100, 140, 100, 140, 140, 100, 140};
    rpl_body_t d = {dry, 4, 120, 120, 30, -50, 3, 1, 1000};
    f = forces_of(w, &d, 900, 1.0 / 60);
    rpl_water_force_t zero;
    memset(&zero, 0, sizeof zero);
    assert_memory_equal(&f, &zero, sizeof f);
    rpl_water_destroy(w);
}

static void test_forces_drag(void **state)
{
    (void)state;
    rpl_water_t *w = default_water();
    /* moving right at 50 and down at 100 through still water: drag
     * 0.001 * 0.6 * 800 = 0.48 per unit of speed, against the motion */
    rpl_body_t b = {box40, 4, 120, 310, 50, 100, 0, 1, 1000};
    rpl_water_force_t f = forces_of(w, &b, 900, 1.0 / 60);
    assert_near(f.fx, -0.48 * 50, 1e-9);
    assert_near(f.fy, -720 - 0.48 * 100, 1e-9);
    assert_near(f.torque, 0, 1e-9);
    /* moving left and up: the drag turns round */
    b.vx = -50;
    b.vy = -100;
    f = forces_of(w, &b, 900, 1.0 / 60);
    assert_near(f.fx, 0.48 * 50, 1e-9);
    assert_near(f.fy, -720 + 0.48 * 100, 1e-9);
    /* spinning at 2 rad/s about the submerged centroid (120, 310): no
     * linear drag, angular drag -0.001 * 0.5 * J * 2 with J of the 40 x 20
     * rectangle, 800 * (40^2 + 20^2) / 12 */
    b.vx = b.vy = 0;
    b.w = 2;
    f = forces_of(w, &b, 900, 1.0 / 60);
    double j = 800.0 * (1600 + 400) / 12;
    assert_near(f.fx, 0, 1e-9);
    assert_near(f.fy, -720, 1e-9);
    assert_near(f.torque, -0.001 * 0.5 * j * 2, 1e-9);
    /* spinning about a centre 10 left of the centroid: the centroid moves
     * at w x r = (-w ry, w rx) = (0, 20), down, and the drag resists it */
    b.cx = 110;
    f = forces_of(w, &b, 900, 1.0 / 60);
    assert_near(f.fx, 0, 1e-9);
    assert_near(f.fy, -720 - 0.48 * 20, 1e-9);
    assert_near(f.torque, -0.001 * 0.5 * j * 2, 1e-9);
    rpl_water_destroy(w);
}

static void test_forces_surface_velocity(void **state)
{
    (void)state;
    rpl_water_t *w = wavy_water(RPL_SURFACE_SPRINGS);
    /* a body riding with the surface feels no drag: only buoyancy */
    const double box[] = {300, 290, 340, 290, 340, 330, 300, 330};
    rpl_body_t b = {box, 4, 320, 310, 0, 0, 0, 1, 1000};
    rpl_submerged_t s = sub_of(w, box, 4);
    double vs = rpl_water_velocity(w, s.cx);
    assert_true(fabs(vs) > 1); /* the surface is moving there */
    b.vy = vs;
    b.cx = s.cx; /* no spin contribution either */
    rpl_water_force_t f = forces_of(w, &b, 900, 1.0 / 60);
    assert_near(f.fx, 0, 1e-9);
    assert_near(f.fy, -0.001 * 900 * s.area, 1e-9);
    /* at rest instead, it is dragged along with the surface */
    b.vy = 0;
    f = forces_of(w, &b, 900, 1.0 / 60);
    assert_near(f.fy, -0.001 * 900 * s.area + 0.001 * 0.6 * s.area * vs, 1e-9);
    rpl_water_destroy(w);
}

static void test_forces_caps(void **state)
{
    (void)state;
    rpl_water_params_t p;
    rpl_water_defaults(&p);
    p.max_dv = 50;
    rpl_water_t *w = new_water(&p);
    double dt = 1.0 / 60;
    /* a light 100 x 100 body deep under: buoyancy 0.001 * 900 * 10^4 = 9000
     * would change its velocity by 9000 * dt / 0.01 = 15000 a step; capped
     * at mass * max_dv / dt = 0.01 * 50 * 60 = 30 */
    const double deep[] = {200, 350, 300, 350, 300, 450, 200, 450};
    rpl_body_t b = {deep, 4, 250, 400, 0, 0, 0, 0.01, 20};
    rpl_water_force_t f = forces_of(w, &b, 900, dt);
    assert_near(f.sub.area, 10000, 1e-9);
    assert_near(hypot(f.fx, f.fy), 30, 1e-9);
    assert_true(f.fy < 0 && fabs(f.fx) < 1e-9);
    /* off-centre the force's moment, 10 * 30 = 300, would spin it by
     * 300 * dt / 20 = 0.25 rad/s; the cap is max_dv / sqrt(moment / mass)
     * = 50 / sqrt(2000) = 1.118 rad/s: not reached */
    b.cx = 240;
    f = forces_of(w, &b, 900, dt);
    double tot = (f.px - b.cx) * f.fy - (f.py - b.cy) * f.fx + f.torque;
    assert_near(tot, 10 * -30, 1e-9);
    /* with the centre 90 to the left the moment is 2700: capped at
     * 50 * sqrt(0.01 * 20) / dt = 1341.6 */
    b.cx = 160;
    f = forces_of(w, &b, 900, dt);
    tot = (f.px - b.cx) * f.fy - (f.py - b.cy) * f.fx + f.torque;
    assert_near(tot, -50 * sqrt(0.2) / dt, 1e-6);
    assert_near(hypot(f.fx, f.fy), 30, 1e-9);
    /* a huge drag only stops the centroid's relative motion, not more:
     * mass 1, centroid at the centre of mass, so |drag| <= mass |v| / dt */
    p.max_dv = 1e6;
    p.drag = 1e6;
    assert_int_equal(rpl_water_set_params(w, &p), RPL_OK);
    rpl_body_t h = {deep, 4, 250, 400, 30, 0, 0, 1, 1e6};
    f = forces_of(w, &h, 900, dt);
    assert_near(f.fx, -30 / dt, 1e-6);
    /* and a huge angular drag only stops the spin */
    p.angular_drag = 1e9;
    assert_int_equal(rpl_water_set_params(w, &p), RPL_OK);
    h.vx = 0;
    h.w = 3;
    f = forces_of(w, &h, 900, dt);
    assert_near(f.torque, -1e6 * 3 / dt, 1e-3);
    rpl_water_destroy(w);
}

static void test_forces_bad_args(void **state)
{
    (void)state;
    rpl_water_t *w = default_water();
    rpl_body_t b = {box40, 4, 120, 300, 0, 0, 0, 1, 1000};
    rpl_water_force_t f;
    assert_int_equal(rpl_water_forces(NULL, &b, 900, 0.01, &f), RPL_EINVAL);
    assert_int_equal(rpl_water_forces(w, NULL, 900, 0.01, &f), RPL_EINVAL);
    assert_int_equal(rpl_water_forces(w, &b, 900, 0.01, NULL), RPL_EINVAL);
    assert_int_equal(rpl_water_forces(w, &b, NAN, 0.01, &f), RPL_EINVAL);
    assert_int_equal(rpl_water_forces(w, &b, 900, 0, &f), RPL_EINVAL);
    assert_int_equal(rpl_water_forces(w, &b, 900, -1, &f), RPL_EINVAL);
    assert_int_equal(rpl_water_forces(w, &b, 900, INFINITY, &f), RPL_EINVAL);
    rpl_body_t c = b;
    c.mass = 0;
    assert_int_equal(rpl_water_forces(w, &c, 900, 0.01, &f), RPL_EINVAL);
    c = b;
    c.moment = -1;
    assert_int_equal(rpl_water_forces(w, &c, 900, 0.01, &f), RPL_EINVAL);
    c = b;
    c.vx = NAN;
    assert_int_equal(rpl_water_forces(w, &c, 900, 0.01, &f), RPL_EINVAL);
    c = b;
    c.w = INFINITY;
    assert_int_equal(rpl_water_forces(w, &c, 900, 0.01, &f), RPL_EINVAL);
    c = b;
    c.n = 2;
    assert_int_equal(rpl_water_forces(w, &c, 900, 0.01, &f), RPL_EINVAL);
    c = b;
    c.xy = NULL;
    assert_int_equal(rpl_water_forces(w, &c, 900, 0.01, &f), RPL_EINVAL);
    rpl_water_destroy(w);
}

/* ---- rpl_water_crossing --------------------------------------------------------- */

static void test_crossing_flat(void **state)
{
    (void)state;
    rpl_water_t *w = default_water();
    double x = -1;
    /* straight down from far above to near the floor in one step */
    assert_int_equal(rpl_water_crossing(w, 320, 0, 320, 470, &x), 1);
    assert_near(x, 320, 1e-12);
    x = -1;
    assert_int_equal(rpl_water_crossing(w, 320, 470, 320, 0, &x), -1);
    assert_near(x, 320, 1e-12);
    /* a long diagonal: y reaches 300 at 300 / 460 of the way */
    assert_int_equal(rpl_water_crossing(w, 100, 0, 200, 460, &x), 1);
    assert_near(x, 100 + 100 * 300.0 / 460, 1e-9);
    /* and leftwards, out of the water */
    assert_int_equal(rpl_water_crossing(w, 600, 460, 10, 0, &x), -1);
    assert_near(x, 600 - 590 * 160.0 / 460, 1e-9);
    /* across the whole water in one step, from one end to the other */
    assert_int_equal(rpl_water_crossing(w, -100, 200, 740, 400, &x), 1);
    assert_near(x, 320, 1e-9);
    /* staying on one side */
    x = -1;
    assert_int_equal(rpl_water_crossing(w, 100, 200, 300, 250, &x), 0);
    assert_int_equal(rpl_water_crossing(w, 100, 350, 300, 400, &x), 0);
    assert_int_equal(rpl_water_crossing(w, 100, 299, 600, 299.5, &x), 0);
    assert_near(x, -1, 0); /* untouched */
    /* on the surface counts as out: resting there and sinking is going in */
    assert_int_equal(rpl_water_crossing(w, 100, 300, 100, 310, &x), 1);
    assert_int_equal(rpl_water_crossing(w, 100, 300, 100, 290, NULL), 0);
    /* beside the water */
    assert_int_equal(rpl_water_crossing(w, 700, 0, 700, 400, &x), 0);
    assert_int_equal(rpl_water_crossing(w, -50, 0, -10, 400, &x), 0);
    /* bad arguments */
    assert_int_equal(rpl_water_crossing(NULL, 320, 0, 320, 470, &x), 0);
    assert_int_equal(rpl_water_crossing(w, NAN, 0, 320, 470, &x), 0);
    assert_int_equal(rpl_water_crossing(w, 320, 0, 320, INFINITY, &x), 0);
    rpl_water_destroy(w);
}

/* The reference: the first sign change of y(t) - surface(x(t)) on a fine
 * walk along the path, refined by bisection. */
static int ref_crossing(const ref_surf_t *s, double ax, double ay, double bx, double by, double *x)
{
    const int steps = 4000;
    double prev = 0;
    int in_prev = 0;
    for (int i = 0; i <= steps; i++) {
        double t = (double)i / steps, xx = ax + (bx - ax) * t, yy = ay + (by - ay) * t;
        int in = yy > ref_height(s, xx);
        if (i > 0 && in != in_prev) {
            double lo = prev, hi = t;
            for (int k = 0; k < 60; k++) {
                double m = 0.5 * (lo + hi), xm = ax + (bx - ax) * m;
                if ((ay + (by - ay) * m > ref_height(s, xm)) == in_prev)
                    lo = m;
                else
                    hi = m;
            }
            *x = ax + (bx - ax) * 0.5 * (lo + hi);
            return in ? 1 : -1;
        }
        prev = t;
        in_prev = in;
    }
    return 0;
}

static void test_crossing_curved(void **state)
{
    (void)state;
    for (int kind = 0; kind < 2; kind++) {
        rpl_water_t *w = wavy_water((rpl_surface_kind)kind);
        ref_surf_t s = ref_surface(w);
        uint64_t r = 77 + (uint64_t)kind;
        int hits = 0;
        for (int t = 0; t < 60; t++) {
            double ax = rnd_range(&r, 0, 640), bx = rnd_range(&r, 0, 640);
            double ay = rnd_range(&r, 250, 350), by = rnd_range(&r, 250, 350);
            if (t % 3 == 0) { /* fast: far above to deep down */
                ay = rnd_range(&r, -500, 200);
                by = rnd_range(&r, 400, 470);
            }
            double got = -1, want = -1;
            int dg = rpl_water_crossing(w, ax, ay, bx, by, &got);
            int dw = ref_crossing(&s, ax, ay, bx, by, &want);
            assert_int_equal(dg, dw);
            if (dw) {
                hits++;
                assert_near(got, want, 1e-6);
            }
            if (t % 3 == 0)
                assert_int_equal(dg, 1);
        }
        assert_true(hits > 25);
        /* a level path skimming just under the highest crest, from 40
         * left of it to 40 right: in there first (then out again) */
        int ti = 1;
        for (int i = 2; i < s.n - 1; i++)
            if (s.hs[i] < s.hs[ti])
                ti = i;
        double xt = 640.0 * ti / (s.n - 1), yt = s.hs[ti] + 0.01, x = -1, want = -2;
        assert_int_equal(ref_crossing(&s, xt - 40, yt, xt + 40, yt, &want), 1);
        assert_int_equal(rpl_water_crossing(w, xt - 40, yt, xt + 40, yt, &x), 1);
        assert_near(x, want, 1e-6);
        assert_int_equal(rpl_water_crossing(w, xt + 40, yt, xt - 40, yt, &x), 1);
        free(s.hs);
        rpl_water_destroy(w);
    }
}

/* ---- the waves surface's cache ------------------------------------------------ */

/* The samples of a waves surface as ripple.h gives them: x0 + k (x1 - x0)
 * / m, k = 0..m, m = min(ceil((x1 - x0) / 4), 65536). */
static long grid_m(const rpl_water_params_t *p)
{
    double m = ceil((p->x1 - p->x0) / 4);
    return m < 1 ? 1 : m > 65536 ? 65536 : (long)m;
}

static double grid_x(const rpl_water_params_t *p, long k, long m)
{
    return k >= m ? p->x1 : p->x0 + (double)k * ((p->x1 - p->x0) / (double)m);
}

/* The coupling's surface at every sample (but the last) against
 * rpl_water_height there, bit for bit: a vertical path from h, on the
 * surface and so out, to the next double down into the water crosses
 * only if the coupling's height there is h exactly (there is no double
 * between).  Then the area of a box from sample a to sample b, reaching
 * from above every crest to below every trough, against the trapezoids
 * of those heights. */
static void check_cache(rpl_water_t *w, uint64_t *r)
{
    const rpl_water_params_t *p = rpl_water_params(w);
    long m = grid_m(p);
    double *hs = xmalloc((size_t)(m + 1) * sizeof *hs);
    for (long k = 0; k <= m; k++) {
        double x = grid_x(p, k, m), h = rpl_water_height(w, x), at = -1;
        hs[k] = h;
        if (k < m && (rpl_water_crossing(w, x, h, x, nextafter(h, INFINITY), &at) != 1 || at != x))
            fail_msg("sample %ld of %ld at x %.17g: the coupling's surface is not rpl_water_height "
                     "%.17g there", k, m, x, h);
    }
    long a = rnd_range(r, 0, (int)m - 1), b = rnd_range(r, (int)a + 1, (int)m);
    double top = p->level - 60, bot = p->level + 60, want = 0;
    for (long k = a; k < b; k++) {
        assert_true(hs[k] > top && hs[k] < bot);
        want += (grid_x(p, k + 1, m) - grid_x(p, k, m)) * (bot - 0.5 * (hs[k] + hs[k + 1]));
    }
    double box[8] = {grid_x(p, a, m), top, grid_x(p, b, m), top, grid_x(p, b, m), bot,
                     grid_x(p, a, m), bot};
    free(hs);
    rpl_submerged_t got = sub_of(w, box, 4);
    assert_near(got.area, want, 1e-10 * want);
}

/* The heights kept for the coupling are the surface's own after every
 * kind of change: steps, new rings (one ring, or so many that the oldest
 * go), a ring made stronger a few steps after it started, a reset, new
 * ends or width.  With reflecting ends, so the walls' images count. */
static void test_waves_cache(void **state)
{
    (void)state;
    rpl_water_params_t p;
    rpl_water_defaults(&p);
    p.kind = RPL_SURFACE_WAVES;
    p.wavelength = 20; /* c = 40 units a second; rings merge within 5 units */
    p.ends = RPL_ENDS_REFLECT;
    p.x1 = 160; /* 40 samples: quick to check */
    rpl_water_t *w = new_water(&p);
    uint64_t r = 2024;
    int merges = 0, evictions = 0;
    check_cache(w, &r);
    for (int round = 0; round < 40; round++) {
        int act = rnd_range(&r, 0, 9);
        double x1 = rpl_water_params(w)->x1; /* 160 or 140 */
        if (act <= 3) {
            for (int i = rnd_range(&r, 1, 40); i > 0; i--)
                rpl_water_step(w);
        } else if (act <= 5) {
            for (int i = rnd_range(&r, 1, 20); i > 0; i--)
                assert_int_equal(rpl_water_disturb(w, rnd_range(&r, 0, 6000) / 6000.0 * x1,
                                                   rnd_range(&r, -100, 100) / 200.0), RPL_OK);
        } else if (act == 6) {
            /* a ring, read, five steps on (4 units, a sample apart),
             * read, then made stronger */
            double x = rnd_range(&r, 0, (int)x1);
            assert_int_equal(rpl_water_disturb(w, x, 0.4), RPL_OK);
            int n = rpl_water_rings(w);
            for (int i = 0; i < 5; i++) {
                rpl_water_step(w);
                check_cache(w, &r);
            }
            assert_int_equal(rpl_water_disturb(w, fmin(x1, x + 2), 0.3), RPL_OK);
            merges += rpl_water_rings(w) == n;
        } else if (act == 7) {
            /* 276 or more rings in twelve batches 7 steps apart (too late to
             * merge), 6 units apart in each (those past x1 are refused):
             * the oldest make room */
            for (int j = 0; j < 12; j++) {
                for (int i = 0; i < 26; i++) {
                    double x = 3 + 6 * i + (j & 1);
                    assert_int_equal(rpl_water_disturb(w, x, (i % 7 - 3) / 20.0),
                                     x <= x1 ? RPL_OK : RPL_EINVAL);
                }
                if (j % 3 == 2)
                    check_cache(w, &r);
                for (int i = 0; i < 7; i++)
                    rpl_water_step(w);
            }
            evictions += rpl_water_rings(w) == RPL_WAVES_MAX;
        } else if (act == 8) {
            rpl_water_params_t q = *rpl_water_params(w);
            int what = rnd_range(&r, 0, 2);
            if (what == 0)
                q.ends = (rpl_water_ends)((q.ends + 1) % 3);
            else if (what == 1)
                q.x1 = q.x1 == 160 ? 140 : 160; /* fewer samples, rings beyond the end */
            if (what == 2)
                rpl_water_reset(w);
            else
                assert_int_equal(rpl_water_set_params(w, &q), RPL_OK);
        }
        check_cache(w, &r);
    }
    assert_true(merges >= 2);
    assert_true(evictions >= 1);

    /* other ends while a ring's echo is on the surface: it goes */
    rpl_water_reset(w);
    p.x1 = 640;
    assert_int_equal(rpl_water_set_params(w, &p), RPL_OK);
    assert_int_equal(rpl_water_disturb(w, 10, 0.5), RPL_OK);
    for (int i = 0; i < 30; i++)
        rpl_water_step(w);
    check_cache(w, &r);
    rpl_water_params_t q = p;
    q.ends = RPL_ENDS_ABSORB;
    assert_int_equal(rpl_water_set_params(w, &q), RPL_OK);
    check_cache(w, &r);
    /* a ring left past a narrowed end, made stronger from inside 2 steps
     * after it started: with c = 160 it has gone 5.3 units, so samples
     * 145..147 (x 580..588) are reached by its image in that end (at 585)
     * only, the ring itself (at 615) reaching none of them */
    q.ends = RPL_ENDS_REFLECT;
    q.wavelength = 80; /* rings merge within 20 units */
    assert_int_equal(rpl_water_set_params(w, &q), RPL_OK);
    rpl_water_reset(w);
    assert_int_equal(rpl_water_disturb(w, 615, 0.5), RPL_OK);
    for (int i = 0; i < 2; i++)
        rpl_water_step(w);
    q.x1 = 600;
    assert_int_equal(rpl_water_set_params(w, &q), RPL_OK);
    check_cache(w, &r);
    assert_int_equal(rpl_water_disturb(w, 600, 0.5), RPL_OK);
    assert_int_equal(rpl_water_rings(w), 1);
    check_cache(w, &r);
    rpl_water_destroy(w);
}

/* ---- splashes ----------------------------------------------------------------- */

static rpl_splash_t *new_splash(int cap, uint64_t seed)
{
    rpl_status st = RPL_ENOMEM;
    rpl_splash_t *s;
    st = rpl_splash_create(cap, seed, &s);
    assert_int_equal(st, RPL_OK);
    assert_non_null(s);
    assert_int_equal(rpl_splash_count(s), 0);
    return s;
}

typedef struct splash_stats {
    int n;
    double speed, life; /* means */
} splash_stats_t;

static splash_stats_t emit_stats(double speed)
{
    rpl_splash_t *s = new_splash(RPL_SPLASH_MAX, 5);
    splash_stats_t st = {0, 0, 0};
    int total = 0;
    for (int k = 0; k < 20; k++) {
        int n = rpl_splash_emit(s, 320, 300, speed);
        if (k == 0)
            st.n = n;
        assert_int_equal(n, st.n);
        total += n;
    }
    assert_int_equal(rpl_splash_count(s), total);
    const rpl_droplet_t *d = rpl_splash_droplets(s);
    double base = 40 + 0.5 * fmin(speed, 2000), life = 0.4 + 0.8 * fmin(speed / 1000, 1);
    for (int i = 0; i < total; i++) {
        double v = hypot(d[i].vx, d[i].vy);
        /* within the documented ranges (float rounding aside) */
        assert_true(v >= base * 0.6 * (1 - 1e-6) && v <= base * (1 + 1e-6));
        assert_true(d[i].vy < 0 && fabs(d[i].vx) <= -d[i].vy * tan(0.6) + 1e-3);
        assert_true(d[i].life >= life * 0.85 * (1 - 1e-6) && d[i].life <= life * (1 + 1e-6));
        assert_true(d[i].size >= 1 && d[i].size <= 3);
        assert_true(d[i].age == 0 && d[i].y == 300 && fabs(d[i].x - 320) <= 5);
        st.speed += v;
        st.life += d[i].life;
    }
    st.speed /= total;
    st.life /= total;
    rpl_splash_destroy(s);
    return st;
}

static void test_splash_grows(void **state)
{
    (void)state;
    const double speeds[] = {0, 100, 300, 600, 1000, 5000};
    splash_stats_t prev = {0, 0, 0};
    for (int i = 0; i < 6; i++) {
        splash_stats_t st = emit_stats(speeds[i]);
        if (i > 0) {
            assert_true(st.n >= prev.n);
            assert_true(st.speed > prev.speed);
            if (speeds[i] <= 1000)
                assert_true(st.life > prev.life);
        }
        prev = st;
    }
    assert_int_equal(emit_stats(0).n, 3);
    assert_int_equal(emit_stats(1000).n, 40);
    assert_int_equal(emit_stats(1e12).n, 40);
    assert_true(emit_stats(300).n > 3 && emit_stats(300).n < 40);
}

static void test_splash_deterministic(void **state)
{
    (void)state;
    rpl_water_t *w1 = default_water(), *w2 = default_water();
    rpl_splash_t *a = new_splash(500, 42), *b = new_splash(500, 42), *c = new_splash(500, 43);
    rpl_water_t *const l1[] = {w1}, *const l2[] = {w2};
    for (int k = 0; k < 30; k++) {
        int na = rpl_splash_emit(a, 100 + 15 * k, 300, 50 * k);
        assert_int_equal(rpl_splash_emit(b, 100 + 15 * k, 300, 50 * k), na);
        rpl_splash_emit(c, 100 + 15 * k, 300, 50 * k);
        assert_int_equal(rpl_splash_step(a, 1.0 / 60, 900, l1, 1),
                         rpl_splash_step(b, 1.0 / 60, 900, l2, 1));
        rpl_splash_step(c, 1.0 / 60, 900, NULL, 0);
        assert_int_equal(rpl_splash_count(a), rpl_splash_count(b));
        assert_memory_equal(rpl_splash_droplets(a), rpl_splash_droplets(b),
                            (size_t)rpl_splash_count(a) * sizeof(rpl_droplet_t));
    }
    /* another seed, other droplets */
    assert_true(memcmp(rpl_splash_droplets(a), rpl_splash_droplets(c), 3 * sizeof(rpl_droplet_t)));
    assert_memory_equal(rpl_water_spring_v(w1), rpl_water_spring_v(w2), 64 * sizeof(double));
    rpl_splash_destroy(a);
    rpl_splash_destroy(b);
    rpl_splash_destroy(c);
    rpl_water_destroy(w1);
    rpl_water_destroy(w2);
}

static void test_splash_capacity(void **state)
{
    (void)state;
    rpl_splash_t *s = new_splash(50, 1);
    assert_int_equal(rpl_splash_emit(s, 100, 300, 1000), 40);
    rpl_droplet_t first[40];
    memcpy(first, rpl_splash_droplets(s), sizeof first);
    assert_int_equal(rpl_splash_emit(s, 500, 300, 1000), 40);
    /* full: the first emit's 30 oldest made room, its last ten kept in
     * order before the new ones */
    assert_int_equal(rpl_splash_count(s), 50);
    assert_memory_equal(rpl_splash_droplets(s), first + 30, 10 * sizeof(rpl_droplet_t));
    for (int i = 10; i < 50; i++)
        assert_true(fabs(rpl_splash_droplets(s)[i].x - 500) <= 5);
    rpl_splash_clear(s);
    assert_int_equal(rpl_splash_count(s), 0);
    rpl_splash_destroy(s);
    /* smaller than one splash */
    s = new_splash(7, 1);
    assert_int_equal(rpl_splash_emit(s, 100, 300, 1000), 7);
    assert_int_equal(rpl_splash_emit(s, 100, 300, 0), 3);
    assert_int_equal(rpl_splash_count(s), 7);
    rpl_splash_destroy(s);
}

static void test_splash_motion_and_life(void **state)
{
    (void)state;
    rpl_splash_t *s = new_splash(100, 9);
    rpl_splash_emit(s, 320, 100, 400); /* over no water */
    int n = rpl_splash_count(s);
    rpl_droplet_t before[40];
    memcpy(before, rpl_splash_droplets(s), (size_t)n * sizeof *before);
    double dt = 0.02, g = 900;
    assert_int_equal(rpl_splash_step(s, dt, g, NULL, 0), 0);
    assert_int_equal(rpl_splash_count(s), n);
    const rpl_droplet_t *d = rpl_splash_droplets(s);
    for (int i = 0; i < n; i++) {
        /* semi-implicit Euler as documented */
        double vy = before[i].vy + g * dt;
        assert_near(d[i].vy, vy, 1e-3);
        assert_near(d[i].vx, before[i].vx, 0);
        assert_near(d[i].x, before[i].x + before[i].vx * dt, 1e-3);
        assert_near(d[i].y, before[i].y + vy * dt, 1e-3);
        assert_near(d[i].age, dt, 1e-6);
    }
    /* lives of 0.4 + 0.8 * 0.4 = 0.72 s at most: all gone by then, and
     * none before 0.85 of that, 0.612 s: 29 more steps make 0.6 s */
    for (int k = 0; k < 29; k++)
        assert_int_equal(rpl_splash_step(s, dt, g, NULL, 0), 0);
    assert_int_equal(rpl_splash_count(s), n);
    for (int k = 0; k < 40; k++)
        rpl_splash_step(s, dt, g, NULL, 0);
    assert_int_equal(rpl_splash_count(s), 0);
    rpl_splash_destroy(s);
}

/* Lands the droplets of a splash in flat water (left unstepped, so its
 * surface stays at the level) and checks each landing's ripple against a
 * reference that moves the droplets by the documented rule. */
static void test_splash_landings(void **state)
{
    (void)state;
    rpl_water_t *w = default_water();
    rpl_water_t *const waters[] = {NULL, w};
    assert_false(rpl_water_awake(w));
    assert_true(rpl_water_energy(w) == 0);
    rpl_splash_t *s = new_splash(200, 3);
    int n = rpl_splash_emit(s, 320, 300, 600) + rpl_splash_emit(s, 50, 300, 0);
    assert_int_equal(rpl_splash_count(s), n);
    rpl_droplet_t ref[80];
    int nref = n;
    memcpy(ref, rpl_splash_droplets(s), (size_t)n * sizeof *ref);
    double dt = 1.0 / 60, g = 900, want_dv = 0;
    int landings = 0, want_landings = 0;
    for (int k = 0; k < 120; k++) {
        int got = rpl_splash_step(s, dt, g, waters, 2);
        assert_true(got >= 0);
        landings += got;
        int kept = 0;
        for (int i = 0; i < nref; i++) {
            rpl_droplet_t d = ref[i];
            double vy = d.vy + g * dt, x = d.x + d.vx * dt, y = d.y + vy * dt;
            if (vy > 0 && x >= 0 && x <= 640 && y >= 300) {
                double v = hypot(d.vx, vy);
                want_dv += 0.05 * 5 * d.size / 3 * fmin(1, v / 900);
                want_landings++;
                continue;
            }
            if (d.age + dt >= d.life)
                continue;
            d.x = (float)x;
            d.y = (float)y;
            d.vy = (float)vy;
            d.age = (float)(d.age + dt);
            ref[kept++] = d;
        }
        nref = kept;
        assert_int_equal(landings, want_landings);
        assert_int_equal(rpl_splash_count(s), nref);
    }
    assert_true(landings > n / 2);
    /* the water woke up, and every ripple went into the springs' velocities */
    assert_true(rpl_water_awake(w));
    assert_true(rpl_water_energy(w) > 0);
    const double *v = rpl_water_spring_v(w);
    double sum = 0;
    for (int i = 0; i < 64; i++)
        sum += v[i];
    assert_near(sum, want_dv, 1e-9 * want_dv);
    assert_true(want_dv > 0);
    rpl_splash_destroy(s);

    /* waves: each landing starts a ring, or adds to one started close by
     * a moment ago (the droplets of one splash come down together) */
    rpl_water_params_t p;
    rpl_water_defaults(&p);
    p.kind = RPL_SURFACE_WAVES;
    rpl_water_t *wv = new_water(&p);
    s = new_splash(200, 4);
    rpl_splash_emit(s, 320, 300, 300);
    landings = 0;
    for (int k = 0; k < 120; k++)
        landings += rpl_splash_step(s, dt, g, &wv, 1);
    assert_true(landings > 0);
    assert_true(rpl_water_rings(wv) >= 1 && rpl_water_rings(wv) < landings);
    assert_true(rpl_water_awake(wv) && rpl_water_energy(wv) > 0);
    rpl_splash_destroy(s);
    rpl_water_destroy(wv);
    rpl_water_destroy(w);
}

static void test_splash_bad_args(void **state)
{
    (void)state;
    rpl_status st = RPL_OK;
    {
        rpl_splash_t *f_ = NULL;
        st = rpl_splash_create(0, 1, &f_);
        assert_non_null(f_); /* a failed handle, which says why */
        assert_true(rpl_splash_error(f_)[0] != '\0');
        rpl_splash_destroy(f_);
    }
    assert_int_equal(st, RPL_EINVAL);
    st = RPL_OK;
    {
        rpl_splash_t *f_ = NULL;
        st = rpl_splash_create(RPL_SPLASH_MAX + 1, 1, &f_);
        assert_non_null(f_); /* a failed handle, which says why */
        assert_true(rpl_splash_error(f_)[0] != '\0');
        rpl_splash_destroy(f_);
    }
    assert_int_equal(st, RPL_EINVAL);
    assert_int_equal(rpl_splash_create(-5, 1, NULL), RPL_EINVAL);
    rpl_splash_t *s = new_splash(RPL_SPLASH_MAX, 0);
    assert_int_equal(rpl_splash_emit(NULL, 0, 0, 1), -1);
    assert_int_equal(rpl_splash_emit(s, NAN, 0, 1), -1);
    assert_int_equal(rpl_splash_emit(s, 0, INFINITY, 1), -1);
    assert_int_equal(rpl_splash_emit(s, 0, 0, -1), -1);
    assert_int_equal(rpl_splash_emit(s, 0, 0, NAN), -1);
    assert_int_equal(rpl_splash_emit(s, 0, 0, INFINITY), -1);
    assert_int_equal(rpl_splash_count(s), 0);
    assert_int_equal(rpl_splash_step(NULL, 0.01, 900, NULL, 0), -1);
    assert_int_equal(rpl_splash_step(s, -0.01, 900, NULL, 0), -1);
    assert_int_equal(rpl_splash_step(s, NAN, 900, NULL, 0), -1);
    assert_int_equal(rpl_splash_step(s, 0.01, INFINITY, NULL, 0), -1);
    assert_int_equal(rpl_splash_step(s, 0.01, 900, NULL, 1), -1);
    assert_int_equal(rpl_splash_step(s, 0.01, 900, NULL, -1), -1);
    assert_int_equal(rpl_splash_count(NULL), 0);
    assert_null(rpl_splash_droplets(NULL));
    rpl_splash_clear(NULL);
    rpl_splash_destroy(NULL);
    /* filling the largest one over and over stays within it */
    for (int k = 0; k < 200; k++)
        assert_int_equal(rpl_splash_emit(s, k, 0, 1e6), 40);
    assert_int_equal(rpl_splash_count(s), RPL_SPLASH_MAX);
    rpl_splash_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flat_box),
        cmocka_unit_test(test_flat_triangle),
        cmocka_unit_test(test_fully_under_and_floor),
        cmocka_unit_test(test_nonconvex),
        cmocka_unit_test(test_curved_springs),
        cmocka_unit_test(test_curved_waves),
        cmocka_unit_test(test_submerged_bad_args),
        cmocka_unit_test(test_forces_static),
        cmocka_unit_test(test_forces_drag),
        cmocka_unit_test(test_forces_surface_velocity),
        cmocka_unit_test(test_forces_caps),
        cmocka_unit_test(test_forces_bad_args),
        cmocka_unit_test(test_crossing_flat),
        cmocka_unit_test(test_crossing_curved),
        cmocka_unit_test(test_waves_cache),
        cmocka_unit_test(test_splash_grows),
        cmocka_unit_test(test_splash_deterministic),
        cmocka_unit_test(test_splash_capacity),
        cmocka_unit_test(test_splash_motion_and_life),
        cmocka_unit_test(test_splash_landings),
        cmocka_unit_test(test_splash_bad_args),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
