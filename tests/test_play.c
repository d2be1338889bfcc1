/* test_play.c - the pool's play (src/play): its start for a size, stones by size, the wave keys' refusals, the show's view handed on, the backdrop made again only when the walls or the picture change, and the timedemo's pool scenes and shows against their pinned CRCs (cmocka). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "play/play.h"
#include "ripple.h"
#include "util.h"

/* A pool of w x h from seed, the rain and the autopilot as the demo starts them. */
static play_t *new_play(int w, int h, uint64_t seed, unsigned flags)
{
    play_config_t cfg = { .w = w, .h = h, .seed = seed, .format = RPL_XRGB8888,
                          .flags = flags, .rain = 1, .autopilot = 1 };
    play_t *p = NULL;
    assert_int_equal(play_create(&cfg, &p), RPL_OK);
    assert_non_null(p);
    assert_string_equal(play_error(p), "");
    return p;
}

/* The start for each size: light on at 1:1, the rain and stones sized by
 * the field's unit (its shorter side / 240), the wave defaults. */
static void test_start_state(void **state)
{
    (void)state;
    static const struct { int w, h, unit; } sizes[] = {
        { 100, 100, 1 }, { 640, 480, 2 }, { 1920, 1080, 4 }, { 3, 3000, 1 },
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        play_t *p = new_play(sizes[i].w, sizes[i].h, 1, 0);
        int u = sizes[i].unit;
        assert_int_equal(play_unit(sizes[i].w, sizes[i].h), u);
        assert_int_equal(play_get(p, PLAY_STONE), PLAY_STONE_UNITS * u);
        assert_int_equal(play_get(p, PLAY_STRENGTH), PLAY_STRENGTH_SMOOTH);
        assert_int_equal(play_get(p, PLAY_STONES), PLAY_STONES_SMOOTH);
        assert_int_equal(play_get(p, PLAY_LIGHT), 1);
        assert_int_equal(play_get(p, PLAY_RAIN), 1);
        assert_int_equal(play_get(p, PLAY_AUTO), 1);
        assert_int_equal(play_get(p, PLAY_MODEL), 0);
        assert_int_equal(play_get(p, PLAY_SHOW), 0);
        rpl_rain_t r = play_rain(sizes[i].w, sizes[i].h);
        assert_int_equal(r.rmin, u);
        assert_int_equal(r.rmax, 2 * u);
        assert_int_equal(r.per_kilostep, PLAY_RAIN_PER_KILOSTEP);
        rpl_wave_params_t d = PLAY_WAVE_DEFAULTS;
        assert_memory_equal(play_wave(p), &d, sizeof d);
        /* the smooth rain: radii 0.055..0.08 of the shorter side, weights
         * 250..430 at 480 cells, rounded (by hand) */
        static const rpl_rain_t smooth[] = {
            { 120, 6, 8, 52, 90 }, { 120, 26, 38, 250, 430 }, { 120, 59, 86, 563, 968 },
            { 120, 1, 1, 2, 3 },
        };
        r = play_rain_smooth(sizes[i].w, sizes[i].h);
        assert_memory_equal(&r, &smooth[i], sizeof r);
        assert_null(play_backdrop(p));
        assert_int_equal(play_draw(p, NULL, 0), RPL_EINVAL); /* no picture yet */
        play_destroy(p);
    }
    /* the options' start: no rain, no autopilot */
    play_config_t cfg = { .w = 64, .h = 64, .seed = 1, .format = RPL_RGB565 };
    play_t *p = NULL;
    assert_int_equal(play_create(&cfg, &p), RPL_OK);
    assert_int_equal(play_get(p, PLAY_RAIN), 0);
    assert_int_equal(play_get(p, PLAY_AUTO), 0);
    play_destroy(p);
    play_destroy(NULL);
}

/* A size or format refused: a pool that says why, to be destroyed. */
static void test_create_refuses(void **state)
{
    (void)state;
    play_config_t cfg = { .w = 2, .h = 100, .seed = 1, .format = RPL_XRGB8888 };
    play_t *p = NULL;
    assert_int_equal(play_create(&cfg, &p), RPL_EINVAL);
    assert_non_null(p);
    assert_non_null(strstr(play_error(p), "cannot create a 2x100 field"));
    assert_int_equal(play_step(p, 1), RPL_EINVAL); /* a failed pool does nothing */
    play_destroy(p);
    cfg.w = 100;
    cfg.format = (rpl_format)7;
    assert_int_equal(play_create(&cfg, &p), RPL_EINVAL);
    assert_non_null(strstr(play_error(p), "format"));
    play_destroy(p);
    assert_int_equal(play_create(NULL, &p), RPL_EINVAL);
    play_destroy(p);
    assert_int_equal(play_create(&cfg, NULL), RPL_EINVAL);
    assert_string_equal(play_error(NULL), "out of memory");
}

/* A click is the user's stone, a big click twice its size and weight, a
 * drag half-size stones at half the weight: the same water as the
 * field's own calls with those sizes. */
