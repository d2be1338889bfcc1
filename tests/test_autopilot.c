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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_autopilot),
    };
    return cmocka_run_group_tests_name("autopilot", tests, NULL, NULL);
}
