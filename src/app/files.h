/* app/files.h - the demo's files: pictures in (the background, the assets), saved pictures, output targets checked before a run. */
#ifndef APP_FILES_H
#define APP_FILES_H

#include <stddef.h>
#include <stdint.h>

#include <SDL.h>

#include "app/app.h"

/* The functions that can fail have the form app.h gives; the picture
 * loaders fail with EXIT_USAGE for the file (unreadable, not a picture,
 * too large), EXIT_FAILURE when memory ran out. */
const char *app_default_image(char *buf, size_t len);
/* The path of a file of assets/ (beside the binary, here, or installed), NULL if none. */
const char *app_find_asset(const char *name, char *buf, size_t len);
/* A picture at its own size, XRGB8888, into *px (a new allocation, NULL
 * on failure), its size into *w and *h. */
int app_load_pixels(const char *path, uint32_t **px, int *w, int *h, char **err);
/* A picture fitted to the field into dst (field-sized, XRGB8888). */
int app_load_picture(const app_t *a, const char *path, uint32_t *dst, char **err);
/* Checks before a run that path can be written: EXIT_USAGE if not, the
 * name being the user's. */
int app_check_target(const char *path, char **err);
/* Saves a surface as PNG or BMP (by the name's extension), as the screen
 * shows it, through the safe writer: EXIT_FAILURE if it cannot, a
 * write of the run. */
int app_save_picture(SDL_Surface *s, const char *path, char **err);

#endif