static void test_stones_by_size(void **state)
{
    (void)state;
    play_t *p = new_play(200, 160, 3, 0);
    assert_int_equal(play_set(p, PLAY_STONES, PLAY_STONES_CLASSIC), PLAY_STONES_CLASSIC);
    rpl_sim_t *ref = new_sim(200, 160, 3);
    int s = play_get(p, PLAY_STONE);
    assert_int_equal(play_stone(p, 50, 40, 0), RPL_OK);
    assert_int_equal(rpl_sim_drop(ref, 50, 40, s, PLAY_STONE_WEIGHT), RPL_OK);
    assert_int_equal(play_stone(p, 120, 90, 1), RPL_OK);
    assert_int_equal(rpl_sim_drop(ref, 120, 90, 2 * s, 2 * PLAY_STONE_WEIGHT), RPL_OK);
    assert_int_equal(play_trail(p, 10, 10, 90, 140), RPL_OK);
    assert_int_equal(rpl_sim_trail(ref, 10, 10, 90, 140, s / 2, PLAY_STONE_WEIGHT / 2), RPL_OK);
    assert_memory_equal(rpl_sim_heights(play_sim(p)), rpl_sim_heights(ref), 200 * 160 * 2);
    /* the sizes are held to their range, a big stone's too */
    assert_int_equal(play_set(p, PLAY_STONE, 0), PLAY_STONE_MIN);
    assert_int_equal(play_set(p, PLAY_STONE, 99), PLAY_STONE_MAX);
    assert_int_equal(play_stone(p, 100, 80, 1), RPL_OK);
    assert_int_equal(rpl_sim_drop(ref, 100, 80, PLAY_STONE_MAX, 2 * PLAY_STONE_WEIGHT), RPL_OK);
    assert_int_equal(play_set(p, PLAY_STONE, 2), 2);
    assert_int_equal(play_trail(p, 0, 0, 30, 30), RPL_OK); /* a stone of 2: a trail of 1 */
    assert_int_equal(rpl_sim_trail(ref, 0, 0, 30, 30, 1, PLAY_STONE_WEIGHT / 2), RPL_OK);
    assert_memory_equal(rpl_sim_heights(play_sim(p)), rpl_sim_heights(ref), 200 * 160 * 2);
    assert_int_equal(play_stone_size(-5), PLAY_STONE_MIN);
    /* the other settings, held too */
    assert_int_equal(play_set(p, PLAY_STRENGTH, 1000), PLAY_STRENGTH_MAX);
    assert_int_equal(play_set(p, PLAY_STRENGTH, -1), 0);
    assert_int_equal(play_set(p, PLAY_RAIN, 5), 1);
    assert_int_equal(play_set(p, PLAY_SHOW, 1), 0); /* read only */
    assert_int_equal(play_get(p, (play_setting)99), -1);
    assert_int_equal(play_view(p).strength, 0);
    rpl_sim_destroy(ref);
    play_destroy(p);
}

/* Smooth stones (the default): a click is a bump three times the stone's
 * radius weighing 18 a cell of it, the right button's of twice the size;
 * a drag's beads of half the size, 9 a cell, every half radius along
 * the path however the path is cut into motions; on the wave water
 * seven tenths as heavy. */
static void test_smooth_stones(void **state)
{
    (void)state;
    play_t *p = new_play(200, 160, 3, 0);
    rpl_sim_t *ref = new_sim(200, 160, 3);
    assert_int_equal(play_get(p, PLAY_STONES), PLAY_STONES_SMOOTH);
    assert_int_equal(play_set(p, PLAY_STONE, 4), 4);
    assert_int_equal(play_stone(p, 50, 40, 0), RPL_OK);
    assert_int_equal(rpl_sim_bump(ref, 50, 40, 12, 216), RPL_OK);
    assert_int_equal(play_stone(p, 120, 90, 1), RPL_OK);
    assert_int_equal(rpl_sim_bump(ref, 120, 90, 24, 432), RPL_OK);
    assert_memory_equal(rpl_sim_heights(play_sim(p)), rpl_sim_heights(ref), 200 * 160 * 2);
    /* a drag along row 100 from x 10 to 110: beads of radius 6, weight 54,
     * 3 cells apart after the press (at 13, 16, ..., 109), in one motion,
     * in ten, and in a hundred of a cell each */
    for (int k = 1; 10 + 3 * k <= 110; k++)
        assert_int_equal(rpl_sim_bump(ref, 10 + 3 * k, 100, 6, 54), RPL_OK);
    assert_int_equal(play_trail(p, 10, 100, 110, 100), RPL_OK);
    assert_memory_equal(rpl_sim_heights(play_sim(p)), rpl_sim_heights(ref), 200 * 160 * 2);
    for (int cut = 10; cut >= 1; cut /= 10) {
        play_t *q = new_play(200, 160, 3, 0);
        assert_int_equal(play_set(q, PLAY_STONE, 4), 4);
        assert_int_equal(play_stone(q, 50, 40, 0), RPL_OK);
        assert_int_equal(play_stone(q, 120, 90, 1), RPL_OK);
        for (int x = 10; x < 110; x += cut)
            assert_int_equal(play_trail(q, x, 100, x + cut, 100), RPL_OK);
        assert_memory_equal(rpl_sim_heights(play_sim(q)), rpl_sim_heights(ref), 200 * 160 * 2);
        play_destroy(q);
    }
    /* a new drag counts from its own start: a bead 3 cells on */
    assert_int_equal(play_trail(p, 30, 20, 34, 20), RPL_OK);
    assert_int_equal(rpl_sim_bump(ref, 33, 20, 6, 54), RPL_OK);
    assert_memory_equal(rpl_sim_heights(play_sim(p)), rpl_sim_heights(ref), 200 * 160 * 2);
    /* the wave water: 0.7 of the weights */
    assert_int_equal(play_set(p, PLAY_MODEL, 1), 1);
    assert_int_equal(rpl_sim_set_model(ref, RPL_MODEL_WAVE, play_wave(p)), RPL_OK);
    assert_int_equal(play_stone(p, 150, 50, 0), RPL_OK);
    assert_int_equal(rpl_sim_bump(ref, 150, 50, 12, 151), RPL_OK);
    assert_memory_equal(rpl_sim_heights(play_sim(p)), rpl_sim_heights(ref), 200 * 160 * 2);
    rpl_sim_destroy(ref);
    play_destroy(p);
}

