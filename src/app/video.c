/* app/video.c - the window: renderer, textures, and a frame of water and overlay presented. */
#include "app/app.h"

static double ms_since(uint64_t t0)
{
    return (double)(SDL_GetPerformanceCounter() - t0) * 1000.0 /
           (double)SDL_GetPerformanceFrequency();
}

static void smooth(double *avg, double v)
{
    *avg = *avg == 0 ? v : *avg * 0.95 + v * 0.05;
}

/* Draws the water into fb in its format, redrawing only changed tiles. */
void app_refract(app_t *a)
{
    rpl_renderer_draw(a->water, a->bd, a->fb, (ptrdiff_t)a->o.w * a->bytes, &a->view);
}

int app_video_open(app_t *a, char **err)
{
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        *err = app_format("cannot start video: %s (try --headless)", SDL_GetError());
        return -1;
    }
    SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "nearest");
    a->win = SDL_CreateWindow("ripple", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                              a->o.w * a->o.scale, a->o.h * a->o.scale,
                              SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (!a->win) {
        *err = app_format("cannot open a window: %s (try --headless)", SDL_GetError());
        return -1;
    }
    Uint32 flags = SDL_RENDERER_ACCELERATED | (a->o.vsync ? SDL_RENDERER_PRESENTVSYNC : 0);
    a->ren = SDL_CreateRenderer(a->win, -1, flags);
    if (!a->ren) /* no accelerated driver: the software renderer will do */
        a->ren = SDL_CreateRenderer(a->win, -1, SDL_RENDERER_SOFTWARE);
    if (!a->ren) {
        *err = app_format("cannot create a renderer: %s", SDL_GetError());
        return -1;
    }
    SDL_RenderSetLogicalSize(a->ren, a->o.w, a->o.h);
    SDL_RenderSetIntegerScale(a->ren, SDL_TRUE);
    a->tex = SDL_CreateTexture(a->ren,
                               a->fmt == RPL_RGB565 ? SDL_PIXELFORMAT_RGB565 : SDL_PIXELFORMAT_RGB888,
                               SDL_TEXTUREACCESS_STREAMING, a->o.w, a->o.h);
    a->ovl_tex = SDL_CreateTexture(a->ren, SDL_PIXELFORMAT_ARGB8888,
                                   SDL_TEXTUREACCESS_STREAMING, a->o.w, a->o.h);
    if (a->ovl_tex)
        SDL_SetTextureBlendMode(a->ovl_tex, SDL_BLENDMODE_BLEND);
    if (!a->tex || !a->ovl_tex) {
        *err = app_format("cannot create a %dx%d texture: %s", a->o.w, a->o.h,
                 SDL_GetError());
        return -1;
    }
    return 0;
}

void app_video_close(app_t *a)
{
    if (a->ovl_tex)
        SDL_DestroyTexture(a->ovl_tex);
    if (a->tex)
        SDL_DestroyTexture(a->tex);
    if (a->ren)
        SDL_DestroyRenderer(a->ren);
    if (a->win)
        SDL_DestroyWindow(a->win);
    SDL_Quit();
}

/* Redraws the tiles of the water that changed, uploads the frame (the
 * one copy SDL needs to reach the screen), lays the overlay over it as a
 * second texture so it never dirties the water, and presents. */
void app_render_frame(app_t *a)
{
    uint64_t t0 = SDL_GetPerformanceCounter();
    app_refract(a);
    a->ms_refract = ms_since(t0);
    smooth(&a->t_refract, a->ms_refract);
    uint64_t t1 = SDL_GetPerformanceCounter();
    if (a->fmt == RPL_INDEX8) {
        /* no GPU takes 8-bit pixels: SDL looks them up in the palette */
        SDL_BlitSurface(a->fb_surf, NULL, a->show_surf, NULL);
        SDL_UpdateTexture(a->tex, NULL, a->show_surf->pixels, a->show_surf->pitch);
    } else {
        SDL_UpdateTexture(a->tex, NULL, a->fb, a->o.w * a->bytes);
    }
    if (app_draw_overlay(a))
        SDL_UpdateTexture(a->ovl_tex, NULL, a->ovl, a->o.w * 4);
    SDL_SetRenderDrawColor(a->ren, 0, 0, 0, 255);
    SDL_RenderClear(a->ren);
    SDL_RenderCopy(a->ren, a->tex, NULL, NULL);
    SDL_RenderCopy(a->ren, a->ovl_tex, NULL, NULL);
    SDL_RenderPresent(a->ren);
    a->ms_present = ms_since(t1);
    smooth(&a->t_present, a->ms_present);
}
