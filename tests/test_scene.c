/* test_scene.c - the side scene: floating boxes against Archimedes and the stability of a floating square, fixed steps at any frame rate, the rise cap, splashes and sleeping water, drawing and refusals, the picture the timedemo CRC takes in (cmocka). */
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
#include "scene/scene.h"
#include "util.h"

#define W 320
#define H 240
#define PI 3.14159265358979323846

static side_scene_t *new_scene(int w, int h, rpl_format f, uint64_t seed, int autoplay)
{
    side_config_t cfg = { .w = w, .h = h, .format = f, .surface = RPL_SURFACE_SPRINGS,
                          .seed = seed };
    side_scene_t *s = NULL;
    if (side_scene_create(&cfg, &s) != RPL_OK)
        fail_msg("side_scene_create: %s", side_scene_error(s));
    assert_string_equal(side_scene_error(s), "");
    side_scene_set_autoplay(s, autoplay);
    return s;
}

static void steps(side_scene_t *s, int n)
{
    for (int i = 0; i < n; i++)
        side_scene_step(s);
}

/* The big pool (water 0): its extent and rest level. */
static const rpl_water_params_t *pool(side_scene_t *s)
{
    rpl_water_t *w = side_scene_water(s, 0);
    assert_non_null(w);
    const rpl_water_params_t *p = rpl_water_params(w);
    assert_non_null(p);
    return p;
}

/* An angle folded into [0, pi/2). */
static double fold90(double a)
{
    double q = fmod(a, PI / 2);
    return q < 0 ? q + PI / 2 : q;
}

/* ---- floating ----------------------------------------------------------- */

/* Archimedes: a body of half the water's density floats with half its
 * area under.  A box twice as wide as tall is stable flat (metacentric
 * height: B M = L^2 / (12 d) = 4/6 of its height, above G by 0.417 of it),
 * so it settles level, half in.  Let go 10 px above the surface. */
static void test_box_floats_half_submerged(void **state)
{
    (void)state;
    side_scene_t *s = new_scene(W, H, RPL_XRGB8888, 1, 0);
    const rpl_water_params_t *p = pool(s);
    double cx = 0.5 * (p->x0 + p->x1) + 7;
    assert_int_equal(side_scene_drop_box(s, cx, p->level - 20, 40, 20, 0.5), 0);
    steps(s, (int)(10 / SIDE_STEP));
    double x, y, a, sub;
    assert_int_equal(side_scene_body(s, 0, &x, &y, &a, &sub), 0);
    assert_true(fabs(sub - 0.5) <= 0.025);
    assert_true(fabs(a) < 3 * PI / 180);
    /* half of 20 px under a flat surface: the centre on the level */
    assert_true(fabs(y - p->level) < 1.0);
    /* a box of 0.8 floats 80% in; one of 0.25, 25% */
    side_scene_clear(s);
    assert_int_equal(side_scene_drop_box(s, cx, p->level - 20, 40, 20, 0.8), 0);
    assert_int_equal(side_scene_drop_box(s, cx + 45, p->level - 20, 40, 20, 0.25), 0);
    steps(s, (int)(8 / SIDE_STEP));
    assert_int_equal(side_scene_body(s, 0, NULL, NULL, NULL, &sub), 0);
    assert_true(fabs(sub - 0.8) <= 0.04);
    assert_int_equal(side_scene_body(s, 1, NULL, NULL, NULL, &sub), 0);
    assert_true(fabs(sub - 0.25) <= 0.0125);
    assert_int_equal(side_scene_body(s, 2, NULL, NULL, NULL, NULL), -1);
    side_scene_destroy(s);
}

/* A floating square of relative density s is stable face-up only for
 * s < (3 - sqrt 3) / 6 = 0.2113 or s > 0.7887 (metacentre: B M = 1/(12 s)
 * of the side against B G = (1 - s)/2, so flat needs 6 s^2 - 6 s + 1 > 0);
 * at 0.5 it floats corner-down, stable for 9/32 < s < 23/32.  Let go flat,
 * off the pool's centre (its splash rocks it a little). */
static double square_angle(side_scene_t *s, double density)
{
    side_scene_clear(s);
    const rpl_water_params_t *p = pool(s);
    assert_int_equal(side_scene_drop_box(s, 0.5 * (p->x0 + p->x1) + 7, p->level - 25, 30, 30,
                                         density), 0);
    steps(s, (int)(12 / SIDE_STEP));
    double a, sub;
    assert_int_equal(side_scene_body(s, 0, NULL, NULL, &a, &sub), 0);
    /* whatever the angle, Archimedes holds */
    assert_true(fabs(sub - density) <= 0.05 * density);
    return fold90(a);
}

static void test_square_tips_corner_down(void **state)
{
    (void)state;
    side_scene_t *s = new_scene(W, H, RPL_XRGB8888, 1, 0);
    double a = square_angle(s, 0.5);
    assert_true(fabs(a - PI / 4) < 10 * PI / 180);
    /* and outside the unstable band it stays flat */
    a = square_angle(s, 0.15);
    assert_true(fmin(a, PI / 2 - a) < 5 * PI / 180);
    a = square_angle(s, 0.9);
    assert_true(fmin(a, PI / 2 - a) < 5 * PI / 180);
    side_scene_destroy(s);
}

