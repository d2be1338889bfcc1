/* app/app.h - the demo's state, the loop's helpers, and the pool's parts: backdrop, model, show, timedemo. */
#ifndef APP_APP_H
#define APP_APP_H

#include <SDL.h>

#include "app/args.h"
#include "app/scene.h"
#include "ripple.h"
#include "ripple_support.h"

#define STEP_HZ 60          /* simulation steps per second in a window */
#define MAX_CATCHUP 4       /* most steps per frame when the display lags */
#define IDLE_MS 6000        /* the autopilot waits this long after user input */

/* Exit statuses */
enum { EXIT_USAGE = 2 };

/* The sound (audio.c): the mixer, the device, the --audio-out file. */
typedef struct app_audio app_audio_t;

/* The side view (side.c): the side scene and what a click drops. */
typedef struct app_side app_side_t;

/* The overlay (overlay.c): its canvas, what it shows and where it lies. */
typedef struct app_overlay app_overlay_t;

/* The frame and the window (video.c): the framebuffer, how it reaches the
 * screen, SDL's window, renderer and textures. */
typedef struct app_video app_video_t;

/* input.c's and input.h's alone: what the user did last, for the wait
 * before the show (or the autopilot) plays again and the pool's trail. */
typedef struct app_input {
    int dragging;       /* the left button went down on the pool and is not up yet */
    int lastx, lasty;   /* where the drag is, in the field's cells */
    uint32_t last_ms;   /* SDL_GetTicks at the last input */
    int touched;        /* the user has clicked or dragged */
} app_input_t;

/* The loop's own figures: the timings shown in the overlay and the
 * timedemo's report, in milliseconds. */
typedef struct app_timing {
    double sim, refract, present, frame; /* smoothed */
    double ms_refract, ms_present;       /* the last frame's, unsmoothed */
    double speed;                /* steps taken over steps due, last second (1: full speed) */
    double speed_due, speed_done;
} app_timing_t;

/* The longest note (app_note) shown, with its terminating NUL. */
#define APP_NOTE_MAX 256

/* backdrop.c's alone: the picture behind the pool, the backdrop made from
 * it with the walls drawn in, and what it shows. */
typedef struct app_backdrop {
    uint32_t *bg;                   /* the picture fitted to the field, XRGB8888 */
    rpl_backdrop_t *bd;             /* it prepared for the framebuffer's format */
    const rpl_backdrop_t *walls_bd; /* the backdrop last drawn with walls (or checked) */
    uint64_t walls_serial;          /* rpl_sim_walls_serial when it was */
    int walls_drawn;                /* walls_bd has walls drawn in */
} app_backdrop_t;

typedef struct app {
    app_opts_t o;
    rpl_sim_t *sim;
    rpl_renderer_t *water;  /* keeps fb up to date, redrawing only changed tiles */
    rpl_autopilot_t *ap;
    rpl_show_t *show;            /* the show that plays (NULL: the autopilot) */
    rpl_show_player_t *player;
    char *show_path, *image_path; /* its file, and the picture the demo started with */
    char picture[256];           /* the show's picture shown now ("default": the starting one) */
    int show_failed;             /* a tick failed (said once on screen) */
    rpl_rain_t rain;
    app_backdrop_t backdrop;
    rpl_view_t view;
    int stone;      /* stone radius for the mouse */
    int paused, step_once, rain_on, auto_on;
    app_input_t input;       /* input.c's */
    long frame;
    app_timing_t timing;
    app_overlay_t *overlay;  /* overlay.c's: made and freed there */
    app_video_t *video;      /* video.c's: the framebuffer and the window */
    app_audio_t *audio;  /* NULL: no sound */
    long recorded;       /* --record: frames saved */
    char *run_err;       /* a failure that ends the run (exit 1) */
    int report_to_stderr; /* an output is standard output: the report goes to stderr */
    const app_scene_ops *scene;     /* the scene shown: app_pool_scene or app_side_scene */
    app_side_t *side;               /* made the first time it is shown (NULL before) */
} app_t;

