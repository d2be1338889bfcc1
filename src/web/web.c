/* web/web.c - the page's water: a thin layer exporting the pool's play (src/play), the side view (src/scene) and their sound and music to engine.js, with the timedemo's scenes and the play's constants. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "play/play.h"
#include "ripple.h"
#include "scene/scene.h"
#include "ripple_support.h"
#include "web/web.h"

/* The timedemo's scenes, as the native --benchmark plays them: the
 * field's size, seed and frames a round. */
#define BENCH_W 640
#define BENCH_H 480
#define BENCH_SEED 1
#define BENCH_FRAMES 2000
#define MIX_MAX 48000 /* most frames one web_mix gives: a second at 48 kHz */

struct web {
    play_t *play;           /* the pool (NULL: the side view) */
    side_scene_t *side;     /* the side view (NULL: the pool) */
    rpl_sound_t *snd;
    web_t *sound_of;        /* whose sound this one plays (web_share_sound); NULL: its own */
    uint8_t *fb;            /* the frame: RGBA bytes */
    int16_t *mix;           /* web_mix's frames */
    /* the sound's settings, the owner's (sound()) count: the drips queued
     * and the bed; the music wanted; the page playing what it mixes; a
     * score loaded; the sound's frames owed to a step beyond whole ones */
    int sound_on, music_on, heard, score, step_rest;
    int w, h;
    /* the side view's: its frame as the scene draws it (XRGB8888), its
     * pictures (XRGB8888, NULL: none) kept for a scene made again, its
     * seed, what a click drops, the user's autoplay, the timedemo's frame */
    uint32_t *scene_fb;
    uint32_t *sky, *stone;
    int sky_w, sky_h, stone_w, stone_h;
    uint64_t seed;
    int kind, autoplay;
    long bench_frame;
    const play_bench_scene_t *bench; /* the timedemo's scene (NULL: the page's own) */
    char err[512];
    char text[256];
};

/* A timedemo scene the page plays: the side view's, and the pool's that
 * play neither a show nor the wave water (the page's pool has both, its
 * timedemo not yet). */
static int page_plays(const play_bench_scene_t *b)
{
    return b && (b->scene == PLAY_BENCH_SIDE || (!b->show && b->model == RPL_MODEL_CLASSIC));
}

static void say(web_t *p, const char *what, const char *why)
{
    snprintf(p->err, sizeof p->err, "%s%s%s", what, why && *why ? ": " : "", why ? why : "");
}

/* The one whose sound p plays: p, or the pool it shares with. */
static web_t *sound(web_t *p)
{
    return p->sound_of ? p->sound_of : p;
}

static const web_t *sound_c(const web_t *p)
{
    return p->sound_of ? p->sound_of : p;
}

/* The drips of the stones, to the sound while it is on. */
static void on_drop(void *user, int x, int y, int radius, int weight)
{
    web_t *p = user, *s = sound(p);
    if (s->sound_on &&
        rpl_sound_drip(s->snd, x, y, radius, weight, rpl_sim_width(play_sim(p->play))) != RPL_OK)
        say(p, "drip refused", rpl_sound_error(s->snd));
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
    p->music_on = 1; /* as the window's --music on */
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
    p->w = w;
    p->h = h;
    return RPL_OK;
}

/* A splash sounds like a drip of a stone its size, as in the window
 * (app/side.c): bigger and louder the faster the body went in. */
static void on_splash(void *user, double x, double y, double speed)
{
    web_t *p = user, *s = sound(p);
    if (!s->sound_on)
        return;
    double f = speed / 900.0 * (480.0 / p->h);
    f = f > 1 ? 1 : f;
    if (rpl_sound_drip(s->snd, (int)x, (int)y, 2 + (int)(10 * f), 120 + (int)(900 * f), p->w) !=
        RPL_OK)
        say(p, "drip refused", rpl_sound_error(s->snd));
}

/* The side scene made (again) from the view's size, seed, pictures and
 * surface: the water calm, no bodies.  RPL_OK, or the scene's refusal
 * (web_error says why; no scene then). */
