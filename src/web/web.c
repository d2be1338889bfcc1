/* web/web.c - the page's pool over libripple: the field, its picture and walls, the show or the autopilot and rain, the drips' sound, the timedemo's busy scene; called from web.js. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ripple.h"
#include "ripple_support.h"
#include "web/web.h"

/* The timedemo's busy scene, as the native --benchmark plays it (with the
 * demo's play, RPL_PLAY_*, as in a window). */
#define BENCH_W 640
#define BENCH_H 480
#define BENCH_SEED 1
#define MIX_MAX 48000 /* most frames one web_mix gives: a second at 48 kHz */

struct web {
    int w, h;
    uint64_t seed;
    rpl_sim_t *sim;
    rpl_renderer_t *ren;
    rpl_autopilot_t *ap;
    rpl_sound_t *snd;
    rpl_show_t *show;
    rpl_show_player_t *player;
    uint32_t *pic;          /* the picture fitted to the pool, XRGB8888 */
    uint32_t *work;         /* w*h words: the backdrop in the making */
    rpl_backdrop_t *bd;     /* the picture with the walls, R and B swapped */
    uint64_t walls_serial;  /* the walls drawn into bd */
    int bd_stale;           /* the picture changed since bd was made */
    uint8_t *fb;            /* the frame: RGBA bytes */
    int16_t *mix;           /* web_mix's frames */
    rpl_view_t view;
    rpl_rain_t rain;
    rpl_wave_params_t wave;
    int rain_on, auto_on, sound_on, stone;
    char err[512];
    char text[160];
};

static void say(web_t *p, const char *what, const char *why)
{
    snprintf(p->err, sizeof p->err, "%s%s%s", what, why && *why ? ": " : "", why ? why : "");
}

/* The drips of the stones, to the sound while it is on. */
static void on_drop(void *user, int x, int y, int radius, int weight)
{
    web_t *p = user;
    if (p->sound_on && rpl_sound_drip(p->snd, x, y, radius, weight, p->w) != RPL_OK)
        say(p, "drip refused", rpl_sound_error(p->snd));
}

/* The backdrop again when the picture or the walls changed: the picture,
 * the walls drawn in as stone, red and blue swapped so that the core's
 * XRGB8888 words lie in memory as a canvas's RGBA bytes.  Once per change,
 * nothing per frame; a failure keeps the old one. */
static void backdrop_update(web_t *p)
{
    uint64_t serial = rpl_sim_walls_serial(p->sim);
    if (p->bd && !p->bd_stale && serial == p->walls_serial)
        return;
    size_t n = (size_t)p->w * (size_t)p->h;
    memcpy(p->work, p->pic, n * 4);
    const uint8_t *mask = rpl_sim_walls(p->sim);
    if (mask)
        rpl_walls_paint(p->work, mask, p->w, p->h);
    for (size_t i = 0; i < n; i++) {
        uint32_t v = p->work[i];
        p->work[i] = 0xFF000000u | (v & 0xFF00u) | (v & 0xFFu) << 16 | (v >> 16 & 0xFFu);
    }
    rpl_backdrop_t *bd = NULL;
    if (rpl_backdrop_create(p->work, p->w, p->h, RPL_XRGB8888, &bd) != RPL_OK) {
        say(p, "cannot make the backdrop", rpl_backdrop_error(bd));
        rpl_backdrop_destroy(bd);
        return;
    }
    rpl_backdrop_destroy(p->bd);
    p->bd = bd;
    p->walls_serial = serial;
    p->bd_stale = 0;
}

/* The start of the demo's play for this size: rain, autopilot, light,
 * stone. */
static void start_state(web_t *p)
{
    p->rain = rpl_play_rain(p->w, p->h);
    p->view.strength = RPL_STRENGTH_ONE;
    p->view.shading = 1;
    p->stone = RPL_PLAY_STONE_UNITS * rpl_play_unit(p->w, p->h);
    p->rain_on = 1;
    p->auto_on = 1;
}