/* The switch of stones and the strength: each kind starts at its own
 * (4/16 smooth, 16/16 classic), and the switch moves a strength at one
 * kind's start to the other's, leaving one the user chose alone. */
static void test_stones_switch(void **state)
{
    (void)state;
    play_t *p = new_play(64, 48, 1, 0);
    assert_int_equal(play_get(p, PLAY_STRENGTH), 4);
    assert_int_equal(play_set(p, PLAY_STONES, PLAY_STONES_CLASSIC), PLAY_STONES_CLASSIC);
    assert_int_equal(play_get(p, PLAY_STRENGTH), 16);
    assert_int_equal(play_set(p, PLAY_STONES, 7), PLAY_STONES_CLASSIC); /* any nonzero */
    assert_int_equal(play_get(p, PLAY_STRENGTH), 16);
    assert_int_equal(play_set(p, PLAY_STONES, PLAY_STONES_SMOOTH), PLAY_STONES_SMOOTH);
    assert_int_equal(play_get(p, PLAY_STRENGTH), 4);
    assert_int_equal(play_set(p, PLAY_STRENGTH, 10), 10);
    assert_int_equal(play_set(p, PLAY_STONES, PLAY_STONES_CLASSIC), PLAY_STONES_CLASSIC);
    assert_int_equal(play_get(p, PLAY_STRENGTH), 10);
    assert_int_equal(play_set(p, PLAY_STONES, PLAY_STONES_SMOOTH), PLAY_STONES_SMOOTH);
    assert_int_equal(play_get(p, PLAY_STRENGTH), 10);
    /* the D key of the window and the page: the switch, said in a line */
    char msg[128] = "";
    assert_int_equal(play_set(p, PLAY_STRENGTH, 4), 4);
    assert_int_equal(play_key(p, 'd', msg, sizeof msg), 1);
    assert_int_equal(play_get(p, PLAY_STONES), PLAY_STONES_CLASSIC);
    assert_string_equal(msg, "classic stones (flat discs)  refraction 16/16");
    assert_int_equal(play_key(p, 'd', msg, sizeof msg), 1);
    assert_int_equal(play_get(p, PLAY_STONES), PLAY_STONES_SMOOTH);
    assert_string_equal(msg, "smooth stones  refraction 4/16");
    play_destroy(p);
}

/* The wave keys: W switches the water, Z X V B step its settings; a step
 * the core refuses changes nothing and says why. */
static void test_wave_keys(void **state)
{
    (void)state;
    play_t *p = new_play(64, 48, 1, 0);
    char msg[256];
    assert_int_equal(play_key(p, 'q', msg, sizeof msg), 0);
    /* a step while classic: kept for the wave water, the water untouched */
    assert_int_equal(play_key(p, 'x', msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "(W: wave water)"));
    assert_int_equal(play_get(p, PLAY_MODEL), 0);
    assert_int_equal(play_key(p, 'w', msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "wave k"));
    assert_int_equal(play_get(p, PLAY_MODEL), 1);
    assert_memory_equal(rpl_sim_wave_params(play_sim(p)), play_wave(p), sizeof(rpl_wave_params_t));
    /* faster and faster until the core refuses: nothing changes then */
    int refused = 0;
    for (int i = 0; i < 60 && !refused; i++) {
        rpl_wave_params_t before = *play_wave(p);
        play_key(p, 'x', msg, sizeof msg);
        refused = strstr(msg, "refused") != NULL;
        if (refused) {
            assert_memory_equal(play_wave(p), &before, sizeof before);
            assert_memory_equal(rpl_sim_wave_params(play_sim(p)), &before, sizeof before);
            assert_int_equal(play_wave_step(p, 1, 0), RPL_EINVAL);
            assert_true(strlen(play_error(p)) > 0);
            assert_memory_equal(play_wave(p), &before, sizeof before);
        }
    }
    assert_true(refused);
    assert_int_equal(play_get(p, PLAY_MODEL), 1);
    /* the viscosity up and down, and back to the classic water */
    assert_int_equal(play_key(p, 'b', msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "viscosity"));
    assert_int_equal(play_key(p, 'v', msg, sizeof msg), 1);
    assert_int_equal(play_key(p, 'w', msg, sizeof msg), 1);
    assert_string_equal(msg, "classic water");
    assert_int_equal(play_get(p, PLAY_MODEL), 0);
    /* settings the core refuses from the start: the wave water is refused, the water stays */
    rpl_wave_params_t bad = *play_wave(p);
    bad.speed = 1000;
    play_set_wave(p, &bad);
    assert_int_equal(play_key(p, 'w', msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "wave water refused"));
    assert_int_equal(play_get(p, PLAY_MODEL), 0);
    assert_int_equal(play_set(p, PLAY_MODEL, 1), 0);
    play_destroy(p);
}