/* ---- fixed steps ----------------------------------------------------------- */

/* Advances to exactly n steps with frames of `frame` seconds, the last
 * few one step at a time; returns the advance calls made. */
static int run_to(side_scene_t *s, double frame, uint64_t n)
{
    int calls = 0;
    while (side_scene_steps(s) + SIDE_MAX_STEPS < n) {
        side_scene_advance(s, frame);
        calls++;
    }
    while (side_scene_steps(s) < n)
        side_scene_step(s);
    return calls;
}

static void assert_same_state(side_scene_t *a, side_scene_t *b)
{
    side_stats_t sa, sb;
    side_scene_stats(a, &sa);
    side_scene_stats(b, &sb);
    assert_int_equal(sa.steps, sb.steps);
    assert_int_equal(sa.bodies, sb.bodies);
    assert_int_equal(sa.droplets, sb.droplets);
    assert_int_equal(sa.awake, sb.awake);
    for (int i = 0; i < sa.bodies; i++) {
        double va[4], vb[4];
        assert_int_equal(side_scene_body(a, i, &va[0], &va[1], &va[2], &va[3]), 0);
        assert_int_equal(side_scene_body(b, i, &vb[0], &vb[1], &vb[2], &vb[3]), 0);
        assert_memory_equal(va, vb, sizeof va);
    }
    for (int k = 0; k < sa.waters; k++) {
        rpl_water_t *wa = side_scene_water(a, k), *wb = side_scene_water(b, k);
        int n = rpl_water_springs(wa);
        assert_int_equal(n, rpl_water_springs(wb));
        assert_memory_equal(rpl_water_spring_y(wa), rpl_water_spring_y(wb), n * sizeof(double));
        assert_memory_equal(rpl_water_spring_v(wa), rpl_water_spring_v(wb), n * sizeof(double));
    }
}

/* The same input timed in steps (a ball at the start, a crate at step
 * 240, autoplay's drops from the seed) gives bit-identical bodies and
 * springs whether the frames are 1/30 s or 1/144 s long. */
static void test_same_state_at_any_frame_rate(void **state)
{
    (void)state;
    side_scene_t *a = new_scene(W, H, RPL_XRGB8888, 42, 1);
    side_scene_t *b = new_scene(W, H, RPL_XRGB8888, 42, 1);
    const rpl_water_params_t *p = pool(a);
    double x = 0.5 * (p->x0 + p->x1);
    assert_int_equal(side_scene_drop(a, x, 20, SIDE_BALL, 0.7, 0), 0);
    assert_int_equal(side_scene_drop(b, x, 20, SIDE_BALL, 0.7, 0), 0);
    int ca = run_to(a, 1.0 / 30, 240), cb = run_to(b, 1.0 / 144, 240);
    /* both really went by frames, and by different ones */
    assert_true(ca >= 55 && cb >= 270);
    assert_same_state(a, b);
    assert_int_equal(side_scene_drop(a, x + 20, 30, SIDE_CRATE, 1.2, 0), 0);
    assert_int_equal(side_scene_drop(b, x + 20, 30, SIDE_CRATE, 1.2, 0), 0);
    run_to(a, 1.0 / 30, 600);
    run_to(b, 1.0 / 144, 600);
    side_stats_t st;
    side_scene_stats(a, &st);
    assert_true(st.bodies >= 4); /* autoplay dropped some too */
    assert_same_state(a, b);
    /* 1/30 s is exactly 4 steps, every frame */
    for (int i = 0; i < 50; i++)
        assert_int_equal(side_scene_advance(a, 1.0 / 30), 4);
    /* a stall takes SIDE_MAX_STEPS and drops the rest */
    assert_int_equal(side_scene_advance(a, 10.0), SIDE_MAX_STEPS);
    assert_int_equal(side_scene_advance(a, 0), 0);
    assert_int_equal(side_scene_advance(a, -1), 0);
    assert_int_equal(side_scene_advance(a, NAN), 0);
    side_scene_destroy(a);
    side_scene_destroy(b);
}

/* ---- the rise cap ------------------------------------------------------------ */

/* A very light box let go near the pool's floor: 55 px of water at
 * 320x240 would let it reach sqrt(2 * (1/0.1 - 1) * 450 * 45) = 600 px/s
 * without drag, its terminal speed through the drag about the cap; it
 * comes up no faster than the cap, and out of the water no higher than the
 * cap's ballistic height v^2 / (2 g), g = 900 * 0.5. */
