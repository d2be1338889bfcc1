/* app/side.c - the side view as a scene of the demo: its pictures, its steps, clicks and keys, overlay lines and report; the timedemo's drops and CRC are the scene's (scene/play.c). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "app/app.h"
#include "app/audio.h"
#include "app/files.h"
#include "app/input.h"
#include "app/overlay.h"
#include "app/video.h"
#include "scene/scene.h"

static const char help_text[] =
    "ripple " RPL_VERSION ": the side view\n"
    "\n"
    "click      drop a body (K chooses)\n"
    "right      drop an iron ball\n"
    "K          crate / ball / iron ball\n"
    "W          springs / analytic waves\n"
    "C Bksp     clear the bodies, calm\n"
    "A          autoplay on/off\n"
    "F1 H       this help\n"
    "Space P    pause\n"
    "N          step one frame\n"
    "O          overlay on/off\n"
    "Tab        the pool from above\n"
    "F F11      fullscreen\n"
    "S F12      screenshot\n"
    "M          sound on/off\n"
    "U          music on/off\n"
    "Esc Q      quit";

/* The side view: the scene, made the first time it is shown, and what a
 * click drops (SIDE_KIND_*). */
struct app_side {
    side_scene_t *scene;
    int shape;
};

/* The scene's steps in one of the pool's steps of 1/60 s. */
static int steps_per_step(void)
{
    return (int)(1.0 / (STEP_HZ * SIDE_STEP) + 0.5);
}

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
    uint32_t *px;
    if (app_load_pixels(path, &px, w, h, &err) != 0) { /* any status: the scene goes without */
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
    if (!a->audio || a->scene != &app_side_scene)
        return;
    double f = speed / 900.0 * (480.0 / a->o.h);
    f = f > 1 ? 1 : f;
    int radius = 2 + (int)(10 * f);
    int weight = 120 + (int)(900 * f);
    app_audio_drip(a, (int)x, (int)y, radius, weight);
}

/* Made the first time it is shown (at the start with --scene side, or
 * when Tab first shows it). */
static int enter(app_t *a, char **err)
{
    if (a->side)
        return 0;
    app_side_t *side = calloc(1, sizeof *side);
    if (!side)
        return EXIT_FAILURE; /* *err NULL: out of memory */
    side_config_t cfg = {
        .w = a->o.w, .h = a->o.h, .format = a->o.fmt, .surface = a->o.surface,
        .springs = &a->o.springs, .seed = a->o.seed,
        .kern = a->o.simd ? rpl_kernels_get(a->o.simd) : NULL, /* --simd, checked */
    };
    uint32_t *sky = asset("side-sky.png", &cfg.sky_w, &cfg.sky_h);
    uint32_t *stone = asset("side-stone.png", &cfg.stone_w, &cfg.stone_h);
    cfg.sky = sky;
    cfg.stone = stone;
    rpl_status st = side_scene_create(&cfg, &side->scene);
    free(sky);
    free(stone);
    if (st != RPL_OK) {
        *err = app_format("cannot make the side scene: %s",
                          side->scene ? side_scene_error(side->scene) : rpl_strerror(st));
        side_scene_destroy(side->scene);
        free(side);
        return EXIT_FAILURE; /* the flags it takes were checked with the others */
    }
    a->side = side;
    side_scene_set_autoplay(a->side->scene, play_get(a->play, PLAY_AUTO) || a->o.headless);
    side_scene_set_splash_hook(a->side->scene, on_splash, a);
    return 0;
}

/* The scene keeps its own time: dt seconds in a window, else `steps`
 * steps of 1/60 s; the sound goes on in steps. */