/* The pictures the show asked for, through the front end's hook. */
typedef struct asked {
    char names[8][32];
    int n, refuse;
    play_t *p;
} asked_t;

static int on_picture(void *user, const char *name)
{
    asked_t *a = user;
    if (a->n < 8)
        snprintf(a->names[a->n++], sizeof a->names[0], "%s", name);
    if (a->refuse)
        return -1;
    uint32_t px = 0xFF204060u;
    assert_int_equal(play_set_picture(a->p, &px, 1, 1, 4), RPL_OK);
    return 0;
}

/* The show's view is the pool's: light, strength, the stone's size, the
 * rain (the user's when it changes), the picture through the hook, once
 * per change; refused, it is asked for again at the next change. */
static void test_show_view(void **state)
{
    (void)state;
    asked_t asked = { .n = 0 };
    play_config_t cfg = { .w = 240, .h = 240, .seed = 1, .format = RPL_XRGB8888, .rain = 1,
                          .autopilot = 1, .picture = on_picture, .user = &asked };
    play_t *p = NULL;
    assert_int_equal(play_create(&cfg, &p), RPL_OK);
    asked.p = p;
    const char *text = "ripple-show 1\n"
                       "@0 light off\n"
                       "   strength 0.5\n"
                       "   stone 0.05\n"
                       "   rain 60 0.01 0.02 100 200\n"
                       "   picture a.png\n"
                       "@2 picture a.png\n"
                       "@3 picture default\n"
                       "@4 rain off\n"
                       "@5 stones classic\n"
                       "@6 end\n";
    rpl_show_t *show = NULL;
    assert_int_equal(rpl_show_parse(text, strlen(text), "view.show", &show), RPL_OK);
    assert_int_equal(play_set_show(p, show), RPL_OK);
    assert_ptr_equal(play_show(p), show);
    assert_int_equal(play_get(p, PLAY_SHOW), 1);
    assert_int_equal(play_get(p, PLAY_RAIN), 0); /* the show decides */
    assert_int_equal(play_step(p, 1), RPL_OK);
    assert_int_equal(play_get(p, PLAY_LIGHT), 0);
    assert_int_equal(play_get(p, PLAY_STRENGTH), RPL_STRENGTH_ONE / 2);
    assert_int_equal(play_get(p, PLAY_STONE), 12);
    assert_int_equal(play_get(p, PLAY_RAIN), 1);
    assert_int_equal(asked.n, 1);
    assert_string_equal(asked.names[0], "a.png");
    assert_int_equal(play_step(p, 1), RPL_OK);
    assert_int_equal(play_step(p, 1), RPL_OK); /* a.png again: shown already */
    assert_int_equal(asked.n, 1);
    assert_int_equal(play_step(p, 1), RPL_OK);
    assert_int_equal(asked.n, 2);
    assert_string_equal(asked.names[1], "default");
    assert_int_equal(play_step(p, 1), RPL_OK);
    assert_int_equal(play_get(p, PLAY_RAIN), 0);
    /* the show's stones for the user: classic; the strength the show set stays */
    assert_int_equal(play_get(p, PLAY_STONES), PLAY_STONES_SMOOTH);
    assert_int_equal(play_step(p, 1), RPL_OK);
    assert_int_equal(play_get(p, PLAY_STONES), PLAY_STONES_CLASSIC);
    assert_int_equal(play_get(p, PLAY_STRENGTH), RPL_STRENGTH_ONE / 2);
    /* the user busy: the show waits, the rain is the user's */
    play_set(p, PLAY_RAIN, 1);
    uint64_t steps = rpl_sim_steps(play_sim(p));
    assert_int_equal(play_step(p, 0), RPL_OK);
    assert_int_equal(rpl_sim_steps(play_sim(p)), steps + 1);
    assert_int_equal(play_get(p, PLAY_RAIN), 1);
    /* a refused picture is asked for again */
    asked.refuse = 1;
    text = "ripple-show 1\n@0 picture b.png\n@1 picture b.png\n@3 end\n";
    assert_int_equal(rpl_show_parse(text, strlen(text), "b.show", &show), RPL_OK);
    assert_int_equal(play_set_show(p, show), RPL_OK);
    assert_int_equal(play_step(p, 1), RPL_OK);
    assert_int_equal(play_step(p, 1), RPL_OK);
    assert_int_equal(asked.n, 4);
    assert_string_equal(asked.names[3], "b.png");
    /* no show: the autopilot and the rain again */
    assert_int_equal(play_set_show(p, NULL), RPL_OK);
    assert_null(play_show(p));
    assert_int_equal(play_get(p, PLAY_RAIN), 1);
    play_destroy(p);
}

/* The backdrop is made again when the picture or the walls change, and
 * only then: the same one otherwise, step after step.  It is the picture
 * with the walls drawn in as stone (red and blue swapped when asked). */
