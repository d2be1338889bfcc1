/* test_wave.c - the wave model: parameters, refusals and coefficients, the rule against a 64-bit reference, the classic rule reproduced, stability at the edge, symmetry, viscosity, rest and sleeping tiles (cmocka). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ripple.h"
#include "util.h"

/* The demo's default water: k = 0.16, u t = 0.02. */
static const rpl_wave_params_t slow = {24, 1.2, 1, 1.0 / 60, 0.985};
/* k = 1/2, u = 0, alpha = 1 - 1/32: the classic rule's setting. */
static const rpl_wave_params_t classic = {1, 0, 1, 0.70710678118654752, 0.96875};

static rpl_sim_t *wave_sim(int w, int h, const rpl_wave_params_t *p)
{
    rpl_sim_t *sim = new_sim(w, h, 1);
    assert_int_equal(rpl_sim_set_model(sim, RPL_MODEL_WAVE, p), RPL_OK);
    assert_int_equal(rpl_sim_model(sim), RPL_MODEL_WAVE);
    return sim;
}

/* Sum of squares of the current heights. */
static double energy2(const rpl_sim_t *sim)
{
    double e = 0;
    const int16_t *h = cur_of(sim);
    for (size_t i = 0, n = cells(sim); i < n; i++)
        e += (double)h[i] * h[i];
    return e;
}

/* ---- the reference rule ---------------------------------------------- */

/* The rule as ripple.h documents it, in 64-bit arithmetic with floor
 * divisions instead of shifts, from the coefficients rpl_wave_info gives
 * (checked by hand below); result into prev, then the buffers swap. */
static void ref_step(int16_t **cur, int16_t **prev, int w, int h, const rpl_wave_info_t *k)
{
    int16_t *c = *cur, *p = *prev;
    for (int y = 1; y < h - 1; y++)
        for (int x = 1; x < w - 1; x++) {
            size_t i = (size_t)y * (size_t)w + (size_t)x;
            int64_t s = (int64_t)k->a * c[i] + (int64_t)k->b * p[i] +
                        (int64_t)k->c * ((int64_t)c[i - 1] + c[i + 1] + c[i - (size_t)w] +
                                         c[i + (size_t)w]);
            int64_t n = floor_div_pow2(s + (s > 0 ? k->rp : k->rn), RPL_WAVE_SHIFT);
            n -= floor_div_pow2(n * k->m, 8);
            p[i] = (int16_t)clamp64(n, RPL_HEIGHT_MIN, RPL_HEIGHT_MAX);
        }
    *cur = p;
    *prev = c;
}

/* ---- parameters -------------------------------------------------------- */

static void expect_coef(const rpl_wave_params_t *p, int a, int b, int c, int m, int rp, int rn)
{
    rpl_wave_info_t info;
    assert_int_equal(rpl_wave_info(p, &info), RPL_OK);
    assert_string_equal(info.why, "");
    assert_int_equal(info.a, a);
    assert_int_equal(info.b, b);
    assert_int_equal(info.c, c);
    assert_int_equal(info.m, m);
    assert_int_equal(info.rp, rp);
    assert_int_equal(info.rn, rn);
    assert_int_equal(info.a + info.b + 4 * info.c, 1 << RPL_WAVE_SHIFT);
}

