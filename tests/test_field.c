/* test_field.c - the field itself: creation, rpl_sim_set_state, threads and sleeping tiles (cmocka). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ripple.h"
#include "util.h"

/* ---- creation, state -------------------------------------------------- */

static void test_create_sizes(void **state)
{
    (void)state;
    const int bad[][2] = {{2, 3}, {3, 2}, {0, 10}, {10, 0}, {-1, 10}, {10, -5},
                          {RPL_DIM_MAX + 1, 10}, {10, RPL_DIM_MAX + 1}, {INT_MAX, 10},
                          {10, INT_MIN}, {INT_MIN, INT_MAX}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rpl_status st = RPL_OK;
        {
            rpl_sim_t *f_ = NULL;
            st = rpl_sim_create(bad[i][0], bad[i][1], 1, &f_);
            assert_non_null(f_); /* a failed handle, which says why */
            assert_true(rpl_sim_error(f_)[0] != '\0');
            rpl_sim_destroy(f_);
        }
        assert_int_equal(st, RPL_EINVAL);
        assert_int_equal(rpl_sim_create(bad[i][0], bad[i][1], 1, NULL), RPL_EINVAL);
    }
    const int good[][2] = {{RPL_DIM_MIN, RPL_DIM_MIN}, {RPL_DIM_MAX, 3}, {3, RPL_DIM_MAX}};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        rpl_sim_t *sim = new_sim(good[i][0], good[i][1], 0);
        assert_int_equal(steps_of(sim), 0);
        assert_int_equal(rpl_sim_energy(sim), 0);
        assert_non_null(kern_of(sim));
        assert_string_equal(rpl_sim_error(sim), "");
        rpl_sim_destroy(sim);
    }
    rpl_sim_destroy(NULL); /* harmless */
}

