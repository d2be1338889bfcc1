/* test_web.c - the web page's pool (src/web/web.c), built natively: the timedemo's scenes (busy-1 against the same play through the public API, busy-2 against the pool's play, the side scenes against the scene's own timedemo, by name, restarted for rounds), the side view's frames, clicks and keys, RGBA frames, refused input (a picture too big for a 32-bit size_t too) that leaves the pool as it was, settings, sound, drops from code, the wave's figures by value and the edges (cmocka). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "play/play.h"
#include "ripple.h"
#include "scene/scene.h"
#include "util.h"
#include "web/web.h"

#define W 640
#define H 480

/* A picture of one colour, RGBA bytes; free() it. */
static uint8_t *solid(int w, int h, uint8_t r, uint8_t g, uint8_t b)
{
    uint8_t *p = xmalloc((size_t)w * (size_t)h * 4);
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
        p[4 * i] = r;
        p[4 * i + 1] = g;
        p[4 * i + 2] = b;
        p[4 * i + 3] = 255;
    }
    return p;
}

/* A pool made as the library makes its objects: a status, the pool in *out. */
static web_t *new_pool(int w, int h, int seed, int rate)
{
    web_t *p = NULL;
    assert_int_equal(web_create(w, h, seed, rate, &p), RPL_OK);
    assert_non_null(p);
    return p;
}

/* A size or rate refused: RPL_EINVAL, and a pool that says why but plays
 * nothing. */
static void refused(int w, int h, int rate)
{
    web_t *p = NULL;
    assert_int_equal(web_create(w, h, 1, rate, &p), RPL_EINVAL);
    assert_non_null(p);
    assert_non_null(strstr(web_error(p), "no pool of"));
    assert_null(web_draw(p));
    web_steps(p, 1, 1);
    assert_int_equal(web_get(p, WEB_WIDTH), -1);
    web_destroy(p);
}

/* Sizes and rates out of range are refused; the smallest pool works. */
static void test_create_refuses(void **state)
{
    (void)state;
    refused(2, 100, 48000);
    refused(100, 2, 48000);
    refused(RPL_DIM_MAX + 1, 3, 48000);
    refused(100, 100, 7999);
    refused(100, 100, 192001);
    assert_int_equal(web_create(3, 3, 1, 8000, NULL), RPL_EINVAL);
    web_t *p = new_pool(3, 3, 1, 8000);
    assert_int_equal(web_get(p, WEB_WIDTH), 3);
    assert_int_equal(web_get(p, WEB_HEIGHT), 3);
    web_steps(p, 3, 1);
    assert_non_null(web_draw(p));
    web_destroy(p);
    web_destroy(NULL);
}

/* The timedemo's scene is busy-1 as the native demo plays it: the same
 * water as a field, an autopilot and rain set up by hand from the public
 * API with the demo's values (640x480, seed 1, rain radius 2..4 cells,
 * weight 24..80, 120 stones a thousand steps), frame after frame; and
 * after 2000 frames, the CRC the native demo's --benchmark prints. */
static void test_bench_is_busy_1(void **state)
{
    (void)state;
    int frames = test_quick() ? 300 : 2000;
    web_t *p = NULL;
    assert_int_equal(web_bench_create("busy-1", &p), RPL_OK);
    assert_string_equal(web_bench_scene(p), "busy-1");
    rpl_sim_t *sim = new_sim(W, H, 1);
    rpl_autopilot_t *ap = new_autopilot(1);
    rpl_rain_t rain = { .per_kilostep = 120, .rmin = 2, .rmax = 4, .wmin = 24, .wmax = 80 };
    for (int f = 1; f <= frames; f++) {
        web_bench_frame(p);
        assert_int_equal(rpl_sim_rain(sim, &rain), RPL_OK);
        rpl_autopilot_tick(ap, sim);
        rpl_sim_step(sim);
        if (f % 100 == 0 || f == frames)
            assert_memory_equal(web_heights(p), rpl_sim_heights(sim), (size_t)W * H * 2);
    }
    if (frames == 2000) /* ripple --benchmark --headless: "water     crc32 f22a7f17" */
        assert_int_equal(crc_plane(0, web_heights(p), (size_t)W * H), 0xf22a7f17u);
    rpl_autopilot_destroy(ap);
    rpl_sim_destroy(sim);
    web_destroy(p);
}

/* The scenes by name: busy-2 unless another is named, busy-1 by name, an
 * unknown one refused with the names the page plays. */