/* util.c: the small helpers every file of the demo may use, and that
 * use no other file of it.
 *
 * Prints "ripple: msg" as one line on stderr, control characters
 * escaped (\n, \t, \r, \xNN) so a file name cannot break the line. */
void app_print_error(const char *msg);
/* A message in a new allocation, never cut short (NULL if memory ran out). */
char *app_format(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* Where the end-of-run report goes: stdout, or stderr when an output is
 * standard output. */
FILE *app_report_stream(const app_t *a);
/* Milliseconds since a performance-counter reading, and a running
 * average of timings (what the overlay shows). */
double app_ms_since(uint64_t t0);
void app_smooth(double *avg, double v);
/* The signal (SIGINT, SIGTERM, SIGHUP) that asked a headless run to stop,
 * 0 if none: the loops end, the temporary files are removed.
 * app_catch_stop_signals starts listening for them (a signal ignored
 * from the start stays ignored). */
int app_stop_signal(void);
void app_catch_stop_signals(void);

/* overlay.c, for every file: shows msg on screen for a few seconds (at
 * most APP_NOTE_MAX - 1 bytes of it). */
void app_note(app_t *a, const char *msg);

/* backdrop.c: the one owner of the picture behind the pool and of the
 * backdrop made from it; the others ask app_backdrop for it.
 * app_backdrop_open makes room for the picture (0, or -1 when memory ran
 * out), app_backdrop_load loads the starting one, app_backdrop_make makes
 * the backdrop from it (0, or -1); app_backdrop_check loads a show's
 * picture and prepares it only to see that it can, app_backdrop_replace
 * puts it in place of the one shown (those three return 0, or the exit
 * status with *err, as the loaders; a NULL path is out of memory);
 * app_walls_start applies --walls and --edges to the field (0, or the
 * exit status with *err); app_backdrop_update draws the walls into the
 * backdrop whenever they or the picture changed: call it after anything
 * that may change them, before drawing; app_backdrop_close frees it. */
int app_backdrop_open(app_t *a);
int app_backdrop_load(app_t *a, const char *path, char **err);
int app_backdrop_make(app_t *a);
int app_backdrop_check(const app_t *a, const char *path, char **err);
int app_backdrop_replace(app_t *a, const char *path, char **err);
int app_walls_start(app_t *a, char **err);
void app_backdrop_update(app_t *a);
const rpl_backdrop_t *app_backdrop(const app_t *a);
void app_backdrop_close(app_t *a);

/* model.c: --model and the wave settings applied to the field (after a
 * snapshot, whose model stands unless --model is given; 0, or -1 with
 * *err); the model and its k and u*dt in a line for the overlay; the keys
 * W (classic or wave), Z X (wave speed down, up), V B (viscosity down,
 * up), given as 'w', 'z', 'x', 'v', 'b': a change the core refuses is
 * not made, and a note says why. */
int app_model_start(app_t *a, char **err);
void app_model_text(const app_t *a, char *buf, size_t len);
void app_model_key(app_t *a, int key);

/* timedemo.c: --benchmark, the scene o.bench names played and measured,
 * 1/60 s of it per displayed frame; prints the report; returns the exit
 * status.  Every scene starts from TIMEDEMO_SEED. */
int app_timedemo(app_t *a);
#define TIMEDEMO_SEED 1

/* play.c: the show.  app_show_open reads --show FILE or the default show
 * (none found: the autopilot plays) and app_show_check loads every
 * picture it names (0, or the exit status with *err, EXIT_USAGE or
 * EXIT_FAILURE when memory ran out: "FILE:LINE:COLUMN: message");
 * app_show_start makes its player; app_show_tick plays one step and
 * hands the show's light, strength, stone size, rain and picture to the
 * demo; app_show_free frees it all. */
int app_show_open(app_t *a, char **err);
int app_show_check(app_t *a, const char *image, char **err);
void app_show_start(app_t *a);
void app_show_tick(app_t *a);
void app_show_free(app_t *a);

#endif
