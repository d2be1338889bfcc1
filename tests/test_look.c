/* test_look.c - how the water reads: rpl_look_measure on hand-made heights; the default show held to its targets on both models, scene by scene: speckle under 5% (at 640x480 and 320x200), a mean offset of 2 px in the busy scenes at 640x480 and, in the scenes the light draws, a mean light of 8 at both sizes; its written word clear of the picture's plaque at 320x200, 640x480 and 1920x1080; the two slits' fan of arcs and quiet rays; the pool's own stones (the autopilot and the rain, the scripted person) held to the same (cmocka). */
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
#include "ripple_support.h"
#include "play/play.h"
#include "util.h"

/* ---- the measure ------------------------------------------------------- */

static void test_measure_still(void **state)
{
    (void)state;
    int16_t *h = new_plane(100, 70);
    rpl_look_t look = { 1, 1, 1, 1 };
    assert_int_equal(rpl_look_measure(h, 100, 70, RPL_STRENGTH_ONE, &look), RPL_OK);
    assert_true(look.speckle == 0 && look.offset == 0 && look.awake == 0 && look.light == 0);
    assert_int_equal(rpl_look_measure(NULL, 100, 70, 16, &look), RPL_EINVAL);
    assert_int_equal(rpl_look_measure(h, 100, 70, 16, NULL), RPL_EINVAL);
    assert_int_equal(rpl_look_measure(h, 0, 70, 16, &look), RPL_EINVAL);
    assert_int_equal(rpl_look_measure(h, 100, 70, -1, &look), RPL_EINVAL);
    assert_int_equal(rpl_look_measure(h, 100, 70, RPL_STRENGTH_MAX + 1, &look), RPL_EINVAL);
    free(h);
}

/* One cell of height 100 at (10, 10) of a 64x32 field, one tile: its four
 * neighbours take offsets (clamped to the picture) of 9 px left, 52 right
 * (to column 63), 9 up and 20 down (to row 31); worked out by hand, ten
 * pixels differ from their right or lower neighbour by more than 3 px. */
static void test_measure_spike(void **state)
{
    (void)state;
    int16_t *h = new_plane(64, 32);
    h[10 * 64 + 10] = 100;
    rpl_look_t look;
    assert_int_equal(rpl_look_measure(h, 64, 32, RPL_STRENGTH_ONE, &look), RPL_OK);
    assert_true(look.speckle * 2048 > 9.5 && look.speckle * 2048 < 10.5);
    assert_true(look.offset * 2048 > 89.9 && look.offset * 2048 < 90.1);
    assert_true(look.awake == 1);
    /* the light: |d| = |-(xoff + yoff) >> 2| = 25 at each of the four
     * neighbours (xoff or yoff is -100 or 100), 0 elsewhere */
    assert_true(look.light * 2048 > 99.9 && look.light * 2048 < 100.1);
    /* at half strength: 50 px right (to 61), the others still clamped */
    assert_int_equal(rpl_look_measure(h, 64, 32, RPL_STRENGTH_ONE / 2, &look), RPL_OK);
    assert_true(look.offset * 2048 > 87.9 && look.offset * 2048 < 88.1);
    /* at strength 0 nothing moves, though the tile is awake and lit */
    assert_int_equal(rpl_look_measure(h, 64, 32, 0, &look), RPL_OK);
    assert_true(look.speckle == 0 && look.offset == 0 && look.awake == 1);
    assert_true(look.light * 2048 > 99.9 && look.light * 2048 < 100.1);
    /* two tiles side by side, one awake: the offset is the awake tile's */
    int16_t *h2 = new_plane(128, 32);
    h2[10 * 128 + 10] = 100;
    assert_int_equal(rpl_look_measure(h2, 128, 32, RPL_STRENGTH_ONE, &look), RPL_OK);
    assert_true(look.awake == 0.5);
    assert_true(look.speckle * 4096 > 9.5 && look.speckle * 4096 < 10.5);
    /* right, 100 px reach column 111 now: 138 over the one awake tile */
    assert_true(look.offset * 2048 > 137.9 && look.offset * 2048 < 138.1);
    assert_true(look.light * 2048 > 99.9 && look.light * 2048 < 100.1);
    /* a dip shows as much light as a crest (its slopes face the other
     * way); two of them on a diagonal, (11, 9) and (9, 11), share no
     * neighbour: 200 */
    memset(h2, 0, 128 * 32 * sizeof *h2);
    h2[10 * 128 + 10] = -100;
    assert_int_equal(rpl_look_measure(h2, 128, 32, 0, &look), RPL_OK);
    assert_true(look.light * 2048 > 99.9 && look.light * 2048 < 100.1);
    h2[10 * 128 + 10] = 0, h2[9 * 128 + 11] = 100, h2[11 * 128 + 9] = -100;
    assert_int_equal(rpl_look_measure(h2, 128, 32, 0, &look), RPL_OK);
    assert_true(look.light * 2048 > 199.9 && look.light * 2048 < 200.1);
    free(h);
    free(h2);
}