static void test_deep_body_does_not_shoot_out(void **state)
{
    (void)state;
    side_scene_t *s = new_scene(W, H, RPL_XRGB8888, 3, 0);
    const rpl_water_params_t *p = pool(s);
    double cap = side_scene_rise_max(s);
    assert_true(cap > 0);
    assert_int_equal(side_scene_drop_box(s, 0.5 * (p->x0 + p->x1), p->bottom - 9, 16, 16, 0.1), 0);
    double fastest = 0, highest = 1e9;
    for (int i = 0; i < (int)(4 / SIDE_STEP); i++) {
        side_scene_step(s);
        double vy, y;
        assert_int_equal(side_scene_body_velocity(s, 0, NULL, &vy), 0);
        assert_int_equal(side_scene_body(s, 0, NULL, &y, NULL, NULL), 0);
        fastest = fmax(fastest, -vy);
        highest = fmin(highest, y);
    }
    assert_true(fastest <= cap * (1 + 1e-12));
    assert_true(fastest >= 0.5 * cap); /* it did come up fast */
    double leap = cap * cap / (2 * 450.0);
    assert_true(highest >= p->level - leap - 8 - 1);
    side_scene_destroy(s);
}

/* ---- splashes and sleep ------------------------------------------------------- */

static void test_splash_and_sleep(void **state)
{
    (void)state;
    side_scene_t *s = new_scene(W, H, RPL_XRGB8888, 5, 0);
    side_stats_t st;
    /* still water sleeps from the start and stays asleep */
    steps(s, 240);
    side_scene_stats(s, &st);
    assert_int_equal(st.waters, 2);
    assert_int_equal(st.awake, 0);
    assert_int_equal(st.droplets, 0);

    /* a heavy ball from high up: a splash and a wave */
    const rpl_water_params_t *p = pool(s);
    assert_int_equal(side_scene_drop(s, 0.5 * (p->x0 + p->x1), 10, SIDE_BALL, 1.6, 0), 0);
    int splashed = 0, awake = 0;
    for (int i = 0; i < 240 && !splashed; i++) {
        side_scene_step(s);
        side_scene_stats(s, &st);
        splashed = st.droplets > 0;
        awake = rpl_water_awake(side_scene_water(s, 0));
    }
    assert_true(splashed);
    assert_true(awake);
    assert_true(rpl_water_energy(side_scene_water(s, 0)) > 0);
    side_scene_step(s); /* in the water now */
    side_scene_stats(s, &st);
    assert_int_equal(st.floating, 1);

    /* it sinks and lies on the floor; the droplets fall back; all calms */
    steps(s, (int)(20 / SIDE_STEP));
    side_scene_stats(s, &st);
    assert_int_equal(st.bodies, 1);
    assert_int_equal(st.droplets, 0);
    assert_int_equal(st.awake, 0);
    double y;
    assert_int_equal(side_scene_body(s, 0, NULL, &y, NULL, NULL), 0);
    assert_true(y > p->bottom - 20 && y < p->bottom);

    /* a disturbance wakes the water; left alone, it sleeps again */
    assert_int_equal(rpl_water_disturb(side_scene_water(s, 1), 0.5 * (rpl_water_params(
                         side_scene_water(s, 1))->x0 + rpl_water_params(side_scene_water(s, 1))->x1),
                                       2.0), RPL_OK);
    side_scene_stats(s, &st);
    assert_int_equal(st.awake, 1);
    steps(s, (int)(10 / SIDE_STEP));
    side_scene_stats(s, &st);
    assert_int_equal(st.awake, 0);

    /* the analytic waves splash too */
    side_scene_set_surface(s, RPL_SURFACE_WAVES);
    assert_int_equal(side_scene_surface(s), RPL_SURFACE_WAVES);
    assert_int_equal(rpl_water_params(side_scene_water(s, 0))->kind, RPL_SURFACE_WAVES);
    assert_int_equal(side_scene_drop(s, 0.5 * (p->x0 + p->x1) - 30, 10, SIDE_BALL, 0.6, 0), 0);
    steps(s, 120);
    assert_true(rpl_water_rings(side_scene_water(s, 0)) > 0);
    side_scene_clear(s);
    side_scene_stats(s, &st);
    assert_int_equal(st.bodies, 0);
    assert_int_equal(st.droplets, 0);
    assert_int_equal(st.awake, 0);
    side_scene_destroy(s);
}

/* Autoplay drops every 1.2 .. 2 s, and with two dozen bodies in the
 * level it takes the oldest away first. */
static void test_autoplay_bounded(void **state)
{
    (void)state;
    side_scene_t *s = new_scene(W, H, RPL_XRGB8888, 9, 0);
    /* 24 bodies high up, far apart: they are still falling when autoplay
     * drops its first */
    for (int i = 0; i < 24; i++)
        assert_int_equal(side_scene_drop_box(s, 10 + i * 13.0, -200, 6, 6, 1), 0);
    double x1;
    assert_int_equal(side_scene_body(s, 1, &x1, NULL, NULL, NULL), 0);
    side_scene_set_autoplay(s, 1);
    side_stats_t st;
    int drops = 0;
    for (int i = 0; i < 70; i++) { /* 70 / 60 s: the first drop comes after 0.5 s */
        side_scene_advance(s, 1.0 / 60);
        side_scene_stats(s, &st);
        assert_true(st.bodies <= 24);
        double x0;
        assert_int_equal(side_scene_body(s, 0, &x0, NULL, NULL, NULL), 0);
        drops += x0 == x1 && drops == 0;
    }
    assert_int_equal(st.bodies, 24);
    assert_int_equal(drops, 1); /* the first body went, the second is first */
    /* off: nothing more is dropped */
    side_scene_set_autoplay(s, 0);
    double y_last;
    assert_int_equal(side_scene_body(s, 23, NULL, &y_last, NULL, NULL), 0);
    assert_true(y_last > -200); /* the newest is autoplay's, let go near the top */
    side_scene_destroy(s);
}