static void test_backdrop_repaint(void **state)
{
    (void)state;
    for (int swap = 0; swap <= 1; swap++) {
        int w = 48, h = 32;
        play_t *p = new_play(w, h, 1, swap ? PLAY_SWAP_RB : 0);
        play_set(p, PLAY_RAIN, 0);
        play_set(p, PLAY_AUTO, 0);
        uint32_t *pic = random_bg(w, h, 5);
        for (int i = 0; i < w * h; i++)
            pic[i] |= 0xFF000000u;
        assert_int_equal(play_check_picture(p, pic, w, h, (ptrdiff_t)w * 4), RPL_OK);
        assert_null(play_backdrop(p)); /* checked, not shown */
        assert_int_equal(play_set_picture(p, pic, w, h, (ptrdiff_t)w * 4), RPL_OK);
        const rpl_backdrop_t *bd = play_backdrop(p);
        assert_non_null(bd);
        for (int i = 0; i < 5; i++)
            assert_int_equal(play_step(p, 1), RPL_OK);
        play_update(p);
        assert_ptr_equal(play_backdrop(p), bd);
        /* walls: drawn in once */
        assert_int_equal(play_repainted(p), 0);
        assert_int_equal(rpl_sim_wall_rect(play_sim(p), 10, 10, 20, 20, 1), RPL_OK);
        assert_int_equal(play_step(p, 1), RPL_OK);
        const rpl_backdrop_t *walled = play_backdrop(p);
        uint64_t once = play_repainted(p);
        assert_true(once > 0);
        assert_int_equal(play_step(p, 1), RPL_OK);
        play_update(p);
        assert_ptr_equal(play_backdrop(p), walled);
        assert_int_equal(play_repainted(p), once);
        uint32_t *want = xmalloc((size_t)w * h * 4);
        memcpy(want, pic, (size_t)w * h * 4);
        play_walls_paint(want, rpl_sim_walls(play_sim(p)), w, h);
        for (int i = 0; swap && i < w * h; i++)
            want[i] = 0xFF000000u | (want[i] & 0xFF00u) | (want[i] & 0xFFu) << 16 |
                      (want[i] >> 16 & 0xFFu);
        const uint32_t *got = rpl_backdrop_pixels(walled);
        for (int i = 0; i < w * h; i++)
            assert_int_equal(got[i] & 0xFFFFFFu, want[i] & 0xFFFFFFu);
        /* a new picture: a new backdrop, the walls still in it */
        assert_int_equal(play_set_picture(p, pic, w, h, (ptrdiff_t)w * 4), RPL_OK);
        assert_ptr_not_equal(play_backdrop(p), walled);
        got = rpl_backdrop_pixels(play_backdrop(p));
        for (int i = 0; i < w * h; i++)
            assert_int_equal(got[i] & 0xFFFFFFu, want[i] & 0xFFFFFFu);
        /* a refused picture keeps the one shown */
        const rpl_backdrop_t *now = play_backdrop(p);
        assert_int_equal(play_set_picture(p, NULL, w, h, (ptrdiff_t)w * 4), RPL_EINVAL);
        assert_true(strlen(play_error(p)) > 0);
        assert_ptr_equal(play_backdrop(p), now);
        /* the walls gone: the bare picture again, once */
        assert_int_equal(rpl_sim_wall_rect(play_sim(p), 10, 10, 20, 20, 0), RPL_OK);
        once = play_repainted(p);
        play_update(p);
        assert_true(play_repainted(p) > once);
        once = play_repainted(p);
        play_update(p);
        assert_int_equal(play_repainted(p), once);
        got = rpl_backdrop_pixels(play_backdrop(p));
        for (int i = 0; i < w * h; i++) {
            uint32_t v = pic[i];
            uint32_t bare = swap ? (v & 0xFF00u) | (v & 0xFFu) << 16 | (v >> 16 & 0xFFu) : v;
            assert_int_equal(got[i] & 0xFFFFFFu, bare & 0xFFFFFFu);
        }
        /* the frame: calm water shows the picture */
        uint32_t *fb = xmalloc((size_t)w * h * 4);
        play_set(p, PLAY_LIGHT, 0);
        play_reset(p);
        assert_int_equal(play_draw(p, fb, (ptrdiff_t)w * 4), RPL_OK);
        uint32_t v = pic[0];
        uint32_t shown = swap ? (v & 0xFF00u) | (v & 0xFFu) << 16 | (v >> 16 & 0xFFu) : v;
        assert_int_equal(fb[0] & 0xFFFFFFu, shown & 0xFFFFFFu);
        free(fb);
        free(want);
        free(pic);
        play_destroy(p);
    }
}

/* The backdrop rpl_backdrop_create makes of pic with p's walls drawn in,
 * as play makes it whole. */
static rpl_backdrop_t *whole_backdrop(const play_t *p, const uint32_t *pic, int w, int h,
                                      rpl_format f, int swap)
{
    uint32_t *work = xmalloc((size_t)w * h * 4);
    memcpy(work, pic, (size_t)w * h * 4);
    if (rpl_sim_walls(play_sim(p)))
        play_walls_paint(work, rpl_sim_walls(play_sim(p)), w, h);
    for (int i = 0; swap && i < w * h; i++)
        work[i] = 0xFF000000u | (work[i] & 0xFF00u) | (work[i] & 0xFFu) << 16 |
                  (work[i] >> 16 & 0xFFu);
    rpl_backdrop_t *bd = new_backdrop(work, w, h, f);
    free(work);
    return bd;
}

