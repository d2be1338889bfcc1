/* app/video.c - the frame and the window: framebuffer, renderer, textures, and a frame of water and overlay presented. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/overlay.h"
#include "app/sys.h"
#include "app/video.h"

/* How frames reach the screen (--present): a texture drawn by SDL's
 * renderer (a GPU's), or the window's own surface (no GPU, no GL). */
enum { PRESENT_TEXTURE = 0, PRESENT_SURFACE = 1 };

struct app_video {
    void *fb;               /* the water frame in o.fmt, kept between frames: only changed tiles are redrawn */
    SDL_Surface *fb_surf;   /* fb as an SDL surface (its palette for 8 bits) */
    SDL_Surface *show_surf; /* 8 bits: fb through the palette, as the display's DAC would */
    int present;            /* PRESENT_TEXTURE or PRESENT_SURFACE */
    const char *present_why; /* how auto chose, for the overlay and the report */
    const char *surface_how; /* how the water reaches the window surface */
    SDL_Window *win;
    SDL_Renderer *ren;
    SDL_Texture *tex;
    int fullscreen;
    SDL_Surface *last_ws;   /* the window surface last drawn into, and its size */
    int last_ws_w, last_ws_h;
    SDL_Surface *conv_surf; /* fb in the window surface's format, to upscale from */
    rpl_rect_t *changed;    /* the tiles the last draw changed (room for every tile) */
    SDL_Rect *push;         /* what is pushed to the screen: changed tiles and overlay */
    int n_tiles;
};

int app_video_create(app_video_t **out, char **err)
{
    *out = calloc(1, sizeof **out);
    *err = NULL; /* memory is all it can run out of */
    return *out ? 0 : EXIT_FAILURE;
}

void app_video_destroy(app_video_t *v)
{
    if (!v)
        return;
    SDL_FreeSurface(v->fb_surf);
    SDL_FreeSurface(v->show_surf);
    free(v->fb);
    free(v);
}

int app_video_fb_open(app_t *a, char **err)
{
    app_video_t *v = a->video;
    static const Uint32 sdl_fmt[] = { SDL_PIXELFORMAT_RGB888, SDL_PIXELFORMAT_RGB565,
                                      SDL_PIXELFORMAT_INDEX8 };
    int bytes = rpl_format_bytes(a->o.fmt);
    v->fb = calloc((size_t)a->o.w * (size_t)a->o.h, (size_t)bytes);
    if (v->fb)
        v->fb_surf = SDL_CreateRGBSurfaceWithFormatFrom(v->fb, a->o.w, a->o.h, 8 * bytes,
                                                        a->o.w * bytes, sdl_fmt[a->o.fmt]);
    if (v->fb && a->o.fmt == RPL_INDEX8)
        v->show_surf = SDL_CreateRGBSurfaceWithFormat(0, a->o.w, a->o.h, 32,
                                                      SDL_PIXELFORMAT_RGB888);
    if (v->fb_surf && (a->o.fmt != RPL_INDEX8 || v->show_surf))
        return 0;
    *err = app_format("out of memory for a %dx%d field", a->o.w, a->o.h);
    return EXIT_FAILURE;
}

SDL_Surface *app_video_frame(const app_video_t *v)
{
    return v->fb_surf;
}

/* The scene shown drawn into dst (fb, or the window's own pixels), and
 * the 8-bit palette kept to it. */
static void draw_scene(app_t *a, void *dst, ptrdiff_t pitch)
{
    a->scene->draw(a, dst, pitch);
    app_show_palette(a, a->video->fb_surf);
}

/* Draws the scene into fb in its format, redrawing only what changed. */
void app_refract(app_t *a)
{
    draw_scene(a, a->video->fb, (ptrdiff_t)a->o.w * rpl_format_bytes(a->o.fmt));
}

