/* app/video.c - the window: renderer, textures, and a frame of water and overlay presented. */
#include <stdlib.h>
#include <string.h>

#include "app/app.h"

double app_ms_since(uint64_t t0)
{
    return (double)(SDL_GetPerformanceCounter() - t0) * 1000.0 /
           (double)SDL_GetPerformanceFrequency();
}

void app_smooth(double *avg, double v)
{
    *avg = *avg == 0 ? v : *avg * 0.95 + v * 0.05;
}

/* Draws the water into fb in its format, redrawing only changed tiles. */
void app_refract(app_t *a)
{
    rpl_renderer_draw(a->water, a->bd, a->fb, (ptrdiff_t)a->o.w * a->bytes, &a->view);
}

/* The OpenGL renderer's name (GL_RENDERER) in the current context. */
static const char *gl_renderer_name(void)
{
    typedef const unsigned char *(*get_string_fn)(unsigned);
    get_string_fn get = (get_string_fn)(uintptr_t)SDL_GL_GetProcAddress("glGetString");
    const unsigned char *name = get ? get(0x1F01 /* GL_RENDERER */) : NULL;
    return name ? (const char *)name : NULL;
}

/* auto: the window's surface unless a real GPU draws SDL's textures.  SDL
 * 2.26 cannot give one window both a renderer and its surface, so the
 * renderer is tried in a hidden window of its own. */
static int choose_present(app_t *a)
{
    const char *want = a->o.present ? a->o.present : getenv("RIPPLE_PRESENT");
    if (want && !strcmp(want, "surface")) {
        a->present_why = "asked for";
        return PRESENT_SURFACE;
    }
    if (want && !strcmp(want, "texture")) {
        a->present_why = "asked for";
        return PRESENT_TEXTURE;
    }
    SDL_Window *w = SDL_CreateWindow("ripple", 0, 0, 64, 64, SDL_WINDOW_HIDDEN);
    SDL_Renderer *r = w ? SDL_CreateRenderer(w, -1, SDL_RENDERER_ACCELERATED) : NULL;
    SDL_RendererInfo info;
    int mode = PRESENT_SURFACE;
    a->present_why = "no accelerated renderer";
    if (r && SDL_GetRendererInfo(r, &info) == 0) {
        const char *gl = !strncmp(info.name, "opengl", 6) ? gl_renderer_name() : NULL;
        if (!strcmp(info.name, "software"))
            a->present_why = "SDL's renderer is software";
        else if (gl && (strstr(gl, "llvmpipe") || strstr(gl, "softpipe") || strstr(gl, "swrast")))
            a->present_why = "OpenGL is a software rasteriser";
        else
            mode = PRESENT_TEXTURE, a->present_why = "a GPU renderer";
    }
    if (r)
        SDL_DestroyRenderer(r);
    if (w)
        SDL_DestroyWindow(w);
    return mode;
}

static int open_texture(app_t *a, char **err)
{
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
        *err = app_format("cannot create a %dx%d texture: %s", a->o.w, a->o.h, SDL_GetError());
        return -1;
    }
    return 0;
}

static int open_surface(app_t *a, char **err)
{
    if (!SDL_GetWindowSurface(a->win)) {
        *err = app_format("cannot get the window's surface: %s", SDL_GetError());
        return -1;
    }
    a->ovl_surf = SDL_CreateRGBSurfaceWithFormatFrom(a->ovl, a->o.w, a->o.h, 32, a->o.w * 4,
                                                     SDL_PIXELFORMAT_ARGB8888);
    if (!a->ovl_surf) {
        *err = app_format("cannot make the overlay: %s", SDL_GetError());
        return -1;
    }
    SDL_SetSurfaceBlendMode(a->ovl_surf, SDL_BLENDMODE_BLEND);
    return 0;
}

int app_video_open(app_t *a, char **err)
{
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        *err = app_format("cannot start video: %s (try --headless)", SDL_GetError());
        return -1;
    }
    SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "nearest");
    a->present = choose_present(a);
    /* the window's surface without SDL going through GL itself */
    if (a->present == PRESENT_SURFACE)
        SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
    a->win = SDL_CreateWindow("ripple", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                              a->o.w * a->o.scale, a->o.h * a->o.scale,
                              SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (!a->win) {
        *err = app_format("cannot open a window: %s (try --headless)", SDL_GetError());
        return -1;
    }
    return a->present == PRESENT_SURFACE ? open_surface(a, err) : open_texture(a, err);
}