static rpl_status side_make(web_t *p, rpl_surface_kind surface)
{
    side_scene_destroy(p->side);
    p->side = NULL;
    side_config_t cfg = {
        .w = p->w, .h = p->h, .format = RPL_XRGB8888, .surface = surface, .seed = p->seed,
        .sky = p->sky, .sky_w = p->sky_w, .sky_h = p->sky_h,
        .stone = p->stone, .stone_w = p->stone_w, .stone_h = p->stone_h,
    };
    rpl_status st = side_scene_create(&cfg, &p->side);
    if (st != RPL_OK) {
        say(p, "cannot make the side scene", p->side ? side_scene_error(p->side) : rpl_strerror(st));
        side_scene_destroy(p->side);
        p->side = NULL;
        return st;
    }
    side_scene_set_splash_hook(p->side, on_splash, p);
    side_scene_set_autoplay(p->side, 0); /* web_steps sets it a frame at a time */
    return RPL_OK;
}

/* web_side_create with the surface given. */
static int side_create(int w, int h, int seed, int rate, rpl_surface_kind surface, web_t **out)
{
    if (!out)
        return RPL_EINVAL;
    web_t *p = calloc(1, sizeof *p);
    *out = p;
    if (!p)
        return RPL_ENOMEM;
    p->music_on = 1; /* as the window's --music on */
    if (w < SIDE_W_MIN || h < SIDE_H_MIN || w > SIDE_DIM_MAX || h > SIDE_DIM_MAX || rate < 8000 ||
        rate > 192000) {
        snprintf(p->err, sizeof p->err, "no side view of %dx%d at %d Hz: at least %dx%d, sides "
                 "at most %d, 8000..192000 Hz", w, h, rate, SIDE_W_MIN, SIDE_H_MIN, SIDE_DIM_MAX);
        return RPL_EINVAL;
    }
    p->w = w;
    p->h = h;
    p->seed = (uint64_t)(unsigned)seed;
    p->autoplay = 1;
    p->kind = SIDE_KIND_CRATE;
    size_t n = (size_t)w * (size_t)h;
    p->fb = malloc(n * 4);
    p->scene_fb = malloc(n * 4);
    p->mix = malloc(2 * sizeof *p->mix * MIX_MAX);
    if (!p->fb || !p->scene_fb || !p->mix) {
        say(p, "cannot make the side view", "out of memory");
        return RPL_ENOMEM;
    }
    rpl_status st = side_make(p, surface);
    if (st != RPL_OK)
        return st;
    st = rpl_sound_create(rate, p->seed, &p->snd);
    if (st != RPL_OK) {
        rpl_sound_destroy(p->snd);
        p->snd = NULL;
        say(p, "cannot make the side view's sound", rpl_strerror(st));
    }
    return st;
}

int web_side_create(int w, int h, int seed, int rate, web_t **out)
{
    return side_create(w, h, seed, rate, RPL_SURFACE_SPRINGS, out);
}

void web_destroy(web_t *p)
{
    if (!p)
        return;
    play_destroy(p->play);
    side_scene_destroy(p->side);
    rpl_sound_destroy(p->snd);
    free(p->fb);
    free(p->scene_fb);
    free(p->sky);
    free(p->stone);
    free(p->mix);
    free(p);
}

/* A pool or side view that its constructor made whole. */
static int ok(const web_t *p)
{
    return p && p->snd && (p->play || p->side);
}

/* The pool's, the side view's. */
static int pool(const web_t *p)
{
    return ok(p) && p->play;
}

static int side(const web_t *p)
{
    return ok(p) && p->side;
}

void web_reset(web_t *p)
{
    if (pool(p))
        play_reset(p->play);
    else if (side(p))
        side_scene_clear(p->side);
}

/* RGBA bytes as XRGB8888 words into a new block (*out NULL for none);
 * 0, or -1 with web_error saying why. */
