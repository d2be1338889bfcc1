/* app/scene.h - what the demo shows (the pool from above, the side view), each behind the same hooks, and the switch between them. */
#ifndef APP_SCENE_H
#define APP_SCENE_H

#include <stddef.h>
#include <stdint.h>

#include <SDL.h>

#include "ripple.h"

struct app;
struct cJSON;

/*
 * A scene of the demo.  The main loop, the input, the overlay, the video,
 * the palette and the timedemo reach the scene shown only through these
 * hooks (a->scene->...), so none of them asks which scene it is.
 */
typedef struct app_scene_ops {
    const char *help;  /* the help panel (F1) */
    const char *hello; /* the note when Tab shows it */
    /* Makes what it needs the first time it is shown (app.h's form:
     * 0, or the exit status with *err). */
    int (*enter)(struct app *a, char **err);
    /* Advances it: `steps` steps of 1/60 s are due; dt is the real time
     * since the last frame, 0 when paused or headless (time goes in steps
     * then).  The sound's steps and --record's pictures go with them. */
    void (*frame)(struct app *a, double dt, int steps);
    /* Draws it into dst, in the framebuffer's format, rows pitch bytes
     * apart; redraws only what changed since the last draw into dst. */
    void (*draw)(struct app *a, void *dst, ptrdiff_t pitch);
    /* What the last draw changed, as at most max rectangles: the count
     * (it cannot fail). */
    int (*changed)(struct app *a, rpl_rect_t *rects, int max);
    /* The next draw redraws all of it (something else was drawn there). */
    void (*invalidate)(struct app *a);
    /* A mouse button pressed, the mouse moved (in the window's
     * coordinates: app_window_to_field) or a key pressed: an answer, 1 if
     * the scene took it, 0 if not (no status). */
    int (*input)(struct app *a, const SDL_Event *e);
    /* The overlay's lines: the figures into figures (when not NULL: a few
     * times a second) and the state shown under them into state. */
    void (*text)(const struct app *a, char *figures, size_t flen, char *state, size_t slen);
    /* Its 256 colours in INDEX8 (XRGB8888), NULL in other formats. */
    const uint32_t *(*palette)(const struct app *a);
    /* The end-of-run report's line of a headless run that took seconds. */
    void (*report)(const struct app *a, double seconds);
    /* Frees what enter made (NULL: nothing to free). */
    void (*destroy)(struct app *a);

    /* The timedemo (--benchmark) plays it through these, the scene shown
     * from the start.  bench_open readies it for the timedemo's script
     * (app.h's form); bench_restart takes it back to that start between
     * two rounds, so that every round plays the same bytes (app.h's
     * form); bench_input plays frame n of the round's input (from 0: the
     * script), bench_step 1/60 s of it whatever the frame took;
     * bench_crc is the CRC-32 of its state now, every value in
     * little-endian bytes whatever the machine.  bench_line writes the
     * report's line about the scene ("" for none) and bench_json adds its
     * figures to the JSON report (app.h's form: EXIT_FAILURE with *err
     * NULL when memory ran out).  The report names the stages:
     * input_stage the input's, draw_stage the drawing's, and the state's
     * CRC line state_name. */
    int (*bench_open)(struct app *a, char **err);
    int (*bench_restart)(struct app *a, char **err);
    void (*bench_input)(struct app *a, long n);
    void (*bench_step)(struct app *a);
    uint32_t (*bench_crc)(struct app *a);
    void (*bench_line)(struct app *a, char *buf, size_t len);
    int (*bench_json)(struct app *a, struct cJSON *report, char **err);
    const char *input_stage, *draw_stage, *state_name;
} app_scene_ops;

/* pool.c and side.c */
extern const app_scene_ops app_pool_scene;
extern const app_scene_ops app_side_scene;

/* scene.c: the switch.  app_scene_init shows the pool (before anything
 * is drawn); app_scene_start shows the scene --scene names at the start
 * (0, or its enter hook's exit status with *err; nothing happens if it is
 * shown already); Tab calls
 * app_scene_next, which shows the other one, a note saying which or why
 * not; app_scene_destroy frees what the scenes made. */
void app_scene_init(struct app *a);
int app_scene_start(struct app *a, int which, char **err);
void app_scene_next(struct app *a);
void app_scene_destroy(struct app *a);

#endif