/* A wide smooth dip bends the picture without speckle: -200 (1 - d^2/30^2)^3
 * in the middle of a 128x64 field takes offsets of up to 23 px, changing
 * a pixel or two from one pixel to the next. */
static void test_measure_dip(void **state)
{
    (void)state;
    int w = 128, hgt = 64;
    int16_t *h = new_plane(w, hgt);
    for (int y = 0; y < hgt; y++)
        for (int x = 0; x < w; x++) {
            int d2 = (x - 64) * (x - 64) + (y - 32) * (y - 32);
            if (d2 < 900) {
                long long t = 900 - d2;
                h[y * w + x] = (int16_t)(-200 * t * t * t / (900LL * 900 * 900));
            }
        }
    rpl_look_t look;
    assert_int_equal(rpl_look_measure(h, w, hgt, RPL_STRENGTH_ONE, &look), RPL_OK);
    assert_true(look.speckle < 0.001);
    assert_true(look.offset > 3);
    assert_true(look.awake == 1);
    free(h);
}

/* ---- the default show -------------------------------------------------- */

#define LOOK_EVERY 10         /* steps between samples */
#define LOOK_SPECKLE_MAX 0.05 /* the target: 5% at every sampled step */
#define LOOK_OFFSET_MIN 2.0   /* and 2 px of mean offset in each busy scene */
#define LOOK_LIGHT_MIN 8.0    /* or, where the light alone draws, 8 a channel */

/* How a busy scene shows: the picture bent by the water (a mean offset
 * of LOOK_OFFSET_MIN at 640x480), or, where the show turns the refraction
 * off and draws with the light (the written word, the two slits), the
 * light on the slopes (a mean light of LOOK_LIGHT_MIN at every size: the
 * word must read at 320x200 too). */
enum { CALM = 0, BENT = 1, LIT = 2 };

/* The default show's scenes (docs/look.md), in steps. */
static const struct scene {
    const char *name;
    long from, to; /* samples at steps in (from, to] */
    int shows;
} scenes[] = {
    { "opening", 0, 450, CALM },
    { "RIPPLE written", 450, 600, LIT },
    { "ring", 600, 713, BENT },
    { "shapes", 713, 1200, BENT },
    { "rain", 1200, 1650, BENT },
    { "fade, calm", 1650, 1725, CALM }, /* the water settling in the dark */
    { "two slits", 1725, 2325, LIT },
    { "fade, calm again", 2325, 2400, CALM },
    { "finale rings, drops", 2400, 2850, BENT },
    { "finale text", 2850, 3000, LIT },
    { "finale shower", 3000, 3150, BENT },
    { "finale end", 3150, 3600, CALM },
};
#define NSCENES (sizeof scenes / sizeof scenes[0])

typedef struct scene_look {
    double worst;  /* the worst speckle */
    long worst_at;
    double offset; /* the mean offset over the samples with awake tiles */
    double light;  /* and the mean light */
    long awake;
} scene_look_t;