static void test_bench_scenes(void **state)
{
    (void)state;
    static const char *const newest[] = { NULL, "", "busy", "busy-2" };
    for (size_t i = 0; i < sizeof newest / sizeof newest[0]; i++) {
        web_t *p = NULL;
        assert_int_equal(web_bench_create(newest[i], &p), RPL_OK);
        assert_string_equal(web_bench_scene(p), "busy-2");
        assert_non_null(strstr(web_bench_about(p), "smooth"));
        assert_int_equal(web_get(p, WEB_WIDTH), 640);
        web_destroy(p);
    }
    web_t *p = NULL;
    assert_int_equal(web_bench_create("busy-1", &p), RPL_OK);
    assert_non_null(strstr(web_bench_about(p), "flat-disc"));
    web_destroy(p);
    static const char *const unknown[] = { "busy-3", "busy-", "wave-1", "busy-12", "nosuch",
                                           "side-4", "side-waves-0", "show" };
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        p = NULL;
        assert_int_equal(web_bench_create(unknown[i], &p), RPL_EINVAL);
        assert_non_null(p);
        assert_non_null(strstr(web_error(p), unknown[i]));
        assert_non_null(strstr(web_error(p),
                               "busy-2, side-3, side-waves-3, busy-1 or side-2"));
        assert_null(web_draw(p));
        assert_int_equal(web_bench_restart(p), -1);
        web_destroy(p);
    }
    /* the versions played with each platform's own maths, or with exact
     * sines: refused, and why */
    static const char *const retired[] = { "side-1", "side-waves-1", "side-waves-2" };
    for (size_t i = 0; i < sizeof retired / sizeof retired[0]; i++) {
        p = NULL;
        assert_int_equal(web_bench_create(retired[i], &p), RPL_EINVAL);
        assert_non_null(strstr(web_error(p), retired[i]));
        assert_non_null(strstr(web_error(p), "is retired"));
        assert_null(web_draw(p));
        web_destroy(p);
    }
    /* the window demo's scenes the page lacks are named as such */
    assert_int_equal(web_bench_create("wave-2", &p), RPL_EINVAL);
    assert_non_null(strstr(web_error(p), "window demo's"));
    web_destroy(p);
    p = new_pool(64, 48, 1, 48000); /* the page's pool is no scene */
    assert_string_equal(web_bench_scene(p), "");
    assert_int_equal(web_constant("BENCH_FRAMES"), 2000);
    web_destroy(p);
}

/* busy-2 is the pool's play with smooth stones (PLAY_STONES), frame after
 * frame, played through src/play as the native timedemo plays it. */
static void test_bench_is_busy_2(void **state)
{
    (void)state;
    int frames = test_quick() ? 150 : 600;
    web_t *p = NULL;
    assert_int_equal(web_bench_create(NULL, &p), RPL_OK);
    play_config_t cfg = { .w = W, .h = H, .seed = 1, .format = RPL_XRGB8888, .rain = 1,
                          .autopilot = 1 };
    play_t *play = NULL;
    assert_int_equal(play_create(&cfg, &play), RPL_OK);
    assert_int_equal(play_set(play, PLAY_STONES, PLAY_STONES_SMOOTH), PLAY_STONES_SMOOTH);
    for (int f = 1; f <= frames; f++) {
        web_bench_frame(p);
        assert_int_equal(play_bench_input(play), RPL_OK);
        play_bench_step(play);
        if (f % 50 == 0)
            assert_memory_equal(web_heights(p), rpl_sim_heights(play_sim(play)), (size_t)W * H * 2);
    }
    play_destroy(play);
    web_destroy(p);
}

/* The water's CRC after n frames of the scene. */
static uint32_t round_crc(web_t *p, int n)
{
    for (int f = 0; f < n; f++)
        web_bench_frame(p);
    return crc_plane(0, web_heights(p), (size_t)W * H);
}

/* A restarted scene plays the same bytes as a fresh one, whether the
 * round before it ran to its end or stopped halfway: the autopilot and
 * the rain start again with the water. */
static void test_bench_restart(void **state)
{
    (void)state;
    int frames = test_quick() ? 120 : 400;
    static const char *const scenes[] = { "busy-2", "busy-1" };
    for (size_t i = 0; i < sizeof scenes / sizeof scenes[0]; i++) {
        web_t *p = NULL;
        assert_int_equal(web_bench_create(scenes[i], &p), RPL_OK);
        uint32_t first = round_crc(p, frames);
        assert_int_equal(web_bench_restart(p), 0);
        assert_int_equal(round_crc(p, frames), first);
        (void)round_crc(p, frames / 3); /* a round cut short */
        assert_int_equal(web_bench_restart(p), 0);
        assert_int_equal(round_crc(p, frames), first);
        web_destroy(p);
    }
    assert_int_equal(web_bench_restart(NULL), -1);
}

/* The frame is RGBA bytes: on calm water each pixel is the picture's,
 * red first, alpha 255, however big the picture given (fitted). */
