/* app/side.c - the side scene in the demo: its pictures, the switch between scenes, clicks and keys, its line in the overlay. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"

/* What a click drops, and how heavy it is against the water. */
static const struct {
    const char *name;
    side_shape shape;
    double density;
} kinds[SIDE_KINDS] = {
    { "crate", SIDE_CRATE, 0.5 },
    { "ball", SIDE_BALL, 0.35 },
    { "iron ball", SIDE_BALL, 3.0 },
};

/* A picture of assets/ at its own size, or NULL (the scene draws without
 * it) with a note why. */
static uint32_t *asset(const char *name, int *w, int *h)
{
    char buf[4096], *err = NULL;
    const char *path = app_find_asset(name, buf, sizeof buf);
    if (!path) {
        fprintf(stderr, "ripple: cannot find assets/%s; the side scene goes without it\n", name);
        return NULL;
    }
    uint32_t *px = app_load_image(path, w, h, &err);
    if (!px) {
        char *msg = app_format("%s; the side scene goes without it", err ? err : name);
        app_print_error(msg ? msg : "out of memory");
        free(msg);
        free(err);
    }
    return px;
}

/* A splash sounds like a drip of a stone its size: bigger and louder the
 * faster the body went in (the sound's scale is the pool's stones). */
static void on_splash(void *user, double x, double y, double speed)
{
    app_t *a = user;
    if (!a->audio || a->scene != APP_SCENE_SIDE)
        return;
    double f = speed / 900.0 * (480.0 / a->o.h);
    f = f > 1 ? 1 : f;
    int radius = 2 + (int)(10 * f);
    int weight = 120 + (int)(900 * f);
    app_audio_drip(a, (int)x, (int)y, radius, weight);
}

int app_side_start(app_t *a, char **err)
{
    if (a->side)
        return 0;
    side_config_t cfg = {
        .w = a->o.w, .h = a->o.h, .format = a->o.fmt, .surface = a->o.surface,
        .springs = &a->o.springs, .seed = a->o.seed,
    };
    uint32_t *sky = asset("side-sky.png", &cfg.sky_w, &cfg.sky_h);
    uint32_t *stone = asset("side-stone.png", &cfg.stone_w, &cfg.stone_h);
    cfg.sky = sky;
    cfg.stone = stone;
    char why[256] = "";
    a->side = side_scene_create(&cfg, why, sizeof why);
    free(sky);
    free(stone);
    if (!a->side) {
        *err = app_format("cannot make the side scene: %s", why);
        return -1;
    }
    side_scene_set_autoplay(a->side, a->auto_on || a->o.headless);
    side_scene_set_splash_hook(a->side, on_splash, a);
    return 0;
}

void app_side_show(app_t *a, int scene)
{
    if (scene == APP_SCENE_SIDE && !a->side) {
        char *err = NULL;
        if (app_side_start(a, &err) != 0) {
            app_note(a, err ? err : "cannot make the side scene");
            free(err);
            return;
        }
    }
    a->scene = scene;
    app_show_palette(a);
    /* the pool's renderer keeps its frame: after the side scene drew over
     * it, every tile is drawn again */
    if (scene == APP_SCENE_POOL)
        rpl_renderer_invalidate(a->water);
    else
        side_scene_invalidate(a->side);
    app_note(a, scene == APP_SCENE_SIDE ? "side view: click to drop, K chooses what"
                                        : "the pool from above");
}

void app_side_frame(app_t *a, double dt, int steps)
{
    if (!a->side)
        return;
    uint64_t t0 = SDL_GetPerformanceCounter();
    int idle = a->o.headless || !a->touched || SDL_GetTicks() - a->last_input_ms > IDLE_MS;
    side_scene_set_autoplay(a->side, a->auto_on && idle);
    if (steps > 0) {
        /* one step of the pool's 1/60 s is this many of the scene's */
        int n = (int)(1.0 / (STEP_HZ * SIDE_STEP) + 0.5);
        for (int i = 0; i < steps * n; i++)
            side_scene_step(a->side);
    } else if (dt > 0) {
        side_scene_advance(a->side, dt);
    }
    app_smooth(&a->t_sim, app_ms_since(t0));
}

void app_side_draw(app_t *a, void *dst, ptrdiff_t pitch)
{
    side_scene_render(a->side, dst, pitch);
}

void app_side_text(const app_t *a, char *buf, size_t len)
{
    side_stats_t st;
    side_scene_stats(a->side, &st);
    snprintf(buf, len,
             "side view, %s surface\nwater: %d of %d awake  bodies: %d (%d in water)\n"
             "droplets: %d  click drops: %s",
             side_scene_surface(a->side) == RPL_SURFACE_WAVES ? "analytic waves" : "springs",
             st.awake, st.waters, st.bodies, st.floating, st.droplets, kinds[a->side_shape].name);
}

void app_side_click(app_t *a, int x, int y, int button)
{
    int k = button == SDL_BUTTON_RIGHT ? SIDE_KIND_IRON : a->side_shape;
    if (side_scene_drop(a->side, x, y, kinds[k].shape, kinds[k].density, 1) != 0)
        app_note(a, "nothing can be dropped there");
}

int app_side_key(app_t *a, int key)
{
    char msg[96];
    switch (key) {
    case SDLK_k:
        a->side_shape = (a->side_shape + 1) % SIDE_KINDS;
        snprintf(msg, sizeof msg, "a click drops: %s", kinds[a->side_shape].name);
        app_note(a, msg);
        return 1;
    case SDLK_w: {
        rpl_surface_kind k = side_scene_surface(a->side) == RPL_SURFACE_SPRINGS
                                 ? RPL_SURFACE_WAVES : RPL_SURFACE_SPRINGS;
        side_scene_set_surface(a->side, k);
        app_note(a, k == RPL_SURFACE_WAVES ? "surface: analytic waves" : "surface: springs");
        return 1;
    }
    case SDLK_c: case SDLK_BACKSPACE:
        side_scene_clear(a->side);
        app_note(a, "bodies cleared, water calmed");
        return 1;
    default:
        return 0;
    }
}

void app_side_free(app_t *a)
{
    side_scene_destroy(a->side);
    a->side = NULL;
}
