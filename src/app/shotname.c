/* app/shotname.c - the screenshot key's file names: the first free ripple-NNNN.png, created exclusively so no file is ever replaced. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/shotname.h"

int app_shot_take(const char *dir, char *buf, size_t len)
{
    size_t dl = strlen(dir);
    const char *sep = dl && dir[dl - 1] != '/' ? "/" : "";
    for (int i = SHOT_FIRST; i <= SHOT_LAST; i++) {
        int n = snprintf(buf, len, "%s%sripple-%04d.png", dir, sep, i);
        if (n < 0 || (size_t)n >= len)
            return ENAMETOOLONG;
        /* O_EXCL: fails on anything there, a link (even dangling) included */
        int fd = open(buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0) {
            close(fd);
            return 0;
        }
        if (errno != EEXIST)
            return errno;
    }
    return EEXIST;
}

void app_shot_release(const char *name)
{
    struct stat st;
    if (lstat(name, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0)
        unlink(name);
}
