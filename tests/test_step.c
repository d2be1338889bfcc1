/* test_step.c - the wave rule of rpl_sim_step: hand-worked steps, the clamp, damping, symmetry and a reference rule (cmocka). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "ripple.h"
#include "util.h"

/* Reference step from kernels/kernels.h:
 *   n = ((l + r + u + d) >> 1) - prev;  n -= n >> 5;  clamp
 * over the interior, result into prev, then the buffers swap. */
static void ref_step(int16_t **cur, int16_t **prev, int w, int h)
{
    int16_t *c = *cur, *p = *prev;
    for (int y = 1; y < h - 1; y++)
        for (int x = 1; x < w - 1; x++) {
            int64_t sum = (int64_t)c[y * w + x - 1] + c[y * w + x + 1] +
                          c[(y - 1) * w + x] + c[(y + 1) * w + x];
            int64_t n = floor_div_pow2(sum, 1) - p[y * w + x];
            n -= floor_div_pow2(n, 5);
            p[y * w + x] = (int16_t)clamp64(n, RPL_HEIGHT_MIN, RPL_HEIGHT_MAX);
        }
    *cur = p;
    *prev = c;
}

/* 3x3: the only interior cell (1,1) has four border neighbours (0), so
 * n = (0 >> 1) - prev = -prev, then n -= n >> 5. */
static void test_step_3x3_single_cell(void **state)
{
    (void)state;
    static const struct {
        int prev, want;
    } cases[] = {
        {0, 0},       /* n = 0 */
        {1, 0},       /* n = -1; -1 >> 5 = -1; -1 - (-1) = 0 (damps to 0) */
        {-31, 31},    /* n = 31; 31 >> 5 = 0; stays 31 */
        {-32, 31},    /* n = 32; 32 >> 5 = 1; 31 */
        {31, -30},    /* n = -31; -31 >> 5 = -1; -31 + 1 = -30 */
        {33, -31},    /* n = -33; -33 >> 5 = floor(-1.03) = -2; -33 + 2 = -31 */
        {-33, 32},    /* n = 33; 33 >> 5 = 1; 32 */
        {-8192, 7936}, /* n = 8192; 8192 >> 5 = 256; 7936 */
        {8191, -7935}, /* n = -8191; -8191 >> 5 = floor(-255.97) = -256; -7935 */
    };
    rpl_sim_t *sim = new_sim(3, 3, 1);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int16_t cur[9] = {0}, prev[9] = {0};
        prev[4] = (int16_t)cases[i].prev;
        cur[4] = 77; /* becomes prev after the step */
        assert_int_equal(rpl_sim_set_state(sim, cur, prev), RPL_OK);
        uint64_t steps = steps_of(sim);
        rpl_sim_step(sim);
        assert_int_equal(steps_of(sim), steps + 1);
        assert_int_equal(cur_of(sim)[4], cases[i].want);
        assert_int_equal(prev_of(sim)[4], 77);
        assert_border_zero(cur_of(sim), 3, 3);
        assert_border_zero(prev_of(sim), 3, 3);
    }
    rpl_sim_destroy(sim);
}

/* 4x4: interior a=(1,1) b=(2,1) c=(1,2) d=(2,2); a and d have b and c as
 * interior neighbours, b and c have a and d (the others are border 0). */
static void test_step_4x4_hand(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(4, 4, 1);
    int16_t cur[16] = {0}, prev[16] = {0};
    cur[5] = 5;   /* a */
    cur[6] = -3;  /* b */
    cur[9] = -4;  /* c */
    cur[10] = 7;  /* d */
    prev[5] = -5;
    prev[6] = 2;
    prev[9] = -1;
    prev[10] = 1;
    assert_int_equal(rpl_sim_set_state(sim, cur, prev), RPL_OK);
    rpl_sim_step(sim);
    /* a: b + c = -7 (odd negative); -7 >> 1 = floor(-3.5) = -4 (truncation
     *    would give -3); n = -4 - (-5) = 1; 1 >> 5 = 0 -> 1 (truncation: 2) */
    assert_int_equal(cur_of(sim)[5], 1);
    /* b: a + d = 12; 12 >> 1 = 6; n = 6 - 2 = 4; 4 >> 5 = 0 -> 4 */
    assert_int_equal(cur_of(sim)[6], 4);
    /* c: 6 - (-1) = 7 -> 7 */
    assert_int_equal(cur_of(sim)[9], 7);
    /* d: -7 >> 1 = -4; n = -4 - 1 = -5; -5 >> 5 = -1; -5 + 1 = -4 */
    assert_int_equal(cur_of(sim)[10], -4);
    /* the old current is now the previous buffer */
    assert_memory_equal(prev_of(sim), cur, sizeof cur);
    assert_border_zero(cur_of(sim), 4, 4);
    rpl_sim_destroy(sim);
}

