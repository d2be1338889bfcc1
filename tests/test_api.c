/* test_api.c - misuse of the public API: NULL handles, bad sizes and arguments, renderers sharing a field (cmocka; run under ASan/LSan too). */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ripple.h"
#include "ripple_support.h"
#include "host.h"
#include "util.h"

/* What buffers a failed call must not touch are filled with. */
#define CANARY 0xA5u

static unsigned char *canary_buffer(size_t n)
{
    unsigned char *b = xmalloc(n);
    memset(b, CANARY, n);
    return b;
}

static void assert_canary(const unsigned char *b, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (b[i] != CANARY)
            fail_msg("%s: byte %zu of the buffer was written (0x%02x)", what, i, b[i]);
}

/* A failure's detail must be one line that says `says`. */
static void assert_says(const char *detail, const char *says, const char *what)
{
    assert_non_null(detail);
    if (!strstr(detail, says) || strchr(detail, '\n'))
        fail_msg("%s: the detail \"%s\" should be one line saying \"%s\"", what, detail, says);
}

/* ---- version ------------------------------------------------------------ */

static void test_version(void **state)
{
    (void)state;
    char want[64];
    snprintf(want, sizeof want, "%d.%d.%d", RPL_VERSION_MAJOR, RPL_VERSION_MINOR,
             RPL_VERSION_PATCH);
    assert_string_equal(RPL_VERSION, want);
    /* linked statically here, so the library running is the one compiled against */
    assert_string_equal(rpl_version(), RPL_VERSION);
    assert_true(RPL_VERSION_MAJOR >= 0 && RPL_VERSION_MINOR >= 0 && RPL_VERSION_PATCH >= 0);
}

/* ---- NULL handles ------------------------------------------------------- */

/* Every function that takes a handle, given NULL: the documented status
 * or value, never a crash (ASan would report a stray access). */
static void test_null_handles(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(8, 6, 1);
    uint32_t px[8 * 6] = {0};
    rpl_backdrop_t *bd = new_backdrop(px, 8, 6, RPL_XRGB8888);
    rpl_view_t view = {RPL_STRENGTH_ONE, 1};
    unsigned char *fb = canary_buffer(sizeof px);
    int16_t plane[8 * 6] = {0};
    rpl_rain_t rain = {500, 1, 3, 10, 20};
    int w = -1, h = -1;

    /* the field */
    rpl_sim_destroy(NULL);
    assert_int_equal(rpl_sim_width(NULL), 0);
    assert_int_equal(rpl_sim_height(NULL), 0);
    assert_null(rpl_sim_heights(NULL));
    assert_null(rpl_sim_previous(NULL));
    assert_true(rpl_sim_steps(NULL) == 0);
    assert_int_equal(rpl_sim_threads(NULL), 0);
    assert_int_equal(rpl_sim_sleeping(NULL), 0);
    assert_null(rpl_sim_kernels(NULL));
    /* an error getter still gives a string to print (what it says for NULL
     * is the library's choice) */
    assert_non_null(rpl_sim_error(NULL));
    assert_int_equal(rpl_sim_set_kernels(NULL, rpl_kernels_get("c")), RPL_EINVAL);
    assert_int_equal(rpl_sim_set_threads(NULL, 2), RPL_EINVAL);
    rpl_sim_set_sleeping(NULL, 1);
    rpl_sim_reset(NULL, 1);
    rpl_sim_step(NULL);
    assert_int_equal(rpl_sim_drop(NULL, 3, 3, 2, 100), RPL_EINVAL);
    assert_int_equal(rpl_sim_trail(NULL, 1, 1, 5, 4, 2, 100), RPL_EINVAL);
    assert_int_equal(rpl_sim_rain(NULL, &rain), RPL_EINVAL);
    assert_int_equal(rpl_sim_random(NULL), 0);
    assert_true(rpl_sim_energy(NULL) == 0);
    assert_int_equal(rpl_sim_set_state(NULL, plane, plane), RPL_EINVAL);
    rpl_stats_t st = {7, 7, 7};
    rpl_sim_stats(NULL, &st);
    assert_int_equal(st.tiles, 0);
    assert_int_equal(st.stepped, 0);
    assert_int_equal(st.rendered, 0);
    rpl_sim_stats(sim, NULL); /* nowhere to put them: nothing happens */
    rpl_sim_stats(NULL, NULL);

    /* snapshots: a NULL field writes and reads nothing */
    char dir[300] = "/tmp/rpl-api-XXXXXX", path[400];
    assert_non_null(host_mkdtemp(dir, sizeof dir));
    snprintf(path, sizeof path, "%s/snap.rpl", dir);
    assert_int_equal(rpl_sim_save(NULL, path), RPL_EINVAL);
    struct stat sb;
    assert_int_not_equal(stat(path, &sb), 0);
    assert_int_equal(rpl_sim_load(NULL, path), RPL_EINVAL);
    assert_int_equal(rmdir(dir), 0); /* empty: nothing was written there */
    rpl_snapshot_size(NULL, &w, &h);
    assert_int_equal(w, 0);
    assert_int_equal(h, 0);
    rpl_snapshot_size(NULL, NULL, NULL);
    assert_non_null(rpl_snapshot_error(NULL));
    rpl_snapshot_destroy(NULL);
    assert_int_equal(rpl_sim_set_snapshot(NULL, NULL), RPL_EINVAL);
    assert_int_equal(rpl_snapshot_read("x", NULL), RPL_EINVAL);
    assert_int_equal(rpl_snapshot_parse("RPL1", 4, NULL), RPL_EINVAL);

    /* files */
    assert_int_equal(rpl_file_open("x", 0, NULL), RPL_EINVAL);
    assert_null(rpl_file_stream(NULL));
    assert_int_equal(rpl_file_commit(NULL), RPL_EINVAL);
    assert_non_null(rpl_file_error(NULL));
    rpl_file_destroy(NULL);

    /* backdrops */
    rpl_backdrop_destroy(NULL);
    assert_int_equal(rpl_backdrop_format(NULL), 0);
    w = h = -1;
    rpl_backdrop_size(NULL, &w, &h);
    assert_int_equal(w, 0);
    assert_int_equal(h, 0);
    rpl_backdrop_size(bd, NULL, NULL);
    assert_null(rpl_backdrop_pixels(NULL));
    assert_null(rpl_backdrop_palette(NULL));
    assert_int_equal(rpl_backdrop_colors(NULL), 0);
    assert_null(rpl_backdrop_shade_table(NULL));

    /* rendering */
    assert_int_equal(rpl_render(NULL, bd, fb, 32, &view), RPL_EINVAL);
    assert_int_equal(rpl_refract(NULL, px, fb, 32, RPL_XRGB8888, &view), RPL_EINVAL);
    rpl_status rs = RPL_OK;
    {
        rpl_renderer_t *f_ = NULL;
        rs = rpl_renderer_create(NULL, &f_);
        assert_non_null(f_); /* a failed handle, which says why */
        assert_true(rpl_renderer_error(f_)[0] != '\0');
        rpl_renderer_destroy(f_);
    }
    assert_int_equal(rs, RPL_EINVAL);
    assert_int_equal(rpl_renderer_create(NULL, NULL), RPL_EINVAL);
    rpl_renderer_destroy(NULL);
    assert_int_equal(rpl_renderer_draw(NULL, bd, fb, 32, &view), RPL_EINVAL);
    rpl_renderer_invalidate(NULL);
    assert_int_equal(rpl_renderer_drawn(NULL), 0);
    assert_null(rpl_renderer_field(NULL));
    assert_non_null(rpl_renderer_error(NULL));
    assert_canary(fb, sizeof px, "renders without a field");

    /* kernels */
    assert_int_equal(rpl_kernels_same_refract(NULL, NULL, RPL_XRGB8888), 0);
    assert_non_null(rpl_kernels_name(NULL));

    /* images, parsing, the autopilot */
    rpl_image_kind kind;
    assert_int_equal(rpl_image_probe(NULL, 10, &kind, &w, &h), RPL_EINVAL);
    assert_int_equal(rpl_image_probe("BM", 2, NULL, &w, &h), RPL_EINVAL);
    long long ll = 5;
    assert_int_equal(rpl_parse_int(NULL, 0, 10, &ll), RPL_EINVAL);
    assert_true(ll == 5);
    rpl_autopilot_t *ap = new_autopilot(3);
    assert_int_equal(rpl_autopilot_create(3, NULL), RPL_EINVAL);
    rpl_autopilot_tick(ap, NULL);
    rpl_autopilot_tick(NULL, sim);
    rpl_autopilot_destroy(ap);
    assert_true(rpl_sim_energy(sim) == 0); /* no tick reached the field */

    /* the field that was there all along is as it was */
    assert_int_equal(rpl_sim_width(sim), 8);
    assert_string_equal(rpl_sim_error(sim), "");
    free(fb);
    rpl_backdrop_destroy(bd);
    rpl_sim_destroy(sim);
}

