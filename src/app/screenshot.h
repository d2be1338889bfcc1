/* app/screenshot.h - the water saved as it is now: --screenshot, --record's frames, the screenshot key. */
#ifndef APP_SCREENSHOT_H
#define APP_SCREENSHOT_H

#include "app/app.h"

/* The water as it is now, without the overlay, drawn and saved (0, or
 * app_save_picture's EXIT_FAILURE with *err); S / F12: the next free ripple-NNNN.png in the working
 * directory, the outcome in a note. */
int app_screenshot(app_t *a, const char *path, char **err);
void app_take_screenshot(app_t *a);

#endif