/* ---- many bodies --------------------------------------------------------------- */

/* Hundreds of crates and balls of every density dropped into the smallest
 * scene, on both surfaces: its basins are a few springs wide, and the
 * bodies bobbing on them once fed the water more than it loses, its
 * energy growing a thousandfold every few hundred steps until the surface
 * was not a number and the frame was refused.  The water's bounds
 * (ripple/side.h) hold its energy below that of every spring at the most
 * it may be displaced and moving, for as long as the scene runs. */
static double unit(uint64_t *r)
{
    return (double)(rnd_next(r) >> 11) / 9007199254740992.0;
}

static void test_many_bodies_bounded(void **state)
{
    (void)state;
    int bodies = 200;
    for (int surface = RPL_SURFACE_SPRINGS; surface <= RPL_SURFACE_WAVES; surface++) {
        /* the waves' sum costs five times the springs' step: fewer of them */
        int rounds = surface == RPL_SURFACE_SPRINGS ? 20000 : 2000;
        if (test_quick()) /* under an emulated CPU: the blow-up came within 200 steps */
            rounds = surface == RPL_SURFACE_SPRINGS ? 200 : 100;
        side_config_t cfg = { .w = SIDE_W_MIN, .h = SIDE_H_MIN, .format = RPL_XRGB8888,
                              .surface = (rpl_surface_kind)surface, .seed = 7 };
        side_scene_t *s = NULL;
        if (side_scene_create(&cfg, &s) != RPL_OK)
            fail_msg("side_scene_create: %s", side_scene_error(s));
        side_scene_set_autoplay(s, 0);
        uint64_t r = 12345;
        int dropped = 0;
        for (int i = 0; dropped < bodies; i++) {
            assert_true(i < 4 * bodies);
            double x = 4 + unit(&r) * (SIDE_W_MIN - 8);
            double density = 0.1 + 4.9 * unit(&r);
            side_shape shape = rnd_next(&r) & 1 ? SIDE_BALL : SIDE_CRATE;
            dropped += side_scene_drop(s, x, -10.0 * (i % 50), shape, density, 0) == 0;
        }
        side_stats_t st;
        side_scene_stats(s, &st);
        double most[4];
        assert_true(st.waters >= 1 && st.waters <= 4);
        for (int k = 0; k < st.waters; k++) {
            const rpl_water_params_t *p = rpl_water_params(side_scene_water(s, k));
            double depth = p->bottom - p->level, y = RPL_WATER_REACH * depth;
            most[k] = surface == RPL_SURFACE_SPRINGS ? p->springs * (y * y + depth * depth)
                                                     : RPL_WAVES_MAX * y * y;
        }
        uint32_t *fb = malloc((size_t)SIDE_W_MIN * SIDE_H_MIN * sizeof *fb);
        assert_non_null(fb);
        for (int i = 1; i <= rounds; i++) {
            side_scene_step(s);
            for (int k = 0; k < st.waters; k++) {
                double e = rpl_water_energy(side_scene_water(s, k));
                if (!(isfinite(e) && e <= most[k]))
                    fail_msg("surface %d, water %d, step %d: energy %g, at most %g", surface, k, i,
                             e, most[k]);
            }
            if ((i % 1000 == 0 || i == rounds) && side_scene_render(s, fb, SIDE_W_MIN * 4) != 0)
                fail_msg("surface %d, step %d: %s", surface, i, side_scene_error(s));
        }
        side_scene_stats(s, &st);
        assert_true(st.bodies > bodies / 2); /* they stayed in the level */
        free(fb);
        side_scene_destroy(s);
    }
}

/* ---- drawing and refusals ------------------------------------------------------- */