/* Asserts that a failed constructor gave a handle whose error names the
 * fault. */
static void assert_failed(rpl_status st, rpl_status want, const void *handle, const char *err,
                          const char *names)
{
    assert_int_equal(st, want);
    assert_non_null(handle);
    if (!strstr(err, names))
        fail_msg("\"%s\" does not name %s", err, names);
}

/* The constructor rule: bad arguments give a status, a handle (never
 * NULL but for memory) whose error says why, and that handle refuses
 * every other function as a NULL handle would, without crashing, until it
 * is destroyed. */
static void test_failed_handles(void **state)
{
    (void)state;
    rpl_status st;
    const rpl_view_t view = {RPL_STRENGTH_ONE, 1};
    uint32_t px[64] = {0}, fb[64];
    int16_t plane[64] = {0};
    int w = -1, h = -1;

    /* a field */
    rpl_sim_t *sim = NULL;
    st = rpl_sim_create(2, 5, 1, &sim);
    assert_failed(st, RPL_EINVAL, sim, rpl_sim_error(sim), "2x5");
    assert_int_equal(rpl_sim_width(sim), 0);
    assert_int_equal(rpl_sim_height(sim), 0);
    assert_null(rpl_sim_heights(sim));
    assert_null(rpl_sim_previous(sim));
    assert_true(rpl_sim_steps(sim) == 0);
    assert_int_equal(rpl_sim_threads(sim), 0);
    assert_int_equal(rpl_sim_sleeping(sim), 0);
    assert_null(rpl_sim_kernels(sim));
    assert_int_equal(rpl_sim_set_kernels(sim, rpl_kernels_get("c")), RPL_EINVAL);
    assert_int_equal(rpl_sim_set_threads(sim, 2), RPL_EINVAL);
    rpl_sim_set_sleeping(sim, 0);
    rpl_sim_reset(sim, 3);
    rpl_sim_step(sim);
    assert_int_equal(rpl_sim_drop(sim, 1, 1, 1, 100), RPL_EINVAL);
    assert_int_equal(rpl_sim_trail(sim, 0, 0, 4, 4, 1, 100), RPL_EINVAL);
    const rpl_rain_t rain = {1000, 1, 2, 100, 200};
    assert_int_equal(rpl_sim_rain(sim, &rain), RPL_EINVAL);
    assert_true(rpl_sim_random(sim) == 0);
    assert_true(rpl_sim_energy(sim) == 0);
    assert_int_equal(rpl_sim_set_state(sim, plane, plane), RPL_EINVAL);
    rpl_wave_params_t wp = {1, 0, 2, 1, 1};
    assert_int_equal(rpl_sim_set_model(sim, RPL_MODEL_WAVE, &wp), RPL_EINVAL);
    assert_int_equal(rpl_sim_model(sim), RPL_MODEL_CLASSIC);
    assert_null(rpl_sim_wave_params(sim));
    uint8_t mask[64] = {1};
    assert_int_equal(rpl_sim_set_walls(sim, mask), RPL_EINVAL);
    assert_int_equal(rpl_sim_wall_rect(sim, 0, 0, 2, 2, 1), RPL_EINVAL);
    assert_int_equal(rpl_sim_wall_line(sim, 0, 0, 3, 3, 1, 1), RPL_EINVAL);
    assert_null(rpl_sim_walls(sim));
    assert_true(rpl_sim_walls_serial(sim) == 0);
    assert_int_equal(rpl_sim_set_edges(sim, RPL_EDGES_ABSORB), RPL_EINVAL);
    assert_int_equal(rpl_sim_edges(sim), RPL_EDGES_REFLECT);
    rpl_sim_set_drop_hook(sim, NULL, NULL);
    assert_int_equal(rpl_sim_save(sim, "never-written.rpl"), RPL_EINVAL);
    assert_int_equal(rpl_sim_load(sim, "never-read.rpl"), RPL_EINVAL);
    rpl_snapshot_t *snap = NULL;
    assert_int_equal(rpl_snapshot_parse("nope", 4, &snap), RPL_EFORMAT);
    assert_int_equal(rpl_sim_set_snapshot(sim, snap), RPL_EINVAL);
    rpl_snapshot_size(snap, &w, &h);
    assert_int_equal(w + h, 0);
    rpl_snapshot_destroy(snap);
    assert_int_equal(rpl_refract(sim, px, fb, 32, RPL_XRGB8888, &view), RPL_EINVAL);
    rpl_stats_t stats = {1, 1, 1};
    rpl_sim_stats(sim, &stats);
    assert_true(stats.tiles == 0 && stats.stepped == 0 && stats.rendered == 0);
    assert_non_null(rpl_sim_error(sim)); /* and it still says why */

    /* a backdrop */
    rpl_backdrop_t *bd = NULL;
    st = rpl_backdrop_create(NULL, 8, 8, RPL_RGB565, &bd);
    assert_failed(st, RPL_EINVAL, bd,
                  rpl_backdrop_error(bd), "picture");
    assert_int_equal(rpl_backdrop_format(bd), RPL_XRGB8888);
    rpl_backdrop_size(bd, &w, &h);
    assert_int_equal(w + h, 0);
    assert_null(rpl_backdrop_pixels(bd));
    assert_null(rpl_backdrop_palette(bd));
    assert_int_equal(rpl_backdrop_colors(bd), 0);
    assert_null(rpl_backdrop_shade_table(bd));
    rpl_sim_t *good = new_sim(8, 8, 1);
    assert_int_equal(rpl_render(good, bd, fb, 32, &view), RPL_EINVAL);
    assert_non_null(strstr(rpl_sim_error(good), "backdrop"));
    assert_int_equal(rpl_render(sim, bd, fb, 32, &view), RPL_EINVAL);

    /* a renderer, of the failed field */
    rpl_renderer_t *r = NULL;
    st = rpl_renderer_create(sim, &r);
    assert_failed(st, RPL_EINVAL, r, rpl_renderer_error(r), "field");
    assert_int_equal(rpl_renderer_draw(r, bd, fb, 32, &view), RPL_EINVAL);
    rpl_renderer_invalidate(r);
    rpl_renderer_invalidate_rect(r, 0, 0, 4, 4);
    assert_int_equal(rpl_renderer_drawn(r), 0);
    rpl_rect_t rects[4];
    assert_int_equal(rpl_renderer_changed(r, rects, 4), 0);
    assert_null(rpl_renderer_field(r));
    /* a good renderer refuses the failed backdrop */
    rpl_renderer_t *gr = NULL;
    assert_int_equal(rpl_renderer_create(good, &gr), RPL_OK);
    assert_int_equal(rpl_renderer_draw(gr, bd, fb, 32, &view), RPL_EINVAL);
    assert_non_null(strstr(rpl_renderer_error(gr), "backdrop"));
    rpl_renderer_destroy(gr);

    /* a show player, of no show */
    rpl_show_player_t *pl = NULL;
    st = rpl_show_player_create(NULL, 1, &pl);
    assert_failed(st, RPL_EINVAL, pl,
                  rpl_show_player_error(pl), "show");
    assert_int_equal(rpl_show_player_tick(pl, good), RPL_EINVAL);
    assert_int_equal(rpl_show_player_changed(pl), 0);
    assert_null(rpl_show_player_view(pl));
    assert_true(rpl_show_player_time(pl) == 0);
    assert_true(rpl_show_player_loops(pl) == 0);
    assert_int_equal(rpl_show_player_done(pl), 0);
    rpl_show_player_rewind(pl);
    rpl_show_player_set_rain(pl, 0);
    /* a good player and an autopilot leave a failed field alone */
    rpl_show_t *show = NULL;
    const char text[] = "ripple-show 1\n@0 drop 0.5 0.5 2px 300\n";
    assert_int_equal(rpl_show_parse(text, sizeof text - 1, "t", &show), RPL_OK);
    rpl_show_player_t *gp = NULL;
    assert_int_equal(rpl_show_player_create(show, 1, &gp), RPL_OK);
    assert_int_equal(rpl_show_player_tick(gp, sim), RPL_EINVAL);
    assert_non_null(strstr(rpl_show_player_error(gp), "field"));
    rpl_show_player_destroy(gp);
    rpl_show_destroy(show);
    rpl_autopilot_t *ap = new_autopilot(5);
    for (int i = 0; i < 50; i++)
        rpl_autopilot_tick(ap, sim);
    assert_string_equal(rpl_autopilot_error(ap), "");
    rpl_autopilot_destroy(ap);

    /* a mixer */
    rpl_sound_t *snd = NULL;
    st = rpl_sound_create(7, 1, &snd);
    assert_failed(st, RPL_EINVAL, snd, rpl_sound_error(snd), "rate 7");
    assert_int_equal(rpl_sound_drip(snd, 1, 1, 3, 300, 64), RPL_EINVAL);
    int16_t pcm[8];
    assert_int_equal(rpl_sound_mix(snd, pcm, 4), RPL_EINVAL);
    rpl_sound_set_ambient(snd, 1);
    assert_int_equal(rpl_sound_set_volume(snd, 100), RPL_EINVAL);
    assert_int_equal(rpl_sound_rate(snd), 0);
    assert_int_equal(rpl_sound_voices(snd), 0);
    assert_int_equal(rpl_sound_pending(snd), 0);
    assert_true(rpl_sound_frames(snd) == 0);

    /* a body of water */
    rpl_water_params_t p;
    rpl_water_defaults(&p);
    p.spread = 0.9;
    rpl_water_t *wat = NULL;
    st = rpl_water_create(&p, &wat);
    assert_failed(st, RPL_EINVAL, wat, rpl_water_error(wat), "spread");
    assert_null(rpl_water_params(wat));
    rpl_water_defaults(&p);
    assert_int_equal(rpl_water_set_params(wat, &p), RPL_EINVAL);
    rpl_water_reset(wat);
    assert_int_equal(rpl_water_advance(wat, 0.1), -1);
    rpl_water_step(wat);
    assert_true(rpl_water_steps(wat) == 0);
    assert_true(rpl_water_time(wat) == 0);
    assert_int_equal(rpl_water_awake(wat), 0);
    assert_true(rpl_water_energy(wat) == 0);
    assert_true(rpl_water_height(wat, 10) == 0);
    assert_true(rpl_water_slope(wat, 10) == 0);
    assert_true(rpl_water_velocity(wat, 10) == 0);
    float samples[4];
    assert_int_equal(rpl_water_sample(wat, 0, 1, 4, samples), RPL_EINVAL);
    assert_int_equal(rpl_water_springs(wat), 0);
    assert_null(rpl_water_spring_y(wat));
    assert_null(rpl_water_spring_v(wat));
    assert_int_equal(rpl_water_rings(wat), 0);
    assert_int_equal(rpl_water_disturb(wat, 10, 1), RPL_EINVAL);
    assert_int_equal(rpl_water_impact(wat, 10, 100, NULL), RPL_EINVAL);
    const double box[] = {0, 290, 20, 290, 20, 310, 0, 310};
    rpl_submerged_t sub;
    assert_int_equal(rpl_water_submerged(wat, box, 4, &sub), RPL_EINVAL);
    rpl_body_t body = {box, 4, 10, 300, 0, 0, 0, 1, 1};
    rpl_water_force_t force;
    assert_int_equal(rpl_water_forces(wat, &body, 100, 0.01, &force), RPL_EINVAL);
    assert_int_equal(rpl_water_crossing(wat, 10, 200, 10, 400, NULL), 0);

    /* a splash (a failed body among the waters is skipped) */
    rpl_splash_t *spl = NULL;
    st = rpl_splash_create(0, 1, &spl);
    assert_failed(st, RPL_EINVAL, spl, rpl_splash_error(spl),
                  "capacity 0");
    assert_int_equal(rpl_splash_emit(spl, 10, 300, 500), -1);
    assert_int_equal(rpl_splash_step(spl, 0.01, 100, &wat, 1), -1);
    assert_int_equal(rpl_splash_count(spl), 0);
    assert_null(rpl_splash_droplets(spl));
    rpl_splash_clear(spl);
    rpl_splash_t *gs = NULL;
    assert_int_equal(rpl_splash_create(16, 1, &gs), RPL_OK);
    assert_true(rpl_splash_emit(gs, 10, 300, 500) > 0);
    assert_true(rpl_splash_step(gs, 0.01, 100, &wat, 1) >= 0);
    rpl_splash_destroy(gs);

    /* a side renderer */
    rpl_side_renderer_t *sr = NULL;
    st = rpl_side_renderer_create(px, 2, 8, RPL_XRGB8888, &sr);
    assert_failed(st, RPL_EINVAL, sr,
                  rpl_side_renderer_error(sr), "2x8");
    assert_null(rpl_side_renderer_palette(sr));
    assert_int_equal(rpl_side_render(sr, px, 32, NULL, 0, NULL, 0, 0, fb, 32), RPL_EINVAL);
    sr = (rpl_side_renderer_destroy(sr), NULL);
    st = rpl_side_renderer_create(NULL, 8, 8, RPL_INDEX8, &sr);
    assert_failed(st, RPL_EINVAL, sr,
                  rpl_side_renderer_error(sr), "INDEX8");
    rpl_side_renderer_destroy(sr);

    /* only a NULL out gives no handle */
    assert_int_equal(rpl_autopilot_create(1, NULL), RPL_EINVAL);

    rpl_splash_destroy(spl);
    rpl_water_destroy(wat);
    rpl_sound_destroy(snd);
    rpl_show_player_destroy(pl);
    rpl_renderer_destroy(r);
    rpl_backdrop_destroy(bd);
    rpl_sim_destroy(good);
    rpl_sim_destroy(sim);
}