static void assert_backdrops_equal(const rpl_backdrop_t *a, const rpl_backdrop_t *b, int w, int h)
{
    rpl_format f = rpl_backdrop_format(a);
    assert_int_equal(rpl_backdrop_format(b), f);
    assert_memory_equal(rpl_backdrop_pixels(a), rpl_backdrop_pixels(b),
                        (size_t)w * h * (size_t)rpl_format_bytes(f));
    if (f != RPL_INDEX8)
        return;
    assert_int_equal(rpl_backdrop_colors(a), rpl_backdrop_colors(b));
    assert_memory_equal(rpl_backdrop_palette(a), rpl_backdrop_palette(b), 256 * 4);
    assert_memory_equal(rpl_backdrop_shade_table(a), rpl_backdrop_shade_table(b),
                        (size_t)RPL_SHADE_LEVELS * 256);
}

/* Walls that move step after step are drawn again in place, only around
 * where they changed, and the backdrop and the frame are byte for byte
 * what making them whole gives: in every format, red and blue swapped or
 * not, on a picture of many colours (INDEX8: the median cut) and of few
 * (INDEX8: the colours themselves). */
static void test_backdrop_in_place(void **state)
{
    (void)state;
    const rpl_format fmts[3] = { RPL_XRGB8888, RPL_RGB565, RPL_INDEX8 };
    int w = 64, h = 48;
    for (int k = 0; k < 12; k++) {
        rpl_format f = fmts[k % 3];
        int swap = k / 3 % 2, few = k / 6;
        play_config_t cfg = { .w = w, .h = h, .seed = 3, .format = f,
                              .flags = swap ? PLAY_SWAP_RB : 0 };
        play_t *p = NULL;
        assert_int_equal(play_create(&cfg, &p), RPL_OK);
        uint32_t *pic = random_bg(w, h, 11 + (uint64_t)k);
        /* many colours, but near each other, as a photograph's */
        for (int i = 0; i < w * h; i++)
            pic[i] = 0xFF000000u | (few ? 0x203040u * (uint32_t)(pic[i] % 5)
                                        : (uint32_t)(i % w * 3) << 16 | (uint32_t)(i / w * 4) << 8 |
                                              (pic[i] & 0x1Fu));
        assert_int_equal(play_set_picture(p, pic, w, h, (ptrdiff_t)w * 4), RPL_OK);
        size_t bytes = (size_t)w * h * (size_t)rpl_format_bytes(f);
        unsigned char *fb = xmalloc(bytes), *want = xmalloc(bytes);
        rpl_view_t view = play_view(p);
        uint64_t rnd = 77 + (uint64_t)k;
        rpl_sim_t *sim = play_sim(p);
        for (int it = 0; it < 12; it++) {
            int x = rnd_range(&rnd, -4, w), y = rnd_range(&rnd, -4, h);
            int kind = rnd_range(&rnd, 0, 9);
            if (kind < 7)
                assert_int_equal(rpl_sim_wall_rect(sim, x, y, rnd_range(&rnd, 1, 6),
                                                   rnd_range(&rnd, 1, 6), kind < 4), RPL_OK);
            else if (kind < 9)
                assert_int_equal(rpl_sim_wall_line(sim, x, y, rnd_range(&rnd, 0, w),
                                                   rnd_range(&rnd, 0, h), rnd_range(&rnd, 1, 3),
                                                   kind == 7), RPL_OK);
            else
                assert_int_equal(rpl_sim_wall_rect(sim, 0, 0, w, h, 0), RPL_OK);
            if (rnd_range(&rnd, 0, 3) == 0) /* two changes in one update */
                assert_int_equal(rpl_sim_wall_rect(sim, rnd_range(&rnd, 0, w - 2),
                                                   rnd_range(&rnd, 0, h - 2), 2, 2, 1), RPL_OK);
            assert_int_equal(play_draw(p, fb, (ptrdiff_t)w * rpl_format_bytes(f)), RPL_OK);
            rpl_backdrop_t *whole = whole_backdrop(p, pic, w, h, f, swap);
            assert_backdrops_equal(play_backdrop(p), whole, w, h);
            assert_int_equal(rpl_render(sim, whole, want, (ptrdiff_t)w * rpl_format_bytes(f),
                                        &view), RPL_OK);
            assert_memory_equal(fb, want, bytes);
            rpl_backdrop_destroy(whole);
        }
        /* a 2x2 wall toggled step after step: the backdrop stays, and each
         * toggle paints the 4x4 pixels the wall and its rim reach */
        assert_int_equal(rpl_sim_wall_rect(sim, 40, 30, 2, 2, 1), RPL_OK);
        play_update(p);
        const rpl_backdrop_t *kept = play_backdrop(p);
        uint64_t before = play_repainted(p);
        for (int it = 0; it < 10; it++) {
            assert_int_equal(rpl_sim_wall_rect(sim, 40, 30, 2, 2, it % 2), RPL_OK);
            assert_int_equal(play_step(p, 1), RPL_OK);
            assert_ptr_equal(play_backdrop(p), kept);
        }
        assert_int_equal(play_repainted(p) - before, 10 * 4 * 4);
        free(fb);
        free(want);
        free(pic);
        play_destroy(p);
    }
}

/* The field says where its walls changed since a serial: the box of the
 * changes after it, the whole field for a serial it never had. */
