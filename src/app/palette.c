/* app/palette.c - the 8-bit framebuffer's palette, set from one place: the shown scene's, when it differs. */
#include <string.h>

#include "app/video.h"

void app_show_palette(const app_t *a, SDL_Surface *fb)
{
    if (a->o.fmt != RPL_INDEX8 || !fb)
        return;
    const uint32_t *p = a->scene->palette(a);
    if (!p)
        return;
    SDL_Color pal[256];
    for (int i = 0; i < 256; i++)
        pal[i] = (SDL_Color){ (Uint8)(p[i] >> 16), (Uint8)(p[i] >> 8), (Uint8)p[i], 255 };
    SDL_Palette *now = fb->format->palette;
    if (now->ncolors != 256 || memcmp(now->colors, pal, sizeof pal) != 0)
        SDL_SetPaletteColors(now, pal, 0, 256);
}