/* Worked by hand from the formulas of ripple.h (S = 8192). */
static void test_coefficients_by_hand(void **state)
{
    (void)state;
    /* k = 1/2 (c t / d = 1/sqrt 2, within 1e-6), u = 0, alpha 31/32:
     * B = -1, C = 1/2, A = 0; m = 256/32 = 8; a = 0: no rounding terms */
    expect_coef(&classic, 0, -8192, 4096, 8, 0, 0);
    /* k = 0.16, u t = 0.02, alpha 0.97: B = -1.98/2.02 = -0.980198 -> -8029.78
     * -> -8030; C = 0.32/2.02 = 0.158416 -> 1297.74 -> 1298 (at most
     * (8192 + 8030)/4 = 4055); a = 8192 + 8030 - 5192 = 11030; m = 7.68 -> 8;
     * a > 0 and m > 0: rp = -8192 */
    expect_coef(&(rpl_wave_params_t){0.4, 0.02, 1, 1, 0.97}, 11030, -8030, 1298, 8, -8192, 0);
    /* c t / d = 1 * 1 / 2: k = 1/4, u = 0, alpha 1: B = -1, C = 1/4 -> 2048,
     * a = 8192 + 8192 - 8192 = 8192; m = 0: towards zero, rn = 8191 */
    expect_coef(&(rpl_wave_params_t){1, 0, 2, 1, 1}, 8192, -8192, 2048, 0, 0, 8191);
    /* k = 1/2 (0.70710678^2 = 0.4999999986), u t = 0.1, alpha 0.9:
     * B = -1.9/2.1 -> -7411.81 -> -7412; C = 1/2.1 -> 3900.95 -> 3901 =
     * (8192 + 7412)/4 exactly; a = 0; m = 25.6 -> 26 */
    expect_coef(&(rpl_wave_params_t){0.70710678, 0.1, 1, 1, 0.9}, 0, -7412, 3901, 26, 0, 0);
    /* the same speed in other units: c 70.710678, d 10, t 0.1 (k 1/2),
     * u 1 (u t 0.1) */
    expect_coef(&(rpl_wave_params_t){70.710678, 1, 10, 0.1, 0.9}, 0, -7412, 3901, 26, 0, 0);
    /* just inside: c t / d = 0.707, k = 0.499849: C -> 4094.76 -> 4095,
     * a = 16384 - 16380 = 4: accepted even with alpha 1 */
    expect_coef(&(rpl_wave_params_t){0.707, 0, 1, 1, 1}, 4, -8192, 4095, 0, 0, 8191);
    /* alpha 1 - 1/512 rounds to m = 1 (half away from zero) */
    expect_coef(&(rpl_wave_params_t){0.70710678, 0, 1, 1, 1 - 1.0 / 512}, 0, -8192, 4096, 1, 0,
                0);
    /* tiny alpha: m = 256, every height gone each step */
    expect_coef(&(rpl_wave_params_t){0.5, 0, 1, 1, 1e-9}, 8192, -8192, 2048, 256, -8192, 0);

    rpl_wave_info_t info;
    assert_int_equal(rpl_wave_info(&(rpl_wave_params_t){0.4, 0.02, 1, 1, 0.97}, &info), RPL_OK);
    assert_true(fabs(info.k - 0.16) < 1e-12);
    assert_true(fabs(info.ut - 0.02) < 1e-12);
    assert_int_equal(rpl_wave_info(&classic, &info), RPL_OK);
    assert_true(info.k == 0.5);
}

/* Every refusal: RPL_EINVAL, one line naming the problem. */
static void test_refusals(void **state)
{
    (void)state;
    static const struct {
        rpl_wave_params_t p;
        const char *says;
    } bad[] = {
        {{NAN, 0, 1, 1, 1}, "not a finite number"},
        {{INFINITY, 0, 1, 1, 1}, "not a finite number"},
        {{0.3, NAN, 1, 1, 1}, "viscosity is not a finite"},
        {{0.3, 0, -INFINITY, 1, 1}, "spacing is not a finite"},
        {{0.3, 0, 1, NAN, 1}, "dt is not a finite"},
        {{0.3, 0, 1, 1, NAN}, "attenuation is not a finite"},
        {{0, 0, 1, 1, 1}, "speed 0 must be above 0"},
        {{-1, 0, 1, 1, 1}, "speed -1 must be above 0"},
        {{0.3, 0, 0, 1, 1}, "spacing 0 must be above 0"},
        {{0.3, 0, -2, 1, 1}, "spacing -2"},
        {{0.3, 0, 1, 0, 1}, "dt 0 must be above 0"},
        {{0.3, 0, 1, -0.5, 1}, "dt -0.5"},
        {{0.3, -1, 1, 1, 1}, "viscosity -1 must not be negative"},
        {{0.3, -1e-300, 1, 1, 1}, "viscosity"},
        {{0.3, 0, 1, 1, 0}, "attenuation 0 is outside (0, 1]"},
        {{0.3, 0, 1, 1, -0.5}, "attenuation -0.5"},
        {{0.3, 0, 1, 1, 1.01}, "attenuation 1.01 is outside"},
        /* past the edge: k = 0.50013, k = 0.5000045, k = 1e18 */
        {{0.7072, 0, 1, 1, 0.97}, "unstable"},
        {{0.70711, 0, 1, 1, 0.97}, "unstable"},
        {{1e9, 0, 1, 1, 0.97}, "unstable"},
        {{1, 0, 1, 1, 0.5}, "unstable"},
        {{1e200, 0, 1e-200, 1, 0.97}, "unstable"},
        /* at the edge without attenuation, or with one that rounds to 1 */
        {{0.70710678, 0, 1, 1, 1}, "edge of stability"},
        {{0.70710678, 0.3, 1, 1, 0.999}, "edge of stability"},
        /* integers at the edge: k = 0.49999 gives c = 4096, a = 0 */
        {{0.7071, 0, 1, 1, 1}, "edge of stability"},
        /* the neighbours' weight rounds to 0 */
        {{1e-5, 0, 1, 1, 0.97}, "no weight"},
        {{0.5, 1e6, 1, 1, 0.97}, "no weight"},
        {{0.05, 1e308, 1, 10, 0.97}, "too large"},
    };
    rpl_sim_t *sim = new_sim(16, 16, 1);
    assert_int_equal(rpl_sim_set_model(sim, RPL_MODEL_WAVE, &slow), RPL_OK);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rpl_wave_info_t info;
        memset(&info, 0x55, sizeof info);
        assert_int_equal(rpl_wave_info(&bad[i].p, &info), RPL_EINVAL);
        if (!strstr(info.why, bad[i].says))
            fail_msg("case %zu: \"%s\" does not say \"%s\"", i, info.why, bad[i].says);
        assert_null(strchr(info.why, '\n'));
        /* the field refuses them alike and keeps its model and parameters */
        assert_int_equal(rpl_sim_set_model(sim, RPL_MODEL_WAVE, &bad[i].p), RPL_EINVAL);
        assert_string_equal(rpl_sim_error(sim), info.why);
        assert_int_equal(rpl_sim_model(sim), RPL_MODEL_WAVE);
        assert_memory_equal(rpl_sim_wave_params(sim), &slow, sizeof slow);
    }
    rpl_wave_info_t info;
    assert_int_equal(rpl_wave_info(NULL, &info), RPL_EINVAL);
    assert_non_null(strstr(info.why, "NULL"));
    assert_int_equal(rpl_wave_info(&slow, NULL), RPL_EINVAL);
    assert_int_equal(rpl_sim_set_model(sim, RPL_MODEL_WAVE, NULL), RPL_EINVAL);
    assert_non_null(strstr(rpl_sim_error(sim), "NULL"));
    assert_int_equal(rpl_sim_set_model(sim, (rpl_model)7, &slow), RPL_EINVAL);
    assert_non_null(strstr(rpl_sim_error(sim), "unknown model 7"));
    assert_int_equal(rpl_sim_model(sim), RPL_MODEL_WAVE);
    rpl_sim_destroy(sim);
}