static int xrgb_of(web_t *p, const char *what, const uint8_t *rgba, int w, int h, uint32_t **out)
{
    *out = NULL;
    if (!rgba)
        return 0;
    if (w < 1 || h < 1 || w > 65536 || h > 65536 || (int64_t)w * h > RPL_IMAGE_MAX_PIXELS) {
        say(p, what, "a size outside 1..65536 or too many pixels");
        return -1;
    }
    size_t n = (size_t)w * (size_t)h;
    *out = malloc(n * 4);
    if (!*out) {
        say(p, what, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        (*out)[i] = 0xFF000000u | (uint32_t)rgba[4 * i] << 16 | (uint32_t)rgba[4 * i + 1] << 8 |
                    rgba[4 * i + 2];
    return 0;
}

int web_side_art(web_t *p, const uint8_t *sky, int sky_w, int sky_h, const uint8_t *stone,
                 int stone_w, int stone_h)
{
    if (!side(p))
        return -1;
    uint32_t *a, *b;
    if (xrgb_of(p, "the sky", sky, sky_w, sky_h, &a) != 0)
        return -1;
    if (xrgb_of(p, "the stone", stone, stone_w, stone_h, &b) != 0) {
        free(a);
        return -1;
    }
    free(p->sky);
    free(p->stone);
    p->sky = a, p->sky_w = sky_w, p->sky_h = sky_h;
    p->stone = b, p->stone_w = stone_w, p->stone_h = stone_h;
    return side_make(p, side_scene_surface(p->side)) == RPL_OK ? 0 : -1;
}

const char *web_error(const web_t *p)
{
    return p ? p->err : "no pool (out of memory)";
}

int web_picture(web_t *p, const uint8_t *rgba, int w, int h)
{
    if (!pool(p) || !rgba || w < 1 || h < 1 || w > 65536 || h > 65536) {
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
    if (!pool(p))
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

/* One step of 1/60 s of the pool or the side view (whose own steps are
 * finer). */
static void step(web_t *p, int idle)
{
    if (side(p)) {
        side_scene_set_autoplay(p->side, p->autoplay && idle);
        for (int i = 0, n = side_scene_bench_steps(); i < n; i++)
            side_scene_step(p->side);
    } else if (play_step(p->play, idle) != RPL_OK) {
        say(p, play_error(p->play), NULL);
    }
}

/* The frames of sound a step is worth at s's rate: rate / PLAY_STEP_HZ,
 * the remainder carried to the next, so that the music's clock is the
 * steps' at any rate (800 at 48 kHz, as the window mixes them). */
static int step_frames(web_t *s)
{
    int rate = rpl_sound_rate(s->snd);
    int n = (s->step_rest + rate) / PLAY_STEP_HZ;
    s->step_rest = (s->step_rest + rate) % PLAY_STEP_HZ;
    return n;
}

void web_steps(web_t *p, int steps, int idle)
{
    for (int i = 0; ok(p) && i < steps; i++) {
        step(p, idle);
        /* Unheard, the step's sound is mixed and let go, as the window
         * mixes a step's after each step whether it is heard or not: the
         * music then keeps the water's time, and is where the show is
         * when the page begins to play it. */
        web_t *s = sound(p);
        if (s->score && !s->heard && rpl_sound_mix(s->snd, p->mix, step_frames(s)) != RPL_OK)
            say(p, "sound", rpl_sound_error(s->snd));
    }
}

/* The scene's frame into the page's RGBA bytes where the last render
 * changed it (the rest is as the last call left it). */
static void side_present(web_t *p)
{
    rpl_rect_t rects[32];
    int n = side_scene_changed(p->side, rects, 32);
    for (int k = 0; k < n; k++) {
        const rpl_rect_t *r = &rects[k];
        for (int y = r->y; y < r->y + r->h; y++) {
            const uint32_t *src = p->scene_fb + (size_t)y * (size_t)p->w;
            uint32_t *dst = (uint32_t *)(void *)p->fb + (size_t)y * (size_t)p->w;
            for (int x = r->x; x < r->x + r->w; x++) { /* XRGB to R, G, B, A in memory */
                uint32_t v = src[x];
                dst[x] = 0xFF000000u | (v & 0xFFu) << 16 | (v & 0xFF00u) | (v >> 16 & 0xFFu);
            }
        }
    }
}

uint8_t *web_draw(web_t *p)
{
    if (side(p)) {
        if (side_scene_render(p->side, p->scene_fb, (ptrdiff_t)p->w * 4) != 0)
            say(p, "side view", side_scene_error(p->side));
        side_present(p);
        return p->fb;
    }
    if (!pool(p))
        return NULL;
    int w = rpl_sim_width(play_sim(p->play));
    if (play_draw(p->play, p->fb, (ptrdiff_t)w * 4) != RPL_OK)
        say(p, play_error(p->play), NULL);
    return p->fb;
}

const int16_t *web_heights(const web_t *p)
{
    return pool(p) ? rpl_sim_heights(play_sim(p->play)) : NULL;
}

void web_stone(web_t *p, int x, int y, int big)
{
    if (side(p)) {
        if (side_scene_drop_kind(p->side, x, y, big ? SIDE_KIND_IRON : p->kind) != 0)
            say(p, "nothing can be dropped there", NULL);
        return;
    }
    if (pool(p) && play_stone(p->play, x, y, big) != RPL_OK)
        say(p, play_error(p->play), NULL);
}

void web_trail(web_t *p, int x0, int y0, int x1, int y1)
{
    if (pool(p) && play_trail(p->play, x0, y0, x1, y1) != RPL_OK)
        say(p, play_error(p->play), NULL);
}

const int16_t *web_mix(web_t *p, int frames)
{
    if (!ok(p))
        return NULL;
    frames = frames < 0 ? 0 : frames > MIX_MAX ? MIX_MAX : frames;
    if (rpl_sound_mix(sound(p)->snd, p->mix, frames) != RPL_OK)
        memset(p->mix, 0, (size_t)frames * 2 * sizeof *p->mix); /* silence */
    return p->mix;
}

/* The music's volume as the settings want it: full when it is wanted and
 * the page plays the sound; silenced (it keeps time) otherwise. */
static void music_volume(web_t *p, web_t *s)
{
    if (rpl_sound_set_music_volume(s->snd, s->music_on && s->heard ? RPL_SOUND_VOLUME_ONE : 0) !=
        RPL_OK)
        say(p, "music", rpl_sound_error(s->snd));
}

int web_music(web_t *p, const char *text, const char *name)
{
    if (!ok(p))
        return -1;
    web_t *s = sound(p);
    rpl_music_t *m = NULL;
    if (text && *text) {
        rpl_status st = rpl_music_parse(text, strlen(text), name && *name ? name : "score", &m);
        if (st != RPL_OK) { /* the music that played plays on */
            say(p, m ? rpl_music_error(m) : rpl_strerror(st), NULL);
            rpl_music_destroy(m);
            return -1;
        }
    }
    music_volume(p, s); /* before: a new piece starts at it, without a glide */
    rpl_status st = rpl_sound_set_music(s->snd, m);
    rpl_music_destroy(m);
    if (st != RPL_OK) {
        say(p, "music", rpl_sound_error(s->snd));
        return -1;
    }
    s->score = text && *text;
    return 0;
}

int web_share_sound(web_t *p, web_t *with)
{
    if (!ok(p) || (with && (!ok(with) || with->sound_of))) {
        if (p)
            say(p, "no sound to share", "a pool not made, or one that plays another's");
        return -1;
    }
    p->sound_of = with == p ? NULL : with;
    return 0;
}

uint32_t web_sound_crc(web_t *p, int steps)
{
    if (!ok(p))
        return 0;
    uint32_t crc = 0;
    web_t *s = sound(p);
    for (int i = 0; i < steps; i++) {
        step(p, 1);
        int n = step_frames(s);
        if (rpl_sound_mix(s->snd, p->mix, n) != RPL_OK)
            say(p, "sound", rpl_sound_error(s->snd));
        unsigned char b[512];
        size_t m = 0;
        for (int k = 0; k < 2 * n; k++) { /* little-endian, as a WAV file holds them */
            b[m++] = (unsigned char)p->mix[k];
            b[m++] = (unsigned char)((uint16_t)p->mix[k] >> 8);
            if (m == sizeof b || k + 1 == 2 * n) {
                crc = rpl_crc32(crc, b, m);
                m = 0;
            }
        }
    }
    return crc;
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

/* The sound's settings and figures, the owner's: 1 with *v set, or 0 for
 * another setting. */
static int sound_get(const web_t *p, int what, int *v)
{
    const web_t *s = sound_c(p);
    switch (what) {
    case WEB_AMBIENT: *v = s->sound_on; return 1;
    case WEB_MUSIC: *v = s->music_on; return 1;
    case WEB_HEARD: *v = s->heard; return 1;
    case WEB_SCORE: *v = s->score; return 1;
    case WEB_MUSIC_AT: *v = (int)rpl_sound_music_position(s->snd); return 1;
    default: return 0;
    }
}

/* The side view's settings and figures (those it has). */
static int side_get(const web_t *p, int what)
{
    side_stats_t st;
    side_scene_stats(p->side, &st);
    switch (what) {
    case WEB_WIDTH: return p->w;
    case WEB_HEIGHT: return p->h;
    case WEB_AUTO: return p->autoplay;
    case WEB_AWAKE: return st.waters ? (st.awake * 100 + st.waters / 2) / st.waters : 0;
    case WEB_BODIES: return st.bodies;
    case WEB_SIDE: return 1;
    default: return -1;
    }
}

int web_get(const web_t *p, int what)
{
    int v;
    if (ok(p) && sound_get(p, what, &v))
        return v;
    if (side(p))
        return side_get(p, what);
    if (!pool(p))
        return -1;
    const rpl_sim_t *sim = play_sim(p->play);
    rpl_stats_t st;
    switch (what) {
    case WEB_WIDTH: return rpl_sim_width(sim);
    case WEB_HEIGHT: return rpl_sim_height(sim);
    case WEB_EDGES: return (int)rpl_sim_edges(sim);
    case WEB_SIDE: return 0;
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
    int setting = play_setting_of(what);
    web_t *s = sound(p);
    if (what == WEB_AMBIENT) {
        s->sound_on = value != 0;
        rpl_sound_set_ambient(s->snd, s->sound_on);
    } else if (what == WEB_MUSIC || what == WEB_HEARD) {
        *(what == WEB_MUSIC ? &s->music_on : &s->heard) = value != 0;
        music_volume(p, s);
    } else if (side(p)) {
        if (what == WEB_AUTO)
            p->autoplay = value != 0;
    } else if (what == WEB_EDGES) {
        if (rpl_sim_set_edges(play_sim(p->play), value ? RPL_EDGES_ABSORB : RPL_EDGES_REFLECT) !=
            RPL_OK)
            say(p, "edges refused", rpl_sim_error(play_sim(p->play)));
    } else if (setting >= 0 && setting != PLAY_SHOW) {
        int now = play_set(p->play, (play_setting)setting, value);
        if (what == WEB_MODEL && now != (value != 0))
            say(p, "wave water refused", play_error(p->play));
    }
    return web_get(p, what);
}

int web_drop(web_t *p, int x, int y, int radius, int permille)
{
    if (!pool(p))
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
    if (!pool(p))
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
    if (!pool(p))
        return -1;
    if (play_wave_step(p->play, speed, viscosity) != RPL_OK) {
        say(p, "refused", play_error(p->play));
        return -1;
    }
    return 0;
}

/* The side view's keys, as the window has them (app/side.c): K what a
 * click drops, W springs or waves, C (Backspace) clears. */
static const char *side_key(web_t *p, int key)
{
    switch (key) {
    case 'k':
        p->kind = (p->kind + 1) % SIDE_KINDS;
        snprintf(p->text, sizeof p->text, "a click drops: %s", side_kind_name(p->kind));
        return p->text;
    case 'w': {
        rpl_surface_kind k = side_scene_surface(p->side) == RPL_SURFACE_SPRINGS ? RPL_SURFACE_WAVES
                                                                                : RPL_SURFACE_SPRINGS;
        side_scene_set_surface(p->side, k);
        return k == RPL_SURFACE_WAVES ? "surface: analytic waves" : "surface: springs";
    }
    case 'c': case 8:
        side_scene_clear(p->side);
        return "bodies cleared, water calmed";
    default:
        return "";
    }
}

const char *web_key(web_t *p, int key)
{
    if (side(p))
        return side_key(p, key);
    if (!pool(p))
        return "";
    if (!play_key(p->play, key, p->text, sizeof p->text))
        p->text[0] = '\0';
    return p->text;
}

const char *web_text(web_t *p)
{
    if (side(p)) { /* the window's overlay lines (app/side.c) */
        side_stats_t st;
        side_scene_stats(p->side, &st);
        snprintf(p->text, sizeof p->text,
                 "side view, %s surface\nwater: %d of %d awake  bodies: %d (%d in water)\n"
                 "droplets: %d  click drops: %s",
                 side_scene_surface(p->side) == RPL_SURFACE_WAVES ? "analytic waves" : "springs",
                 st.awake, st.waters, st.bodies, st.floating, st.droplets,
                 side_kind_name(p->kind));
        return p->text;
    }
    if (!pool(p))
        return "";
    play_model_text(p->play, p->text, sizeof p->text);
    return p->text;
}

const char *web_path(const web_t *p)
{
    if (side(p)) /* the side renderer's kernels are the best there are */
        return rpl_kernels_name(rpl_kernels_get(NULL));
    return pool(p) ? rpl_kernels_name(rpl_sim_kernels(play_sim(p->play))) : "";
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
        { "BODIES", WEB_BODIES },
        { "SIDE", WEB_SIDE },
        { "MUSIC", WEB_MUSIC },
        { "HEARD", WEB_HEARD },
        { "SCORE", WEB_SCORE },
        { "MUSIC_AT", WEB_MUSIC_AT },
    };
    for (size_t i = 0; name && i < sizeof constants / sizeof constants[0]; i++)
        if (!strcmp(name, constants[i].name))
            return constants[i].value;
    return -1;
}

/* The page's scenes for a refusal: "busy-2, side-3 ... or side-2". */
static void page_scenes(char *buf, size_t len)
{
    size_t count = 0, k = 0;
    const play_bench_scene_t *b;
    for (size_t i = 0; (b = play_bench_scene_at(i)) != NULL; i++)
        count += page_plays(b);
    buf[0] = '\0';
    for (size_t i = 0; (b = play_bench_scene_at(i)) != NULL; i++)
        if (page_plays(b)) {
            size_t n = strlen(buf);
            snprintf(buf + n, len - n, "%s%s-%d", k == 0 ? "" : k + 1 < count ? ", " : " or ",
                     b->name, b->version);
            k++;
        }
}

int web_bench_create(const char *scene, web_t **out)
{
    const char *name = scene && *scene ? scene : "busy";
    const play_bench_scene_t *b = play_bench_scene_find(name);
    int st = page_plays(b) && b->scene == PLAY_BENCH_SIDE
                 ? side_create(BENCH_W, BENCH_H, BENCH_SEED, 48000, b->surface, out)
                 : web_create(BENCH_W, BENCH_H, BENCH_SEED, 48000, out); /* no show */
    if (st != RPL_OK)
        return st;
    web_t *p = *out;
    if (!page_plays(b)) {
        char names[160];
        page_scenes(names, sizeof names);
        const char *why = play_bench_scene_retired(name);
        if (why)
            snprintf(p->err, sizeof p->err, "%s", why);
        else if (b)
            snprintf(p->err, sizeof p->err, "the timedemo scene '%s' is the window demo's "
                     "(ripple --benchmark), not the page's: %s", name, names);
        else
            snprintf(p->err, sizeof p->err, "no timedemo scene '%s' in the page: %s", name, names);
        rpl_sound_destroy(p->snd); /* refused: a pool that plays nothing, as web_create's */
        p->snd = NULL;
        return RPL_EINVAL;
    }
    p->bench = b;
    if (p->play)
        (void)play_set(p->play, PLAY_STONES, b->stones);
    return RPL_OK;
}

void web_bench_frame(web_t *p)
{
    if (side(p)) {
        side_scene_bench_input(p->side, p->bench_frame++);
        side_scene_bench_step(p->side);
        return;
    }
    if (!pool(p))
        return;
    if (play_bench_input(p->play) != RPL_OK)
        say(p, play_error(p->play), NULL);
    play_bench_step(p->play);
}

int web_bench_restart(web_t *p)
{
    if (side(p)) {
        p->bench_frame = 0;
        return side_make(p, side_scene_surface(p->side)) == RPL_OK ? 0 : -1;
    }
    if (!pool(p))
        return -1;
    if (play_bench_restart(p->play) != RPL_OK) {
        say(p, "cannot restart the scene", play_error(p->play));
        return -1;
    }
    return 0;
}

uint32_t web_bench_crc(web_t *p)
{
    if (!side(p))
        return 0;
    return p->bench && p->bench->picture ? side_scene_bench_crc_picture(p->side)
                                         : side_scene_bench_crc(p->side);
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
    return p && p->bench ? p->bench->what : "";
}