static void test_frame_is_rgba(void **state)
{
    (void)state;
    web_t *p = new_pool(64, 48, 1, 48000);
    web_set(p, WEB_LIGHT, 0);
    uint8_t *pic = solid(200, 100, 200, 120, 30);
    assert_int_equal(web_picture(p, pic, 200, 100), 0);
    free(pic);
    const uint8_t *fb = web_draw(p);
    for (int i = 0; i < 64 * 48; i++) {
        assert_int_equal(fb[4 * i], 200);
        assert_int_equal(fb[4 * i + 1], 120);
        assert_int_equal(fb[4 * i + 2], 30);
        assert_int_equal(fb[4 * i + 3], 255);
    }
    /* a stone bends the picture only where the water moves */
    web_stone(p, 32, 24, 0);
    web_steps(p, 5, 0);
    uint8_t *pic2 = solid(1, 1, 10, 20, 30);
    assert_int_equal(web_picture(p, pic2, 1, 1), 0);
    free(pic2);
    fb = web_draw(p);
    assert_int_equal(fb[0], 10);
    assert_int_equal(fb[2], 30);
    web_destroy(p);
}

/* A refused picture or show leaves what was there. */
static void test_refused_input_keeps_state(void **state)
{
    (void)state;
    web_t *p = new_pool(32, 32, 1, 48000);
    web_set(p, WEB_LIGHT, 0);
    uint8_t *pic = solid(4, 4, 1, 2, 3);
    assert_int_equal(web_picture(p, pic, 4, 4), 0);
    assert_int_equal(web_picture(p, NULL, 4, 4), -1);
    assert_true(strlen(web_error(p)) > 0);
    assert_int_equal(web_picture(p, pic, 0, 4), -1);
    assert_int_equal(web_picture(p, pic, 4, 70000), -1);
    free(pic);
    assert_int_equal(web_draw(p)[0], 1);

    assert_int_equal(web_show(p, "ripple-show 1\n@0 drop 0.5 0.5 0.1 300\n@60 loop\n", "good"), 0);
    assert_int_equal(web_get(p, WEB_SHOW), 1);
    assert_int_equal(web_show(p, "ripple-show 1\n@0 splash 1 2\n", "bad.show"), -1);
    assert_non_null(strstr(web_error(p), "bad.show:2:"));
    assert_int_equal(web_get(p, WEB_SHOW), 1); /* the good one plays on */
    web_steps(p, 2, 1);
    int moved = 0;
    for (int i = 0; i < 32 * 32; i++)
        moved |= web_heights(p)[i] != 0;
    assert_true(moved); /* its stone fell */
    assert_int_equal(web_show(p, "", NULL), 0); /* none: the autopilot's again */
    assert_int_equal(web_get(p, WEB_SHOW), 0);
    web_destroy(p);
}

/* A picture beyond RPL_IMAGE_MAX_PIXELS is refused before any byte of it
 * is read or any block sized: in a 32-bit build 65536x65536x4 wraps
 * size_t to 0 and 65536x16385x4 to 256 KiB, which the conversion then
 * overran by 4 GiB.  The bytes given are a 4x4 picture's, as a caller
 * lying about the size would give: the size alone must refuse it. */
static void test_huge_picture_refused(void **state)
{
    (void)state;
    web_t *p = new_pool(32, 32, 1, 48000);
    web_set(p, WEB_LIGHT, 0);
    uint8_t *pic = solid(4, 4, 1, 2, 3);
    assert_int_equal(web_picture(p, pic, 4, 4), 0);
    static const int sizes[][2] = {{65536, 65536}, {65536, 16385}, {16385, 65536},
                                   {65536, 1526}, {10001, 10000}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        assert_int_equal(web_picture(p, pic, sizes[i][0], sizes[i][1]), -1);
        assert_non_null(strstr(web_error(p), "more than 100 megapixels"));
    }
    free(pic);
    const uint8_t *fb = web_draw(p);
    assert_int_equal(fb[0], 1);
    assert_int_equal(fb[1], 2);
    assert_int_equal(fb[2], 3);
    /* the longest side still fits when the count does: a 65536x2 strip */
    uint8_t *strip = solid(65536, 2, 9, 8, 7);
    assert_int_equal(web_picture(p, strip, 65536, 2), 0);
    free(strip);
    assert_int_equal(web_draw(p)[0], 9);
    web_destroy(p);
}

/* Settings are clamped; a wave setting the core refuses is refused and
 * the water goes on under the old one. */