/* The two slits' fan: the light, averaged over six of the source's beats
 * (16 steps each) once the fan stands, on an arc above the wall (its top
 * at 0.37 of the height) about the middle between the slits, FAN_RADIUS
 * of the shorter side out, from -FAN_DEG to FAN_DEG degrees off the
 * vertical, FAN_STEP apart. */
#define FAN_FROM 2200
#define FAN_TO 2296
#define FAN_WALL 0.37
#define FAN_RADIUS 0.1
#define FAN_DEG 60
#define FAN_STEP 2
#define FAN_N (2 * FAN_DEG / FAN_STEP + 1)
typedef struct fan {
    double light[FAN_N];
} fan_t;

/* The light's |d| at cell (x, y), as the renderer shades it. */
static int light_at(const int16_t *h, int w, int x, int y)
{
    int xoff = h[y * w + x - 1] - h[y * w + x + 1];
    int yoff = h[(y - 1) * w + x] - h[(y + 1) * w + x];
    int d = (-(xoff + yoff)) >> 2;
    d = d < -RPL_SHADE_MAX ? -RPL_SHADE_MAX : d > RPL_SHADE_MAX ? RPL_SHADE_MAX : d;
    return d < 0 ? -d : d;
}

static void fan_add(fan_t *f, const int16_t *h, int w, int hgt)
{
    double r = FAN_RADIUS * (w < hgt ? w : hgt);
    for (int k = 0; k < FAN_N; k++) {
        double a = (double)(k * FAN_STEP - FAN_DEG) * 3.14159265358979 / 180;
        int x = (int)(w / 2.0 + r * sin(a)), y = (int)(FAN_WALL * hgt - r * cos(a));
        f->light[k] += (double)light_at(h, w, x, y) / (FAN_TO - FAN_FROM);
    }
}

/* Plays one pass of the default show as the demo does (a tick, then a
 * step; the refraction strength the show sets) and samples the look every
 * LOOK_EVERY steps, scene by scene, and the fan. */
static void play_look(int w, int h, int wave, scene_look_t out[NSCENES], fan_t *fan)
{
    rpl_show_t *s = NULL;
    if (rpl_show_read("assets/shows/default.show", &s) != RPL_OK)
        fail_msg("cannot read assets/shows/default.show (run the tests from the top of the "
                 "tree): %s", s ? rpl_show_error(s) : "");
    rpl_sim_t *sim = new_sim(w, h, 1);
    if (wave) {
        rpl_wave_params_t wp = { 24.0, 1.2, 1.0, 1.0 / 60, 0.985 }; /* the demo's */
        assert_int_equal(rpl_sim_set_model(sim, RPL_MODEL_WAVE, &wp), RPL_OK);
    }
    rpl_show_player_t *p = NULL;
    assert_int_equal(rpl_show_player_create(s, 1, &p), RPL_OK);
    int strength = RPL_STRENGTH_ONE;
    long steps = (long)rpl_show_length(s);
    assert_int_equal(steps, scenes[NSCENES - 1].to);
    memset(out, 0, NSCENES * sizeof *out);
    memset(fan, 0, sizeof *fan);
    size_t k = 0;
    /* under an emulated CPU every third sample: the measure was most of the
     * time there, and a worst speckle under the target over every sample
     * (the native run's, the same bytes) is under it over any of them */
    const long every = test_quick() ? 3 * LOOK_EVERY : LOOK_EVERY;
    for (long i = 1; i <= steps; i++) {
        assert_int_equal(rpl_show_player_tick(p, sim), RPL_OK);
        if (rpl_show_player_changed(p) & RPL_SHOW_STRENGTH)
            strength = rpl_show_player_view(p)->strength;
        rpl_sim_step(sim);
        if (i > FAN_FROM && i <= FAN_TO)
            fan_add(fan, cur_of(sim), w, h);
        if (i % every)
            continue;
        rpl_look_t look;
        assert_int_equal(rpl_look_measure(cur_of(sim), w, h, strength, &look), RPL_OK);
        while (i > scenes[k].to)
            k++;
        if (look.speckle > out[k].worst)
            out[k].worst = look.speckle, out[k].worst_at = i;
        if (look.awake > 0)
            out[k].offset += look.offset, out[k].light += look.light, out[k].awake++;
    }
    for (k = 0; k < NSCENES; k++)
        if (out[k].awake)
            out[k].offset /= (double)out[k].awake, out[k].light /= (double)out[k].awake;
    rpl_show_player_destroy(p);
    rpl_sim_destroy(sim);
    rpl_show_destroy(s);
}