static void test_render_every_format(void **state)
{
    (void)state;
    for (int f = 0; f < 3; f++) {
        side_scene_t *s = new_scene(W, H, all_formats[f], 11, 1);
        int bpp = rpl_format_bytes(all_formats[f]);
        ptrdiff_t pitch = (ptrdiff_t)W * bpp + 8; /* rows with a gap after them */
        size_t size = (size_t)pitch * H;
        unsigned char *fb = guard_slot(0, size, 1);
        memset(fb, 0xA5, size);
        steps(s, 200); /* a body or two dropped by autoplay */
        assert_int_equal(side_scene_render(s, fb, pitch), 0);
        assert_string_equal(side_scene_error(s), "");
        /* every row drawn, the gaps untouched */
        int changed = 0;
        for (int y = 0; y < H; y++) {
            for (ptrdiff_t x = 0; x < (ptrdiff_t)W * bpp; x++)
                changed += fb[y * pitch + x] != 0xA5;
            for (ptrdiff_t x = (ptrdiff_t)W * bpp; x < pitch; x++)
                assert_int_equal(fb[y * pitch + x], 0xA5);
        }
        assert_true(changed > W * H * bpp / 2);
        const uint32_t *pal = side_scene_palette(s);
        if (all_formats[f] == RPL_INDEX8) {
            assert_non_null(pal);
        } else {
            assert_null(pal);
        }
        if (all_formats[f] == RPL_XRGB8888) {
            /* the sky at the top: more blue than red */
            uint32_t c = *(uint32_t *)(void *)fb;
            assert_true((c & 0xFF) > (c >> 16 & 0xFF));
        }
        /* refused: no framebuffer, a pitch under a row */
        assert_int_equal(side_scene_render(s, NULL, pitch), -1);
        assert_true(strlen(side_scene_error(s)) > 0);
        assert_int_equal(side_scene_render(s, fb, (ptrdiff_t)W * bpp - 1), -1);
        side_scene_destroy(s);
    }
    /* the smallest and a wide size work too */
    side_scene_t *s = new_scene(160, 120, RPL_RGB565, 1, 1);
    uint16_t *fb16 = xmalloc(160 * 120 * 2);
    side_scene_advance(s, 2.5);
    assert_int_equal(side_scene_render(s, fb16, 160 * 2), 0);
    free(fb16);
    side_scene_destroy(s);
    guard_slots_release();
}

/* Refused the library's way: RPL_EINVAL, a handle that says why in one
 * line and answers everything else as NULL would. */
static void expect_refused(const side_config_t *cfg)
{
    side_scene_t *s = NULL;
    assert_int_equal(side_scene_create(cfg, &s), RPL_EINVAL);
    assert_non_null(s);
    const char *why = side_scene_error(s);
    assert_true(strlen(why) > 0);
    assert_null(strchr(why, '\n'));
    uint32_t px[4] = { 0 };
    side_stats_t st;
    side_scene_step(s);
    assert_int_equal(side_scene_advance(s, 1), 0);
    assert_int_equal(side_scene_steps(s), 0);
    assert_int_equal(side_scene_drop(s, 1, 1, SIDE_BALL, 1, 1), -1);
    assert_int_equal(side_scene_drop_box(s, 1, 1, 5, 5, 1), -1);
    side_scene_clear(s);
    side_scene_set_surface(s, RPL_SURFACE_WAVES);
    side_scene_set_autoplay(s, 1);
    side_scene_invalidate(s);
    assert_int_equal(side_scene_render(s, px, 4), -1);
    rpl_rect_t r;
    assert_int_equal(side_scene_changed(s, &r, 1), 0);
    assert_null(side_scene_palette(s));
    assert_null(side_scene_water(s, 0));
    assert_int_equal(side_scene_body(s, 0, NULL, NULL, NULL, NULL), -1);
    assert_int_equal(side_scene_body_velocity(s, 0, NULL, NULL), -1);
    side_scene_stats(s, &st);
    assert_int_equal(st.waters, 0);
    assert_true(side_scene_rise_max(s) == 0);
    assert_string_equal(side_scene_error(s), why); /* still the reason */
    side_scene_destroy(s);
    assert_int_equal(side_scene_create(cfg, NULL), RPL_EINVAL); /* nowhere to put it */
}