/* 5x5 with a single spike at the centre (2,2), two steps. */
static void test_step_5x5_spike(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(5, 5, 1);
    int16_t cur[25] = {0}, prev[25] = {0};
    cur[12] = 100;
    assert_int_equal(rpl_sim_set_state(sim, cur, prev), RPL_OK);
    rpl_sim_step(sim);
    /* step 1: centre: neighbours 0, prev 0 -> 0.
     * its 4 neighbours: sum 100 >> 1 = 50; 50 >> 5 = 1 -> 49.
     * the 4 interior corners (1,1)...: all their neighbours 0 -> 0. */
    int16_t want1[25] = {0};
    want1[7] = want1[11] = want1[13] = want1[17] = 49;
    assert_memory_equal(cur_of(sim), want1, sizeof want1);
    assert_memory_equal(prev_of(sim), cur, sizeof cur);
    rpl_sim_step(sim);
    /* step 2 (prev is the spike):
     * centre: 4 * 49 = 196 >> 1 = 98; n = 98 - 100 = -2; -2 >> 5 = -1 -> -1
     * (1,2) etc.: neighbours (0,2)=0 (2,2)=0 (1,1)=0 (1,3)=0, prev 0 -> 0
     * corners (1,1): (2,1)=49 + (1,2)=49 = 98 >> 1 = 49; 49 >> 5 = 1 -> 48 */
    int16_t want2[25] = {0};
    want2[12] = -1;
    want2[6] = want2[8] = want2[16] = want2[18] = 48;
    assert_memory_equal(cur_of(sim), want2, sizeof want2);
    assert_memory_equal(prev_of(sim), want1, sizeof want1);
    rpl_sim_destroy(sim);

    /* Negative spike -102 in a fresh field: its neighbours get
     * -102 >> 1 = -51; -51 >> 5 = floor(-1.59) = -2; -51 + 2 = -49. */
    sim = new_sim(5, 5, 1);
    memset(cur, 0, sizeof cur);
    cur[12] = -102;
    assert_int_equal(rpl_sim_set_state(sim, cur, prev), RPL_OK);
    rpl_sim_step(sim);
    int16_t want3[25] = {0};
    want3[7] = want3[11] = want3[13] = want3[17] = -49;
    assert_memory_equal(cur_of(sim), want3, sizeof want3);
    rpl_sim_destroy(sim);
}