static void test_model_api(void **state)
{
    (void)state;
    assert_int_equal(rpl_sim_set_model(NULL, RPL_MODEL_WAVE, &slow), RPL_EINVAL);
    assert_int_equal(rpl_sim_set_model(NULL, RPL_MODEL_CLASSIC, NULL), RPL_EINVAL);
    assert_int_equal(rpl_sim_model(NULL), RPL_MODEL_CLASSIC);
    assert_null(rpl_sim_wave_params(NULL));

    rpl_sim_t *sim = new_sim(20, 10, 1);
    assert_int_equal(rpl_sim_model(sim), RPL_MODEL_CLASSIC);
    assert_null(rpl_sim_wave_params(sim));
    assert_int_equal(rpl_sim_set_model(sim, RPL_MODEL_CLASSIC, NULL), RPL_OK);
    assert_int_equal(rpl_sim_set_model(sim, RPL_MODEL_WAVE, &slow), RPL_OK);
    assert_int_equal(rpl_sim_model(sim), RPL_MODEL_WAVE);
    assert_memory_equal(rpl_sim_wave_params(sim), &slow, sizeof slow);
    /* back to classic: the parameters are kept; the heights untouched */
    random_state(sim, 3, -500, 500);
    int16_t *before = copy_plane(cur_of(sim), cells(sim));
    assert_int_equal(rpl_sim_set_model(sim, RPL_MODEL_CLASSIC, &classic), RPL_OK);
    assert_int_equal(rpl_sim_model(sim), RPL_MODEL_CLASSIC);
    assert_memory_equal(rpl_sim_wave_params(sim), &slow, sizeof slow);
    assert_plane_equal(cur_of(sim), before, cells(sim));
    free(before);
    /* the model stays through a reset */
    assert_int_equal(rpl_sim_set_model(sim, RPL_MODEL_WAVE, &classic), RPL_OK);
    rpl_sim_reset(sim, 9);
    assert_int_equal(rpl_sim_model(sim), RPL_MODEL_WAVE);
    assert_memory_equal(rpl_sim_wave_params(sim), &classic, sizeof classic);
    rpl_sim_destroy(sim);
}

/* ---- the rule ---------------------------------------------------------- */

/* The field under the wave model computes what the 64-bit reference does,
 * over the whole height range, on every setting class (floor, one lower
 * for positive sums, towards zero), sleeping on and off, 1 and 3 threads. */