/* The OpenGL renderer's name (GL_RENDERER) in the current context. */
static const char *gl_renderer_name(void)
{
    typedef const unsigned char *(*get_string_fn)(unsigned);
    get_string_fn get = (get_string_fn)(uintptr_t)SDL_GL_GetProcAddress("glGetString");
    const unsigned char *name = get ? get(0x1F01 /* GL_RENDERER */) : NULL;
    return name ? (const char *)name : NULL;
}

/* libwayland, asked by SDL whether a Wayland server is there, prints
 * "XDG_RUNTIME_DIR is invalid or not set" to stderr when it can find no
 * socket, ahead of the demo's own one-line error.  With neither
 * WAYLAND_DISPLAY nor XDG_RUNTIME_DIR set it can reach no server, so SDL
 * is given its other drivers, in its own order, unless the user chose one
 * (SDL_VIDEODRIVER, in the environment or as a hint). */
static void skip_unreachable_wayland(void)
{
    const char *chosen = SDL_GetHint(SDL_HINT_VIDEODRIVER);
    const char *wl = getenv("WAYLAND_DISPLAY"), *rt = getenv("XDG_RUNTIME_DIR");
    if ((chosen && *chosen) || (wl && *wl) || (rt && *rt))
        return;
    char list[512] = "";
    size_t n = 0;
    for (int i = 0; i < SDL_GetNumVideoDrivers(); i++) {
        const char *d = SDL_GetVideoDriver(i);
        if (!d || !strcmp(d, "wayland"))
            continue;
        int w = snprintf(list + n, sizeof list - n, "%s%s", n ? "," : "", d);
        if (w < 0 || (size_t)w >= sizeof list - n)
            return; /* a list this long is not ours to cut: SDL's own order then */
        n += (size_t)w;
    }
    if (n)
        SDL_SetHint(SDL_HINT_VIDEODRIVER, list);
}

/* What the probe found, as the probe process's exit status. */
enum { PROBE_NONE = 40, PROBE_SOFTWARE, PROBE_SOFT_GL, PROBE_GPU };
/* How long the probe may take, in milliseconds. */
#define PROBE_WAIT_MS 5000

/* The probe itself, in the short-lived process: SDL's accelerated
 * renderer tried in a hidden window of its own (SDL 2.26 cannot give one
 * window both a renderer and its surface), and what draws for it. */
static int probe_found(SDL_Renderer *r)
{
    SDL_RendererInfo info;
    if (!r || SDL_GetRendererInfo(r, &info) != 0)
        return PROBE_NONE;
    if (!strcmp(info.name, "software"))
        return PROBE_SOFTWARE;
    const char *gl = !strncmp(info.name, "opengl", 6) ? gl_renderer_name() : NULL;
    if (gl && (strstr(gl, "llvmpipe") || strstr(gl, "softpipe") || strstr(gl, "swrast")))
        return PROBE_SOFT_GL;
    return PROBE_GPU;
}

/* It undoes what it set up: where there is no fork (Windows) it runs in
 * the demo's own process. */
static int probe_renderer(void)
{
    skip_unreachable_wayland();
    if (SDL_Init(SDL_INIT_VIDEO) != 0)
        return PROBE_NONE;
    SDL_Window *w = SDL_CreateWindow("ripple", 0, 0, 64, 64, SDL_WINDOW_HIDDEN);
    SDL_Renderer *r = w ? SDL_CreateRenderer(w, -1, SDL_RENDERER_ACCELERATED) : NULL;
    int found = probe_found(r);
    if (r)
        SDL_DestroyRenderer(r);
    if (w)
        SDL_DestroyWindow(w);
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    return found;
}

/* A device a GPU driver would draw through: Linux's DRM nodes, or the
 * NVIDIA driver's own.  Without one, OpenGL can only be a software
 * rasteriser.  Elsewhere (no such rule known) 1: the probe decides. */