/* The clamp at both ends on a 5x5 field. */
static void test_step_clamp(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(5, 5, 1);
    int16_t cur[25], prev[25];
    /* All interior cur 8191, prev -8192.
     * centre: 4*8191 = 32764 >> 1 = 16382; n = 16382 + 8192 = 24574;
     *   24574 >> 5 = 767; 24574 - 767 = 23807 -> 8191
     * edge middle (2,1): 3*8191 = 24573 >> 1 = 12286; +8192 = 20478;
     *   20478 >> 5 = 639; 19839 -> 8191
     * corner (1,1): 2*8191 = 16382 >> 1 = 8191; +8192 = 16383;
     *   16383 >> 5 = 511; 15872 -> 8191 */
    for (int i = 0; i < 25; i++) {
        int x = i % 5, y = i / 5, in = x > 0 && y > 0 && x < 4 && y < 4;
        cur[i] = in ? 8191 : 0;
        prev[i] = in ? -8192 : 0;
    }
    assert_int_equal(rpl_sim_set_state(sim, cur, prev), RPL_OK);
    rpl_sim_step(sim);
    for (int i = 0; i < 25; i++) {
        int x = i % 5, y = i / 5, in = x > 0 && y > 0 && x < 4 && y < 4;
        assert_int_equal(cur_of(sim)[i], in ? 8191 : 0);
    }
    /* Mirror: cur -8192, prev 8191.
     * centre: -32768 >> 1 = -16384; n = -16384 - 8191 = -24575;
     *   -24575 >> 5 = floor(-767.97) = -768; -24575 + 768 = -23807 -> -8192
     * edge middle: -24576 >> 1 = -12288; -20479; >> 5 = -640; -19839 -> -8192
     * corner: -16384 >> 1 = -8192; -16383; >> 5 = -512; -15871 -> -8192 */
    for (int i = 0; i < 25; i++) {
        int x = i % 5, y = i / 5, in = x > 0 && y > 0 && x < 4 && y < 4;
        cur[i] = in ? -8192 : 0;
        prev[i] = in ? 8191 : 0;
    }
    assert_int_equal(rpl_sim_set_state(sim, cur, prev), RPL_OK);
    rpl_sim_step(sim);
    for (int i = 0; i < 25; i++) {
        int x = i % 5, y = i / 5, in = x > 0 && y > 0 && x < 4 && y < 4;
        assert_int_equal(cur_of(sim)[i], in ? -8192 : 0);
    }
    /* Only the centre pushed past the top: cur cross (2,1) (1,2) (3,2)
     * (2,3) = 8191 with the same prev 8191, centre cur 0, prev -8192.
     * centre: 4*8191 >> 1 = 16382; + 8192 = 24574 -> 23807 -> 8191 (clamped)
     * (2,1): neighbours (1,1) (3,1) (2,0) (2,2) all 0 -> 0; 0 - 8191 = -8191;
     *   -8191 >> 5 = floor(-255.97) = -256; -8191 + 256 = -7935 (not clamped)
     * (1,1): (2,1) + (1,2) = 16382 >> 1 = 8191; prev 0; 8191 >> 5 = 255;
     *   8191 - 255 = 7936 */
    memset(cur, 0, sizeof cur);
    memset(prev, 0, sizeof prev);
    cur[7] = cur[11] = cur[13] = cur[17] = 8191;
    prev[7] = prev[11] = prev[13] = prev[17] = 8191;
    prev[12] = -8192;
    assert_int_equal(rpl_sim_set_state(sim, cur, prev), RPL_OK);
    rpl_sim_step(sim);
    assert_int_equal(cur_of(sim)[12], 8191);
    assert_int_equal(cur_of(sim)[7], -7935);
    assert_int_equal(cur_of(sim)[11], -7935);
    assert_int_equal(cur_of(sim)[13], -7935);
    assert_int_equal(cur_of(sim)[17], -7935);
    assert_int_equal(cur_of(sim)[6], 7936);
    assert_int_equal(cur_of(sim)[8], 7936);
    assert_int_equal(cur_of(sim)[16], 7936);
    assert_int_equal(cur_of(sim)[18], 7936);
    rpl_sim_destroy(sim);
}

/* Random in-contract states, many steps, against the reference rule. */
static void test_step_matches_reference(void **state)
{
    (void)state;
    static const int sizes[][2] = {{3, 3}, {4, 7}, {31, 17}, {64, 5}, {129, 65}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int w = sizes[k][0], h = sizes[k][1];
        for (int range = 0; range < 2; range++) {
            rpl_sim_t *sim = new_sim(w, h, 7);
            /* full range (exercises the clamp) and small values (rounding) */
            if (range == 0)
                random_state(sim, 1000 + k, RPL_HEIGHT_MIN, RPL_HEIGHT_MAX);
            else
                random_state(sim, 2000 + k, -70, 70);
            int16_t *c = copy_plane(cur_of(sim), cells(sim));
            int16_t *p = copy_plane(prev_of(sim), cells(sim));
            for (int s = 0; s < 60; s++) {
                rpl_sim_step(sim);
                ref_step(&c, &p, w, h);
                assert_plane_equal(cur_of(sim), c, cells(sim));
                assert_plane_equal(prev_of(sim), p, cells(sim));
            }
            free(c);
            free(p);
            rpl_sim_destroy(sim);
        }
    }
}

static void test_zero_field_stays_zero(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(37, 23, 5);
    int16_t *zero = new_plane(37, 23);
    for (int i = 0; i < 200; i++)
        rpl_sim_step(sim);
    assert_int_equal(steps_of(sim), 200);
    assert_plane_equal(cur_of(sim), zero, cells(sim));
    assert_plane_equal(prev_of(sim), zero, cells(sim));
    assert_int_equal(rpl_sim_energy(sim), 0);
    free(zero);
    rpl_sim_destroy(sim);
}

static void test_border_stays_zero(void **state)
{
    (void)state;
    uint64_t s = 42;
    rpl_sim_t *sim = new_sim(50, 33, 3);
    for (int i = 0; i < 1500; i++) {
        if (i % 3 == 0 && i < 1200) {
            int x = rnd_range(&s, -10, 60), y = rnd_range(&s, -10, 43);
            int r = rnd_range(&s, 1, 15), wt = rnd_range(&s, -20000, 20000);
            assert_int_equal(rpl_sim_drop(sim, x, y, r, wt), RPL_OK);
        }
        rpl_sim_step(sim);
        assert_border_zero(cur_of(sim), 50, 33);
        assert_border_zero(prev_of(sim), 50, 33);
        assert_heights_in_range(cur_of(sim), cells(sim));
    }
    rpl_sim_destroy(sim);
}

