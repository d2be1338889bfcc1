/* tools/save.h - what the asset generators share to write their pictures. */
#ifndef RIPPLE_TOOLS_SAVE_H
#define RIPPLE_TOOLS_SAVE_H

#include <SDL.h>

/* Saves surf as PNG at path through the library's safe writer (a
 * temporary file beside it, synced and renamed into place); on failure
 * prints one line prefixed with prog and returns 0. */
int tool_save_png(SDL_Surface *surf, const char *path, const char *prog);

#endif