static int gpu_device(void)
{
#if defined(__linux__)
    DIR *dir = opendir("/dev/dri");
    int found = 0;
    for (struct dirent *e; dir && !found && (e = readdir(dir)) != NULL;)
        found = !strncmp(e->d_name, "renderD", 7) || !strncmp(e->d_name, "card", 4);
    if (dir)
        closedir(dir);
    return found || access("/dev/nvidiactl", F_OK) == 0;
#else
    return 1;
#endif
}

/* A variable of the environment set to ask for something (not "0"). */
static int env_on(const char *name, const char *value)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return 0;
    return value ? SDL_strcasecmp(v, value) == 0 : strcmp(v, "0") != 0;
}

void app_present_choose(app_t *a)
{
    app_video_t *v = a->video;
    const char *want = a->o.present ? a->o.present : getenv("RIPPLE_PRESENT");
    v->present = PRESENT_SURFACE;
    if (want && !strcmp(want, "surface")) {
        v->present_why = "asked for";
        return;
    }
    if (want && !strcmp(want, "texture")) {
        v->present = PRESENT_TEXTURE, v->present_why = "asked for";
        return;
    }
    if (env_on("SDL_RENDER_DRIVER", "software") || env_on("LIBGL_ALWAYS_SOFTWARE", NULL)) {
        v->present_why = "software rendering asked for by the environment";
        return;
    }
    if (!gpu_device()) {
        v->present_why = "no GPU device";
        return;
    }
    /* the probe in a process of its own, so that OpenGL's libraries and
     * buffers (some 75 MB) never enter this one; a driver that hangs must
     * not hang the demo: the probe gets five seconds (it takes a few
     * tenths), then the surface is used */
    int found = app_sys_probe(probe_renderer, PROBE_WAIT_MS);
    if (found == -2) {
        v->present_why = "the renderer's probe did not answer";
        return;
    }
    if (found == PROBE_GPU)
        v->present = PRESENT_TEXTURE, v->present_why = "a GPU renderer";
    else if (found == PROBE_SOFT_GL)
        v->present_why = "OpenGL is a software rasteriser";
    else if (found == PROBE_SOFTWARE)
        v->present_why = "SDL's renderer is software";
    else if (found == PROBE_NONE)
        v->present_why = "no accelerated renderer";
    else
        v->present_why = "the renderer's probe failed";
}

const char *app_present_name(const app_t *a)
{
    return a->video->present == PRESENT_SURFACE ? "surface" : "texture";
}

const char *app_present_mode(const app_t *a, char *buf, size_t len)
{
    const app_video_t *v = a->video;
    if (a->o.headless)
        return "none (headless)";
    SDL_RendererInfo info;
    const char *driver = SDL_GetCurrentVideoDriver() ? SDL_GetCurrentVideoDriver() : "?";
    if (v->present == PRESENT_SURFACE)
        snprintf(buf, len, "surface (%s; %s; video driver %s)", v->present_why,
                 v->surface_how ? v->surface_how : "nothing shown", driver);
    else
        snprintf(buf, len, "texture (%s; SDL renderer %s, video driver %s)", v->present_why,
                 v->ren && SDL_GetRendererInfo(v->ren, &info) == 0 ? info.name : "?", driver);
    return buf;
}

static int open_texture(app_t *a, char **err)
{
    app_video_t *v = a->video;
    Uint32 flags = SDL_RENDERER_ACCELERATED | (a->o.vsync ? SDL_RENDERER_PRESENTVSYNC : 0);
    v->ren = SDL_CreateRenderer(v->win, -1, flags);
    if (!v->ren) /* no accelerated driver: the software renderer will do */
        v->ren = SDL_CreateRenderer(v->win, -1, SDL_RENDERER_SOFTWARE);
    if (!v->ren) {
        *err = app_format("cannot create a renderer: %s", SDL_GetError());
        return EXIT_FAILURE;
    }
    v->tex = SDL_CreateTexture(v->ren,
                               a->o.fmt == RPL_RGB565 ? SDL_PIXELFORMAT_RGB565 : SDL_PIXELFORMAT_RGB888,
                               SDL_TEXTUREACCESS_STREAMING, a->o.w, a->o.h);
    if (!v->tex) {
        *err = app_format("cannot create a %dx%d texture: %s", a->o.w, a->o.h, SDL_GetError());
        return EXIT_FAILURE;
    }
    return app_overlay_attach(a->overlay, v->ren, err);
}

