/* web/web.c - the page's pool: a thin layer exporting the pool's play (src/play) and the drips' sound to web.js, with the timedemo's busy scene and the play's constants. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "play/play.h"
#include "ripple.h"
#include "ripple_support.h"
#include "web/web.h"

/* The timedemo's busy scenes, as the native --benchmark plays them: the
 * pool's size, seed and frames a round. */
#define BENCH_W 640
#define BENCH_H 480
#define BENCH_SEED 1
#define BENCH_FRAMES 2000
#define MIX_MAX 48000 /* most frames one web_mix gives: a second at 48 kHz */

struct web {
    play_t *play;
    rpl_sound_t *snd;
    uint8_t *fb;            /* the frame: RGBA bytes */
    int16_t *mix;           /* web_mix's frames */
    int sound_on;
    const struct bench_scene *bench; /* the timedemo's scene (NULL: the page's pool) */
    char err[512];
    char text[160];
};

/* The timedemo's scenes the page plays, the newest version of a name
 * first (a name without its version means it). */
static const struct bench_scene {
    const char *name;
    int version;
    int stones;        /* PLAY_STONES */
    const char *about;
} bench_scenes[] = {
    { "busy", 2, PLAY_STONES_SMOOTH,
      "the pool, classic water: the autopilot's stones and rain from seed 1, laid as smooth "
      "bumps (the default)" },
    { "busy", 1, PLAY_STONES_CLASSIC,
      "the pool, classic water: the autopilot's stones and rain from seed 1, laid as the "
      "1990s' flat discs" },
};
#define BENCH_SCENES (sizeof bench_scenes / sizeof bench_scenes[0])

/* The scene called name ("busy-2", or "busy" for its newest version), or NULL. */
static const struct bench_scene *bench_scene_find(const char *name)
{
    for (size_t i = 0; i < BENCH_SCENES; i++) {
        const struct bench_scene *b = &bench_scenes[i];
        size_t n = strlen(b->name);
        char ver[16];
        snprintf(ver, sizeof ver, "-%d", b->version);
        if (!strncmp(name, b->name, n) && (!name[n] || !strcmp(name + n, ver)))
            return b;
    }
    return NULL;
}

static void say(web_t *p, const char *what, const char *why)
{
    snprintf(p->err, sizeof p->err, "%s%s%s", what, why && *why ? ": " : "", why ? why : "");
}

/* The drips of the stones, to the sound while it is on. */
static void on_drop(void *user, int x, int y, int radius, int weight)
{
    web_t *p = user;
    if (p->sound_on &&
        rpl_sound_drip(p->snd, x, y, radius, weight, rpl_sim_width(play_sim(p->play))) != RPL_OK)
        say(p, "drip refused", rpl_sound_error(p->snd));
}

/* What went wrong in play, for web_error. */
static void on_note(void *user, const char *msg)
{
    say(user, msg, NULL);
}

int web_create(int w, int h, int seed, int rate, web_t **out)
{
    if (!out)
        return RPL_EINVAL;
    web_t *p = calloc(1, sizeof *p);
    *out = p;
    if (!p)
        return RPL_ENOMEM;
    if (w < RPL_DIM_MIN || h < RPL_DIM_MIN || w > RPL_DIM_MAX || h > RPL_DIM_MAX ||
        (size_t)w * (size_t)h > ((size_t)1 << 26) || rate < 8000 || rate > 192000) {
        snprintf(p->err, sizeof p->err, "no pool of %dx%d at %d Hz: sides %d..%d, at most 2^26 "
                 "cells, 8000..192000 Hz", w, h, rate, RPL_DIM_MIN, RPL_DIM_MAX);
        return RPL_EINVAL;
    }
    uint64_t s = (uint64_t)(unsigned)seed;
    play_config_t cfg = {
        .w = w, .h = h, .seed = s, .format = RPL_XRGB8888, .flags = PLAY_SWAP_RB,
        .rain = 1, .autopilot = 1, .note = on_note, .user = p,
    };
    rpl_status st = play_create(&cfg, &p->play);
    if (st != RPL_OK) {
        say(p, play_error(p->play), NULL);
        return st;
    }
    size_t n = (size_t)w * (size_t)h;
    uint32_t *pic = malloc(n * 4);
    p->fb = malloc(n * 4);
    p->mix = malloc(2 * sizeof *p->mix * MIX_MAX);
    st = pic && p->fb && p->mix ? rpl_sound_create(rate, s, &p->snd) : RPL_ENOMEM;
    if (st == RPL_OK) {
        for (size_t i = 0; i < n; i++) /* deep water blue until the picture comes */
            pic[i] = 0xFF000000u | (uint32_t)(20 + 30 * (i / (size_t)w) / (size_t)h) << 16 |
                     (uint32_t)(60 + 60 * (i / (size_t)w) / (size_t)h) << 8 | 110u;
        st = play_set_picture(p->play, pic, w, h, (ptrdiff_t)w * 4);
    }
    free(pic);
    if (st != RPL_OK) {
        say(p, "cannot make the pool", rpl_strerror(st));
        return st;
    }
    rpl_sim_set_drop_hook(play_sim(p->play), on_drop, p);
    return RPL_OK;
}