/* The fan reads as one: its arcs show FAN_RADIUS out (a mean light of
 * FAN_LIGHT_MIN where they are brightest) and are cut by quiet rays (within
 * 45 degrees of the vertical a direction with half that light or less).
 * Returns 1 if it does, printing why not. */
#define FAN_LIGHT_MIN 40.0
static int fan_reads(const fan_t *f, int w, int h, int wave)
{
    double most = 0, least = 1e9;
    char line[FAN_N * 4 + 1] = "";
    for (int k = 0; k < FAN_N; k++) {
        most = f->light[k] > most ? f->light[k] : most;
        if (abs(k * FAN_STEP - FAN_DEG) <= 45 && f->light[k] < least)
            least = f->light[k];
        if (k % 2 == 0)
            snprintf(line + strlen(line), sizeof line - strlen(line), " %.0f", f->light[k]);
    }
    print_message("default show, %dx%d, %s water, the slits' fan %.0f%% of the shorter side "
                  "out, every %d degrees from -%d:%s\n", w, h, wave ? "wave" : "classic",
                  100 * FAN_RADIUS, 2 * FAN_STEP, FAN_DEG, line);
    if (most < FAN_LIGHT_MIN) {
        print_error("the slits' fan hardly shows: a mean light of %.1f at most, under %.0f\n",
                    most, FAN_LIGHT_MIN);
        return 0;
    }
    if (least > most / 2) {
        print_error("the slits' fan has no quiet rays: %.1f at the least within 45 degrees of "
                    "the vertical, over half of %.1f\n", least, most);
        return 0;
    }
    return 1;
}

/* At 640x480 the targets; at 320x200 the speckle and the light (there the
 * stones are a few cells wide and bend the picture less, as they should:
 * the picture is smaller). */
static void check_show(int w, int h, int wave)
{
    scene_look_t sc[NSCENES];
    fan_t fan;
    play_look(w, h, wave, sc, &fan);
    int failed = !fan_reads(&fan, w, h, wave), offsets = w == 640 && h == 480;
    for (size_t k = 0; k < NSCENES; k++) {
        print_message("default show, %dx%d, %s water, %-20s worst speckle %.2f%% (step %ld), "
                      "mean offset %.2f px, mean light %.2f\n", w, h, wave ? "wave" : "classic",
                      scenes[k].name, 100 * sc[k].worst, sc[k].worst_at, sc[k].offset,
                      sc[k].light);
        if (sc[k].worst > LOOK_SPECKLE_MAX) {
            print_error("the water speckles in '%s': %.2f%% of the pixels at step %ld, over "
                        "%.0f%% (ripple-bench --look shows the curve)\n", scenes[k].name,
                        100 * sc[k].worst, sc[k].worst_at, 100 * LOOK_SPECKLE_MAX);
            failed = 1;
        }
        /* and it is not calm water that keeps it under: the rings show */
        if (offsets && scenes[k].shows == BENT && sc[k].offset < LOOK_OFFSET_MIN) {
            print_error("the rings hardly show in '%s': a mean offset of %.2f px, under "
                        "%.1f px\n", scenes[k].name, sc[k].offset, LOOK_OFFSET_MIN);
            failed = 1;
        }
        if (scenes[k].shows == LIT && sc[k].light < LOOK_LIGHT_MIN) {
            print_error("the light hardly draws '%s': a mean light of %.2f, under %.0f\n",
                        scenes[k].name, sc[k].light, LOOK_LIGHT_MIN);
            failed = 1;
        }
    }
    if (failed)
        fail_msg("the default show misses its look at %dx%d on the %s water (docs/look.md)",
                 w, h, wave ? "wave" : "classic");
}