static void test_bad_config_and_calls(void **state)
{
    (void)state;
    expect_refused(NULL);
    side_config_t c = { .w = W, .h = H };
    c.w = 159;
    expect_refused(&c);
    c.w = W;
    c.h = 119;
    expect_refused(&c);
    c.h = 8193;
    expect_refused(&c);
    c.h = H;
    c.format = (rpl_format)3;
    expect_refused(&c);
    c.format = RPL_XRGB8888;
    c.surface = (rpl_surface_kind)2;
    expect_refused(&c);
    c.surface = RPL_SURFACE_SPRINGS;
    uint32_t px[4] = { 0 };
    c.sky = px;
    c.sky_w = 0;
    c.sky_h = 2;
    expect_refused(&c);
    c.sky = NULL;
    rpl_water_params_t bad;
    rpl_water_defaults(&bad);
    bad.damping = 2; /* out of [0, 1] */
    c.springs = &bad;
    expect_refused(&c);
    c.springs = NULL;

    /* a 2x2 sky and stone are scaled and tiled */
    uint32_t pic[4] = { 0xFF102040u, 0xFF203060u, 0xFF808080u, 0xFF707070u };
    c.sky = pic;
    c.sky_w = c.sky_h = 2;
    c.stone = pic;
    c.stone_w = c.stone_h = 2;
    side_scene_t *s = NULL;
    if (side_scene_create(&c, &s) != RPL_OK)
        fail_msg("side_scene_create: %s", side_scene_error(s));

    /* drops refused: bad density, shape, place, NaN, inside the stone */
    const rpl_water_params_t *p = pool(s);
    double x = 0.5 * (p->x0 + p->x1);
    assert_int_equal(side_scene_drop(s, x, 10, SIDE_BALL, 0.05, 0), -1);
    assert_int_equal(side_scene_drop(s, x, 10, SIDE_BALL, 5.5, 0), -1);
    assert_int_equal(side_scene_drop(s, x, 10, (side_shape)7, 1, 0), -1);
    assert_int_equal(side_scene_drop(s, NAN, 10, SIDE_BALL, 1, 0), -1);
    assert_int_equal(side_scene_drop(s, -1, 10, SIDE_BALL, 1, 0), -1);
    assert_int_equal(side_scene_drop(s, x, H + 1, SIDE_BALL, 1, 0), -1);
    assert_int_equal(side_scene_drop(s, x, H - 2, SIDE_BALL, 1, 0), -1); /* the floor */
    assert_int_equal(side_scene_drop_box(s, x, 10, 0, 10, 1), -1);
    assert_int_equal(side_scene_drop_box(s, x, 10, 10, INFINITY, 1), -1);
    side_stats_t st;
    side_scene_stats(s, &st);
    assert_int_equal(st.bodies, 0);

    /* full: refused without recycling, the oldest goes with it */
    for (int i = 0; i < SIDE_BODIES_MAX; i++)
        assert_int_equal(side_scene_drop(s, 10 + (i % 30) * 9.0, 5 - (i / 30) * 15.0, SIDE_BALL, 1,
                                         0), 0);
    assert_int_equal(side_scene_drop(s, x, 10, SIDE_BALL, 1, 0), -1);
    double y0;
    assert_int_equal(side_scene_body(s, 1, NULL, &y0, NULL, NULL), 0);
    assert_int_equal(side_scene_drop(s, x, 10, SIDE_BALL, 1, 1), 0);
    side_scene_stats(s, &st);
    assert_int_equal(st.bodies, SIDE_BODIES_MAX);
    double y1;
    assert_int_equal(side_scene_body(s, 0, NULL, &y1, NULL, NULL), 0);
    assert_true(y1 == y0); /* the old second is now first */
    side_scene_destroy(s);

    /* NULL everywhere is harmless */
    side_scene_destroy(NULL);
    assert_int_equal(side_scene_advance(NULL, 1), 0);
    side_scene_step(NULL);
    assert_int_equal(side_scene_steps(NULL), 0);
    assert_int_equal(side_scene_drop(NULL, 1, 1, SIDE_BALL, 1, 1), -1);
    assert_int_equal(side_scene_drop_box(NULL, 1, 1, 5, 5, 1), -1);
    side_scene_clear(NULL);
    side_scene_set_surface(NULL, RPL_SURFACE_WAVES);
    side_scene_set_autoplay(NULL, 1);
    assert_int_equal(side_scene_render(NULL, px, 4), -1);
    assert_null(side_scene_palette(NULL));
    assert_int_equal(side_scene_set_kernels(NULL, rpl_kernels_get("c")), RPL_EINVAL);
    assert_null(side_scene_kernels(NULL));
    assert_null(side_scene_water(NULL, 0));
    assert_int_equal(side_scene_body(NULL, 0, NULL, NULL, NULL, NULL), -1);
    assert_int_equal(side_scene_body_velocity(NULL, 0, NULL, NULL), -1);
    side_scene_stats(NULL, &st);
    assert_int_equal(st.bodies, 0);
    side_scene_stats(NULL, NULL);
    assert_true(strlen(side_scene_error(NULL)) > 0);
}

/* ---- what changed ------------------------------------------------------------ */

/* The rectangles side_scene_changed lists cover every pixel that differs
 * from the frame before, frame after frame, with bodies falling, splashing
 * and floating; the first render, and the one after an invalidate, are
 * the whole frame; and they are not the whole frame while little moves. */
static void test_changed_rectangles(void **state)
{
    (void)state;
    for (int f = 0; f < 3; f++) {
        rpl_format fmt = (rpl_format)f;
        int bytes = rpl_format_bytes(fmt);
        side_scene_t *s = new_scene(W, H, fmt, 11, 1);
        size_t len = (size_t)W * H * (size_t)bytes;
        unsigned char *prev = malloc(len), *cur = malloc(len);
        uint8_t *covered = malloc((size_t)W * H);
        assert_non_null(prev);
        assert_non_null(cur);
        assert_non_null(covered);
        rpl_rect_t r[64];
        assert_int_equal(side_scene_render(s, prev, (ptrdiff_t)W * bytes), 0);
        assert_int_equal(side_scene_changed(s, r, 64), 1);
        assert_true(r[0].x == 0 && r[0].y == 0 && r[0].w == W && r[0].h == H);
        long partial = 0, differing = 0;
        for (int frame = 0; frame < 400; frame++) {
            steps(s, 2);
            if (frame == 200)
                side_scene_invalidate(s);
            assert_int_equal(side_scene_render(s, cur, (ptrdiff_t)W * bytes), 0);
            int n = side_scene_changed(s, r, 64);
            assert_true(n >= 1 && n <= 64);
            memset(covered, 0, (size_t)W * H);
            long area = 0;
            for (int i = 0; i < n; i++) {
                assert_true(r[i].x >= 0 && r[i].y >= 0 && r[i].w > 0 && r[i].h > 0);
                assert_true(r[i].x + r[i].w <= W && r[i].y + r[i].h <= H);
                for (int y = r[i].y; y < r[i].y + r[i].h; y++)
                    for (int x = r[i].x; x < r[i].x + r[i].w; x++)
                        area += !covered[y * W + x], covered[y * W + x] = 1;
            }
            if (frame == 200)
                assert_int_equal(area, (long)W * H);
            else if (area < (long)W * H / 2)
                partial++;
            for (int y = 0; y < H; y++) {
                size_t row = (size_t)y * W * (size_t)bytes;
                /* a row alike in one memcmp: a call per pixel was most of
                 * this test's time under an emulated CPU */
                if (memcmp(prev + row, cur + row, (size_t)W * (size_t)bytes) == 0)
                    continue;
                for (int x = 0; x < W; x++) {
                    size_t o = ((size_t)y * W + (size_t)x) * (size_t)bytes;
                    if (memcmp(prev + o, cur + o, (size_t)bytes) != 0) {
                        differing++;
                        if (!covered[y * W + x])
                            fail_msg("format %d frame %d: pixel %d,%d changed outside the "
                                     "rectangles", f, frame, x, y);
                    }
                }
            }
            memcpy(prev, cur, len);
        }
        assert_true(differing > 0);      /* things did move */
        assert_true(partial > 300);      /* and the rectangles were not the whole frame */
        free(prev);
        free(cur);
        free(covered);
        side_scene_destroy(s);
    }
    rpl_rect_t r[1];
    assert_int_equal(side_scene_changed(NULL, r, 1), 0);
}