static void test_settings(void **state)
{
    (void)state;
    web_t *p = new_pool(40, 30, 1, 48000);
    assert_int_equal(web_set(p, WEB_STRENGTH, 1000), RPL_STRENGTH_MAX);
    assert_int_equal(web_set(p, WEB_STRENGTH, -5), 0);
    assert_int_equal(web_set(p, WEB_STONE, 0), 1);
    assert_int_equal(web_set(p, WEB_STONE, 99), 40);
    assert_int_equal(web_set(p, WEB_RAIN, 7), 1);
    assert_int_equal(web_set(p, 99, 1), -1);
    assert_int_equal(web_get(p, -1), -1);
    assert_int_equal(web_set(p, WEB_MODEL, 1), 1);
    assert_non_null(strstr(web_text(p), "wave k"));
    int refused = 0;
    for (int i = 0; i < 60 && !refused; i++) /* faster and faster: k passes 1/2 */
        refused = web_wave(p, 1, 0) != 0;
    assert_true(refused);
    assert_non_null(strstr(web_error(p), "refused"));
    assert_int_equal(web_get(p, WEB_MODEL), 1);
    web_steps(p, 10, 0);
    assert_int_equal(web_set(p, WEB_MODEL, 0), 0);
    assert_string_equal(web_text(p), "classic water");
    assert_string_equal(web_version(), RPL_VERSION);
    /* the wave keys as the demo has them, and the numbers the page reads */
    assert_non_null(strstr(web_key(p, 'w'), "wave k"));
    assert_int_equal(web_get(p, WEB_MODEL), 1);
    assert_string_equal(web_key(p, 'w'), "classic water");
    assert_string_equal(web_key(p, 'q'), "");
    assert_int_equal(web_constant("STEP_HZ"), 60);
    assert_int_equal(web_constant("MAX_STEPS"), 4);
    assert_int_equal(web_constant("IDLE_MS"), 6000);
    assert_int_equal(web_constant("STONE_MAX"), 40);
    assert_int_equal(web_constant("STRENGTH_MAX"), RPL_STRENGTH_MAX);
    assert_int_equal(web_constant("AWAKE"), WEB_AWAKE);
    assert_int_equal(web_constant("nothing"), -1);
    assert_int_equal(web_constant(NULL), -1);
    assert_true(strlen(web_path(p)) > 0);
    web_destroy(p);
}

/* The component's drop from code: a bump of the radius and weight asked at
 * the cell asked (nothing elsewhere), its weight capped to a height and
 * lighter on the wave water; out of range, refused with the water as it
 * was. */
static void test_drop(void **state)
{
    (void)state;
    web_t *p = new_pool(100, 80, 1, 48000);
    web_set(p, WEB_AUTO, 0);
    web_set(p, WEB_RAIN, 0);
    assert_int_equal(web_drop(p, 30, 40, 10, 500), 0);
    const int16_t *z = web_heights(p);
    /* 2 * PLAY_BUMP_WEIGHT * 10 * 500 / 1000 = 180 at the centre, pressed down */
    assert_int_equal(z[40 * 100 + 30], -180);
    assert_int_equal(z[40 * 100 + 41], 0);
    assert_true(z[40 * 100 + 35] < 0 && z[40 * 100 + 35] > -180);
    for (int y = 0; y < 80; y++)
        for (int x = 0; x < 100; x++)
            if ((x - 30) * (x - 30) + (y - 40) * (y - 40) >= 100)
                assert_int_equal(z[y * 100 + x], 0);
    assert_int_equal(web_drop(p, 70, 40, 40, 4000), 0); /* 2*18*40*4 = 5760 */
    assert_int_equal(web_heights(p)[40 * 100 + 70], -5760);
    web_reset(p);
    assert_int_equal(web_set(p, WEB_MODEL, 1), 1);
    assert_int_equal(web_drop(p, 30, 40, 10, 500), 0);
    assert_int_equal(web_heights(p)[40 * 100 + 30], -180 * PLAY_BUMP_WAVE / 1000);
    web_reset(p);
    assert_int_equal(web_drop(p, 30, 40, 0, 500), -1);
    assert_non_null(strstr(web_error(p), "drop refused"));
    assert_int_equal(web_drop(p, 30, 40, 5, 0), -1);
    assert_int_equal(web_drop(p, 30, 40, 5, 4001), -1);
    for (int i = 0; i < 100 * 80; i++)
        assert_int_equal(web_heights(p)[i], 0);
    web_destroy(p);
}

/* The wave water's speed and viscosity set by value, at once when the
 * water is wave water; what the core refuses keeps the old ones; the edges
 * absorb or reflect. */
static void test_wave_set_and_edges(void **state)
{
    (void)state;
    web_t *p = new_pool(64, 48, 1, 48000);
    assert_int_equal(web_wave_set(p, 12, 0.6), 0);
    assert_int_equal(web_set(p, WEB_MODEL, 1), 1);
    char was[160];
    snprintf(was, sizeof was, "%s", web_text(p));
    assert_non_null(strstr(was, "k 0.040")); /* (12/60)^2 */
    assert_int_equal(web_wave_set(p, 24, 1.2), 0);
    assert_non_null(strstr(web_text(p), "k 0.160"));
    assert_int_equal(web_wave_set(p, 60, 1.2), -1); /* k 1: unstable */
    assert_non_null(strstr(web_error(p), "speed 60"));
    assert_non_null(strstr(web_text(p), "k 0.160"));
    assert_int_equal(web_wave_set(p, 0, 1), -1);
    assert_int_equal(web_wave_set(p, 10, -1), -1);
    assert_int_equal(web_get(p, WEB_EDGES), 0);
    assert_int_equal(web_set(p, WEB_EDGES, 1), 1);
    assert_int_equal(web_set(p, WEB_EDGES, 0), 0);
    assert_int_equal(web_constant("EDGES"), WEB_EDGES);
    web_destroy(p);
}