/* The look is the show's and the model's, the same bytes on every path and
 * CPU: under an emulated CPU (RIPPLE_TEST_QUICK) the small field alone
 * plays, and the full size is left to the native run. */
static void test_default_show_classic(void **state)
{
    (void)state;
    if (test_quick())
        skip();
    check_show(640, 480, 0);
}

static void test_default_show_wave(void **state)
{
    (void)state;
    if (test_quick())
        skip();
    check_show(640, 480, 1);
}

static void test_default_show_small(void **state)
{
    (void)state;
    check_show(320, 200, 0);
    check_show(320, 200, 1);
}

/* ---- the written word, clear of the plaque ------------------------------ */

/* The plaque of assets/background.png (src/tools/mkbackdrop.c, tile_colour):
 * the word's tiles and a tile of navy around them, tiles -16..16 across
 * and -4..4 down from the middle, 12 px each on the 640x480 picture: x
 * 122..518, y 186..294 (the picture's RIPPLE is 31 tiles wide and 7 high;
 * its pixels agree: navy from 123 to 516 along row 250 and from 187 to 292
 * down column 128, grout either side). */
#define PLAQUE_X0 122.0
#define PLAQUE_X1 518.0
#define PLAQUE_Y0 186.0
#define PLAQUE_Y1 294.0

typedef struct stones {
    int n, x[4096], y[4096], r[4096];
} stones_t;

static void on_stone(void *user, int x, int y, int radius, int weight)
{
    stones_t *s = user;
    (void)weight;
    assert_true(s->n < 4096);
    s->x[s->n] = x, s->y[s->n] = y, s->r[s->n] = radius;
    s->n++;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s (run the tests from the top of the tree)", path);
    char *t = xmalloc(1 << 20);
    size_t n = fread(t, 1, (1 << 20) - 1, f);
    fclose(f);
    t[n] = '\0';
    return t;
}

/* Every stone of the default show's `text` commands, played alone on a
 * field of w x h and seen on the picture as the pool fits it (scaled to
 * cover the field, the middle kept: rpl_image_fit), lies with its whole
 * radius off the plaque, so that the letters read as letters in the water
 * and not as the plaque's own letters wobbling; returns the stones laid. */
static int text_clear_of_plaque(const char *show, int w, int h)
{
    char *text = read_text(show);
    int laid = 0, commands = 0;
    double s = (double)w / 640 > (double)h / 480 ? (double)w / 640 : (double)h / 480;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *cmd = strstr(line, "text \"");
        char *hash = strchr(line, '#');
        if (!cmd || (hash && hash < cmd))
            continue;
        char one[4096 + 64];
        snprintf(one, sizeof one, "ripple-show 1\n%s\n", cmd);
        /* a silent press lays its stones where a loud one would, but tells
         * no drop hook: heard here, it is seen */
        char *quiet = strstr(one, " sound=off");
        if (quiet)
            memmove(quiet, quiet + 10, strlen(quiet + 10) + 1);
        rpl_show_t *sh = NULL;
        if (rpl_show_parse(one, strlen(one), "text", &sh) != RPL_OK)
            fail_msg("%s: '%s' does not parse alone: %s", show, cmd, rpl_show_error(sh));
        rpl_sim_t *sim = new_sim(w, h, 1);
        stones_t *st = xmalloc(sizeof *st);
        st->n = 0;
        rpl_sim_set_drop_hook(sim, on_stone, st);
        rpl_show_player_t *p = NULL;
        assert_int_equal(rpl_show_player_create(sh, 1, &p), RPL_OK);
        for (int t = 0; t < 20; t++) /* a pen's 15 steps, or a press's first */
            assert_int_equal(rpl_show_player_tick(p, sim), RPL_OK);
        assert_true(st->n > 0);
        for (int i = 0; i < st->n; i++) {
            double px = 320 + (st->x[i] + 0.5 - w / 2.0) / s;
            double py = 240 + (st->y[i] + 0.5 - h / 2.0) / s, pr = st->r[i] / s;
            double dx = px < PLAQUE_X0 ? PLAQUE_X0 - px : px > PLAQUE_X1 ? px - PLAQUE_X1 : 0;
            double dy = py < PLAQUE_Y0 ? PLAQUE_Y0 - py : py > PLAQUE_Y1 ? py - PLAQUE_Y1 : 0;
            if (dx * dx + dy * dy < pr * pr)
                fail_msg("%s at %dx%d: '%s' lays a stone at (%d, %d), radius %d, on the "
                         "picture's plaque (%.0f, %.0f of the 640x480 picture, radius %.1f)",
                         show, w, h, cmd, st->x[i], st->y[i], st->r[i], px, py, pr);
        }
        laid += st->n;
        commands++;
        free(st);
        rpl_show_player_destroy(p);
        rpl_sim_destroy(sim);
        rpl_show_destroy(sh);
    }
    free(text);
    assert_true(commands > 0);
    return laid;
}

