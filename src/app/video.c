/* app/video.c - the window: renderer, textures, and a frame of water and overlay presented. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/app.h"

/* The scene shown drawn into dst (fb, or the window's own pixels), and
 * the 8-bit palette kept to it. */
static void draw_scene(app_t *a, void *dst, ptrdiff_t pitch)
{
    a->scene->draw(a, dst, pitch);
    app_show_palette(a);
}

/* Draws the scene into fb in its format, redrawing only what changed. */
void app_refract(app_t *a)
{
    draw_scene(a, a->fb, (ptrdiff_t)a->o.w * rpl_format_bytes(a->o.fmt));
}

/* The OpenGL renderer's name (GL_RENDERER) in the current context. */
static const char *gl_renderer_name(void)
{
    typedef const unsigned char *(*get_string_fn)(unsigned);
    get_string_fn get = (get_string_fn)(uintptr_t)SDL_GL_GetProcAddress("glGetString");
    const unsigned char *name = get ? get(0x1F01 /* GL_RENDERER */) : NULL;
    return name ? (const char *)name : NULL;
}

/* What the probe found, as the probe process's exit status. */
enum { PROBE_NONE = 40, PROBE_SOFTWARE, PROBE_SOFT_GL, PROBE_GPU };
/* How long the probe may take, in milliseconds. */
#define PROBE_WAIT_MS 5000

/* The probe itself, in the short-lived process: SDL's accelerated
 * renderer tried in a hidden window of its own (SDL 2.26 cannot give one
 * window both a renderer and its surface), and what draws for it. */
static int probe_renderer(void)
{
    if (SDL_Init(SDL_INIT_VIDEO) != 0)
        return PROBE_NONE;
    SDL_Window *w = SDL_CreateWindow("ripple", 0, 0, 64, 64, SDL_WINDOW_HIDDEN);
    SDL_Renderer *r = w ? SDL_CreateRenderer(w, -1, SDL_RENDERER_ACCELERATED) : NULL;
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
    const char *want = a->o.present ? a->o.present : getenv("RIPPLE_PRESENT");
    a->present = PRESENT_SURFACE;
    if (want && !strcmp(want, "surface")) {
        a->present_why = "asked for";
        return;
    }
    if (want && !strcmp(want, "texture")) {
        a->present = PRESENT_TEXTURE, a->present_why = "asked for";
        return;
    }
    if (env_on("SDL_RENDER_DRIVER", "software") || env_on("LIBGL_ALWAYS_SOFTWARE", NULL)) {
        a->present_why = "software rendering asked for by the environment";
        return;
    }
    if (!gpu_device()) {
        a->present_why = "no GPU device";
        return;
    }
    /* the probe in a process of its own, so that OpenGL's libraries and
     * buffers (some 75 MB) never enter this one */
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        _exit(probe_renderer());
    /* a driver that hangs must not hang the demo: the probe gets five
     * seconds (it takes a few tenths), then the surface is used */
    int st = 0, waited = 0;
    for (pid_t got = 0; pid > 0 && got == 0;) {
        got = waitpid(pid, &st, WNOHANG);
        if (got < 0 && errno == EINTR)
            got = 0;
        else if (got < 0)
            st = 0, pid = -1;
        else if (got == 0 && waited++ >= PROBE_WAIT_MS / 10) {
            kill(pid, SIGKILL);
            while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
                ;
            a->present_why = "the renderer's probe did not answer";
            return;
        } else if (got == 0)
            SDL_Delay(10);
    }
    int found = pid > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    if (found == PROBE_GPU)
        a->present = PRESENT_TEXTURE, a->present_why = "a GPU renderer";
    else if (found == PROBE_SOFT_GL)
        a->present_why = "OpenGL is a software rasteriser";
    else if (found == PROBE_SOFTWARE)
        a->present_why = "SDL's renderer is software";
    else if (found == PROBE_NONE)
        a->present_why = "no accelerated renderer";
    else
        a->present_why = "the renderer's probe failed";
}

