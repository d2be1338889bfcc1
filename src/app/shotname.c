/* app/shotname.c - the screenshot key's file names: the first free ripple-NNNN.png, created exclusively so no file is ever replaced. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "app/shotname.h"
#include "app/sys.h"

int app_shot_take(const char *dir, char *buf, size_t len)
{
    size_t dl = strlen(dir);
    const char *sep = dl && dir[dl - 1] != '/' ? "/" : "";
    for (int i = SHOT_FIRST; i <= SHOT_LAST; i++) {
        int n = snprintf(buf, len, "%s%sripple-%04d.png", dir, sep, i);
        if (n < 0 || (size_t)n >= len)
            return ENAMETOOLONG;
        int e = app_sys_create_new(buf);
        if (e != EEXIST)
            return e;
    }
    return EEXIST;
}

void app_shot_release(const char *name)
{
    app_sys_remove_empty(name);
}
