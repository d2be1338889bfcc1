/* app/palette.c - the 8-bit framebuffer's palette, pushed from one place: the side scene's while it is shown, else the backdrop's. */
#include "app/app.h"

void app_show_palette(app_t *a)
{
    if (a->o.fmt != RPL_INDEX8 || !a->fb_surf)
        return;
    const uint32_t *p = a->scene == APP_SCENE_SIDE ? side_scene_palette(a->side)
                                                   : rpl_backdrop_palette(a->bd);
    if (!p)
        return;
    SDL_Color pal[256];
    for (int i = 0; i < 256; i++)
        pal[i] = (SDL_Color){ (Uint8)(p[i] >> 16), (Uint8)(p[i] >> 8), (Uint8)p[i], 255 };
    SDL_SetPaletteColors(a->fb_surf->format->palette, pal, 0, 256);
}