/* A scene drawn every frame (the art put back only where things moved)
 * and the same scene drawn once at the end (from the whole art) give the
 * same frame. */
static void test_redraw_equals_fresh(void **state)
{
    (void)state;
    side_scene_t *a = new_scene(W, H, RPL_XRGB8888, 12, 1);
    side_scene_t *b[2] = { new_scene(W, H, RPL_XRGB8888, 12, 1),
                           new_scene(W, H, RPL_XRGB8888, 12, 1) };
    const int first[2] = { 299, 599 }; /* b[i] is drawn for the first time then */
    size_t len = (size_t)W * H * 4;
    uint32_t *fa = malloc(len), *fb = malloc(len);
    assert_non_null(fa);
    assert_non_null(fb);
    for (int frame = 0; frame < 600; frame++) {
        steps(a, 2);
        assert_int_equal(side_scene_render(a, fa, W * 4), 0);
        for (int i = 0; i < 2; i++) {
            if (frame > first[i])
                continue;
            steps(b[i], 2);
            if (frame == first[i]) {
                assert_int_equal(side_scene_render(b[i], fb, W * 4), 0);
                assert_memory_equal(fa, fb, len);
            }
        }
    }
    side_stats_t st;
    side_scene_stats(a, &st);
    assert_true(st.bodies >= 4); /* there were bodies to draw and move */
    free(fa);
    free(fb);
    side_scene_destroy(a);
    side_scene_destroy(b[0]);
    side_scene_destroy(b[1]);
}

/* The scene redraws only where bodies were and are: with a body dropped
 * among the others, one removed from the middle of their list and the
 * oldest removed, every frame is the bytes a scene drawing for the first
 * time then draws. */
static void test_redraw_few_moving(void **state)
{
    (void)state;
    side_scene_t *a = new_scene(W, H, RPL_XRGB8888, 7, 0);
    side_scene_t *b = new_scene(W, H, RPL_XRGB8888, 7, 0);
    size_t len = (size_t)W * H * 4;
    uint32_t *fa = malloc(len), *fb = malloc(len);
    assert_non_null(fa);
    assert_non_null(fb);
    side_scene_t *both[2] = { a, b };
    for (int i = 0; i < 2; i++) {
        side_scene_t *s = both[i];
        for (int k = 0; k < 8; k++)
            assert_int_equal(side_scene_drop(s, 30 + 36 * k, 30 + 7 * (k % 3), k % 2 ? SIDE_BALL : SIDE_CRATE,
                                             k % 3 ? 0.6 : 2.5, 0), 0);
    }
    for (int frame = 0; frame < 900; frame++) {
        steps(a, 2);
        steps(b, 2);
        if (frame % 30 == 0 || frame > 800)
            assert_int_equal(side_scene_render(a, fa, W * 4), 0);
        if (frame == 840)
            for (int i = 0; i < 2; i++)
                assert_int_equal(side_scene_drop(both[i], 150, 40, SIDE_CRATE, 0.6, 0), 0);
        if (frame == 860)
            for (int i = 0; i < 2; i++)
                assert_int_equal(side_scene_remove(both[i], 3), 0);
        if (frame == 880)
            for (int i = 0; i < 2; i++)
                assert_int_equal(side_scene_remove(both[i], 0), 0);
        if (frame == 839 || frame == 845 || frame == 865 || frame == 885 || frame == 899) {
            side_scene_invalidate(b);
            assert_int_equal(side_scene_render(b, fb, W * 4), 0);
            assert_memory_equal(fa, fb, len);
        }
    }
    free(fa);
    free(fb);
    side_scene_destroy(a);
    side_scene_destroy(b);
}

