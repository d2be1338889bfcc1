/* app/input.h - mouse and keys: the events handled, and what the user did last (a->input) for the scenes to read. */
#ifndef APP_INPUT_H
#define APP_INPUT_H

#include <SDL.h>

#include "app/app.h"

/* An answer, not a status: 0 when the user asks to quit, else 1. */
int app_handle_event(app_t *a, const SDL_Event *e);

/* a->input is written here and in input.c only.  The helpers are inline:
 * the scenes call them, and input.c calls the scenes' switch. */

/* The user leaves the water alone (a headless run, never touched, or
 * IDLE_MS since the last input): the show (or the autopilot) plays. */
static inline int app_input_idle(const app_t *a)
{
    return a->o.headless || !a->input.touched || SDL_GetTicks() - a->input.last_ms > IDLE_MS;
}

/* The left button went down on the field at (x, y), in its cells: a drag
 * begins there. */
static inline void app_input_press(app_t *a, int x, int y)
{
    a->input.dragging = 1;
    a->input.lastx = x;
    a->input.lasty = y;
}

/* A drag is under way (the left button not up since app_input_press). */
static inline int app_input_dragging(const app_t *a)
{
    return a->input.dragging;
}

/* The drag moved on to (x, y): where it was in *x0, *y0, and the user
 * counted as busy from now. */
static inline void app_input_drag(app_t *a, int x, int y, int *x0, int *y0)
{
    a->input.last_ms = SDL_GetTicks();
    *x0 = a->input.lastx;
    *y0 = a->input.lasty;
    a->input.lastx = x;
    a->input.lasty = y;
}

#endif