static void frame(app_t *a, double dt, int steps)
{
    if (a->side) {
        uint64_t t0 = SDL_GetPerformanceCounter();
        int idle = app_input_idle(a);
        side_scene_set_autoplay(a->side->scene, play_get(a->play, PLAY_AUTO) && idle);
        if (dt > 0) {
            side_scene_advance(a->side->scene, dt);
        } else if (steps > 0) {
            /* one step of the pool's 1/60 s is this many of the scene's */
            int n = steps_per_step();
            for (int i = 0; i < steps * n; i++)
                side_scene_step(a->side->scene);
        }
        app_smooth(&a->timing.sim, app_ms_since(t0));
    }
    for (int i = 0; i < steps; i++)
        app_audio_step(a);
}

static void draw(app_t *a, void *dst, ptrdiff_t pitch)
{
    side_scene_render(a->side->scene, dst, pitch);
}

/* Where bodies, droplets and water are and were. */
static int changed(app_t *a, rpl_rect_t *rects, int max)
{
    return side_scene_changed(a->side->scene, rects, max);
}

static void invalidate(app_t *a)
{
    side_scene_invalidate(a->side->scene);
}

/* A click drops a body where the user clicked (the right button an iron
 * ball); K chooses what, W switches the surface, C clears. */
static int input(app_t *a, const SDL_Event *e)
{
    if (e->type == SDL_MOUSEBUTTONDOWN) {
        int button = e->button.button, x = e->button.x, y = e->button.y;
        app_window_to_field(a, &x, &y);
        if (button != SDL_BUTTON_LEFT && button != SDL_BUTTON_RIGHT)
            return 1;
        int k = button == SDL_BUTTON_RIGHT ? SIDE_KIND_IRON : a->side->shape;
        if (side_scene_drop_kind(a->side->scene, x, y, k) != 0)
            app_note(a, "nothing can be dropped there");
        return 1;
    }
    if (e->type != SDL_KEYDOWN)
        return 0;
    char msg[96];
    switch (e->key.keysym.sym) {
    case SDLK_k:
        a->side->shape = (a->side->shape + 1) % SIDE_KINDS;
        snprintf(msg, sizeof msg, "a click drops: %s", side_kind_name(a->side->shape));
        app_note(a, msg);
        return 1;
    case SDLK_w: {
        rpl_surface_kind k = side_scene_surface(a->side->scene) == RPL_SURFACE_SPRINGS
                                 ? RPL_SURFACE_WAVES : RPL_SURFACE_SPRINGS;
        side_scene_set_surface(a->side->scene, k);
        app_note(a, k == RPL_SURFACE_WAVES ? "surface: analytic waves" : "surface: springs");
        return 1;
    }
    case SDLK_c: case SDLK_BACKSPACE:
        side_scene_clear(a->side->scene);
        app_note(a, "bodies cleared, water calmed");
        return 1;
    default:
        return 0;
    }
}

/* The figures: the timings, the field, its surface, water, bodies and
 * droplets, what a click drops; under them what plays. */
static void text(const app_t *a, char *figures, size_t flen, char *state, size_t slen)
{
    if (figures) {
        side_stats_t st;
        side_scene_stats(a->side->scene, &st);
        size_t n = app_overlay_head(a, figures, flen, "draw");
        snprintf(figures + n, flen - n,
                 "%s\nside view, %s surface\nwater: %d of %d awake  bodies: %d (%d in water)\n"
                 "droplets: %d  click drops: %s  ", app_present_name(a),
                 side_scene_surface(a->side->scene) == RPL_SURFACE_WAVES ? "analytic waves"
                                                                          : "springs",
                 st.awake, st.waters, st.bodies, st.floating, st.droplets,
                 side_kind_name(a->side->shape));
    }
    snprintf(state, slen, "\n%s%s", a->paused ? "PAUSED " : "",
             play_get(a->play, PLAY_AUTO) ? "auto" : "");
}

static const uint32_t *palette(const app_t *a)
{
    return side_scene_palette(a->side->scene);
}

static void report(const app_t *a, double s)
{
    side_stats_t st;
    side_scene_stats(a->side->scene, &st);
    fprintf(app_report_stream(a), "ripple: %ld frames of the side scene at %dx%d in %.3f s "
            "(%.1f fps), %d bodies, %d of %d waters awake\n", a->frame, a->o.w, a->o.h, s,
            s > 0 ? (double)a->frame / s : 0.0, st.bodies, st.awake, st.waters);
}

