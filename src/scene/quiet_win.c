/* scene/quiet_win.c - a Chipmunk2D space made with stdout silenced, on Windows (msvcrt's _dup2 onto NUL). */
#include <fcntl.h>
#include <io.h>
#include <stdio.h>

#include "scene/internal.h"

/* As on POSIX (quiet.c): a Chipmunk2D built with its debug checks prints
 * two lines when the first space is made, which a bench's JSON on stdout
 * must not get; the one winprefix.sh builds has them off, another may not. */
cpSpace *scene_space_new_quietly(void)
{
    fflush(stdout);
    int saved = _dup(1);
    int null = saved >= 0 ? _open("NUL", _O_WRONLY) : -1;
    int moved = null >= 0 && _dup2(null, 1) == 0;
    cpSpace *space = cpSpaceNew();
    fflush(stdout);
    if (moved)
        _dup2(saved, 1);
    if (null >= 0)
        _close(null);
    if (saved >= 0)
        _close(saved);
    return space;
}