/* destroy(NULL) does nothing, so the documented `x_destroy(p); p = NULL;`
 * makes a second destroy harmless.  (Destroying the same real pointer
 * twice cannot be detected in C and is not tried.) */
static void test_destroy_then_null(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(5, 5, 1);
    uint32_t px[25] = {0};
    rpl_backdrop_t *bd = new_backdrop(px, 5, 5, RPL_INDEX8);
    rpl_renderer_t *r;
    assert_int_equal(rpl_renderer_create(sim, &r), RPL_OK);
    assert_non_null(r);
    rpl_snapshot_t *snap = NULL;
    assert_int_equal(rpl_snapshot_parse("nope", 4, &snap), RPL_EFORMAT);
    assert_non_null(snap);
    rpl_file_t *file = NULL;
    assert_int_equal(rpl_file_open("", 0, &file), RPL_EINVAL);
    assert_non_null(file);

    /* a renderer goes before its field */
    rpl_renderer_destroy(r);
    r = NULL;
    rpl_renderer_destroy(r);
    rpl_sim_destroy(sim);
    sim = NULL;
    rpl_sim_destroy(sim);
    rpl_backdrop_destroy(bd);
    bd = NULL;
    rpl_backdrop_destroy(bd);
    rpl_snapshot_destroy(snap);
    snap = NULL;
    rpl_snapshot_destroy(snap);
    rpl_file_destroy(file);
    file = NULL;
    rpl_file_destroy(file);
    /* what a NULL pointer left behind answers */
    assert_int_equal(rpl_sim_width(sim), 0);
    assert_int_equal(rpl_renderer_drawn(r), 0);
    assert_null(rpl_backdrop_pixels(bd));
}

/* ---- sizes ---------------------------------------------------------------- */

static const int bad_dims[] = {0, -1, -100, RPL_DIM_MIN - 1, RPL_DIM_MAX + 1, INT_MAX, INT_MIN};

static void test_create_bad_sizes(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_dims / sizeof bad_dims[0]; i++)
        for (int which = 0; which < 3; which++) {
            int w = which == 1 ? 10 : bad_dims[i], h = which == 0 ? 10 : bad_dims[i];
            rpl_status st = RPL_OK;
            {
                rpl_sim_t *f_ = NULL;
                st = rpl_sim_create(w, h, 1, &f_);
                assert_non_null(f_); /* a failed handle, which says why */
                assert_true(rpl_sim_error(f_)[0] != '\0');
                rpl_sim_destroy(f_);
            }
            if (st != RPL_EINVAL)
                fail_msg("rpl_sim_create(%d, %d): status %d, want RPL_EINVAL", w, h, st);
            assert_int_equal(rpl_sim_create(w, h, 1, NULL), RPL_EINVAL);
        }
    /* the limits themselves are fine */
    rpl_status st = RPL_EIO;
    rpl_sim_t *sim;
    st = rpl_sim_create(RPL_DIM_MIN, RPL_DIM_MIN, 1, &sim);
    assert_non_null(sim);
    assert_int_equal(st, RPL_OK);
    rpl_sim_destroy(sim);
}