/* The scene draws on the path it starts on (auto, or RIPPLE_SIMD's) until
 * told another, says which, keeps it when given NULL (and says why), and
 * every path draws the same frame. */
static void test_kernels(void **state)
{
    (void)state;
    side_scene_t *s = new_scene(W, H, RPL_XRGB8888, 5, 1);
    const rpl_kernels_t *own = side_scene_kernels(s), *c = rpl_kernels_get("c");
    assert_non_null(c);
    assert_ptr_equal(own, rpl_kernels_get(NULL));
    assert_int_equal(side_scene_set_kernels(s, NULL), RPL_EINVAL);
    assert_true(strlen(side_scene_error(s)) > 0);
    assert_ptr_equal(side_scene_kernels(s), own);
    steps(s, 240);
    size_t len = (size_t)W * H * 4;
    uint32_t *fa = malloc(len), *fb = malloc(len);
    assert_non_null(fa);
    assert_non_null(fb);
    assert_int_equal(side_scene_render(s, fa, W * 4), 0);
    for (int i = 0; rpl_kernels_known(i); i++) {
        const rpl_kernels_t *k = rpl_kernels_get(rpl_kernels_known(i));
        if (!k)
            continue;
        assert_int_equal(side_scene_set_kernels(s, k), RPL_OK);
        assert_ptr_equal(side_scene_kernels(s), k);
        side_scene_invalidate(s);
        assert_int_equal(side_scene_render(s, fb, W * 4), 0);
        assert_memory_equal(fa, fb, len);
    }
    free(fa);
    free(fb);
    side_scene_destroy(s);
}

/* The picture the timedemo's CRC takes in: what a render into an
 * XRGB8888 framebuffer shows, whatever the scene's own format, drawn
 * between renders without changing what they draw; the CRC is the
 * state's continued over its pixels as little-endian integers, here
 * worked out bit by bit. */
static uint32_t crc_bitwise(uint32_t crc, const uint32_t *px, size_t n)
{
    crc = ~crc;
    for (size_t i = 0; i < n; i++)
        for (int byte = 0; byte < 4; byte++) {
            crc ^= px[i] >> (8 * byte) & 0xFF;
            for (int k = 0; k < 8; k++)
                crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1)));
        }
    return ~crc;
}

static void test_bench_picture(void **state)
{
    (void)state;
    side_scene_t *a = new_scene(W, H, RPL_XRGB8888, 5, 0), *b = new_scene(W, H, RPL_RGB565, 5, 0);
    side_scene_t *c = new_scene(W, H, RPL_XRGB8888, 5, 0);
    size_t n = (size_t)W * H;
    uint32_t *fa = malloc(n * 4), *fc = malloc(n * 4);
    uint16_t *f16 = malloc(n * 2);
    assert_non_null(fa);
    assert_non_null(fc);
    assert_non_null(f16);
    for (int frame = 0; frame < 200; frame++) {
        side_scene_t *all[3] = { a, b, c };
        for (int i = 0; i < 3; i++) {
            side_scene_bench_input(all[i], frame);
            side_scene_bench_step(all[i]);
        }
        assert_int_equal(side_scene_render(a, fa, W * 4), 0);
        assert_int_equal(side_scene_render(b, f16, W * 2), 0);
        assert_int_equal(side_scene_render(c, fc, W * 4), 0);
        if (frame % 40 != 39)
            continue;
        uint32_t *pa = side_scene_picture(a), *pb = side_scene_picture(b);
        assert_non_null(pa);
        assert_non_null(pb);
        assert_memory_equal(pa, fa, n * 4);
        assert_memory_equal(pb, fa, n * 4);
        assert_int_equal(side_scene_bench_crc_picture(a),
                         crc_bitwise(side_scene_bench_crc(a), pa, n));
        assert_int_equal(side_scene_bench_crc_picture(b), side_scene_bench_crc_picture(a));
        free(pa);
        free(pb);
    }
    /* c drew no picture between its renders: the same frame as a */
    assert_memory_equal(fa, fc, n * 4);
    side_stats_t st;
    side_scene_stats(a, &st);
    assert_true(st.bodies >= 10);
    assert_int_not_equal(side_scene_bench_crc_picture(a), side_scene_bench_crc(a));
    free(fa);
    free(fc);
    free(f16);
    side_scene_destroy(a);
    side_scene_destroy(b);
    side_scene_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_box_floats_half_submerged),
        cmocka_unit_test(test_square_tips_corner_down),
        cmocka_unit_test(test_same_state_at_any_frame_rate),
        cmocka_unit_test(test_deep_body_does_not_shoot_out),
        cmocka_unit_test(test_splash_and_sleep),
        cmocka_unit_test(test_autoplay_bounded),
        cmocka_unit_test(test_many_bodies_bounded),
        cmocka_unit_test(test_render_every_format),
        cmocka_unit_test(test_bad_config_and_calls),
        cmocka_unit_test(test_changed_rectangles),
        cmocka_unit_test(test_redraw_equals_fresh),
        cmocka_unit_test(test_redraw_few_moving),
        cmocka_unit_test(test_kernels),
        cmocka_unit_test(test_bench_picture),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
