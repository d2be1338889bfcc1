/* tools/save.c - the asset generators' PNG writer, on the library's safe file writer. */
#include <SDL.h>
#include <SDL_image.h>

#include <stdio.h>

#include "ripple.h"
#include "ripple_support.h"
#include "tools/save.h"

int tool_save_png(SDL_Surface *surf, const char *path, const char *prog)
{
    rpl_file_t *f;
    rpl_status st = rpl_file_open(path, 0, &f);
    if (st == RPL_OK) {
        SDL_RWops *rw = SDL_RWFromFP(rpl_file_stream(f), SDL_FALSE);
        if (!rw || IMG_SavePNG_RW(surf, rw, 1) != 0) {
            fprintf(stderr, "%s: cannot write %s: %s\n", prog, path, SDL_GetError());
            rpl_file_destroy(f);
            return 0;
        }
        st = rpl_file_commit(f);
    }
    if (st != RPL_OK)
        fprintf(stderr, "%s: %s\n", prog, f ? rpl_file_error(f) : rpl_strerror(st));
    rpl_file_destroy(f);
    return st == RPL_OK;
}
