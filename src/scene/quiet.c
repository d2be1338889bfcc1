/* scene/quiet.c - a Chipmunk2D space made with stdout silenced, on POSIX (quiet_win.c on Windows; in the page, nothing to silence). */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "scene/internal.h"

/* Debian's Chipmunk2D is built with its debug checks on, and the first
 * space a process makes prints two lines to stdout.  The scene never
 * prints (a bench's JSON or a report on stdout must stay clean), so stdout
 * points at /dev/null while the space is made, and what was buffered
 * before goes out first. */
cpSpace *scene_space_new_quietly(void)
{
#ifdef __EMSCRIPTEN__
    /* The page's module has no file descriptors to move (its file system
     * is left out), and its Chipmunk2D is built with NDEBUG: nothing to
     * silence. */
    return cpSpaceNew();
#endif
    fflush(stdout);
    int saved = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    int null = saved >= 0 ? open("/dev/null", O_WRONLY | O_CLOEXEC) : -1;
    int moved = null >= 0 && dup2(null, STDOUT_FILENO) >= 0;
    cpSpace *space = cpSpaceNew();
    fflush(stdout);
    if (moved)
        dup2(saved, STDOUT_FILENO);
    if (null >= 0)
        close(null);
    if (saved >= 0)
        close(saved);
    return space;
}