static void test_rule_against_reference(void **state)
{
    (void)state;
    static const rpl_wave_params_t sets[] = {
        {0.4, 0.02, 1, 1, 0.97}, {1, 0, 2, 1, 1},           {0.70710678, 0.1, 1, 1, 0.9},
        {0.05, 0, 1, 1, 0.999},  {0.69, 3, 1, 1, 1e-6},      {24, 1.2, 1, 1.0 / 60, 0.985},
        {0.3, 0.5, 1, 1, 1},     {0.7, 0.0001, 1, 1, 0.25},
    };
    static const int ranges[][2] = {
        {RPL_HEIGHT_MIN, RPL_HEIGHT_MAX}, {-40, 40}, {-3, 3}, {RPL_HEIGHT_MAX - 5, RPL_HEIGHT_MAX},
    };
    const int w = 71, h = 37;
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        rpl_wave_info_t info;
        assert_int_equal(rpl_wave_info(&sets[i], &info), RPL_OK);
        for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
            rpl_sim_t *sim = wave_sim(w, h, &sets[i]);
            rpl_sim_set_sleeping(sim, (int)(r % 2));
            assert_int_equal(rpl_sim_set_threads(sim, r % 3 ? 3 : 1), RPL_OK);
            random_state(sim, 100 * i + r, ranges[r][0], ranges[r][1]);
            int16_t *c = copy_plane(cur_of(sim), cells(sim));
            int16_t *p = copy_plane(prev_of(sim), cells(sim));
            for (int s = 0; s < 25; s++) {
                ref_step(&c, &p, w, h, &info);
                rpl_sim_step(sim);
                assert_plane_equal(cur_of(sim), c, cells(sim));
                assert_plane_equal(prev_of(sim), p, cells(sim));
                assert_heights_in_range(cur_of(sim), cells(sim));
                assert_border_zero(cur_of(sim), w, h);
            }
            free(c);
            free(p);
            rpl_sim_destroy(sim);
        }
    }
}

/* k = 1/2, u = 0, alpha = 1 - 1/32: the classic rule's bytes, step for
 * step, on random water over the whole range and on small water, with
 * stones, rain, walls and absorbing edges (the post-pass applies to both
 * models alike). */
static void test_classic_equivalence(void **state)
{
    (void)state;
    static const int sizes[][2] = {{131, 77}, {3, 3}, {64, 32}, {200, 5}};
    const rpl_rain_t rain = {800, 1, 5, -3000, 9000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int variant = 0; variant < 3; variant++) {
            int w = sizes[i][0], h = sizes[i][1];
            rpl_sim_t *a = new_sim(w, h, 5), *b = wave_sim(w, h, &classic);
            rpl_sim_reset(b, 5);
            uint64_t seed = 77 + i * 3 + (uint64_t)variant;
            int lo = variant == 1 ? -60 : RPL_HEIGHT_MIN, hi = variant == 1 ? 60 : RPL_HEIGHT_MAX;
            random_state(a, seed, lo, hi);
            random_state(b, seed, lo, hi);
            if (variant == 2) {
                rpl_sim_t *both[2] = {a, b};
                for (int j = 0; j < 2; j++) {
                    assert_int_equal(rpl_sim_wall_rect(both[j], w / 3, 0, 2, h / 2, 1), RPL_OK);
                    assert_int_equal(rpl_sim_set_edges(both[j], RPL_EDGES_ABSORB), RPL_OK);
                }
                assert_int_equal(rpl_sim_set_threads(b, 4), RPL_OK);
            }
            for (int s = 0; s < 300; s++) {
                assert_int_equal(rpl_sim_rain(a, &rain), RPL_OK);
                assert_int_equal(rpl_sim_rain(b, &rain), RPL_OK);
                rpl_sim_step(a);
                rpl_sim_step(b);
                if (memcmp(cur_of(a), cur_of(b), cells(a) * sizeof(int16_t)) != 0)
                    fail_msg("%dx%d variant %d: the wave model differs from the classic rule "
                             "after step %d", w, h, variant, s + 1);
            }
            assert_plane_equal(prev_of(a), prev_of(b), cells(a));
            rpl_sim_destroy(a);
            rpl_sim_destroy(b);
        }
}

/* ---- stability ---------------------------------------------------------- */

/* Sets a checkerboard of +-amp (the pattern of the highest frequency) in
 * the current buffer and its negative one step ago: the mode with factor
 * -1 at k = 1/2. */