static void test_walls_changed(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(200, 100, 1);
    int box[4];
    assert_int_equal(rpl_sim_walls_changed(sim, 0, box), 0);
    assert_int_equal(rpl_sim_wall_rect(sim, 10, 20, 2, 3, 1), RPL_OK);
    uint64_t s1 = rpl_sim_walls_serial(sim);
    assert_int_equal(rpl_sim_wall_rect(sim, 50, 60, 4, 1, 1), RPL_OK);
    assert_int_equal(rpl_sim_walls_changed(sim, s1, box), 1);
    assert_int_equal(box[0], 50), assert_int_equal(box[1], 60);
    assert_int_equal(box[2], 4), assert_int_equal(box[3], 1);
    assert_int_equal(rpl_sim_walls_changed(sim, 0, box), 1);
    assert_int_equal(box[0], 10), assert_int_equal(box[1], 20);
    assert_int_equal(box[2], 44), assert_int_equal(box[3], 41);
    assert_int_equal(rpl_sim_walls_changed(sim, rpl_sim_walls_serial(sim), box), 0);
    /* many changes: the old ones merge, none is lost */
    for (int i = 0; i < 40; i++)
        assert_int_equal(rpl_sim_wall_rect(sim, 100 + i, 5, 1, 1, 1), RPL_OK);
    assert_int_equal(rpl_sim_walls_changed(sim, s1, box), 1);
    assert_true(box[0] <= 50 && box[1] <= 5);
    assert_true(box[0] + box[2] >= 140 && box[1] + box[3] >= 61);
    assert_true(box[0] >= 10 && box[0] + box[2] <= 140);
    assert_int_equal(rpl_sim_walls_changed(sim, rpl_sim_walls_serial(sim) - 1, box), 1);
    assert_int_equal(box[0], 139), assert_int_equal(box[1], 5);
    assert_int_equal(box[2], 1), assert_int_equal(box[3], 1);
    assert_int_equal(rpl_sim_walls_changed(sim, rpl_sim_walls_serial(sim) + 1, box), 1);
    assert_int_equal(box[2], 200), assert_int_equal(box[3], 100);
    rpl_sim_destroy(sim);
}

/* CRC-32 of the pool's heights, as the timedemo's report gives it. */
static uint32_t water_crc(const play_t *p)
{
    const rpl_sim_t *sim = play_sim(p);
    return crc_plane(0, rpl_sim_heights(sim),
                     (size_t)rpl_sim_width(sim) * (size_t)rpl_sim_height(sim));
}

/* busy-1 and wave-1 as the timedemo plays them: the field, the rain and
 * the autopilot from seed 1 by the public API frame after frame, and
 * after 2000 frames the CRCs `ripple --benchmark --headless` prints. */
static void test_bench_busy_and_wave(void **state)
{
    (void)state;
    int frames = test_quick() ? 300 : 2000;
    for (int wave = 0; wave <= 1; wave++) {
        play_t *p = new_play(640, 480, 1, 0);
        assert_int_equal(play_set(p, PLAY_STONES, PLAY_STONES_CLASSIC), PLAY_STONES_CLASSIC);
        rpl_sim_t *sim = new_sim(640, 480, 1);
        rpl_autopilot_t *ap = new_autopilot(1);
        rpl_rain_t rain = { .per_kilostep = 120, .rmin = 2, .rmax = 4, .wmin = 24, .wmax = 80 };
        if (wave) {
            rpl_wave_params_t d = PLAY_WAVE_DEFAULTS;
            assert_int_equal(play_set(p, PLAY_MODEL, 1), 1);
            assert_int_equal(rpl_sim_set_model(sim, RPL_MODEL_WAVE, &d), RPL_OK);
        }
        for (int f = 1; f <= frames; f++) {
            assert_int_equal(play_bench_input(p), RPL_OK);
            play_bench_step(p);
            if (f <= 300) { /* by hand, as long as it is quick */
                assert_int_equal(rpl_sim_rain(sim, &rain), RPL_OK);
                rpl_autopilot_tick(ap, sim);
                rpl_sim_step(sim);
                if (f % 100 == 0)
                    assert_memory_equal(rpl_sim_heights(play_sim(p)), rpl_sim_heights(sim),
                                        640 * 480 * 2);
            }
        }
        if (frames == 2000) /* water crc32 of busy-1 and wave-1 */
            assert_int_equal(water_crc(p), wave ? 0xfb5d4375u : 0xf22a7f17u);
        rpl_autopilot_destroy(ap);
        rpl_sim_destroy(sim);
        play_destroy(p);
    }
}

/* A show's fade: the backdrop is the picture blended towards the colour
 * by the view's level (worked out here per channel), all the colour at
 * the middle, the bare picture again after; the frame follows. */