/* --- the timedemo ---------------------------------------------------------- */

/* The side scene made anew for the timedemo's next round: the same bodies
 * from the same generator, whatever the last round left. */
static void destroy(app_t *a);
static int bench_restart(app_t *a, char **err)
{
    *err = NULL;
    destroy(a);
    int status = enter(a, err);
    if (status != 0)
        return status;
    side_scene_set_autoplay(a->side->scene, 0); /* the timedemo drops the bodies */
    return 0;
}

static int bench_open(app_t *a, char **err)
{
    *err = NULL;
    if (!a->side) {
        *err = app_format("the side scene was not made");
        return EXIT_FAILURE;
    }
    side_scene_set_autoplay(a->side->scene, 0); /* the timedemo drops the bodies */
    return 0;
}

/* The frame's drops, steps and state, as the page plays them too
 * (scene/play.c). */
static void bench_input(app_t *a, long n)
{
    side_scene_bench_input(a->side->scene, n);
}

static void bench_step(app_t *a)
{
    side_scene_bench_step(a->side->scene);
}

/* The state's, and from side-3 on the picture's as well. */
static uint32_t bench_crc(app_t *a)
{
    const play_bench_scene_t *b = a->o.bench;
    return b && b->picture ? side_scene_bench_crc_picture(a->side->scene)
                           : side_scene_bench_crc(a->side->scene);
}

static const char *surface_name(const app_t *a)
{
    return side_scene_surface(a->side->scene) == RPL_SURFACE_WAVES ? "analytic waves" : "springs";
}

static void bench_line(app_t *a, char *buf, size_t len)
{
    side_stats_t st;
    side_scene_stats(a->side->scene, &st);
    const play_bench_scene_t *b = a->o.bench;
    int n = snprintf(buf, len, "side      %s, %d steps of %.4f s a frame; at the end %d bodies (%d in "
                     "water), %d of %d waters awake, %d droplets", surface_name(a),
                     side_scene_bench_steps(), SIDE_STEP, st.bodies, st.floating, st.awake,
                     st.waters, st.droplets);
    /* the state alone as well where the CRC takes in the picture: what
     * ripple-bench --instr-run prints, its scene drawn without the art */
    if (b && b->picture && n >= 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, "; the state alone crc32 %08" PRIx32,
                 side_scene_bench_crc(a->side->scene));
}

static int bench_json(app_t *a, cJSON *j, char **err)
{
    *err = NULL; /* memory is all it can run out of */
    side_stats_t st;
    side_scene_stats(a->side->scene, &st);
    int waves = side_scene_surface(a->side->scene) == RPL_SURFACE_WAVES;
    return cJSON_AddStringToObject(j, "surface", waves ? "waves" : "springs") &&
                   cJSON_AddNumberToObject(j, "steps_per_frame", side_scene_bench_steps()) &&
                   cJSON_AddNumberToObject(j, "bodies", st.bodies)
               ? 0 : EXIT_FAILURE;
}

static void destroy(app_t *a)
{
    if (a->side)
        side_scene_destroy(a->side->scene);
    free(a->side);
    a->side = NULL;
}

const app_scene_ops app_side_scene = {
    .help = help_text,
    .hello = "side view: click to drop, K chooses what",
    .enter = enter,
    .frame = frame,
    .draw = draw,
    .changed = changed,
    .invalidate = invalidate,
    .input = input,
    .text = text,
    .palette = palette,
    .report = report,
    .destroy = destroy,
    .bench_open = bench_open,
    .bench_restart = bench_restart,
    .bench_input = bench_input,
    .bench_step = bench_step,
    .bench_crc = bench_crc,
    .bench_line = bench_line,
    .bench_json = bench_json,
    .input_stage = "drops",
    .draw_stage = "draw",
    .state_name = "state",
};