static void check_symmetry(const rpl_sim_t *sim, int transpose)
{
    int w = width_of(sim), h = height_of(sim);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int v = at(sim, cur_of(sim), x, y);
            if (v != at(sim, cur_of(sim), w - 1 - x, y))
                fail_msg("left-right asymmetry at (%d,%d) after %llu steps", x, y,
                         (unsigned long long)steps_of(sim));
            if (v != at(sim, cur_of(sim), x, h - 1 - y))
                fail_msg("up-down asymmetry at (%d,%d) after %llu steps", x, y,
                         (unsigned long long)steps_of(sim));
            if (transpose && v != at(sim, cur_of(sim), y, x))
                fail_msg("transpose asymmetry at (%d,%d) after %llu steps", x, y,
                         (unsigned long long)steps_of(sim));
        }
}

static void test_centred_drop_symmetric(void **state)
{
    (void)state;
    /* square: mirror both ways and transpose */
    rpl_sim_t *sim = new_sim(65, 65, 1);
    assert_int_equal(rpl_sim_drop(sim, 32, 32, 6, 3000), RPL_OK);
    assert_true(rpl_sim_energy(sim) > 0);
    int last_moving = -1;
    for (int i = 0; i < 400; i++) {
        rpl_sim_step(sim);
        check_symmetry(sim, 1);
        if (rpl_sim_energy(sim) > 0)
            last_moving = i;
    }
    assert_true(last_moving >= 250); /* the water moved for hundreds of the checked steps */
    rpl_sim_destroy(sim);

    /* odd non-square: mirror both ways, also with a heavy (clamped) stone */
    sim = new_sim(41, 27, 1);
    assert_int_equal(rpl_sim_drop(sim, 20, 13, 9, 50000), RPL_OK);
    for (int i = 0; i < 300; i++) {
        rpl_sim_step(sim);
        check_symmetry(sim, 0);
    }
    rpl_sim_destroy(sim);
}

/* Energy after drops stop.  "Near rest": the integer damping
 * n - (n >> 5) leaves 1..31 unchanged (31 >> 5 = 0), so it cannot promise
 * an exact 0; the bound used is |height| <= 31 everywhere, hence energy
 * <= 31 * interior cells, and well below a thousandth of the peak. */
static void test_energy_decays(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(80, 64, 11);
    rpl_rain_t rain = {3000, 1, 12, -8192, 8192};
    uint64_t peak = 0;
    for (int i = 0; i < 200; i++) {
        assert_int_equal(rpl_sim_rain(sim, &rain), RPL_OK);
        rpl_sim_step(sim);
        uint64_t e = rpl_sim_energy(sim);
        if (e > peak)
            peak = e;
    }
    assert_true(peak > 100000);
    for (int i = 0; i < 1500; i++)
        rpl_sim_step(sim);
    uint64_t e = rpl_sim_energy(sim);
    uint64_t bound = 31u * 78u * 62u;
    assert_true(e <= bound);
    assert_true(e * 1000 < peak);
    const int16_t *c = cur_of(sim);
    for (size_t i = 0, n = cells(sim); i < n; i++)
        assert_in_range(c[i] < 0 ? -c[i] : c[i], 0, 31);

    /* energy is the sum of |height| (hand: 3 + 8192 + 8191 + 0 = 16386) */
    rpl_sim_t *small = new_sim(4, 4, 1);
    int16_t cur[16] = {0}, prev[16] = {0};
    cur[5] = -3;
    cur[6] = -8192;
    cur[9] = 8191;
    prev[10] = 1000;
    assert_int_equal(rpl_sim_set_state(small, cur, prev), RPL_OK);
    assert_int_equal(rpl_sim_energy(small), 16386);
    rpl_sim_destroy(small);
    rpl_sim_destroy(sim);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_step_3x3_single_cell),
        cmocka_unit_test(test_step_4x4_hand),
        cmocka_unit_test(test_step_5x5_spike),
        cmocka_unit_test(test_step_clamp),
        cmocka_unit_test(test_step_matches_reference),
        cmocka_unit_test(test_zero_field_stays_zero),
        cmocka_unit_test(test_border_stays_zero),
        cmocka_unit_test(test_centred_drop_symmetric),
        cmocka_unit_test(test_energy_decays),
    };
    return cmocka_run_group_tests_name("step", tests, NULL, NULL);
}