static void test_fade(void **state)
{
    (void)state;
    for (int swap = 0; swap <= 1; swap++) {
        int w = 48, h = 32;
        play_t *p = new_play(w, h, 1, swap ? PLAY_SWAP_RB : 0);
        uint32_t *pic = random_bg(w, h, 7);
        for (int i = 0; i < w * h; i++)
            pic[i] |= 0xFF000000u;
        assert_int_equal(play_set_picture(p, pic, w, h, (ptrdiff_t)w * 4), RPL_OK);
        static const char text[] = "ripple-show 1\nlight off\n@2 fade 20 0x4080C0\n@40 end\n";
        rpl_show_t *show = NULL;
        assert_int_equal(rpl_show_parse(text, strlen(text), "fade", &show), RPL_OK);
        assert_int_equal(play_set_show(p, show), RPL_OK);
        uint32_t c = swap ? 0xC08040u : 0x4080C0u;
        uint32_t *fb = xmalloc((size_t)w * h * 4);
        for (int t = 0; t < 24; t++) {
            assert_int_equal(play_step(p, 1), RPL_OK);
            int n = 20, i = t - 2;
            double k = 2.0 * (i + 1), x = (k <= n ? k : 2 * n - k) / n;
            double f = t < 2 || i + 1 >= n ? 0 : x * x * (3 - 2 * x);
            const uint32_t *got = rpl_backdrop_pixels(play_backdrop(p));
            for (int j = 0; j < w * h; j++) {
                uint32_t v = pic[j];
                if (swap)
                    v = (v & 0xFF00u) | (v & 0xFFu) << 16 | (v >> 16 & 0xFFu);
                for (int sh = 0; sh <= 16; sh += 8) {
                    double want = (v >> sh & 0xFF) * (1 - f) + (c >> sh & 0xFF) * f;
                    if (fabs((double)(got[j] >> sh & 0xFF) - want) > 2)
                        fail_msg("fade, step %d, pixel %d: %06x, want about %.1f in bits %d",
                                 t, j, got[j] & 0xFFFFFFu, want, sh);
                }
            }
            if (t == 11) { /* the middle: the frame is the colour */
                assert_int_equal(play_draw(p, fb, (ptrdiff_t)w * 4), RPL_OK);
                for (int j = 0; j < w * h; j++)
                    assert_int_equal(fb[j] & 0xFFFFFFu, c);
            }
        }
        free(fb);
        free(pic);
        play_destroy(p);
    }
}

/* A show's card: drawn into the backdrop while it shows (a darker band
 * across the middle, the text's ink in it), the bare picture after. */
static void test_card(void **state)
{
    (void)state;
    int w = 320, h = 200;
    play_t *p = new_play(w, h, 1, 0);
    uint32_t *pic = xmalloc((size_t)w * h * 4);
    for (int i = 0; i < w * h; i++)
        pic[i] = 0xFF808080u;
    assert_int_equal(play_set_picture(p, pic, w, h, (ptrdiff_t)w * 4), RPL_OK);
    static const char text[] = "ripple-show 1\n@2 card 40 \"RIPPLE\\nwater, stones and light\"\n"
                               "@60 end\n";
    rpl_show_t *show = NULL;
    assert_int_equal(rpl_show_parse(text, strlen(text), "card", &show), RPL_OK);
    assert_int_equal(play_set_show(p, show), RPL_OK);
    for (int t = 0; t < 50; t++) {
        assert_int_equal(play_step(p, 1), RPL_OK);
        const uint32_t *got = rpl_backdrop_pixels(play_backdrop(p));
        long dark = 0, ink = 0, other = 0;
        for (int i = 0; i < w * h; i++) {
            uint32_t v = got[i] & 0xFFFFFFu;
            dark += (v & 0xFF) < 0x40;
            ink += (v & 0xFF) > 0xC0;
            other += v != 0x808080u;
        }
        if (t == 22) { /* in full: the band and the letters */
            assert_true(dark > (long)w * h / 5);
            assert_true(ink > 500);
            /* the band is across the middle, the picture's top row bare */
            assert_int_equal(got[0] & 0xFFFFFFu, 0x808080u);
            assert_true((got[(size_t)(h / 2) * w + 2] & 0xFF) < 0x40);
        }
        if (t < 2 || t >= 41)
            assert_int_equal(other, 0);
    }
    free(pic);
    play_destroy(p);
}

/* show-1: the show before the music (its text kept), and after 2000
 * frames its CRC, as it always was; show-2: the default show, its CRC as
 * the timedemo prints it (the same on every kernel path, thread count and
 * compiler: tests/same-bytes.sh, tests/smoke.sh). */
static void test_bench_show(void **state)
{
    (void)state;
    static const struct {
        const char *path;
        uint32_t crc; /* ripple --benchmark --bench-scene NAME --headless */
    } shows[] = { { "assets/shows/show-1.show", 0xbb2db675u },
                  { "assets/shows/default.show", 0x943e0889u } };
    for (size_t i = 0; i < sizeof shows / sizeof shows[0]; i++) {
        rpl_show_t *show = NULL;
        if (rpl_show_read(shows[i].path, &show) != RPL_OK)
            fail_msg("cannot read %s (run the tests from the top of the tree)", shows[i].path);
        play_t *p = new_play(640, 480, 1, 0);
        assert_int_equal(play_set_show(p, show), RPL_OK);
        int frames = test_quick() ? 300 : 2000;
        for (int f = 0; f < frames; f++) {
            assert_int_equal(play_bench_input(p), RPL_OK);
            play_bench_step(p);
        }
        if (frames == 2000)
            assert_int_equal(water_crc(p), shows[i].crc);
        play_destroy(p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_state),
        cmocka_unit_test(test_create_refuses),
        cmocka_unit_test(test_stones_by_size),
        cmocka_unit_test(test_smooth_stones),
        cmocka_unit_test(test_stones_switch),
        cmocka_unit_test(test_wave_keys),
        cmocka_unit_test(test_show_view),
        cmocka_unit_test(test_backdrop_repaint),
        cmocka_unit_test(test_backdrop_in_place),
        cmocka_unit_test(test_walls_changed),
        cmocka_unit_test(test_bench_busy_and_wave),
        cmocka_unit_test(test_bench_show),
        cmocka_unit_test(test_fade),
        cmocka_unit_test(test_card),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
