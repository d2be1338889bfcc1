/* app/video.h - the frame and the window: the framebuffer, how it reaches the screen, a frame of water and overlay presented. */
#ifndef APP_VIDEO_H
#define APP_VIDEO_H

#include <stddef.h>
#include <stdint.h>

#include <SDL.h>

#include "app/app.h"

/* The frame and the window, nothing made yet (0, or EXIT_FAILURE with
 * *err NULL when memory ran out); app_video_destroy frees it (NULL:
 * nothing), after app_video_close. */
int app_video_create(app_video_t **out, char **err);
void app_video_destroy(app_video_t *v);

/* How frames will reach the screen: what was asked for, else the rule of
 * --present auto (docs/benchmark.md, Presenting), whose probe of SDL's
 * renderer runs in a short-lived child process: call it before any
 * thread starts.
 * app_video_open calls it if it was not.  app_present_name says which
 * ("surface" or "texture"); app_present_mode, for the timedemo's report,
 * how and why (in buf). */
void app_present_choose(app_t *a);
const char *app_present_name(const app_t *a);
const char *app_present_mode(const app_t *a, char *buf, size_t len);

/* The framebuffer in o.fmt, kept between frames (only changed tiles are
 * redrawn), and its SDL surface, headless too (0, or EXIT_FAILURE with
 * *err when memory ran out); app_video_frame is that surface (its palette
 * for 8 bits), NULL before. */
int app_video_fb_open(app_t *a, char **err);
SDL_Surface *app_video_frame(const app_video_t *v);

/* The window (0, or EXIT_FAILURE with *err: no display, no window, no
 * renderer is a failure of the run) and its closing (before SDL quits).
 * app_refract draws the scene shown into the framebuffer;
 * app_render_frame draws a frame and then presents what it drew. */
int app_video_open(app_t *a, char **err);
void app_video_close(app_t *a);
void app_refract(app_t *a);
void app_render_frame(app_t *a);
/* Mouse coordinates in the window to cells of the field. */
void app_window_to_field(const app_t *a, int *x, int *y);
/* With --vsync, a window surface (which has none) waits out the rest of
 * the display's refresh period from frame_start rather than spin. */
void app_video_pace(const app_t *a, uint64_t frame_start);
/* F, F11, Alt+Enter: fullscreen on or off. */
void app_video_fullscreen(app_video_t *v);

/* palette.c: the one place that sets the 8-bit framebuffer's palette
 * (fb's) to the shown scene's, when it differs (nothing to do in other
 * formats): called after each draw into the framebuffer, before its
 * pixels are read. */
void app_show_palette(const app_t *a, SDL_Surface *fb);

#endif