void web_destroy(web_t *p)
{
    if (!p)
        return;
    play_destroy(p->play);
    rpl_sound_destroy(p->snd);
    free(p->fb);
    free(p->mix);
    free(p);
}

/* A pool that web_create made whole. */
static int ok(const web_t *p)
{
    return p && p->snd;
}

void web_reset(web_t *p)
{
    if (ok(p))
        play_reset(p->play);
}

const char *web_error(const web_t *p)
{
    return p ? p->err : "no pool (out of memory)";
}

int web_picture(web_t *p, const uint8_t *rgba, int w, int h)
{
    if (!ok(p) || !rgba || w < 1 || h < 1 || w > 65536 || h > 65536) {
        if (p)
            say(p, "bad picture", "no pixels or a size outside 1..65536");
        return -1;
    }
    /* Counted in 64 bits: in the 32-bit builds (the module itself) w*h*4
     * wraps size_t from 65536x16384 up, and a tiny block would take the
     * whole picture.  The bound keeps w*h*4 under 2^31 besides. */
    if ((int64_t)w * h > RPL_IMAGE_MAX_PIXELS) {
        char why[96];
        snprintf(why, sizeof why, "%dx%d is more than %ld megapixels", w, h,
                 RPL_IMAGE_MAX_PIXELS / 1000000);
        say(p, "bad picture", why);
        return -1;
    }
    size_t n = (size_t)w * (size_t)h;
    uint32_t *src = malloc(n * 4);
    if (!src) {
        say(p, "picture", "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++) /* RGBA bytes to XRGB8888 words */
        src[i] = 0xFF000000u | (uint32_t)rgba[4 * i] << 16 | (uint32_t)rgba[4 * i + 1] << 8 |
                 rgba[4 * i + 2];
    rpl_status st = play_set_picture(p->play, src, w, h, (ptrdiff_t)w * 4);
    free(src);
    if (st != RPL_OK) {
        say(p, "picture", play_error(p->play));
        return -1;
    }
    return 0;
}

int web_show(web_t *p, const char *text, const char *name)
{
    if (!ok(p))
        return -1;
    rpl_show_t *show = NULL;
    if (text && *text) {
        rpl_status st = rpl_show_parse(text, strlen(text), name ? name : "show", &show);
        if (st != RPL_OK) {
            say(p, show ? rpl_show_error(show) : rpl_strerror(st), NULL);
            rpl_show_destroy(show);
            return -1;
        }
    }
    if (play_set_show(p->play, show) != RPL_OK) { /* the old one plays on */
        say(p, play_error(p->play), NULL);
        return -1;
    }
    return 0;
}

void web_steps(web_t *p, int steps, int idle)
{
    for (int i = 0; ok(p) && i < steps; i++)
        if (play_step(p->play, idle) != RPL_OK)
            say(p, play_error(p->play), NULL);
}

uint8_t *web_draw(web_t *p)
{
    if (!ok(p))
        return NULL;
    int w = rpl_sim_width(play_sim(p->play));
    if (play_draw(p->play, p->fb, (ptrdiff_t)w * 4) != RPL_OK)
        say(p, play_error(p->play), NULL);
    return p->fb;
}

const int16_t *web_heights(const web_t *p)
{
    return ok(p) ? rpl_sim_heights(play_sim(p->play)) : NULL;
}

void web_stone(web_t *p, int x, int y, int big)
{
    if (ok(p) && play_stone(p->play, x, y, big) != RPL_OK)
        say(p, play_error(p->play), NULL);
}

void web_trail(web_t *p, int x0, int y0, int x1, int y1)
{
    if (ok(p) && play_trail(p->play, x0, y0, x1, y1) != RPL_OK)
        say(p, play_error(p->play), NULL);
}

const int16_t *web_mix(web_t *p, int frames)
{
    if (!ok(p))
        return NULL;
    frames = frames < 0 ? 0 : frames > MIX_MAX ? MIX_MAX : frames;
    if (rpl_sound_mix(p->snd, p->mix, frames) != RPL_OK)
        memset(p->mix, 0, (size_t)frames * 2 * sizeof *p->mix); /* silence */
    return p->mix;
}

/* The play's settings under the page's numbers. */
static int play_setting_of(int what)
{
    switch (what) {
    case WEB_RAIN: return PLAY_RAIN;
    case WEB_AUTO: return PLAY_AUTO;
    case WEB_LIGHT: return PLAY_LIGHT;
    case WEB_STRENGTH: return PLAY_STRENGTH;
    case WEB_STONE: return PLAY_STONE;
    case WEB_MODEL: return PLAY_MODEL;
    case WEB_SHOW: return PLAY_SHOW;
    default: return -1;
    }
}

int web_get(const web_t *p, int what)
{
    if (!ok(p))
        return -1;
    const rpl_sim_t *sim = play_sim(p->play);
    rpl_stats_t st;
    switch (what) {
    case WEB_AMBIENT: return p->sound_on;
    case WEB_WIDTH: return rpl_sim_width(sim);
    case WEB_HEIGHT: return rpl_sim_height(sim);
    case WEB_EDGES: return (int)rpl_sim_edges(sim);
    case WEB_AWAKE:
        rpl_sim_stats(sim, &st);
        return st.tiles ? (int)((st.stepped * 100 + st.tiles / 2) / st.tiles) : 0;
    default: {
        int s = play_setting_of(what);
        return s < 0 ? -1 : play_get(p->play, (play_setting)s);
    }
    }
}

int web_set(web_t *p, int what, int value)
{
    if (!ok(p))
        return -1;
    int s = play_setting_of(what);
    if (what == WEB_AMBIENT) {
        p->sound_on = value != 0;
        rpl_sound_set_ambient(p->snd, p->sound_on);
    } else if (what == WEB_EDGES) {
        if (rpl_sim_set_edges(play_sim(p->play), value ? RPL_EDGES_ABSORB : RPL_EDGES_REFLECT) !=
            RPL_OK)
            say(p, "edges refused", rpl_sim_error(play_sim(p->play)));
    } else if (s >= 0 && s != PLAY_SHOW) {
        int now = play_set(p->play, (play_setting)s, value);
        if (what == WEB_MODEL && now != (value != 0))
            say(p, "wave water refused", play_error(p->play));
    }
    return web_get(p, what);
}

int web_drop(web_t *p, int x, int y, int radius, int permille)
{
    if (!ok(p))
        return -1;
    if (radius < 1 || radius > RPL_DIM_MAX || permille < 1 || permille > 4000) {
        char why[96];
        snprintf(why, sizeof why, "radius %d (1..%d) or weight %d (1..4000) out of range", radius,
                 RPL_DIM_MAX, permille);
        say(p, "drop refused", why);
        return -1;
    }
    rpl_sim_t *sim = play_sim(p->play);
    int64_t weight = (int64_t)2 * PLAY_BUMP_WEIGHT * radius * permille / 1000;
    if (rpl_sim_model(sim) == RPL_MODEL_WAVE)
        weight = weight * PLAY_BUMP_WAVE / 1000;
    weight = weight < 1 ? 1 : weight > RPL_HEIGHT_MAX ? RPL_HEIGHT_MAX : weight;
    if (rpl_sim_bump(sim, x, y, radius, (int)weight) != RPL_OK) {
        say(p, "drop refused", rpl_sim_error(sim));
        return -1;
    }
    return 0;
}

int web_wave_set(web_t *p, double speed, double viscosity)
{
    if (!ok(p))
        return -1;
    rpl_wave_params_t w = *play_wave(p->play);
    w.speed = speed;
    w.viscosity = viscosity;
    rpl_wave_info_t info = { 0 };
    if (!(speed > 0) || !(viscosity >= 0) || rpl_wave_info(&w, &info) != RPL_OK) {
        char why[320];
        snprintf(why, sizeof why, "speed %g and viscosity %g refused%s%s", speed, viscosity,
                 info.why[0] ? ": " : "", info.why);
        say(p, "wave water", why);
        return -1;
    }
    play_set_wave(p->play, &w);
    rpl_sim_t *sim = play_sim(p->play);
    if (rpl_sim_model(sim) == RPL_MODEL_WAVE && rpl_sim_set_model(sim, RPL_MODEL_WAVE, &w) != RPL_OK) {
        say(p, "wave water", rpl_sim_error(sim));
        return -1;
    }
    return 0;
}

int web_wave(web_t *p, int speed, int viscosity)
{
    if (!ok(p))
        return -1;
    if (play_wave_step(p->play, speed, viscosity) != RPL_OK) {
        say(p, "refused", play_error(p->play));
        return -1;
    }
    return 0;
}

const char *web_key(web_t *p, int key)
{
    if (!ok(p))
        return "";
    if (!play_key(p->play, key, p->text, sizeof p->text))
        p->text[0] = '\0';
    return p->text;
}

const char *web_text(web_t *p)
{
    if (!ok(p))
        return "";
    play_model_text(p->play, p->text, sizeof p->text);
    return p->text;
}

const char *web_path(const web_t *p)
{
    return ok(p) ? rpl_kernels_name(rpl_sim_kernels(play_sim(p->play))) : "";
}

const char *web_version(void)
{
    return RPL_VERSION;
}

int web_constant(const char *name)
{
    static const struct {
        const char *name;
        int value;
    } constants[] = {
        { "STEP_HZ", PLAY_STEP_HZ },
        { "MAX_STEPS", PLAY_MAX_CATCHUP },
        { "IDLE_MS", PLAY_IDLE_MS },
        { "STONE_MIN", PLAY_STONE_MIN },
        { "STONE_MAX", PLAY_STONE_MAX },
        { "STRENGTH_MAX", PLAY_STRENGTH_MAX },
        { "BENCH_FRAMES", BENCH_FRAMES },
        { "RAIN", WEB_RAIN },
        { "AUTO", WEB_AUTO },
        { "LIGHT", WEB_LIGHT },
        { "STRENGTH", WEB_STRENGTH },
        { "STONE", WEB_STONE },
        { "MODEL", WEB_MODEL },
        { "AMBIENT", WEB_AMBIENT },
        { "SHOW", WEB_SHOW },
        { "WIDTH", WEB_WIDTH },
        { "HEIGHT", WEB_HEIGHT },
        { "AWAKE", WEB_AWAKE },
        { "EDGES", WEB_EDGES },
    };
    for (size_t i = 0; name && i < sizeof constants / sizeof constants[0]; i++)
        if (!strcmp(name, constants[i].name))
            return constants[i].value;
    return -1;
}

int web_bench_create(const char *scene, web_t **out)
{
    const struct bench_scene *b = bench_scene_find(scene && *scene ? scene : "busy");
    /* no show: the rain and the autopilot */
    int st = web_create(BENCH_W, BENCH_H, BENCH_SEED, 48000, out);
    if (st != RPL_OK)
        return st;
    if (!b) {
        char names[128] = "";
        for (size_t i = 0; i < BENCH_SCENES; i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s-%d",
                     i == 0 ? "" : i + 1 < BENCH_SCENES ? ", " : " or ", bench_scenes[i].name,
                     bench_scenes[i].version);
        snprintf((*out)->err, sizeof (*out)->err, "no timedemo scene '%s' in the page: %s", scene,
                 names);
        rpl_sound_destroy((*out)->snd); /* refused: a pool that plays nothing, as web_create's */
        (*out)->snd = NULL;
        return RPL_EINVAL;
    }
    (*out)->bench = b;
    (void)play_set((*out)->play, PLAY_STONES, b->stones);
    return RPL_OK;
}

void web_bench_frame(web_t *p)
{
    if (!ok(p))
        return;
    if (play_bench_input(p->play) != RPL_OK)
        say(p, play_error(p->play), NULL);
    play_bench_step(p->play);
}

int web_bench_restart(web_t *p)
{
    if (!ok(p))
        return -1;
    if (play_bench_restart(p->play) != RPL_OK) {
        say(p, "cannot restart the scene", play_error(p->play));
        return -1;
    }
    return 0;
}

const char *web_bench_scene(web_t *p)
{
    if (!p || !p->bench)
        return "";
    snprintf(p->text, sizeof p->text, "%s-%d", p->bench->name, p->bench->version);
    return p->text;
}

const char *web_bench_about(const web_t *p)
{
    return p && p->bench ? p->bench->about : "";
}