static void test_set_state_rejects(void **state)
{
    (void)state;
    const int w = 7, h = 6;
    rpl_sim_t *sim = new_sim(w, h, 1);
    random_state(sim, 17, -1000, 1000);
    int16_t *c0 = copy_plane(cur_of(sim), cells(sim));
    int16_t *p0 = copy_plane(prev_of(sim), cells(sim));
    int16_t *good = new_plane(w, h);
    uint64_t s = 8;
    random_plane(good, w, h, &s, RPL_HEIGHT_MIN, RPL_HEIGHT_MAX);

    /* cell index and value that break the contract */
    const struct {
        int idx, v;
    } bad[] = {
        {1 * 7 + 1, 8192},  {2 * 7 + 3, -8193}, {3 * 7 + 3, 32767}, {4 * 7 + 5, -32768},
        {0, 1},             {3, -1},            {6, 5},             {2 * 7 + 0, 8191},
        {3 * 7 + 6, -8192}, {5 * 7 + 0, 1},     {5 * 7 + 3, 2},     {5 * 7 + 6, -3},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        for (int which = 0; which < 2; which++) {
            int16_t *b = copy_plane(good, cells(sim));
            b[bad[i].idx] = (int16_t)bad[i].v;
            rpl_status st = which ? rpl_sim_set_state(sim, good, b) : rpl_sim_set_state(sim, b, good);
            /* ripple.h does not name the status; RPL_EINVAL ("an argument
             * is out of range") or RPL_EFORMAT are both taken */
            if (st != RPL_EINVAL && st != RPL_EFORMAT)
                fail_msg("set_state with %d at %d (%s): status %d", bad[i].v, bad[i].idx,
                         which ? "prev" : "cur", st);
            assert_plane_equal(cur_of(sim), c0, cells(sim));
            assert_plane_equal(prev_of(sim), p0, cells(sim));
            free(b);
        }
    assert_int_equal(rpl_sim_set_state(sim, NULL, good), RPL_EINVAL);
    assert_int_equal(rpl_sim_set_state(sim, good, NULL), RPL_EINVAL);
    assert_int_equal(rpl_sim_set_state(NULL, good, good), RPL_EINVAL);
    assert_plane_equal(cur_of(sim), c0, cells(sim));

    /* the limits themselves are accepted and copied */
    int16_t *p2 = copy_plane(good, cells(sim));
    p2[1 * 7 + 1] = RPL_HEIGHT_MIN;
    p2[4 * 7 + 5] = RPL_HEIGHT_MAX;
    assert_int_equal(rpl_sim_set_state(sim, good, p2), RPL_OK);
    assert_plane_equal(cur_of(sim), good, cells(sim));
    assert_plane_equal(prev_of(sim), p2, cells(sim));
    free(p2);
    free(good);
    free(c0);
    free(p0);
    rpl_sim_destroy(sim);
}

/* The field's own buffers are valid arguments ("read the fields
 * freely"): passing them swapped must swap the state. */
static void test_set_state_own_buffers(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(9, 8, 1);
    random_state(sim, 21, -300, 300);
    int16_t *c0 = copy_plane(cur_of(sim), cells(sim));
    int16_t *p0 = copy_plane(prev_of(sim), cells(sim));
    /* same buffers in place: nothing changes */
    assert_int_equal(rpl_sim_set_state(sim, cur_of(sim), prev_of(sim)), RPL_OK);
    assert_plane_equal(cur_of(sim), c0, cells(sim));
    assert_plane_equal(prev_of(sim), p0, cells(sim));
    /* swapped */
    assert_int_equal(rpl_sim_set_state(sim, prev_of(sim), cur_of(sim)), RPL_OK);
    int cur_ok = memcmp(cur_of(sim), p0, cells(sim) * sizeof *p0) == 0;
    int prev_ok = memcmp(prev_of(sim), c0, cells(sim) * sizeof *c0) == 0;
    free(c0);
    free(p0);
    rpl_sim_destroy(sim);
    if (!cur_ok || !prev_ok)
        fail_msg("CORE BUG (rpl_sim_set_state copies cur before reading prev): "
                 "set_state(sim, prev_of(sim), cur_of(sim)) did not swap the buffers "
                 "(cur %s the old prev, prev %s the old cur)",
                 cur_ok ? "is" : "is not", prev_ok ? "is" : "is not");
}

/* ---- threads and sleeping tiles --------------------------------------- */

/* Runs the same scripted stones on fields that differ only in threads and
 * sleeping; after every step all buffers and frames must be equal to the
 * plain one (one thread, sleeping off, full render). */
static void run_variants(int w, int h, int steps, int drop_every, uint64_t seed)
{
    enum { NV = 5 };
    static const int threads[NV] = { 1, 1, 2, 3, 2 };
    static const int sleeping[NV] = { 0, 1, 1, 1, 0 };
    rpl_sim_t *v[NV];
    rpl_renderer_t *ren[NV];
    uint32_t *fb[NV];
    size_t npx = (size_t)w * h;
    uint32_t *bg = malloc(npx * 4);
    assert_non_null(bg);
    uint64_t r = seed;
    for (size_t i = 0; i < npx; i++)
        bg[i] = 0xFF000000u | (uint32_t)(rnd_next(&r) & 0xFFFFFF);
    /* the sleeping variants draw the raw background through a renderer,
     * which needs it as a backdrop */
    rpl_backdrop_t *bd = new_backdrop(bg, w, h, RPL_XRGB8888);
    for (int k = 0; k < NV; k++) {
        v[k] = new_sim(w, h, seed);
        assert_int_equal(rpl_sim_set_threads(v[k], threads[k]), RPL_OK);
        rpl_sim_set_sleeping(v[k], sleeping[k]);
        assert_int_equal(rpl_sim_sleeping(v[k]), sleeping[k]);
        rpl_status st = RPL_EIO;
        st = rpl_renderer_create(v[k], &ren[k]);
        assert_non_null(ren[k]);
        assert_int_equal(st, RPL_OK);
        fb[k] = malloc(npx * 4);
        assert_non_null(fb[k]);
    }
    rpl_view_t view = { RPL_STRENGTH_ONE, 1 };
    for (int s = 0; s < steps; s++) {
        if (s % drop_every == 0) {
            int x = rnd_range(&r, -5, w + 5), y = rnd_range(&r, -5, h + 5);
            int rad = rnd_range(&r, 1, 6), wt = rnd_range(&r, -2000, 2000);
            for (int k = 0; k < NV; k++)
                assert_int_equal(rpl_sim_drop(v[k], x, y, rad, wt), RPL_OK);
        }
        for (int k = 0; k < NV; k++) {
            rpl_sim_step(v[k]);
            /* the sleeping variants redraw only what changed */
            if (sleeping[k])
                assert_int_equal(rpl_renderer_draw(ren[k], bd, fb[k], (ptrdiff_t)w * 4, &view),
                                 RPL_OK);
            else
                assert_int_equal(rpl_refract(v[k], bg, fb[k], (ptrdiff_t)w * 4,
                                             RPL_XRGB8888, &view), RPL_OK);
        }
        for (int k = 1; k < NV; k++) {
            assert_memory_equal(cur_of(v[0]), cur_of(v[k]), npx * 2);
            assert_memory_equal(prev_of(v[0]), prev_of(v[k]), npx * 2);
            assert_memory_equal(fb[0], fb[k], npx * 4);
        }
    }
    for (int k = 0; k < NV; k++) {
        rpl_renderer_destroy(ren[k]); /* before its field */
        rpl_sim_destroy(v[k]);
        free(fb[k]);
    }
    rpl_backdrop_destroy(bd);
    free(bg);
}

static void test_threads_and_sleeping_same_bytes(void **state)
{
    (void)state;
    run_variants(3, 3, 50, 7, 1);
    run_variants(65, 33, 300, 9, 2);    /* one cell past a tile edge */
    run_variants(200, 97, 600, 60, 3);  /* calm between stones: tiles fall asleep */
    run_variants(130, 70, 400, 1, 4);   /* a stone every step */
}

static void test_sleeping_tiles_fall_asleep(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(320, 200, 5);
    rpl_stats_t st;
    rpl_sim_stats(sim, &st);
    /* 320/64 = 5 across, 200/32 rounded up = 7 down */
    assert_int_equal(st.tiles, 35);
    rpl_sim_step(sim);
    rpl_sim_stats(sim, &st);
    assert_int_equal(st.stepped, 0); /* still water: nothing to compute */
    assert_int_equal(rpl_sim_drop(sim, 160, 100, 4, 500), RPL_OK);
    rpl_sim_step(sim);
    rpl_sim_stats(sim, &st);
    /* the stone's tile (2, 3) and the neighbours whose edge it touches */
    assert_true(st.stepped >= 1 && st.stepped <= 5);
    uint32_t *bg = calloc(320 * 200, 4), *fb = calloc(320 * 200, 4);
    assert_non_null(bg);
    assert_non_null(fb);
    rpl_backdrop_t *bd = new_backdrop(bg, 320, 200, RPL_XRGB8888);
    rpl_renderer_t *ren;
    assert_int_equal(rpl_renderer_create(sim, &ren), RPL_OK);
    assert_non_null(ren);
    rpl_view_t view = { RPL_STRENGTH_ONE, 0 };
    assert_int_equal(rpl_refract(sim, bg, fb, 320 * 4, RPL_XRGB8888, &view), RPL_OK);
    rpl_sim_stats(sim, &st);
    assert_int_equal(st.rendered, 35); /* a full render draws every tile */
    int quiet = -1;
    for (int s = 0; s < 5000 && quiet < 0; s++) {
        rpl_sim_step(sim);
        assert_int_equal(rpl_renderer_draw(ren, bd, fb, 320 * 4, &view), RPL_OK);
        rpl_sim_stats(sim, &st);
        assert_int_equal(rpl_renderer_drawn(ren), st.rendered);
        if (rpl_sim_energy(sim) == 0 && st.stepped == 0)
            quiet = s;
    }
    assert_true(quiet > 0); /* the water comes to rest and every tile sleeps */
    /* one more changed-only draw draws nothing: all tiles show the background */
    assert_int_equal(rpl_renderer_draw(ren, bd, fb, 320 * 4, &view), RPL_OK);
    rpl_sim_stats(sim, &st);
    assert_int_equal(st.rendered, 0);
    assert_int_equal(rpl_renderer_drawn(ren), 0);
    /* a different view redraws everything */
    view.shading = 1;
    assert_int_equal(rpl_renderer_draw(ren, bd, fb, 320 * 4, &view), RPL_OK);
    rpl_sim_stats(sim, &st);
    assert_int_equal(st.rendered, 35);
    assert_int_equal(rpl_renderer_drawn(ren), 35);
    rpl_renderer_destroy(ren);
    rpl_backdrop_destroy(bd);
    free(bg);
    free(fb);
    rpl_sim_destroy(sim);
}

static void test_sleeping_after_set_state(void **state)
{
    (void)state;
    /* a state put in wholesale wakes exactly the tiles it needs */
    rpl_sim_t *a = new_sim(150, 90, 9), *b = new_sim(150, 90, 9);
    rpl_sim_set_sleeping(b, 0);
    random_state(a, 77, -300, 300);
    /* keep a patch across a tile corner (64, 32) and flatten the rest */
    int16_t *c = copy_plane(cur_of(a), cells(a)), *p = copy_plane(prev_of(a), cells(a));
    for (int y = 0; y < 90; y++)
        for (int x = 0; x < 150; x++)
            if (x < 58 || x > 70 || y < 28 || y > 36)
                c[y * 150 + x] = p[y * 150 + x] = 0;
    assert_int_equal(rpl_sim_set_state(a, c, p), RPL_OK);
    assert_int_equal(rpl_sim_set_state(b, c, p), RPL_OK);
    free(c);
    free(p);
    for (int s = 0; s < 200; s++) {
        rpl_sim_step(a);
        rpl_sim_step(b);
        assert_memory_equal(cur_of(a), cur_of(b), cells(a) * 2);
    }
    rpl_sim_destroy(a);
    rpl_sim_destroy(b);
}

static void test_set_threads_rejects(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(16, 16, 1);
    assert_int_equal(rpl_sim_set_threads(sim, 0), RPL_EINVAL);
    assert_int_equal(rpl_sim_set_threads(sim, -3), RPL_EINVAL);
    assert_int_equal(rpl_sim_set_threads(sim, RPL_THREADS_MAX + 1), RPL_EINVAL);
    assert_int_equal(threads_of(sim), 1);
    assert_int_equal(rpl_sim_set_threads(sim, RPL_THREADS_MAX), RPL_OK);
    rpl_sim_step(sim); /* more threads than strips: the extra ones find no work */
    assert_int_equal(rpl_sim_set_threads(sim, 1), RPL_OK);
    assert_int_equal(rpl_sim_set_threads(NULL, 2), RPL_EINVAL);
    assert_true(rpl_cpu_count() >= 1);
    rpl_sim_destroy(sim);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_sizes),
        cmocka_unit_test(test_set_state_rejects),
        cmocka_unit_test(test_set_state_own_buffers),
        cmocka_unit_test(test_threads_and_sleeping_same_bytes),
        cmocka_unit_test(test_sleeping_tiles_fall_asleep),
        cmocka_unit_test(test_sleeping_after_set_state),
        cmocka_unit_test(test_set_threads_rejects),
    };
    return cmocka_run_group_tests_name("field", tests, NULL, NULL);
}
