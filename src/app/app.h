/* app/app.h - the demo's state and the parts of the front end: files, overlay, video, input. */
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

/* How frames reach the screen (--present): a texture drawn by SDL's
 * renderer (a GPU's), or the window's own surface (no GPU, no GL). */
enum { PRESENT_TEXTURE = 0, PRESENT_SURFACE = 1 };

/* The overlay's separate boxes (statistics, hint, help, note). */
#define OVL_BOXES 4

/* An element of the overlay: a text on a translucent panel (alpha 0: on
 * nothing), in the canvas's coordinates. */
typedef struct ovl_item {
    SDL_Rect panel;
    int alpha;
    int tx, ty, sc;
    uint32_t color;
    char text[600];
} ovl_item_t;

/* A run of the overlay's opaque pixels along a row. */
typedef struct ovl_run {
    int x, y, n;
} ovl_run_t;

/* Exit statuses */
enum { EXIT_USAGE = 2 };

/* The sound (audio.c): the mixer, the device, the --audio-out file. */
typedef struct app_audio app_audio_t;

/* The side view (side.c): the side scene and what a click drops. */
typedef struct app_side app_side_t;

typedef struct app {
    app_opts_t o;
    play_t *play;   /* the pool: its field, show or autopilot, rain, picture, view, stones */
    char *show_path, *image_path; /* the show's file, and the picture the demo started with */
    void *fb;       /* the water frame in o.fmt, kept between frames: only changed tiles are redrawn */
    SDL_Surface *fb_surf;   /* fb as an SDL surface (its palette for 8 bits) */
    SDL_Surface *show_surf; /* 8 bits: fb through the palette, as the display's DAC would */
    uint32_t *ovl;  /* the overlay, ARGB, drawn over the water by the GPU or SDL */
    int ovl_w, ovl_h, ovl_s; /* its canvas: the field's rectangle in the window's pixels,
                              * the field shown ovl_s times larger: the text keeps its size */
    size_t ovl_cap; /* the pixels ovl has room for */
    char ovl_key[1024]; /* what the overlay shows now */
    SDL_Rect ovl_box[OVL_BOXES]; /* where the overlay has anything to show */
    int ovl_n;
    ovl_item_t ovl_items[OVL_BOXES]; /* what it shows, to lay over a surface */
    int ovl_items_n;
    ovl_run_t *ovl_runs; /* its opaque pixels: the text and shadows */
    int ovl_runs_n, ovl_runs_max;
    SDL_Rect ovl_laid[OVL_BOXES]; /* where it lies on the window surface */
    int ovl_laid_n;
    void *under;        /* the surface's pixels under it, to take it off again */
    size_t under_len;
    SDL_Surface *ovl_surf; /* ovl as a surface, blended over the window surface */
    int present;        /* PRESENT_TEXTURE or PRESENT_SURFACE */
    const char *present_why; /* how auto chose, for the overlay and the report */
    const char *surface_how; /* how the water reaches the window surface */
    SDL_Surface *last_ws;   /* the window surface last drawn into, and its size */
    int last_ws_w, last_ws_h;
    SDL_Surface *conv_surf; /* fb in the window surface's format, to upscale from */
    rpl_rect_t *changed;    /* the tiles the last draw changed (room for every tile) */
    SDL_Rect *push;         /* what is pushed to the screen: changed tiles and overlay */
    int n_tiles;
    char stats[400];    /* the figures in the overlay, refreshed a few times a second */
    uint32_t stats_next_ms;
    int paused, step_once, help_on, overlay_on, fullscreen;
    int dragging;   /* the left button went down on the pool and is not up yet */
    int lastx, lasty;
    uint32_t last_input_ms;
    int touched;    /* the user has clicked or dragged */
    long frame;
    /* smoothed timings in milliseconds */
    double t_sim, t_refract, t_present, t_frame;
    double ms_refract, ms_present; /* the last frame's, unsmoothed */
    double speed;        /* steps taken over steps due, last second (1: full speed) */
    double speed_due, speed_done;
    char note[256];      /* a message shown for a while */
    uint32_t note_until;
    SDL_Window *win;
    SDL_Renderer *ren;
    SDL_Texture *tex;
    SDL_Texture *ovl_tex;
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
/* Shows msg on screen for a few seconds. */
void app_note(app_t *a, const char *msg);
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

/* files.c: pictures in, saved pictures.  Functions that can fail return
 * 0, or -1 with a one-line message in *err (free it); the picture loaders
 * return the exit status instead: EXIT_USAGE for the file, EXIT_FAILURE
 * (1, as everywhere) when memory ran out. */
const char *app_default_image(char *buf, size_t len);
/* The path of a file of assets/ (beside the binary, here, or installed), NULL if none. */
const char *app_find_asset(const char *name, char *buf, size_t len);
/* A picture at its own size, XRGB8888 (NULL with *err); app_load_pixels
 * gives it in *px with the exit status. */
uint32_t *app_load_image(const char *path, int *w, int *h, char **err);
int app_load_pixels(const char *path, uint32_t **px, int *w, int *h, char **err);
/* A picture fitted to the field into dst (field-sized, XRGB8888). */
int app_load_picture(const app_t *a, const char *path, uint32_t *dst, char **err);

/* backdrop.c: the pictures behind the pool (the pool keeps the one shown
 * and draws the walls into it).  app_picture_load hands the picture file
 * at path to the pool, app_picture_check only sees that it could be
 * (both 0, or the exit status with *err, as the loaders; a NULL path is
 * out of memory); app_walls_start applies --walls and --edges to the
 * field (0, or the exit status with *err). */
int app_picture_load(app_t *a, const char *path, char **err);
int app_picture_check(const app_t *a, const char *path, char **err);
int app_walls_start(app_t *a, char **err);

/* model.c: --model and the wave settings applied to the field (after a
 * snapshot, whose model stands unless --model is given; 0, or -1 with
 * *err); the keys W (classic or wave), Z X (wave speed down, up), V B
 * (viscosity down, up), given as 'w', 'z', 'x', 'v', 'b': a change the
 * core refuses is not made, and a note says why. */
int app_model_start(app_t *a, char **err);
void app_model_key(app_t *a, int key);
/* Checks before a run that path can be written (exit 2 if not). */
int app_check_target(const char *path, char **err);
/* Saves a surface as PNG or BMP (by the name's extension), as the screen
 * shows it, through the safe writer (0, or -1 with *err). */
int app_save_picture(SDL_Surface *s, const char *path, char **err);

/* screenshot.c: the water as it is now, without the overlay, drawn and
 * saved (0, or -1 with *err); S / F12: the next free ripple-NNNN.png in
 * the working directory, the outcome in a note. */
int app_screenshot(app_t *a, const char *path, char **err);
void app_take_screenshot(app_t *a);

/* overlay.c: redraws the overlay when what it shows has changed;
 * returns 1 if so.  app_overlay_head writes the figures' first lines,
 * the timings (the scene's drawing called draw) and the field, for the
 * scenes' text hooks, returning the length written; app_present_name
 * says how frames reach the screen. */
int app_draw_overlay(app_t *a);
size_t app_overlay_head(const app_t *a, char *buf, size_t len, const char *draw);
const char *app_present_name(const app_t *a);
/* Lays the overlay straight over w x h XRGB8888 pixels, the field's
 * rectangle in the window: darkened panels and text, no blending pass. */
void app_lay_overlay(const app_t *a, uint32_t *px, ptrdiff_t pitch, int w, int h);
/* The overlay's canvas for the field shown s times larger in the window
 * (the text stays the size it has at scale 1): 1 when it is a new one (to
 * be drawn again, and handed anew to SDL), 0 when it was already, -1 when
 * memory ran out (the old one, smaller, stays). */
int app_overlay_scale(app_t *a, int s);

/* palette.c: the one place that sets the 8-bit framebuffer's palette to
 * the shown scene's, when it differs (nothing to do in other formats):
 * called after each draw into the framebuffer, before its pixels are
 * read. */
void app_show_palette(app_t *a);

/* video.c: how frames will reach the screen (a->present, and why in
 * a->present_why): what was asked for, else the rule of --present auto
 * (README.md), whose probe of SDL's renderer runs in a short-lived child
 * process: call it before any thread starts.  app_video_open calls it if
 * it was not. */
void app_present_choose(app_t *a);

/* video.c: the window, and a frame drawn into it.  app_refract draws the
 * scene shown into the framebuffer; app_render_frame draws a frame and
 * then presents what it drew. */
int app_video_open(app_t *a, char **err);
void app_video_close(app_t *a);
void app_refract(app_t *a);
void app_render_frame(app_t *a);
/* Mouse coordinates in the window to cells of the field. */
void app_window_to_field(const app_t *a, int *x, int *y);

/* timedemo.c: --benchmark, the scene o.bench names played and measured,
 * 1/60 s of it per displayed frame; prints the report; returns the exit
 * status.  Every scene starts from TIMEDEMO_SEED. */
int app_timedemo(app_t *a);
#define TIMEDEMO_SEED 1

/* audio.c: the drips' sound, one step's worth (1/60 s) per simulation
 * step.  app_audio_open makes the mixer, hooks it to the field's drops
 * and opens --audio-out (0, or -1 with *err); app_audio_device opens the
 * sound device in a window, quietly going without when there is none;
 * app_audio_step mixes a step's sound after each step; app_audio_frame
 * keeps the device fed between steps (pause, a slow frame); the M key
 * toggles it; app_audio_close closes the device (before SDL quits);
 * app_audio_finish puts the WAV file in place (0, or -1 with *err);
 * app_audio_free abandons what is left. */
int app_audio_open(app_t *a, char **err);
void app_audio_device(app_t *a);
void app_audio_step(app_t *a);
void app_audio_frame(app_t *a);
void app_audio_toggle(app_t *a);
/* A drip for something other than the pool's stones (the side scene's splashes). */
void app_audio_drip(app_t *a, int x, int y, int radius, int weight);
void app_audio_close(app_t *a);
int app_audio_finish(app_t *a, char **err);
void app_audio_free(app_t *a);
/* The most steps of sound a WAV file holds (4 GB). */
uint64_t app_audio_max_steps(void);

/* record.c: --record, one picture per simulation step in a directory.
 * app_record_check: the directory and its first file can be written
 * (0, or -1 with *err); app_record_step saves the step just taken
 * (0, or -1 with *err). */
int app_record_check(const app_t *a, char **err);
int app_record_step(app_t *a, char **err);

/* play.c: the pool's play.  app_show_open reads --show FILE or the
 * default show into *show (NULL: none found, the autopilot plays);
 * app_play_open makes the pool from the options, a->play;
 * app_show_check loads every picture the pool's show names (both return
 * 0, or the exit status with *err, EXIT_USAGE or EXIT_FAILURE when memory
 * ran out: "FILE:LINE:COLUMN: message"); app_show_free frees the show's
 * file names. */
int app_show_open(app_t *a, rpl_show_t **show, char **err);
int app_play_open(app_t *a, const rpl_kernels_t *kern, char **err);
int app_show_check(app_t *a, const char *image, char **err);
void app_show_free(app_t *a);

/* input.c: returns 0 when the user asks to quit. */
int app_handle_event(app_t *a, const SDL_Event *e);

#endif