static void test_backdrop_bad_args(void **state)
{
    (void)state;
    uint32_t *px = random_bg(16, 16, 3);
    for (size_t i = 0; i < sizeof bad_dims / sizeof bad_dims[0]; i++)
        for (int f = 0; f < 3; f++)
            for (int which = 0; which < 2; which++) {
                int w = which ? 16 : bad_dims[i], h = which ? bad_dims[i] : 16;
                rpl_status st = RPL_OK;
                {
                    rpl_backdrop_t *f_ = NULL;
                    st = rpl_backdrop_create(px, w, h, all_formats[f], &f_);
                    assert_non_null(f_); /* a failed handle, which says why */
                    assert_true(rpl_backdrop_error(f_)[0] != '\0');
                    rpl_backdrop_destroy(f_);
                }
                if (st != RPL_EINVAL)
                    fail_msg("backdrop %dx%d format %d: status %d, want RPL_EINVAL", w, h,
                             (int)all_formats[f], st);
                assert_int_equal(rpl_backdrop_create(px, w, h, all_formats[f], NULL), RPL_EINVAL);
            }
    const int bad_formats[] = {-1, 3, 4, 255, INT_MAX, INT_MIN};
    for (size_t i = 0; i < sizeof bad_formats / sizeof bad_formats[0]; i++) {
        rpl_status st = RPL_OK;
        {
            rpl_backdrop_t *f_ = NULL;
            st = rpl_backdrop_create(px, 16, 16, (rpl_format)bad_formats[i], &f_);
            assert_non_null(f_); /* a failed handle, which says why */
            assert_true(rpl_backdrop_error(f_)[0] != '\0');
            rpl_backdrop_destroy(f_);
        }
        assert_int_equal(st, RPL_EINVAL);
        assert_int_equal(rpl_backdrop_create(px, 16, 16, (rpl_format)bad_formats[i], NULL), RPL_EINVAL);
    }
    for (int f = 0; f < 3; f++) {
        rpl_status st = RPL_OK;
        {
            rpl_backdrop_t *f_ = NULL;
            st = rpl_backdrop_create(NULL, 16, 16, all_formats[f], &f_);
            assert_non_null(f_); /* a failed handle, which says why */
            assert_true(rpl_backdrop_error(f_)[0] != '\0');
            rpl_backdrop_destroy(f_);
        }
        assert_int_equal(st, RPL_EINVAL);
    }
    free(px);
}

/* ---- rendering with bad arguments --------------------------------------- */

/* One bad call to rpl_render or rpl_renderer_draw. */
typedef struct bad_render {
    const rpl_backdrop_t *bd;
    ptrdiff_t fb_offset; /* from the start of the canary buffer */
    int null_fb;
    ptrdiff_t pitch;
    const rpl_view_t *view;
    const char *says;    /* what the detail must say */
    char what[96];
} bad_render_t;

/* Both entry points refuse c: RPL_EINVAL, the buffer untouched, the detail
 * in the getter of the object called (the renderer's for a draw, the
 * field's for rpl_render), each detail the call's own: a failure of
 * another kind is left in place first. */
static void check_bad_render(rpl_sim_t *sim, rpl_renderer_t *r, const rpl_backdrop_t *good,
                             unsigned char *buf, size_t len, const bad_render_t *c)
{
    static const rpl_view_t ok = {RPL_STRENGTH_ONE, 1}, wild = {RPL_STRENGTH_MAX + 1, 0};
    const int about_view = strstr(c->says, "strength") || strstr(c->says, "view");
    void *fb = c->null_fb ? NULL : buf + c->fb_offset;
    const ptrdiff_t pitch = (ptrdiff_t)rpl_sim_width(sim) * 4; /* enough in any format */
    char what[160];

    assert_int_equal(rpl_sim_drop(sim, 1, 1, 0, 1), RPL_EINVAL);
    assert_says(rpl_sim_error(sim), "radius", "a stone of radius 0");

    /* the renderer: a failure of another kind first (no framebuffer, or a
     * strength out of range) */
    if (about_view) {
        assert_int_equal(rpl_renderer_draw(r, good, NULL, pitch, &ok), RPL_EINVAL);
        assert_says(rpl_renderer_error(r), "fb", "a draw without a framebuffer");
    } else {
        assert_int_equal(rpl_renderer_draw(r, good, buf, pitch, &wild), RPL_EINVAL);
        assert_says(rpl_renderer_error(r), "strength", "a draw of strength too large");
    }
    assert_int_equal(rpl_renderer_draw(r, c->bd, fb, c->pitch, c->view), RPL_EINVAL);
    snprintf(what, sizeof what, "rpl_renderer_draw, %s", c->what);
    assert_says(rpl_renderer_error(r), c->says, what);
    assert_canary(buf, len, what);
    /* the draw's detail is the renderer's alone */
    assert_says(rpl_sim_error(sim), "radius", "the field's detail after failed draws");

    assert_int_equal(rpl_render(sim, c->bd, fb, c->pitch, c->view), RPL_EINVAL);
    snprintf(what, sizeof what, "rpl_render, %s", c->what);
    assert_says(rpl_sim_error(sim), c->says, what);
    assert_canary(buf, len, what);
}

static void test_render_bad_args(void **state)
{
    (void)state;
    const int w = 9, h = 5;
    rpl_sim_t *sim = new_sim(w, h, 1);
    random_state(sim, 12, -900, 900);
    uint32_t *px = random_bg(w + 1, h + 1, 4);
    rpl_renderer_t *r;
    assert_int_equal(rpl_renderer_create(sim, &r), RPL_OK);
    assert_non_null(r);
    const rpl_view_t ok = {RPL_STRENGTH_ONE, 1};
    const rpl_view_t strengths[] = {{-1, 0}, {RPL_STRENGTH_MAX + 1, 1}, {INT_MIN, 0},
                                    {INT_MAX, 1}};
    for (int f = 0; f < 3; f++) {
        const int b = rpl_format_bytes(all_formats[f]);
        const ptrdiff_t row = (ptrdiff_t)w * b;
        /* room for the largest pitch tried, and the offsets */
        const size_t len = (size_t)(row + 2 * b) * (size_t)(h + 1) + 16;
        unsigned char *buf = canary_buffer(len);
        uint32_t *fitted = xmalloc((size_t)w * h * 4);
        for (int y = 0; y < h; y++)
            memcpy(fitted + y * w, px + y * (w + 1), (size_t)w * 4);
        rpl_backdrop_t *bd = new_backdrop(fitted, w, h, all_formats[f]);
        rpl_backdrop_t *wider = new_backdrop(px, w + 1, h, all_formats[f]);
        rpl_backdrop_t *taller = new_backdrop(fitted, w, h - 1, all_formats[f]);
        rpl_backdrop_t *bigger = new_backdrop(px, w + 1, h + 1, all_formats[f]);

        bad_render_t cases[32];
        int n = 0;
#define CASE(BD, OFF, NULLFB, PITCH, VIEW, SAYS, ...)                                  \
    do {                                                                               \
        cases[n] = (bad_render_t){(BD), (OFF), (NULLFB), (PITCH), (VIEW), (SAYS), ""}; \
        snprintf(cases[n].what, sizeof cases[n].what, __VA_ARGS__);                    \
        n++;                                                                           \
    } while (0)
        /* pitches too small, negative, or not whole pixels: the detail names the pitch */
        char says_pitch[8][32];
        const ptrdiff_t bad_pitches[] = {row - b, row - 1, 1, 0, -row, -1,
                                         PTRDIFF_MIN, b > 1 ? row + 1 : row - 2};
        for (int i = 0; i < 8; i++) {
            snprintf(says_pitch[i], sizeof says_pitch[i], "pitch %td", bad_pitches[i]);
            CASE(bd, 0, 0, bad_pitches[i], &ok, says_pitch[i], "%d bpp, pitch %td", 8 * b,
                 bad_pitches[i]);
        }
        if (b > 1) /* a frame that does not start on a pixel */
            for (int off = 1; off < b; off++)
                CASE(bd, off, 0, row, &ok, "fb", "%d bpp, fb %d bytes off", 8 * b, off);
        CASE(wider, 0, 0, row + b, &ok, "10x5", "%d bpp, a backdrop one wider", 8 * b);
        CASE(taller, 0, 0, row, &ok, "9x4", "%d bpp, a backdrop one lower", 8 * b);
        CASE(bigger, 0, 0, row + b, &ok, "10x6", "%d bpp, a larger backdrop", 8 * b);
        CASE(NULL, 0, 0, row, &ok, "backdrop", "%d bpp, no backdrop", 8 * b);
        for (size_t i = 0; i < sizeof strengths / sizeof strengths[0]; i++)
            CASE(bd, 0, 0, row, &strengths[i], "strength", "%d bpp, strength %d", 8 * b,
                 strengths[i].strength);
        CASE(bd, 0, 0, row, NULL, "view", "%d bpp, no view", 8 * b);
        CASE(bd, 0, 1, row, &ok, "fb", "%d bpp, no framebuffer", 8 * b);
#undef CASE
        for (int i = 0; i < n; i++)
            check_bad_render(sim, r, bd, buf, len, &cases[i]);

        /* the failures left the renderer able to draw the right frame */
        unsigned char *want = xmalloc((size_t)row * h);
        assert_int_equal(rpl_render(sim, bd, want, row, &ok), RPL_OK);
        assert_int_equal(rpl_renderer_draw(r, bd, buf, row, &ok), RPL_OK);
        assert_memory_equal(buf, want, (size_t)row * h);
        assert_canary(buf + (size_t)row * h, len - (size_t)row * h, "after the frame");
        free(want);
        free(buf);
        free(fitted);
        rpl_backdrop_destroy(bd);
        rpl_backdrop_destroy(wider);
        rpl_backdrop_destroy(taller);
        rpl_backdrop_destroy(bigger);
    }
    rpl_renderer_destroy(r);
    free(px);
    rpl_sim_destroy(sim);
}

