/* app/overlay.h - the overlay over the water (figures, state, help, notes): made, drawn, and laid over a frame for video.c. */
#ifndef APP_OVERLAY_H
#define APP_OVERLAY_H

#include <stddef.h>

#include <SDL.h>

#include "app/app.h"

/* The overlay's separate boxes (statistics, hint, help, note). */
#define OVL_BOXES 4

/* The overlay over a w x h field, its canvas at scale 1, the figures
 * shown if figures_on (0, or EXIT_FAILURE with *err when memory ran out);
 * app_overlay_destroy frees it (NULL: nothing). */
int app_overlay_create(int w, int h, int figures_on, app_overlay_t **out, char **err);
void app_overlay_destroy(app_overlay_t *o);

/* O shows or hides the figures (the statistics and the hint), F1 and H
 * the help. */
void app_overlay_toggle(app_overlay_t *o);
void app_overlay_toggle_help(app_overlay_t *o);

/* The timedemo's results screen over everything else: a title, the
 * figures (lines) and a hint at the foot, each NULL or "" for none (body
 * NULL: the screen goes). */
void app_overlay_results(app_overlay_t *o, const char *title, const char *body, const char *hint);

/* Redraws a->overlay when what it shows has changed; an answer, not a
 * status: 1 if it did, 0 if nothing changed.
 * app_overlay_head writes the figures' first lines, the timings (the
 * scene's drawing called draw) and the field, for the scenes' text hooks,
 * returning the length written. */
int app_draw_overlay(app_t *a);
size_t app_overlay_head(const app_t *a, char *buf, size_t len, const char *draw);

/* How SDL takes it: a texture of ren, or (ren NULL) a surface to blend
 * over a window surface that is not 32-bit; 0, or EXIT_FAILURE with *err
 * when SDL cannot make it.  app_overlay_detach frees them (before the
 * renderer goes). */
int app_overlay_attach(app_overlay_t *o, SDL_Renderer *ren, char **err);
void app_overlay_detach(app_overlay_t *o);
/* Its canvas for the field shown s times larger in the window (the text
 * stays the size it has at scale 1), handed anew to SDL when it is a new
 * one.  Memory running out keeps the old canvas (the overlay then covers
 * less of the window); no texture or surface for it hides it. */
void app_overlay_fit(app_overlay_t *o, int s);

/* On a window surface, d the field's rectangle in it.  app_overlay_forget:
 * nothing of it lies on the surface (a new one); app_overlay_lift takes
 * it off again, the pixels it covered put back (an answer: 1 if so, 0 if
 * they were not kept, the water under it to be drawn again);
 * app_overlay_blit blends
 * it through SDL, clipped, not to be lifted (a window smaller than the
 * field); app_overlay_lay lays it over the water, keeping what it covers,
 * and lists in push what the screen must take again (push holds the n
 * rectangles the water changed; it or the water under it changed
 * (changed: app_draw_overlay said so), it moved): the count, n and up to
 * 2 * OVL_BOXES more. */
void app_overlay_forget(app_overlay_t *o);
int app_overlay_lift(app_overlay_t *o, SDL_Surface *ws);
void app_overlay_blit(app_overlay_t *o, SDL_Surface *ws, const SDL_Rect *d);
int app_overlay_lay(app_overlay_t *o, SDL_Surface *ws, const SDL_Rect *d, int changed,
                    SDL_Rect *push, int n);

/* Through SDL's renderer: app_overlay_upload hands a redrawn overlay to
 * its texture, app_overlay_render blends its boxes over the frame at d. */
void app_overlay_upload(app_overlay_t *o);
void app_overlay_render(app_overlay_t *o, const SDL_Rect *d);

#endif