void app_video_close(app_t *a)
{
    if (a->ovl_surf)
        SDL_FreeSurface(a->ovl_surf);
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

/* Where the field lies in the window's surface: the largest whole scale
 * that fits, centred. */
static SDL_Rect surface_place(const app_t *a, const SDL_Surface *ws)
{
    int s = ws->w / a->o.w < ws->h / a->o.h ? ws->w / a->o.w : ws->h / a->o.h;
    s = s < 1 ? 1 : s;
    return (SDL_Rect){ (ws->w - a->o.w * s) / 2, (ws->h - a->o.h * s) / 2, a->o.w * s,
                       a->o.h * s };
}

void app_window_to_field(const app_t *a, int *x, int *y)
{
    if (a->present != PRESENT_SURFACE)
        return; /* the renderer's logical size maps the mouse already */
    SDL_Surface *ws = SDL_GetWindowSurface(a->win);
    if (!ws)
        return;
    SDL_Rect d = surface_place(a, ws);
    int s = d.w / a->o.w;
    *x = (*x - d.x) / s;
    *y = (*y - d.y) / s;
}

/* The window's own pixels: the frame converted and scaled into them by
 * SDL's blitter, the overlay blended over its box only, then pushed. */
static void present_surface(app_t *a)
{
    SDL_Surface *ws = SDL_GetWindowSurface(a->win); /* a new one after a resize */
    if (!ws)
        return;
    SDL_Rect d = surface_place(a, ws);
    if (ws != a->last_ws || ws->w != a->last_ws_w || ws->h != a->last_ws_h) {
        SDL_FillRect(ws, NULL, 0); /* the margins around a centred frame */
        a->last_ws = ws, a->last_ws_w = ws->w, a->last_ws_h = ws->h;
    }
    int s = d.w / a->o.w;
    if (s == 1)
        SDL_BlitSurface(a->fb_surf, NULL, ws, &d);
    else
        SDL_BlitScaled(a->fb_surf, NULL, ws, &d);
    app_draw_overlay(a);
    if (a->ovl_box.w > 0) {
        SDL_Rect od = { d.x + a->ovl_box.x * s, d.y + a->ovl_box.y * s, a->ovl_box.w * s,
                        a->ovl_box.h * s };
        SDL_BlitScaled(a->ovl_surf, &a->ovl_box, ws, &od);
    }
    SDL_UpdateWindowSurface(a->win);
}

/* SDL's renderer: the frame uploaded to a texture, the overlay's box
 * (only) blended over it as a second texture, presented. */
static void present_texture(app_t *a)
{
    if (a->fmt == RPL_INDEX8) {
        /* no GPU takes 8-bit pixels: SDL looks them up in the palette */
        SDL_BlitSurface(a->fb_surf, NULL, a->show_surf, NULL);
        SDL_UpdateTexture(a->tex, NULL, a->show_surf->pixels, a->show_surf->pitch);
    } else {
        SDL_UpdateTexture(a->tex, NULL, a->fb, a->o.w * a->bytes);
    }
    if (app_draw_overlay(a) && a->ovl_box.w > 0)
        SDL_UpdateTexture(a->ovl_tex, &a->ovl_box,
                          a->ovl + (size_t)a->ovl_box.y * a->o.w + a->ovl_box.x, a->o.w * 4);
    SDL_SetRenderDrawColor(a->ren, 0, 0, 0, 255);
    SDL_RenderClear(a->ren);
    SDL_RenderCopy(a->ren, a->tex, NULL, NULL);
    if (a->ovl_box.w > 0)
        SDL_RenderCopy(a->ren, a->ovl_tex, &a->ovl_box, &a->ovl_box);
    SDL_RenderPresent(a->ren);
}

/* Redraws the tiles of the water that changed, then hands the frame to
 * the display the chosen way. */
void app_render_frame(app_t *a)
{
    uint64_t t0 = SDL_GetPerformanceCounter();
    app_refract(a);
    a->ms_refract = app_ms_since(t0);
    app_smooth(&a->t_refract, a->ms_refract);
    uint64_t t1 = SDL_GetPerformanceCounter();
    if (a->present == PRESENT_SURFACE)
        present_surface(a);
    else
        present_texture(a);
    a->ms_present = app_ms_since(t1);
    app_smooth(&a->t_present, a->ms_present);
}