/* With the sound on a stone is heard; off, nothing is queued. */
static void test_sound(void **state)
{
    (void)state;
    web_t *p = new_pool(64, 64, 1, 48000);
    web_set(p, WEB_AUTO, 0);
    web_set(p, WEB_RAIN, 0);
    web_stone(p, 32, 32, 0); /* sound off: no drip */
    const int16_t *s = web_mix(p, 4800);
    int peak = 0;
    for (int i = 0; i < 9600; i++)
        peak = abs(s[i]) > peak ? abs(s[i]) : peak;
    assert_int_equal(peak, 0);
    assert_int_equal(web_set(p, WEB_AMBIENT, 1), 1);
    web_stone(p, 32, 32, 1);
    s = web_mix(p, 4800);
    for (int i = 0; i < 9600; i++)
        peak = abs(s[i]) > peak ? abs(s[i]) : peak;
    assert_true(peak > 1000);
    assert_non_null(web_mix(p, 1 << 30)); /* asked for too much: capped */
    web_destroy(p);
}

/* A file of the tree, whole and NUL-terminated; free() it. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s (run the tests from the top of the tree)", path);
    char *b = xmalloc((size_t)RPL_MUSIC_BYTES_MAX + 1);
    size_t n = fread(b, 1, (size_t)RPL_MUSIC_BYTES_MAX, f);
    fclose(f);
    b[n] = '\0';
    return b;
}

#define SCORE "assets/music/default.score"
#define STEP_FRAMES 800 /* 1/60 s at 48 kHz */

/* A quiet pool (no rain, no autopilot) playing the default score, heard. */
static web_t *music_pool(void)
{
    web_t *p = new_pool(64, 64, 1, 48000);
    web_set(p, WEB_AUTO, 0);
    web_set(p, WEB_RAIN, 0);
    assert_int_equal(web_set(p, WEB_HEARD, 1), 1);
    char *text = slurp(SCORE);
    assert_int_equal(web_music(p, text, "default.score"), 0);
    free(text);
    return p;
}

/* The largest magnitude of n frames. */
static int peak_of(const int16_t *s, int frames)
{
    int peak = 0;
    for (int i = 0; i < 2 * frames; i++)
        peak = abs(s[i]) > peak ? abs(s[i]) : peak;
    return peak;
}

/* The page's music is the library's own render of the score, sample for
 * sample: web_sound_crc over a pool that drops nothing against
 * rpl_sound_mix on the file read by the library, CRC'd here. */
static void test_music_is_the_library_s(void **state)
{
    (void)state;
    int steps = test_quick() ? 120 : 300;
    web_t *p = new_pool(64, 64, 1, 48000);
    assert_int_equal(web_get(p, WEB_SCORE), 0);
    assert_int_equal(web_get(p, WEB_MUSIC), 1);
    assert_int_equal(web_get(p, WEB_HEARD), 0);
    assert_int_equal(web_get(p, WEB_MUSIC_AT), 0);
    web_destroy(p);
    p = music_pool();
    assert_int_equal(web_get(p, WEB_SCORE), 1);
    uint32_t got = web_sound_crc(p, steps);
    assert_int_equal(web_get(p, WEB_MUSIC_AT), steps * STEP_FRAMES);

    rpl_music_t *m = NULL;
    assert_int_equal(rpl_music_read(SCORE, &m), RPL_OK);
    rpl_sound_t *snd = NULL;
    assert_int_equal(rpl_sound_create(48000, 1, &snd), RPL_OK);
    assert_int_equal(rpl_sound_set_music(snd, m), RPL_OK);
    int16_t *buf = xmalloc(sizeof *buf * 2 * STEP_FRAMES * (size_t)steps);
    assert_int_equal(rpl_sound_mix(snd, buf, STEP_FRAMES * steps), RPL_OK);
    uint32_t want = crc_plane(0, buf, 2 * (size_t)STEP_FRAMES * (size_t)steps);
    assert_true(peak_of(buf, STEP_FRAMES * steps) > 3000); /* music, not silence */
    assert_int_equal(got, want);
    free(buf);
    rpl_sound_destroy(snd);
    rpl_music_destroy(m);
    web_destroy(p);
}

/* The window's drop hook (app/audio.c), counting. */
typedef struct drips {
    rpl_sound_t *snd;
    int field_w, drips;
} drips_t;

