/* app/app.h - the demo's state and the parts of the front end: files, overlay, video, input. */
#ifndef APP_APP_H
#define APP_APP_H

#include <SDL.h>

#include "app/args.h"
#include "ripple.h"

#define STEP_HZ 60          /* simulation steps per second in a window */
#define MAX_CATCHUP 4       /* most steps per frame when the display lags */
#define IDLE_MS 6000        /* the autopilot waits this long after user input */
#define STONE_WEIGHT 300
#define STONE_MIN 1
#define STONE_MAX 40

/* How frames reach the screen (--present): a texture drawn by SDL's
 * renderer (a GPU's), or the window's own surface (no GPU, no GL). */
enum { PRESENT_TEXTURE = 0, PRESENT_SURFACE = 1 };

/* The overlay's separate boxes (statistics, hint, help, note). */
#define OVL_BOXES 4

/* An element of the overlay: a text on a translucent panel (alpha 0: on
 * nothing), in field coordinates. */
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

typedef struct app {
    app_opts_t o;
    rpl_sim_t *sim;
    rpl_renderer_t *water;  /* keeps fb up to date, redrawing only changed tiles */
    rpl_autopilot_t ap;
    rpl_rain_t rain;
    uint32_t *bg;   /* background fitted to the field, XRGB8888 */
    rpl_backdrop_t *bd; /* the background prepared for the framebuffer's format */
    rpl_format fmt;
    int bytes;      /* per framebuffer pixel */
    void *fb;       /* the water frame, kept between frames: only changed tiles are redrawn */
    SDL_Surface *fb_surf;   /* fb as an SDL surface (its palette for 8 bits) */
    SDL_Surface *show_surf; /* 8 bits: fb through the palette, as the display's DAC would */
    uint32_t *ovl;  /* the overlay, ARGB, drawn over the water by the GPU or SDL */
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
    char stats[256];    /* the figures in the overlay, refreshed a few times a second */
    uint32_t stats_next_ms;
    rpl_view_t view;
    int stone;      /* stone radius for the mouse */
    int paused, step_once, rain_on, auto_on, help_on, overlay_on, fullscreen;
    int dragging, lastx, lasty;
    uint32_t last_input_ms;
    int touched;    /* the user has clicked or dragged */
    long frame;
    /* smoothed timings in milliseconds */
    double t_sim, t_refract, t_present, t_frame;
    double ms_refract, ms_present; /* the last frame's, unsmoothed */
    char note[256];      /* a message shown for a while */
    uint32_t note_until;
    SDL_Window *win;
    SDL_Renderer *ren;
    SDL_Texture *tex;
    SDL_Texture *ovl_tex;
} app_t;

/* A message in a new allocation, never cut short (NULL if memory ran out). */
char *app_format(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* video.c: milliseconds since a performance-counter reading, and a
 * running average of timings (what the overlay shows). */
double app_ms_since(uint64_t t0);
void app_smooth(double *avg, double v);

/* Shows msg on screen for a few seconds. */
void app_note(app_t *a, const char *msg);

/* files.c: the background picture, saved pictures.  Functions that can
 * fail return 0, or -1 with a one-line message in *err (free it). */
const char *app_default_image(char *buf, size_t len);
int app_load_background(app_t *a, const char *path, char **err);
/* Checks before a run that path can be written (exit 2 if not). */
int app_check_target(const char *path, char **err);
int app_screenshot(app_t *a, const char *path, char **err);
/* S / F12: the next free ripple-NNNN.png in the working directory. */
void app_take_screenshot(app_t *a);

/* overlay.c: redraws the overlay when what it shows has changed;
 * returns 1 if so. */
int app_draw_overlay(app_t *a);
/* Lays the overlay straight over w x h XRGB8888 pixels that show the
 * field scaled s times: darkened panels and text, no blending pass. */
void app_lay_overlay(const app_t *a, uint32_t *px, ptrdiff_t pitch, int w, int h, int s);

/* video.c: the window, and a frame drawn into it. */
int app_video_open(app_t *a, char **err);
void app_video_close(app_t *a);
void app_refract(app_t *a);
void app_render_frame(app_t *a);
/* Mouse coordinates in the window to cells of the field. */
void app_window_to_field(const app_t *a, int *x, int *y);

/* timedemo.c: --benchmark, the fixed scene played and measured, one step
 * per displayed frame; prints the report; returns the exit status. */
int app_timedemo(app_t *a);
/* The scene --benchmark plays (named and versioned in its report). */
#define TIMEDEMO_SCENE "busy-1"
#define TIMEDEMO_SEED 1

/* input.c: returns 0 when the user asks to quit. */
int app_handle_event(app_t *a, const SDL_Event *e);

#endif
