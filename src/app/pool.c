/* app/pool.c - the pool from above as a scene of the demo: its steps, drawing, stones from the mouse, overlay lines and report, the timedemo's input and CRC. */
#include <stdio.h>
#include <string.h>

#include <zlib.h>

#include "app/app.h"
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
    "U          music on/off\n"
    "W          classic / wave water\n"
    "Z X        wave speed down / up\n"
    "V B        viscosity down / up\n"
    "D          smooth / classic stones\n"
    "Esc Q      quit";

/* The steps due, each the pool's (the show's stones and rain, or the
 * rain and the autopilot, while the user leaves the water alone), its
 * sound and --record's picture. */
static void frame(app_t *a, double dt, int steps)
{
    (void)dt; /* the water's time is steps */
    uint64_t t0 = SDL_GetPerformanceCounter();
    int idle = app_input_idle(a) && !a->o.person;
    for (int i = 0; i < steps; i++) {
        /* the scripted person's step counts the water's steps */
        if (a->o.person && play_person_tick(a->play, (long)rpl_sim_steps(play_sim(a->play))) != RPL_OK &&
            !a->run_err)
            a->run_err = app_format("%s", play_error(a->play));
        if (play_step(a->play, idle) != RPL_OK && !a->run_err)
            a->run_err = app_format("%s", play_error(a->play));
        app_audio_step(a);
        /* a->run_err ends the run with EXIT_FAILURE, the one status a
         * step's picture can fail with */
        if (a->o.record && !a->run_err && app_record_step(a, &a->run_err) != 0 && !a->run_err)
            a->run_err = app_format("--record: out of memory");
    }
    play_update(a->play);
    if (steps > 0)
        app_smooth(&a->timing.sim, app_ms_since(t0));
}

/* The water refracting the backdrop; the renderer redraws every tile by
 * itself when the backdrop is a new one. */
static void draw(app_t *a, void *dst, ptrdiff_t pitch)
{
    if (play_draw(a->play, dst, pitch) != RPL_OK && !a->run_err)
        a->run_err = app_format("cannot draw: %s", play_error(a->play));
}

static int changed(app_t *a, rpl_rect_t *rects, int max)
{
    return rpl_renderer_changed(play_renderer(a->play), rects, max);
}

static void invalidate(app_t *a)
{
    rpl_renderer_invalidate(play_renderer(a->play));
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
            if (play_stone(a->play, x, y, 0) != RPL_OK)
                app_note(a, play_error(a->play));
        } else if (e->button.button == SDL_BUTTON_RIGHT) {
            if (play_stone(a->play, x, y, 1) != RPL_OK)
                app_note(a, play_error(a->play));
        }
        return 1;
    }
    if (e->type == SDL_MOUSEMOTION && app_input_dragging(a)) {
        int x = e->motion.x, y = e->motion.y, x0, y0;
        app_window_to_field(a, &x, &y);
        app_input_drag(a, x, y, &x0, &y0);
        if (play_trail(a->play, x0, y0, x, y) != RPL_OK)
            app_note(a, play_error(a->play));
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
        const rpl_sim_t *sim = play_sim(a->play);
        rpl_stats_t st;
        rpl_sim_stats(sim, &st);
        size_t n = app_overlay_head(a, figures, flen, "refr");
        snprintf(figures + n, flen - n, "%s x%d  awake %u%%\n%s  ",
                 rpl_kernels_name(rpl_sim_kernels(sim)), rpl_sim_threads(sim),
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
            play_model_text(a->play, figures + at, flen - at);
            snprintf(figures + strlen(figures), flen - strlen(figures), "  ");
        }
    }
    const play_t *p = a->play;
    snprintf(state, slen, "str %d/16  stone %d\n%s%s%s%s", play_get(p, PLAY_STRENGTH),
             play_get(p, PLAY_STONE), a->paused ? "PAUSED " : "",
             play_get(p, PLAY_RAIN) ? "rain " : "", play_get(p, PLAY_AUTO) ? "auto " : "",
             play_get(p, PLAY_LIGHT) ? "light" : "");
}

static const uint32_t *palette(const app_t *a)
{
    return rpl_backdrop_palette(play_backdrop(a->play));
}

static void report(const app_t *a, double s)
{
    const rpl_sim_t *sim = play_sim(a->play);
    fprintf(app_report_stream(a),
            "ripple: %ld frames of %dx%d in %.3f s (%.1f fps), path %s, %d thread%s\n", a->frame,
            a->o.w, a->o.h, s, s > 0 ? (double)a->frame / s : 0.0,
            rpl_kernels_name(rpl_sim_kernels(sim)), rpl_sim_threads(sim),
            rpl_sim_threads(sim) > 1 ? "s" : "");
}

/* --- the timedemo: the pool plays busy and wave (the rain and the
 * autopilot) or show-1 (the show) as the pool scripts them, its own
 * stones as the scene's version has them. */

static int bench_open(app_t *a, char **err)
{
    *err = NULL;
    play_set(a->play, PLAY_STONES, a->o.bench->stones);
    return 0;
}

static int bench_restart(app_t *a, char **err)
{
    *err = NULL;
    if (play_bench_restart(a->play) != RPL_OK) {
        *err = app_format("cannot start the next round: %s", play_error(a->play));
        return EXIT_FAILURE;
    }
    return 0;
}

static void bench_input(app_t *a, long n)
{
    (void)n;
    if (play_bench_input(a->play) != RPL_OK && !a->run_err)
        a->run_err = app_format("%s", play_error(a->play));
}

static void bench_step(app_t *a)
{
    play_bench_step(a->play);
}

/* CRC-32 of the heights now, as little-endian int16. */
static uint32_t bench_crc(app_t *a)
{
    const rpl_sim_t *sim = play_sim(a->play);
    size_t n = (size_t)rpl_sim_width(sim) * (size_t)rpl_sim_height(sim);
    const int16_t *h = rpl_sim_heights(sim);
    uLong crc = crc32(0L, Z_NULL, 0);
    unsigned char buf[4096];
    for (size_t i = 0; i < n;) {
        size_t k = 0;
        for (; k < sizeof buf && i < n; k += 2, i++) {
            buf[k] = (unsigned char)((uint16_t)h[i] & 0xFF);
            buf[k + 1] = (unsigned char)((uint16_t)h[i] >> 8);
        }
        crc = crc32(crc, buf, (uInt)k);
    }
    return (uint32_t)crc;
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
    .bench_open = bench_open,
    .bench_restart = bench_restart,
    .bench_input = bench_input,
    .bench_step = bench_step,
    .bench_crc = bench_crc,
    .input_stage = "stones",
    .draw_stage = "refract",
    .state_name = "water",
};