/* rpl_refract: the raw background draws XRGB8888 only, and the same
 * checks as rpl_render; its detail goes to the field. */
static void test_refract_bad_args(void **state)
{
    (void)state;
    const int w = 6, h = 4;
    rpl_sim_t *sim = new_sim(w, h, 1);
    uint32_t *bg = random_bg(w, h, 8);
    const size_t len = (size_t)w * h * 4 + 16;
    unsigned char *buf = canary_buffer(len);
    const rpl_view_t ok = {RPL_STRENGTH_ONE, 0}, bad = {-5, 0};
    static const struct {
        int fmt, off, null_bg;
        ptrdiff_t pitch;
        int bad_view;
        const char *says;
    } cases[] = {
        {RPL_RGB565, 0, 0, 12, 0, "XRGB8888"}, {RPL_INDEX8, 0, 0, 6, 0, "XRGB8888"},
        {7, 0, 0, 24, 0, "XRGB8888"},          {RPL_XRGB8888, 0, 1, 24, 0, "bg"},
        {RPL_XRGB8888, 0, 0, 20, 0, "pitch 20"}, {RPL_XRGB8888, 0, 0, 26, 0, "pitch 26"},
        {RPL_XRGB8888, 2, 0, 24, 0, "fb"},     {RPL_XRGB8888, 0, 0, 24, 1, "strength"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(rpl_sim_drop(sim, 1, 1, RPL_RADIUS_MAX + 1, 1), RPL_EINVAL);
        assert_says(rpl_sim_error(sim), "radius", "a stone too large");
        assert_int_equal(rpl_refract(sim, cases[i].null_bg ? NULL : bg, buf + cases[i].off,
                                     cases[i].pitch, (rpl_format)cases[i].fmt,
                                     cases[i].bad_view ? &bad : &ok),
                         RPL_EINVAL);
        assert_says(rpl_sim_error(sim), cases[i].says, "rpl_refract");
        assert_canary(buf, len, "rpl_refract");
    }
    free(buf);
    free(bg);
    rpl_sim_destroy(sim);
}

/* ---- images ----------------------------------------------------------------- */

static void test_image_fit_bad_args(void **state)
{
    (void)state;
    uint32_t *src = random_bg(8, 8, 2);
    const size_t len = 8 * 8 * 4;
    unsigned char *buf = canary_buffer(len);
    uint32_t *dst = (uint32_t *)(void *)buf;
    static const struct {
        int null_src, null_dst, sw, sh;
        ptrdiff_t spitch;
        int dw, dh;
    } cases[] = {
        {1, 0, 8, 8, 32, 4, 4},   {0, 1, 8, 8, 32, 4, 4},   {0, 0, 0, 8, 32, 4, 4},
        {0, 0, 8, 0, 32, 4, 4},   {0, 0, -8, 8, 32, 4, 4},  {0, 0, 8, -1, 32, 4, 4},
        {0, 0, 8, 8, 32, 0, 4},   {0, 0, 8, 8, 32, 4, 0},   {0, 0, 8, 8, 32, -4, 4},
        {0, 0, 8, 8, 32, 4, INT_MIN}, {0, 0, 8, 8, 28, 4, 4}, {0, 0, 8, 8, 0, 4, 4},
        {0, 0, 8, 8, -32, 4, 4},  {0, 0, INT_MAX, 8, 32, 4, 4}, {0, 0, INT_MIN, 8, 32, 4, 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rpl_status st = rpl_image_fit(cases[i].null_src ? NULL : src, cases[i].sw, cases[i].sh,
                                      cases[i].spitch, cases[i].null_dst ? NULL : dst,
                                      cases[i].dw, cases[i].dh);
        if (st != RPL_EINVAL)
            fail_msg("rpl_image_fit case %zu (%dx%d pitch %td to %dx%d): status %d", i,
                     cases[i].sw, cases[i].sh, cases[i].spitch, cases[i].dw, cases[i].dh, st);
        assert_canary(buf, len, "rpl_image_fit");
    }
    /* and the same buffers with good arguments */
    assert_int_equal(rpl_image_fit(src, 8, 8, 32, dst, 4, 4), RPL_OK);
    free(buf);
    free(src);
}

/* ---- stones ----------------------------------------------------------------- */

static void test_stones_bad_and_far(void **state)
{
    (void)state;
    const int w = 40, h = 30;
    rpl_sim_t *sim = new_sim(w, h, 1);
    random_state(sim, 6, -400, 400);
    int16_t *c = copy_plane(cur_of(sim), cells(sim));
    int16_t *p = copy_plane(prev_of(sim), cells(sim));

    /* radii out of range: refused, nothing changes, the detail says why */
    const int radii[] = {0, -1, RPL_RADIUS_MAX + 1, INT_MIN, INT_MAX};
    for (size_t i = 0; i < sizeof radii / sizeof radii[0]; i++) {
        assert_int_equal(rpl_sim_rain(sim, &(rpl_rain_t){-1, 1, 1, 1, 1}), RPL_EINVAL);
        assert_says(rpl_sim_error(sim), "rain", "bad rain");
        assert_int_equal(rpl_sim_drop(sim, 20, 15, radii[i], 100), RPL_EINVAL);
        assert_says(rpl_sim_error(sim), "radius", "drop");
        assert_int_equal(rpl_sim_rain(sim, &(rpl_rain_t){-1, 1, 1, 1, 1}), RPL_EINVAL);
        assert_int_equal(rpl_sim_trail(sim, 3, 3, 30, 20, radii[i], 100), RPL_EINVAL);
        assert_says(rpl_sim_error(sim), "radius", "trail");
        assert_plane_equal(cur_of(sim), c, cells(sim));
        assert_plane_equal(prev_of(sim), p, cells(sim));
    }

    /* centres far off the field: accepted, and nothing within reach */
    const int far[][2] = {{INT_MIN, INT_MIN}, {INT_MAX, INT_MAX}, {INT_MIN, 15}, {20, INT_MAX},
                          {INT_MAX, INT_MIN}, {-RPL_RADIUS_MAX - 1, 15}, {w + RPL_RADIUS_MAX, 3}};
    for (size_t i = 0; i < sizeof far / sizeof far[0]; i++) {
        assert_int_equal(rpl_sim_drop(sim, far[i][0], far[i][1], RPL_RADIUS_MAX, 100), RPL_OK);
        assert_int_equal(rpl_sim_drop(sim, far[i][0], far[i][1], 1, INT_MIN), RPL_OK);
        for (size_t j = 0; j < sizeof far / sizeof far[0]; j++)
            if (far[i][0] == far[j][0] || far[i][1] == far[j][1]) /* lines that miss the field */
                assert_int_equal(rpl_sim_trail(sim, far[i][0], far[i][1], far[j][0], far[j][1],
                                               RPL_RADIUS_MAX / 2, 100), RPL_OK);
        assert_plane_equal(cur_of(sim), c, cells(sim));
    }
    assert_plane_equal(prev_of(sim), p, cells(sim));

    /* a trail from one far end to the other crosses the field: radius 1
     * stamps exactly the cells on its line, at every step, with -INT_MIN
     * clamped to the largest height */
    int16_t *want = new_plane(w, h);
    rpl_sim_reset(sim, 1);
    assert_int_equal(rpl_sim_trail(sim, INT_MIN, INT_MIN, INT_MAX, INT_MAX, 1, INT_MIN), RPL_OK);
    for (int k = 1; k < h - 1; k++)
        want[k * w + k] = RPL_HEIGHT_MAX;
    assert_plane_equal(cur_of(sim), want, cells(sim));
    rpl_sim_reset(sim, 1);
    memset(want, 0, cells(sim) * sizeof *want);
    assert_int_equal(rpl_sim_trail(sim, INT_MAX, 7, INT_MIN, 7, 1, INT_MAX), RPL_OK);
    assert_int_equal(rpl_sim_trail(sim, 11, INT_MIN, 11, INT_MAX, 1, INT_MAX), RPL_OK);
    for (int x = 1; x < w - 1; x++)
        want[7 * w + x] = RPL_HEIGHT_MIN;
    for (int y = 1; y < h - 1; y++)
        want[y * w + 11] = RPL_HEIGHT_MIN;
    assert_plane_equal(cur_of(sim), want, cells(sim));
    /* the largest radius from far to far covers the whole interior */
    rpl_sim_reset(sim, 1);
    assert_int_equal(rpl_sim_trail(sim, INT_MIN, INT_MAX, INT_MAX, INT_MIN, RPL_RADIUS_MAX, 5),
                     RPL_OK);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int border = x == 0 || y == 0 || x == w - 1 || y == h - 1;
            assert_int_equal(at(sim, cur_of(sim), x, y), border ? 0 : -5);
        }
    free(want);
    free(c);
    free(p);
    rpl_sim_destroy(sim);
}

/* ---- threads and kernels ---------------------------------------------------- */

static void test_threads_bad_counts(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(20, 20, 1);
    assert_int_equal(rpl_sim_set_threads(sim, 3), RPL_OK);
    const int bad[] = {0, RPL_THREADS_MAX + 1, -1, INT_MIN, INT_MAX};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(rpl_sim_set_threads(sim, bad[i]), RPL_EINVAL);
        assert_int_equal(rpl_sim_threads(sim), 3); /* the old count stays */
    }
    assert_int_equal(rpl_sim_drop(sim, 10, 10, 3, 500), RPL_OK);
    rpl_sim_step(sim); /* and works */
    assert_int_equal(rpl_sim_set_threads(sim, RPL_THREADS_MAX), RPL_OK);
    assert_int_equal(rpl_sim_threads(sim), RPL_THREADS_MAX);
    assert_int_equal(rpl_sim_set_threads(sim, 1), RPL_OK);
    rpl_sim_destroy(sim);
}

