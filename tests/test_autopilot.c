/* test_autopilot.c - the autopilot: scripted drops that are the same for the same seed and keep the field in contract (cmocka). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "ripple.h"
#include "util.h"

static void test_autopilot(void **state)
{
    (void)state;
    rpl_sim_t *a = new_sim(160, 120, 4), *b = new_sim(160, 120, 4), *c = new_sim(160, 120, 4);
    rpl_autopilot_t *pa = new_autopilot(31337), *pb = new_autopilot(31337);
    rpl_autopilot_t *pc = new_autopilot(31338);
    uint64_t max_energy = 0;
    for (int i = 0; i < 1000; i++) {
        rpl_autopilot_tick(pa, a);
        rpl_autopilot_tick(pb, b);
        rpl_autopilot_tick(pc, c);
        uint64_t e = rpl_sim_energy(a);
        if (e > max_energy)
            max_energy = e;
        rpl_sim_step(a);
        rpl_sim_step(b);
        rpl_sim_step(c);
    }
    assert_true(max_energy > 1000); /* it did drop stones */
    assert_plane_equal(cur_of(a), cur_of(b), cells(a));
    assert_plane_equal(prev_of(a), prev_of(b), cells(a));
    /* the same seed goes on alike: one more tick drops the same stones */
    rpl_autopilot_tick(pa, a);
    rpl_autopilot_tick(pb, b);
    assert_plane_equal(cur_of(a), cur_of(b), cells(a));
    assert_true(memcmp(cur_of(a), cur_of(c), cells(a) * sizeof *cur_of(a)) != 0);
    assert_border_zero(cur_of(a), 160, 120);
    assert_heights_in_range(cur_of(a), cells(a));

    /* tiny fields do not trip it */
    rpl_sim_t *t = new_sim(3, 3, 1);
    rpl_autopilot_t *pt = new_autopilot(0);
    for (int i = 0; i < 1500; i++) {
        rpl_autopilot_tick(pt, t);
        rpl_sim_step(t);
        assert_border_zero(cur_of(t), 3, 3);
    }
    rpl_autopilot_destroy(pt);
    rpl_autopilot_destroy(pa);
    rpl_autopilot_destroy(pb);
    rpl_autopilot_destroy(pc);
    rpl_sim_destroy(t);
    rpl_sim_destroy(a);
    rpl_sim_destroy(b);
    rpl_sim_destroy(c);
}

/* The kind of stones (1.1.0): discs by default, the same water as one
 * set to discs; bumps three times as wide, as light as the field's
 * shorter side is short of 480 cells (0.7 of that on the wave water): the
 * opening stone, on a 160x120 field, is a disc of radius 6 and weight 320
 * or a bump of radius 14 (18/160 of 120, rounded) and weight 75 (300 x
 * 120/480) or, on the wave water, 53 (x 0.7, rounded). */
static void test_autopilot_stones(void **state)
{
    (void)state;
    for (int wave = 0; wave <= 1; wave++) {
        rpl_sim_t *d = new_sim(160, 120, 4), *e = new_sim(160, 120, 4), *b = new_sim(160, 120, 4);
        rpl_sim_t *ref = new_sim(160, 120, 4);
        rpl_autopilot_t *pd = new_autopilot(5), *pe = new_autopilot(5), *pb = new_autopilot(5);
        if (wave) {
            rpl_wave_params_t wp = { 24.0, 1.2, 1.0, 1.0 / 60, 0.985 };
            assert_int_equal(rpl_sim_set_model(b, RPL_MODEL_WAVE, &wp), RPL_OK);
            assert_int_equal(rpl_sim_set_model(ref, RPL_MODEL_WAVE, &wp), RPL_OK);
        }
        assert_int_equal(rpl_autopilot_stones(pd), RPL_STONES_DISCS);
        assert_int_equal(rpl_autopilot_set_stones(pe, RPL_STONES_DISCS), RPL_OK);
        assert_int_equal(rpl_autopilot_set_stones(pb, RPL_STONES_BUMPS), RPL_OK);
        assert_int_equal(rpl_autopilot_stones(pb), RPL_STONES_BUMPS);
        rpl_autopilot_tick(pd, d);
        rpl_autopilot_tick(pe, e);
        rpl_autopilot_tick(pb, b);
        /* the opening stone, found by the bump's deepest cell */
        size_t lo = 0;
        for (size_t i = 0; i < cells(b); i++)
            if (cur_of(b)[i] < cur_of(b)[lo])
                lo = i;
        int x = (int)(lo % 160), y = (int)(lo / 160);
        assert_int_equal(cur_of(d)[lo], -320);
        assert_int_equal(cur_of(b)[lo], wave ? -53 : -75);
        assert_int_equal(rpl_sim_drop(ref, x, y, 6, 320), RPL_OK);
        if (!wave)
            assert_plane_equal(cur_of(d), cur_of(ref), cells(d));
        rpl_sim_reset(ref, 4);
        assert_int_equal(rpl_sim_bump(ref, x, y, 14, wave ? 53 : 75), RPL_OK);
        assert_plane_equal(cur_of(b), cur_of(ref), cells(b));
        /* and on: the default is discs, step after step */
        for (int i = 0; i < 600; i++) {
            rpl_sim_step(d);
            rpl_sim_step(e);
            rpl_sim_step(b);
            rpl_autopilot_tick(pd, d);
            rpl_autopilot_tick(pe, e);
            rpl_autopilot_tick(pb, b);
        }
        assert_plane_equal(cur_of(d), cur_of(e), cells(d));
        assert_heights_in_range(cur_of(b), cells(b));
        assert_border_zero(cur_of(b), 160, 120);
        /* a kind it does not know, or no autopilot: refused, the kind kept */
        assert_int_equal(rpl_autopilot_set_stones(pb, (rpl_stones)2), RPL_EINVAL);
        assert_true(strstr(rpl_autopilot_error(pb), "kind of stones") != NULL);
        assert_int_equal(rpl_autopilot_stones(pb), RPL_STONES_BUMPS);
        assert_int_equal(rpl_autopilot_set_stones(NULL, RPL_STONES_BUMPS), RPL_EINVAL);
        assert_int_equal(rpl_autopilot_stones(NULL), RPL_STONES_DISCS);
        rpl_autopilot_destroy(pd);
        rpl_autopilot_destroy(pe);
        rpl_autopilot_destroy(pb);
        rpl_sim_destroy(d);
        rpl_sim_destroy(e);
        rpl_sim_destroy(b);
        rpl_sim_destroy(ref);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_autopilot),
        cmocka_unit_test(test_autopilot_stones),
    };
    return cmocka_run_group_tests_name("autopilot", tests, NULL, NULL);
}