/* The overlay's texture, its canvas's size (0, or -1: none). */
static int overlay_texture(app_t *a)
{
    if (a->ovl_tex)
        SDL_DestroyTexture(a->ovl_tex);
    a->ovl_tex = SDL_CreateTexture(a->ren, SDL_PIXELFORMAT_ARGB8888,
                                   SDL_TEXTUREACCESS_STREAMING, a->ovl_w, a->ovl_h);
    if (a->ovl_tex)
        SDL_SetTextureBlendMode(a->ovl_tex, SDL_BLENDMODE_BLEND);
    return a->ovl_tex ? 0 : -1;
}

/* The overlay's canvas as a surface, to blend over a window surface
 * that is not 32-bit (0, or -1: none). */
static int overlay_surface_of(app_t *a)
{
    if (a->ovl_surf)
        SDL_FreeSurface(a->ovl_surf);
    a->ovl_surf = SDL_CreateRGBSurfaceWithFormatFrom(a->ovl, a->ovl_w, a->ovl_h, 32,
                                                     a->ovl_w * 4, SDL_PIXELFORMAT_ARGB8888);
    if (a->ovl_surf)
        SDL_SetSurfaceBlendMode(a->ovl_surf, SDL_BLENDMODE_BLEND);
    return a->ovl_surf ? 0 : -1;
}

/* The overlay's canvas for the field shown s times larger, and SDL's
 * view of it made again when it is a new one: the text keeps its size
 * at any scale.  Memory running out keeps the old canvas (the overlay
 * then covers less of the window); no texture or surface for it hides
 * the overlay. */
static void overlay_canvas(app_t *a, int s)
{
    if (app_overlay_scale(a, s) != 1)
        return;
    if (a->present == PRESENT_SURFACE)
        overlay_surface_of(a);
    else
        overlay_texture(a);
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
    a->tex = SDL_CreateTexture(a->ren,
                               a->o.fmt == RPL_RGB565 ? SDL_PIXELFORMAT_RGB565 : SDL_PIXELFORMAT_RGB888,
                               SDL_TEXTUREACCESS_STREAMING, a->o.w, a->o.h);
    if (!a->tex || overlay_texture(a) != 0) {
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
    rpl_stats_t st;
    rpl_sim_stats(play_sim(a->play), &st);
    a->n_tiles = (int)st.tiles;
    a->changed = calloc(st.tiles, sizeof *a->changed);
    a->push = calloc(st.tiles + 2 * OVL_BOXES, sizeof *a->push);
    if (!a->changed || !a->push) {
        *err = app_format("out of memory");
        return -1;
    }
    if (overlay_surface_of(a) != 0) {
        *err = app_format("cannot make the overlay: %s", SDL_GetError());
        return -1;
    }
    return 0;
}

int app_video_open(app_t *a, char **err)
{
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        *err = app_format("cannot start video: %s (try --headless)", SDL_GetError());
        return -1;
    }
    /* With no display SDL falls back by itself to a driver that shows
     * nothing (offscreen): the demo would play unseen until killed.  Only
     * when asked for by name (SDL_VIDEODRIVER) is such a driver taken. */
    const char *drv = SDL_GetCurrentVideoDriver(), *asked = getenv("SDL_VIDEODRIVER");
    if (drv && (!strcmp(drv, "offscreen") || !strcmp(drv, "dummy")) && !(asked && *asked)) {
        *err = app_format("no display to open a window on (SDL found no X11 or Wayland "
                          "server): run it in a desktop session, or use --headless");
        return -1;
    }
    SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "nearest");
    if (!a->present_why) /* not chosen yet */
        app_present_choose(a);
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
    free(a->changed);
    free(a->push);
    free(a->under);
    if (a->conv_surf)
        SDL_FreeSurface(a->conv_surf);
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
    int w, h;
    if (a->present == PRESENT_SURFACE) {
        SDL_Surface *ws = SDL_GetWindowSurface(a->win);
        if (!ws)
            return;
        w = ws->w, h = ws->h;
    } else { /* the renderer's pixels, which a high-DPI window has more of */
        int ww, wh;
        if (SDL_GetRendererOutputSize(a->ren, &w, &h) != 0)
            return;
        SDL_GetWindowSize(a->win, &ww, &wh);
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
    int bytes = ws->format->BytesPerPixel;
    SDL_Surface *src = a->fb_surf;
    if (s > 1 && !same_format(a, ws)) {
        if (a->conv_surf && a->conv_surf->format->format != ws->format->format) {
            SDL_FreeSurface(a->conv_surf);
            a->conv_surf = NULL;
        }
        if (!a->conv_surf)
            a->conv_surf = SDL_CreateRGBSurfaceWithFormat(0, a->o.w, a->o.h, 32,
                                                          ws->format->format);
        src = a->conv_surf;
        for (int i = 0; src && i < n; i++) {
            SDL_Rect r = { a->changed[i].x, a->changed[i].y, a->changed[i].w, a->changed[i].h };
            SDL_BlitSurface(a->fb_surf, &r, src, &r);
        }
    }
    for (int i = 0; i < n; i++) {
        const rpl_rect_t *c = &a->changed[i];
        SDL_Rect r = { c->x, c->y, c->w, c->h }, to = on_surface(c, d, s);
        if (s == 1) {
            SDL_BlitSurface(a->fb_surf, &r, ws, &to);
        } else if (src && (bytes == 2 || bytes == 4)) {
            const char *from = (const char *)src->pixels + (ptrdiff_t)c->y * src->pitch +
                               (ptrdiff_t)c->x * bytes;
            char *at = (char *)ws->pixels + (ptrdiff_t)to.y * ws->pitch + (ptrdiff_t)to.x * bytes;
            if (rpl_upscale(rpl_sim_kernels(play_sim(a->play)), from, src->pitch, at,
                            ws->pitch, c->w, c->h, bytes, s) != RPL_OK)
                SDL_BlitScaled(a->fb_surf, &r, ws, &to); /* SDL's scaler, as for 24 bits */
        } else { /* a 24-bit screen: SDL's scaler */
            SDL_BlitScaled(a->fb_surf, &r, ws, &to);
        }
    }
}