static void checkerboard(rpl_sim_t *sim, int amp)
{
    int w = width_of(sim), h = height_of(sim);
    int16_t *c = new_plane(w, h), *p = new_plane(w, h);
    for (int y = 1; y < h - 1; y++)
        for (int x = 1; x < w - 1; x++) {
            c[y * w + x] = (int16_t)((x + y) % 2 ? amp : -amp);
            p[y * w + x] = (int16_t)-c[y * w + x];
        }
    assert_int_equal(rpl_sim_set_state(sim, c, p), RPL_OK);
    free(c);
    free(p);
}

static int max_abs(const rpl_sim_t *sim)
{
    int m = 0;
    const int16_t *c = cur_of(sim);
    for (size_t i = 0, n = cells(sim); i < n; i++)
        m = abs(c[i]) > m ? abs(c[i]) : m;
    return m;
}

static void test_checkerboard_at_the_edge(void **state)
{
    (void)state;
    /* k = 1/2 with alpha < 1: the checkerboard decays, to exactly 0.  Near
     * the border the pattern is no pure mode, and the double root at -1
     * grows it linearly while alpha^n takes it down: with alpha close to 1
     * it swells first (to the height limit with alpha 0.998, at about
     * 1/(1 - alpha) steps), and still comes to 0. */
    static const struct {
        rpl_wave_params_t p;
        int by300; /* the most it may be after 300 steps */
    } edge[] = {
        {{0.70710678, 0, 1, 1, 0.97}, 400},
        {{0.70710678, 0.4, 1, 1, 0.99}, 400},
        {{0.70710678, 0, 1, 1, 0.998}, RPL_HEIGHT_MAX},
    };
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
        rpl_sim_t *sim = wave_sim(41, 33, &edge[i].p);
        checkerboard(sim, 4000);
        int s = 0;
        for (; s < 20000 && energy2(sim) > 0; s++) {
            rpl_sim_step(sim);
            assert_heights_in_range(cur_of(sim), cells(sim));
            if (s == 300)
                assert_true(max_abs(sim) <= edge[i].by300);
        }
        if (energy2(sim) > 0)
            fail_msg("alpha %g: the checkerboard is not gone after %d steps",
                     edge[i].p.attenuation, s);
        rpl_sim_destroy(sim);
    }
    /* slightly past the edge, k = 0.51, the checkerboard's factor is about
     * -1.3 even with alpha 0.97 (worked out: T = A + C s = -0.04 - 0.51 *
     * 3.99), so a small one reaches the height limit within 100 steps: the
     * rule by hand, b = -8192, c = round(0.51 * 8192) = 4178,
     * a = 16384 - 16712 = -328, m = 8 */
    rpl_wave_info_t past = {0.51, 0, -328, -8192, 4178, 0, 0, 8, ""};
    const int w = 41, h = 33;
    int16_t *c = new_plane(w, h), *p = new_plane(w, h);
    for (int y = 1; y < h - 1; y++)
        for (int x = 1; x < w - 1; x++) {
            c[y * w + x] = (int16_t)((x + y) % 2 ? 10 : -10);
            p[y * w + x] = (int16_t)-c[y * w + x];
        }
    for (int s = 0; s < 100; s++)
        ref_step(&c, &p, w, h, &past);
    int peak = 0;
    for (int i = 0; i < w * h; i++)
        peak = abs(c[i]) > peak ? abs(c[i]) : peak;
    assert_true(peak >= RPL_HEIGHT_MAX);
    free(c);
    free(p);
    /* and the field refuses it, and the edge without attenuation */
    rpl_wave_info_t info;
    assert_int_equal(rpl_wave_info(&(rpl_wave_params_t){0.70710678, 0, 1, 1, 1}, &info),
                     RPL_EINVAL);
    /* and slightly past the edge, whatever the attenuation */
    assert_int_equal(rpl_wave_info(&(rpl_wave_params_t){0.7072, 0, 1, 1, 0.5}, &info),
                     RPL_EINVAL);
    assert_int_equal(rpl_wave_info(&(rpl_wave_params_t){0.7072, 5, 1, 1, 0.5}, &info),
                     RPL_EINVAL);
    assert_int_equal(rpl_wave_info(&(rpl_wave_params_t){0.71414284, 0, 1, 1, 0.97}, &info),
                     RPL_EINVAL); /* k = 0.51 */

    /* just inside (k = 0.49), lossless: the checkerboard only oscillates */
    rpl_sim_t *sim = wave_sim(41, 33, &(rpl_wave_params_t){0.7, 0, 1, 1, 1});
    checkerboard(sim, 4000);
    double e0 = energy2(sim);
    for (int s = 0; s < 3000; s++) {
        rpl_sim_step(sim);
        assert_true(energy2(sim) <= 1.5 * e0);
    }
    rpl_sim_destroy(sim);
}