static void test_kernels_bogus_names(void **state)
{
    (void)state;
    char longname[300];
    memset(longname, 'c', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    const char *bogus[] = {"", "C", "c ", " c", "sse", "sse3", "avx512", "AUTO", "auto ",
                           "c\n", "mmx2", "sve2", longname};
    const rpl_kernels_t *const mark = rpl_kernels_get("c");
    assert_non_null(mark);
    for (size_t i = 0; i < sizeof bogus / sizeof bogus[0]; i++) {
        const rpl_kernels_t *k = mark;
        if (rpl_kernels_find(bogus[i], &k) != RPL_EINVAL)
            fail_msg("rpl_kernels_find(\"%.20s\") is not RPL_EINVAL", bogus[i]);
        assert_ptr_equal(k, mark); /* left as it was */
        assert_null(rpl_kernels_get(bogus[i]));
    }
    /* past the known names there are none */
    int n = 0;
    while (rpl_kernels_known(n))
        n++;
    assert_true(n >= 1);
    assert_null(rpl_kernels_known(n));
    assert_null(rpl_kernels_known(INT_MAX));
    assert_null(rpl_kernels_known(-1));
    assert_null(rpl_kernels_known(INT_MIN));
}

/* RIPPLE_SIMD naming no path makes "auto" and new fields fail cleanly.
 * The test programs run with RIPPLE_SIMD set to each path in turn, so the
 * teardown puts the value back. */
static char *saved_simd;

static int save_simd(void **state)
{
    (void)state;
    const char *v = getenv("RIPPLE_SIMD");
    saved_simd = v ? strdup(v) : NULL;
    return v && !saved_simd ? -1 : 0;
}

static int restore_simd(void **state)
{
    (void)state;
    int rc = saved_simd ? host_setenv("RIPPLE_SIMD", saved_simd) : host_setenv("RIPPLE_SIMD", NULL);
    free(saved_simd);
    saved_simd = NULL;
    return rc;
}

static void test_simd_env_bogus(void **state)
{
    (void)state;
    const char *bogus[] = {"nope", "C", "avx512"};
    for (size_t i = 0; i < sizeof bogus / sizeof bogus[0]; i++) {
        assert_int_equal(host_setenv("RIPPLE_SIMD", bogus[i]), 0);
        const rpl_kernels_t *k = NULL;
        assert_int_equal(rpl_kernels_find(NULL, &k), RPL_EINVAL);
        assert_int_equal(rpl_kernels_find("auto", &k), RPL_EINVAL);
        assert_null(k);
        assert_null(rpl_kernels_get(NULL));
        rpl_status st = RPL_OK;
        {
            rpl_sim_t *f_ = NULL;
            st = rpl_sim_create(10, 10, 1, &f_);
            assert_non_null(f_); /* a failed handle, which says why */
            assert_true(rpl_sim_error(f_)[0] != '\0');
            rpl_sim_destroy(f_);
        }
        assert_int_equal(st, RPL_EINVAL);
        /* a path by name does not look at the variable */
        assert_non_null(rpl_kernels_get("c"));
    }
    /* empty or "auto" means the choice from CPUID */
    assert_int_equal(host_setenv("RIPPLE_SIMD", ""), 0);
    assert_non_null(rpl_kernels_get(NULL));
    assert_int_equal(host_setenv("RIPPLE_SIMD", "auto"), 0);
    rpl_sim_t *sim = new_sim(10, 10, 1);
    assert_ptr_equal(rpl_sim_kernels(sim), rpl_kernels_get(NULL));
    rpl_sim_destroy(sim);
}

/* ---- fonts ------------------------------------------------------------------ */

static void test_font_bad_args(void **state)
{
    (void)state;
    const int fw = 20, fh = 12;
    const size_t len = (size_t)fw * fh * 4;
    unsigned char *buf = canary_buffer(len);
    uint32_t *fb = (uint32_t *)(void *)buf;
    const ptrdiff_t pitch = (ptrdiff_t)fw * 4;

    /* nothing to draw, or nowhere */
    rpl_font_draw(NULL, pitch, fw, fh, 0, 0, "Hi", 0xFFFFFF, 1);
    rpl_font_draw(fb, pitch, fw, fh, 0, 0, NULL, 0xFFFFFF, 1);
    rpl_font_draw(fb, pitch, fw, fh, 0, 0, "", 0xFFFFFF, 1);
    rpl_font_panel(NULL, pitch, fw, fh, 0, 0, 5, 5, 128);
    /* pitches too small for the width: refused, not guessed */
    const ptrdiff_t small[] = {pitch - 4, pitch - 1, 4, 0, -pitch, PTRDIFF_MIN};
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) {
        rpl_font_draw(fb, small[i], fw, fh, 0, 0, "Hi", 0xFFFFFF, 1);
        rpl_font_panel(fb, small[i], fw, fh, 0, 0, fw, fh, 0);
    }
    /* no framebuffer size, no rectangle */
    const int none[] = {0, -1, INT_MIN};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        rpl_font_draw(fb, pitch, none[i], fh, 0, 0, "Hi", 0xFFFFFF, 1);
        rpl_font_draw(fb, pitch, fw, none[i], 0, 0, "Hi", 0xFFFFFF, 1);
        rpl_font_panel(fb, pitch, fw, fh, 0, 0, none[i], 5, 0);
        rpl_font_panel(fb, pitch, fw, fh, 0, 0, 5, none[i], 0);
    }
    /* text placed wholly outside, however far, and huge scales pushed off */
    const int farpos[][2] = {{INT_MIN, 0}, {0, INT_MIN}, {INT_MAX, 0}, {0, INT_MAX},
                             {fw, 0}, {0, fh}, {-60, 0}, {INT_MIN, INT_MIN}};
    for (size_t i = 0; i < sizeof farpos / sizeof farpos[0]; i++) {
        int x = farpos[i][0], y = farpos[i][1];
        rpl_font_draw(fb, pitch, fw, fh, x, y, "Hi\nthere", 0xFFFFFF, 1);
        rpl_font_panel(fb, pitch, fw, fh, x, y, 10, 10, 0);
        if (x >= fw || y >= fh) /* from above or left, a huge glyph would reach in */
            rpl_font_draw(fb, pitch, fw, fh, x, y, "W", 0xFFFFFF, INT_MAX);
    }
    rpl_font_panel(fb, pitch, fw, fh, INT_MAX, INT_MAX, INT_MAX, INT_MAX, 0);
    rpl_font_panel(fb, pitch, fw, fh, INT_MIN, INT_MIN, 1, 1, 0);
    assert_canary(buf, len, "font calls that draw nothing");

    /* a huge scale from inside clips to the framebuffer */
    rpl_font_draw(fb, pitch, fw, fh - 1, 0, 0, "W", 0x123456, INT_MAX);
    assert_canary(buf + (size_t)(fh - 1) * (size_t)pitch, (size_t)pitch, "the row below");
    /* keep outside 0..256 is clamped: 256 leaves the pixels, -5 blacks them out */
    memset(buf, CANARY, len);
    rpl_font_panel(fb, pitch, fw, fh, -3, -3, fw + 6, fh + 6, 1000);
    assert_canary(buf, len, "a panel keeping everything");
    rpl_font_panel(fb, pitch, fw, fh, 2, 3, 1, 1, -5);
    assert_int_equal(fb[3 * fw + 2], 0xA5000000u); /* top byte kept */
    assert_int_equal(fb[3 * fw + 3], 0xA5A5A5A5u);

    /* sizes of nothing, and scales below 1 count as 1 */
    assert_int_equal(rpl_font_text_width(NULL, 1), 0);
    assert_int_equal(rpl_font_text_height(NULL, 1), 0);
    assert_int_equal(rpl_font_text_width("", 3), 0);
    assert_int_equal(rpl_font_text_height("", 3), 0);
    assert_int_equal(rpl_font_text_width("ab", 0), 2 * RPL_FONT_CELL_W);
    assert_int_equal(rpl_font_text_width("ab", INT_MIN), 2 * RPL_FONT_CELL_W);
    assert_int_equal(rpl_font_text_height("a\n", -7), 2 * RPL_FONT_CELL_H);
    assert_int_equal(rpl_font_text_width("ab", INT_MAX), INT_MAX); /* saturates */
    assert_int_equal(rpl_font_text_height("a", INT_MAX), INT_MAX);
    free(buf);
}