static void test_text_off_the_plaque(void **state)
{
    (void)state;
    static const int sizes[][2] = { { 320, 200 }, { 640, 480 }, { 1920, 1080 } };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int n = text_clear_of_plaque("assets/shows/default.show", sizes[i][0], sizes[i][1]);
        print_message("the default show's written word at %dx%d: %d stones, all off the "
                      "plaque\n", sizes[i][0], sizes[i][1], n);
    }
}

/* ---- the pool's own stones --------------------------------------------- */

/* Steps of the autopilot and the rain: its first eight scenes (seed 1:
 * the opening burst, a ring, the spiral, the twins, a ring, the spiral,
 * the Lissajous figure, a burst). */
#define LOOK_AUTOPILOT_STEPS 2400

/* The pool the demo plays, rain and autopilot on. */
static play_t *new_play(int w, int h, uint64_t seed, unsigned flags)
{
    play_config_t cfg = { .w = w, .h = h, .seed = seed, .format = RPL_XRGB8888,
                          .flags = flags, .rain = 1, .autopilot = 1 };
    play_t *p = NULL;
    assert_int_equal(play_create(&cfg, &p), RPL_OK);
    return p;
}

typedef struct pool_look {
    double worst, offset; /* the worst speckle; the mean offset where awake */
    long worst_at;
    int strength;
} pool_look_t;

/* The pool as the demo plays it at 640x480 from seed 1, its stones as
 * asked, sampled every LOOK_EVERY steps at the strength in use: left
 * alone without a show (the autopilot and the rain), or the scripted
 * person (the rain on). */
static pool_look_t play_pool(int w, int h, int wave, int person, int stones, long steps)
{
    play_t *p = new_play(w, h, 1, 0);
    assert_int_equal(play_set(p, PLAY_STONES, stones), stones);
    if (wave)
        assert_int_equal(play_set(p, PLAY_MODEL, 1), 1);
    pool_look_t out = { 0, 0, 0, play_get(p, PLAY_STRENGTH) };
    long awake = 0;
    for (long i = 1; i <= steps; i++) {
        if (person)
            assert_int_equal(play_person_tick(p, i - 1), RPL_OK);
        assert_int_equal(play_step(p, !person), RPL_OK);
        if (i % LOOK_EVERY)
            continue;
        rpl_look_t look;
        assert_int_equal(rpl_look_measure(rpl_sim_heights(play_sim(p)), w, h,
                                          play_get(p, PLAY_STRENGTH), &look), RPL_OK);
        if (look.speckle > out.worst)
            out.worst = look.speckle, out.worst_at = i;
        if (look.awake > 0)
            out.offset += look.offset, awake++;
    }
    out.offset = awake ? out.offset / (double)awake : 0;
    play_destroy(p);
    return out;
}