/* ---- the water's behaviour ------------------------------------------------ */

/* A drop in the middle of a square field stays symmetric under the
 * mirrors and the diagonal: the rule treats the four neighbours alike and
 * rounds the same way everywhere. */
static void test_drop_stays_symmetric(void **state)
{
    (void)state;
    static const rpl_wave_params_t sets[] = {
        {24, 1.2, 1, 1.0 / 60, 0.985}, {0.65, 0, 1, 1, 1}, {0.2, 0.02, 1, 1, 0.99},
    };
    const int n = 65;
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        rpl_sim_t *sim = wave_sim(n, n, &sets[i]);
        assert_int_equal(rpl_sim_drop(sim, 32, 32, 6, 1500), RPL_OK);
        for (int s = 0; s < 200; s++) {
            rpl_sim_step(sim);
            const int16_t *hgt = cur_of(sim);
            for (int y = 0; y < n; y++)
                for (int x = 0; x < n; x++) {
                    int v = hgt[y * n + x];
                    if (v != hgt[y * n + (n - 1 - x)] || v != hgt[(n - 1 - y) * n + x] ||
                        v != hgt[x * n + y])
                        fail_msg("set %zu, step %d: (%d, %d) = %d breaks the symmetry", i, s + 1,
                                 x, y, v);
                }
        }
        assert_true(energy2(sim) > 0); /* the water still moved */
        rpl_sim_destroy(sim);
    }
}

/* The sum of squares over steps [from, to) of a drop's water with viscous
 * damping u t (alpha 1, so viscosity alone damps). */
static double energy_over(double ut, int from, int to)
{
    rpl_sim_t *sim = wave_sim(65, 65, &(rpl_wave_params_t){0.4, ut, 1, 1, 1});
    assert_int_equal(rpl_sim_drop(sim, 32, 32, 5, 2000), RPL_OK);
    double e = 0;
    for (int s = 0; s < to; s++) {
        rpl_sim_step(sim);
        if (s >= from)
            e += energy2(sim);
    }
    rpl_sim_destroy(sim);
    return e;
}

static void test_viscosity_damps(void **state)
{
    (void)state;
    /* windows of 100 steps smooth the exchange between the water's
     * height and its motion */
    static const double uts[] = {0, 0.005, 0.02, 0.05};
    double early[4], late[4];
    for (int i = 0; i < 4; i++) {
        early[i] = energy_over(uts[i], 50, 150);
        late[i] = energy_over(uts[i], 200, 300);
    }
    /* without viscosity (and alpha 1) the energy stays (within rounding) */
    assert_true(late[0] > 0.8 * early[0]);
    for (int i = 1; i < 4; i++) {
        assert_true(late[i] < 0.5 * early[i]);   /* viscosity takes energy away */
        assert_true(late[i] / early[i] < late[i - 1] / early[i - 1] / 2); /* more, faster */
        assert_true(early[i] < early[i - 1]);
    }
    assert_true(late[3] < 1e-3 * early[3]);
}

/* Calm water comes to exactly 0 and its tiles sleep: random low water and
 * stones over a grid of speeds, viscosities and attenuations, down to the
 * weakest (alpha 1 - 1/256), and alpha 1 with viscosity. */
static void test_calm_water_comes_to_zero(void **state)
{
    (void)state;
    static const double speeds[] = {0.05, 0.2, 0.4, 0.6, 0.70710678};
    static const double uts[] = {0, 0.002, 0.05, 1};
    static const double alphas[] = {1 - 1.0 / 256, 0.97, 0.5};
    int runs = 0, slowest = 0;
    for (size_t a = 0; a <= sizeof alphas / sizeof alphas[0]; a++)
        for (size_t v = 0; v < sizeof speeds / sizeof speeds[0]; v++)
            for (size_t u = 0; u < sizeof uts / sizeof uts[0]; u++) {
                int lossless = a == sizeof alphas / sizeof alphas[0];
                if (lossless && (uts[u] < 0.05 || v == 4))
                    continue; /* alpha 1 needs viscosity (and k < 1/2) */
                rpl_wave_params_t p = {speeds[v], uts[u], 1, 1, lossless ? 1 : alphas[a]};
                rpl_sim_t *sim = wave_sim(70, 40, &p);
                random_state(sim, 11 + a * 100 + v * 10 + u, -60, 60);
                for (int i = 0; i < 8; i++)
                    assert_int_equal(rpl_sim_drop(sim, 5 + 9 * i, 8 + 3 * i, 1 + i % 4,
                                                  (i % 2 ? 1 : -1) * 300 * (i + 1)), RPL_OK);
                rpl_stats_t st = {0, 0, 0};
                int s = 0;
                for (; s < 12000; s++) {
                    rpl_sim_step(sim);
                    rpl_sim_stats(sim, &st);
                    if (st.stepped == 0)
                        break;
                }
                if (st.stepped != 0)
                    fail_msg("c*dt/d %g, u*t %g, alpha %g: not at rest after %d steps "
                             "(energy %llu)", p.speed, p.viscosity, p.attenuation, s,
                             (unsigned long long)rpl_sim_energy(sim));
                assert_int_equal(rpl_sim_energy(sim), 0);
                const int16_t *pv = prev_of(sim);
                for (size_t i = 0, n = cells(sim); i < n; i++)
                    assert_int_equal(pv[i], 0);
                slowest = s > slowest ? s : slowest;
                runs++;
                rpl_sim_destroy(sim);
            }
    assert_true(runs >= 60);
    print_message("%d settings came to rest, the slowest in %d steps\n", runs, slowest);
}