static void count_drip(void *user, int x, int y, int radius, int weight)
{
    drips_t *d = user;
    d->drips++;
    assert_int_equal(rpl_sound_drip(d->snd, x, y, radius, weight, d->field_w), RPL_OK);
}

/* The drips of the default show and the music as the window mixes them:
 * the pool's sound against a pool of the play and a mixer made here
 * through the libraries' own calls, a step's sound after each step. */
static void test_music_with_the_show(void **state)
{
    (void)state;
    int steps = test_quick() ? 120 : 300, w = 160, h = 120;
    char *show = slurp("assets/shows/default.show"), *score = slurp(SCORE);
    web_t *p = new_pool(w, h, 1, 48000);
    web_set(p, WEB_AMBIENT, 1);
    web_set(p, WEB_HEARD, 1);
    assert_int_equal(web_show(p, show, "default.show"), 0);
    assert_int_equal(web_music(p, score, "default.score"), 0);
    uint32_t got = web_sound_crc(p, steps);

    play_config_t cfg = { .w = w, .h = h, .seed = 1, .format = RPL_XRGB8888, .rain = 1,
                          .autopilot = 1 };
    play_t *pl = NULL;
    assert_int_equal(play_create(&cfg, &pl), RPL_OK);
    rpl_show_t *sh = NULL;
    assert_int_equal(rpl_show_read("assets/shows/default.show", &sh), RPL_OK);
    assert_int_equal(play_set_show(pl, sh), RPL_OK);
    rpl_music_t *m = NULL;
    assert_int_equal(rpl_music_read(SCORE, &m), RPL_OK);
    rpl_sound_t *snd = NULL;
    assert_int_equal(rpl_sound_create(48000, 1, &snd), RPL_OK);
    rpl_sound_set_ambient(snd, 1);
    assert_int_equal(rpl_sound_set_music(snd, m), RPL_OK);
    drips_t d = { snd, w, 0 };
    rpl_sim_set_drop_hook(play_sim(pl), count_drip, &d);
    int16_t buf[2 * STEP_FRAMES];
    uint32_t want = 0;
    for (int i = 0; i < steps; i++) {
        assert_int_equal(play_step(pl, 1), RPL_OK);
        assert_int_equal(rpl_sound_mix(snd, buf, STEP_FRAMES), RPL_OK);
        want = crc_plane(want, buf, 2 * STEP_FRAMES);
    }
    assert_true(d.drips >= (test_quick() ? 3 : 10)); /* the show's stones are in it */
    assert_int_equal(got, want);
    rpl_sound_destroy(snd);
    rpl_music_destroy(m);
    play_destroy(pl);
    web_destroy(p);
    free(show);
    free(score);
}

/* Unheard, each step moves the music on by a step's sound (the window's
 * clock); heard, the page's mixing does.  Off, it is silent and keeps
 * time; on again, it is heard. */
static void test_music_keeps_time(void **state)
{
    (void)state;
    web_t *p = music_pool();
    web_set(p, WEB_HEARD, 0);
    web_steps(p, 100, 1);
    assert_int_equal(web_get(p, WEB_MUSIC_AT), 100 * STEP_FRAMES);
    assert_int_equal(peak_of(web_mix(p, 4800), 4800), 0); /* unheard: silenced */
    assert_int_equal(web_get(p, WEB_MUSIC_AT), 100 * STEP_FRAMES + 4800);
    assert_int_equal(web_set(p, WEB_HEARD, 1), 1);
    web_steps(p, 10, 1);
    assert_int_equal(web_get(p, WEB_MUSIC_AT), 100 * STEP_FRAMES + 4800);
    assert_true(peak_of(web_mix(p, 4800), 4800) > 1000);
    assert_int_equal(web_set(p, WEB_MUSIC, 0), 0);
    const int16_t *s = web_mix(p, 9600);
    assert_int_equal(peak_of(s + 2 * 4800, 4800), 0); /* silent after its fade */
    assert_int_equal(web_get(p, WEB_MUSIC_AT), 100 * STEP_FRAMES + 4800 * 4);
    assert_int_equal(web_set(p, WEB_MUSIC, 1), 1);
    assert_true(peak_of(web_mix(p, 4800), 4800) > 1000);
    /* a rate that is no multiple of 60: the steps' clock all the same */
    web_t *q = new_pool(64, 64, 1, 44100 + 7);
    char *text = slurp(SCORE);
    assert_int_equal(web_music(q, text, "default.score"), 0);
    free(text);
    web_steps(q, 120, 0);
    assert_int_equal(web_get(q, WEB_MUSIC_AT), 2 * (44100 + 7));
    web_destroy(q);
    web_destroy(p);
}

/* A score refused says where and why, and the music that played plays
 * on as if nothing had been given; "" stops it. */