web_t *web_create(int w, int h, int seed, int rate)
{
    if (w < RPL_DIM_MIN || h < RPL_DIM_MIN || w > RPL_DIM_MAX || h > RPL_DIM_MAX ||
        (size_t)w * (size_t)h > ((size_t)1 << 26) || rate < 8000 || rate > 192000)
        return NULL;
    web_t *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    size_t n = (size_t)w * (size_t)h;
    p->w = w;
    p->h = h;
    p->seed = (uint64_t)(unsigned)seed;
    p->wave = (rpl_wave_params_t)RPL_PLAY_WAVE_DEFAULTS;
    p->pic = malloc(n * 4);
    p->work = malloc(n * 4);
    p->fb = malloc(n * 4);
    p->mix = malloc(2 * sizeof *p->mix * MIX_MAX);
    if (!p->pic || !p->work || !p->fb || !p->mix ||
        rpl_sim_create(w, h, p->seed, &p->sim) != RPL_OK ||
        rpl_renderer_create(p->sim, &p->ren) != RPL_OK ||
        rpl_autopilot_create(p->seed, &p->ap) != RPL_OK ||
        rpl_sound_create(rate, p->seed, &p->snd) != RPL_OK) {
        web_destroy(p);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) /* deep water blue until the picture comes */
        p->pic[i] = 0xFF000000u | (uint32_t)(20 + 30 * (i / (size_t)w) / (size_t)h) << 16 |
                    (uint32_t)(60 + 60 * (i / (size_t)w) / (size_t)h) << 8 | 110u;
    rpl_sim_set_drop_hook(p->sim, on_drop, p);
    start_state(p);
    backdrop_update(p);
    if (!p->bd) {
        web_destroy(p);
        return NULL;
    }
    return p;
}

void web_destroy(web_t *p)
{
    if (!p)
        return;
    rpl_show_player_destroy(p->player);
    rpl_show_destroy(p->show);
    rpl_sound_destroy(p->snd);
    rpl_autopilot_destroy(p->ap);
    rpl_renderer_destroy(p->ren);
    rpl_backdrop_destroy(p->bd);
    rpl_sim_destroy(p->sim);
    free(p->pic);
    free(p->work);
    free(p->fb);
    free(p->mix);
    free(p);
}

void web_reset(web_t *p)
{
    if (p)
        rpl_sim_reset(p->sim, p->seed);
}

const char *web_error(const web_t *p)
{
    return p ? p->err : "no pool";
}