/* Sleeping tiles on and off, 1, 2 and 4 threads: the same bytes under the
 * wave model, through stones, rain and the water settling. */
static void test_sleeping_same_bytes(void **state)
{
    (void)state;
    const int w = 203, h = 131;
    rpl_sim_t *f[4];
    for (int i = 0; i < 4; i++) {
        f[i] = wave_sim(w, h, &slow);
        rpl_sim_reset(f[i], 21);
        rpl_sim_set_sleeping(f[i], i % 2 == 0);
        assert_int_equal(rpl_sim_set_threads(f[i], i < 2 ? 1 : 2 * i - 2), RPL_OK);
    }
    const rpl_rain_t rain = {400, 1, 4, 50, 900};
    for (int s = 0; s < 1500; s++) {
        for (int i = 0; i < 4; i++) {
            if (s < 300)
                assert_int_equal(rpl_sim_rain(f[i], &rain), RPL_OK);
            if (s == 600)
                assert_int_equal(rpl_sim_drop(f[i], 20, 20, 8, 4000), RPL_OK);
            rpl_sim_step(f[i]);
        }
        for (int i = 1; i < 4; i++)
            if (memcmp(cur_of(f[0]), cur_of(f[i]), cells(f[0]) * sizeof(int16_t)) != 0)
                fail_msg("field %d (sleeping %s, %d threads) differs after step %d", i,
                         i % 2 ? "off" : "on", threads_of(f[i]), s + 1);
    }
    rpl_stats_t st;
    rpl_sim_stats(f[0], &st);
    assert_int_equal(rpl_sim_energy(f[0]), 0);
    assert_int_equal(st.stepped, 0); /* all asleep */
    for (int i = 0; i < 4; i++)
        rpl_sim_destroy(f[i]);
}