static void test_music_refused(void **state)
{
    (void)state;
    web_t *a = music_pool(), *b = music_pool();
    web_sound_crc(a, 30);
    web_sound_crc(b, 30);
    assert_int_equal(web_music(a, "ripple-music 1\ntempo 96 4 4\nbogus 3\n", "bad.score"), -1);
    const char *e = web_error(a);
    assert_non_null(strstr(e, "bad.score:3:1: "));
    assert_null(strchr(e, '\n'));
    assert_int_equal(web_get(a, WEB_SCORE), 1);
    assert_int_equal(web_music(a, "ripple-music 1\ntempo 999 4 4\n", NULL), -1);
    assert_non_null(strstr(web_error(a), "score:2:"));
    assert_int_equal(web_sound_crc(a, 60), web_sound_crc(b, 60));
    assert_int_equal(web_music(a, "", NULL), 0);
    assert_int_equal(web_get(a, WEB_SCORE), 0);
    assert_int_equal(web_get(a, WEB_MUSIC_AT), 0);
    web_t *c = new_pool(64, 64, 1, 48000); /* refused with none loaded: still none */
    assert_int_equal(web_music(c, "nonsense", "x"), -1);
    assert_int_equal(web_get(c, WEB_SCORE), 0);
    web_destroy(c);
    web_destroy(a);
    web_destroy(b);
}

/* The side view plays the pool's sound: the music goes on across the
 * views, moved on by whichever is stepped; its own again after. */
static void test_music_shared(void **state)
{
    (void)state;
    web_t *p = music_pool(), *v = NULL;
    assert_int_equal(web_side_create(320, 240, 1, 48000, &v), RPL_OK);
    assert_int_equal(web_get(v, WEB_SCORE), 0);
    assert_int_equal(web_share_sound(v, p), 0);
    assert_int_equal(web_get(v, WEB_SCORE), 1);
    assert_int_equal(web_share_sound(p, v), -1); /* v plays another's */
    web_set(p, WEB_HEARD, 0);
    web_steps(v, 30, 0);
    assert_int_equal(web_get(p, WEB_MUSIC_AT), 30 * STEP_FRAMES);
    web_set(v, WEB_HEARD, 1);
    assert_int_equal(web_get(p, WEB_HEARD), 1);
    assert_true(peak_of(web_mix(v, 4800), 4800) > 1000);
    assert_int_equal(web_get(p, WEB_MUSIC_AT), 30 * STEP_FRAMES + 4800);
    /* a body's splash is heard in the pool's mixer, over the bed */
    assert_int_equal(web_set(v, WEB_MUSIC, 0), 0);
    assert_int_equal(web_set(v, WEB_AMBIENT, 1), 1);
    assert_int_equal(web_get(p, WEB_AMBIENT), 1);
    web_mix(v, 4800); /* the music's fade */
    int bed = peak_of(web_mix(v, 48000), 48000);
    web_stone(v, 160, 40, 1);
    web_steps(v, 60, 0);
    int splash = peak_of(web_mix(v, 48000), 48000);
    assert_true(bed < 1500 && splash > 3 * bed);
    assert_int_equal(web_share_sound(v, NULL), 0);
    assert_int_equal(web_get(v, WEB_SCORE), 0);
    web_destroy(v);
    web_destroy(p);
}

/* The side timedemo's scenes are the scene's own timedemo (scene/play.c)
 * on a scene made as the window demo makes it (640x480, seed 1, the
 * springs' defaults, autoplay off): the same CRC frame after frame (from
 * version 3 on the state's and the picture's, before it the state's
 * alone), restarted rounds alike, the surface by name. */
static void test_bench_side(void **state)
{
    (void)state;
    int frames = test_quick() ? 90 : 300;
    static const struct {
        const char *name;
        rpl_surface_kind surface;
        int picture;
    } scenes[] = { { "side-3", RPL_SURFACE_SPRINGS, 1 }, { "side", RPL_SURFACE_SPRINGS, 1 },
                   { "side-waves-3", RPL_SURFACE_WAVES, 1 }, { "side-2", RPL_SURFACE_SPRINGS, 0 } };
    for (size_t i = 0; i < sizeof scenes / sizeof scenes[0]; i++) {
        web_t *p = NULL;
        assert_int_equal(web_bench_create(scenes[i].name, &p), RPL_OK);
        assert_int_equal(web_get(p, WEB_SIDE), 1);
        assert_int_equal(web_get(p, WEB_WIDTH), W);
        assert_non_null(strstr(web_bench_scene(p), "side"));
        side_config_t cfg = { .w = W, .h = H, .format = RPL_XRGB8888,
                              .surface = scenes[i].surface, .seed = 1 };
        side_scene_t *s = NULL;
        assert_int_equal(side_scene_create(&cfg, &s), RPL_OK);
        side_scene_set_autoplay(s, 0);
        uint32_t first = 0;
        for (int f = 0; f < frames; f++) {
            web_bench_frame(p);
            side_scene_bench_input(s, f);
            side_scene_bench_step(s);
            if (f % 30 == 29)
                assert_int_equal(web_bench_crc(p), scenes[i].picture
                                                       ? side_scene_bench_crc_picture(s)
                                                       : side_scene_bench_crc(s));
        }
        first = web_bench_crc(p);
        assert_true(web_get(p, WEB_BODIES) >= frames / SIDE_BENCH_DROP_EVERY - 2);
        assert_int_equal(web_bench_restart(p), 0);
        assert_int_equal(web_get(p, WEB_BODIES), 0);
        for (int f = 0; f < frames; f++)
            web_bench_frame(p);
        assert_int_equal(web_bench_crc(p), first);
        side_scene_destroy(s);
        web_destroy(p);
    }
    web_t *p = NULL; /* a pool's CRC is its heights' */
    assert_int_equal(web_bench_create("busy-2", &p), RPL_OK);
    assert_int_equal(web_bench_crc(p), 0);
    assert_int_equal(web_get(p, WEB_SIDE), 0);
    web_destroy(p);
}