/* Copies the rectangles of the window surface under the overlay to
 * a->under (save) or back (restore): the pixels the water left there,
 * so that the surface shows exactly what the renderer last drew before it
 * draws again, and the tiles under the overlay are redrawn only when the
 * water in them changes. */
static int save_under(app_t *a, SDL_Surface *ws, const SDL_Rect *r, int n, int restore)
{
    size_t need = 0;
    int bytes = ws->format->BytesPerPixel;
    for (int i = 0; i < n; i++)
        need += (size_t)r[i].w * (size_t)r[i].h * (size_t)bytes;
    if (!restore && need > a->under_len) {
        void *p = realloc(a->under, need);
        if (!p)
            return -1;
        a->under = p, a->under_len = need;
    }
    char *u = a->under;
    for (int i = 0; i < n; i++) {
        size_t row = (size_t)r[i].w * (size_t)bytes;
        for (int y = r[i].y; y < r[i].y + r[i].h; y++, u += row) {
            char *px = (char *)ws->pixels + (ptrdiff_t)y * ws->pitch + (ptrdiff_t)r[i].x * bytes;
            if (restore)
                memcpy(px, u, row);
            else
                memcpy(u, px, row);
        }
    }
    return 0;
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
    if (ws != a->last_ws || ws->w != a->last_ws_w || ws->h != a->last_ws_h) {
        SDL_FillRect(ws, NULL, 0); /* the margins around a centred frame */
        a->last_ws = ws, a->last_ws_w = ws->w, a->last_ws_h = ws->h;
        a->scene->invalidate(a);
        a->ovl_laid_n = 0; /* nothing of it on this surface */
        return 1;
    }
    if (save_under(a, ws, a->ovl_laid, a->ovl_laid_n, 1) != 0)
        a->scene->invalidate(a);
    return 0;
}