int web_picture(web_t *p, const uint8_t *rgba, int w, int h)
{
    if (!p || !rgba || w < 1 || h < 1 || w > 65536 || h > 65536) {
        if (p)
            say(p, "bad picture", "no pixels or a size outside 1..65536");
        return -1;
    }
    size_t n = (size_t)w * (size_t)h;
    uint32_t *src = malloc(n * 4);
    uint32_t *fit = malloc((size_t)p->w * (size_t)p->h * 4);
    if (!src || !fit) {
        free(src);
        free(fit);
        say(p, "picture", "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++) /* RGBA bytes to XRGB8888 words */
        src[i] = 0xFF000000u | (uint32_t)rgba[4 * i] << 16 | (uint32_t)rgba[4 * i + 1] << 8 |
                 rgba[4 * i + 2];
    rpl_status st = rpl_image_fit(src, w, h, (ptrdiff_t)w * 4, fit, p->w, p->h);
    free(src);
    if (st != RPL_OK) {
        free(fit);
        say(p, "picture", rpl_strerror(st));
        return -1;
    }
    free(p->pic);
    p->pic = fit;
    p->bd_stale = 1;
    backdrop_update(p);
    return 0;
}

int web_show(web_t *p, const char *text, const char *name)
{
    if (!p)
        return -1;
    rpl_show_t *show = NULL;
    rpl_show_player_t *player = NULL;
    if (text && *text) {
        rpl_status st = rpl_show_parse(text, strlen(text), name ? name : "show", &show);
        if (st != RPL_OK) {
            say(p, show ? rpl_show_error(show) : rpl_strerror(st), NULL);
            rpl_show_destroy(show);
            return -1;
        }
        if (rpl_show_player_create(show, p->seed, &player) != RPL_OK) {
            say(p, "show", "out of memory");
            rpl_show_player_destroy(player);
            rpl_show_destroy(show);
            return -1;
        }
        rpl_show_player_set_rain(player, 1);
    }
    rpl_show_player_destroy(p->player);
    rpl_show_destroy(p->show);
    p->show = show;
    p->player = player;
    p->rain_on = player ? 0 : 1; /* the show decides */
    return 0;
}

/* A tick of the show, and what it changed of the view. */
static void show_tick(web_t *p)
{
    if (rpl_show_player_tick(p->player, p->sim) != RPL_OK && !p->err[0])
        say(p, "show", rpl_sim_error(p->sim)); /* said once; the show goes on */
    unsigned ch = rpl_show_player_changed(p->player);
    const rpl_show_view_t *v = rpl_show_player_view(p->player);
    if (!ch || !v)
        return;
    if (ch & RPL_SHOW_LIGHT)
        p->view.shading = v->light;
    if (ch & RPL_SHOW_STRENGTH)
        p->view.strength = v->strength;
    if (ch & RPL_SHOW_STONE)
        p->stone = rpl_play_stone(v->stone);
    if (ch & RPL_SHOW_RAIN) { /* the user who takes over finds the show's weather */
        p->rain_on = v->rain_on;
        p->rain = v->rain;
    }
    /* RPL_SHOW_PICTURE: the page has the one picture ("default") */
}

void web_steps(web_t *p, int steps, int idle)
{
    if (!p)
        return;
    for (int i = 0; i < steps; i++) {
        if (p->player && p->auto_on && idle) {
            show_tick(p);
        } else {
            if (p->rain_on && rpl_sim_rain(p->sim, &p->rain) != RPL_OK)
                say(p, "rain refused", rpl_sim_error(p->sim));
            if (p->auto_on && idle && !p->player)
                rpl_autopilot_tick(p->ap, p->sim);
        }
        backdrop_update(p); /* the show may have moved the walls */
        rpl_sim_step(p->sim);
    }
}

uint8_t *web_draw(web_t *p)
{
    if (!p)
        return NULL;
    backdrop_update(p);
    if (rpl_renderer_draw(p->ren, p->bd, p->fb, (ptrdiff_t)p->w * 4, &p->view) != RPL_OK)
        say(p, "draw", rpl_renderer_error(p->ren));
    return p->fb;
}

const int16_t *web_heights(const web_t *p)
{
    return p ? rpl_sim_heights(p->sim) : NULL;
}

void web_stone(web_t *p, int x, int y, int big)
{
    if (!p)
        return;
    int r = big ? rpl_play_stone(p->stone * 2) : p->stone;
    int weight = big ? RPL_PLAY_STONE_WEIGHT * 2 : RPL_PLAY_STONE_WEIGHT;
    if (rpl_sim_drop(p->sim, x, y, r, weight) != RPL_OK)
        say(p, "stone refused", rpl_sim_error(p->sim));
}

void web_trail(web_t *p, int x0, int y0, int x1, int y1)
{
    if (p && rpl_sim_trail(p->sim, x0, y0, x1, y1, p->stone > 2 ? p->stone / 2 : 1,
                           RPL_PLAY_STONE_WEIGHT / 2) != RPL_OK)
        say(p, "trail refused", rpl_sim_error(p->sim));
}

const int16_t *web_mix(web_t *p, int frames)
{
    if (!p)
        return NULL;
    frames = frames < 0 ? 0 : frames > MIX_MAX ? MIX_MAX : frames;
    if (rpl_sound_mix(p->snd, p->mix, frames) != RPL_OK)
        memset(p->mix, 0, (size_t)frames * 2 * sizeof *p->mix); /* silence */
    return p->mix;
}

int web_get(const web_t *p, int what)
{
    if (!p)
        return -1;
    rpl_stats_t st;
    switch (what) {
    case WEB_RAIN: return p->rain_on;
    case WEB_AUTO: return p->auto_on;
    case WEB_LIGHT: return p->view.shading;
    case WEB_STRENGTH: return p->view.strength;
    case WEB_STONE: return p->stone;
    case WEB_MODEL: return rpl_sim_model(p->sim) == RPL_MODEL_WAVE;
    case WEB_AMBIENT: return p->sound_on;
    case WEB_SHOW: return p->player != NULL;
    case WEB_WIDTH: return p->w;
    case WEB_HEIGHT: return p->h;
    case WEB_AWAKE:
        rpl_sim_stats(p->sim, &st);
        return st.tiles ? (int)((st.stepped * 100 + st.tiles / 2) / st.tiles) : 0;
    default: return -1;
    }
}

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

int web_set(web_t *p, int what, int value)
{
    if (!p)
        return -1;
    switch (what) {
    case WEB_RAIN: p->rain_on = value != 0; break;
    case WEB_AUTO: p->auto_on = value != 0; break;
    case WEB_LIGHT: p->view.shading = value != 0; break;
    case WEB_STRENGTH: p->view.strength = clampi(value, 0, RPL_STRENGTH_MAX); break;
    case WEB_STONE: p->stone = rpl_play_stone(value); break;
    case WEB_MODEL:
        if (!value && rpl_sim_set_model(p->sim, RPL_MODEL_CLASSIC, NULL) != RPL_OK)
            say(p, "classic water refused", rpl_sim_error(p->sim));
        else if (value && rpl_sim_set_model(p->sim, RPL_MODEL_WAVE, &p->wave) != RPL_OK)
            say(p, "wave water refused", rpl_sim_error(p->sim));
        break;
    case WEB_AMBIENT:
        p->sound_on = value != 0;
        rpl_sound_set_ambient(p->snd, p->sound_on);
        break;
    default: break;
    }
    return web_get(p, what);
}

int web_wave(web_t *p, int speed, int viscosity)
{
    if (!p)
        return -1;
    rpl_wave_params_t w = rpl_play_wave_nudge(p->wave, speed, viscosity);
    rpl_wave_info_t info;
    if (rpl_wave_info(&w, &info) != RPL_OK) {
        say(p, "refused", info.why);
        return -1;
    }
    p->wave = w;
    if (rpl_sim_model(p->sim) == RPL_MODEL_WAVE &&
        rpl_sim_set_model(p->sim, RPL_MODEL_WAVE, &w) != RPL_OK) {
        say(p, "refused", rpl_sim_error(p->sim));
        return -1;
    }
    return 0;
}

const char *web_text(web_t *p)
{
    if (!p)
        return "";
    rpl_wave_info_t info;
    if (rpl_sim_model(p->sim) != RPL_MODEL_WAVE || rpl_wave_info(&p->wave, &info) != RPL_OK)
        snprintf(p->text, sizeof p->text, "classic water");
    else
        snprintf(p->text, sizeof p->text, "wave k %.3f  u*dt %.3f", info.k, info.ut);
    return p->text;
}

const char *web_path(const web_t *p)
{
    return p ? rpl_kernels_name(rpl_sim_kernels(p->sim)) : "";
}

const char *web_version(void)
{
    return RPL_VERSION;
}

web_t *web_bench_create(void)
{
    return web_create(BENCH_W, BENCH_H, BENCH_SEED, 48000); /* no show: rain and autopilot on */
}

void web_bench_frame(web_t *p)
{
    if (!p)
        return;
    if (rpl_sim_rain(p->sim, &p->rain) != RPL_OK)
        say(p, "rain refused", rpl_sim_error(p->sim));
    rpl_autopilot_tick(p->ap, p->sim);
    rpl_sim_step(p->sim);
}
