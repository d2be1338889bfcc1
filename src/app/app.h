/* app/app.h - the demo's state, the loop's helpers, and the pool's parts: pictures, model, show, timedemo. */
#ifndef APP_APP_H
#define APP_APP_H

#include <SDL.h>

#include "app/args.h"
#include "app/scene.h"
#include "play/play.h"
#include "ripple.h"
#include "ripple_support.h"

/* The loop's numbers are the play's, the same in every front end. */
#define STEP_HZ PLAY_STEP_HZ         /* simulation steps per second in a window */
#define MAX_CATCHUP PLAY_MAX_CATCHUP /* most steps per frame when the display lags */
#define IDLE_MS PLAY_IDLE_MS         /* the autopilot waits this long after user input */

/* Exit statuses, and the one form of every function of the demo that
 * can fail: it returns 0 on success, or the exit status the failure
 * deserves, EXIT_USAGE for what the user gave (a flag, a file, a size) or
 * EXIT_FAILURE (1) for a failure of the run (memory, a device, a write),
 * with a one-line message in *err, a new allocation the caller frees
 * (NULL only when memory ran out).  What it makes or reads comes back
 * through an out parameter.  Callers pass the status on
 * (`if ((status = f(..., &err)) != 0) return die(status, err);`) rather
 * than choose one; one that maps it says why beside it.  A function that
 * answers a question (1 if an input was taken, 0 to quit, 1 if redrawn)
 * says so and returns no status; app_shot_take (shotname.h, tested
 * without SDL) gives an errno value, which the screenshot key words as a
 * note. */
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

typedef struct app {
    app_opts_t o;
    play_t *play;   /* the pool: its field, show or autopilot, rain, picture, view, stones */
    char *show_path, *image_path; /* the show's file, and the picture the demo started with */
    int paused, step_once;
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

/* overlay.c, for every file: shows msg on screen for a few seconds (at
 * most APP_NOTE_MAX - 1 bytes of it). */
void app_note(app_t *a, const char *msg);

/* backdrop.c: the pictures behind the pool (the pool keeps the one shown
 * and draws the walls into it).  app_picture_load hands the picture file
 * at path to the pool, app_picture_check only sees that it could be (a
 * NULL path is memory that ran out); app_walls_start applies --walls and
 * --edges to the field.  All three in the form above. */
int app_picture_load(app_t *a, const char *path, char **err);
int app_picture_check(const app_t *a, const char *path, char **err);
int app_walls_start(app_t *a, char **err);

/* model.c: --model and the wave settings applied to the field (after a
 * snapshot, whose model stands unless --model is given; 0, or the exit
 * status with *err); the keys W (classic or wave), Z X (wave speed down, up), V B
 * (viscosity down, up), given as 'w', 'z', 'x', 'v', 'b': a change the
 * core refuses is not made, and a note says why. */
int app_model_start(app_t *a, char **err);
void app_model_key(app_t *a, int key);

/* timedemo.c: --benchmark, the scene o.bench names played and measured,
 * 1/60 s of it per displayed frame; prints the report, or the one line
 * that says why there is none (a run as main.c's are, so it has no *err);
 * returns the exit status.  Every scene starts from TIMEDEMO_SEED. */
int app_timedemo(app_t *a);
#define TIMEDEMO_SEED 1

/* play.c: the pool's play.  app_show_open reads --show FILE or the
 * default show into *show (NULL: none found, the autopilot plays);
 * app_play_open makes the pool from the options, a->play;
 * app_show_check loads every picture the pool's show names (its
 * message "FILE:LINE:COLUMN: message"), the three in the form above;
 * app_show_free frees the show's file names. */
int app_show_open(app_t *a, rpl_show_t **show, char **err);
int app_play_open(app_t *a, const rpl_kernels_t *kern, char **err);
int app_show_check(app_t *a, const char *image, char **err);
void app_show_free(app_t *a);

#endif