/* ---- renderers sharing a field ---------------------------------------------- */

/* Frame of rpl_render, for comparison. */
static void reference(rpl_sim_t *sim, const rpl_backdrop_t *bd, unsigned char *fb,
                      ptrdiff_t pitch, const rpl_view_t *view)
{
    assert_int_equal(rpl_render(sim, bd, fb, pitch, view), RPL_OK);
}

/* Renderers of one busy field, each keeping its own framebuffer: two that
 * draw after every step and one that draws only now and then, checked
 * against rpl_render after every step, in each format, with stones,
 * trails and rain between the steps and with what a program does to a
 * field between frames (threads, sleeping off and on, new state, reset). */
static void renderers_follow(rpl_format fmt, int threads)
{
    const int w = 300, h = 170;
    rpl_sim_t *sim = new_sim(w, h, 77);
    assert_int_equal(rpl_sim_set_threads(sim, threads), RPL_OK);
    assert_int_equal(rpl_sim_sleeping(sim), 1);
    uint32_t *bg = random_bg(w, h, 78);
    rpl_backdrop_t *bd = new_backdrop(bg, w, h, fmt);
    const int b = rpl_format_bytes(fmt);
    const ptrdiff_t pitch[3] = {(ptrdiff_t)w * b, (ptrdiff_t)(w + 5) * b, (ptrdiff_t)w * b};
    const rpl_view_t view = {RPL_STRENGTH_ONE + 3, 1};
    rpl_renderer_t *r[3];
    unsigned char *fb[3], *want = xmalloc((size_t)pitch[1] * h);
    for (int i = 0; i < 3; i++) {
        rpl_status st = RPL_EIO;
        st = rpl_renderer_create(sim, &r[i]);
        assert_non_null(r[i]);
        assert_int_equal(st, RPL_OK);
        assert_ptr_equal(rpl_renderer_field(r[i]), sim);
        assert_int_equal(rpl_renderer_drawn(r[i]), 0); /* nothing drawn yet */
        assert_string_equal(rpl_renderer_error(r[i]), "");
        fb[i] = xmalloc((size_t)pitch[i] * h);
        memset(fb[i], 0x3C, (size_t)pitch[i] * h);
    }
    const rpl_rain_t rain = {150, 1, 5, -3000, 3000};
    uint64_t s = 5;
    rpl_stats_t st;
    unsigned partial = 0;
    for (int step = 0; step < 160; step++) {
        if (step % 9 == 0)
            assert_int_equal(rpl_sim_drop(sim, rnd_range(&s, -10, w + 10),
                                          rnd_range(&s, -10, h + 10), rnd_range(&s, 1, 9),
                                          rnd_range(&s, -5000, 5000)), RPL_OK);
        if (step % 31 == 5)
            assert_int_equal(rpl_sim_trail(sim, rnd_range(&s, 0, w), rnd_range(&s, 0, h),
                                           rnd_range(&s, 0, w), rnd_range(&s, 0, h), 3, 2000),
                             RPL_OK);
        assert_int_equal(rpl_sim_rain(sim, &rain), RPL_OK);
        switch (step) {
        case 40: rpl_sim_set_sleeping(sim, 0); break;
        case 46: rpl_sim_set_sleeping(sim, 1); break;
        case 70: assert_int_equal(rpl_sim_set_threads(sim, threads == 1 ? 2 : 1), RPL_OK); break;
        case 90: random_state(sim, 91, -50, 50); break;
        case 120: rpl_sim_reset(sim, 5); break;
        default: break;
        }
        rpl_sim_step(sim);
        /* the frame once a step, its rows compared with each renderer's
         * whatever their pitch (rendering it for each was most of this
         * test's time under an emulated CPU) */
        reference(sim, bd, want, pitch[1], &view);
        for (int i = 0; i < 3; i++) {
            if (i == 2 && step % 7 != 3)
                continue; /* the third one falls behind */
            assert_int_equal(rpl_renderer_draw(r[i], bd, fb[i], pitch[i], &view), RPL_OK);
            for (int y = 0; y < h; y++)
                if (memcmp(fb[i] + (size_t)y * (size_t)pitch[i],
                           want + (size_t)y * (size_t)pitch[1], (size_t)w * (size_t)b) != 0)
                    fail_msg("format %d, %d thread(s): renderer %d after step %d: row %d "
                             "differs from rpl_render", (int)fmt, threads, i, step, y);
            rpl_sim_stats(sim, &st);
            if (rpl_renderer_drawn(r[i]) < st.tiles)
                partial++;
        }
    }
    assert_true(partial > 0); /* the renderers did skip tiles at rest */

    /* calm water: once it is drawn, the next draw draws nothing; one stone
     * wakes a few tiles, and only those are drawn */
    rpl_sim_reset(sim, 1);
    rpl_sim_stats(sim, &st);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(rpl_renderer_draw(r[i], bd, fb[i], pitch[i], &view), RPL_OK);
        assert_int_equal(rpl_renderer_draw(r[i], bd, fb[i], pitch[i], &view), RPL_OK);
        assert_int_equal(rpl_renderer_drawn(r[i]), 0);
    }
    assert_int_equal(rpl_sim_drop(sim, 100, 50, 4, 900), RPL_OK);
    rpl_sim_step(sim);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(rpl_renderer_draw(r[i], bd, fb[i], pitch[i], &view), RPL_OK);
        assert_true(rpl_renderer_drawn(r[i]) > 0);
        assert_true(rpl_renderer_drawn(r[i]) < st.tiles);
    }

    /* someone draws over the first framebuffer (an overlay, and stray
     * bytes in a tile at rest): after rpl_renderer_invalidate the next
     * draw draws everything and the frame is right again */
    if (fmt == RPL_XRGB8888)
        rpl_font_draw((uint32_t *)(void *)fb[0], pitch[0], w, h, 2, 2, "ripple", 0xFF00FF, 3);
    memset(fb[0] + (size_t)(h - 3) * (size_t)pitch[0] + (size_t)(w - 20) * (size_t)b, 0x77,
           (size_t)10 * (size_t)b);
    rpl_renderer_invalidate(r[0]);
    assert_int_equal(rpl_renderer_draw(r[0], bd, fb[0], pitch[0], &view), RPL_OK);
    assert_int_equal(rpl_renderer_drawn(r[0]), st.tiles);
    reference(sim, bd, want, pitch[0], &view);
    assert_memory_equal(fb[0], want, (size_t)pitch[0] * h);
    /* the other renderer's memory is its own: it still draws only what changed */
    assert_int_equal(rpl_renderer_draw(r[1], bd, fb[1], pitch[1], &view), RPL_OK);
    assert_true(rpl_renderer_drawn(r[1]) < st.tiles);
    reference(sim, bd, want, pitch[1], &view);
    for (int y = 0; y < h; y++)
        assert_memory_equal(fb[1] + (size_t)y * (size_t)pitch[1],
                            want + (size_t)y * (size_t)pitch[1], (size_t)w * (size_t)b);

    for (int i = 0; i < 3; i++) {
        rpl_renderer_destroy(r[i]);
        free(fb[i]);
    }
    free(want);
    rpl_backdrop_destroy(bd);
    free(bg);
    rpl_sim_destroy(sim);
}