static void check_pool(int wave, int person)
{
    const char *what = person ? "the scripted person" : "the autopilot and the rain";
    pool_look_t l = play_pool(640, 480, wave, person, PLAY_STONES_SMOOTH,
                              person ? PLAY_PERSON_STEPS : LOOK_AUTOPILOT_STEPS);
    print_message("%s, 640x480, %s water, smooth stones at %d/16: worst speckle %.2f%% (step "
                  "%ld), mean offset %.2f px\n", what, wave ? "wave" : "classic", l.strength,
                  100 * l.worst, l.worst_at, l.offset);
    if (l.worst > LOOK_SPECKLE_MAX)
        fail_msg("%s speckles on the %s water: %.2f%% of the pixels at step %ld, over %.0f%% "
                 "(ripple-bench --look %s)", what, wave ? "wave" : "classic", 100 * l.worst,
                 l.worst_at, 100 * LOOK_SPECKLE_MAX, person ? "--person" : "--no-show");
    if (l.offset < LOOK_OFFSET_MIN)
        fail_msg("%s hardly bends the picture on the %s water: a mean offset of %.2f px, under "
                 "%.1f px", what, wave ? "wave" : "classic", l.offset, LOOK_OFFSET_MIN);
}

static void test_autopilot_classic(void **state)
{
    (void)state;
    if (test_quick())
        skip();
    check_pool(0, 0);
}

static void test_autopilot_wave(void **state)
{
    (void)state;
    if (test_quick())
        skip();
    check_pool(1, 0);
}

static void test_person_classic(void **state)
{
    (void)state;
    if (test_quick())
        skip();
    check_pool(0, 1);
}

static void test_person_wave(void **state)
{
    (void)state;
    if (test_quick())
        skip();
    check_pool(1, 1);
}

/* The measure tells the stones apart: the classic discs at 16/16 speckle
 * far over the target within the autopilot's opening (10 s), and the
 * person's within its first drags (5 s; docs/look.md has both in full). */
static void test_classic_stones_speckle(void **state)
{
    (void)state;
    pool_look_t a = play_pool(320, 240, 0, 0, PLAY_STONES_CLASSIC, 600);
    pool_look_t b = play_pool(320, 240, 0, 1, PLAY_STONES_CLASSIC, 300);
    print_message("classic stones at %d/16, 320x240: the autopilot's worst speckle %.2f%%, "
                  "the person's %.2f%%\n", a.strength, 100 * a.worst, 100 * b.worst);
    assert_int_equal(a.strength, RPL_STRENGTH_ONE);
    assert_true(a.worst > 2 * LOOK_SPECKLE_MAX);
    assert_true(b.worst > 2 * LOOK_SPECKLE_MAX);
    /* and the scripted person is the same person every time */
    play_t *p = new_play(160, 120, 1, 0), *q = new_play(160, 120, 1, 0);
    for (long i = 0; i < 400; i++) {
        assert_int_equal(play_person_tick(p, i), RPL_OK);
        assert_int_equal(play_person_tick(q, i + PLAY_PERSON_STEPS), RPL_OK);
    }
    assert_memory_equal(rpl_sim_heights(play_sim(p)), rpl_sim_heights(play_sim(q)), 160 * 120 * 2);
    assert_true(rpl_sim_energy(play_sim(p)) > 0);
    assert_int_equal(play_person_tick(p, -1), RPL_EINVAL);
    assert_int_equal(play_person_tick(NULL, 0), RPL_EINVAL);
    play_destroy(p);
    play_destroy(q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_measure_still),
        cmocka_unit_test(test_measure_spike),
        cmocka_unit_test(test_measure_dip),
        cmocka_unit_test(test_default_show_classic),
        cmocka_unit_test(test_default_show_wave),
        cmocka_unit_test(test_default_show_small),
        cmocka_unit_test(test_text_off_the_plaque),
        cmocka_unit_test(test_autopilot_classic),
        cmocka_unit_test(test_autopilot_wave),
        cmocka_unit_test(test_person_classic),
        cmocka_unit_test(test_person_wave),
        cmocka_unit_test(test_classic_stones_speckle),
    };
    return cmocka_run_group_tests_name("look", tests, NULL, NULL);
}