static int open_surface(app_t *a, char **err)
{
    app_video_t *v = a->video;
    if (!SDL_GetWindowSurface(v->win)) {
        *err = app_format("cannot get the window's surface: %s", SDL_GetError());
        return EXIT_FAILURE;
    }
    rpl_stats_t st;
    rpl_sim_stats(play_sim(a->play), &st);
    v->n_tiles = (int)st.tiles;
    v->changed = calloc(st.tiles, sizeof *v->changed);
    v->push = calloc(st.tiles + 2 * OVL_BOXES, sizeof *v->push);
    if (!v->changed || !v->push) {
        *err = app_format("out of memory");
        return EXIT_FAILURE;
    }
    return app_overlay_attach(a->overlay, NULL, err);
}

int app_video_open(app_t *a, char **err)
{
    app_video_t *v = a->video;
    skip_unreachable_wayland();
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        *err = app_format("cannot start video: %s (try --headless)", SDL_GetError());
        return EXIT_FAILURE;
    }
    /* With no display SDL falls back by itself to a driver that shows
     * nothing (offscreen): the demo would play unseen until killed.  Only
     * when asked for by name (SDL_VIDEODRIVER) is such a driver taken. */
    const char *drv = SDL_GetCurrentVideoDriver(), *asked = getenv("SDL_VIDEODRIVER");
    if (drv && (!strcmp(drv, "offscreen") || !strcmp(drv, "dummy")) && !(asked && *asked)) {
        *err = app_format("no display to open a window on (SDL found no X11 or Wayland "
                          "server): run it in a desktop session, or use --headless");
        return EXIT_FAILURE;
    }
    SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "nearest");
    if (!v->present_why) /* not chosen yet */
        app_present_choose(a);
    /* the window's surface without SDL going through GL itself */
    if (v->present == PRESENT_SURFACE)
        SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
    v->win = SDL_CreateWindow("ripple", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                              a->o.w * a->o.scale, a->o.h * a->o.scale,
                              SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (!v->win) {
        *err = app_format("cannot open a window: %s (try --headless)", SDL_GetError());
        return EXIT_FAILURE;
    }
    return v->present == PRESENT_SURFACE ? open_surface(a, err) : open_texture(a, err);
}

void app_video_close(app_t *a)
{
    app_video_t *v = a->video;
    free(v->changed);
    free(v->push);
    v->changed = NULL, v->push = NULL;
    if (v->conv_surf)
        SDL_FreeSurface(v->conv_surf);
    app_overlay_detach(a->overlay);
    if (v->tex)
        SDL_DestroyTexture(v->tex);
    if (v->ren)
        SDL_DestroyRenderer(v->ren);
    if (v->win)
        SDL_DestroyWindow(v->win);
    v->conv_surf = NULL, v->tex = NULL, v->ren = NULL, v->win = NULL;
    SDL_Quit();
}

void app_video_pace(const app_t *a, uint64_t frame_start)
{
    if (!a->o.vsync || a->video->present != PRESENT_SURFACE)
        return;
    SDL_DisplayMode mode;
    int hz = SDL_GetWindowDisplayMode(a->video->win, &mode) == 0 && mode.refresh_rate > 0
                 ? mode.refresh_rate : 60;
    double left = 1000.0 / hz - app_ms_since(frame_start);
    if (left >= 1.0)
        SDL_Delay((Uint32)left);
}

