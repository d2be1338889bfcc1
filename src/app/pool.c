/* app/pool.c - the pool from above as a scene of the demo: its steps, drawing, stones from the mouse, overlay lines and report. */
#include <stdio.h>
#include <string.h>

#include "app/audio.h"
#include "app/input.h"
#include "app/overlay.h"
#include "app/record.h"
#include "app/video.h"

static const char help_text[] =
    "ripple " RPL_VERSION "\n"
    "\n"
    "mouse      click: stone, drag: trail\n"
    "wheel [ ]  stone size\n"
    "F1 H       this help\n"
    "Space P    pause\n"
    "N          step one frame\n"
    "C Bksp     calm the water (reset)\n"
    "R          rain on/off\n"
    "A          autopilot on/off\n"
    "L          light (shading) on/off\n"
    "+ - Up Dn  refraction strength\n"
    "O          overlay on/off\n"
    "Tab        the side view\n"
    "F F11      fullscreen\n"
    "S F12      screenshot\n"
    "M          sound on/off\n"
    "W          classic / wave water\n"
    "Z X        wave speed down / up\n"
    "V B        viscosity down / up\n"
    "Esc Q      quit";

/* The steps due: the show's stones and rain (or the rain and the
 * autopilot) while the user leaves the water alone, the walls the show
 * may have moved, the step, its sound and --record's picture. */
static void frame(app_t *a, double dt, int steps)
{
    (void)dt; /* the water's time is steps */
    uint64_t t0 = SDL_GetPerformanceCounter();
    int idle = app_input_idle(a);
    for (int i = 0; i < steps; i++) {
        if (a->player && a->auto_on && idle) {
            app_show_tick(a); /* the show's stones and rain */
        } else {
            if (a->rain_on)
                rpl_sim_rain(a->sim, &a->rain);
            if (a->auto_on && idle && !a->player)
                rpl_autopilot_tick(a->ap, a->sim);
        }
        app_backdrop_update(a); /* a show may have moved the walls */
        rpl_sim_step(a->sim);
        app_audio_step(a);
        if (a->o.record && !a->run_err && app_record_step(a, &a->run_err) != 0 && !a->run_err)
            a->run_err = app_format("--record: out of memory");
    }
    app_backdrop_update(a);
    if (steps > 0)
        app_smooth(&a->timing.sim, app_ms_since(t0));
}

/* The water refracting the backdrop; the renderer redraws every tile by
 * itself when the backdrop is a new one. */
static void draw(app_t *a, void *dst, ptrdiff_t pitch)
{
    rpl_renderer_draw(a->water, app_backdrop(a), dst, pitch, &a->view);
}

static int changed(app_t *a, rpl_rect_t *rects, int max)
{
    return rpl_renderer_changed(a->water, rects, max);
}

static void invalidate(app_t *a)
{
    rpl_renderer_invalidate(a->water);
}

/* A click drops a stone (the right button a bigger one), a drag with the
 * left button draws a trail. */
static int input(app_t *a, const SDL_Event *e)
{
    if (e->type == SDL_MOUSEBUTTONDOWN) {
        int x = e->button.x, y = e->button.y;
        app_window_to_field(a, &x, &y);
        if (e->button.button == SDL_BUTTON_LEFT) {
            app_input_press(a, x, y);
            rpl_sim_drop(a->sim, x, y, a->stone, RPL_PLAY_STONE_WEIGHT);
        } else if (e->button.button == SDL_BUTTON_RIGHT) {
            int r = rpl_play_stone(a->stone * 2);
            rpl_sim_drop(a->sim, x, y, r, RPL_PLAY_STONE_WEIGHT * 2);
        }
        return 1;
    }
    if (e->type == SDL_MOUSEMOTION && app_input_dragging(a)) {
        int x = e->motion.x, y = e->motion.y, x0, y0;
        app_window_to_field(a, &x, &y);
        app_input_drag(a, x, y, &x0, &y0);
        rpl_sim_trail(a->sim, x0, y0, x, y, a->stone > 2 ? a->stone / 2 : 1,
                      RPL_PLAY_STONE_WEIGHT / 2);
        return 1;
    }
    return 0;
}

/* The figures: the timings, the field, the kernels and how much of the
 * water is awake, how slow it runs if it cannot keep up, its rule; under
 * them the view and what plays. */
static void text(const app_t *a, char *figures, size_t flen, char *state, size_t slen)
{
    if (figures) {
        rpl_stats_t st;
        rpl_sim_stats(a->sim, &st);
        size_t n = app_overlay_head(a, figures, flen, "refr");
        snprintf(figures + n, flen - n, "%s x%d  awake %u%%\n%s  ",
                 rpl_kernels_name(rpl_sim_kernels(a->sim)), rpl_sim_threads(a->sim),
                 st.tiles ? (st.stepped * 100 + st.tiles / 2) / st.tiles : 0,
                 app_present_name(a));
        if (a->timing.speed > 0 && a->timing.speed < 0.97 && !a->paused) {
            /* the machine cannot keep STEP_HZ: say how slow the water runs */
            size_t len = strlen(figures);
            snprintf(figures + len, flen - len, "\nslow: water at %.0f%% speed  ",
                     a->timing.speed * 100);
        }
        size_t at = strlen(figures);
        if (at + 2 < flen) { /* the water's rule */
            figures[at++] = '\n';
            app_model_text(a, figures + at, flen - at);
            snprintf(figures + strlen(figures), flen - strlen(figures), "  ");
        }
    }
    snprintf(state, slen, "str %d/16  stone %d\n%s%s%s%s", a->view.strength, a->stone,
             a->paused ? "PAUSED " : "", a->rain_on ? "rain " : "", a->auto_on ? "auto " : "",
             a->view.shading ? "light" : "");
}

static const uint32_t *palette(const app_t *a)
{
    return rpl_backdrop_palette(app_backdrop(a));
}

static void report(const app_t *a, double s)
{
    fprintf(app_report_stream(a),
            "ripple: %ld frames of %dx%d in %.3f s (%.1f fps), path %s, %d thread%s\n", a->frame,
            a->o.w, a->o.h, s, s > 0 ? (double)a->frame / s : 0.0,
            rpl_kernels_name(rpl_sim_kernels(a->sim)), rpl_sim_threads(a->sim),
            rpl_sim_threads(a->sim) > 1 ? "s" : "");
}

const app_scene_ops app_pool_scene = {
    .help = help_text,
    .hello = "the pool from above",
    .frame = frame,
    .draw = draw,
    .changed = changed,
    .invalidate = invalidate,
    .input = input,
    .text = text,
    .palette = palette,
    .report = report,
};
