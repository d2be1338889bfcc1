/* app/screenshot.c - the water drawn as it is now and saved: --screenshot, --record's frames, the screenshot key. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/files.h"
#include "app/screenshot.h"
#include "app/shotname.h"
#include "app/video.h"

/* Saves the water as it is now, without the overlay. */
int app_screenshot(app_t *a, const char *path, char **err)
{
    app_refract(a);
    return app_save_picture(app_video_frame(a->video), path, err);
}

/* The screenshot key: the picture goes to the first free ripple-NNNN.png
 * of the working directory, taken empty with O_EXCL and then written
 * over through rpl_file; an existing file is never replaced. */
void app_take_screenshot(app_t *a)
{
    char path[64];
    int e = app_shot_take("", path, sizeof path);
    if (e == EEXIST) {
        app_note(a, "no free name for a screenshot: ripple-0001.png to ripple-9999.png "
                    "all exist");
        return;
    }
    if (e != 0) {
        char msg[160];
        snprintf(msg, sizeof msg, "cannot save '%s': %s", path, strerror(e));
        app_note(a, msg);
        return;
    }
    char *err = NULL;
    if (app_screenshot(a, path, &err) == 0) {
        char msg[128];
        snprintf(msg, sizeof msg, "saved %s", path);
        app_note(a, msg);
    } else {
        app_shot_release(path);
        app_note(a, err ? err : "cannot save the screenshot");
        free(err);
    }
}