/* The side view: RGBA frames of its sky, clicks that drop bodies (an
 * iron ball with the right button), the window's keys, its overlay lines,
 * the pool's calls refused; a size below its smallest refused. */
static void test_side_view(void **state)
{
    (void)state;
    web_t *p = NULL;
    assert_int_equal(web_side_create(100, 100, 1, 48000, &p), RPL_EINVAL);
    assert_non_null(strstr(web_error(p), "no side view of 100x100"));
    assert_null(web_draw(p));
    web_destroy(p);
    p = NULL;
    assert_int_equal(web_side_create(320, 240, 1, 48000, &p), RPL_OK);
    uint8_t *red = solid(64, 64, 250, 10, 20), *grey = solid(8, 8, 90, 90, 90);
    assert_int_equal(web_side_art(p, red, 64, 64, grey, 8, 8), 0);
    free(red);
    free(grey);
    const uint8_t *fb = web_draw(p);
    assert_non_null(fb);
    /* the top of the sky: the picture's red, red first, opaque */
    assert_true(fb[0] > 150 && fb[1] < 80 && fb[2] < 80 && fb[3] == 255);
    assert_int_equal(web_get(p, WEB_BODIES), 0);
    web_stone(p, 160, 40, 0);
    web_stone(p, 100, 40, 1);
    assert_int_equal(web_get(p, WEB_BODIES), 2);
    web_steps(p, 30, 0); /* not idle: no autoplay */
    assert_int_equal(web_get(p, WEB_BODIES), 2);
    assert_non_null(strstr(web_text(p), "bodies: 2"));
    assert_non_null(strstr(web_text(p), "click drops: crate"));
    assert_string_equal(web_key(p, 'k'), "a click drops: ball");
    assert_string_equal(web_key(p, 'w'), "surface: analytic waves");
    assert_non_null(strstr(web_text(p), "analytic waves"));
    assert_string_equal(web_key(p, 'x'), "");
    assert_string_equal(web_key(p, 'c'), "bodies cleared, water calmed");
    assert_int_equal(web_get(p, WEB_BODIES), 0);
    assert_int_equal(web_set(p, WEB_AUTO, 0), 0);
    assert_int_equal(web_set(p, WEB_AUTO, 1), 1);
    web_steps(p, 240, 1); /* idle with autoplay: the scene drops its own */
    assert_true(web_get(p, WEB_BODIES) > 0);
    assert_null(web_heights(p));
    assert_int_equal(web_picture(p, fb, 4, 4), -1);
    assert_int_equal(web_drop(p, 10, 10, 3, 500), -1);
    assert_int_equal(web_get(p, WEB_RAIN), -1);
    assert_non_null(web_mix(p, 480));
    web_destroy(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_refuses),
        cmocka_unit_test(test_bench_is_busy_1),
        cmocka_unit_test(test_bench_scenes),
        cmocka_unit_test(test_bench_is_busy_2),
        cmocka_unit_test(test_bench_restart),
        cmocka_unit_test(test_frame_is_rgba),
        cmocka_unit_test(test_refused_input_keeps_state),
        cmocka_unit_test(test_huge_picture_refused),
        cmocka_unit_test(test_settings),
        cmocka_unit_test(test_sound),
        cmocka_unit_test(test_music_is_the_library_s),
        cmocka_unit_test(test_music_with_the_show),
        cmocka_unit_test(test_music_keeps_time),
        cmocka_unit_test(test_music_refused),
        cmocka_unit_test(test_music_shared),
        cmocka_unit_test(test_drop),
        cmocka_unit_test(test_wave_set_and_edges),
        cmocka_unit_test(test_bench_side),
        cmocka_unit_test(test_side_view),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