static void test_renderers_share_a_field(void **state)
{
    (void)state;
    for (int f = 0; f < 3; f++) {
        renderers_follow(all_formats[f], 1);
        renderers_follow(all_formats[f], 3);
    }
}

/* rpl_font_panel against its formula on random pixels: every width and
 * offset (so pixels darkened in pairs and alone), several keeps, and the
 * pixels around the rectangle untouched. */
static void test_font_panel_formula(void **state)
{
    (void)state;
    enum { FW = 21, FH = 5 };
    uint32_t fb[FH * FW], ref[FH * FW];
    uint64_t rs = 41;
    const int keeps[] = { 0, 1, 56, 96, 128, 255, 256 };
    for (size_t ki = 0; ki < sizeof keeps / sizeof keeps[0]; ki++)
        for (int x = -1; x < FW; x++)
            for (int w = 1; x + w <= FW + 1; w++) {
                for (int i = 0; i < FH * FW; i++)
                    fb[i] = ref[i] = (uint32_t)rnd_next(&rs);
                uint32_t k = (uint32_t)keeps[ki];
                for (int yy = 1; yy < 4; yy++)
                    for (int xx = x < 0 ? 0 : x; xx < x + w && xx < FW; xx++) {
                        uint32_t c = ref[yy * FW + xx], o = c & 0xFF000000u;
                        for (int sh = 0; sh < 24; sh += 8)
                            o |= ((((c >> sh) & 0xFF) * k) >> 8) << sh;
                        ref[yy * FW + xx] = o;
                    }
                rpl_font_panel(fb, FW * 4, FW, FH, x, 1, w, 3, keeps[ki]);
                assert_memory_equal(fb, ref, sizeof fb);
            }
}

/* The machine seam (core/base/machine.c, machine_win.c): clocks that move
 * forward, CPU time that grows with work, names that say something. */
static void test_machine(void **state)
{
    (void)state;
    int64_t t0 = rpl_clock_ns(), c0 = rpl_thread_cpu_ns(), p0 = rpl_process_cpu_ns();
    assert_true(t0 > 0 && c0 >= 0 && p0 >= c0);
    volatile uint64_t x = 1;
    /* some 30 ms of work: past a Windows clock tick (15.6 ms) */
    while (rpl_thread_cpu_ns() - c0 < 30000000 && rpl_clock_ns() - t0 < 5000000000)
        for (int i = 0; i < 100000; i++)
            x = x * 6364136223846793005u + 1;
    int64_t t1 = rpl_clock_ns(), c1 = rpl_thread_cpu_ns(), p1 = rpl_process_cpu_ns();
    assert_true(c1 - c0 >= 30000000); /* the loop ended on the CPU clock */
    assert_true(t1 - t0 >= (c1 - c0) / 2); /* and the wall clock moved with it */
    /* the process's clock never goes back; how much of the thread's work
     * it shows by now is the system's to say (Wine, under load, has been
     * seen to show less than half) */
    assert_true(p1 >= p0);
    double user, sys;
    rpl_process_times(&user, &sys);
    assert_true(user > 0 && sys >= 0 && user + sys <= (double)p1 / 1e9 + 0.05);
    char buf[256];
    rpl_cpu_model(buf, sizeof buf);
    assert_true(strlen(buf) > 0);
    rpl_os_name(buf, sizeof buf);
    assert_true(strlen(buf) > 0 && strcmp(buf, "unknown") != 0);
    char exe[4096];
    if (rpl_exe_path(exe, sizeof exe) == 0) /* Linux and Windows have it */
        assert_non_null(strstr(exe, "test_api"));
    assert_int_equal(rpl_exe_path(exe, 4), -1); /* does not fit */
    assert_int_equal(rpl_exe_path(exe, 1), -1); /* no room for a name */
    assert_int_equal(rpl_exe_path(exe, 0), -1);
}

/* What a path names, through the platform's own calls (the wide API on
 * Windows): this program, a folder, nothing. */
static void test_paths_kinds(void **state)
{
    (void)state;
    char exe[4096];
    assert_int_equal(rpl_exe_path(exe, sizeof exe), 0);
    assert_int_equal(rpl_path_readable(exe), 1);
    assert_int_equal(rpl_path_is_dir(exe), 0);
    char *slash = strrchr(exe, '/');
    assert_non_null(slash);
    *slash = '\0';
    assert_int_equal(rpl_path_is_dir(exe), 1);
    assert_int_equal(rpl_path_is_dir("."), 1);
    strcat(exe, "/no such file here");
    assert_int_equal(rpl_path_readable(exe), 0);
    errno = 0;
    assert_int_equal(rpl_path_is_dir(exe), -1);
    assert_int_equal(errno, ENOENT);
    assert_int_equal(rpl_path_readable("\xff\xfe not UTF-8"), 0);
}

/* rpl_crc32 (the scene's and the page's timedemo CRCs) is zlib's CRC-32:
 * the standard check value, and on seeded buffers of every length up to
 * 300, split at a random point into two calls, the tests' own bitwise
 * CRC (tests/util.c, written apart); a NULL buffer of 0 bytes changes
 * nothing. */
static void test_crc32(void **state)
{
    (void)state;
    assert_int_equal(rpl_crc32(0, "123456789", 9), 0xCBF43926u);
    assert_int_equal(rpl_crc32(0, NULL, 0), 0);
    assert_int_equal(rpl_crc32(0x12345678u, NULL, 0), 0x12345678u);
    uint64_t r = 37;
    unsigned char b[300];
    for (size_t n = 0; n <= sizeof b; n++) {
        for (size_t i = 0; i < n; i++)
            b[i] = (unsigned char)rnd_next(&r);
        if (n)
            b[rnd_range(&r, 0, (int)n - 1)] = (unsigned char)(n & 1 ? 0xFF : 0);
        size_t cut = n ? (size_t)rnd_range(&r, 0, (int)n) : 0;
        uint32_t want = crc_bytes(0, b, n);
        assert_int_equal(rpl_crc32(rpl_crc32(0, b, cut), b + cut, n - cut), want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_null_handles),
        cmocka_unit_test(test_failed_handles),
        cmocka_unit_test(test_destroy_then_null),
        cmocka_unit_test(test_create_bad_sizes),
        cmocka_unit_test(test_backdrop_bad_args),
        cmocka_unit_test(test_render_bad_args),
        cmocka_unit_test(test_refract_bad_args),
        cmocka_unit_test(test_image_fit_bad_args),
        cmocka_unit_test(test_stones_bad_and_far),
        cmocka_unit_test(test_threads_bad_counts),
        cmocka_unit_test(test_kernels_bogus_names),
        cmocka_unit_test_setup_teardown(test_simd_env_bogus, save_simd, restore_simd),
        cmocka_unit_test(test_font_bad_args),
        cmocka_unit_test(test_font_panel_formula),
        cmocka_unit_test(test_renderers_share_a_field),
        cmocka_unit_test(test_machine),
        cmocka_unit_test(test_crc32),
        cmocka_unit_test(test_paths_kinds),
    };
    return cmocka_run_group_tests_name("api", tests, NULL, NULL);
}
