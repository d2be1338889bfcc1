/* app/input.c - mouse and keys: the scene shown takes what it gives meaning to, the rest is every other key of the help. */
#include <stdio.h>

#include "app/audio.h"
#include "app/input.h"
#include "app/overlay.h"
#include "app/screenshot.h"
#include "app/video.h"

/* The user takes the water over: the show (or the autopilot) waits until
 * IDLE_MS after the last of these. */
static void take_over(app_t *a)
{
    a->input.last_ms = SDL_GetTicks();
    a->input.touched = 1;
}

static void toggle(app_t *a, int *v, const char *what)
{
    char msg[64];
    *v = !*v;
    snprintf(msg, sizeof msg, "%s %s", what, *v ? "on" : "off");
    app_note(a, msg);
}

/* A setting of the pool's turned on or off. */
static void toggle_play(app_t *a, play_setting what, const char *name)
{
    char msg[64];
    int v = play_set(a->play, what, !play_get(a->play, what));
    snprintf(msg, sizeof msg, "%s %s", name, v ? "on" : "off");
    app_note(a, msg);
}

static void stone_size(app_t *a, int delta)
{
    int s = play_set(a->play, PLAY_STONE, play_get(a->play, PLAY_STONE) + delta);
    char msg[64];
    snprintf(msg, sizeof msg, "stone size %d", s);
    app_note(a, msg);
}

static void strength(app_t *a, int delta)
{
    int s = play_set(a->play, PLAY_STRENGTH, play_get(a->play, PLAY_STRENGTH) + delta);
    char msg[64];
    snprintf(msg, sizeof msg, "refraction %d/16", s);
    app_note(a, msg);
}

/* An answer, not a status: 0 for the keys that quit, else 1. */
static int key(app_t *a, const SDL_Event *e)
{
    const SDL_Keysym *k = &e->key.keysym;
    switch (k->sym) {
    case SDLK_c: case SDLK_BACKSPACE: case SDLK_r: case SDLK_l: case SDLK_PLUS: case SDLK_EQUALS:
    case SDLK_KP_PLUS: case SDLK_UP: case SDLK_MINUS: case SDLK_KP_MINUS: case SDLK_DOWN:
    case SDLK_LEFTBRACKET: case SDLK_RIGHTBRACKET: case SDLK_w: case SDLK_z: case SDLK_x:
    case SDLK_v: case SDLK_b: case SDLK_d:
        take_over(a); /* keys that change the water or the view */
        break;
    default:
        break;
    }
    if (a->scene->input(a, e))
        return 1;
    switch (k->sym) {
    case SDLK_ESCAPE: case SDLK_q:
        return 0;
    case SDLK_TAB:
        app_scene_next(a);
        break;
    case SDLK_F1: case SDLK_h:
        app_overlay_toggle_help(a->overlay);
        break;
    case SDLK_SPACE: case SDLK_p:
        toggle(a, &a->paused, "pause");
        break;
    case SDLK_n: case SDLK_PERIOD:
        a->paused = 1;
        a->step_once = 1;
        break;
    case SDLK_c: case SDLK_BACKSPACE:
        play_reset(a->play);
        app_note(a, "water calmed");
        break;
    case SDLK_r:
        toggle_play(a, PLAY_RAIN, "rain");
        break;
    case SDLK_a:
        toggle_play(a, PLAY_AUTO, play_get(a->play, PLAY_SHOW) ? "show" : "autopilot");
        break;
    case SDLK_l:
        toggle_play(a, PLAY_LIGHT, "light");
        break;
    case SDLK_o:
        app_overlay_toggle(a->overlay);
        break;
    case SDLK_PLUS: case SDLK_EQUALS: case SDLK_KP_PLUS: case SDLK_UP:
        strength(a, 2);
        break;
    case SDLK_MINUS: case SDLK_KP_MINUS: case SDLK_DOWN:
        strength(a, -2);
        break;
    case SDLK_LEFTBRACKET:
        stone_size(a, -1);
        break;
    case SDLK_RIGHTBRACKET:
        stone_size(a, 1);
        break;
    case SDLK_f: case SDLK_F11:
        app_video_fullscreen(a->video);
        break;
    case SDLK_RETURN:
        if (k->mod & KMOD_ALT)
            app_video_fullscreen(a->video);
        break;
    case SDLK_s: case SDLK_F12:
        app_take_screenshot(a);
        break;
    case SDLK_m:
        app_audio_toggle(a);
        break;
    case SDLK_u:
        app_audio_music_toggle(a);
        break;
    case SDLK_w: case SDLK_z: case SDLK_x: case SDLK_v: case SDLK_b: case SDLK_d:
        app_model_key(a, (int)k->sym); /* SDL's keycodes of letters are their ASCII */
        break;
    default:
        break;
    }
    return 1;
}

int app_handle_event(app_t *a, const SDL_Event *e)
{
    switch (e->type) {
    case SDL_QUIT:
        return 0;
    case SDL_MOUSEBUTTONDOWN:
        take_over(a);
        a->scene->input(a, e);
        break;
    case SDL_MOUSEBUTTONUP:
        if (e->button.button == SDL_BUTTON_LEFT)
            a->input.dragging = 0;
        break;
    case SDL_MOUSEMOTION:
        a->scene->input(a, e);
        break;
    case SDL_MOUSEWHEEL:
        if (e->wheel.y) {
            take_over(a);
            stone_size(a, e->wheel.y > 0 ? 1 : -1);
        }
        break;
    case SDL_KEYDOWN:
        return key(a, e);
    default:
        break;
    }
    return 1;
}