/* ---- snapshots ------------------------------------------------------------ */

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* An RPL2 snapshot of a still 3x3 field with a "wave" section of model
 * `model` and the five doubles (their bits little-endian, written here
 * from ripple.h's layout), `len` bytes claimed for it, `twice` for a
 * second one; returns its length. */
static size_t wave_snapshot(unsigned char *buf, uint32_t model, const double v[5], uint32_t len,
                            int twice)
{
    size_t n = 0;
    memcpy(buf, "RPL2", 4);
    put32(buf + 4, 1);
    memcpy(buf + 8, "HGHT", 4);
    put32(buf + 12, 8 + 4 * 9);
    put32(buf + 16, 3);
    put32(buf + 20, 3);
    memset(buf + 24, 0, 36);
    n = 60;
    for (int k = 0; k <= twice; k++) {
        memcpy(buf + n, "wave", 4);
        put32(buf + n + 4, len);
        put32(buf + n + 8, model);
        for (int i = 0; i < 5; i++) {
            uint64_t bits;
            memcpy(&bits, &v[i], sizeof bits);
            put32(buf + n + 12 + 8 * i, (uint32_t)bits);
            put32(buf + n + 16 + 8 * i, (uint32_t)(bits >> 32));
        }
        n += 8 + 44;
    }
    memcpy(buf + n, "DONE", 4);
    put32(buf + n + 4, 0);
    return n + 8;
}

static void test_snapshot_carries_the_model(void **state)
{
    (void)state;
    char path[] = "/tmp/ripple-test-wave-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    const rpl_wave_params_t p = {0.4, 0.02, 1, 1, 0.97};
    rpl_sim_t *a = wave_sim(40, 30, &p);
    random_state(a, 5, -900, 900);
    assert_int_equal(rpl_sim_save(a, path), RPL_OK);
    /* a classic field takes the model and the parameters, bit for bit */
    rpl_sim_t *b = new_sim(40, 30, 1);
    assert_int_equal(rpl_sim_load(b, path), RPL_OK);
    assert_int_equal(rpl_sim_model(b), RPL_MODEL_WAVE);
    assert_memory_equal(rpl_sim_wave_params(b), &p, sizeof p);
    for (int s = 0; s < 20; s++) {
        rpl_sim_step(a);
        rpl_sim_step(b);
    }
    assert_plane_equal(cur_of(a), cur_of(b), cells(a));
    /* a classic field's snapshot has no wave section and makes a wave
     * field classic */
    rpl_sim_t *c = new_sim(40, 30, 1);
    random_state(c, 6, -900, 900);
    assert_int_equal(rpl_sim_save(c, path), RPL_OK);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static unsigned char buf[16384];
    size_t got = fread(buf, 1, sizeof buf, f);
    fclose(f);
    assert_true(got > 60 && got < sizeof buf);
    for (size_t i = 0; i + 4 <= got; i++)
        assert_false(memcmp(buf + i, "wave", 4) == 0 && i > 60);
    assert_int_equal(rpl_sim_load(a, path), RPL_OK);
    assert_int_equal(rpl_sim_model(a), RPL_MODEL_CLASSIC);
    assert_memory_equal(rpl_sim_wave_params(a), &p, sizeof p); /* kept for later */
    remove(path);
    rpl_sim_destroy(a);
    rpl_sim_destroy(b);
    rpl_sim_destroy(c);

    /* the section by hand: accepted, and refused when damaged */
    unsigned char snap[256];
    const double good[5] = {0.4, 0.02, 1, 1, 0.97};
    rpl_snapshot_t *sn = NULL;
    size_t n = wave_snapshot(snap, RPL_MODEL_WAVE, good, 44, 0);
    assert_int_equal(rpl_snapshot_parse(snap, n, &sn), RPL_OK);
    rpl_sim_t *d = new_sim(3, 3, 1);
    assert_int_equal(rpl_sim_set_snapshot(d, sn), RPL_OK);
    assert_int_equal(rpl_sim_model(d), RPL_MODEL_WAVE);
    assert_memory_equal(&rpl_sim_wave_params(d)->attenuation, &good[4], sizeof good[4]);
    rpl_snapshot_destroy(sn);
    static const struct {
        uint32_t model, len;
        double v[5];
        int twice;
        const char *says;
    } bad[] = {
        {RPL_MODEL_WAVE, 40, {0.4, 0.02, 1, 1, 0.97}, 0, "wave section of 40 bytes, not 44"},
        {RPL_MODEL_WAVE, 48, {0.4, 0.02, 1, 1, 0.97}, 0, "wave section of 48 bytes"},
        {0, 44, {0.4, 0.02, 1, 1, 0.97}, 0, "unknown model 0"},
        {7, 44, {0.4, 0.02, 1, 1, 0.97}, 0, "unknown model 7"},
        {RPL_MODEL_WAVE, 44, {NAN, 0.02, 1, 1, 0.97}, 0, "not a finite number"},
        {RPL_MODEL_WAVE, 44, {0.8, 0.02, 1, 1, 0.97}, 0, "unstable"},
        {RPL_MODEL_WAVE, 44, {0.4, 0.02, 1, 1, 0}, 0, "attenuation 0"},
        {RPL_MODEL_WAVE, 44, {0.4, 0.02, 1, 1, 0.97}, 1, "a second wave section"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        n = wave_snapshot(snap, bad[i].model, bad[i].v, bad[i].len, bad[i].twice);
        assert_int_equal(rpl_snapshot_parse(snap, n, &sn), RPL_EFORMAT);
        if (!strstr(rpl_snapshot_error(sn), bad[i].says))
            fail_msg("bad wave section %zu: \"%s\" does not say \"%s\"", i,
                     rpl_snapshot_error(sn), bad[i].says);
        rpl_snapshot_destroy(sn);
    }
    /* nothing changed the field */
    assert_int_equal(rpl_sim_model(d), RPL_MODEL_WAVE);
    rpl_sim_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coefficients_by_hand),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_model_api),
        cmocka_unit_test(test_rule_against_reference),
        cmocka_unit_test(test_classic_equivalence),
        cmocka_unit_test(test_checkerboard_at_the_edge),
        cmocka_unit_test(test_drop_stays_symmetric),
        cmocka_unit_test(test_viscosity_damps),
        cmocka_unit_test(test_calm_water_comes_to_zero),
        cmocka_unit_test(test_sleeping_same_bytes),
        cmocka_unit_test(test_snapshot_carries_the_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
