/* app/record.c - --record: every simulation step saved as a numbered picture, DIR/frame-000001.png, ..., for a 60 fps video. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/files.h"
#include "app/record.h"
#include "app/screenshot.h"

/* DIR/frame-NNNNNN.EXT, numbered from 1 (a new allocation, NULL if memory
 * ran out). */
static char *frame_name(const app_t *a, long n)
{
    const char *dir = a->o.record;
    size_t len = strlen(dir);
    const char *sep = len && dir[len - 1] == '/' ? "" : "/";
    return app_format("%s%sframe-%06ld.%s", dir, sep, n, a->o.record_format);
}

int app_record_check(const app_t *a, char **err)
{
    int dir = rpl_path_is_dir(a->o.record);
    if (dir < 0) {
        *err = app_format("--record '%s': %s", a->o.record, strerror(errno));
        return EXIT_USAGE;
    }
    if (!dir) {
        *err = app_format("--record '%s': not a directory", a->o.record);
        return EXIT_USAGE;
    }
    /* that a file can be made in it, the way every frame will be */
    char *first = frame_name(a, 1);
    if (!first) {
        *err = NULL;
        return EXIT_FAILURE;
    }
    int rc = app_check_target(first, err);
    free(first);
    return rc;
}

/* Each picture goes through the screenshot's writer (a temporary file
 * renamed into place, never through a link), so a frame on disk is always
 * whole. */
int app_record_step(app_t *a, char **err)
{
    char *name = frame_name(a, a->recorded + 1);
    if (!name) {
        *err = NULL;
        return EXIT_FAILURE;
    }
    int rc = app_screenshot(a, name, err);
    free(name);
    if (rc == 0)
        a->recorded++;
    return rc;
}