/* A window smaller than the field: the frame and the overlay go through
 * SDL's blits, which clip, and the whole window is pushed. */
static void draw_clipped(app_t *a, SDL_Surface *ws, SDL_Rect d, drawn_t *f)
{
    uint64_t t0 = SDL_GetPerformanceCounter();
    app_refract(a);
    a->ms_refract = app_ms_since(t0);
    SDL_BlitSurface(a->fb_surf, NULL, ws, &d);
    app_draw_overlay(a);
    for (int i = 0; a->ovl_surf && i < a->ovl_n; i++) {
        SDL_Rect b = a->ovl_box[i], od = { d.x + b.x, d.y + b.y, b.w, b.h };
        SDL_BlitSurface(a->ovl_surf, &b, ws, &od);
    }
    a->ovl_laid_n = 0;
    a->surface_how = "clipped to a small window";
    f->all = 1;
}

/* The overlay over the window surface, at the window's own pixels (its
 * text the same size at every scale), after saving what it covers (taken
 * off again before the next draw): to push where it was if it moved or
 * changed, and where it is if it or the water under it (the n changed
 * tiles, scaled s times) changed.  Returns the rectangles to push, np of
 * them before. */
static int overlay_surface(app_t *a, SDL_Surface *ws, const SDL_Rect *d, int s, int n, int np)
{
    int changed = app_draw_overlay(a);
    if (changed)
        for (int i = 0; i < a->ovl_laid_n; i++)
            a->push[np++] = a->ovl_laid[i];
    a->ovl_laid_n = 0;
    for (int i = 0; i < a->ovl_n; i++) {
        const SDL_Rect *b = &a->ovl_box[i];
        SDL_Rect od = { d->x + b->x, d->y + b->y, b->w, b->h };
        a->ovl_laid[a->ovl_laid_n++] = od;
        int under = changed; /* or the water under it */
        for (int k = 0; k < n && !under; k++) {
            SDL_Rect c = on_surface(&a->changed[k], d, s);
            under = SDL_HasIntersection(&c, &od);
        }
        if (under)
            a->push[np++] = od;
    }
    int locked = SDL_MUSTLOCK(ws) && SDL_LockSurface(ws) == 0;
    if (save_under(a, ws, a->ovl_laid, a->ovl_laid_n, 0) != 0) {
        a->ovl_laid_n = 0; /* no room to save it: no overlay this frame */
    } else if (ws->format->BytesPerPixel == 4) {
        /* on 32-bit pixels the panels and text go straight in */
        uint32_t *at = (uint32_t *)(void *)((char *)ws->pixels + (ptrdiff_t)d->y * ws->pitch +
                                            (ptrdiff_t)d->x * 4);
        app_lay_overlay(a, at, ws->pitch, d->w, d->h);
    }
    if (locked)
        SDL_UnlockSurface(ws);
    if (ws->format->BytesPerPixel != 4)
        for (int i = 0; a->ovl_surf && i < a->ovl_laid_n; i++) { /* SDL blends the overlay */
            SDL_Rect b = a->ovl_box[i], to = a->ovl_laid[i]; /* SDL clips them in place */
            SDL_BlitSurface(a->ovl_surf, &b, ws, &to);
        }
    return np;
}

/* A frame in the window's own pixels.  The scene is drawn straight into
 * them when they have the framebuffer's format at scale 1 (else into fb,
 * then copied: converted by SDL, upscaled by ours), the overlay laid over
 * it; what changed (the scene's changed tiles, the overlay where it or
 * the water under it changed) is listed for the present. */