void app_video_fullscreen(app_video_t *v)
{
    v->fullscreen = !v->fullscreen;
    SDL_SetWindowFullscreen(v->win, v->fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
}

/* Where the field lies in a window of w x h pixels: the largest whole
 * scale that fits (at least 1), centred. */
static SDL_Rect place(const app_t *a, int w, int h)
{
    int s = w / a->o.w < h / a->o.h ? w / a->o.w : h / a->o.h;
    s = s < 1 ? 1 : s;
    return (SDL_Rect){ (w - a->o.w * s) / 2, (h - a->o.h * s) / 2, a->o.w * s, a->o.h * s };
}

void app_window_to_field(const app_t *a, int *x, int *y)
{
    const app_video_t *v = a->video;
    int w, h;
    if (v->present == PRESENT_SURFACE) {
        SDL_Surface *ws = SDL_GetWindowSurface(v->win);
        if (!ws)
            return;
        w = ws->w, h = ws->h;
    } else { /* the renderer's pixels, which a high-DPI window has more of */
        int ww, wh;
        if (SDL_GetRendererOutputSize(v->ren, &w, &h) != 0)
            return;
        SDL_GetWindowSize(v->win, &ww, &wh);
        if (ww > 0 && wh > 0)
            *x = (int)((long)*x * w / ww), *y = (int)((long)*y * h / wh);
    }
    SDL_Rect d = place(a, w, h);
    int s = d.w / a->o.w;
    *x = (*x - d.x) / s;
    *y = (*y - d.y) / s;
}

/* The window surface holds the framebuffer's pixels as they are. */
static int same_format(const app_t *a, const SDL_Surface *ws)
{
    Uint32 f = ws->format->format;
    if (a->o.fmt == RPL_XRGB8888) /* the top byte is never shown */
        return f == SDL_PIXELFORMAT_RGB888 || f == SDL_PIXELFORMAT_ARGB8888;
    return a->o.fmt == RPL_RGB565 && f == SDL_PIXELFORMAT_RGB565;
}

/* The field's rectangle r on the window surface, placed at d scaled s. */
static SDL_Rect on_surface(const rpl_rect_t *r, const SDL_Rect *d, int s)
{
    return (SDL_Rect){ d->x + r->x * s, d->y + r->y * s, r->w * s, r->h * s };
}

/* Copies the changed rectangles of fb into the window surface: by SDL's
 * blitter when it only converts, by our own upscale when it scales (from a
 * converted copy when the formats differ). */
static void copy_changed(app_t *a, SDL_Surface *ws, const SDL_Rect *d, int s, int n)
{
    app_video_t *v = a->video;
    int bytes = ws->format->BytesPerPixel;
    SDL_Surface *src = v->fb_surf;
    if (s > 1 && !same_format(a, ws)) {
        if (v->conv_surf && v->conv_surf->format->format != ws->format->format) {
            SDL_FreeSurface(v->conv_surf);
            v->conv_surf = NULL;
        }
        if (!v->conv_surf)
            v->conv_surf = SDL_CreateRGBSurfaceWithFormat(0, a->o.w, a->o.h, 32,
                                                          ws->format->format);
        src = v->conv_surf;
        for (int i = 0; src && i < n; i++) {
            SDL_Rect r = { v->changed[i].x, v->changed[i].y, v->changed[i].w, v->changed[i].h };
            SDL_BlitSurface(v->fb_surf, &r, src, &r);
        }
    }
    for (int i = 0; i < n; i++) {
        const rpl_rect_t *c = &v->changed[i];
        SDL_Rect r = { c->x, c->y, c->w, c->h }, to = on_surface(c, d, s);
        if (s == 1) {
            SDL_BlitSurface(v->fb_surf, &r, ws, &to);
        } else if (src && (bytes == 2 || bytes == 4)) {
            const char *from = (const char *)src->pixels + (ptrdiff_t)c->y * src->pitch +
                               (ptrdiff_t)c->x * bytes;
            char *at = (char *)ws->pixels + (ptrdiff_t)to.y * ws->pitch + (ptrdiff_t)to.x * bytes;
            if (rpl_upscale(rpl_sim_kernels(play_sim(a->play)), from, src->pitch, at,
                            ws->pitch, c->w, c->h, bytes, s) != RPL_OK)
                SDL_BlitScaled(v->fb_surf, &r, ws, &to); /* SDL's scaler, as for 24 bits */
        } else { /* a 24-bit screen: SDL's scaler */
            SDL_BlitScaled(v->fb_surf, &r, ws, &to);
        }
    }
}

/* What a frame drew, for the present to hand to the display. */
typedef struct drawn {
    SDL_Surface *ws; /* the window surface drawn into (NULL: nothing to show) */
    int all;         /* the whole surface goes to the screen, else push[0..np) */
    int np;
    int overlay;     /* the overlay changed: its texture takes it again */
    SDL_Rect d;      /* the renderer's: where the field lies in its pixels */
} drawn_t;

/* The window surface ready for a frame: after a resize (or a new surface)
 * its margins cleared and everything drawn again, else the overlay taken
 * off the water it covers.  1 when the whole surface is new. */
static int surface_begin(app_t *a, SDL_Surface *ws)
{
    app_video_t *v = a->video;
    if (ws != v->last_ws || ws->w != v->last_ws_w || ws->h != v->last_ws_h) {
        SDL_FillRect(ws, NULL, 0); /* the margins around a centred frame */
        v->last_ws = ws, v->last_ws_w = ws->w, v->last_ws_h = ws->h;
        a->scene->invalidate(a);
        app_overlay_forget(a->overlay); /* nothing of it on this surface */
        return 1;
    }
    if (!app_overlay_lift(a->overlay, ws))
        a->scene->invalidate(a);
    return 0;
}

/* A window smaller than the field: the frame and the overlay go through
 * SDL's blits, which clip, and the whole window is pushed. */
static void draw_clipped(app_t *a, SDL_Surface *ws, SDL_Rect d, drawn_t *f)
{
    uint64_t t0 = SDL_GetPerformanceCounter();
    app_refract(a);
    a->timing.ms_refract = app_ms_since(t0);
    SDL_BlitSurface(a->video->fb_surf, NULL, ws, &d);
    app_draw_overlay(a);
    app_overlay_blit(a->overlay, ws, &d);
    a->video->surface_how = "clipped to a small window";
    f->all = 1;
}

/* A frame in the window's own pixels.  The scene is drawn straight into
 * them when they have the framebuffer's format at scale 1 (else into fb,
 * then copied: converted by SDL, upscaled by ours), the overlay laid over
 * it; what changed (the scene's changed tiles, the overlay where it or
 * the water under it changed) is listed for the present. */
static void draw_surface(app_t *a, drawn_t *f)
{
    app_video_t *v = a->video;
    SDL_Surface *ws = SDL_GetWindowSurface(v->win); /* a new one after a resize */
    if (!ws)
        return;
    f->ws = ws;
    SDL_Rect d = place(a, ws->w, ws->h);
    int s = d.w / a->o.w;
    app_overlay_fit(a->overlay, s);
    int locked = SDL_MUSTLOCK(ws) && SDL_LockSurface(ws) == 0;
    f->all = surface_begin(a, ws);
    if (d.x < 0 || d.y < 0 || d.x + d.w > ws->w || d.y + d.h > ws->h) {
        if (locked)
            SDL_UnlockSurface(ws);
        draw_clipped(a, ws, d, f);
        return;
    }
    int direct = s == 1 && same_format(a, ws);
    uint64_t t0 = SDL_GetPerformanceCounter();
    if (direct)
        draw_scene(a, (char *)ws->pixels + (ptrdiff_t)d.y * ws->pitch +
                          (ptrdiff_t)d.x * rpl_format_bytes(a->o.fmt), ws->pitch);
    else
        app_refract(a);
    a->timing.ms_refract = app_ms_since(t0);
    int n = a->scene->changed(a, v->changed, v->n_tiles);
    v->surface_how = direct ? "refracted into the window" : s == 1 ? "converted" : "upscaled";
    if (locked)
        SDL_UnlockSurface(ws);
    if (!direct)
        copy_changed(a, ws, &d, s, n);
    for (int i = 0; i < n; i++)
        v->push[f->np++] = on_surface(&v->changed[i], &d, s);
    /* the overlay over it, at the window's own pixels (its text the same
     * size at every scale) */
    int changed = app_draw_overlay(a);
    f->np = app_overlay_lay(a->overlay, ws, &d, changed, v->push, f->np);
}

/* Hands what draw_surface drew to the screen. */
static void present_surface(app_t *a, const drawn_t *f)
{
    if (!f->ws)
        return;
    if (f->all)
        SDL_UpdateWindowSurface(a->video->win);
    else if (f->np > 0)
        SDL_UpdateWindowSurfaceRects(a->video->win, a->video->push, f->np);
}

/* A frame for SDL's renderer: the scene into fb, the overlay redrawn if
 * what it shows changed, or on a new canvas for a new scale. */
static void draw_texture(app_t *a, drawn_t *f)
{
    int w = a->o.w, h = a->o.h;
    if (SDL_GetRendererOutputSize(a->video->ren, &w, &h) != 0)
        w = a->o.w, h = a->o.h;
    f->d = place(a, w, h);
    app_overlay_fit(a->overlay, f->d.w / a->o.w);
    uint64_t t0 = SDL_GetPerformanceCounter();
    app_refract(a);
    a->timing.ms_refract = app_ms_since(t0);
    f->overlay = app_draw_overlay(a);
}

/* SDL's renderer: the frame uploaded to a texture and scaled into place,
 * the overlay's boxes (only) blended over it from a second texture at the
 * renderer's own pixels, presented. */
static void present_texture(app_t *a, const drawn_t *f)
{
    app_video_t *v = a->video;
    if (a->o.fmt == RPL_INDEX8) {
        /* no GPU takes 8-bit pixels: SDL looks them up in the palette */
        SDL_BlitSurface(v->fb_surf, NULL, v->show_surf, NULL);
        SDL_UpdateTexture(v->tex, NULL, v->show_surf->pixels, v->show_surf->pitch);
    } else {
        SDL_UpdateTexture(v->tex, NULL, v->fb, a->o.w * rpl_format_bytes(a->o.fmt));
    }
    if (f->overlay)
        app_overlay_upload(a->overlay);
    SDL_SetRenderDrawColor(v->ren, 0, 0, 0, 255);
    SDL_RenderClear(v->ren);
    SDL_RenderCopy(v->ren, v->tex, NULL, &f->d);
    app_overlay_render(a->overlay, &f->d);
    SDL_RenderPresent(v->ren);
}

/* Draws a frame (the scene's changed parts, the overlay) the chosen way,
 * then presents what was drawn. */
void app_render_frame(app_t *a)
{
    uint64_t t0 = SDL_GetPerformanceCounter();
    drawn_t f = { NULL, 0, 0, 0, { 0, 0, 0, 0 } };
    if (a->video->present == PRESENT_SURFACE) {
        draw_surface(a, &f);
        present_surface(a, &f);
    } else {
        draw_texture(a, &f);
        present_texture(a, &f);
    }
    /* presenting is the rest of the frame's drawing */
    a->timing.ms_present = app_ms_since(t0) - a->timing.ms_refract;
    app_smooth(&a->timing.refract, a->timing.ms_refract);
    app_smooth(&a->timing.present, a->timing.ms_present);
}