static void draw_surface(app_t *a, drawn_t *f)
{
    SDL_Surface *ws = SDL_GetWindowSurface(a->win); /* a new one after a resize */
    if (!ws)
        return;
    f->ws = ws;
    SDL_Rect d = place(a, ws->w, ws->h);
    int s = d.w / a->o.w;
    overlay_canvas(a, s);
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
    a->ms_refract = app_ms_since(t0);
    int n = a->scene->changed(a, a->changed, a->n_tiles);
    a->surface_how = direct ? "refracted into the window" : s == 1 ? "converted" : "upscaled";
    if (locked)
        SDL_UnlockSurface(ws);
    if (!direct)
        copy_changed(a, ws, &d, s, n);
    for (int i = 0; i < n; i++)
        a->push[f->np++] = on_surface(&a->changed[i], &d, s);
    f->np = overlay_surface(a, ws, &d, s, n, f->np);
}

/* Hands what draw_surface drew to the screen. */
static void present_surface(app_t *a, const drawn_t *f)
{
    if (!f->ws)
        return;
    if (f->all)
        SDL_UpdateWindowSurface(a->win);
    else if (f->np > 0)
        SDL_UpdateWindowSurfaceRects(a->win, a->push, f->np);
}

/* A frame for SDL's renderer: the scene into fb, the overlay redrawn if
 * what it shows changed, or on a new canvas for a new scale. */
static void draw_texture(app_t *a, drawn_t *f)
{
    int w = a->o.w, h = a->o.h;
    if (SDL_GetRendererOutputSize(a->ren, &w, &h) != 0)
        w = a->o.w, h = a->o.h;
    f->d = place(a, w, h);
    overlay_canvas(a, f->d.w / a->o.w);
    uint64_t t0 = SDL_GetPerformanceCounter();
    app_refract(a);
    a->ms_refract = app_ms_since(t0);
    f->overlay = app_draw_overlay(a);
}

/* SDL's renderer: the frame uploaded to a texture and scaled into place,
 * the overlay's boxes (only) blended over it from a second texture at the
 * renderer's own pixels, presented. */
static void present_texture(app_t *a, const drawn_t *f)
{
    if (a->o.fmt == RPL_INDEX8) {
        /* no GPU takes 8-bit pixels: SDL looks them up in the palette */
        SDL_BlitSurface(a->fb_surf, NULL, a->show_surf, NULL);
        SDL_UpdateTexture(a->tex, NULL, a->show_surf->pixels, a->show_surf->pitch);
    } else {
        SDL_UpdateTexture(a->tex, NULL, a->fb, a->o.w * rpl_format_bytes(a->o.fmt));
    }
    int n = a->ovl_tex ? a->ovl_n : 0;
    if (f->overlay)
        for (int i = 0; i < n; i++) {
            const SDL_Rect *b = &a->ovl_box[i];
            SDL_UpdateTexture(a->ovl_tex, b, a->ovl + (size_t)b->y * a->ovl_w + b->x,
                              a->ovl_w * 4);
        }
    SDL_SetRenderDrawColor(a->ren, 0, 0, 0, 255);
    SDL_RenderClear(a->ren);
    SDL_RenderCopy(a->ren, a->tex, NULL, &f->d);
    for (int i = 0; i < n; i++) {
        const SDL_Rect *b = &a->ovl_box[i];
        SDL_Rect to = { f->d.x + b->x, f->d.y + b->y, b->w, b->h };
        SDL_RenderCopy(a->ren, a->ovl_tex, b, &to);
    }
    SDL_RenderPresent(a->ren);
}

/* Draws a frame (the scene's changed parts, the overlay) the chosen way,
 * then presents what was drawn. */
void app_render_frame(app_t *a)
{
    uint64_t t0 = SDL_GetPerformanceCounter();
    drawn_t f = { NULL, 0, 0, 0, { 0, 0, 0, 0 } };
    if (a->present == PRESENT_SURFACE) {
        draw_surface(a, &f);
        present_surface(a, &f);
    } else {
        draw_texture(a, &f);
        present_texture(a, &f);
    }
    /* presenting is the rest of the frame's drawing */
    a->ms_present = app_ms_since(t0) - a->ms_refract;
    app_smooth(&a->t_refract, a->ms_refract);
    app_smooth(&a->t_present, a->ms_present);
}
